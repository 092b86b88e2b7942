package cdcexec

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"cdcdb/history"
	"cdcdb/storage"
	"cdcdb/temporal"
	"cdcdb/types"
)

// TestCacheLimit: a cache far smaller than what a flow's keys need holds no
// more than its limit, committed or pending, and the flow's target is the
// same as without a cache: keys past the limit go uncached and are read from
// storage, never continued from a stale entry. Every third batch rolls back
// after the cache took its states: the next batches must continue from what
// was committed before it.
func TestCacheLimit(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	var batches [][]Event
	seq := map[int64]int64{}
	for range 30 {
		var batch []Event
		for range 200 {
			id := rng.Int64N(300)
			seq[id] += 1 + rng.Int64N(3)
			city := fmt.Sprintf("c%d", rng.IntN(5))
			if rng.IntN(10) == 0 {
				city = "" // a delete
			}
			batch = append(batch, testEvent(id, seq[id], city))
		}
		batches = append(batches, batch)
	}
	run := func(cache *StateCache) []string {
		db, f := openFlow(t)
		for i, batch := range batches {
			err := db.Update(func(tx *storage.Tx) error {
				target, err := history.Open(tx, uint32(f.Target.OID), 1, true)
				if err != nil {
					return err
				}
				_, err = Apply(context.Background(), tx, f, target, batch, cache, nil)
				if cache != nil && cache.pending.bytes > cache.limit {
					t.Errorf("batch %d: pending entries hold %d bytes, over the limit %d", i, cache.pending.bytes, cache.limit)
				}
				if err == nil && i%3 == 2 {
					err = errRolledBack
				}
				return err
			})
			if err == errRolledBack {
				err = nil
			}
			if err != nil {
				t.Fatal(err)
			}
			if cache != nil && cache.committedBytes > cache.limit {
				t.Errorf("batch %d: committed entries hold %d bytes, over the limit %d", i, cache.committedBytes, cache.limit)
			}
		}
		var rows []string
		err := db.View(func(tx *storage.Tx) error {
			rows = targetRows(t, tx, f)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	want := run(nil)
	for _, limit := range []int{4 << 10, 40 << 10, maxCacheBytes} {
		if got := run(newStateCache(limit)); !slices.Equal(got, want) {
			t.Fatalf("with a cache of %d bytes the target differs from the one built without a cache", limit)
		}
	}
}

var errRolledBack = errors.New("rolled back on purpose")

// TestCacheOwnsSequenceStrings: a cached text sequence value does not share
// the bytes it was cut from (a COPY line), plain or inside a record, while
// an integer sequence is kept as it is, without a copy.
func TestCacheOwnsSequenceStrings(t *testing.T) {
	line := strings.Repeat("x", 1<<16) + "\tv0042\t7"
	within := func(s string) bool {
		p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(line)))
		return p >= lo && p < lo+uintptr(len(line))
	}
	text := line[1<<16+1 : 1<<16+6]
	c := newStateCache(1 << 20)
	c.pending = &pendingStates{states: map[string]*keyState{}}
	ints := temporal.Seq{int64(7)}
	c.put([]byte("a"), &keyState{
		lastSeq:    temporal.Seq{text},
		lastSysSeq: temporal.Seq{types.RecordValue{Types: []types.T{types.Of(types.Text), types.Of(types.Int8)}, Fields: []types.Value{text, int64(1)}}},
	})
	c.put([]byte("b"), &keyState{lastSeq: ints})
	a, _ := c.get([]byte("a"))
	got := a.lastSeq[0].(string)
	rec := a.lastSysSeq[0].(types.RecordValue)
	if got != "v0042" || rec.Fields[0] != "v0042" || rec.Fields[1] != int64(1) || len(rec.Types) != 2 {
		t.Fatalf("cached values changed: %#v, %#v", a.lastSeq, a.lastSysSeq)
	}
	if within(got) || within(rec.Fields[0].(string)) {
		t.Fatal("a cached sequence string shares the line it was cut from")
	}
	b, _ := c.get([]byte("b"))
	if &b.lastSeq[0] != &ints[0] {
		t.Fatal("an integer sequence was copied")
	}
}

// TestCacheCountsWhatItHolds: what entrySize counts for a cache's entries
// is, within a fifth, the heap they keep alive, so that maxCacheBytes
// bounds the memory a flow's cache really takes. The entries are built the
// way the flow builds them (Apply over committed batches, every key
// continued in order), so their buffers are the ones the flow keeps.
func TestCacheCountsWhatItHolds(t *testing.T) {
	const keys = 20_000
	db, f := openFlow(t)
	cache := NewStateCache()
	var batches [][]Event
	for round := range 3 {
		batch := make([]Event, 0, keys)
		for id := range int64(keys) {
			batch = append(batch, testEvent(id, int64(round+1)*1_000_000+id, fmt.Sprintf("city %d of round %d", id%7, round)))
		}
		batches = append(batches, batch)
	}
	for _, batch := range batches {
		err := db.Update(func(tx *storage.Tx) error {
			applyCached(t, tx, f, batch, cache)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(cache.committed) != keys {
		t.Fatalf("%d keys cached, want %d", len(cache.committed), keys)
	}
	// Nothing else may allocate between the two readings of the heap.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	heap := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	counted := cache.committedBytes
	with := heap()
	cache.Clear()
	without := heap()
	runtime.KeepAlive(batches) // the events are the caller's, not the cache's
	held := int(with) - int(without)
	t.Logf("%d entries: counted %d bytes (%d each), the heap held %d (%d each)", keys, counted, counted/keys, held, held/keys)
	if held > counted*6/5 || counted > held*6/5 {
		t.Errorf("entrySize counts %d bytes for what holds %d", counted, held)
	}
}
