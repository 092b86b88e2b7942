package storage

import (
	"maps"
	"sync/atomic"
)

// fileSpaces remembers which keyspaces the file holds, as of one bbolt
// transaction ID (one state of the file; see fileState). Whether its
// keyspace is in the file is the first thing every transaction asks, and
// asking bbolt means opening its root bucket and descending it to the
// keyspace's: two tree walks and two allocations, about 6% of a point
// query's CPU in a profile of the benchmark's reads. Readers share the
// answers without a lock, as an immutable snapshot behind an atomic
// pointer, like runLists.
type fileSpaces struct {
	snap atomic.Pointer[fileSpacesSnap]
}

type fileSpacesSnap struct {
	boltTx uint64
	has    map[string]bool
}

// has reports whether the file, as tx's snapshot of it sees it, holds the
// keyspace name. tx must hold a snapshot of the file (tx.btx), which is
// always a bbolt read transaction.
func (fs *fileSpaces) has(tx *Tx, name string) bool {
	id := uint64(tx.btx.ID())
	if cur := fs.snap.Load(); cur != nil && cur.boltTx == id {
		if has, ok := cur.has[name]; ok {
			return has
		}
	}
	has := fileHasSpace(tx, name)
	for {
		cur := fs.snap.Load()
		next := &fileSpacesSnap{boltTx: id}
		switch {
		case cur == nil || cur.boltTx < id:
			next.has = map[string]bool{name: has}
		case cur.boltTx == id:
			next.has = maps.Clone(cur.has)
			next.has[name] = has
		default:
			// A newer state of the file is remembered already; an older
			// reader's answer is not worth replacing it.
			return has
		}
		if fs.snap.CompareAndSwap(cur, next) {
			return has
		}
	}
}

// fileHasSpace asks the file, through tx's snapshot, whether it holds
// keyspace name.
func fileHasSpace(tx *Tx, name string) bool {
	defer boltPanicIsCorrupt("looking a keyspace up")
	root := tx.rootBucket()
	return root != nil && root.Bucket([]byte(name)) != nil
}
