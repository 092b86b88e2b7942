package storage

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Space is a keyspace: a sorted map from byte keys to byte values, valid for
// the life of the Tx that returned it.
type Space struct {
	tx   *Tx
	b    *bolt.Bucket
	name string
}

// Name returns the keyspace's name.
func (s *Space) Name() string { return s.name }

// Get returns the value stored under key, or nil if there is none. The slice
// points into the database file: it is valid only until the Tx ends and must
// not be modified.
func (s *Space) Get(key []byte) []byte {
	if s.tx.closed {
		return nil
	}
	return s.b.Get(key)
}

// Put stores value under key, replacing any previous value. It copies key and
// value, so the caller may reuse both buffers at once. A nil value is stored
// as an empty value.
func (s *Space) Put(key, value []byte) error {
	if s.tx.closed {
		return ErrTxClosed
	}
	if !s.tx.tx.Writable() {
		return ErrTxNotWritable
	}
	if len(key) == 0 {
		return ErrKeyRequired
	}
	if len(key) > MaxKeySize {
		return ErrKeyTooLarge
	}
	if len(value) > MaxValueSize {
		return ErrValueTooLarge
	}
	// One allocation for both: bbolt keeps referring to them until commit.
	buf := make([]byte, len(key)+len(value))
	copy(buf, key)
	copy(buf[len(key):], value)
	return mapErr(fmt.Sprintf("put in %q", s.name), s.b.Put(buf[:len(key):len(key)], buf[len(key):]))
}

// Delete removes key. Deleting an absent key is not an error.
func (s *Space) Delete(key []byte) error {
	if s.tx.closed {
		return ErrTxClosed
	}
	return mapErr(fmt.Sprintf("delete in %q", s.name), s.b.Delete(key))
}

// NextSequence increments and returns the keyspace's sequence counter, which
// starts at 0 (so the first call returns 1). The increment is part of the Tx:
// a rollback undoes it.
func (s *Space) NextSequence() (uint64, error) {
	if s.tx.closed {
		return 0, ErrTxClosed
	}
	n, err := s.b.NextSequence()
	return n, mapErr(fmt.Sprintf("next sequence of %q", s.name), err)
}

// Sequence returns the keyspace's sequence counter without changing it.
func (s *Space) Sequence() uint64 { return s.b.Sequence() }

// SetSequence sets the keyspace's sequence counter.
func (s *Space) SetSequence(v uint64) error {
	if s.tx.closed {
		return ErrTxClosed
	}
	return mapErr(fmt.Sprintf("set sequence of %q", s.name), s.b.SetSequence(v))
}

// Count returns the number of keys. It walks the keyspace's pages, so it costs
// time proportional to the keyspace's size.
func (s *Space) Count() int {
	if s.tx.closed {
		return 0
	}
	return s.b.Stats().KeyN
}

// Cursor returns a cursor over the keyspace, valid until the Tx ends.
func (s *Space) Cursor() *Cursor {
	return &Cursor{c: s.b.Cursor(), s: s}
}
