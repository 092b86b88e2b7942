package storage

import (
	"errors"
	"fmt"
	"slices"
)

// A fork lets a second goroutine share the work of one write transaction.
//
// Fork returns a write transaction of its own (the fork) that reads what
// the transaction (its parent) read when it began, and keeps its changes
// apart, in memory, with a log record of its own that nothing writes
// until the parent commits. While the parent goes on
// writing on its goroutine, the fork is used on another; nothing of the
// parent's state that changes is shared between them, so neither takes a
// lock. Join then makes the fork's changes the parent's own, as if the
// parent had made them itself; a fork rolled back instead leaves the
// parent as it was.
//
// What keeps this simple is a rule: a fork may not read a keyspace its
// parent had written when it forked (Wrote), since those changes live in
// the parent's own tree and arena, which the parent's writes change under
// it. Such a read panics, as a program's mistake; the caller checks Wrote
// on what the fork will read before forking. The parent's writes after the
// fork are not the fork's to see, and the fork's not the parent's until
// Join. A fork only puts and deletes: it does not create or drop
// keyspaces or set their sequences (ErrForkChange); nor may its parent drop
// a keyspace the fork writes while the fork lives.
//
// The two share the parent's snapshot of the file, a read-only bbolt
// transaction, which they only read: bbolt's read-only buckets keep no
// cache and count their cursors atomically.

// ErrForkChange is returned by a fork's changes other than puts and
// deletes, and by its Commit.
var ErrForkChange = errors.New("storage: a fork only puts and deletes, and is joined rather than committed")

// Wrote reports whether the write transaction has changed the keyspace
// name (or created or dropped it) so far.
func (tx *Tx) Wrote(name string) bool {
	if tx.ws == nil {
		return false
	}
	_, ok := tx.ws.touched[name]
	return ok
}

// Fork returns a fork of the write transaction: see above. tx must not
// commit or roll back while the fork lives (until Join, or the fork's
// Rollback).
func (tx *Tx) Fork() (*Tx, error) {
	if err := tx.checkWrite(); err != nil {
		return nil, err
	}
	if tx.parent != nil {
		return nil, fmt.Errorf("storage: fork a fork: %w", ErrForkChange)
	}
	// The root bucket is opened here, on the parent's goroutine, so that
	// the fork and the parent never both open it on the bbolt transaction
	// they share.
	f := &Tx{db: tx.db, writable: true, view: tx.view, btx: tx.btx, root: tx.rootBucket(), parent: tx}
	f.ws = newWriteSet(tx.view)
	if tx.ws != nil && len(tx.ws.touched) > 0 {
		f.hidden = make(map[string]struct{}, len(tx.ws.touched))
		for name := range tx.ws.touched {
			f.hidden[name] = struct{}{}
		}
	}
	tx.forks++
	return f, nil
}

// checkReadable panics when a fork resolves a keyspace its parent had
// written (see above).
func (tx *Tx) checkReadable(name string) {
	if _, ok := tx.hidden[name]; ok {
		panic(fmt.Sprintf("storage: a fork read keyspace %q, which the transaction it was forked from had written", name))
	}
}

// Join makes a fork's changes tx's own, as if tx had made them now, and
// ends the fork. Functions the fork registered with OnPublish and
// OnRollback are tx's from then on. Should it fail, tx holds part of the
// fork's changes and must roll back.
//
// It copies no entry. In each keyspace the fork wrote, the fork's tree
// becomes tx's: as its tree, when tx has written nothing there, or else as
// the newest of its runs (txSpace.runs), after tx's own tree, which becomes
// a run too and gives way to an empty one for what tx writes next. The
// fork's log record, built as it wrote, goes into tx's as it is
// (walRecord.appendJoined). Joining costs a walk of the trees made runs,
// where putting the fork's entries again cost the joining goroutine about
// what the fork had saved it.
func (tx *Tx) Join(f *Tx) error {
	if f.parent != tx {
		return fmt.Errorf("storage: join a transaction that is not a fork of this one: %w", ErrForkChange)
	}
	if f.closed {
		return ErrTxClosed
	}
	if err := tx.checkWrite(); err != nil {
		return err
	}
	f.closed = true
	tx.forks--
	defer f.release()
	var names []string
	if f.ws != nil {
		for name := range f.ws.touched {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		if tx.Space(name) == nil {
			return fmt.Errorf("storage: join a fork's changes to %q: %w", name, ErrSpaceNotFound)
		}
	}
	for _, name := range names {
		forked := f.ws.touched[name]
		if forked.tree == nil || forked.tree.count == 0 {
			continue
		}
		// Made through touch, which tells the keyspace's Spaces and
		// cursors to look for the transaction's own state.
		tx.touch(name)
		own := tx.ws.touched[name]
		switch {
		case own.tree.count == 0 && len(own.runs) == 0:
			own.tree = forked.tree
		default:
			if own.tree.count > 0 {
				own.runs = append([]*memRun{runFromTree(own.tree)}, own.runs...)
				own.tree = newMemtree(tx.ws.ar)
			}
			own.runs = append([]*memRun{runFromTree(forked.tree)}, own.runs...)
		}
		own.writes++
		tx.gen++
	}
	if f.ws != nil && f.ws.ar != nil {
		tx.ws.adopted = append(tx.ws.adopted, f.ws.ar)
	}
	tx.rec.appendJoined(&f.rec, tx.ws.touched)
	tx.onPublish = append(tx.onPublish, f.onPublish...)
	tx.onRollback = append(tx.onRollback, f.onRollback...)
	return nil
}
