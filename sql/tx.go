package sql

import (
	"context"
	"time"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/storage"
	"cdcdb/types"
)

// txn is one storage transaction with the catalog it sees. A write txn
// holds storage's writer slot until its commit is queued or it rolls back.
type txn struct {
	engine *Engine
	// sess is the session the transaction works for: its commit applies
	// change feed flows (applyFeedFlows) in its name.
	sess   *Session
	st     *storage.Tx
	cat    *catalog.Snapshot
	editor *catalog.Editor
	writer bool
	start  time.Time
	// holder is the pid of the session whose write transaction this is,
	// recorded in Engine.writerPID while it holds the writer slot.
	holder int32
	// afterCommit runs once the storage commit succeeded (e.g. to publish
	// flow statistics).
	afterCommit []func()
	// commitTS is the commit time of this write transaction (microseconds),
	// reserved on first use; versions it writes start then.
	commitTS int64
	// written lists the tables this transaction changed, for retention.
	written map[uint32]*catalog.Table
	// sole marks the implicit transaction of a simple Query's only
	// statement, begun by it: it commits when that statement ends well.
	// wroteAhead says a COPY in it wrote its rows ahead (copyahead.go):
	// its commit waits for them instead of its own record.
	sole, wroteAhead bool
	// watch, in a REPEATABLE READ or SERIALIZABLE block that read from a
	// snapshot, checks what the transaction's statements read against it
	// (txmodes.go); nil otherwise.
	watch *snapshotWatch
	// snapshotsDue holds, per VERSION BY flow, the versions (by encoding)
	// this transaction wrote rows of; they are applied at commit, as is a
	// snapshot of each TRIGGER ON UPDATE flow reading a table in written
	// (takeDueSnapshots). snapshotSession is the session that wrote them.
	snapshotsDue    map[catalog.OID]map[string][]types.Value
	snapshotSession *Session
	// beginMark is the storage mark of the transaction's beginning, for a
	// rollback to a savepoint set before it (savepoint.go); sequences the
	// value each serial sequence keyspace it drew from or set was left
	// at, which such a rollback keeps, as PostgreSQL never takes back a
	// nextval.
	beginMark storage.Mark
	sequences map[string]uint64
	// deferredFK are the checks of deferred foreign keys, run before the
	// commit (foreignkey_deferred.go).
	deferredFK []deferredFKCheck
	// For a detached transaction (concurrent.go): its block's isolation
	// level, the row locks it holds, the transaction it waits for a row
	// lock of (guarded by the engine's rowLocks.mu), and ended, closed
	// when it ends, which wakes those waiting for its locks.
	isolation isolationLevel
	// snapshot is the block's snapshot a detached REPEATABLE READ or
	// SERIALIZABLE transaction reads.
	snapshot   *txn
	pid        int32
	locked     []heldRow
	depends    map[rowLockKey][]byte
	waitingFor *txn
	ended      chan struct{}
}

// noteSequence records a sequence keyspace's value after a nextval or
// setval in this transaction.
func (t *txn) noteSequence(space string, v uint64) {
	if t.sequences == nil {
		t.sequences = map[string]uint64{}
	}
	t.sequences[space] = v
}

// commitTime reserves this transaction's commit time.
func (t *txn) commitTime() (int64, error) {
	if t.commitTS == 0 {
		ts, err := history.NextCommitTime(t.st, t.engine.storedNow().UnixMicro())
		if err != nil {
			return 0, err
		}
		t.commitTS = ts
	}
	return t.commitTS, nil
}

// rows opens a table's rows for writing at this transaction's commit time.
func (t *txn) rows(tbl *catalog.Table) (*history.Table, error) {
	ts, err := t.commitTime()
	if err != nil {
		return nil, err
	}
	if t.written == nil {
		t.written = map[uint32]*catalog.Table{}
	}
	t.written[tbl.OID] = tbl
	return history.Open(t.st, tbl.OID, ts, keepsCommitHistory(tbl), tbl.Kind == catalog.KindStreaming)
}

// keepsCommitHistory reports whether a table keeps its superseded versions
// by commit time: every table but BITEMPORAL targets, whose system period
// is their own column pair.
func keepsCommitHistory(t *catalog.Table) bool { return t.StoredAs != catalog.Bitemporal }

// beginTxn starts a storage transaction; a writable one first waits (with
// ctx) for storage's single writer slot.
func (e *Engine) beginTxn(ctx context.Context, s *Session, writable bool) (*txn, error) {
	st, err := e.db.BeginContext(ctx, writable)
	if err != nil {
		if ctx.Err() != nil {
			return nil, cancelError(ctx)
		}
		return nil, err
	}
	cat, err := e.catalogFor(st, !writable)
	if err != nil {
		_ = st.Rollback()
		return nil, err
	}
	return &txn{engine: e, sess: s, st: st, cat: cat, writer: writable, start: time.Now()}, nil
}

// catalog is the catalog this transaction reads, including its own DDL.
func (t *txn) catalog() *catalog.Snapshot {
	if t.editor != nil {
		return t.editor.Snapshot()
	}
	return t.cat
}

// edit returns the transaction's catalog editor, starting one on first use.
func (t *txn) edit() (*catalog.Editor, error) {
	if !t.writer {
		return nil, pgerror.New(pgerror.InternalError, "catalog change in a read-only transaction")
	}
	if t.editor == nil {
		ed, err := t.cat.Edit(t.st)
		if err != nil {
			return nil, err
		}
		t.editor = ed
	}
	return t.editor, nil
}

func (t *txn) commit() error {
	if t.st == nil {
		return nil
	}
	if err := t.runDeferredFKChecks(context.Background(), nil); err != nil {
		t.rollback()
		return err
	}
	if t.writer && t.st.Detached() && !t.st.HasChanges() {
		// A detached transaction that changed nothing (an UPDATE that
		// matched no row, a locking SELECT) publishes nothing: it needs
		// neither the writer slot nor a commit time.
		t.commitTS = 0
	} else if t.writer {
		if err := t.attachDetached(context.Background()); err != nil {
			t.rollback()
			return err
		}
		if err := t.stampCommit(); err != nil {
			t.rollback()
			return err
		}
		// Attached, it reads its own snapshot of the file: the block's
		// may go, before the commit waits for the disk.
		t.dropSnapshot()
		if err := t.takeDueSnapshots(); err != nil {
			t.rollback()
			return err
		}
	}
	// Change feed flows run after the snapshots, whose targets they may
	// read, and the change log after both, which write targets.
	if err := t.applyFeedFlows(); err != nil {
		t.rollback()
		return err
	}
	if err := t.logChanges(); err != nil {
		t.rollback()
		return err
	}
	if err := t.applyRetention(); err != nil {
		t.rollback()
		return err
	}
	var err error
	if t.wroteAhead {
		err = t.st.CommitCovered()
	} else {
		err = t.st.Commit()
	}
	if err == nil && t.editor != nil {
		t.engine.installCatalog(t.editor.Snapshot())
	}
	t.finish()
	if err != nil {
		if pe := pgerror.As(err); pe.Code != pgerror.InternalError {
			return pe // storage's own SQLSTATE, e.g. 58030 for a failed write
		}
		return pgerror.New(pgerror.InternalError, "could not commit: %v", err)
	}
	for _, f := range t.afterCommit {
		f()
	}
	return nil
}

func (t *txn) rollback() {
	if t.st == nil {
		return
	}
	if err := t.st.Rollback(); err != nil {
		// Deleting the rows a COPY wrote ahead failed, and with it the
		// database (a write error): a restart redoes the COPY, and fails
		// it again unless what failed it was not its data (a cancel).
		t.engine.log.Error("could not delete the rows a failed COPY wrote ahead", "err", err)
	}
	t.finish()
}

func (t *txn) finish() {
	if t.holder != 0 {
		t.engine.writerPID.CompareAndSwap(t.holder, 0)
		t.holder = 0
	}
	t.st = nil
	t.writer = false
	t.releaseRowLocks()
	t.dropSnapshot()
}

// catalogSnapshot is the latest committed catalog.
func (e *Engine) catalogSnapshot() *catalog.Snapshot {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cat
}

// logChanges records in the change log of each table this transaction
// wrote which of its rows the commit changes (history.LogChanges), for
// cdcdb.table_changes. Tables without commit-time history have none.
func (t *txn) logChanges() error {
	for _, tbl := range t.written {
		if !keepsCommitHistory(tbl) {
			continue
		}
		if err := history.LogChanges(t.st, tbl.OID, t.commitTS); err != nil {
			return err
		}
	}
	return nil
}

// applyRetention prunes, for each table this transaction wrote that has a
// history_retention, the versions that ended before the retention window.
func (t *txn) applyRetention() error {
	for _, tbl := range t.written {
		if err := pruneHistory(t.st, tbl, t.commitTS); err != nil {
			return err
		}
	}
	return nil
}

// pruneHistory removes a table's versions older than its history_retention.
func pruneHistory(st *storage.Tx, tbl *catalog.Table, now int64) error {
	ret := tbl.Options["history_retention"]
	if ret == "" {
		return nil
	}
	v, err := types.ParseText(types.Of(types.Interval), ret)
	if err != nil {
		return err
	}
	iv := v.(types.IntervalValue)
	nowT := time.UnixMicro(now).UTC()
	cutoff := nowT.AddDate(0, -int(iv.Months), -int(iv.Days)).Add(-time.Duration(iv.Micros) * time.Microsecond)
	_, err = history.Prune(st, tbl.OID, cutoff.UnixMicro())
	return err
}
