package storage

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestLogRingWrapsAndGrows: with a small ring, commits of assorted sizes
// (some larger than the ring) wrap around it many times across checkpoints,
// fill it (those go to the log bucket and the ring grows), and after crashes
// at random points every acknowledged commit is there, and nothing else.
func TestLogRingWrapsAndGrows(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 9))
	path := checkedPath(t, "ring.db")
	opts := Options{NoSync: true, MemtableSize: 96 << 10, CheckpointAfterIdle: time.Hour, ringBytes: minRingBytes, ringMax: 256 << 10}
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	model := map[string]string{}
	var ringFlushes, flushes int64
	wrapped, prevHead := false, int64(0)
	for round := range 600 {
		k := fmt.Sprintf("k%03d", rng.IntN(200))
		v := fmt.Sprintf("%d:%s", round, bytes.Repeat([]byte{'x'}, rng.IntN(3000)))
		if rng.IntN(50) == 0 {
			v += string(bytes.Repeat([]byte{'y'}, 100<<10)) // larger than the first segment
		}
		if err := putIn(db, "s", k, v); err != nil {
			t.Fatal(err)
		}
		model[k] = v
		if db.ring.head < prevHead {
			wrapped = true
		}
		prevHead = db.ring.head
		if rng.IntN(80) == 0 {
			ringFlushes += db.ringFlushes.Load()
			flushes += db.flushes.Load()
			db.crash()
			if db, err = Open(path, opts); err != nil {
				t.Fatal(err)
			}
			prevHead = db.ring.head
			err := db.View(func(tx *Tx) error {
				for k, v := range model {
					if got := string(tx.Space("s").Get([]byte(k))); got != v {
						return fmt.Errorf("after a crash, %s holds %.20q, want %.20q", k, got, v)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	size := db.ring.size
	ringFlushes += db.ringFlushes.Load()
	flushes += db.flushes.Load()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d flushes through the ring, which grew to %d bytes", ringFlushes, flushes, size)
	if !wrapped {
		t.Error("the ring never wrapped around")
	}
	if size <= minRingBytes || size > 256<<10 {
		t.Errorf("the ring grew to %d bytes, want more than its first %d and at most 256 KiB", size, minRingBytes)
	}
	if ringFlushes == 0 || ringFlushes == flushes {
		t.Errorf("%d of %d flushes through the ring: the test does not exercise both ways", ringFlushes, flushes)
	}
}

// TestLogRingReplayStopsAtAGap: the ring's records are replayed in version
// order up to the first one missing (a write a crash cut short, whose
// checksum fails): commits after it were not acknowledged.
func TestLogRingReplayStopsAtAGap(t *testing.T) {
	path := checkedPath(t, "gap.db")
	opts := Options{NoSync: true, CheckpointAfterIdle: time.Hour}
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	long := string(bytes.Repeat([]byte{'v'}, 1500))
	for i := range 10 {
		if err := putIn(db, "s", fmt.Sprintf("k%d", i), long); err != nil {
			t.Fatal(err)
		}
	}
	// The record of the seventh commit, cut short.
	victim := db.ring.live[len(db.ring.live)-4]
	db.crash()
	bdb, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	segs, err := loadRingSegments(bdb)
	if err != nil {
		t.Fatal(err)
	}
	seg, within := ringSegmentAt(segs, victim.pos)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(make([]byte, 8), segs[seg].off+within+ringHeader); err != nil {
		t.Fatal(err)
	}
	f.Close()
	bdb.Close()
	db, err = Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *Tx) error {
		for i := range 10 {
			got := tx.Space("s").Get([]byte(fmt.Sprintf("k%d", i)))
			if (got != nil) != (i < 6) {
				return fmt.Errorf("k%d present %v after the seventh record was cut short", i, got != nil)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The commits after the gap take the versions of the records left
	// out, and their shorter records leave some of those whole behind
	// them: a crash and a replay must not take those for theirs.
	for i := 6; i < 10; i++ {
		if err := putIn(db, "s", fmt.Sprintf("k%d", i), "again"); err != nil {
			t.Fatal(err)
		}
	}
	db.crash()
	db, err = Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx *Tx) error {
		for i := range 10 {
			want := long
			if i >= 6 {
				want = "again"
			}
			if got := string(tx.Space("s").Get([]byte(fmt.Sprintf("k%d", i)))); got != want {
				return fmt.Errorf("k%d holds %.10q, want %.10q", i, got, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
