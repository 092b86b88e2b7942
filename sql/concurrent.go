package sql

import (
	"bytes"
	"context"
	"reflect"
	"sync"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/settings"
	"cdcdb/storage"
	"cdcdb/types"
	"cdcdb/wire"
)

// Concurrent write transactions (docs/concurrency.md).
//
// A block whose writes are all INSERT (ON CONFLICT included), UPDATE,
// DELETE and locking SELECTs (selectlock.go) of ordinary tables that no
// flow reads, without WITH, at any isolation level, writes in a detached
// storage transaction (storage.BeginDetached): its changes stay in its own
// write set until COMMIT, which alone takes storage's writer slot. So an
// idle or slow block stops nobody. A table other tables reference by
// foreign key only gains rows this way; a child's writes record the parent
// keys they checked (dependOn), which its commit checks again.
//
// Two such blocks writing the same row follow PostgreSQL: the row lock
// table (rowLocks) lets one writer at a time hold a row (or a unique index
// entry) until its transaction ends; the second waits, then finds out
// whether the row changed since the snapshot it read it in. If it did,
// REPEATABLE READ fails with 40001 and READ COMMITTED runs the statement
// again on the newest state (execConcurrent), which is what PostgreSQL's
// re-check of the updated row amounts to for the statement's result. An
// INSERT whose key another transaction committed meanwhile fails with
// 23505. A cycle of waits fails the transaction that closes it with 40P01.
//
// Everything else (DDL, COPY, writes to flow sources and targets, UPDATE
// and DELETE of referenced tables, data-modifying WITH) keeps the exclusive path: the
// block takes the writer slot at that statement and holds it to its end;
// a detached block attaches then. Exclusive writers take no row locks and
// never wait for one (they hold the slot, which the lock holder needs to
// commit); a detached block whose locked rows an exclusive writer changed
// meanwhile fails its COMMIT with 40001 (attachDetached checks each row
// it locked against what it saw).
//
// A detached transaction does not know its commit time until it commits:
// it writes its versions at history.ProvisionalCommitTime and its commit
// moves them to the real one (history.Restamp), so commit times still rise
// in commit order and the change log and AS OF reads never see a commit
// land in the past.

// concurrentWrite reports whether a compiled statement may run in a
// detached transaction: an INSERT (ON CONFLICT included), UPDATE, DELETE or
// locking SELECT without WITH of one ordinary, permanent table that no
// flow reads, and only an INSERT (without DO UPDATE) of a table that other
// tables reference by foreign key.
func (pc *planCtx) concurrentWrite(stmt ast.Statement) bool {
	switch st := stmt.(type) {
	case *ast.Insert:
		if st.With != nil {
			return false
		}
	case *ast.Update:
		if st.With != nil {
			return false
		}
	case *ast.Delete:
		if st.With != nil {
			return false
		}
	case *ast.Select:
		if _, locks := lockingStrength(st.Locking); !locks {
			return false
		}
	default:
		return false
	}
	if len(pc.writtenTables) != 1 || (pc.writesBy != "" && pc.writesBy != "nextval") || pc.drawsFreeSequence {
		return false
	}
	t := pc.writtenTables[0]
	if t.Kind != catalog.KindTable || !keepsCommitHistory(t) || isTempTable(pc.cat, t) || len(pc.cat.FlowsFrom(t.OID)) > 0 {
		return false
	}
	// Foreign keys: a child's writes check their parents (dependOn); a
	// table others reference may only gain rows here, since removing or
	// changing a referenced key must see the children other transactions
	// are writing, which only the exclusive path does.
	if fk := pc.foreignKeys(t); fk != nil && len(fk.in) > 0 {
		ins, ok := stmt.(*ast.Insert)
		return ok && (ins.OnConflict == nil || ins.OnConflict.DoNothing)
	}
	return true
}

// rowLocks are the rows (and unique index entries) detached transactions
// hold until they end, by keyspace and key.
type rowLocks struct {
	mu   sync.Mutex
	held map[rowLockKey]*txn
	// waiting is, by the pid of each session waiting for a row lock, the
	// pid of the session holding it (pg_blocking_pids).
	waiting map[int32]int32
}

// blockerOf returns the pid of the session holding the row lock the
// session with pid waits for.
func (l *rowLocks) blockerOf(pid int32) (int32, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	h, ok := l.waiting[pid]
	return h, ok
}

type rowLockKey struct {
	space string
	key   string
}

// heldRow is a row lock a transaction holds, with the value the row had
// in the newest committed state when it took the lock (nil: none), which
// its commit checks again.
type heldRow struct {
	key  rowLockKey
	base []byte
}

// lockOutcome is what lockRow found once it held the lock.
type lockOutcome int8

const (
	// rowAsSeen: the row is as the transaction's snapshot has it (or the
	// transaction held the lock already).
	rowAsSeen lockOutcome = iota
	// rowChanged: a transaction that committed after the snapshot changed
	// the row; latest is what it holds now.
	rowChanged
)

// lockRow takes the lock of key in keyspace space for t, a detached
// transaction, waiting while another transaction holds it (for at most
// lock_timeout, and as long as ctx lasts), and reports whether the row
// changed since t's snapshot. It fails with 40P01 when waiting would close
// a cycle of waits.
func (x *execCtx) lockRow(space string, key []byte) (lockOutcome, []byte, error) {
	t := x.tx
	e := t.engine
	k := rowLockKey{space, string(key)}
	ctx := x.ctx
	if d, _ := settings.ParseDuration(x.sess.settings["lock_timeout"]); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	for {
		l := &e.locks
		l.mu.Lock()
		holder := l.held[k]
		if holder == t {
			l.mu.Unlock()
			return rowAsSeen, nil, nil
		}
		if holder == nil {
			if l.held == nil {
				l.held = map[rowLockKey]*txn{}
			}
			l.held[k] = t
			l.mu.Unlock()
			break
		}
		for h := holder; h != nil; h = h.waitingFor {
			if h == t {
				l.mu.Unlock()
				return 0, nil, pgerror.New(pgerror.DeadlockDetected, "deadlock detected").
					WithDetail("Process %d waits for a row lock held by process %d, which waits for this one's.", t.pid, holder.pid)
			}
		}
		t.waitingFor = holder
		if l.waiting == nil {
			l.waiting = map[int32]int32{}
		}
		l.waiting[t.pid] = holder.pid
		ended := holder.ended
		l.mu.Unlock()
		x.sess.setWaitEvent(waitEventTypeLock, waitEventTransaction)
		var err error
		select {
		case <-ended:
		case <-ctx.Done():
			err = ctx.Err()
		}
		x.sess.setWaitEvent("", "")
		l.mu.Lock()
		t.waitingFor = nil
		delete(l.waiting, t.pid)
		l.mu.Unlock()
		if err != nil {
			if x.ctx.Err() == nil {
				return 0, nil, pgerror.New(pgerror.LockNotAvailable, "canceling statement due to lock timeout")
			}
			return 0, nil, cancelError(x.ctx)
		}
	}
	// Held: compare the newest committed value with the snapshot's.
	seen, latest, err := t.committedValues(space, key)
	if err != nil {
		return 0, nil, err
	}
	t.locked = append(t.locked, heldRow{key: k, base: latest})
	if !bytes.Equal(seen, latest) {
		return rowChanged, latest, nil
	}
	return rowAsSeen, nil, nil
}

// committedValues returns what the transaction's snapshot and the newest
// committed state hold at key (its own changes aside), the latter a copy.
func (t *txn) committedValues(space string, key []byte) (seen, latest []byte, err error) {
	mine := t.st.Space(space)
	if mine != nil {
		seen = mine.GetCommitted(key)
	}
	if mine != nil && !t.st.ChangedAfter(space, t.st.Version()) {
		return seen, bytes.Clone(seen), nil
	}
	r, err := t.engine.db.Begin(false)
	if err != nil {
		return nil, nil, err
	}
	if sp := r.Space(space); sp != nil {
		latest = bytes.Clone(sp.Get(key))
	}
	_ = r.Rollback()
	return seen, latest, nil
}

// dependOn records, in a detached transaction, that what it writes holds
// only while the row at key stays as the newest committed state has it (a
// child row's parent, for its foreign key): its commit checks the row
// again (attachDetached), and fails with 40001 if an exclusive writer
// changed it meanwhile. Unlike a lock it makes no one wait: only exclusive
// writers change a table others reference (concurrentWrite). A row
// changed since the statement's snapshot is a changed row (rowConflict).
func (x *execCtx) dependOn(space string, key []byte) error {
	t := x.tx
	if t.st == nil || !t.st.Detached() {
		return nil
	}
	k := rowLockKey{space, string(key)}
	if _, ok := t.depends[k]; ok {
		return nil
	}
	seen, latest, err := t.committedValues(space, key)
	if err != nil {
		return err
	}
	if !bytes.Equal(seen, latest) {
		if t.isolation.readsSnapshot() {
			return errConcurrentUpdate(latest == nil)
		}
		return errRestartStatement
	}
	if t.depends == nil {
		t.depends = map[rowLockKey][]byte{}
	}
	t.depends[k] = latest
	return nil
}

// releaseRowLocks lets go of every row lock t holds and wakes the
// transactions waiting for them.
func (t *txn) releaseRowLocks() {
	if t.ended == nil {
		return // not detached (only its own goroutine ever sets it)
	}
	l := &t.engine.locks
	l.mu.Lock()
	if t.ended == nil {
		l.mu.Unlock()
		return
	}
	for _, h := range t.locked {
		if l.held[h.key] == t {
			delete(l.held, h.key)
		}
	}
	t.locked = nil
	close(t.ended)
	t.ended = nil
	l.mu.Unlock()
}

// errConcurrentUpdate is what REPEATABLE READ says of a row another
// transaction changed since its snapshot, as PostgreSQL says it.
func errConcurrentUpdate(deleted bool) error {
	if deleted {
		return pgerror.New(pgerror.SerializationFailure, "could not serialize access due to concurrent delete")
	}
	return pgerror.New(pgerror.SerializationFailure, "could not serialize access due to concurrent update")
}

// errRestartStatement makes a READ COMMITTED statement run again on the
// newest state: a row it was about to change changed since its snapshot.
var errRestartStatement = pgerror.New(pgerror.SerializationFailure, "could not serialize access due to concurrent update")

// rowConflict turns what lockRow found of a row the statement reads and
// writes into the statement's error: nil when the row is as it saw it.
func (x *execCtx) rowConflict(space string, key []byte) error {
	if !x.tx.st.Detached() {
		return nil
	}
	outcome, latest, err := x.lockRow(space, key)
	if err != nil || outcome == rowAsSeen {
		return err
	}
	if x.tx.isolation.readsSnapshot() {
		return errConcurrentUpdate(latest == nil)
	}
	return errRestartStatement
}

// maxStatementRestarts bounds how often a READ COMMITTED statement runs
// again after finding rows changed under it; each run waited for a
// transaction to end, so this is far beyond what contention makes.
const maxStatementRestarts = 1000

// execConcurrent runs a write statement of a detached READ COMMITTED
// transaction, again on the newest state as long as it finds a row it
// would change changed since the state it read (errRestartStatement). Its
// RETURNING rows are held until a run completes.
func (s *Session) execConcurrent(x *execCtx, c *compiled, sink *resultSink) (string, error) {
	t := x.tx
	if !t.st.Detached() || t.isolation.readsSnapshot() {
		return c.run.exec(x, sink)
	}
	mark, err := t.st.Mark()
	if err != nil {
		return "", err
	}
	written, commitTS := cloneWritten(t.written), t.commitTS
	for range maxStatementRestarts {
		held := &heldRows{out: sink.out}
		run := *sink
		run.out = held
		tag, err := c.run.exec(x, &run)
		if err != errRestartStatement {
			if err == nil {
				err = held.flush()
			}
			return tag, err
		}
		if err := t.st.RollbackTo(mark); err != nil {
			return "", err
		}
		t.written, t.commitTS = cloneWritten(written), commitTS
		if err := t.st.Refresh(); err != nil {
			return "", err
		}
	}
	return "", errConcurrentUpdate(false)
}

func cloneWritten(m map[uint32]*catalog.Table) map[uint32]*catalog.Table {
	if m == nil {
		return nil
	}
	c := make(map[uint32]*catalog.Table, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// heldRows keeps a statement's result rows until it is known which run of
// it counts (execConcurrent).
type heldRows struct {
	out  wire.ResultWriter
	rows [][][]byte
}

func (h *heldRows) WriteRow(values [][]byte) error {
	row := make([][]byte, len(values))
	for i, v := range values {
		if v != nil {
			row[i] = append([]byte{}, v...)
		}
	}
	h.rows = append(h.rows, row)
	return nil
}

func (h *heldRows) Notice(n *wire.NoticeInfo) { h.out.Notice(n) }

func (h *heldRows) CopyIn(binary bool, columns int) (wire.CopyReader, error) {
	return h.out.CopyIn(binary, columns)
}

func (h *heldRows) CopyOut(binary bool, columns int) (wire.CopyWriter, error) {
	return h.out.CopyOut(binary, columns)
}

func (h *heldRows) flush() error {
	for _, r := range h.rows {
		if err := h.out.WriteRow(r); err != nil {
			return err
		}
	}
	return nil
}

// beginDetached starts the block's detached write transaction: on the
// block's snapshot under REPEATABLE READ if it took one, else on the
// newest durable state.
func (s *Session) beginDetached(ctx context.Context, b *txBlock) (*txn, error) {
	if b.modes.isolation.readsSnapshot() {
		// The block reads one snapshot: its first statement's.
		if _, err := s.snapshotRead(ctx, b); err != nil {
			return nil, err
		}
	}
	var st *storage.Tx
	var err error
	cat := s.engine.catalogSnapshot()
	if b.snap != nil {
		st, err = s.engine.db.BeginDetachedOn(b.snap.st)
		cat = b.snap.cat
	} else {
		st, err = s.engine.db.BeginDetached()
		if err == nil {
			cat, err = s.engine.catalogFor(st, true)
			if err != nil {
				_ = st.Rollback()
			}
		}
	}
	if err != nil {
		return nil, err
	}
	t := &txn{engine: s.engine, sess: s, st: st, cat: cat, writer: true, start: s.block.start,
		isolation: b.modes.isolation, holder: s.id, pid: s.id, ended: make(chan struct{})}
	t.commitTS = history.ProvisionalCommitTime
	t.start = b.start
	if b.snap != nil {
		// SERIALIZABLE goes on recording what the block reads, which its
		// commit checks (attachDetached).
		t.snapshot, t.watch = b.snap, b.snap.watch
	}
	return t, nil
}

// attachDetached makes a detached transaction the writer, for a statement
// that needs the exclusive path or for its commit: it waits for the writer
// slot, checks that no exclusive writer changed a row it locked or a
// table it wrote since, and from then on reads the newest state. The
// versions it wrote keep their provisional commit time until commit.
func (t *txn) attachDetached(ctx context.Context) error {
	if t.st == nil || !t.st.Detached() {
		return nil
	}
	waiting := t.engine.writerPID.Load() != 0
	if waiting && t.sess != nil {
		t.sess.setWaitEvent(waitEventTypeLock, waitEventTransaction)
	}
	err := t.st.Attach(ctx)
	if waiting && t.sess != nil {
		t.sess.setWaitEvent("", "")
	}
	if err != nil {
		if ctx.Err() != nil {
			return cancelError(ctx)
		}
		return err
	}
	t.engine.writerPID.Store(t.pid)
	check := func(k rowLockKey, base []byte) error {
		var now []byte
		if sp := t.st.Space(k.space); sp != nil {
			now = sp.GetCommitted([]byte(k.key))
		}
		if !bytes.Equal(now, base) {
			return errConcurrentUpdate(now == nil)
		}
		return nil
	}
	for _, h := range t.locked {
		if err := check(h.key, h.base); err != nil {
			return err
		}
	}
	for k, base := range t.depends {
		if err := check(k, base); err != nil {
			return err
		}
	}
	if w := t.watch; w != nil && w.recording {
		// SERIALIZABLE: what the block read must be as its snapshot had
		// it, so that it commits as if it had run alone, now.
		if err := w.checkRecorded(t.st); err != nil {
			return err
		}
	}
	if t.snapshot != nil {
		// From now on the block reads the newest state, through the
		// checks of a writer on a snapshot (txmodes.go).
		t.watch = &snapshotWatch{snap: t.snapshot.st, at: t.snapshot.st.Version()}
	}
	cat, err := t.engine.catalogFor(t.st, false)
	if err != nil {
		return err
	}
	if cat.Version != t.cat.Version {
		for oid, was := range t.written {
			now, ok := cat.TableByOID(catalog.OID(oid))
			if !ok || !reflect.DeepEqual(now, was) || len(cat.FlowsFrom(catalog.OID(oid))) > 0 {
				return pgerror.New(pgerror.SerializationFailure, "could not serialize access due to a concurrent change of table \"%s\"", was.Name)
			}
		}
	}
	t.cat = cat
	return nil
}

// stampCommit gives a transaction that wrote at the provisional commit
// time its real one, now that it holds the writer slot: the next in the
// file's clock, and every version it wrote moved to it.
func (t *txn) stampCommit() error {
	if t.commitTS != history.ProvisionalCommitTime {
		return nil
	}
	ts, err := history.NextCommitTime(t.st, t.engine.storedNow().UnixMicro())
	if err != nil {
		return err
	}
	for oid := range t.written {
		if err := history.Restamp(t.st, oid, history.ProvisionalCommitTime, ts); err != nil {
			return err
		}
	}
	t.commitTS = ts
	return nil
}

// continueDetached readies the block's detached transaction for its next
// statement: a write that needs the exclusive path attaches it (waiting
// for the writer slot for at most lock_timeout), and under READ COMMITTED
// every statement reads the newest committed state.
func (s *Session) continueDetached(ctx context.Context, t *txn, c *compiled) error {
	if t.st == nil || !t.st.Detached() {
		return nil
	}
	if c.access == accessWrite && !c.concurrent {
		waitCtx := ctx
		if d, _ := settings.ParseDuration(s.settings["lock_timeout"]); d > 0 {
			var cancel context.CancelFunc
			waitCtx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		err := t.attachDetached(waitCtx)
		if err != nil && ctx.Err() == nil && waitCtx.Err() != nil {
			return pgerror.New(pgerror.LockNotAvailable, "canceling statement due to lock timeout")
		}
		return err
	}
	if t.isolation.readsSnapshot() {
		return nil
	}
	if err := t.st.Refresh(); err != nil {
		return err
	}
	cat, err := t.engine.catalogFor(t.st, true)
	if err != nil {
		return err
	}
	t.cat = cat
	return nil
}

// claimKey takes, in a detached transaction, the lock of a key the
// statement is about to insert (a primary key, or a unique index entry):
// one that a transaction committed since the snapshot is a duplicate
// (23505, as PostgreSQL reports it at every isolation level); one that
// was deleted since is a changed row (rowConflict).
func (w *tableWriter) claimKey(x *execCtx, space string, key []byte, cols []int16, tuple []types.Value, constraint string) error {
	if !x.tx.st.Detached() {
		return nil
	}
	outcome, latest, err := x.lockRow(space, key)
	if err != nil || outcome == rowAsSeen {
		return err
	}
	if latest != nil {
		return w.duplicateKey(x, cols, tuple, constraint)
	}
	if x.tx.isolation.readsSnapshot() {
		return errConcurrentUpdate(true)
	}
	return errRestartStatement
}

// fixCommitTime gives a detached transaction that wrote table its real
// commit time now, for a statement that must show its own changes at the
// time they will commit at (cdcdb.table_changes): it attaches, holding
// the writer slot to its end, so no other commit comes between.
func (t *txn) fixCommitTime(ctx context.Context, table catalog.OID) error {
	if !t.writer || t.commitTS != history.ProvisionalCommitTime {
		return nil
	}
	if _, wrote := t.written[uint32(table)]; !wrote {
		return nil
	}
	if err := t.attachDetached(ctx); err != nil {
		return err
	}
	return t.stampCommit()
}

// dropSnapshot ends the block snapshot a detached transaction read, once
// it no longer needs it.
func (t *txn) dropSnapshot() {
	if t.snapshot != nil {
		t.snapshot.rollback()
		t.snapshot = nil
	}
}

// maxDetachedRowLocks is how many row locks a READ COMMITTED detached
// transaction takes before it takes the writer slot instead (escalates):
// a bulk write would otherwise hold a lock, and its commit rewrite a
// commit time, per row. Past it, the transaction is an exclusive writer
// to its end, as every writer was before detached transactions.
const maxDetachedRowLocks = 10000

// escalateIfMany makes a READ COMMITTED detached transaction that holds
// maxDetachedRowLocks row locks the writer, with its real commit time, so
// that the rest of its writes need neither. It runs before a row is
// written, never between a write's reads and its puts. (REPEATABLE READ
// and SERIALIZABLE keep their locks: the checks that would replace them
// are per table.)
func (x *execCtx) escalateIfMany() error {
	t := x.tx
	if t.st == nil || !t.st.Detached() || len(t.locked)+len(t.depends) < maxDetachedRowLocks || t.isolation.readsSnapshot() {
		return nil
	}
	if err := t.attachDetached(x.ctx); err != nil {
		return err
	}
	return t.stampCommit()
}

// parkDetached lets the block's detached READ COMMITTED transaction drop
// its snapshot of the file while the session waits for its client
// (storage.Tx.Park): its next statement reads the newest state anyway.
func (b *txBlock) parkDetached() {
	if t := b.tx; t != nil && t.st != nil && t.st.Detached() && !t.isolation.readsSnapshot() {
		t.st.Park()
	}
}

// lockArbiter takes, in a detached transaction, the lock of the key an ON
// CONFLICT arbiter (the primary key or a unique index) gives the proposed
// row, before the statement looks for a conflicting row: a transaction
// writing that key is waited for, and a key another transaction committed
// or deleted since the snapshot is a changed row (rowConflict): READ
// COMMITTED runs the statement again, and finds the conflict, or none, on
// the newest state; REPEATABLE READ and SERIALIZABLE fail with 40001, as
// PostgreSQL does when the conflicting row is not in its snapshot.
func lockArbiter(x *execCtx, t *catalog.Table, ix *catalog.Index, tuple []types.Value) error {
	if !x.tx.st.Detached() {
		return nil
	}
	if ix.Primary {
		key, err := primaryKey(t, tuple)
		if err != nil {
			return err
		}
		return x.rowConflict(catalog.DataSpace(t.OID), key)
	}
	k, ok, err := indexKey(ix, nil, tuple)
	if err != nil || !ok {
		return err
	}
	return x.rowConflict(catalog.IndexSpace(ix.OID), k)
}
