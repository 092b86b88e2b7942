package storage

import (
	"slices"

	bolt "go.etcd.io/bbolt"
)

// A checkpoint writes one frozen layer into the file: for each keyspace the
// layer has entries of, one file run (filerun.go) of the layer's newest
// entry per key, in transactions that each write about db.chunk bytes of
// blocks, the keyspace creations and drops and sequence counters the layer
// holds, and in its last transaction deletes the log records the layer came
// from. Until then those records stay, so a crash part-way replays the
// layer into memory again and its checkpoint runs again: the runs it had
// finished are written a second time, newer copies of the same entries, and
// a run it had not finished left only blocks without a meta, which Open
// removes.
//
// The first transaction records the layer's last version as the file's
// highest (stateFileHigh) and the last one the version the file is complete
// up to (stateComplete); readers use the first to tell a snapshot of the file
// that is newer than the view they hold.
type checkpointRun struct {
	l     *layer
	names []string
	// Where the next transaction starts: keyspace names[si]; begun says
	// whether its creation or drop has been written, w and it are its run
	// under way (nil: not started).
	si      int
	begun   bool
	w       *runBuilder
	it      *mergedIter
	started bool
}

func newCheckpointRun(l *layer) *checkpointRun {
	var names []string
	l.spaces.each(func(name string, _ *spaceState) { names = append(names, name) })
	slices.Sort(names)
	return &checkpointRun{l: l, names: names}
}

// checkpointStep runs the next transaction of a checkpoint and reports
// whether it was the last. On an error the caller fails the database, so
// the run is not resumed.
func (db *DB) checkpointStep(run *checkpointRun) (finished bool, err error) {
	defer boltPanicAsError("writing a checkpoint", &err)
	db.checkpointSteps.Add(1)
	var unlisted garbage // the runs of keyspaces reset, whose blocks go later
	err = db.bolt.Update(func(btx *bolt.Tx) error {
		root, state := btx.Bucket(rootBucket), btx.Bucket(stateBucket)
		runs, blocks := btx.Bucket(runsBucket), btx.Bucket(blocksBucket)
		if !run.started {
			if err := putStateVersion(state, stateFileHigh, run.l.hi); err != nil {
				return err
			}
			run.started = true
		}
		budget := db.chunk
		changedRuns := false
		var created, dropped []string // keyspaces' buckets
		for budget > 0 && run.si < len(run.names) {
			name := run.names[run.si]
			st := run.l.spaces.get(name)
			if !run.begun {
				if st.reset {
					db.pointReads.forget(name)
					if root.Bucket([]byte(name)) != nil {
						if err := root.DeleteBucket([]byte(name)); err != nil {
							return err
						}
						dropped = append(dropped, name)
					}
					if runs.Bucket([]byte(name)) != nil {
						ids, size, err := unlistRuns(btx, []byte(name))
						if err != nil {
							return err
						}
						unlisted.add(garbage{runs: ids, bytes: size})
						changedRuns = true
					}
					if st.exists {
						if _, err := createSpaceBucket(root, name); err != nil {
							return err
						}
						created = append(created, name)
					}
				}
				run.begun = true
			}
			b := root.Bucket([]byte(name))
			if len(st.runs) > 0 {
				if b == nil {
					return spaceCorrupt(name, 0, -1, "it has changes to checkpoint but no bucket")
				}
				if run.w == nil {
					id, err := newRunID(btx)
					if err != nil {
						return err
					}
					expected := 0
					for _, r := range st.runs {
						expected += r.len()
					}
					run.w = newRunBuilder(name, id, id, expected, db.blockSize, db.pointReads.wantFilter(name, expected))
					run.it = newMergedIter(st.runs)
					run.it.first()
				}
				// A keyspace created within the layer has nothing under
				// it in the file for a tombstone to hide.
				keepTombstones := !st.reset
				for budget > 0 && run.it.valid() {
					// The run's bytes stay put, so the entry outlives next.
					k := run.it.key()
					v, live := run.it.value()
					run.it.next()
					if !live && !keepTombstones {
						continue
					}
					n, err := run.w.put(blocks, k, v, live)
					if err != nil {
						return err
					}
					budget -= n
				}
				if run.it.valid() {
					break // out of budget within this keyspace
				}
				stored, err := run.w.store(btx)
				if err != nil {
					return err
				}
				if stored {
					changedRuns = true
					db.compactions.note(name)
				}
				run.w, run.it = nil, nil
			}
			if st.hasSeq && b != nil {
				if err := setSpaceSequence(btx, name, st.seq); err != nil {
					return err
				}
			}
			run.si++
			run.begun = false
		}
		if changedRuns {
			if err := bumpRunsGen(btx); err != nil {
				return err
			}
		}
		if err := updateSpaceDirectory(btx, created, dropped); err != nil {
			return err
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
	if err != nil {
		return false, err
	}
	db.garbage.add(unlisted)
	return finished, nil
}

// stateRunsGen counts the file transactions that changed any keyspace's
// runs, so readers can keep a keyspace's list of runs for as long as it
// does not change (runlist.go).
var stateRunsGen = []byte("runsgen")

func bumpRunsGen(btx *bolt.Tx) error {
	gen, err := stateVersion(btx, stateRunsGen)
	if err != nil {
		return err
	}
	return putStateVersion(btx.Bucket(stateBucket), stateRunsGen, gen+1)
}

// deleteRecordsThrough removes the log records of versions <= hi.
func deleteRecordsThrough(wal *bolt.Bucket, hi uint64) error {
	type doomed struct {
		key    []byte
		bucket bool
	}
	var gone []doomed
	c := wal.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		ver, err := versionOf(k)
		if err != nil {
			return err
		}
		if ver > hi {
			break
		}
		gone = append(gone, doomed{append([]byte(nil), k...), v == nil})
	}
	for _, d := range gone {
		var err error
		if d.bucket {
			err = wal.DeleteBucket(d.key)
		} else {
			err = wal.Delete(d.key) // a part, as files written before kept them
		}
		if err != nil {
			return err
		}
	}
	return nil
}
