package storage

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
)

// CheckReport is what a check of a whole database file found.
type CheckReport struct {
	File string
	// What the file holds: keyspaces, their runs and the runs' blocks, and
	// the commits in its log that its keyspaces do not hold yet (which
	// the next open replays).
	Keyspaces, Runs, Blocks, LogRecords int
	// OrphanBlocks counts blocks of runs no keyspace lists: what a crash
	// leaves of a checkpoint or compaction cut short, which the next
	// writable open removes. They are not damage.
	OrphanBlocks int
	// Problems is the damage found, each a *CorruptError or wrapping one
	// (none: the file is sound).
	Problems []error
	// Unreadable says the damage kept the check from reading what the
	// file holds (its pages' structure, or what an open needs): the counts
	// above are not the file's.
	Unreadable bool
}

// CheckFile checks the database file at path, which no server may have
// open: the structure of bbolt's pages (pagewalk.go) and bbolt's own
// consistency check; every keyspace's record, every run's meta (its block
// index and filter) and every block against their seals, each run's
// entries in key order and matching its meta; the state bucket's numbers;
// the log bucket's records and the log ring's, replayed in memory as a
// start would. It changes nothing in the file (it opens it read-only), so
// a file of an earlier cdcdb, which a first start converts, is refused.
//
// The error is for a file it could not check (missing, in use, of an
// earlier format); the damage it found is in the report.
func CheckFile(path string) (*CheckReport, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	report := &CheckReport{File: path}
	if err := checkFileStructure(path, false, time.Second); err != nil {
		if !errors.Is(err, ErrCorrupt) {
			return nil, mapErr("check "+path, err)
		}
		// bbolt cannot be let near it: nothing more can be read safely.
		report.Problems, report.Unreadable = append(report.Problems, inFile(err, path)), true
		return report, nil
	}
	db, err := Open(path, Options{ReadOnly: true, Timeout: time.Second, BlockCacheSize: -1})
	if errors.Is(err, ErrCorrupt) {
		report.Problems, report.Unreadable = append(report.Problems, err), true
		return report, nil
	}
	if err != nil {
		return nil, err
	}
	defer db.Close()
	report.LogRecords = db.replayed
	db.check(report)
	for i, p := range report.Problems {
		report.Problems[i] = inFile(p, path)
	}
	return report, nil
}

// Check checks the file as CheckFile does, and counts blocks of no run as
// damage too, and returns everything it found, joined, or nil. It is for
// a file no writer has open (a read-only open after Close, as tests do): a
// checkpoint or compaction under way has written blocks whose run has no
// meta yet.
func (db *DB) Check() error {
	report := &CheckReport{File: db.path}
	// (db holds the file's lock already.)
	if err := walkFile(db.path, func(*os.File) (func(), error) { return func() {}, nil }); err != nil {
		report.Problems = append(report.Problems, err)
	} else {
		db.check(report)
	}
	if report.OrphanBlocks > 0 {
		report.Problems = append(report.Problems, fmt.Errorf("%d blocks belong to no run", report.OrphanBlocks))
	}
	if len(report.Problems) > 0 {
		return fmt.Errorf("storage: consistency check of %s: %w", db.path, errors.Join(report.Problems...))
	}
	return nil
}

// check adds what it finds in the file to report; its structure has been
// checked.
func (db *DB) check(report *CheckReport) {
	btx, err := db.bolt.Begin(false)
	if err != nil {
		report.Problems = append(report.Problems, mapErr("check", err))
		return
	}
	defer btx.Rollback()
	for err := range btx.Check() {
		report.Problems = append(report.Problems, corrupt("bbolt's check: %v", err))
	}
	if len(report.Problems) > 0 {
		return // the values may not be where bbolt's pages say
	}
	report.Problems = append(report.Problems, checkValues(btx, report)...)
	if _, _, err := readRing(db.bolt); err != nil {
		report.Problems = append(report.Problems, err)
	}
}

// checkValues checks the sealed values of the file and what they say of
// each other, counting what it finds into report.
func checkValues(btx *bolt.Tx, report *CheckReport) (problems []error) {
	defer func() {
		var err error
		boltPanicAsError("checking the file", &err)
		if err != nil {
			problems = append(problems, err)
		}
	}()
	for _, name := range topBuckets {
		if btx.Bucket(name) == nil {
			return append(problems, corrupt("the file's bucket %q is missing", name))
		}
	}
	for _, key := range stateKeys {
		if _, err := stateVersion(btx, key); err != nil {
			problems = append(problems, err)
		}
	}
	if _, err := readLogBucket(btx.Bucket(walBucket), 0); err != nil {
		problems = append(problems, err)
	}
	if lost, extra, err := directoryDamage(btx); err != nil {
		problems = append(problems, err)
	} else {
		for _, e := range lost {
			problems = append(problems, e)
		}
		problems = append(problems, extra...)
	}
	root, runs, blocks := btx.Bucket(rootBucket), btx.Bucket(runsBucket), btx.Bucket(blocksBucket)
	listed := map[uint64]bool{}
	_ = root.ForEach(func(name, v []byte) error {
		if v != nil {
			return nil // (directoryDamage reports it)
		}
		report.Keyspaces++
		list, err := loadRuns(btx, string(name), nil)
		if err != nil {
			problems = append(problems, err)
			return nil
		}
		for _, r := range list {
			report.Runs++
			report.Blocks += len(r.firstKeys)
			listed[r.id] = true
			if err := checkRun(blocks, r); err != nil {
				problems = append(problems, err)
			}
		}
		return nil
	})
	_ = runs.ForEach(func(name, v []byte) error {
		if v != nil || root.Bucket(name) == nil {
			problems = append(problems, spaceCorrupt(string(name), 0, -1, "it has runs but no bucket"))
		}
		return nil
	})
	c := blocks.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) != len(blockKey{}) {
			problems = append(problems, corrupt("the blocks bucket holds a key %x that is no block's", k))
			continue
		}
		if !listed[runIDOf(k)] {
			report.OrphanBlocks++
		}
	}
	return problems
}

// runIDOf is the run ID a block key starts with.
func runIDOf(k []byte) uint64 { return blockKey(k).runID() }

// checkRun checks a run's blocks: each is there and passes its checksum,
// each of its entries passes its own, their entries are in key order across
// the run and add up to the meta's counts, each block starts with the key the meta's index says, and every
// key is in the run's filter.
func checkRun(blocks *bolt.Bucket, r *fileRun) (err error) {
	defer catchCorrupt(&err)
	var last []byte
	entries, tombstones := 0, 0
	br := blockReader{b: blocks}
	for i, first := range r.firstKeys {
		blk := br.block(r, i) // a block missing or malformed panics, and catchCorrupt returns it
		if whole := blk; !whole.checkWhole() {
			return spaceCorrupt(r.space, r.id, i, "fails its checksum")
		}
		for j := range blk.n { // (each entry checked by its own checksum too)
			k, _, live := blk.entry(j)
			if len(k) == 0 {
				return spaceCorrupt(r.space, r.id, i, "entry %d fails its checksum or is malformed", j)
			}
			if j == 0 && !bytes.Equal(k, first) {
				return spaceCorrupt(r.space, r.id, i, "starts at %x, the run's index says %x", k, first)
			}
			if last != nil && bytes.Compare(k, last) <= 0 {
				return spaceCorrupt(r.space, r.id, i, "entry %d is out of order", j)
			}
			if !r.filter.mayContain(k) {
				return spaceCorrupt(r.space, r.id, i, "entry %d is missing from the run's filter", j)
			}
			last = append(last[:0], k...)
			entries++
			if !live {
				tombstones++
			}
		}
	}
	if entries != r.entries || tombstones != r.tombstones || !bytes.Equal(last, r.lastKey) {
		return spaceCorrupt(r.space, r.id, -1, "the run has %d entries (%d tombstones) up to %x, its meta says %d (%d) up to %x", entries, tombstones, last, r.entries, r.tombstones, r.lastKey)
	}
	return nil
}
