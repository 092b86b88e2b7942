package storage

import (
	"errors"
	"fmt"
)

// Putting ahead: a write transaction that can be redone from a small
// description of itself need not wait for its own log record to reach the
// disk. It commits that description first, as a transaction of its own
// (PutAhead) whose durable write goes on while the transaction does its
// work; its commit (CommitCovered) then waits for that write alone. The
// put is for a restart only: it is in the log, not in the memtable, so no
// reader sees it and it costs no checkpoint; the covered commit's record
// deletes it again. If the process dies after the put is on disk and before
// the covered commit's record is, Open replays the put and not the delete,
// the put is in its keyspace, and the caller redoes the transaction from
// it. A transaction rolled back after its put ahead deletes it with a
// commit of its own (Rollback), so that nothing redoes it.
//
// Why: a COPY of change events into a flow's source spent a fifth of its
// time waiting for its record's fsync (about 1 ms), with the session idle.
// Written ahead, the COPY's rows reach the disk while the flows apply them.
//
// Readers see a covered commit once the put ahead of it is durable
// (DB.cover): from then on it survives a crash, redone if need be. The log
// writer still writes its record, in version order like any other, so that
// a restart needs no redo but after a crash in that moment.
//
// The put and the covered commit are always in the same memtable layer (the
// covered commit never starts a new one): a checkpoint that covers the
// put's version, whose change the file does not get, covers the covered
// commit's changes too, and with them the transaction.

// errAheadTwice is PutAhead's error for a second put in one transaction.
var errAheadTwice = errors.New("storage: a transaction puts ahead once")

// PutAhead commits, as a transaction of its own ahead of tx, a put of value
// under key in keyspace space that only a restart after a crash will find
// (see above), and returns once that commit is queued (its log record is
// being written meanwhile). tx goes on as before. space must exist and tx
// must not have changed it; a transaction puts ahead at most once, and only
// the writer (not a fork).
func (tx *Tx) PutAhead(space string, key, value []byte) error {
	if err := tx.checkChange(); err != nil {
		return err
	}
	switch {
	case tx.ahead != nil:
		return errAheadTwice
	case len(key) == 0:
		return ErrKeyRequired
	case len(key) > MaxKeySize:
		return ErrKeyTooLarge
	case len(value) > MaxValueSize:
		return ErrValueTooLarge
	case tx.Space(space) == nil:
		return fmt.Errorf("storage: put ahead in %q: %w", space, ErrSpaceNotFound)
	case tx.Wrote(space):
		return fmt.Errorf("storage: put ahead in %q, which the transaction has changed", space)
	}
	var rec walRecord
	rec.put(space, key, value)
	pc, err := tx.commitLogOnly(rec)
	if err != nil {
		return err
	}
	tx.ahead, tx.aheadSpace, tx.aheadKey = pc, space, append([]byte(nil), key...)
	return nil
}

// commitLogOnly commits, for the writer tx and before it, a transaction
// whose changes are in its log record alone, and returns it queued.
func (tx *Tx) commitLogOnly(rec walRecord) (*pendingCommit, error) {
	pc, published, err := tx.db.publishCommit(newWriteSet(tx.view), rec.parts(), nil)
	if err != nil {
		return nil, err
	}
	if !published {
		return nil, tx.db.awaitDurable(pc) // the database's error
	}
	return pc, nil
}

// CommitCovered commits tx like Commit, with a delete of the put PutAhead
// made for it, but returns once that put is on disk, without waiting for
// tx's own log record: for a transaction its caller can redo from the put
// after a crash (see above).
func (tx *Tx) CommitCovered() error {
	if tx.closed {
		return ErrTxClosed
	}
	if tx.ahead == nil {
		return errors.New("storage: CommitCovered without a PutAhead")
	}
	if tx.parent == nil && tx.forks == 0 {
		tx.rec.delete(tx.aheadSpace, tx.aheadKey) // in the log only, as the put
		tx.covered = true
	}
	return tx.Commit() // which refuses a fork, or forks not joined
}

// forgetAhead deletes, durably, the put ahead of a writer being rolled
// back, in the log only as the put.
func (tx *Tx) forgetAhead() error {
	var rec walRecord
	rec.delete(tx.aheadSpace, tx.aheadKey)
	pc, err := tx.commitLogOnly(rec)
	if err != nil {
		return err
	}
	return tx.db.awaitDurable(pc)
}
