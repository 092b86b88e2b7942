package sql

import (
	"strconv"
	"strings"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// The object identifier types (regclass, regtype, regproc, regprocedure,
// regnamespace, regrole, regoper) read and print names of every object the
// catalogs list: cdcdb's relations and indexes, PostgreSQL's built-in
// catalogs, types and functions, and the roles. A name is resolved as
// PostgreSQL resolves it: qualified, or through the search path with
// pg_catalog first.

// catalogFor is the catalog a reg* conversion reads: the statement's, or
// the session's latest when there is no statement.
func (s *Session) catalogFor(x *execCtx) *catalog.Snapshot {
	if x != nil && x.tx != nil {
		return x.tx.catalog()
	}
	return s.engine.catalogSnapshot()
}

// regIn resolves a reg* literal to an OID.
func (s *Session) regIn(cat *catalog.Snapshot, oid types.OID, text string) (types.Value, error) {
	trimmed := strings.TrimSpace(text)
	if n, err := strconv.ParseInt(trimmed, 10, 64); err == nil {
		return n, nil
	}
	if trimmed == "-" && (oid == types.Regproc || oid == types.Regclass || oid == types.Regtype) {
		return int64(0), nil
	}
	switch oid {
	case types.Regclass:
		parts := splitQualifiedName(trimmed)
		name := parts[len(parts)-1]
		if len(parts) > 1 {
			sc, ok := cat.Schema(s.ownTempSchema(parts[len(parts)-2]))
			if ok {
				if o, _, found := relationInSchema(cat, sc, name); found {
					return int64(o), nil
				}
			}
		} else {
			for _, sname := range s.searchPath() {
				if sc, ok := cat.Schema(sname); ok {
					if o, _, found := relationInSchema(cat, sc, name); found {
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
		parts := splitQualifiedName(trimmed)
		last := parts[len(parts)-1]
		for _, t := range cat.Tables() {
			if t.Name == last && t.RowType != 0 {
				if len(parts) == 1 || schemaNameOf(cat, t.Schema) == parts[len(parts)-2] {
					return int64(t.RowType), nil
				}
			}
		}
		if d := infoDomainByName(last); d != nil && (len(parts) == 1 || parts[len(parts)-2] == "information_schema") {
			return int64(d.oid), nil
		}
		if r := staticRowByName("pg_type", "typname", last); r != nil {
			return r[0], nil
		}
		return nil, pgerror.New(pgerror.UndefinedObject, "type \"%s\" does not exist", text)
	case types.Regnamespace:
		parts := splitQualifiedName(trimmed)
		if sc, ok := cat.Schema(s.ownTempSchema(parts[len(parts)-1])); ok {
			return int64(sc.OID), nil
		}
		return nil, pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", text)
	case types.Regrole:
		parts := splitQualifiedName(trimmed)
		if r, ok := cat.Role(parts[0]); ok {
			return int64(r.OID), nil
		}
		if r := staticRowByName("pg_authid", "rolname", parts[0]); r != nil {
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
					t, err := s.regIn(cat, types.Regtype, a)
					if err != nil {
						return nil, err
					}
					want = append(want, t.(int64))
				}
			}
			parts := splitQualifiedName(name[:i])
			if r := procByArgs(parts[len(parts)-1], want); r != nil {
				return r[0], nil
			}
			return nil, pgerror.New(pgerror.UndefinedFunction, "function \"%s\" does not exist", text)
		}
		parts := splitQualifiedName(name)
		if oid == types.Regproc && countStaticRows("pg_proc", "proname", parts[len(parts)-1]) > 1 {
			return nil, pgerror.New(pgerror.AmbiguousFunction, "more than one function named \"%s\"", text)
		}
		if r := staticRowByName("pg_proc", "proname", parts[len(parts)-1]); r != nil {
			return r[0], nil
		}
		return nil, pgerror.New(pgerror.UndefinedFunction, "function \"%s\" does not exist", text)
	case types.Regoper:
		if r := staticRowByName("pg_operator", "oprname", trimmed); r != nil {
			return r[0], nil
		}
		return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist: %s", text)
	}
	return nil, pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", types.FormatType(types.Of(oid)), text)
}

// regOut prints an OID as its reg* type does: the object's name, qualified
// only when the search path would not find it, or the number when no
// object has that OID.
func (s *Session) regOut(x *execCtx, cat *catalog.Snapshot, oid types.OID, v int64) string {
	if v == 0 {
		return "-"
	}
	switch oid {
	case types.Regclass:
		if name, schema, ok := relationNameOf(cat, uint32(v)); ok {
			if x != nil && x.tx != nil && relationVisible(x, uint32(v)) {
				return quoteIdent(name)
			}
			sname := schemaNameOf(cat, schema)
			if x == nil && s.schemaVisible(sname) {
				return quoteIdent(name)
			}
			return quoteIdent(sname) + "." + quoteIdent(name)
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
				sname := schemaNameOf(cat, t.Schema)
				if s.schemaVisible(sname) {
					return quoteIdent(t.Name)
				}
				return quoteIdent(sname) + "." + quoteIdent(t.Name)
			}
		}
		if d := infoDomainByOID(uint32(v)); d != nil {
			return domainTypeName(x, d)
		}
		if r := staticRowByOID("pg_type", v); r != nil {
			return r[1].(string)
		}
	case types.Regnamespace:
		if sc, ok := cat.SchemaByOID(uint32(v)); ok {
			return quoteIdent(sc.Name)
		}
	case types.Regrole:
		if r, ok := cat.RoleByOID(uint32(v)); ok {
			return quoteIdent(r.Name)
		}
		if r := staticRowByOID("pg_authid", v); r != nil {
			return quoteIdent(r[1].(string))
		}
	case types.Regproc, types.Regprocedure:
		if r := staticRowByOID("pg_proc", v); r != nil {
			name := r[1].(string)
			if oid == types.Regprocedure {
				b := rowBuilder("pg_proc")
				var args []string
				if in, ok := r[b.col("proargtypes")].(types.ArrayValue); ok {
					for _, a := range in.Elems {
						args = append(args, types.FormatType(types.Of(types.OID(a.(int64)))))
					}
				}
				return name + "(" + strings.Join(args, ",") + ")"
			}
			return name
		}
	case types.Regoper:
		if r := staticRowByOID("pg_operator", v); r != nil {
			return r[1].(string)
		}
	}
	return strconv.FormatInt(v, 10)
}

// schemaNameOf is a schema's name, "" when it is gone.
func schemaNameOf(cat *catalog.Snapshot, oid uint32) string {
	if sc, ok := cat.SchemaByOID(oid); ok {
		return sc.Name
	}
	return ""
}

// staticRowByOID finds an initial row of a catalog by its oid column.
func staticRowByOID(catalogName string, oid int64) eval.Row {
	ct, ok := pgCatalogTables[catalogName]
	if !ok {
		return nil
	}
	static, err := ct.staticRows()
	if err != nil {
		return nil
	}
	for _, r := range static {
		if r[0] == oid {
			return r
		}
	}
	return nil
}

// countStaticRows counts the initial rows of a catalog whose column holds
// name.
func countStaticRows(catalogName, column, name string) int {
	ct, ok := pgCatalogTables[catalogName]
	if !ok {
		return 0
	}
	static, err := ct.staticRows()
	if err != nil {
		return 0
	}
	i := rowBuilder(catalogName).col(column)
	n := 0
	for _, r := range static {
		if r[i] == name {
			n++
		}
	}
	return n
}

// staticRowByName finds the first initial row of a catalog whose column
// holds name.
func staticRowByName(catalogName, column, name string) eval.Row {
	ct, ok := pgCatalogTables[catalogName]
	if !ok {
		return nil
	}
	static, err := ct.staticRows()
	if err != nil {
		return nil
	}
	i := rowBuilder(catalogName).col(column)
	for _, r := range static {
		if r[i] == name {
			return r
		}
	}
	return nil
}

// procByArgs finds a built-in function by name and input argument types.
func procByArgs(name string, args []int64) eval.Row {
	ct := pgCatalogTables["pg_proc"]
	static, err := ct.staticRows()
	if err != nil {
		return nil
	}
	b := rowBuilder("pg_proc")
	for _, r := range static {
		if r[b.col("proname")] != name {
			continue
		}
		in, _ := r[b.col("proargtypes")].(types.ArrayValue)
		if len(in.Elems) != len(args) {
			continue
		}
		same := true
		for i, a := range in.Elems {
			same = same && a == args[i]
		}
		if same {
			return r
		}
	}
	return nil
}
