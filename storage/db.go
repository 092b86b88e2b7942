package storage

import (
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// rootBucket holds every keyspace as a nested bucket, so the top level of the
// file stays free for whatever a later format version needs.
var rootBucket = []byte("spaces")

// Options configure Open.
type Options struct {
	// NoSync skips fsync on commit. A crash may then lose committed
	// transactions or corrupt the file: for tests and bulk loads only.
	NoSync bool
	// Timeout bounds the wait for the file lock another process holds; zero
	// waits forever.
	Timeout time.Duration
	// ReadOnly opens the file shared and refuses write transactions. The file
	// must exist and have been initialised by a writable Open.
	ReadOnly bool
	// MmapSize is the initial size of the file's memory map. A writer whose
	// commit outgrows the map must remap, and remapping waits for every open
	// read transaction; a map larger than the file avoids that wait. Zero means
	// DefaultMmapSize. It reserves address space, not memory.
	MmapSize int
}

// DefaultMmapSize is the memory map reserved when Options.MmapSize is zero.
const DefaultMmapSize = 1 << 30

// DB is an open database file. It is safe for concurrent use.
type DB struct {
	bolt *bolt.DB
	path string
}

// Open opens the database file at path, creating and initialising it when it
// does not exist (unless opts.ReadOnly).
func Open(path string, opts Options) (*DB, error) {
	mmapSize := opts.MmapSize
	if mmapSize == 0 {
		mmapSize = DefaultMmapSize
	}
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{
		Timeout:         opts.Timeout,
		NoSync:          opts.NoSync,
		ReadOnly:        opts.ReadOnly,
		NoFreelistSync:  false,
		InitialMmapSize: mmapSize,
	})
	if err != nil {
		return nil, mapErr(fmt.Sprintf("open %s", path), err)
	}
	db := &DB{bolt: bdb, path: path}
	if opts.ReadOnly {
		err = bdb.View(func(tx *bolt.Tx) error {
			if tx.Bucket(rootBucket) == nil {
				return fmt.Errorf("storage: open %s: not an initialised cdcdb file: %w", path, ErrCorrupt)
			}
			return nil
		})
	} else {
		err = bdb.Update(func(tx *bolt.Tx) error {
			_, err := tx.CreateBucketIfNotExists(rootBucket)
			return err
		})
	}
	if err != nil {
		_ = bdb.Close()
		return nil, err
	}
	return db, nil
}

// Close closes the file. It waits for open transactions to end; calling it
// again is harmless.
func (db *DB) Close() error {
	return mapErr("close", db.bolt.Close())
}

// Path returns the file's path as given to Open.
func (db *DB) Path() string { return db.path }

// Begin starts a transaction. A read transaction is a consistent snapshot of
// the last committed state. Only one write transaction exists at a time:
// Begin(true) blocks until the current writer commits or rolls back. Every Tx
// must end with Commit or Rollback; an open read Tx holds its snapshot's pages
// and so keeps the file from reusing them.
func (db *DB) Begin(writable bool) (*Tx, error) {
	btx, err := db.bolt.Begin(writable)
	if err != nil {
		return nil, mapErr("begin", err)
	}
	root := btx.Bucket(rootBucket)
	if root == nil {
		_ = btx.Rollback()
		return nil, fmt.Errorf("storage: root bucket missing: %w", ErrCorrupt)
	}
	return &Tx{tx: btx, root: root}, nil
}

// View runs fn in a read transaction and rolls it back afterwards.
func (db *DB) View(fn func(*Tx) error) error {
	tx, err := db.Begin(false)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(tx)
}

// Update runs fn in a write transaction and commits it if fn returns nil; an
// error or a panic from fn rolls it back, leaving nothing of it behind.
func (db *DB) Update(fn func(*Tx) error) error {
	tx, err := db.Begin(true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// Check runs bbolt's consistency check over the whole file (page reachability,
// freelist, key order) in a read transaction and returns every problem found,
// joined, or nil.
func (db *DB) Check() error {
	btx, err := db.bolt.Begin(false)
	if err != nil {
		return mapErr("check", err)
	}
	defer btx.Rollback()
	var errs []error
	for err := range btx.Check() {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return fmt.Errorf("storage: consistency check of %s: %w", db.path, errors.Join(errs...))
	}
	return nil
}
