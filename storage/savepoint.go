package storage

import (
	"errors"
	"maps"
)

// Marks let a write transaction take back part of its changes, as SQL's
// savepoints do: Mark notes where its changes stand, RollbackTo discards
// everything it did after that mark and keeps what it did before.
//
// The transaction's log record lists its changes in the order it made
// them, and replaying a record rebuilds exactly the changes it lists (that
// is how a restart rebuilds the memtable). So a mark is a position in the
// record, and RollbackTo cuts the record back to it and rebuilds the
// transaction's own trees by replaying what is left into a fresh write set.
// That costs the transaction's size once per RollbackTo, and nothing at
// all for a mark never rolled back to, which is the common case (drivers
// and ORMs set a savepoint around every nested block and mostly release
// it).

// ErrMarkInvalid is returned by RollbackTo for a mark of another
// transaction, or one the transaction cannot return to: made before a
// write that already went ahead of the commit (PutAhead), or while forks
// are live.
var ErrMarkInvalid = errors.New("storage: cannot roll back to this mark")

// Mark is a position in a write transaction's changes.
type Mark struct {
	tx *Tx
	// The record as it stood: its number of chunks, the length of its
	// last one, its size, and the keyspace numbers it had defined.
	chunks, lastLen, size int
	names                 map[string]uint64
	// ahead says the transaction had put ahead when the mark was made.
	ahead bool
}

// Mark returns the position of the write transaction's changes now, for
// RollbackTo.
func (tx *Tx) Mark() (Mark, error) {
	if err := tx.checkChange(); err != nil {
		return Mark{}, err
	}
	if tx.forks > 0 {
		return Mark{}, ErrMarkInvalid
	}
	m := Mark{tx: tx, chunks: len(tx.rec.chunks), size: tx.rec.size, names: maps.Clone(tx.rec.names), ahead: tx.ahead != nil}
	if m.chunks > 0 {
		m.lastLen = len(tx.rec.chunks[m.chunks-1])
	}
	return m, nil
}

// OnRollbackTo registers fn to run after each RollbackTo of the write
// transaction: a cache layered over the transaction's changes drops what it
// learned of them, since it cannot tell what came before the mark.
func (tx *Tx) OnRollbackTo(fn func()) { tx.onRollbackTo = append(tx.onRollbackTo, fn) }

// RollbackTo discards every change the write transaction made after m was
// taken, keeping those it made before; m stays valid, so the transaction
// may roll back to it again. Marks taken after m must not be used any more.
// Byte slices read before stay valid (the old trees are left to the
// garbage collector), but Spaces resolve their sources again.
func (tx *Tx) RollbackTo(m Mark) error {
	if err := tx.checkChange(); err != nil {
		return err
	}
	if m.tx != tx || tx.forks > 0 || (tx.ahead != nil && !m.ahead) || m.chunks > len(tx.rec.chunks) {
		return ErrMarkInvalid
	}
	rec := &tx.rec
	if m.chunks > 0 && m.lastLen > len(rec.chunks[m.chunks-1]) {
		return ErrMarkInvalid
	}
	clear(rec.chunks[m.chunks:])
	rec.chunks = rec.chunks[:m.chunks]
	if m.chunks > 0 {
		rec.chunks[m.chunks-1] = rec.chunks[m.chunks-1][:m.lastLen]
	}
	rec.size = m.size
	rec.names = maps.Clone(m.names)

	// Replayed chunk by chunk, which is safe as no operation spans two
	// (walRecord.buf), and copies nothing of a big transaction's record.
	ws := newWriteSet(tx.ws.base)
	replay := recordReplay{w: ws}
	for _, c := range rec.chunks {
		if err := replay.apply(c); err != nil {
			return err
		}
	}
	// The new write set's keyspace states know no numbers in the record;
	// give them those the record has defined, as putIn would have.
	for name, st := range ws.touched {
		if n, ok := rec.names[name]; ok {
			st.walSpace = n + 1
		}
	}
	tx.ws = ws
	tx.gen++ // every Space resolves its sources again
	for _, fn := range tx.onRollbackTo {
		fn()
	}
	return nil
}
