package catalogviews

import (
	"cdcdb/catalog"
	"cdcdb/source"
	"cdcdb/sql/ast"
	"cdcdb/storage"
	"cdcdb/types"
)

// Session is what the views read of the session and statement that reads
// them. Package sql implements it over a running statement; nothing here
// plans or evaluates SQL, so what needs the planner (a system view's
// columns, a view's table, an expression's output name) is asked of it.
type Session interface {
	Names

	// Catalog is the catalog snapshot the statement reads.
	Catalog() *catalog.Snapshot
	// CatalogCommitted reports whether Catalog is a committed snapshot,
	// which never changes (rows made from it may be cached), rather than
	// one a transaction is changing.
	CatalogCommitted() bool
	// Storage is the statement's storage transaction, for what the
	// catalog keeps beside its snapshot (flow statistics, source
	// checkpoints).
	Storage() *storage.Tx
	// StorageStats are the storage engine's counters (cdcdb.storage).
	StorageStats() storage.Stats
	// SourceStatus is what a source's follower is doing; false when it is
	// not running.
	SourceStatus(src catalog.OID) (source.Status, bool)

	// User is the current user's name (SET ROLE's role, else the
	// session user).
	User() string
	// SessionUser is the name the session logged in as.
	SessionUser() string
	// BackendPID is the session's process ID (pg_backend_pid).
	BackendPID() int32
	// IsTempSchema reports whether a schema is any session's temporary
	// one.
	IsTempSchema(schema catalog.OID) bool
	// TableOwner is the role that owns t.
	TableOwner(t *catalog.Table) catalog.OID
	// TableACL is t's ACL as aclitem[] (nil when never granted on).
	TableACL(t *catalog.Table) types.Value
	// TablePrivilegeRows are information_schema.table_privileges' rows
	// (all) or role_table_grants' rows, made with b.
	TablePrivilegeRows(all bool, b *RowBuilder) ([]Row, error)

	// HasTablePrivilege, HasSchemaPrivilege and HasRole are
	// has_table_privilege, has_schema_privilege and pg_has_role of their
	// arguments (the privilege words already checked): the answers of the
	// session's roles and grants.
	HasTablePrivilege(args []types.Value) (types.Value, error)
	HasSchemaPrivilege(args []types.Value) (types.Value, error)
	HasRole(args []types.Value) (types.Value, error)
	// SequenceLastValue is the last value a sequence drew (NULL before
	// the first, or after setval(..., false) or RESTART).
	SequenceLastValue(seq SerialSequence) types.Value

	// ViewColumns are a system view's output columns, as its query plans.
	ViewColumns(view *Relation) ([]Column, error)
	// LookupTable finds a table or view as the statement would.
	LookupTable(name ast.QualifiedName) (*catalog.Table, error)
	// ViewReads are the relations view v's query reads, each once, as
	// its planning resolves them (its rewrite rule's dependencies).
	ViewReads(v *catalog.Table) []catalog.OID
	// QualifiedViewQuery is view v's query with each relation it reads
	// qualified by its schema where the session's search_path would not
	// find it by its bare name (pg_get_viewdef's text).
	QualifiedViewQuery(v *catalog.Table) string
	// ColumnName is the output name of an unaliased select-list
	// expression.
	ColumnName(e ast.Expr) string
	// WalkExpr calls fn for e and every expression inside it (fn returns
	// false to skip a node's children).
	WalkExpr(e ast.Node, fn func(ast.Node) bool)
}

// TypeResolver resolves a type name as the binder does (the
// information_schema domains' base types are written as SQL types).
type TypeResolver interface {
	ResolveType(t *ast.TypeName) (types.T, error)
}

// schemaVisible reports whether a schema is on the search path, so its
// objects print unqualified.
func schemaVisible(names Names, name string) bool {
	for _, p := range names.SearchPath() {
		if p == name {
			return true
		}
	}
	return false
}
