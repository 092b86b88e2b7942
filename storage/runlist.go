package storage

import (
	"bytes"
	"encoding/binary"
	"maps"
	"slices"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
)

// fileState is what a read of the file needs of its state bucket, as of one
// bbolt transaction: the highest version any change in the keyspaces comes
// from (stateFileHigh) and the runs generation (stateRunsGen). Every
// transaction needs both, and they change only when bbolt commits, so they
// are kept per bbolt transaction ID. Only read transactions ask: a read
// transaction's ID is that of the last write transaction committed, so one
// ID is one state of the file (a write transaction rolled back leaves its
// ID to the next, but no reader ever sees it).
type fileState struct{ boltTx, high, runsGen uint64 }

func (db *DB) fileState(btx *bolt.Tx) (fs fileState, err error) {
	defer boltPanicAsError("reading the file's state", &err)
	id := uint64(btx.ID())
	if c := db.fileStateAt.Load(); c != nil && c.boltTx == id {
		return *c, nil
	}
	read := &fileState{boltTx: id}
	if read.high, err = stateVersion(btx, stateFileHigh); err != nil {
		return fileState{}, err
	}
	if read.runsGen, err = stateVersion(btx, stateRunsGen); err != nil {
		return fileState{}, err
	}
	db.fileStateAt.Store(read)
	return *read, nil
}

// runLists keeps each keyspace's list of file runs, newest first, for the
// newest runs generation a reader has asked for, so that a transaction
// finds them without decoding the runs' metas (their block indexes and
// filters) again. A list made in the generation before is reused run by
// run when its keyspace's list is made again. Every read transaction asks
// for its keyspaces' lists, from any number of sessions at once, so the
// lists are an immutable snapshot behind an atomic pointer: a reader takes
// no lock, and one that had to make a list publishes a copy with it.
type runLists struct {
	snap atomic.Pointer[runListSnap]
}

type runListSnap struct {
	gen         uint64
	lists, prev map[string][]*fileRun
}

// fileRuns returns keyspace name's runs in btx's snapshot, newest first.
func (db *DB) fileRuns(btx *bolt.Tx, name string) (_ []*fileRun, err error) {
	defer boltPanicAsError("reading a keyspace's runs", &err)
	state, err := db.fileState(btx)
	if err != nil {
		return nil, err
	}
	gen := state.runsGen
	cur := db.runLists.snap.Load()
	var known []*fileRun
	if cur != nil {
		if gen == cur.gen {
			if l, ok := cur.lists[name]; ok {
				return l, nil
			}
			known = cur.prev[name]
		} else {
			known = cur.lists[name]
		}
	}
	runs, err := loadRuns(btx, name, known)
	if err != nil {
		return nil, err
	}
	for {
		cur := db.runLists.snap.Load()
		next := &runListSnap{gen: gen}
		switch {
		case cur == nil || gen > cur.gen:
			next.lists = map[string][]*fileRun{name: runs}
			if cur != nil {
				next.prev = cur.lists
			}
		case gen == cur.gen:
			next.lists = make(map[string][]*fileRun, len(cur.lists)+1)
			maps.Copy(next.lists, cur.lists)
			next.lists[name] = runs
			next.prev = cur.prev
		default:
			return runs, nil // an older snapshot's: not kept
		}
		if db.runLists.snap.CompareAndSwap(cur, next) {
			return runs, nil
		}
	}
}

// loadRuns reads keyspace name's run metas, newest first, taking those of
// known (an earlier list) as they are, after checking that they are the
// runs the keyspace's record lists.
func loadRuns(btx *bolt.Tx, name string, known []*fileRun) ([]*fileRun, error) {
	b := btx.Bucket(rootBucket).Bucket([]byte(name))
	if b == nil {
		return nil, spaceCorrupt(name, 0, -1, "its bucket is missing")
	}
	rb := btx.Bucket(runsBucket).Bucket([]byte(name))
	rec, err := listedRuns(b, rb, name)
	if err != nil {
		return nil, err
	}
	var runs []*fileRun
	for _, id := range rec.runs {
		if i := slices.IndexFunc(known, func(r *fileRun) bool { return r.id == id }); i >= 0 {
			runs = append(runs, known[i])
			continue
		}
		m, err := decodeRunMeta(name, id, rb.Get(runMetaKey(id)))
		if err != nil {
			return nil, err
		}
		runs = append(runs, &fileRun{space: name, id: id, runMeta: m})
	}
	slices.SortFunc(runs, func(a, b *fileRun) int {
		switch {
		case a.order > b.order:
			return -1
		case a.order < b.order:
			return 1
		}
		return 0
	})
	return runs, nil
}

// unlistRuns removes a keyspace's bucket of run metas and returns the IDs
// of the runs it listed, whose blocks are left for deleteSomeBlocks, and
// what those blocks take as their metas say: no reader finds a run
// without its meta, and a crash before they are deleted leaves blocks with
// no meta, which the next Open removes (tidyRuns).
//
// Why not delete the blocks at once: each delete, and the
// commit freeing its page, reads that page through bbolt's map, and the
// kernel maps the pages around it too, so one transaction dropping a large
// table mapped as much of the file as the table held, past the budget the
// flusher keeps between its transactions: 309 MiB against 192 when the
// benchmark dropped its BITEMPORAL warm-up's tables.
//
// It leaves the keyspace's record to the caller, who deletes the
// keyspace's bucket with it or makes it anew.
func unlistRuns(btx *bolt.Tx, name []byte) (ids []uint64, size int64, err error) {
	runs := btx.Bucket(runsBucket)
	rb := runs.Bucket(name)
	if rb == nil {
		return nil, 0, nil
	}
	err = rb.ForEach(func(k, v []byte) error {
		if len(k) != 8 {
			return spaceCorrupt(string(name), 0, -1, "its runs bucket holds a key %x that is no run's", k)
		}
		id := binary.BigEndian.Uint64(k)
		ids = append(ids, id)
		// A meta that does not decode counts for nothing: dropping a
		// table must not fail on what it drops.
		if m, err := decodeRunMeta(string(name), id, v); err == nil {
			size += m.bytes
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return ids, size, runs.DeleteBucket(name)
}

// deleteSomeBlocks deletes the blocks of the runs in ids, in order, until
// it has deleted budget bytes of them, and returns the IDs whose blocks
// are not all deleted yet and the bytes of the blocks it deleted.
func deleteSomeBlocks(blocks *bolt.Bucket, ids []uint64, budget int) (left []uint64, deleted int64, err error) {
	for len(ids) > 0 {
		prefix := runMetaKey(ids[0]) // a block key starts with its run's ID
		var keys [][]byte
		c := blocks.Cursor()
		k, v := c.Seek(prefix)
		for ; k != nil && bytes.HasPrefix(k, prefix) && budget > 0; k, v = c.Next() {
			keys = append(keys, bytes.Clone(k))
			budget -= len(k) + len(v)
			deleted += int64(len(v))
		}
		more := k != nil && bytes.HasPrefix(k, prefix)
		for _, k := range keys {
			if err := blocks.Delete(k); err != nil {
				return ids, 0, err
			}
		}
		if more {
			return ids, deleted, nil
		}
		ids = ids[1:]
	}
	return nil, deleted, nil
}
