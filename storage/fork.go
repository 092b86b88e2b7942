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
// apart, in memory, writing no log record. While the parent goes on
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

// Join makes a fork's changes tx's own, in the order of their keys, and
// ends the fork. Functions the fork registered with OnPublish and
// OnRollback are tx's from then on. Should it fail, tx holds part of the
// fork's changes and must roll back.
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
		st := f.ws.touched[name]
		s := tx.Space(name)
		if s == nil {
			return fmt.Errorf("storage: join a fork's changes to %q: %w", name, ErrSpaceNotFound)
		}
		if tx.adopt(name, st, f.ws.ar) {
			continue
		}
		var it memiter
		it.t = st.tree
		for it.first(); it.valid(); it.next() {
			v, live := it.value()
			if live {
				if err := s.Put(it.key(), v); err != nil {
					return err
				}
				continue
			}
			// The fork saw the key present when it deleted it, and the
			// parent's view of it is the same: hide it here too.
			tx.touch(name)
			tx.ws.delete(name, it.key())
			tx.rec.delete(name, it.key())
		}
	}
	tx.onPublish = append(tx.onPublish, f.onPublish...)
	tx.onRollback = append(tx.onRollback, f.onRollback...)
	return nil
}

// adopt makes a fork's tree of the keyspace name the transaction's own,
// with the arena it lives in, when the transaction has put or deleted
// nothing in that keyspace itself (it may have set its sequence): then the
// fork's tree is exactly what the transaction's would be, and taking it
// over spares putting each entry again, which cost the joining goroutine
// about what the fork had saved it. The changes still go into the log
// record, entry by entry, in key order. It reports whether it adopted.
func (tx *Tx) adopt(name string, forked *txSpace, ar *arena) bool {
	if forked.tree == nil || forked.tree.count == 0 {
		return false
	}
	own, ok := tx.ws.touched[name]
	if ok && (own.tree == nil || own.tree.count > 0) {
		return false
	}
	if !ok {
		// First made through touch, which tells the keyspace's Spaces
		// and cursors to look for the transaction's own state.
		tx.touch(name)
		own = tx.ws.touched[name]
	}
	own.tree = forked.tree
	own.writes++
	tx.ws.adopted = append(tx.ws.adopted, ar)
	tx.gen++
	var it memiter
	it.t = own.tree
	for it.first(); it.valid(); it.next() {
		if v, live := it.value(); live {
			tx.rec.putIn(own, name, it.key(), v)
		} else {
			tx.rec.delete(name, it.key())
		}
	}
	return true
}
