package storage

import (
	"bytes"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// ridersEvery is how many entries a checkpoint transaction writes between
// looks at the commit queue.
const ridersEvery = 256

// A checkpoint writes one frozen layer into the file's keyspaces, keyspace
// by keyspace in key order, in transactions of at most db.chunk entries
// (defaultCheckpointChunk), and in its last transaction deletes the log
// records the layer came from. Until then those records stay, so a crash
// part-way replays the layer into memory again, where it hides whatever part
// of it had reached the keyspaces: the layer's entries are the newest values
// of their keys as of its last version, so writing them twice changes
// nothing.
//
// The first transaction records the layer's last version as the file's
// highest (stateFileHigh) and the last one the version the file is complete
// up to (stateComplete); readers use the first to tell a snapshot of the file
// that is newer than the view they hold.
type checkpointRun struct {
	l     *layer
	names []string
	// Where the next transaction starts: keyspace names[si], after key
	// after (nil: from its start); begun says whether that keyspace's
	// creation or drop has been written.
	si      int
	after   []byte
	begun   bool
	started bool
}

func newCheckpointRun(l *layer) *checkpointRun {
	var names []string
	l.spaces.each(func(name string, _ *spaceState) { names = append(names, name) })
	slices.Sort(names)
	return &checkpointRun{l: l, names: names}
}

// checkpointStep runs the next transaction of a checkpoint and reports
// whether it was the last. Commits do not wait for it: every ridersEvery
// entries it looks, and if commits are waiting it ends there and writes
// their log records in its transaction, so they are durable when it commits
// (a commit waits for at most that much work, not for a whole chunk).
// Commits given as riders are taken along the same way, after the step's
// first ridersEvery entries.
func (db *DB) checkpointStep(run *checkpointRun, riders []*pendingCommit) (finished bool, err error) {
	saved := *run
	db.checkpointSteps.Add(1)
	carried := len(riders) > 0
	err = db.bolt.Update(func(btx *bolt.Tx) error {
		root, state := btx.Bucket(rootBucket), btx.Bucket(stateBucket)
		if !run.started {
			if err := putStateVersion(state, stateFileHigh, run.l.hi); err != nil {
				return err
			}
			run.started = true
		}
		budget, applied := db.chunk, 0
		for budget > 0 && run.si < len(run.names) {
			name := run.names[run.si]
			st := run.l.spaces.get(name)
			if !run.begun {
				if st.reset {
					if root.Bucket([]byte(name)) != nil {
						if err := root.DeleteBucket([]byte(name)); err != nil {
							return err
						}
					}
					if st.exists {
						if _, err := root.CreateBucket([]byte(name)); err != nil {
							return err
						}
					}
				}
				run.begun = true
			}
			b := root.Bucket([]byte(name))
			if len(st.runs) > 0 {
				if b == nil {
					return corrupt("checkpoint: keyspace %q has changes but no bucket", name)
				}
				// Each key's newest version in the layer, tombstones
				// included.
				it := newMergedIter(st.runs)
				if run.after == nil {
					it.first()
				} else if it.seekGE(run.after); it.valid() && bytes.Equal(it.key(), run.after) {
					it.next()
				}
				if it.valid() {
					packAppends(b, it.key())
				}
				// The arena's bytes outlive the transaction, so bbolt may
				// keep referring to them until it commits.
				for ; it.valid() && budget > 0; it.next() {
					if applied%ridersEvery == 0 && (applied > 0 || !carried) && (carried || db.queueLen() > 0) {
						// Commits are waiting: take them along and end
						// here. A step that began with riders writes
						// ridersEvery entries first, so the checkpoint
						// progresses however busy the writers are.
						riders = append(riders, db.takeQueue()...)
						budget = 0
						break
					}
					applied++
					k := it.key()
					if v, live := it.value(); live {
						if err := b.Put(k, v); err != nil {
							return err
						}
					} else if err := b.Delete(k); err != nil {
						return err
					}
					run.after = k
					budget--
				}
				if it.valid() {
					break // out of budget within this keyspace
				}
			}
			if st.hasSeq && b != nil {
				if err := b.SetSequence(st.seq); err != nil {
					return err
				}
			}
			run.si++
			run.begun, run.after = false, nil
		}
		if len(riders) > 0 {
			if hook := db.hookFlush.Load(); hook != nil {
				if err := (*hook)(true); err != nil {
					return err
				}
			}
			if err := writeRecords(btx, riders); err != nil {
				return err
			}
		}
		if run.si < len(run.names) {
			return nil
		}
		finished = true
		if err := putStateVersion(state, stateComplete, run.l.hi); err != nil {
			return err
		}
		return deleteRecordsThrough(btx.Bucket(walBucket), run.l.hi)
	})
	if len(riders) > 0 {
		db.riders.Add(1)
		db.flushed(riders, err)
	}
	if err != nil {
		*run = saved
		return false, err
	}
	return finished, nil
}

// packAppends fills b's pages to the brim when every key this transaction
// writes into it (first and those after, in order) comes after all it
// holds: bbolt splits pages at half their size by default, which leaves
// keyspaces written in key order (a table's row ids, versions by end time)
// with half-empty pages - twice the pages to write, read and keep - whereas
// a page no later key will land in has no reason to keep room.
func packAppends(b *bolt.Bucket, first []byte) {
	if last, _ := b.Cursor().Last(); last == nil || bytes.Compare(first, last) > 0 {
		b.FillPercent = 1
	}
}

// deleteRecordsThrough removes the log records of versions <= hi.
func deleteRecordsThrough(wal *bolt.Bucket, hi uint64) error {
	var doomed [][]byte
	c := wal.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		v, err := versionOf(k)
		if err != nil {
			return err
		}
		if v > hi {
			break
		}
		doomed = append(doomed, append([]byte(nil), k...))
	}
	for _, k := range doomed {
		if err := wal.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
