package sql

import (
	"cdcdb/catalog"
	"cdcdb/sql/ast"
	"cdcdb/sql/catalogviews"
	"cdcdb/types"
)

// The reg* types' input and output are catalogviews' (RegIn, RegOut).

// catalogFor is the catalog a reg* conversion reads: the statement's, or
// the session's latest when there is no statement.
func (s *Session) catalogFor(x *execCtx) *catalog.Snapshot {
	if x != nil && x.tx != nil {
		return x.tx.catalog()
	}
	return s.engine.catalogSnapshot()
}

// regIn resolves a reg* literal to an OID (catalogviews.RegIn).
func (s *Session) regIn(cat *catalog.Snapshot, oid types.OID, text string) (types.Value, error) {
	return catalogviews.RegIn(regNames{s}, cat, oid, text)
}

// regOut prints an OID as its reg* type does (catalogviews.RegOut): x is
// the running statement, nil outside one.
func (s *Session) regOut(x *execCtx, cat *catalog.Snapshot, oid types.OID, v int64) string {
	var sess catalogviews.Session
	if x != nil && x.tx != nil {
		sess = catalogViewSession{x}
	}
	return catalogviews.RegOut(regNames{s}, sess, cat, oid, v)
}

// regNames is the session as catalogviews reads names through it.
type regNames struct{ s *Session }

func (n regNames) SearchPath() []string                         { return n.s.searchPath() }
func (n regNames) TempSchemaName() string                       { return n.s.tempSchemaName() }
func (n regNames) OwnTempSchema(name string) string             { return n.s.ownTempSchema(name) }
func (n regNames) ResolveType(t *ast.TypeName) (types.T, error) { return domainTypes{}.ResolveType(t) }
