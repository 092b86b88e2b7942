package sql

import (
	"maps"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/settings"
	"cdcdb/storage"
	"cdcdb/types"
)

// Savepoints, as PostgreSQL's: SAVEPOINT name sets one inside a transaction
// block, ROLLBACK TO [SAVEPOINT] name undoes everything the block did since
// (and keeps the savepoint, so it can be rolled back to again), RELEASE
// [SAVEPOINT] name forgets it and every savepoint set after it, keeping
// their changes. A later savepoint of the same name hides an earlier one
// until it is released. An error inside a block with savepoints leaves the
// block aborted (25P02) as any error does, until ROLLBACK TO a savepoint
// brings it back or ROLLBACK ends it.
//
// What a rollback to a savepoint takes back: every change the block's
// storage transaction made since (rows, flow logs and targets, flow
// progress, history versions, sequence values, catalog objects: all are
// writes of that one transaction, storage.Tx.RollbackTo), the block's
// uncommitted catalog (catalog.Editor.RollbackTo), the caches layered over
// the transaction (the flows' state caches clear themselves through
// storage.Tx.OnRollbackTo), run-time parameters set since, and the cursors
// declared since. Sequence values drawn since are kept, as PostgreSQL
// never takes back a nextval (the transaction notes each sequence's value
// and sets it again after the rollback); a ROLLBACK of the whole block
// takes them back, as every rollback in cdcdb does (funcs_sequence.go).
//
// A savepoint set before the block's first write (the block had no write
// transaction yet) rolls the write transaction back to its beginning.

// savepoint is one SAVEPOINT of a block.
type savepoint struct {
	name string
	// tx is the block's write transaction when the savepoint was set (nil:
	// none yet), mark where its changes stood, and edit its catalog
	// editor's state (hasEdit: it had one).
	tx      *txn
	mark    storage.Mark
	edit    catalog.EditMark
	hasEdit bool
	// commitTS is the commit time the transaction had reserved, written
	// the tables it had written (for their history retention at commit).
	commitTS int64
	written  map[uint32]*catalog.Table
	// snapshotsDue are the VERSION BY flows' versions the transaction had
	// written rows of, for its commit (flows_snapshot.go).
	snapshotsDue map[catalog.OID]map[string][]types.Value
	// settings are the session's parameters and the block's record of
	// their changes (settings_scope.go), as they were.
	settings map[string]string
	changes  settings.Changes
	// cursors are the session's cursors; onCommit the length of the
	// block's ON COMMIT actions.
	cursors  map[string]*sqlCursor
	onCommit int
	// notified and listened are how many notifications and LISTEN or
	// UNLISTEN the block had queued (notify.go).
	notified, listened int
	// deferredFK is how many foreign-key checks the transaction had put
	// off to commit, fkTiming what SET CONSTRAINTS had said
	// (foreignkey_deferred.go).
	deferredFK int
	fkTiming   fkTiming
}

func errNoSavepoint(name string) error {
	return pgerror.New(pgerror.InvalidSavepointSpecification, "savepoint \"%s\" does not exist", name)
}

// savepointOutsideBlock is PostgreSQL's error for SAVEPOINT, RELEASE and
// ROLLBACK TO where no explicit transaction block is open.
func savepointOutsideBlock(verb string) error {
	return pgerror.New(pgerror.NoActiveSQLTransaction, "%s can only be used in transaction blocks", verb)
}

// setSavepoint is SAVEPOINT name.
func (s *Session) setSavepoint(name string) error {
	b := s.block
	if b == nil || b.implicit {
		return savepointOutsideBlock("SAVEPOINT")
	}
	sp := &savepoint{
		name:     name,
		tx:       b.tx,
		settings: maps.Clone(s.settings),
		changes:  b.settings.Clone(),
		cursors:  maps.Clone(s.cursorMap()),
		onCommit: len(b.onCommit),
		notified: len(b.notify.sent),
		listened: len(b.notify.listen),
		fkTiming: b.fkTiming.clone(),
	}
	if t := b.tx; t != nil {
		m, err := t.st.Mark()
		if err != nil {
			return pgerror.New(pgerror.InternalError, "could not set savepoint: %v", err)
		}
		sp.mark, sp.commitTS, sp.written = m, t.commitTS, maps.Clone(t.written)
		sp.deferredFK = len(t.deferredFK)
		sp.snapshotsDue = cloneSnapshotsDue(t.snapshotsDue)
		if t.editor != nil {
			sp.edit, sp.hasEdit = t.editor.Mark(), true
		}
	}
	b.savepoints = append(b.savepoints, sp)
	return nil
}

// findSavepoint returns the index of the innermost savepoint called name,
// or -1.
func (b *txBlock) findSavepoint(name string) int {
	for i := len(b.savepoints) - 1; i >= 0; i-- {
		if b.savepoints[i].name == name {
			return i
		}
	}
	return -1
}

// releaseSavepoint is RELEASE [SAVEPOINT] name.
func (s *Session) releaseSavepoint(name string) error {
	b := s.block
	if b == nil || b.implicit {
		return savepointOutsideBlock("RELEASE SAVEPOINT")
	}
	i := b.findSavepoint(name)
	if i < 0 {
		return errNoSavepoint(name)
	}
	clear(b.savepoints[i:])
	b.savepoints = b.savepoints[:i]
	return nil
}

// rollbackToSavepoint is ROLLBACK TO [SAVEPOINT] name, which may run in an
// aborted block and, done, leaves it going again.
func (s *Session) rollbackToSavepoint(name string) error {
	b := s.block
	if b == nil || b.implicit {
		return savepointOutsideBlock("ROLLBACK TO SAVEPOINT")
	}
	i := b.findSavepoint(name)
	if i < 0 {
		return errNoSavepoint(name)
	}
	sp := b.savepoints[i]
	clear(b.savepoints[i+1:])
	b.savepoints = b.savepoints[:i+1]
	if err := b.rollbackStorageTo(sp); err != nil {
		// The block's changes are gone with its transaction: it stays
		// aborted, with no savepoint left to return to.
		b.savepoints = nil
		s.failBlock()
		return err
	}
	// Parameters set since go back to what they were, whether SET or SET
	// LOCAL, as PostgreSQL's subtransaction abort restores them.
	s.rollbackSettings(b, sp)
	b.takeBackNotify(sp)
	// Cursors declared since are closed.
	m := s.cursorMap()
	for name, c := range m {
		if sp.cursors[name] != c {
			delete(m, name)
		}
	}
	b.onCommit = b.onCommit[:min(sp.onCommit, len(b.onCommit))]
	b.failed = false
	return nil
}

// rollbackStorageTo takes the block's write transaction back to where it
// was at sp: to its mark, or, for a savepoint set before the transaction
// began, away altogether.
func (b *txBlock) rollbackStorageTo(sp *savepoint) error {
	b.fkTiming = sp.fkTiming.clone() // as PostgreSQL's subtransaction abort
	t := b.tx
	if t == nil {
		return nil
	}
	mark, commitTS, hasEdit, written, due := sp.mark, sp.commitTS, sp.hasEdit, sp.written, sp.snapshotsDue
	deferred := sp.deferredFK
	if sp.tx != t {
		// Set before the transaction began: back to its beginning.
		mark, commitTS, hasEdit, written, due = t.beginMark, 0, false, nil, nil
		deferred = 0
	}
	t.deferredFK = t.deferredFK[:min(deferred, len(t.deferredFK))]
	if err := t.st.RollbackTo(mark); err != nil {
		t.rollback()
		b.tx = nil
		return pgerror.New(pgerror.InternalError, "could not roll back to savepoint \"%s\": %v", sp.name, err)
	}
	t.commitTS, t.written, t.snapshotsDue = commitTS, maps.Clone(written), cloneSnapshotsDue(due)
	if hasEdit {
		t.editor.RollbackTo(sp.edit)
	} else {
		t.editor = nil // the catalog is the one the transaction began with
	}
	// Sequences keep the values drawn since (those whose keyspace is
	// still there: one made since is gone).
	for name, v := range t.sequences {
		if s := t.st.Space(name); s != nil && s.Sequence() != v {
			if err := s.SetSequence(v); err != nil {
				t.rollback()
				b.tx = nil
				return pgerror.New(pgerror.InternalError, "could not keep sequence values at savepoint \"%s\": %v", sp.name, err)
			}
		}
	}
	return nil
}

// abortToSavepoint is what an error does to a block with savepoints: the
// failed statement's changes, and any since the innermost savepoint, are
// taken back now (a ROLLBACK TO can only go further back), and the block
// is aborted. It reports false when there is no savepoint to go back to,
// or going back failed: then the whole transaction goes.
func (s *Session) abortToSavepoint() bool {
	b := s.block
	if len(b.savepoints) == 0 {
		return false
	}
	sp := b.savepoints[len(b.savepoints)-1]
	if err := b.rollbackStorageTo(sp); err != nil {
		s.engine.log.Error("could not roll a failed statement back to its savepoint", "err", err)
		b.savepoints = nil
		return false
	}
	s.rollbackSettings(b, sp)
	b.takeBackNotify(sp)
	b.failed = true
	s.releaseSuspended()
	return true
}

// takeBackNotify forgets the notifications, LISTEN and UNLISTEN queued
// since sp.
func (b *txBlock) takeBackNotify(sp *savepoint) {
	b.notify.sent = b.notify.sent[:min(sp.notified, len(b.notify.sent))]
	b.notify.listen = b.notify.listen[:min(sp.listened, len(b.notify.listen))]
}

// cloneSnapshotsDue copies a transaction's snapshotsDue, both levels (the
// value slices are never changed in place).
func cloneSnapshotsDue(due map[catalog.OID]map[string][]types.Value) map[catalog.OID]map[string][]types.Value {
	if due == nil {
		return nil
	}
	out := make(map[catalog.OID]map[string][]types.Value, len(due))
	for oid, versions := range due {
		out[oid] = maps.Clone(versions)
	}
	return out
}
