package catalogviews

import (
	"sort"
	"sync"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/parse"
	"cdcdb/sql/pgdefs"
	"cdcdb/types"
)

// Row is one row of a relation, a value per column (as package sql's).
type Row = []types.Value

// Column is a relation's column: its name and type, and for a column a
// system view passes through from a catalog, that catalog's OID (0 for a
// computed one).
type Column struct {
	Name     string
	Type     types.T
	TableOID uint32
}

// Relation is a read-only relation computed from the catalog on each read:
// a pg_catalog or information_schema relation, or one of cdcdb's own
// views. A system view (Query not empty) is planned by package sql from
// its defining SQL, like a user view; the others make their rows here.
type Relation struct {
	schema string
	name   string
	oid    uint32
	cols   []Column
	rows   func(sess Session) ([]Row, error)
	// query, when set, makes this a system view: its defining SQL is
	// planned where it is used, like a user view's (cols and rows unused).
	query string
}

// Schema, Name and OID name the relation as pg_class lists it.
func (r *Relation) Schema() string { return r.schema }
func (r *Relation) Name() string   { return r.name }
func (r *Relation) OID() uint32    { return r.oid }

// Columns are the relation's columns, not those of a system view (see
// Session.ViewColumns).
func (r *Relation) Columns() []Column { return r.cols }

// Query is a system view's defining SQL; "" for a relation with rows.
func (r *Relation) Query() string { return r.query }

// Rows makes the relation's rows for the session's statement. The rows
// may be a cache shared by concurrent statements: the caller must not
// change them.
func (r *Relation) Rows(sess Session) ([]Row, error) { return r.rows(sess) }

// systemTables holds every system relation by schema, then name. It is
// filled by init functions and read-only after.
var systemTables = map[string]map[string]*Relation{}

// nextSystemOID numbers system relations below FirstUserOID, as
// PostgreSQL's own catalogs are.
var nextSystemOID uint32 = 12000

func registerSystemTable(t *Relation) {
	if systemTables[t.schema] == nil {
		systemTables[t.schema] = map[string]*Relation{}
	}
	if _, dup := systemTables[t.schema][t.name]; dup {
		panic("catalogviews: " + t.schema + "." + t.name + " registered twice")
	}
	if t.oid == 0 {
		t.oid = nextSystemOID
		nextSystemOID++
	}
	for i := range t.cols {
		t.cols[i].TableOID = t.oid
	}
	systemTables[t.schema][t.name] = t
}

// Lookup finds a system relation by schema and name.
func Lookup(schema, name string) (*Relation, bool) {
	t, ok := systemTables[schema][name]
	return t, ok
}

// systemRelations lists every system relation sorted by OID, for pg_class
// and pg_attribute.
func systemRelations() []*Relation {
	var out []*Relation
	for _, byName := range systemTables {
		for _, t := range byName {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].oid < out[j].oid })
	return out
}

// System views are planned (by package sql) from PostgreSQL's own
// definitions in system_views.sql (pg_tables, pg_roles, pg_settings, ...),
// over the catalogs of pgcatalog.go, exactly as a user view is planned
// from its query: their columns and behaviour are then PostgreSQL's, not a
// copy of them.

// systemViewQueries caches each system view's parsed query.
var systemViewQueries sync.Map // *Relation -> *ast.Select

func init() {
	for _, v := range pgdefs.SystemViews() {
		registerSystemTable(&Relation{schema: "pg_catalog", name: v.Name, query: v.SQL})
	}
}

// ViewSelect parses a system view's query once.
func ViewSelect(vt *Relation) (*ast.Select, error) {
	if q, ok := systemViewQueries.Load(vt); ok {
		return q.(*ast.Select), nil
	}
	stmts, err := parse.Parse(vt.query)
	if err != nil {
		return nil, pgerror.New(pgerror.InternalError, "system view %s.%s: %v", vt.schema, vt.name, err)
	}
	q, ok := stmts[0].(*ast.Select)
	if len(stmts) != 1 || !ok {
		return nil, pgerror.New(pgerror.InternalError, "system view %s.%s is not a query", vt.schema, vt.name)
	}
	systemViewQueries.Store(vt, q)
	return q, nil
}
