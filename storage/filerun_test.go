package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestFileRunsMatchTheModel writes runs of random entries with small blocks
// (so lookups and walks cross many block boundaries) and reads each back
// every way a reader does: Get, walks both ways, seeks to keys present and
// absent, and a change of direction after a seek.
func TestFileRunsMatchTheModel(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 31))
	bdb, err := bolt.Open(filepath.Join(t.TempDir(), "r.db"), 0o600, &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	for round := range 30 {
		want := randomWrites(rng, rng.IntN(4)*rng.IntN(600))
		if round == 0 {
			want = refMap{"only": {v: "one"}}
		}
		if len(want) == 0 {
			continue
		}
		blockSize := []int{40, 300, 4096}[rng.IntN(3)]
		id := uint64(round + 1)
		space := fmt.Sprint(round)
		err := bdb.Update(func(btx *bolt.Tx) error {
			for _, name := range topBuckets {
				if _, err := btx.CreateBucketIfNotExists(name); err != nil {
					return err
				}
			}
			if _, err := createSpaceBucket(btx.Bucket(rootBucket), space); err != nil {
				return err
			}
			blocks := btx.Bucket(blocksBucket)
			// Every third run has no filter, as a keyspace that is not
			// point-read gets (pointreads.go): lookups must find the same.
			w := newRunBuilder(space, id, id, len(want), blockSize, round%3 != 1)
			for _, k := range want.sortedKeys() {
				if _, err := w.put(blocks, []byte(k), []byte(want[k].v), !want[k].tomb); err != nil {
					return err
				}
			}
			if stored, err := w.store(btx); err != nil || !stored {
				return fmt.Errorf("storing the run: stored %v, %v", stored, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		err = bdb.View(func(btx *bolt.Tx) error {
			blocks := btx.Bucket(blocksBucket)
			runs, err := loadRuns(btx, space, nil)
			if err != nil {
				return err
			}
			if err := checkRun(blocks, runs[0]); err != nil {
				return err
			}
			return checkFileRun(blocks, runs[0], want, probesFor(rng, want))
		})
		if err != nil {
			t.Fatalf("round %d (blocks of %d bytes): %v", round, blockSize, err)
		}
	}
}

// checkFileRun is checkRunReads of a file run, its blocks in b.
func checkFileRun(b *bolt.Bucket, r *fileRun, want refMap, probes []string) error {
	br := &blockReader{b: b}
	get := func(key []byte) ([]byte, bool, bool) { return r.get(br, key) }
	return checkRunReads(r.entries, get, &fileRunIter{r: r, blockReader: *br}, want, probes)
}

// TestCorruptBlockFailsTheRead: a run whose block is gone, malformed or
// changed is a corrupt file, and a read of it - a walk, which checks each
// block it walks into as a whole, or lookups, which check the entries they
// read - says so with ErrCorrupt (a panic the statement's recovery
// reports) instead of answering as if the keys were absent or with other
// values.
func TestCorruptBlockFailsTheRead(t *testing.T) {
	for _, tc := range []struct {
		name    string
		corrupt func(blocks *bolt.Bucket, k []byte) error
	}{
		{"missing block", func(blocks *bolt.Bucket, k []byte) error { return blocks.Delete(k) }},
		{"malformed entry", func(blocks *bolt.Bucket, k []byte) error {
			// The block's third entry starts past its data (the block
			// ends with the entry count and the block's checksum).
			blk := bytes.Clone(blocks.Get(k))
			n := int(binary.LittleEndian.Uint32(blk[len(blk)-8:]))
			binary.LittleEndian.PutUint32(blk[len(blk)-8-4*n+8:], 1<<30)
			return blocks.Put(k, blk)
		}},
		{"a byte changed", func(blocks *bolt.Bucket, k []byte) error {
			blk := bytes.Clone(blocks.Get(k))
			blk[3] ^= 0x20
			return blocks.Put(k, blk)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := Open(filepath.Join(t.TempDir(), "c.db"), Options{NoSync: true, CheckpointAfterIdle: time.Hour, blockSize: 64})
			if err != nil {
				t.Fatal(err)
			}
			defer db.crash()
			for i := range 100 {
				if err := putIn(db, "s", fmt.Sprintf("k%03d", i), "v"); err != nil {
					t.Fatal(err)
				}
			}
			db.checkpointAll(t)
			err = db.bolt.Update(func(btx *bolt.Tx) error {
				runs, err := loadRuns(btx, "s", nil)
				if err != nil {
					return err
				}
				k := runBlockKey(runs[0].id, 1)
				return tc.corrupt(btx.Bucket(blocksBucket), k[:])
			})
			if err != nil {
				t.Fatal(err)
			}
			err = db.View(func(tx *Tx) (err error) {
				defer catchCorrupt(&err)
				n := 0
				c := tx.Space("s").Cursor()
				for k, _ := c.First(); k != nil; k, _ = c.Next() {
					n++
				}
				return fmt.Errorf("walked %d keys of a corrupt run", n)
			})
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("walk over a corrupt run: %v, want ErrCorrupt", err)
			}
			// Lookups check the entries they read, not the whole block:
			// the lookup of each key of the damaged block reads its entry.
			err = db.View(func(tx *Tx) error {
				for i := range 100 {
					k := fmt.Sprintf("k%03d", i)
					if got := tx.Space("s").Get([]byte(k)); string(got) != "v" {
						return fmt.Errorf("%s = %q", k, got)
					}
				}
				return nil
			})
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("lookups in a corrupt run: %v, want ErrCorrupt", err)
			}
			if err := db.Check(); !errors.Is(err, ErrCorrupt) {
				t.Fatal("Check passed a corrupt run")
			}
		})
	}
}

// TestBloomFiltersHoldTheirRate: a run's filter answers "maybe" for about
// 1% of the keys it was not given, also for keys that differ only in their
// last bytes (encoded integers, numbered names), and never "no" for a key
// it was given; a filter of a version 1 run meta, hashed without mixing,
// still reads as it was built.
func TestBloomFiltersHoldTheirRate(t *testing.T) {
	keyings := map[string]func(i int) []byte{
		"integers": func(i int) []byte { return binary.BigEndian.AppendUint64([]byte("t\x00\x01"), uint64(i)) },
		"names":    func(i int) []byte { return []byte(fmt.Sprintf("k%08d", i)) },
	}
	for name, key := range keyings {
		for _, n := range []int{1000, 100000} {
			f := newBloom(n)
			for i := range n {
				f.add(key(i))
			}
			for i := range n {
				if !f.mayContain(key(i)) {
					t.Fatalf("%s, %d keys: key %d it was given is not in the filter", name, n, i)
				}
			}
			const probes = 200000
			maybe := 0
			for i := n; i < n+probes; i++ {
				if f.mayContain(key(i)) {
					maybe++
				}
			}
			if rate := float64(maybe) / probes; rate > 0.02 {
				t.Errorf("%s, %d keys: false positive rate %.4f", name, n, rate)
			}
		}
	}
	old := runMeta{firstKeys: [][]byte{[]byte("a")}, lastKey: []byte("z"), filter: newBloom(100)}
	old.filter.unmixed = true
	for i := range 100 {
		old.filter.add(keyings["names"](i))
	}
	enc := old.encode()
	enc[0] = 1
	m, err := decodeLegacyRunMeta(enc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		if !m.filter.mayContain(keyings["names"](i)) {
			t.Fatalf("key %d missing from a version 1 filter", i)
		}
	}
}

// TestOldFilesAreRewrittenAsRuns: a file made before runs kept each
// keyspace's entries in its bucket; opening it writes them as a run (in
// several transactions) and empties the bucket, keeping its sequence, and
// the data reads the same, then and after a reopen.
func TestOldFilesAreRewrittenAsRuns(t *testing.T) {
	path := checkedPath(t, "old.db")
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]refMap{"a": {}, "b": {}, "empty": {}}
	err = bdb.Update(func(btx *bolt.Tx) error {
		for _, name := range []string{string(rootBucket), string(walBucket), string(stateBucket)} {
			if _, err := btx.CreateBucket([]byte(name)); err != nil {
				return err
			}
		}
		root := btx.Bucket(rootBucket)
		for name, m := range want {
			b, err := root.CreateBucket([]byte(name))
			if err != nil {
				return err
			}
			if err := b.SetSequence(uint64(len(name) * 10)); err != nil {
				return err
			}
			if name == "empty" {
				continue
			}
			for i := range 3000 {
				k, v := fmt.Sprintf("%s%05d", name, i*7%3001), fmt.Sprintf("value %d", i)
				if err := b.Put([]byte(k), []byte(v)); err != nil {
					return err
				}
				m[k] = refVal{v: v}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	bdb.Close()
	// Read-only, the file cannot be rewritten, and readers look in runs
	// only: it is refused rather than read as empty.
	if db, err := Open(path, Options{ReadOnly: true}); err == nil {
		db.Close()
		t.Fatal("a read-only open of a file in the old format succeeded")
	} else if !strings.Contains(err.Error(), "open it writable once") {
		t.Fatalf("read-only open of an old file: %v", err)
	}
	for reopen := range 2 {
		db, err := Open(path, Options{NoSync: true, checkpointChunk: 2000, blockSize: 512})
		if err != nil {
			t.Fatal(err)
		}
		err = db.View(func(tx *Tx) error {
			for name, m := range want {
				sp := tx.Space(name)
				if sp == nil {
					return fmt.Errorf("keyspace %s is gone", name)
				}
				if got := sp.Sequence(); got != uint64(len(name)*10) {
					return fmt.Errorf("keyspace %s: sequence %d", name, got)
				}
				if n := sp.Count(); n != len(m) {
					return fmt.Errorf("keyspace %s: %d keys, want %d", name, n, len(m))
				}
				for k, v := range m {
					if got := sp.Get([]byte(k)); string(got) != v.v {
						return fmt.Errorf("keyspace %s: %s = %q, want %q", name, k, got, v.v)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("reopen %d: %v", reopen, err)
		}
		err = db.bolt.View(func(btx *bolt.Tx) error {
			for name := range want {
				c := btx.Bucket(rootBucket).Bucket([]byte(name)).Cursor()
				for k, _ := c.First(); k != nil; k, _ = c.Next() {
					if !bytes.Equal(k, spaceRecordKey) {
						return fmt.Errorf("keyspace %s's bucket still holds %q", name, k)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCompactionKeepsRunsFewAndDropsTombstones: checkpoint after
// checkpoint of a keyspace whose keys are rewritten and deleted, the file
// keeps a few runs (about log2 of the checkpoints), reads stay exact, and
// once compaction reaches the oldest run no tombstone is left of deleted
// keys.
func TestCompactionKeepsRunsFewAndDropsTombstones(t *testing.T) {
	db, err := Open(checkedPath(t, "x.db"), Options{NoSync: true, CheckpointAfterIdle: time.Hour, blockSize: 256})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	model := map[string]string{}
	rng := rand.New(rand.NewPCG(3, 4))
	const checkpoints = 40
	for cp := range checkpoints {
		err := db.Update(func(tx *Tx) error {
			sp, err := spaceOrCreate(tx, "s")
			if err != nil {
				return err
			}
			for range 200 {
				k := fmt.Sprintf("k%04d", rng.IntN(2000))
				if rng.IntN(3) == 0 {
					if err := sp.Delete([]byte(k)); err != nil {
						return err
					}
					delete(model, k)
					continue
				}
				v := fmt.Sprintf("v%d", cp)
				if err := sp.Put([]byte(k), []byte(v)); err != nil {
					return err
				}
				model[k] = v
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		db.checkpointAll(t)
		db.waitForCompactions(t)
	}
	var runs []*fileRun
	err = db.View(func(tx *Tx) error {
		sp := tx.Space("s")
		runs = sp.fileRuns
		n := 0
		c := sp.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if model[string(k)] != string(v) {
				return fmt.Errorf("%s = %q, want %q", k, v, model[string(k)])
			}
			n++
		}
		if n != len(model) {
			return fmt.Errorf("%d keys, want %d", n, len(model))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d runs after %d checkpoints, %d compactions", len(runs), checkpoints, db.compactionsDone.Load())
	if len(runs) > 7 {
		t.Errorf("%d runs after %d checkpoints", len(runs), checkpoints)
	}
	if last := runs[len(runs)-1]; last.tombstones != 0 {
		t.Errorf("the oldest run keeps %d tombstones", last.tombstones)
	}
	if db.compactionsDone.Load() == 0 {
		t.Error("no compaction ran")
	}
}

// waitForCompactions waits until the flusher has no compaction to do.
func (db *DB) waitForCompactions(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		db.compactions.mu.Lock()
		due := len(db.compactions.due)
		db.compactions.mu.Unlock()
		steps := db.compactionSteps.Load()
		time.Sleep(20 * time.Millisecond)
		if due == 0 && steps == db.compactionSteps.Load() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("compactions did not settle")
		}
		db.signal()
	}
}

// BenchmarkBlockSearch finds random keys in a full block of entries shaped
// like a history table's rows (a key of some 20 bytes, a value of some 60),
// the search every read of a file run does in the block it lands in.
func BenchmarkBlockSearch(b *testing.B) {
	const target = 2*(16<<10) - 256 // a block of the default 16 KiB pages
	w := newRunBuilder("s", 1, 1, 1024, target, true)
	var keys [][]byte
	var raw []byte
	value := bytes.Repeat([]byte("v"), 60)
	for i := 0; raw == nil; i++ {
		key := fmt.Appendf(nil, "t/16386\x00%08d\x00%04d", i/9, i%9)
		_, raw = w.add(key, value, true) // the block full before key
		keys = append(keys, key)
	}
	keys = keys[:len(keys)-1]
	blk, err := parseBlock(runBlockKey(1, 0), "s", raw)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	b.ResetTimer()
	for b.Loop() {
		key := keys[rng.IntN(len(keys))]
		if i := blk.search(key); !bytes.Equal(blk.key(i), key) {
			b.Fatalf("search found entry %d, not %q", i, key)
		}
	}
}
