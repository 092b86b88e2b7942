package storage

import bolt "go.etcd.io/bbolt"

// Cursor walks a keyspace in key order. Keys and values it returns point into
// the database file: valid only until the Tx ends, and not to be modified. At
// either end the methods return a nil key.
//
// Changing the keyspace with Put or Space.Delete while a cursor is positioned
// invalidates that cursor's position: Seek again afterwards. Cursor.Delete is
// the exception: after it, Next moves to the key that followed the deleted one.
type Cursor struct {
	c *bolt.Cursor
	s *Space
}

// First moves to the first key.
func (c *Cursor) First() (key, value []byte) { return c.c.First() }

// Last moves to the last key.
func (c *Cursor) Last() (key, value []byte) { return c.c.Last() }

// Seek moves to key, or to the first key after it if it is absent.
func (c *Cursor) Seek(key []byte) (k, value []byte) { return c.c.Seek(key) }

// Next moves to the next key.
func (c *Cursor) Next() (key, value []byte) { return c.c.Next() }

// Prev moves to the previous key.
func (c *Cursor) Prev() (key, value []byte) { return c.c.Prev() }

// Delete removes the key the cursor is on.
func (c *Cursor) Delete() error {
	if c.s.tx.closed {
		return ErrTxClosed
	}
	return mapErr("cursor delete in "+c.s.name, c.c.Delete())
}
