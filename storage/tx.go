package storage

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Tx is a transaction. It is not safe for concurrent use.
type Tx struct {
	tx     *bolt.Tx
	root   *bolt.Bucket
	closed bool
}

// Writable reports whether tx is a write transaction.
func (tx *Tx) Writable() bool { return tx.tx.Writable() }

// Commit makes a write transaction's changes durable and visible, or ends a
// read transaction. On error the transaction has been rolled back.
func (tx *Tx) Commit() error {
	if tx.closed {
		return ErrTxClosed
	}
	tx.closed = true
	if !tx.tx.Writable() {
		return mapErr("commit", tx.tx.Rollback())
	}
	return mapErr("commit", tx.tx.Commit())
}

// Rollback discards everything the transaction did. After Commit or a previous
// Rollback it does nothing and returns nil, so `defer tx.Rollback()` is safe.
func (tx *Tx) Rollback() error {
	if tx.closed {
		return nil
	}
	tx.closed = true
	return mapErr("rollback", tx.tx.Rollback())
}

// CreateSpace creates an empty keyspace. It fails with ErrSpaceExists if the
// name is taken, and with ErrTxNotWritable in a read transaction.
func (tx *Tx) CreateSpace(name string) (*Space, error) {
	if tx.closed {
		return nil, ErrTxClosed
	}
	if name == "" {
		return nil, fmt.Errorf("storage: create keyspace: empty name: %w", ErrKeyRequired)
	}
	b, err := tx.root.CreateBucket([]byte(name))
	if err != nil {
		return nil, mapErr(fmt.Sprintf("create keyspace %q", name), err)
	}
	return &Space{tx: tx, b: b, name: name}, nil
}

// Space returns the named keyspace, or nil if there is none.
func (tx *Tx) Space(name string) *Space {
	if tx.closed || name == "" {
		return nil
	}
	b := tx.root.Bucket([]byte(name))
	if b == nil {
		return nil
	}
	return &Space{tx: tx, b: b, name: name}
}

// DropSpace deletes a keyspace and everything in it. It fails with
// ErrSpaceNotFound if there is none.
func (tx *Tx) DropSpace(name string) error {
	if tx.closed {
		return ErrTxClosed
	}
	if name == "" {
		return fmt.Errorf("storage: drop keyspace: empty name: %w", ErrSpaceNotFound)
	}
	return mapErr(fmt.Sprintf("drop keyspace %q", name), tx.root.DeleteBucket([]byte(name)))
}

// Spaces returns the names of the keyspaces that start with prefix, sorted
// bytewise.
func (tx *Tx) Spaces(prefix string) []string {
	if tx.closed {
		return nil
	}
	var names []string
	p := []byte(prefix)
	c := tx.root.Cursor()
	for k, _ := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, _ = c.Next() {
		names = append(names, string(k))
	}
	return names
}
