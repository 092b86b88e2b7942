package storage

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestBlockIndexSearchesAsTheEntriesDo: a block's search narrowed by its
// blockIndex finds, for any key, the entry the search over the entries
// alone finds: for keys in the block and not, keys shorter than the
// block's common prefix or than 8 bytes past it, keys that differ only past
// their first 8 bytes or in zero bytes, and keys below and above the block.
func TestBlockIndexSearchesAsTheEntriesDo(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	alphabet := []byte{0, 1, 'a', 'b', 0xff}
	randomTail := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return b
	}
	for round := range 300 {
		// Keys share a prefix of 0..12 bytes, then vary over a small
		// alphabet in 0..20 bytes, so that many agree on 8 bytes past
		// the prefix and some are prefixes of others.
		common := randomTail(rng.IntN(13))
		seen := map[string]bool{}
		for range 1 + rng.IntN(200) {
			seen[string(append(bytes.Clone(common), randomTail(rng.IntN(21))...))] = true
		}
		keys := make([]string, 0, len(seen))
		for k := range seen {
			if k != "" {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			continue
		}
		slices.Sort(keys)
		w := newRunBuilder("s", 1, 1, len(keys), 1<<16, true)
		for _, k := range keys {
			w.add([]byte(k), []byte("v"), true)
		}
		k, raw := w.cut()
		plain, err := parseBlock(blockKey(k), "s", raw)
		if err != nil {
			t.Fatal(err)
		}
		indexed := plain
		if indexed.index, err = newBlockIndex(plain); err != nil {
			t.Fatal(err)
		}
		probes := [][]byte{nil, {0}, {0xff, 0xff}, common, common[:len(common)/2]}
		for _, k := range keys {
			probes = append(probes, []byte(k))
		}
		for range 200 {
			probes = append(probes, append(bytes.Clone(common[:rng.IntN(len(common)+1)]), randomTail(rng.IntN(21))...))
		}
		for _, p := range probes {
			if got, want := indexed.search(p), plain.search(p); got != want {
				t.Fatalf("round %d, %d keys sharing %q: search(%q) with the index = %d, without = %d", round, len(keys), common, p, got, want)
			}
		}
	}
}

// TestBlockCacheShardKeepsToItsLimit: a shard never holds more than its
// limit, evicts a block read since the hand last passed it only after
// those that were not, and reuses the slots of evicted blocks.
func TestBlockCacheShardKeepsToItsLimit(t *testing.T) {
	s := &blockCacheShard{limit: 1000, index: map[blockKey]int{}}
	key := func(i int) blockKey { return runBlockKey(1, uint32(i)) }
	for i := range 10 {
		s.add(key(i), block{n: i}, 100)
	}
	if s.bytes != 1000 || len(s.index) != 10 {
		t.Fatalf("10 blocks of 100 bytes in 1000: %d bytes, %d blocks", s.bytes, len(s.index))
	}
	// Blocks 0 and 1 were read; adding two more evicts 2 and 3.
	s.ring[s.index[key(0)]].used = true
	s.ring[s.index[key(1)]].used = true
	s.add(key(10), block{}, 100)
	s.add(key(11), block{}, 100)
	for i, want := range map[int]bool{0: true, 1: true, 2: false, 3: false, 4: true, 10: true, 11: true} {
		if _, ok := s.index[key(i)]; ok != want {
			t.Errorf("block %d cached: %v, want %v", i, ok, want)
		}
	}
	if s.bytes > s.limit || len(s.ring) != 10 {
		t.Errorf("after evictions: %d bytes (limit %d), %d slots (want the 10 reused)", s.bytes, s.limit, len(s.ring))
	}
	// A block larger than the shard is not cached, and evicts nothing.
	s.add(key(12), block{}, 1001)
	if _, ok := s.index[key(12)]; ok || len(s.index) != 10 {
		t.Errorf("a block over the limit: cached %v, %d blocks left", ok, len(s.index))
	}
}

// TestBlockCacheAdmitsOnTheSecondMiss: a block missed once is parsed where
// it lies; missed again, it is cached, as a copy that outlives the bytes it
// was read from.
func TestBlockCacheAdmitsOnTheSecondMiss(t *testing.T) {
	c := newBlockCache(1 << 20)
	w := newRunBuilder("s", 1, 1, 10, 4096, true)
	for i := range 10 {
		w.add(fmt.Appendf(nil, "key%02d", i), []byte("value"), true)
	}
	k, raw := w.cut()
	var bk blockKey
	copy(bk[:], k)
	if _, err := c.admit(bk, "s", raw); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.get(bk); ok {
		t.Fatal("cached on the first miss")
	}
	if _, err := c.admit(bk, "s", raw); err != nil {
		t.Fatal(err)
	}
	clear(raw) // the file's bytes may change once their transaction ends
	blk, ok := c.get(bk)
	if !ok {
		t.Fatal("not cached on the second miss")
	}
	if i := blk.search([]byte("key07")); i != 7 || string(blk.key(i)) != "key07" {
		t.Fatalf("the cached block finds key07 at %d (%q)", i, blk.key(i))
	}
	if hits, misses, bytes := c.stats(); hits != 1 || misses != 1 || bytes == 0 {
		t.Fatalf("stats: %d hits, %d misses, %d bytes; want 1, 1 and some", hits, misses, bytes)
	}
}

// TestReadsThroughTheBlockCache: read transactions that find their blocks
// in a cache much smaller than the runs read what the keyspace holds, round
// after round of overwrites, deletes, checkpoints and the compactions
// those start, so that cached blocks of runs that compactions replaced are
// never what a read finds.
func TestReadsThroughTheBlockCache(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "c.db"), Options{
		NoSync: true, CheckpointAfterIdle: time.Hour, blockSize: 256, BlockCacheSize: 16 * 1024,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(3, 5))
	want := map[string]string{}
	const keys = 400
	for round := range 8 {
		err := db.Update(func(tx *Tx) error {
			sp, err := spaceOrCreate(tx, "s")
			if err != nil {
				return err
			}
			for range keys / 2 {
				k := fmt.Sprintf("key%04d", rng.IntN(keys))
				if rng.IntN(5) == 0 {
					delete(want, k)
					if err := sp.Delete([]byte(k)); err != nil {
						return err
					}
					continue
				}
				v := fmt.Sprintf("round %d %s", round, bytes.Repeat([]byte{'x'}, rng.IntN(40)))
				want[k] = v
				if err := sp.Put([]byte(k), []byte(v)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		db.checkpointAll(t)
		// Twice: the first read of a block only notes the miss.
		for range 2 {
			err := db.View(func(tx *Tx) error {
				sp := tx.Space("s")
				for i := range keys {
					k := fmt.Sprintf("key%04d", i)
					v, ok := want[k]
					if got := sp.Get([]byte(k)); (got != nil) != ok || string(got) != v {
						return fmt.Errorf("round %d: Get(%s) = %q, want %q", round, k, got, v)
					}
				}
				n := 0
				c := sp.Cursor()
				for k, v := c.First(); k != nil; k, v = c.Next() {
					if w, ok := want[string(k)]; !ok || w != string(v) {
						return fmt.Errorf("round %d: the cursor found %s = %q, want %q", round, k, v, w)
					}
					n++
				}
				if n != len(want) {
					return fmt.Errorf("round %d: the cursor found %d keys, want %d", round, n, len(want))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	st := db.Stats()
	if st.BlockCacheHits == 0 || st.BlockCacheBytes > 16*1024 || st.Compactions == 0 {
		t.Fatalf("%d cache hits, %d bytes cached (limit 16 KiB), %d compactions: want hits, at most the limit, and compactions",
			st.BlockCacheHits, st.BlockCacheBytes, st.Compactions)
	}
}
