package storage

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Tx is a transaction: a view of the memtable layers over a read snapshot of
// the file, plus, for the writer, its own changes. It is not safe for
// concurrent use.
type Tx struct {
	db       *DB
	writable bool
	// detached: a write transaction that does not hold the writer slot
	// yet (detached.go).
	detached bool
	// sharedFile: btx is another transaction's snapshot of the file,
	// which that one ends (BeginDetachedOn).
	sharedFile bool
	// parked: a detached transaction let go of its snapshot of the file
	// between statements; its next read refreshes it (Park).
	parked bool
	// drawn is, per keyspace the transaction drew numbers from, the
	// highest number drawn before its first draw and its last draw
	// (detached.go).
	drawn  map[string][2]uint64
	closed bool
	view   *view
	btx    *bolt.Tx
	// root is the file's bucket of keyspaces, once something needed it
	// (rootBucket).
	root *bolt.Bucket
	// blockBucket is the file's bucket of run blocks, once a read needed it.
	blockBucket *bolt.Bucket
	// The writer's changes: in memory (ws) and as its log record (rec).
	ws  *writeSet
	rec walRecord
	// gen changes whenever a keyspace's sources change (the writer's first
	// change to it, its creation or drop), so Spaces and Cursors resolve
	// them again.
	gen uint64
	// The keyspaces resolved so far: the first by itself, as most read
	// transactions use only one and then need no map, the others in spaces.
	firstSpace *Space
	spaces     map[string]*Space
	// onPublish runs when the commit has made the changes the head;
	// onRollback when the transaction ends without doing so.
	onPublish, onRollback []func()
	// onRollbackTo runs after each RollbackTo (savepoint.go).
	onRollbackTo []func()
	// A fork's parent, and the keyspaces the parent had written when it
	// forked, which the fork may not read; forks counts a parent's live
	// forks (fork.go).
	parent *Tx
	hidden map[string]struct{}
	forks  int
	// ahead is the commit PutAhead made for the writer; covered that
	// CommitCovered is committing it (ahead.go).
	ahead      *pendingCommit
	aheadSpace string
	aheadKey   []byte
	covered    bool
}

func newTx(db *DB, v *view, btx *bolt.Tx, writable bool) *Tx {
	return &Tx{db: db, writable: writable, view: v, btx: btx}
}

// rootBucket returns the file's bucket of keyspaces (nil once the
// transaction let go of its snapshot of the file). It is opened on first
// use: a point query learns whether its keyspace is in the file from
// fileSpaces and never needs it.
func (tx *Tx) rootBucket() *bolt.Bucket {
	if tx.root == nil && tx.btx != nil {
		tx.root = tx.btx.Bucket(rootBucket)
	}
	return tx.root
}

// blocks returns the file's bucket of run blocks.
func (tx *Tx) blocks() *bolt.Bucket {
	if tx.blockBucket == nil && tx.btx != nil {
		tx.blockBucket = tx.btx.Bucket(blocksBucket)
	}
	return tx.blockBucket
}

// blockReader returns what reads of runs' blocks go through: a read
// transaction reads through the block cache, a write transaction around it
// (blockCache says why).
func (tx *Tx) blockReader() blockReader {
	br := blockReader{tx: tx}
	if !tx.writable {
		br.cache = tx.db.blockCache
	}
	return br
}

// Writable reports whether tx is a write transaction.
func (tx *Tx) Writable() bool { return tx.writable }

// Version identifies the committed state a read transaction sees: read
// transactions with the same Version see the same contents, so something
// derived from those contents may be cached under it. (A write transaction's
// Version is that of the state it builds on, which a failed flush may throw
// away; but then the database takes no more commits, so no later state
// reuses the number.)
func (tx *Tx) Version() uint64 { return tx.view.version }

// OnPublish registers fn to run when the write transaction's commit makes its
// changes the state the next writer starts from, before that writer can
// start (and before the commit is durable: a failed flush may still throw it
// away, failing the database, which then starts no writer again). fn does
// not run if the transaction rolls back or has no changes.
func (tx *Tx) OnPublish(fn func()) { tx.onPublish = append(tx.onPublish, fn) }

// OnRollback registers fn to run when the write transaction ends without its
// changes becoming the head: a Rollback, or a Commit that fails before it
// publishes them (or has nothing to publish). Like OnPublish it runs while
// the transaction still holds the writer slot.
func (tx *Tx) OnRollback(fn func()) { tx.onRollback = append(tx.onRollback, fn) }

// rolledBack runs the OnRollback functions.
func (tx *Tx) rolledBack() {
	for _, fn := range tx.onRollback {
		fn()
	}
}

// Commit makes a write transaction's changes durable and visible, or ends a
// read transaction. It returns once the changes are on disk; the next write
// transaction may start as soon as they are queued, and a batch of commits
// queued together shares one flush. On error nothing of the transaction is
// kept.
func (tx *Tx) Commit() error {
	if tx.closed {
		return ErrTxClosed
	}
	if tx.parent != nil {
		return ErrForkChange
	}
	if tx.forks > 0 {
		return fmt.Errorf("storage: commit with %d forks not joined: %w", tx.forks, ErrForkChange)
	}
	if tx.detached && tx.rec.empty() {
		return tx.Rollback() // nothing to publish: no need of the slot
	}
	if tx.detached {
		if err := tx.Attach(context.Background()); err != nil {
			_ = tx.Rollback()
			return err
		}
	}
	tx.closed = true
	tx.releaseFile()
	defer tx.release()
	if !tx.writable {
		return nil
	}
	if tx.rec.empty() {
		tx.db.releaseWriter()
		tx.rolledBack()
		if tx.covered {
			return tx.db.awaitDurable(tx.ahead)
		}
		return nil
	}
	return tx.db.commit(tx)
}

// Rollback discards everything the transaction did. After Commit or a previous
// Rollback it does nothing and returns nil, so `defer tx.Rollback()` is safe.
// A writer that put ahead (PutAhead) deletes that put in a commit of its
// own, and returns once it is durable, with its error.
func (tx *Tx) Rollback() error {
	if tx.closed {
		return nil
	}
	tx.closed = true
	if tx.parent != nil {
		// A fork shares its parent's snapshot of the file, and holds no
		// writer slot: only its own changes go.
		tx.parent.forks--
		tx.rolledBack()
		tx.release()
		return nil
	}
	tx.releaseFile()
	tx.db.undrawSequences(tx)
	if tx.detached {
		tx.rolledBack()
		tx.release()
	} else if tx.writable {
		defer tx.db.releaseWriter()
		defer tx.release()
		tx.rolledBack()
		if tx.ahead != nil {
			return tx.forgetAhead()
		}
	} else {
		tx.release()
	}
	return nil
}

// release drops what an ended transaction refers to (its changes, its log
// record, its view's memtable layers), so that a Tx kept after its end, as
// a cache of the layers above may keep one, holds no memory.
func (tx *Tx) release() {
	tx.notePointReads()
	tx.view = &emptyView
	tx.ws, tx.rec, tx.firstSpace, tx.spaces, tx.onPublish, tx.onRollback, tx.onRollbackTo = nil, walRecord{}, nil, nil, nil, nil, nil
	tx.ahead, tx.aheadKey = nil, nil // its view holds memtable layers
}

// releaseFile ends the transaction's snapshot of the file: a commit must
// not hold one while it waits, since a checkpoint that grows the file's map
// waits for every snapshot to end.
func (tx *Tx) releaseFile() {
	if tx.btx != nil {
		if !tx.sharedFile {
			_ = tx.btx.Rollback()
		}
		tx.btx, tx.root, tx.blockBucket, tx.sharedFile = nil, nil, nil, false
	}
}

// CreateSpace creates an empty keyspace. It fails with ErrSpaceExists if the
// name is taken, and with ErrTxNotWritable in a read transaction.
func (tx *Tx) CreateSpace(name string) (*Space, error) {
	if err := tx.checkChange(); err != nil {
		return nil, err
	}
	if name == "" {
		return nil, fmt.Errorf("storage: create keyspace: empty name: %w", ErrKeyRequired)
	}
	if tx.Space(name) != nil {
		return nil, fmt.Errorf("storage: create keyspace %q: %w", name, ErrSpaceExists)
	}
	tx.ws.create(name)
	tx.rec.create(name)
	tx.gen++
	return tx.Space(name), nil
}

// Space returns the named keyspace, or nil if there is none.
func (tx *Tx) Space(name string) *Space {
	if tx.closed || name == "" {
		return nil
	}
	if tx.parked {
		tx.unpark()
	}
	s := tx.resolvedSpace(name)
	if s == nil {
		s = &Space{tx: tx, name: name}
		s.resolve()
		switch {
		case tx.firstSpace == nil:
			tx.firstSpace = s
		case tx.spaces == nil:
			tx.spaces = map[string]*Space{name: s}
		default:
			tx.spaces[name] = s
		}
	} else {
		s.refresh()
	}
	if !s.exists {
		return nil
	}
	return s
}

// resolvedSpace returns the Space already made for name, or nil.
func (tx *Tx) resolvedSpace(name string) *Space {
	if s := tx.firstSpace; s != nil && s.name == name {
		return s
	}
	return tx.spaces[name]
}

// DropSpace deletes a keyspace and everything in it. It fails with
// ErrSpaceNotFound if there is none.
func (tx *Tx) DropSpace(name string) error {
	if err := tx.checkChange(); err != nil {
		return err
	}
	if name == "" || tx.Space(name) == nil {
		return fmt.Errorf("storage: drop keyspace %q: %w", name, ErrSpaceNotFound)
	}
	tx.ws.drop(name)
	tx.rec.drop(name)
	tx.gen++
	return nil
}

// Spaces returns the names of the keyspaces that start with prefix, sorted
// bytewise (for a fork, those it may read).
func (tx *Tx) Spaces(prefix string) []string {
	if tx.closed {
		return nil
	}
	if tx.parked {
		tx.unpark()
	}
	seen := map[string]bool{}
	tx.fileSpaceNames(prefix, seen)
	note := func(name string, _ *spaceState) {
		if len(name) >= len(prefix) && name[:len(prefix)] == prefix {
			seen[name] = true
		}
	}
	for _, l := range tx.view.layers {
		l.spaces.each(note)
	}
	if tx.ws != nil {
		for name := range tx.ws.touched {
			note(name, nil)
		}
	}
	names := make([]string, 0, len(seen))
	for name := range seen {
		if _, hidden := tx.hidden[name]; hidden {
			continue // a fork may not read it (fork.go)
		}
		if tx.Space(name) != nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// fileSpaceNames adds to seen the names of the keyspaces the file's
// snapshot holds that start with prefix.
func (tx *Tx) fileSpaceNames(prefix string, seen map[string]bool) {
	defer boltPanicIsCorrupt("listing keyspaces")
	root := tx.rootBucket()
	if root == nil {
		return
	}
	p := []byte(prefix)
	c := root.Cursor()
	for k, _ := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, _ = c.Next() {
		seen[string(k)] = true
	}
	// A keyspace whose bucket is lost is listed, and reading it reports
	// the damage.
	for name := range tx.db.lostSpaces {
		if strings.HasPrefix(name, prefix) {
			seen[name] = true
		}
	}
}

func (tx *Tx) checkWrite() error {
	if tx.closed {
		return ErrTxClosed
	}
	if !tx.writable {
		return ErrTxNotWritable
	}
	return nil
}

// checkChange is checkWrite for a change other than a put or a delete,
// which a fork does not make.
func (tx *Tx) checkChange() error {
	if err := tx.checkWrite(); err != nil {
		return err
	}
	if tx.parent != nil {
		return ErrForkChange
	}
	return nil
}

// touch makes the writer's own state of a keyspace, for a change.
func (tx *Tx) touch(name string) {
	if _, ok := tx.ws.touched[name]; !ok {
		tx.ws.state(name)
		tx.gen++
	}
}
