package catalogviews

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"cdcdb/catalog"
	"cdcdb/source"
	"cdcdb/sql/ast"
	"cdcdb/storage"
	"cdcdb/storage/storagetest"
	"cdcdb/types"
)

// fakeSession is a Session made of plain values: the views need nothing
// of package sql beyond what the interface says.
type fakeSession struct {
	cat        *catalog.Snapshot
	tx         *storage.Tx
	committed  bool
	user       string
	searchPath []string
}

func (f *fakeSession) Catalog() *catalog.Snapshot  { return f.cat }
func (f *fakeSession) CatalogCommitted() bool      { return f.committed }
func (f *fakeSession) Storage() *storage.Tx        { return f.tx }
func (f *fakeSession) StorageStats() storage.Stats { return storage.Stats{Commits: 7} }
func (f *fakeSession) SourceStatus(catalog.OID) (source.Status, bool) {
	return source.Status{}, false
}
func (f *fakeSession) User() string           { return f.user }
func (f *fakeSession) SessionUser() string    { return "postgres" }
func (f *fakeSession) BackendPID() int32      { return 42 }
func (f *fakeSession) SearchPath() []string   { return f.searchPath }
func (f *fakeSession) TempSchemaName() string { return "pg_temp_1" }
func (f *fakeSession) OwnTempSchema(name string) string {
	if name == "pg_temp" {
		return f.TempSchemaName()
	}
	return name
}
func (f *fakeSession) IsTempSchema(catalog.OID) bool         { return false }
func (f *fakeSession) TableOwner(*catalog.Table) catalog.OID { return catalog.BootstrapRoleOID }
func (f *fakeSession) TableACL(*catalog.Table) types.Value   { return nil }
func (f *fakeSession) TablePrivilegeRows(bool, *RowBuilder) ([]Row, error) {
	return nil, nil
}
func (f *fakeSession) HasTablePrivilege([]types.Value) (types.Value, error) {
	return true, nil
}
func (f *fakeSession) HasSchemaPrivilege([]types.Value) (types.Value, error) {
	return true, nil
}
func (f *fakeSession) HasRole([]types.Value) (types.Value, error) { return true, nil }
func (f *fakeSession) SequenceLastValue(SerialSequence) types.Value {
	return int64(7)
}
func (f *fakeSession) ViewColumns(*Relation) ([]Column, error) {
	return []Column{{Name: "v", Type: types.Of(types.Text)}}, nil
}
func (f *fakeSession) ViewReads(*catalog.Table) []catalog.OID     { return nil }
func (f *fakeSession) QualifiedViewQuery(t *catalog.Table) string { return t.ViewQuery }
func (f *fakeSession) LookupTable(name ast.QualifiedName) (*catalog.Table, error) {
	for _, s := range f.searchPath {
		if sc, ok := f.cat.Schema(s); ok {
			if t, ok := f.cat.Table(sc.OID, name.Name()); ok {
				return t, nil
			}
		}
	}
	return nil, errors.New("no such table")
}
func (f *fakeSession) ColumnName(e ast.Expr) string {
	if c, ok := e.(*ast.ColumnRef); ok {
		return c.Parts[len(c.Parts)-1]
	}
	return "?column?"
}

// WalkExpr walks the forms the test's CHECK expressions use.
func (f *fakeSession) WalkExpr(e ast.Node, fn func(ast.Node) bool) {
	if e == nil || !fn(e) {
		return
	}
	switch e := e.(type) {
	case *ast.Binary:
		f.WalkExpr(e.L, fn)
		f.WalkExpr(e.R, fn)
	case *ast.Unary:
		f.WalkExpr(e.X, fn)
	}
}
func (f *fakeSession) ResolveType(t *ast.TypeName) (types.T, error) {
	typ, ok := types.ByName(t.Name)
	if !ok {
		return types.T{}, fmt.Errorf("type %s", t.Name)
	}
	return typ, nil
}

// fixture is schema s with two tables, a serial, a check, a foreign key,
// an index and comments, in a storage transaction of its own.
func fixture(t *testing.T) *fakeSession {
	db := storagetest.Open(t)
	tx, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tx.Rollback() })
	ed, err := catalog.Empty().Edit(tx)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(ed.PutSchema(&catalog.Schema{OID: catalog.PublicNamespace, Name: "public"}))
	must(ed.PutSchema(&catalog.Schema{OID: catalog.PgCatalogNamespace, Name: "pg_catalog"}))
	must(ed.PutSchema(&catalog.Schema{OID: 20000, Name: "s", Comment: "things"}))
	must(ed.PutTable(&catalog.Table{OID: 20001, Schema: 20000, Name: "parent", NextAttnum: 2, RowType: 20002,
		Columns:       []catalog.Column{{Name: "id", Type: types.Of(types.Int4), Attnum: 1, NotNull: true}},
		PrimaryKey:    []int16{1},
		PrimaryKeyOID: 20003, PrimaryKeyName: "parent_pkey",
		Indexes: []catalog.Index{{OID: 20003, Name: "parent_pkey", Columns: []int16{1}, Unique: true, Primary: true}}}))
	must(ed.PutTable(&catalog.Table{OID: 20010, Schema: 20000, Name: "child", NextAttnum: 4, RowType: 20011, Comment: "kids",
		Columns: []catalog.Column{
			{Name: "id", Type: types.Of(types.Int4), Attnum: 1, NotNull: true, Default: "nextval('child_id_seq'::regclass)", Sequence: "child_id_seq"},
			{Name: "parent", Type: types.Of(types.Int4), Attnum: 2},
			{Name: "qty", Type: types.Of(types.Int8), Attnum: 3, Default: "5", Comment: "how many"},
		},
		Constraints: []catalog.Constraint{
			{OID: 20012, Name: "child_qty_check", Kind: "c", Check: "qty > 0"},
			{OID: 20013, Name: "child_parent_fkey", Kind: "f", Columns: []int16{2}, RefTable: 20001, RefColumns: []int16{1}, OnDelete: "CASCADE"},
		},
		Indexes: []catalog.Index{{OID: 20014, Name: "child_qty", Columns: []int16{3}, Desc: []bool{true}}}}))
	return &fakeSession{cat: ed.Snapshot(), tx: tx, user: "alice", searchPath: []string{"pg_catalog", "public"}}
}

// rowsOf reads a relation and prints the named columns of each row whose
// first printed column is key, as col=value pairs.
func rowsOf(t *testing.T, sess Session, schema, name string, cols ...string) []string {
	t.Helper()
	rel, ok := Lookup(schema, name)
	if !ok {
		t.Fatalf("%s.%s not registered", schema, name)
	}
	rows, err := rel.Rows(sess)
	if err != nil {
		t.Fatalf("%s.%s: %v", schema, name, err)
	}
	b := NewRowBuilder(name, rel.Columns())
	var out []string
	for _, r := range rows {
		parts := make([]string, len(cols))
		for i, c := range cols {
			v := r[b.Col(c)]
			if v == nil {
				parts[i] = "NULL"
				continue
			}
			parts[i] = types.FormatText(rel.Columns()[b.Col(c)].Type, v)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out
}

func contains(rows []string, want string) bool {
	for _, r := range rows {
		if r == want {
			return true
		}
	}
	return false
}

// The live catalogs and information_schema views describe the session's
// catalog as PostgreSQL describes the same objects.
func TestLiveRowsThroughSession(t *testing.T) {
	sess := fixture(t)
	cases := []struct {
		schema, rel string
		cols        []string
		want        string
	}{
		{"pg_catalog", "pg_namespace", []string{"nspname", "nspowner"}, "s|10"},
		{"pg_catalog", "pg_namespace", []string{"nspname", "nspowner"}, "public|6171"},
		{"pg_catalog", "pg_class", []string{"relname", "relkind", "relnatts", "relhasindex", "relhastriggers"}, "child|r|3|t|t"},
		{"pg_catalog", "pg_class", []string{"relname", "relkind", "relnamespace"}, "child_id_seq|S|20000"},
		{"pg_catalog", "pg_class", []string{"relname", "relkind", "relam"}, "child_qty|i|403"},
		{"pg_catalog", "pg_class", []string{"relname", "relkind", "relnamespace"}, "pg_class|r|11"},
		{"pg_catalog", "pg_attribute", []string{"attrelid", "attname", "attnum", "atttypid", "attnotnull", "atthasdef"}, "20010|qty|3|20|f|t"},
		{"pg_catalog", "pg_attrdef", []string{"adrelid", "adnum", "adbin"}, "20010|3|5"},
		{"pg_catalog", "pg_constraint", []string{"conname", "contype", "conkey"}, "child_qty_check|c|{3}"},
		{"pg_catalog", "pg_constraint", []string{"conname", "contype", "confrelid", "confdeltype", "conindid"}, "child_parent_fkey|f|20001|c|20003"},
		{"pg_catalog", "pg_constraint", []string{"conname", "contype", "conindid"}, "parent_pkey|p|20003"},
		{"pg_catalog", "pg_index", []string{"indexrelid", "indrelid", "indisunique", "indoption"}, "20014|20010|f|3"},
		{"pg_catalog", "pg_description", []string{"objoid", "objsubid", "description"}, "20010|3|how many"},
		{"pg_catalog", "pg_description", []string{"objoid", "classoid", "description"}, "20000|2615|things"},
		{"pg_catalog", "pg_depend", []string{"objid", "refobjid", "refobjsubid", "deptype"}, fmt.Sprint(SequenceOID(20010, 1), "|20010|1|a")},
		{"pg_catalog", "pg_type", []string{"oid", "typname", "typtype", "typrelid"}, "20011|child|c|20010"},
		{"pg_catalog", "pg_proc", []string{"proname"}, "now"},
		{"information_schema", "columns", []string{"table_schema", "table_name", "column_name", "column_default", "is_nullable", "data_type"},
			"s|child|qty|5|YES|bigint"},
		{"information_schema", "table_constraints", []string{"constraint_name", "constraint_type"}, "child_parent_fkey|FOREIGN KEY"},
		{"information_schema", "referential_constraints", []string{"constraint_name", "unique_constraint_name", "delete_rule"}, "child_parent_fkey|parent_pkey|CASCADE"},
		{"information_schema", "check_constraints", []string{"constraint_name", "check_clause"}, "child_qty_check|((qty > 0))"},
		{"information_schema", "tables", []string{"table_schema", "table_name", "table_type"}, "s|parent|BASE TABLE"},
		{"cdcdb", "storage", []string{"commits"}, "7"},
	}
	for _, c := range cases {
		rows := rowsOf(t, sess, c.schema, c.rel, c.cols...)
		if !contains(rows, c.want) {
			t.Errorf("%s.%s (%s): no row %q among %d", c.schema, c.rel, strings.Join(c.cols, ", "), c.want, len(rows))
		}
	}
}

// The definitions the catalog functions print, names qualified as the
// session's search path needs.
func TestDefinitionsThroughSession(t *testing.T) {
	sess := fixture(t)
	cases := []struct {
		name string
		got  types.Value
		want string
	}{
		{"check", ConstraintDef(sess, 20012, false), "CHECK ((qty > 0))"},
		{"foreign key", ConstraintDef(sess, 20013, false), "FOREIGN KEY (parent) REFERENCES s.parent(id) ON DELETE CASCADE"},
		{"primary key", ConstraintDef(sess, 20003, false), "PRIMARY KEY (id)"},
		{"index", IndexDef(sess, 20014, 0), "CREATE INDEX child_qty ON s.child USING btree (qty DESC)"},
		{"index column", IndexDef(sess, 20014, 1), "qty"},
		{"catalog index", IndexDef(sess, 2662, 0), "CREATE UNIQUE INDEX pg_class_oid_index ON pg_catalog.pg_class USING btree (oid)"},
		{"comment", ObjDescription(sess, 20010, "pg_class", 0), "kids"},
		{"relation", QualifiedRelationName(sess, 20010), "s.child"},
		{"row type", FormatType(sess, 20011, -1), "s.child"},
		{"type", FormatType(sess, uint32(types.Varchar), 24), "character varying(20)"},
		{"role", RoleName(sess, int64(catalog.BootstrapRoleOID)), catalog.BootstrapRoleName},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %v, want %s", c.name, c.got, c.want)
		}
	}
	sess.searchPath = []string{"s", "public"}
	if got := QualifiedRelationName(sess, 20010); got != "child" {
		t.Errorf("relation on the search path: %s, want child", got)
	}
	if !RelationVisible(sess, 20010) || RelationVisible(sess, 99999) {
		t.Error("RelationVisible")
	}
}

// Live rows of a committed snapshot are made once per snapshot and user;
// a snapshot being changed is read afresh each time.
func TestLiveRowsCache(t *testing.T) {
	sess := fixture(t)
	rel, _ := Lookup("pg_catalog", "pg_namespace")
	read := func() []Row {
		rows, err := rel.Rows(sess)
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	same := func(a, b []Row) bool { return len(a) > 0 && len(b) > 0 && &a[0] == &b[0] }
	if same(read(), read()) {
		t.Error("rows of an uncommitted snapshot were cached")
	}
	sess.committed = true
	first := read()
	if !same(first, read()) {
		t.Error("rows of a committed snapshot were not cached")
	}
	sess.user = "bob"
	if same(first, read()) {
		t.Error("rows cached for another user were served")
	}
}

// reg* input and output resolve names through the session's search path,
// as PostgreSQL's regclassin, regclassout and friends do.
func TestRegInOut(t *testing.T) {
	sess := fixture(t)
	in := []struct {
		oid  types.OID
		text string
		want int64
		code string // SQLSTATE when it fails
	}{
		{types.Regclass, "s.child", 20010, ""},
		{types.Regclass, `S."child"`, 20010, ""},
		{types.Regclass, "child", 0, "42P01"},
		{types.Regclass, "pg_class", 1259, ""},
		{types.Regclass, "20010", 20010, ""},
		{types.Regclass, "-", 0, ""},
		{types.Regtype, "integer", 23, ""},
		{types.Regtype, "character varying", 1043, ""},
		{types.Regtype, "s.child", 20011, ""},
		{types.Regtype, "nope", 0, "42704"},
		{types.Regnamespace, "s", 20000, ""},
		{types.Regproc, "now", 1299, ""},
		{types.Regprocedure, "now()", 1299, ""},
		{types.Regrole, catalog.BootstrapRoleName, int64(catalog.BootstrapRoleOID), ""},
	}
	for _, c := range in {
		v, err := RegIn(sess, sess.cat, c.oid, c.text)
		if c.code != "" {
			if err == nil || !strings.Contains(fmt.Sprintf("%#v", err), c.code) {
				t.Errorf("%s %q: %v, %v; want SQLSTATE %s", types.FormatType(types.Of(c.oid)), c.text, v, err, c.code)
			}
			continue
		}
		if err != nil || v != c.want {
			t.Errorf("%s %q: %v, %v; want %d", types.FormatType(types.Of(c.oid)), c.text, v, err, c.want)
		}
	}
	out := []struct {
		oid        types.OID
		v          int64
		searchPath []string
		want       string
	}{
		{types.Regclass, 20010, []string{"public"}, "s.child"},
		{types.Regclass, 20010, []string{"s"}, "child"},
		{types.Regclass, 1259, []string{"public"}, "pg_catalog.pg_class"},
		{types.Regclass, 0, nil, "-"},
		{types.Regclass, 99999, nil, "99999"},
		{types.Regtype, 23, nil, "integer"},
		{types.Regtype, int64(types.Bpchar), nil, "character"},
		{types.Regtype, 20011, []string{"public"}, "s.child"},
		{types.Regnamespace, 20000, nil, "s"},
		{types.Regprocedure, 1299, nil, "now()"},
	}
	for _, c := range out {
		sess.searchPath = c.searchPath
		if got := RegOut(sess, nil, sess.cat, c.oid, c.v); got != c.want {
			t.Errorf("%s %d (search path %v): %s, want %s", types.FormatType(types.Of(c.oid)), c.v, c.searchPath, got, c.want)
		}
	}
}
