package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
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

func (db *DB) fileState(btx *bolt.Tx) fileState {
	id := uint64(btx.ID())
	if c := db.fileStateAt.Load(); c != nil && c.boltTx == id {
		return *c
	}
	fs := fileState{boltTx: id, high: stateVersion(btx, stateFileHigh), runsGen: stateVersion(btx, stateRunsGen)}
	db.fileStateAt.Store(&fs)
	return fs
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
func (db *DB) fileRuns(btx *bolt.Tx, name string) ([]*fileRun, error) {
	gen := db.fileState(btx).runsGen
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
	var runs []*fileRun
	if all := btx.Bucket(runsBucket); all != nil {
		if rb := all.Bucket([]byte(name)); rb != nil {
			var err error
			if runs, err = loadRuns(rb, known); err != nil {
				return nil, err
			}
		}
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

// loadRuns reads a keyspace's run metas, newest first, taking those of
// known (an earlier list) as they are.
func loadRuns(rb *bolt.Bucket, known []*fileRun) ([]*fileRun, error) {
	var runs []*fileRun
	c := rb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) != 8 {
			return nil, corrupt("run meta key of %d bytes", len(k))
		}
		id := binary.BigEndian.Uint64(k)
		if i := slices.IndexFunc(known, func(r *fileRun) bool { return r.id == id }); i >= 0 {
			runs = append(runs, known[i])
			continue
		}
		m, err := decodeRunMeta(v)
		if err != nil {
			return nil, err
		}
		runs = append(runs, &fileRun{id: id, runMeta: m})
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
func unlistRuns(btx *bolt.Tx, name []byte) (ids []uint64, size int64, err error) {
	runs := btx.Bucket(runsBucket)
	rb := runs.Bucket(name)
	if rb == nil {
		return nil, 0, nil
	}
	err = rb.ForEach(func(k, v []byte) error {
		if len(k) != 8 {
			return corrupt("run meta key of %d bytes", len(k))
		}
		ids = append(ids, binary.BigEndian.Uint64(k))
		// A meta that does not decode counts for nothing: dropping a
		// table must not fail on what it drops.
		if m, err := decodeRunMeta(v); err == nil {
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

// checkRuns checks every keyspace's file runs: each meta decodes, its blocks
// are all there and parse, their entries are in key order across the run
// and add up to the meta's counts, each block starts with the key the
// meta's index says, and no block belongs to a run without a meta (a
// closed file has none; a crash may leave some, which Open removes).
func checkRuns(btx *bolt.Tx) []error {
	runs, blocks := btx.Bucket(runsBucket), btx.Bucket(blocksBucket)
	if runs == nil || blocks == nil {
		return nil
	}
	var errs []error
	nblocks := 0
	_ = runs.ForEachBucket(func(name []byte) error {
		if btx.Bucket(rootBucket).Bucket(name) == nil {
			errs = append(errs, fmt.Errorf("runs of keyspace %q, which does not exist", name))
		}
		list, err := loadRuns(runs.Bucket(name), nil)
		if err != nil {
			errs = append(errs, fmt.Errorf("keyspace %q: %w", name, err))
			return nil
		}
		for _, r := range list {
			nblocks += len(r.firstKeys)
			if err := checkRun(blocks, r); err != nil {
				errs = append(errs, fmt.Errorf("keyspace %q, run %d: %w", name, r.id, err))
			}
		}
		return nil
	})
	if stored := blocks.Stats().KeyN; stored != nblocks {
		errs = append(errs, fmt.Errorf("the file has %d run blocks, its runs' metas %d", stored, nblocks))
	}
	return errs
}

func checkRun(blocks *bolt.Bucket, r *fileRun) (err error) {
	defer catchCorrupt(&err)
	var last []byte
	entries, tombstones := 0, 0
	br := blockReader{b: blocks}
	for i, first := range r.firstKeys {
		blk := br.block(r, i) // a missing block panics with ErrCorrupt, which catchCorrupt returns
		for j := range blk.n {
			k, _, live := blk.entry(j)
			if len(k) == 0 {
				return corrupt("block %d entry %d is malformed", i, j)
			}
			if j == 0 && !bytes.Equal(k, first) {
				return corrupt("block %d starts at %x, its index says %x", i, k, first)
			}
			if last != nil && bytes.Compare(k, last) <= 0 {
				return corrupt("block %d entry %d is out of order", i, j)
			}
			if !r.filter.mayContain(k) {
				return corrupt("block %d entry %d is missing from the filter", i, j)
			}
			last = append(last[:0], k...)
			entries++
			if !live {
				tombstones++
			}
		}
	}
	if entries != r.entries || tombstones != r.tombstones || !bytes.Equal(last, r.lastKey) {
		return corrupt("has %d entries (%d tombstones) up to %x, its meta says %d (%d) up to %x", entries, tombstones, last, r.entries, r.tombstones, r.lastKey)
	}
	return nil
}
