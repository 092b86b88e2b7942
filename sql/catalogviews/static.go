package catalogviews

import (
	"cdcdb/catalog"
	"cdcdb/types"
)

// SchemaNameOf is a schema's name, "" when it is gone.
func SchemaNameOf(cat *catalog.Snapshot, oid uint32) string {
	if sc, ok := cat.SchemaByOID(oid); ok {
		return sc.Name
	}
	return ""
}

// StaticRowByOID finds an initial row of a catalog by its oid column.
func StaticRowByOID(catalogName string, oid int64) Row {
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

// CountStaticRows counts the initial rows of a catalog whose column holds
// name.
func CountStaticRows(catalogName, column, name string) int {
	ct, ok := pgCatalogTables[catalogName]
	if !ok {
		return 0
	}
	static, err := ct.staticRows()
	if err != nil {
		return 0
	}
	i := CatalogRowBuilder(catalogName).Col(column)
	n := 0
	for _, r := range static {
		if r[i] == name {
			n++
		}
	}
	return n
}

// StaticRowByName finds the first initial row of a catalog whose column
// holds name.
func StaticRowByName(catalogName, column, name string) Row {
	ct, ok := pgCatalogTables[catalogName]
	if !ok {
		return nil
	}
	static, err := ct.staticRows()
	if err != nil {
		return nil
	}
	i := CatalogRowBuilder(catalogName).Col(column)
	for _, r := range static {
		if r[i] == name {
			return r
		}
	}
	return nil
}

// ProcByArgs finds a built-in function by name and input argument types.
func ProcByArgs(name string, args []int64) Row {
	ct := pgCatalogTables["pg_proc"]
	static, err := ct.staticRows()
	if err != nil {
		return nil
	}
	b := CatalogRowBuilder("pg_proc")
	for _, r := range static {
		if r[b.Col("proname")] != name {
			continue
		}
		in, _ := r[b.Col("proargtypes")].(types.ArrayValue)
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

// StaticRows are a catalog's initial rows, PostgreSQL's (typed once; the
// caller must not change them); nil for a catalog cdcdb does not serve.
func StaticRows(catalogName string) ([]Row, error) {
	ct, ok := pgCatalogTables[catalogName]
	if !ok {
		return nil, nil
	}
	return ct.staticRows()
}
