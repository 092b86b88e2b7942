package sql

import (
	"context"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// Temporary tables (CREATE TEMP TABLE, or CREATE TABLE pg_temp.name) belong
// to the session that made them, as in PostgreSQL. They live in a schema of
// the session's own, pg_temp_<its pid>, made with the first of them, which
//
//   - is searched for relations before every other schema, as PostgreSQL
//     searches pg_temp (searchPath), and is what "pg_temp" in a name means;
//   - no other session can read or write;
//   - is dropped, with all it holds, by DISCARD TEMP and DISCARD ALL and when
//     the session ends, and at start for any a server left behind (pids
//     begin again at 1 in every process).
//
// A table made ON COMMIT DROP or ON COMMIT DELETE ROWS is dropped or
// emptied as each of its session's transactions commits (applyOnCommit).
//
// Their rows are stored and logged like any others. AUTO CDC flows may not
// read or write them, and no view may read them (cdcdb has no temporary
// views, and a view's query is bound again wherever it is used).
const tempSchemaPrefix = "pg_temp_"

// isTempSchemaName reports whether name is a session's temporary schema.
func isTempSchemaName(name string) bool {
	n, ok := strings.CutPrefix(name, tempSchemaPrefix)
	if !ok || n == "" {
		return false
	}
	_, err := strconv.ParseUint(n, 10, 32)
	return err == nil
}

// tempSchemaName is the name of the session's temporary schema.
func (s *Session) tempSchemaName() string { return tempSchemaPrefix + strconv.Itoa(int(s.id)) }

// isTempTable reports whether t lives in a temporary schema (any session's).
func isTempTable(cat *catalog.Snapshot, t *catalog.Table) bool { return isTempSchema(cat, t.Schema) }

// isTempSchema reports whether schema is a temporary one (any session's).
func isTempSchema(cat *catalog.Snapshot, schema catalog.OID) bool {
	sc, ok := cat.SchemaByOID(schema)
	return ok && isTempSchemaName(sc.Name)
}

// tempSchema returns the session's temporary schema, making it in this
// transaction if it does not exist yet.
func (x *execCtx) tempSchema() (*catalog.Schema, error) {
	name := x.sess.tempSchemaName()
	if sc, ok := x.tx.catalog().Schema(name); ok {
		return sc, nil
	}
	sc, err := x.putNewSchema(name)
	if err != nil {
		return nil, err
	}
	x.sess.madeTempSchema = true
	return sc, nil
}

// otherSessionsTemp refuses a name that reaches into another session's
// temporary schema.
func (pc *planCtx) otherSessionsTemp(schema string, pos int) error {
	if isTempSchemaName(schema) && schema != pc.sess.tempSchemaName() {
		return pgerror.New(pgerror.FeatureNotSupported, "cannot access temporary tables of other sessions").WithPosition(pos + 1)
	}
	return nil
}

// refuseTempReads refuses a view whose query reads a temporary table.
func (pc *planCtx) refuseTempReads(query ast.Statement) error {
	var err error
	tableRefsIn(reflect.ValueOf(query), func(ref *ast.TableRef) {
		if err != nil {
			return
		}
		if t, _, lerr := pc.lookupTable(ref.Name); lerr == nil && isTempTable(pc.cat, t) {
			err = pgerror.New(pgerror.FeatureNotSupported, "views of temporary tables are not supported").
				WithDetail("Table \"%s\" is temporary, and cdcdb has no temporary views.", t.Name).WithPosition(ref.Pos + 1)
		}
	})
	return err
}

// internalExecCtx is the context of work a session does in transaction t
// on its own account, outside any statement: dropping its temporary tables.
func internalExecCtx(ctx context.Context, s *Session, t *txn) *execCtx {
	now := time.Now().UTC()
	return &execCtx{ctx: ctx, sess: s, tx: t, now: now, stmtNow: now}
}

// dropTempSchema drops the session's temporary schema, if it has one, with
// everything in it (DISCARD TEMP).
func (x *execCtx) dropTempSchema() error {
	if !x.sess.madeTempSchema {
		return nil
	}
	return x.dropSchema(ast.QualifiedName{Parts: []string{x.sess.tempSchemaName()}}, &ast.Drop{IfExists: true, Cascade: true})
}

// endTempSchema drops the temporary schema of a session that is ending, in
// a write transaction of its own. It waits at most ten seconds for the
// writer slot: a schema left behind is dropped at the next start, and no
// session sees it meanwhile (pids are not reused within a process).
func (s *Session) endTempSchema() {
	if !s.madeTempSchema {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.engine.dropSchemas(ctx, s, []string{s.tempSchemaName()}); err != nil {
		s.engine.log.Warn("could not drop a temporary schema of an ending session", "schema", s.tempSchemaName(), "err", err)
	}
}

// dropLeftoverTempSchemas drops the temporary schemas the catalog still
// holds at start: their sessions are gone.
func (e *Engine) dropLeftoverTempSchemas() error {
	var names []string
	for _, sc := range e.cat.Schemas() {
		if isTempSchemaName(sc.Name) {
			names = append(names, sc.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	s := &Session{engine: e, settings: map[string]string{}, loc: time.UTC}
	return e.dropSchemas(context.Background(), s, names)
}

// dropSchemas drops schemas, with everything in them, in one write
// transaction, on behalf of s.
func (e *Engine) dropSchemas(ctx context.Context, s *Session, names []string) error {
	t, err := e.beginTxn(ctx, s, true)
	if err != nil {
		return err
	}
	x := internalExecCtx(ctx, s, t)
	for _, name := range names {
		if err := x.dropSchema(ast.QualifiedName{Parts: []string{name}}, &ast.Drop{IfExists: true, Cascade: true}); err != nil {
			t.rollback()
			return err
		}
	}
	return t.commit()
}

// tableSchema picks the schema of a new table: the session's temporary
// schema for CREATE TEMP TABLE and for a name in pg_temp, else the one
// creationSchema picks.
func (x *execCtx) tableSchema(pc *planCtx, name ast.QualifiedName, temp bool) (*catalog.Schema, error) {
	own := x.sess.tempSchemaName()
	explicit := pc.schemaName(name.Schema())
	if explicit == own && (len(name.Parts) < 3 || name.Parts[0] == "main") {
		temp = true
	}
	if !temp {
		return pc.creationSchema(name)
	}
	if explicit != "" && explicit != own {
		if err := pc.otherSessionsTemp(explicit, name.Pos); err != nil {
			return nil, err
		}
		return nil, pgerror.New(pgerror.InvalidTableDefinition, "cannot create temporary relation in non-temporary schema").WithPosition(name.Pos + 1)
	}
	return x.tempSchema()
}

// discardTemp drops the session's temporary tables (DISCARD TEMP, DISCARD
// ALL): in the write transaction of the block it runs in, if the block has
// one, else in one of its own.
func (s *Session) discardTemp(ctx context.Context) error {
	if !s.madeTempSchema {
		return nil
	}
	if s.block != nil && s.block.tx != nil {
		return internalExecCtx(ctx, s, s.block.tx).dropTempSchema()
	}
	if err := s.engine.dropSchemas(ctx, s, []string{s.tempSchemaName()}); err != nil {
		return err
	}
	s.madeTempSchema = false
	return nil
}

// onCommitAction is a temporary table's ON COMMIT DROP or DELETE ROWS.
type onCommitAction struct {
	table  catalog.OID
	action string // ast.OnCommitDrop or ast.OnCommitDeleteRows
}

// applyOnCommit does, in block b's write transaction about to commit, what
// the session's temporary tables ask at the end of each transaction: drops
// those made ON COMMIT DROP, empties those made ON COMMIT DELETE ROWS (a
// block that wrote nothing has no transaction, no rows to delete and no
// table to drop). It returns the actions that stay the session's once the
// commit succeeds: those of the tables left, the block's included. Those
// of a block that rolls back go with it, as its tables do (and their OIDs,
// which a later table may get).
func (s *Session) applyOnCommit(b *txBlock) ([]onCommitAction, error) {
	if len(s.onCommit) == 0 && len(b.onCommit) == 0 {
		return nil, nil
	}
	t := b.tx
	x := internalExecCtx(context.Background(), s, t)
	var kept []onCommitAction
	for _, a := range append(slices.Clip(s.onCommit), b.onCommit...) {
		cat := t.catalog()
		tbl, ok := cat.TableByOID(a.table)
		if !ok {
			continue // dropped, or its schema discarded
		}
		sc, ok := cat.SchemaByOID(tbl.Schema)
		if !ok {
			continue
		}
		if a.action == ast.OnCommitDrop {
			name := ast.QualifiedName{Parts: []string{sc.Name, tbl.Name}}
			if err := x.dropRelation(x.planCtx(), name, &ast.Drop{Kind: ast.ObjectTable, Cascade: true}); err != nil {
				return nil, err
			}
			continue
		}
		kept = append(kept, a)
		if err := x.truncateTable(tbl); err != nil {
			return nil, err
		}
	}
	return kept, nil
}

// ownTempSchema is the schema a name means: pg_temp is the session's
// temporary schema.
func (s *Session) ownTempSchema(name string) string {
	if name == "pg_temp" {
		return s.tempSchemaName()
	}
	return name
}
