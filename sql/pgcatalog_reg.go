package sql

import (
	"strconv"
	"strings"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/catalogviews"
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
				if o, _, found := catalogviews.RelationInSchema(cat, sc, name); found {
					return int64(o), nil
				}
			}
		} else {
			for _, sname := range s.searchPath() {
				if sc, ok := cat.Schema(sname); ok {
					if o, _, found := catalogviews.RelationInSchema(cat, sc, name); found {
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
				if len(parts) == 1 || catalogviews.SchemaNameOf(cat, t.Schema) == parts[len(parts)-2] {
					return int64(t.RowType), nil
				}
			}
		}
		if d, ok := catalogviews.InfoDomainOID(domainTypes{}, last); ok && (len(parts) == 1 || parts[len(parts)-2] == "information_schema") {
			return int64(d), nil
		}
		if r := catalogviews.StaticRowByName("pg_type", "typname", last); r != nil {
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
		if r := catalogviews.StaticRowByName("pg_authid", "rolname", parts[0]); r != nil {
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
			if r := catalogviews.ProcByArgs(parts[len(parts)-1], want); r != nil {
				return r[0], nil
			}
			return nil, pgerror.New(pgerror.UndefinedFunction, "function \"%s\" does not exist", text)
		}
		parts := splitQualifiedName(name)
		if oid == types.Regproc && catalogviews.CountStaticRows("pg_proc", "proname", parts[len(parts)-1]) > 1 {
			return nil, pgerror.New(pgerror.AmbiguousFunction, "more than one function named \"%s\"", text)
		}
		if r := catalogviews.StaticRowByName("pg_proc", "proname", parts[len(parts)-1]); r != nil {
			return r[0], nil
		}
		return nil, pgerror.New(pgerror.UndefinedFunction, "function \"%s\" does not exist", text)
	case types.Regoper:
		if r := catalogviews.StaticRowByName("pg_operator", "oprname", trimmed); r != nil {
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
		if name, schema, ok := catalogviews.RelationNameOf(cat, uint32(v)); ok {
			if x != nil && x.tx != nil && catalogviews.RelationVisible(x.catalogViews(), uint32(v)) {
				return quoteIdent(name)
			}
			sname := catalogviews.SchemaNameOf(cat, schema)
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
				sname := catalogviews.SchemaNameOf(cat, t.Schema)
				if s.schemaVisible(sname) {
					return quoteIdent(t.Name)
				}
				return quoteIdent(sname) + "." + quoteIdent(t.Name)
			}
		}
		if name, ok := catalogviews.InfoDomainTypeName(domainTypes{}, x.catalogViews(), uint32(v)); ok {
			return name
		}
		if r := catalogviews.StaticRowByOID("pg_type", v); r != nil {
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
		if r := catalogviews.StaticRowByOID("pg_authid", v); r != nil {
			return quoteIdent(r[1].(string))
		}
	case types.Regproc, types.Regprocedure:
		if r := catalogviews.StaticRowByOID("pg_proc", v); r != nil {
			name := r[1].(string)
			if oid == types.Regprocedure {
				b := catalogviews.CatalogRowBuilder("pg_proc")
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
		if r := catalogviews.StaticRowByOID("pg_operator", v); r != nil {
			return r[1].(string)
		}
	}
	return strconv.FormatInt(v, 10)
}
