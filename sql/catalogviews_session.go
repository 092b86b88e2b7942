package sql

import (
	"cdcdb/acl"
	"cdcdb/catalog"
	"cdcdb/source"
	"cdcdb/sql/ast"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/eval"
	"cdcdb/storage"
	"cdcdb/types"
)

// catalogViewSession is what catalogviews reads of a running statement:
// its catalog snapshot and storage transaction, the session's role and
// search path, and what only the planner knows (a system view's columns,
// a view's table, the name of a select-list expression).
type catalogViewSession struct{ x *execCtx }

var _ catalogviews.Session = catalogViewSession{}

// CatalogViewSession is the statement as the catalog functions
// registered by catalogviews see it (catalogviews.Statement).
func (x *execCtx) CatalogViewSession() catalogviews.Session { return catalogViewSession{x} }

var _ catalogviews.Statement = (*execCtx)(nil)

// catalogViews is the statement as catalogviews sees it; nil without a
// statement (x nil), so that the views print names as they do outside one.
func (x *execCtx) catalogViews() catalogviews.Session {
	if x == nil {
		return nil
	}
	return catalogViewSession{x}
}

func (v catalogViewSession) Catalog() *catalog.Snapshot { return v.x.catalogOf() }
func (v catalogViewSession) CatalogCommitted() bool     { return v.x.tx.editor == nil }
func (v catalogViewSession) Storage() *storage.Tx       { return v.x.tx.st }
func (v catalogViewSession) StorageStats() storage.Stats {
	return v.x.sess.engine.db.Stats()
}
func (v catalogViewSession) SourceStatus(src catalog.OID) (source.Status, bool) {
	return v.x.sess.engine.sources.status(src)
}
func (v catalogViewSession) User() string           { return v.x.sess.currentRoleName() } // SET ROLE's
func (v catalogViewSession) SessionUser() string    { return v.x.sess.user }
func (v catalogViewSession) BackendPID() int32      { return v.x.sess.id }
func (v catalogViewSession) SearchPath() []string   { return v.x.sess.searchPath() }
func (v catalogViewSession) TempSchemaName() string { return v.x.sess.tempSchemaName() }
func (v catalogViewSession) OwnTempSchema(name string) string {
	return v.x.sess.ownTempSchema(name)
}
func (v catalogViewSession) IsTempSchema(schema catalog.OID) bool {
	return isTempSchema(v.x.catalogOf(), schema)
}
func (v catalogViewSession) TableOwner(t *catalog.Table) catalog.OID { return acl.TableOwner(t) }
func (v catalogViewSession) ViewReads(t *catalog.Table) []catalog.OID {
	return viewReads(v.x, t) // viewdeps.go
}
func (v catalogViewSession) QualifiedViewQuery(t *catalog.Table) string {
	return qualifiedViewQuery(v.x, t) // viewdeps.go
}
func (v catalogViewSession) TableACL(t *catalog.Table) types.Value {
	return aclText(v.x.catalogOf(), t)
}
func (v catalogViewSession) TablePrivilegeRows(all bool, b *catalogviews.RowBuilder) ([]eval.Row, error) {
	return isTablePrivileges(all)(v.x, b)
}

func (v catalogViewSession) HasTablePrivilege(a []types.Value) (types.Value, error) {
	return hasTablePrivilegeCall(v.x, a) // roles.go
}
func (v catalogViewSession) HasSchemaPrivilege(a []types.Value) (types.Value, error) {
	return hasSchemaPrivilegeCall(v.x, a) // schemaprivs.go
}
func (v catalogViewSession) HasRole(a []types.Value) (types.Value, error) {
	return pgHasRoleCall(v.x, a) // rolemembers.go
}
func (v catalogViewSession) SequenceLastValue(seq catalogviews.SerialSequence) types.Value {
	return sequenceLastValue(v.x, seq) // funcs_dump.go
}

func (v catalogViewSession) ViewColumns(view *catalogviews.Relation) ([]catalogviews.Column, error) {
	cols, err := systemViewColumns(v.x, view)
	if err != nil {
		return nil, err
	}
	return catalogViewColumns(cols), nil
}

// catalogViewColumns are plan columns as catalogviews' columns.
func catalogViewColumns(cols []outCol) []catalogviews.Column {
	out := make([]catalogviews.Column, len(cols))
	for i, c := range cols {
		out[i] = catalogviews.Column{Name: c.name, Type: c.t, TableOID: c.tableOID}
	}
	return out
}

func (v catalogViewSession) LookupTable(name ast.QualifiedName) (*catalog.Table, error) {
	pc := &planCtx{sess: v.x.sess, cat: v.x.catalogOf(), params: &paramSlots{}}
	t, _, err := pc.lookupTable(name)
	return t, err
}

func (v catalogViewSession) ColumnName(e ast.Expr) string { return columnName(e) }
func (v catalogViewSession) WalkExpr(e ast.Node, fn func(ast.Node) bool) {
	walkExpr(e, fn)
}
func (v catalogViewSession) ResolveType(t *ast.TypeName) (types.T, error) {
	return domainTypes{}.ResolveType(t)
}

// domainTypes resolves the information_schema domains' base types, which
// are PostgreSQL's type names: as a session of the default dialect would.
type domainTypes struct{}

func (domainTypes) ResolveType(t *ast.TypeName) (types.T, error) {
	pc := &planCtx{sess: &Session{settings: map[string]string{}}, params: &paramSlots{}}
	return pc.resolveType(t)
}

// relationColumns are a system relation's columns as plan columns: each
// names the relation and its position, as pg_attribute does.
func relationColumns(rel *catalogviews.Relation, cols []catalogviews.Column) []outCol {
	out := make([]outCol, len(cols))
	for i, c := range cols {
		out[i] = outCol{name: c.Name, t: c.Type, tableOID: rel.OID(), attnum: int16(i + 1)}
	}
	return out
}
