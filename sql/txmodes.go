package sql

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/settings"
	"cdcdb/storage"
)

// Transaction modes: the isolation level, READ ONLY and DEFERRABLE of a
// transaction block, and what each level promises.
//
// A block whose writes are plain INSERT, UPDATE and DELETE of ordinary
// tables writes in a detached transaction (concurrent.go), which reads the
// snapshot the level says (each statement's, or the block's first
// statement's) with its own changes on top, and finds conflicts per row by
// locking the rows it writes; SERIALIZABLE checks at commit what it read.
// What follows is the exclusive path, which any other write takes: storage
// has one attached writer at a time, and it sees the newest committed
// state. Reads before a block's first write come from a snapshot, so the
// levels differ in which snapshot and in what is checked when the block
// starts writing:
//
//   - READ COMMITTED (and READ UNCOMMITTED, which PostgreSQL runs as it):
//     each statement reads the newest committed state when it starts. A
//     block that reads a value and writes something computed from it in a
//     later statement may overwrite another transaction's change made in
//     between (PostgreSQL allows this too); a single UPDATE ... SET v = v + 1
//     never loses one, since it reads and writes under the writer slot.
//   - REPEATABLE READ: every statement reads the snapshot taken by the
//     block's first statement. Once the block writes, its statements run on
//     the newest state, which matches the snapshot for every table that no
//     other transaction changed since; a statement of the block that reads
//     a table another transaction changed since the snapshot (UPDATE and
//     DELETE read the rows they change) fails with 40001, as PostgreSQL
//     fails one that would update a row changed since its snapshot. So no
//     update is lost and every read sees the snapshot or the block's own
//     writes; write skew between two tables remains possible, as in
//     PostgreSQL.
//   - SERIALIZABLE: as REPEATABLE READ, and the block's first write also
//     fails with 40001 if another transaction changed, since the snapshot,
//     any table the block read before it. A writing block thus behaves as
//     if it ran alone at its commit, and a read-only block as if it ran
//     alone at its snapshot: every execution is equivalent to a serial one.
//
// On the exclusive path, conflicts are found per table, not per row: a block fails when another
// transaction changed the table at all, where PostgreSQL would fail it only
// for the rows both touched. A client retries a 40001 as it would with
// PostgreSQL; it sees more of them under contention on one table.
//
// A read-only block refuses every statement that writes, with 25006, except
// writes to the session's temporary tables (as PostgreSQL).

// isolationLevel is a transaction's isolation level.
type isolationLevel int8

const (
	readCommitted isolationLevel = iota
	readUncommitted
	repeatableRead
	serializable
)

// String is the level as transaction_isolation shows it.
func (l isolationLevel) String() string {
	switch l {
	case readUncommitted:
		return "read uncommitted"
	case repeatableRead:
		return "repeatable read"
	case serializable:
		return "serializable"
	}
	return "read committed"
}

// readsSnapshot reports whether the block's statements read one snapshot
// taken at its first statement, rather than each its own.
func (l isolationLevel) readsSnapshot() bool { return l >= repeatableRead }

// parseIsolation reads an isolation level as a setting's value spells it.
func parseIsolation(v string) (isolationLevel, bool) {
	c, _ := settings.CanonicalIsolation(v)
	switch c {
	case "read committed":
		return readCommitted, true
	case "read uncommitted":
		return readUncommitted, true
	case "repeatable read":
		return repeatableRead, true
	case "serializable":
		return serializable, true
	}
	return 0, false
}

// txModes are the characteristics of one transaction.
type txModes struct {
	isolation  isolationLevel
	readOnly   bool
	deferrable bool
}

// defaultTxModes are the modes a new transaction starts with: the
// session's default_transaction_* settings.
func (s *Session) defaultTxModes() txModes {
	iso, _ := parseIsolation(s.settings["default_transaction_isolation"])
	return txModes{
		isolation:  iso,
		readOnly:   s.settings["default_transaction_read_only"] == "on",
		deferrable: s.settings["default_transaction_deferrable"] == "on",
	}
}

// The errors of changing a block's modes too late, PostgreSQL's.
var (
	errIsolationAfterQuery  = pgerror.New(pgerror.ActiveSQLTransaction, "SET TRANSACTION ISOLATION LEVEL must be called before any query")
	errReadWriteAfterQuery  = pgerror.New(pgerror.ActiveSQLTransaction, "transaction read-write mode must be set before any query")
	errDeferrableAfterQuery = pgerror.New(pgerror.ActiveSQLTransaction, "SET TRANSACTION [NOT] DEFERRABLE must be called before any query")
)

// setIsolation changes the block's isolation level: only before its first
// query, as PostgreSQL requires.
func (b *txBlock) setIsolation(l isolationLevel) error {
	if l == b.modes.isolation {
		return nil
	}
	if b.queried {
		return errIsolationAfterQuery
	}
	b.modes.isolation = l
	return nil
}

// setReadOnly changes the block's read-only mode: a read-only block may not
// become read-write once it has run a query.
func (b *txBlock) setReadOnly(on bool) error {
	if on == b.modes.readOnly {
		return nil
	}
	if !on && b.queried {
		return errReadWriteAfterQuery
	}
	b.modes.readOnly = on
	return nil
}

func (b *txBlock) setDeferrable(on bool) error {
	if on == b.modes.deferrable {
		return nil
	}
	if b.queried {
		return errDeferrableAfterQuery
	}
	b.modes.deferrable = on
	return nil
}

// applyModes applies the modes of BEGIN or SET TRANSACTION to the block.
func (b *txBlock) applyModes(modes []ast.TxMode) error {
	for _, m := range modes {
		var err error
		switch m {
		case ast.ModeReadCommitted:
			err = b.setIsolation(readCommitted)
		case ast.ModeReadUncommitted:
			err = b.setIsolation(readUncommitted)
		case ast.ModeRepeatableRead:
			err = b.setIsolation(repeatableRead)
		case ast.ModeSerializable:
			err = b.setIsolation(serializable)
		case ast.ModeReadOnly:
			err = b.setReadOnly(true)
		case ast.ModeReadWrite:
			err = b.setReadOnly(false)
		case ast.ModeDeferrable:
			err = b.setDeferrable(true)
		case ast.ModeNotDeferrable:
			err = b.setDeferrable(false)
		default:
			err = pgerror.New(pgerror.InternalError, "unknown transaction mode %q", m)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// setSessionCharacteristics applies SET SESSION CHARACTERISTICS AS
// TRANSACTION: each mode sets its default_transaction_* parameter.
func (s *Session) setSessionCharacteristics(modes []ast.TxMode) error {
	for _, m := range modes {
		name, value := "", ""
		switch m {
		case ast.ModeReadCommitted, ast.ModeReadUncommitted, ast.ModeRepeatableRead, ast.ModeSerializable:
			name, value = "default_transaction_isolation", strings.ToLower(strings.TrimPrefix(string(m), "ISOLATION LEVEL "))
		case ast.ModeReadOnly, ast.ModeReadWrite:
			name, value = "default_transaction_read_only", map[bool]string{true: "on", false: "off"}[m == ast.ModeReadOnly]
		case ast.ModeDeferrable, ast.ModeNotDeferrable:
			name, value = "default_transaction_deferrable", map[bool]string{true: "on", false: "off"}[m == ast.ModeDeferrable]
		default:
			return pgerror.New(pgerror.InternalError, "unknown transaction mode %q", m)
		}
		if err := s.setSetting(name, value, false); err != nil {
			return err
		}
	}
	return nil
}

// txModes are the modes of the transaction the session's statements run
// in now: the open block's, or, between blocks, the defaults (each
// statement there is a transaction of its own).
func (s *Session) txModes() txModes {
	if s.block != nil {
		return s.block.modes
	}
	return s.defaultTxModes()
}

// The transaction_* parameters show the current transaction's modes and
// set them as SET TRANSACTION does (settings.go maps them to these).

func showIsolation(s *Session) string  { return s.txModes().isolation.String() }
func showReadOnly(s *Session) string   { return settings.OnOff(s.txModes().readOnly) }
func showDeferrable(s *Session) string { return settings.OnOff(s.txModes().deferrable) }

func assignIsolation(s *Session, v string) error {
	l, ok := parseIsolation(v)
	if !ok {
		return pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"transaction_isolation\": \"%s\"", v)
	}
	return s.currentBlock().setIsolation(l)
}

func assignReadOnly(s *Session, v string) error {
	return s.currentBlock().setReadOnly(v == "on")
}

func assignDeferrable(s *Session, v string) error {
	return s.currentBlock().setDeferrable(v == "on")
}

// currentBlock is the block a transaction_* assignment changes. Statements
// that set parameters run in a block (an implicit one outside BEGIN), so
// there is one.
func (s *Session) currentBlock() *txBlock {
	if s.block == nil {
		s.block = &txBlock{implicit: true, start: s.txStart(), modes: s.defaultTxModes()}
	}
	return s.block
}

// readOnlyError is the error a read-only transaction gives a statement that
// writes, naming the command as PostgreSQL does; nil when c may run there.
func (c *compiled) readOnlyError() error {
	if c.access != accessWrite || c.readOnlyCommand == "" {
		return nil
	}
	return pgerror.New(pgerror.ReadOnlySQLTransaction, "cannot execute %s in a read-only transaction", c.readOnlyCommand)
}

// snapshotRead returns the block's snapshot, taking it at the block's first
// read.
func (s *Session) snapshotRead(ctx context.Context, b *txBlock) (*txn, error) {
	if b.snap == nil {
		tx, err := s.engine.beginTxn(ctx, s, false)
		if err != nil {
			return nil, err
		}
		b.snap = tx
		if b.modes.isolation == serializable {
			tx.watch = &snapshotWatch{snap: tx.st, at: tx.st.Version(), recording: true}
		}
	}
	return b.snap, nil
}

// beginWriting is run when a block that read from a snapshot takes its
// write transaction: under SERIALIZABLE, what it read must not have changed
// since, or its reads are not those of the state it commits on. From then
// on, tx checks the block's reads against the snapshot.
func (b *txBlock) beginWriting(tx *txn) error {
	if w := b.snap.watch; w != nil {
		if err := w.checkRecorded(tx.st); err != nil {
			return err
		}
	}
	tx.watch = &snapshotWatch{snap: b.snap.st, at: b.snap.st.Version()}
	return nil
}

// snapshotWatch is how a REPEATABLE READ or SERIALIZABLE block finds what
// it must refuse (see the top of this file). Scans report each table they
// read and each row they read by key (txn.readTable, txn.readRow): while the
// block reads its snapshot, a SERIALIZABLE block records them (recording);
// once it writes, its write transaction compares each with the snapshot,
// and a table changed since is a conflict, unless every row read of it
// was by key and each such row is as the snapshot holds it. Keyed reads
// are what an OLTP transaction does (read a row, write it back), so two
// such transactions conflict only when they touch the same rows.
type snapshotWatch struct {
	snap *storage.Tx
	at   uint64
	// recording: the snapshot phase of a SERIALIZABLE block, whose reads
	// are checked when it starts writing.
	recording bool
	// What the snapshot phase read: whole tables, and rows by key (until
	// there are too many to keep, when their tables count as read whole).
	tables map[uint32]string
	rows   []rowRead
}

// rowRead is a row read by key: its table and storage key.
type rowRead struct {
	table tableRef
	key   []byte
}

// maxRecordedRows bounds the rows a SERIALIZABLE block keeps for its
// check; past it, it keeps their tables instead (coarser, never wrong).
const maxRecordedRows = 4096

// tableRef names a table for the messages below.
type tableRef struct {
	oid  uint32
	name string
}

// readTable reports that a statement of the transaction reads t's rows by
// a scan (the whole table or a key range).
func (t *txn) readTable(tbl *catalog.Table) error {
	w := t.watch
	if w == nil {
		return nil
	}
	if w.recording {
		w.recordTable(tableRef{tbl.OID, tbl.Name})
		return nil
	}
	if t.st.ChangedAfter(catalog.DataSpace(tbl.OID), w.at) {
		return concurrentUpdate(tbl.Name)
	}
	return nil
}

// readRow reports that a statement of the transaction read t's row at key.
func (t *txn) readRow(tbl *catalog.Table, key []byte) error {
	w := t.watch
	if w == nil {
		return nil
	}
	ref := tableRef{tbl.OID, tbl.Name}
	if w.recording {
		if _, whole := w.tables[tbl.OID]; whole {
			return nil
		}
		if len(w.rows) >= maxRecordedRows {
			w.recordTable(ref)
			return nil
		}
		w.rows = append(w.rows, rowRead{table: ref, key: append([]byte(nil), key...)})
		return nil
	}
	if w.rowChanged(t.st, ref, key) {
		return concurrentUpdate(tbl.Name)
	}
	return nil
}

func (w *snapshotWatch) recordTable(ref tableRef) {
	if w.tables == nil {
		w.tables = map[uint32]string{}
	}
	w.tables[ref.oid] = ref.name
}

// rowChanged reports whether the row at key is not as the snapshot holds
// it in the state committed before head (the writer's own changes aside).
// A stored row carries the commit time of its version, so a row rewritten
// since never compares equal.
func (w *snapshotWatch) rowChanged(head *storage.Tx, ref tableRef, key []byte) bool {
	space := catalog.DataSpace(ref.oid)
	if !head.ChangedAfter(space, w.at) {
		return false
	}
	then, now := w.snap.Space(space), head.Space(space)
	if then == nil || now == nil {
		return then != now
	}
	return !bytes.Equal(then.Get(key), now.GetCommitted(key))
}

// checkRecorded is SERIALIZABLE's check at the first write: every table
// read whole, and every row read by key, as the snapshot had it.
func (w *snapshotWatch) checkRecorded(head *storage.Tx) error {
	for oid, name := range w.tables {
		if head.ChangedAfter(catalog.DataSpace(oid), w.at) {
			return readWriteDependency(name)
		}
	}
	for _, r := range w.rows {
		if w.rowChanged(head, r.table, r.key) {
			return readWriteDependency(r.table.name)
		}
	}
	return nil
}

func concurrentUpdate(table string) error {
	return pgerror.New(pgerror.SerializationFailure, "could not serialize access due to concurrent update").
		WithDetail("Table \"%s\" was changed by a transaction that committed after this transaction's snapshot.", table).
		WithHint("The transaction might succeed if retried.")
}

func readWriteDependency(table string) error {
	return pgerror.New(pgerror.SerializationFailure, "could not serialize access due to read/write dependencies among transactions").
		WithDetail("Table \"%s\", read by this transaction, was changed by a transaction that committed after its snapshot.", table).
		WithHint("The transaction might succeed if retried.")
}

// releaseSnapshot ends the block's snapshot, if it took one.
func (b *txBlock) releaseSnapshot() {
	if b.snap != nil && b.tx != nil && b.tx.snapshot == b.snap {
		b.snap = nil // the block's detached transaction reads it, and ends it
		return
	}
	if b.snap != nil {
		b.snap.rollback()
		b.snap = nil
	}
}

// writing notes a table the statement writes, for readOnlyCommand: writes to
// temporary tables are allowed in a read-only transaction.
func (pc *planCtx) writing(t *catalog.Table) {
	pc.writtenTables = append(pc.writtenTables, t)
	if !isTempTable(pc.cat, t) {
		pc.writesPermanent = true
	}
}

// readOnlyCommand names the command a read-only transaction refuses stmt
// as, as PostgreSQL's 25006 error does ("cannot execute INSERT in a
// read-only transaction"), or is "" when stmt may run in one: it does not
// write, or writes only the session's temporary tables.
func (pc *planCtx) readOnlyCommand(stmt ast.Statement) string {
	switch st := stmt.(type) {
	case *ast.Select:
		if pc.writesBy != "" {
			return pc.writesBy + "()"
		}
		if strength, locks := lockingStrength(st.Locking); locks {
			return "SELECT " + strength
		}
		return "SELECT"
	case *ast.Insert, *ast.Update, *ast.Delete, *ast.Copy:
		if !pc.writesPermanent && pc.writesBy == "" {
			return ""
		}
		switch stmt.(type) {
		case *ast.Insert:
			return "INSERT"
		case *ast.Update:
			return "UPDATE"
		case *ast.Delete:
			return "DELETE"
		}
		return "COPY FROM"
	case *ast.Explain:
		return pc.readOnlyCommand(st.Stmt)
	case *ast.CreateTable:
		if st.AsQuery != nil {
			return "CREATE TABLE AS"
		}
		return "CREATE TABLE"
	case *ast.CreateSchema:
		return "CREATE SCHEMA"
	case *ast.CreateIndex:
		return "CREATE INDEX"
	case *ast.CreateView:
		return "CREATE VIEW"
	case *ast.AlterTable:
		return "ALTER TABLE"
	case *ast.Truncate:
		return "TRUNCATE TABLE"
	case *ast.CommentOn:
		return "COMMENT"
	case *ast.Drop:
		return "DROP " + string(st.Kind)
	case *ast.CreateFlow:
		return "CREATE FLOW"
	case *ast.CreateConnection:
		return "CREATE CONNECTION"
	case *ast.CreateRole:
		return "CREATE ROLE"
	case *ast.AlterRole:
		return "ALTER ROLE"
	case *ast.DropRole:
		return "DROP ROLE"
	case *ast.GrantPrivileges:
		if st.Revoke {
			return "REVOKE"
		}
		return "GRANT"
	case *ast.GrantRoles:
		if st.Revoke {
			return "REVOKE ROLE"
		}
		return "GRANT ROLE"
	case *ast.AlterDefaultPrivileges:
		return "ALTER DEFAULT PRIVILEGES"
	case *ast.CreateSource:
		return "CREATE SOURCE"
	case *ast.RefreshStreamingTable:
		return "REFRESH STREAMING TABLE"
	}
	return strings.TrimPrefix(strings.ToUpper(fmt.Sprintf("%T", stmt)), "*AST.")
}
