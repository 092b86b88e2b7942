package catalogviews

import (
	"strconv"
	"strings"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// The object identifier types (regclass, regtype, regproc, regprocedure,
// regnamespace, regrole, regoper) read and print names of every object the
// catalogs list: cdcdb's relations and indexes, PostgreSQL's built-in
// catalogs, types and functions, and the roles. A name is resolved as
// PostgreSQL resolves it: qualified, or through the search path with
// pg_catalog first.

// Names is what reading and printing names needs of a session, with or
// without a statement running.
type Names interface {
	TypeResolver
	// SearchPath is the schemas unqualified names are looked up in.
	SearchPath() []string
	// TempSchemaName is the name of the session's temporary schema.
	TempSchemaName() string
	// OwnTempSchema is the schema a schema name means: pg_temp is the
	// session's temporary schema.
	OwnTempSchema(name string) string
}

// RegIn resolves a reg* literal to an OID, as the type's input function
// does: a number as it is, else a name looked up in cat.
func RegIn(names Names, cat *catalog.Snapshot, oid types.OID, text string) (types.Value, error) {
	trimmed := strings.TrimSpace(text)
	if n, err := strconv.ParseInt(trimmed, 10, 64); err == nil {
		return n, nil
	}
	if trimmed == "-" && (oid == types.Regproc || oid == types.Regclass || oid == types.Regtype) {
		return int64(0), nil
	}
	switch oid {
	case types.Regclass:
		parts := SplitQualifiedName(trimmed)
		name := parts[len(parts)-1]
		if len(parts) > 1 {
			sc, ok := cat.Schema(names.OwnTempSchema(parts[len(parts)-2]))
			if ok {
				if o, _, found := RelationInSchema(cat, sc, name); found {
					return int64(o), nil
				}
			}
		} else {
			for _, sname := range names.SearchPath() {
				if sc, ok := cat.Schema(sname); ok {
					if o, _, found := RelationInSchema(cat, sc, name); found {
						return int64(o), nil
					}
				}
			}
		}
		return nil, pgerror.New(pgerror.UndefinedTable, "relation \"%s\" does not exist", text)
	case types.Regtype:
		name := strings.ToLower(trimmed)
		if t, ok := types.ByName(canonicalTypeName(name)); ok {
			return int64(t.OID), nil
		}
		parts := SplitQualifiedName(trimmed)
		last := parts[len(parts)-1]
		for _, t := range cat.Tables() {
			if t.Name == last && t.RowType != 0 {
				if len(parts) == 1 || SchemaNameOf(cat, t.Schema) == parts[len(parts)-2] {
					return int64(t.RowType), nil
				}
			}
		}
		if d := infoDomainByName(names, last); d != nil && (len(parts) == 1 || parts[len(parts)-2] == "information_schema") {
			return int64(d.oid), nil
		}
		if r := StaticRowByName("pg_type", "typname", last); r != nil {
			return r[0], nil
		}
		return nil, pgerror.New(pgerror.UndefinedObject, "type \"%s\" does not exist", text)
	case types.Regnamespace:
		parts := SplitQualifiedName(trimmed)
		if sc, ok := cat.Schema(names.OwnTempSchema(parts[len(parts)-1])); ok {
			return int64(sc.OID), nil
		}
		return nil, pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", text)
	case types.Regrole:
		parts := SplitQualifiedName(trimmed)
		if r, ok := cat.Role(parts[0]); ok {
			return int64(r.OID), nil
		}
		if r := StaticRowByName("pg_authid", "rolname", parts[0]); r != nil {
			return r[0], nil
		}
		return nil, pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", text)
	case types.Regproc, types.Regprocedure:
		name := trimmed
		if i := strings.IndexByte(name, '('); i >= 0 && oid == types.Regprocedure && strings.HasSuffix(name, ")") {
			// name(argtype, ...): the function with exactly these inputs.
			var want []int64
			if args := strings.TrimSpace(name[i+1 : len(name)-1]); args != "" {
				for _, a := range strings.Split(args, ",") {
					t, err := RegIn(names, cat, types.Regtype, a)
					if err != nil {
						return nil, err
					}
					want = append(want, t.(int64))
				}
			}
			parts := SplitQualifiedName(name[:i])
			if r := ProcByArgs(parts[len(parts)-1], want); r != nil {
				return r[0], nil
			}
			return nil, pgerror.New(pgerror.UndefinedFunction, "function \"%s\" does not exist", text)
		}
		parts := SplitQualifiedName(name)
		if oid == types.Regproc && CountStaticRows("pg_proc", "proname", parts[len(parts)-1]) > 1 {
			return nil, pgerror.New(pgerror.AmbiguousFunction, "more than one function named \"%s\"", text)
		}
		if r := StaticRowByName("pg_proc", "proname", parts[len(parts)-1]); r != nil {
			return r[0], nil
		}
		return nil, pgerror.New(pgerror.UndefinedFunction, "function \"%s\" does not exist", text)
	case types.Regoper:
		if r := StaticRowByName("pg_operator", "oprname", trimmed); r != nil {
			return r[0], nil
		}
		return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist: %s", text)
	}
	return nil, pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", types.FormatType(types.Of(oid)), text)
}

// RegOut prints an OID as its reg* type does: the object's name, qualified
// only when the search path would not find it, or the number when no
// object has that OID. sess is the running statement, nil outside one
// (a relation then prints by the search path alone).
func RegOut(names Names, sess Session, cat *catalog.Snapshot, oid types.OID, v int64) string {
	if v == 0 {
		return "-"
	}
	switch oid {
	case types.Regclass:
		if name, schema, ok := RelationNameOf(cat, uint32(v)); ok {
			if sess != nil && RelationVisible(sess, uint32(v)) {
				return parse.QuoteIdent(name)
			}
			sname := SchemaNameOf(cat, schema)
			if sess == nil && schemaVisible(names, sname) {
				return parse.QuoteIdent(name)
			}
			return parse.QuoteIdent(sname) + "." + parse.QuoteIdent(name)
		}
	case types.Regtype:
		if _, ok := types.Lookup(types.OID(v)); ok {
			if types.OID(v) == types.Bpchar {
				// format_type_be: bpchar with no modifier given is
				// "character" (with -1 given it would be "bpchar").
				return "character"
			}
			return types.FormatType(types.Of(types.OID(v)))
		}
		for _, t := range cat.Tables() {
			if int64(t.RowType) == v {
				sname := SchemaNameOf(cat, t.Schema)
				if schemaVisible(names, sname) {
					return parse.QuoteIdent(t.Name)
				}
				return parse.QuoteIdent(sname) + "." + parse.QuoteIdent(t.Name)
			}
		}
		if d := infoDomainByOID(names, uint32(v)); d != nil {
			return domainTypeName(sess, d)
		}
		if r := StaticRowByOID("pg_type", v); r != nil {
			return r[1].(string)
		}
	case types.Regnamespace:
		if sc, ok := cat.SchemaByOID(uint32(v)); ok {
			return parse.QuoteIdent(sc.Name)
		}
	case types.Regrole:
		if r, ok := cat.RoleByOID(uint32(v)); ok {
			return parse.QuoteIdent(r.Name)
		}
		if r := StaticRowByOID("pg_authid", v); r != nil {
			return parse.QuoteIdent(r[1].(string))
		}
	case types.Regproc, types.Regprocedure:
		if r := StaticRowByOID("pg_proc", v); r != nil {
			name := r[1].(string)
			if oid == types.Regprocedure {
				b := CatalogRowBuilder("pg_proc")
				var args []string
				if in, ok := r[b.Col("proargtypes")].(types.ArrayValue); ok {
					for _, a := range in.Elems {
						args = append(args, types.FormatType(types.Of(types.OID(a.(int64)))))
					}
				}
				return name + "(" + strings.Join(args, ",") + ")"
			}
			return name
		}
	case types.Regoper:
		if r := StaticRowByOID("pg_operator", v); r != nil {
			return r[1].(string)
		}
	}
	return strconv.FormatInt(v, 10)
}

// canonicalTypeName maps SQL spellings to pg_type names for ::regtype.
func canonicalTypeName(name string) string {
	switch name {
	case "integer", "int":
		return "int4"
	case "bigint":
		return "int8"
	case "smallint":
		return "int2"
	case "real":
		return "float4"
	case "double precision", "float":
		return "float8"
	case "boolean":
		return "bool"
	case "character varying":
		return "varchar"
	case "character":
		return "bpchar"
	case "timestamp without time zone":
		return "timestamp"
	case "timestamp with time zone":
		return "timestamptz"
	case "time without time zone":
		return "time"
	case "decimal":
		return "numeric"
	}
	return name
}

// SplitQualifiedName splits a.b."C" into parts, folding unquoted parts.
func SplitQualifiedName(s string) []string {
	var parts []string
	var cur strings.Builder
	inQuote := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' && inQuote && i+1 < len(s) && s[i+1] == '"':
			cur.WriteByte('"')
			i++
		case c == '"':
			inQuote = !inQuote
		case c == '.' && !inQuote:
			parts = append(parts, cur.String())
			cur.Reset()
		case !inQuote:
			cur.WriteString(strings.ToLower(string(c)))
		default:
			cur.WriteByte(c)
		}
	}
	parts = append(parts, strings.TrimSpace(cur.String()))
	return parts
}
