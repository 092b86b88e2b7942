package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// fileState is what a read of the file needs of its state bucket, as of one
// bbolt transaction: the highest version any change in the keyspaces comes
// from (stateFileHigh) and the runs generation (stateRunsGen). Every
// transaction needs both, and they change only when bbolt commits, so they
// are kept per bbolt transaction ID (bbolt never reuses one).
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
// run when its keyspace's list is made again.
type runLists struct {
	mu         sync.Mutex
	gen        uint64
	lists      map[string][]*fileRun
	prevLists  map[string][]*fileRun
	prevGenSet bool
}

// fileRuns returns keyspace name's runs in btx's snapshot, newest first,
// and the bucket their blocks are in (nil when it has none).
func (db *DB) fileRuns(btx *bolt.Tx, name string) ([]*fileRun, *bolt.Bucket, error) {
	all := btx.Bucket(runsBucket)
	if all == nil {
		return nil, nil, nil
	}
	rb := all.Bucket([]byte(name))
	if rb == nil {
		return nil, nil, nil
	}
	gen := db.fileState(btx).runsGen
	c := &db.runLists
	c.mu.Lock()
	var prev []*fileRun
	if gen == c.gen && c.lists != nil {
		if l, ok := c.lists[name]; ok {
			c.mu.Unlock()
			return l, rb, nil
		}
		prev = c.prevLists[name]
	} else {
		prev = c.lists[name]
	}
	c.mu.Unlock()
	runs, err := loadRuns(rb, prev)
	if err != nil {
		return nil, nil, err
	}
	c.mu.Lock()
	switch {
	case gen > c.gen || c.lists == nil:
		c.gen, c.prevLists, c.lists = gen, c.lists, map[string][]*fileRun{name: runs}
	case gen == c.gen:
		c.lists[name] = runs
	}
	c.mu.Unlock()
	return runs, rb, nil
}

// loadRuns reads a keyspace's run metas, newest first, taking those of
// known (an earlier list) as they are.
func loadRuns(rb *bolt.Bucket, known []*fileRun) ([]*fileRun, error) {
	var runs []*fileRun
	c := rb.Cursor()
	for k, v := c.Seek([]byte{runMetaPrefix}); k != nil && k[0] == runMetaPrefix; k, v = c.Next() {
		if len(k) != 9 {
			return nil, corrupt("run meta key of %d bytes", len(k))
		}
		id := binary.BigEndian.Uint64(k[1:])
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

// runBlocks returns the keys of a run's blocks in rb.
func runBlocks(rb *bolt.Bucket, id uint64) [][]byte {
	prefix := runMetaKey(id) // 'm' id: the same shape as a block key's start
	prefix[0] = runBlockPrefix
	var keys [][]byte
	c := rb.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	return keys
}

// deleteRun removes a run's blocks and meta.
func deleteRun(rb *bolt.Bucket, id uint64) error {
	for _, k := range runBlocks(rb, id) {
		if err := rb.Delete(k); err != nil {
			return err
		}
	}
	return rb.Delete(runMetaKey(id))
}

// checkRuns checks every keyspace's file runs: each meta decodes, its blocks
// are all there and parse, their entries are in key order across the run
// and add up to the meta's counts, each block starts with the key the
// meta's index says, and no block belongs to a run without a meta (a
// closed file has none; a crash may leave some, which Open removes).
func checkRuns(btx *bolt.Tx) []error {
	runs := btx.Bucket(runsBucket)
	if runs == nil {
		return nil
	}
	var errs []error
	_ = runs.ForEachBucket(func(name []byte) error {
		if btx.Bucket(rootBucket).Bucket(name) == nil {
			errs = append(errs, fmt.Errorf("runs of keyspace %q, which does not exist", name))
		}
		rb := runs.Bucket(name)
		list, err := loadRuns(rb, nil)
		if err != nil {
			errs = append(errs, fmt.Errorf("keyspace %q: %w", name, err))
			return nil
		}
		blocks := 0
		for _, r := range list {
			blocks += len(r.firstKeys)
			if err := checkRun(rb, r); err != nil {
				errs = append(errs, fmt.Errorf("keyspace %q, run %d: %w", name, r.id, err))
			}
		}
		stored := 0
		c := rb.Cursor()
		for k, _ := c.Seek([]byte{runBlockPrefix}); k != nil && k[0] == runBlockPrefix; k, _ = c.Next() {
			stored++
		}
		if stored != blocks {
			errs = append(errs, fmt.Errorf("keyspace %q has %d run blocks, its runs' metas %d", name, stored, blocks))
		}
		return nil
	})
	return errs
}

func checkRun(rb *bolt.Bucket, r *fileRun) (err error) {
	defer catchCorrupt(&err)
	var last []byte
	entries, tombstones := 0, 0
	for i, first := range r.firstKeys {
		blk, err := r.readBlock(rb, i)
		if err != nil {
			return err
		}
		for j := range blk.n {
			k, _, live := blk.entry(j)
			if len(k) == 0 {
				return fmt.Errorf("block %d entry %d is malformed", i, j)
			}
			if j == 0 && !bytes.Equal(k, first) {
				return fmt.Errorf("block %d starts at %x, its index says %x", i, k, first)
			}
			if last != nil && bytes.Compare(k, last) <= 0 {
				return fmt.Errorf("block %d entry %d is out of order", i, j)
			}
			if !r.filter.mayContain(k) {
				return fmt.Errorf("block %d entry %d is missing from the filter", i, j)
			}
			last = append(last[:0], k...)
			entries++
			if !live {
				tombstones++
			}
		}
	}
	if entries != r.entries || tombstones != r.tombstones || !bytes.Equal(last, r.lastKey) {
		return fmt.Errorf("has %d entries (%d tombstones) up to %x, its meta says %d (%d) up to %x", entries, tombstones, last, r.entries, r.tombstones, r.lastKey)
	}
	return nil
}
