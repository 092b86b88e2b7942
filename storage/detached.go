package storage

import (
	"context"
	"fmt"
)

// Detached write transactions: many at once, each buffering its changes in
// its own write set over a snapshot, none holding the writer slot until it
// commits.
//
// A write transaction begun with BeginContext holds the one writer slot
// from its beginning to its end and builds on the head. One begun with
// BeginDetached holds no slot: it reads the durable state as of its
// beginning (or of its last Refresh) with its own changes on top, exactly
// as a reader with a private tree, so any number of them run beside each
// other and beside the attached writer. Attach takes the slot (waiting for
// it like BeginContext) and moves the transaction onto the head, keeping
// its changes; from then on it is an ordinary writer, and Commit publishes
// its write set as any other. Commit attaches a detached transaction
// first.
//
// Storage does not decide whether a detached transaction's changes still
// make sense on the newer state it attaches to: a put is a put of a whole
// value, and the layer above (the SQL layer's row locks) makes sure no two
// transactions write the same key unless it is one whose last writer wins
// by design. The one thing merged here is keyspace sequences: NextSequence
// hands out numbers from a counter the database keeps across all
// transactions (handedOut), so two transactions never draw the same
// number, and Attach keeps the larger of the head's counter and the
// transaction's, so a commit never moves a counter back below what
// another commit already used.

// BeginDetached starts a detached write transaction over the newest
// durable state. It holds no writer slot until Attach (or Commit).
func (db *DB) BeginDetached() (*Tx, error) {
	if db.readOnly {
		return nil, fmt.Errorf("storage: begin: %w", ErrDatabaseReadOnly)
	}
	db.mu.Lock()
	failed, closing := db.failed, db.closing
	db.mu.Unlock()
	if failed != nil {
		return nil, failedError(failed)
	}
	if closing {
		return nil, fmt.Errorf("storage: begin: database is closed: %w", ErrTxClosed)
	}
	tx, err := db.beginRead()
	if err != nil {
		return nil, err
	}
	tx.writable, tx.detached = true, true
	tx.ws = newWriteSet(tx.view)
	return tx, nil
}

// Detached reports whether tx is a write transaction that does not hold
// the writer slot (yet).
func (tx *Tx) Detached() bool { return tx.detached }

// Refresh moves a detached transaction onto the newest durable state,
// keeping its own changes on top: what a READ COMMITTED statement reads.
// Cursors and Spaces taken before resolve their sources again; byte slices
// read before stay valid until the transaction ends. It does nothing for a
// transaction that is not detached.
func (tx *Tx) Refresh() error {
	if tx.closed {
		return ErrTxClosed
	}
	if !tx.detached {
		return nil
	}
	fresh, err := tx.db.beginRead()
	if err != nil {
		return err
	}
	tx.parked = false
	tx.releaseFile()
	tx.view, tx.btx = fresh.view, fresh.btx
	tx.ws.base = fresh.view
	tx.gen++
	return nil
}

// Attach makes a detached transaction the writer: it waits for the writer
// slot (or for ctx to end, returning its error and leaving the transaction
// detached), then moves onto the head with its own changes on top and
// keeps, for each keyspace sequence it set, the larger of its value and
// the head's. It does nothing for a transaction that is not detached.
func (tx *Tx) Attach(ctx context.Context) error {
	if tx.closed {
		return ErrTxClosed
	}
	if !tx.detached {
		return nil
	}
	db := tx.db
	select {
	case db.writeSlot <- struct{}{}:
	default:
		select {
		case db.writeSlot <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	db.mu.Lock()
	v, failed, closing := db.head, db.failed, db.closing
	db.mu.Unlock()
	if failed != nil || closing {
		db.releaseWriter()
		if failed != nil {
			return failedError(failed)
		}
		return fmt.Errorf("storage: attach: database is closed: %w", ErrTxClosed)
	}
	btx, err := db.bolt.Begin(false)
	if err != nil {
		db.releaseWriter()
		return mapErr("attach", err)
	}
	tx.releaseFile()
	tx.view, tx.btx = v, btx
	tx.ws.base = v
	tx.detached, tx.parked = false, false
	tx.gen++
	for name, st := range tx.ws.touched {
		if !st.hasSeq || st.reset {
			continue
		}
		if head := tx.committedSequence(name); head > st.seq {
			st.seq = head
			tx.rec.setSequence(name, head)
		}
	}
	return nil
}

// committedSequence is a keyspace's sequence counter as the view (without
// the transaction's own changes) has it.
func (tx *Tx) committedSequence(name string) uint64 {
	src := resolveSpace(nil, tx.view, name)
	if src.seqKnown {
		return src.seq
	}
	if !src.file || tx.btx == nil || !tx.db.fileSpaces.has(tx, name) {
		return 0
	}
	s := &Space{tx: tx, name: name, exists: true, src: src}
	return s.fileSequence()
}

// drawSequence is NextSequence's number for tx: one above both what the
// transaction sees of the counter and the highest number any transaction
// drew from it since the database was opened. The transaction remembers
// what it drew, so that its rollback can take the numbers back when no
// other transaction drew after it (undrawSequences).
func (db *DB) drawSequence(tx *Tx, name string, seen uint64) uint64 {
	db.mu.Lock()
	defer db.mu.Unlock()
	before := db.handedOut[name]
	base := before
	if tx.ws != nil {
		if st, ok := tx.ws.touched[name]; ok && st.reset {
			// Made or dropped in this transaction (DDL, which no other
			// writer runs beside): its counter started again, and what the
			// keyspace before it handed out no longer counts (its commit
			// forgets it).
			base = 0
		}
	}
	n := max(seen, base) + 1
	if db.handedOut == nil {
		db.handedOut = map[string]uint64{}
	}
	db.handedOut[name] = n
	if tx.drawn == nil {
		tx.drawn = map[string][2]uint64{}
	}
	d, ok := tx.drawn[name]
	if !ok {
		d[0] = before
	}
	d[1] = n
	tx.drawn[name] = d
	return n
}

// undrawSequences takes back the numbers a rolled-back transaction drew,
// from each counter no other transaction drew from since.
func (db *DB) undrawSequences(tx *Tx) {
	if len(tx.drawn) == 0 {
		return
	}
	db.mu.Lock()
	for name, d := range tx.drawn {
		if db.handedOut[name] == d[1] {
			db.handedOut[name] = d[0]
		}
	}
	db.mu.Unlock()
	tx.drawn = nil
}

// noteSequence raises the highest number drawn from a keyspace's counter to
// v (a SetSequence: what a savepoint's rollback restores, or a setval).
// restart lowers it too: a setval that starts the sequence again.
func (db *DB) noteSequence(name string, v uint64, restart bool) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.handedOut == nil {
		db.handedOut = map[string]uint64{}
	}
	if restart || v > db.handedOut[name] {
		db.handedOut[name] = v
	}
}

// forgetSequence drops what was drawn from a keyspace's counter, when the
// keyspace is made or dropped (its counter starts again).
func (db *DB) forgetSequence(name string) {
	db.mu.Lock()
	delete(db.handedOut, name)
	db.mu.Unlock()
}

// Detach makes a read transaction a detached write transaction over the
// same snapshot: a REPEATABLE READ block that read first and writes
// later keeps reading the snapshot its first statement took.
func (tx *Tx) Detach() error {
	if tx.closed {
		return ErrTxClosed
	}
	if tx.writable {
		return nil
	}
	if tx.db.readOnly {
		return fmt.Errorf("storage: detach: %w", ErrDatabaseReadOnly)
	}
	tx.writable, tx.detached = true, true
	tx.ws = newWriteSet(tx.view)
	tx.gen++
	return nil
}

// PendingEntries calls fn, in key order and once each, with every key the
// write transaction has put or deleted in keyspace name, the value it put
// last and whether that was a put (live) rather than a delete. Unlike
// WrittenKeys it tells an empty value from a delete. fn must not write to
// the keyspace; key and value are valid only during the call.
func (tx *Tx) PendingEntries(name string, fn func(key, value []byte, live bool) error) error {
	if tx.ws == nil {
		return nil
	}
	st, ok := tx.ws.touched[name]
	if !ok {
		return nil
	}
	runs := make([]*memRun, 0, 1+len(st.runs))
	if st.tree != nil && st.tree.count > 0 {
		runs = append(runs, runFromTree(st.tree))
	}
	runs = append(runs, st.runs...)
	if len(runs) == 0 {
		return nil
	}
	it := newMergedIter(runs)
	for it.first(); it.valid(); it.next() {
		v, live := it.value()
		if err := fn(it.key(), v, live); err != nil {
			return err
		}
	}
	return nil
}

// BeginDetachedOn starts a detached write transaction that reads what the
// read transaction snap reads: the snapshot a REPEATABLE READ block's
// first statement took, which its writes must build on. It shares snap's
// snapshot of the file until it attaches or refreshes, so snap must stay
// open until then.
func (db *DB) BeginDetachedOn(snap *Tx) (*Tx, error) {
	if db.readOnly {
		return nil, fmt.Errorf("storage: begin: %w", ErrDatabaseReadOnly)
	}
	if snap.closed || snap.writable {
		return nil, ErrTxClosed
	}
	tx := newTx(db, snap.view, snap.btx, true)
	tx.sharedFile, tx.detached = true, true
	tx.ws = newWriteSet(snap.view)
	return tx, nil
}

// Park lets a detached transaction's snapshot of the file go while it
// waits for its client (a READ COMMITTED block idle between statements):
// an open snapshot would hold up a checkpoint that must grow the file's
// memory map, and with it every transaction that begins meanwhile. Its
// next read moves it onto the newest durable state (as Refresh), which is
// what a READ COMMITTED statement reads anyway. Byte slices read before
// stay valid. It does nothing for a transaction that is not detached or
// that shares another's snapshot (BeginDetachedOn).
func (tx *Tx) Park() {
	if tx.closed || !tx.detached || tx.sharedFile || tx.btx == nil {
		return
	}
	tx.releaseFile()
	tx.parked = true
}

// unpark takes a new snapshot for a parked transaction's read. A read has
// no error to return: a database that cannot begin one panics with the
// error, as a read of a damaged file does (doc.go).
func (tx *Tx) unpark() {
	if err := tx.Refresh(); err != nil {
		panic(err)
	}
}

// HasChanges reports whether the write transaction has changes to publish
// (its commit then needs the writer slot).
func (tx *Tx) HasChanges() bool { return tx.writable && !tx.closed && !tx.rec.empty() }
