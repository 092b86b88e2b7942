package storage

import (
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// tidyRuns removes what a crash left of runs being written: blocks of runs
// that have no meta (filerun.go), and the runs of keyspaces that are gone.
func (db *DB) tidyRuns() error {
	return db.bolt.Update(func(btx *bolt.Tx) error {
		root, runs, blocks := btx.Bucket(rootBucket), btx.Bucket(runsBucket), btx.Bucket(blocksBucket)
		var gone [][]byte
		known := map[uint64]bool{}
		err := runs.ForEachBucket(func(name []byte) error {
			if root.Bucket(name) == nil {
				gone = append(gone, append([]byte(nil), name...))
				return nil
			}
			return runs.Bucket(name).ForEach(func(k, _ []byte) error {
				if len(k) != 8 {
					return corrupt("run meta key of %d bytes", len(k))
				}
				known[binary.BigEndian.Uint64(k)] = true
				return nil
			})
		})
		if err != nil {
			return err
		}
		// A gone keyspace's runs lose their metas here, and so their
		// blocks are among the orphans below.
		for _, name := range gone {
			if _, _, err := unlistRuns(btx, name); err != nil {
				return err
			}
		}
		var orphans [][]byte
		c := blocks.Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			if len(k) != len(blockKey{}) {
				return corrupt("run block key of %d bytes", len(k))
			}
			if !known[binary.BigEndian.Uint64(k)] {
				orphans = append(orphans, append([]byte(nil), k...))
			}
		}
		for _, k := range orphans {
			if err := blocks.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// migrateBuckets rewrites the keyspaces of a file made before file runs,
// which kept their entries in their bucket's B+tree, as one run each, in
// transactions of about db.chunk bytes; the last of a keyspace's writes the
// run's meta and empties its bucket (keeping its sequence), so a crash
// part-way leaves it as it was, plus blocks that tidyRuns removes.
func (db *DB) migrateBuckets() error {
	var names [][]byte
	err := db.bolt.View(func(btx *bolt.Tx) (err error) {
		names, err = bucketKeyspaces(btx)
		return err
	})
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := db.migrateBucket(name); err != nil {
			return fmt.Errorf("rewriting keyspace %q as a run: %w", name, err)
		}
	}
	return nil
}

// bucketKeyspaces lists the keyspaces that keep entries in their bucket's
// B+tree, as files made before file runs did.
func bucketKeyspaces(btx *bolt.Tx) ([][]byte, error) {
	root := btx.Bucket(rootBucket)
	if root == nil {
		return nil, nil
	}
	var names [][]byte
	err := root.ForEachBucket(func(name []byte) error {
		if k, _ := root.Bucket(name).Cursor().First(); k != nil {
			names = append(names, append([]byte(nil), name...))
		}
		return nil
	})
	return names, err
}

// checkReadable refuses a read-only open of a file made before file runs
// that a writable open has not rewritten yet: readers look for entries in
// runs only, and would find its keyspaces empty.
func (db *DB) checkReadable() error {
	return db.bolt.View(func(btx *bolt.Tx) error {
		if btx.Bucket(rootBucket) == nil {
			return nil // not a cdcdb file at all: recover says so
		}
		names, err := bucketKeyspaces(btx)
		if err != nil {
			return err
		}
		if len(names) > 0 || btx.Bucket(runsBucket) == nil || btx.Bucket(blocksBucket) == nil {
			return fmt.Errorf("storage: %s is in the format of an older cdcdb: open it writable once, which rewrites it, before reading it read-only", db.path)
		}
		return nil
	})
}

func (db *DB) migrateBucket(name []byte) error {
	var w *runBuilder
	var after []byte
	for {
		done := false
		err := db.bolt.Update(func(btx *bolt.Tx) error {
			root, runs, blocks := btx.Bucket(rootBucket), btx.Bucket(runsBucket), btx.Bucket(blocksBucket)
			b := root.Bucket(name)
			rb, err := runs.CreateBucketIfNotExists(name)
			if err != nil {
				return err
			}
			if w == nil {
				id, err := runs.NextSequence()
				if err != nil {
					return err
				}
				w = newRunBuilder(id, id, b.Stats().KeyN, db.blockSize, true)
			}
			c := b.Cursor()
			k, v := c.First()
			if after != nil {
				if k, v = c.Seek(after); k != nil && string(k) == string(after) {
					k, v = c.Next()
				}
			}
			budget := db.chunk
			for ; k != nil && budget > 0; k, v = c.Next() {
				if v == nil {
					return corrupt("keyspace %q holds a nested bucket %q", name, k)
				}
				after = append(after[:0], k...)
				n, err := w.put(blocks, k, v, true)
				if err != nil {
					return err
				}
				budget -= n
			}
			if k != nil {
				return nil
			}
			done = true
			// (Only keyspaces with entries are rewritten: the run is
			// never empty.)
			if _, err := w.store(blocks, rb); err != nil {
				return err
			}
			seq := b.Sequence()
			if err := root.DeleteBucket(name); err != nil {
				return err
			}
			nb, err := root.CreateBucket(name)
			if err != nil {
				return err
			}
			if err := nb.SetSequence(seq); err != nil {
				return err
			}
			return bumpRunsGen(btx.Bucket(stateBucket))
		})
		if err != nil || done {
			return err
		}
	}
}
