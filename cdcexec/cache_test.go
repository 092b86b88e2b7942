package cdcexec

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"cdcdb/history"
	"cdcdb/storage"
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
				target, err := history.Open(tx, uint32(f.Target.OID), 1, true, true)
				if err != nil {
					return err
				}
				_, err = Apply(context.Background(), tx, f, target, batch, cache, nil)
				if cache != nil && cache.bytes > cache.limit {
					t.Errorf("batch %d: entries hold %d bytes, over the limit %d", i, cache.bytes, cache.limit)
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
			if cache != nil && cache.bytes > cache.limit {
				t.Errorf("batch %d: entries hold %d bytes after it, over the limit %d", i, cache.bytes, cache.limit)
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

// TestCacheEntriesOwnTheirBytes: an entry keeps copies of what it is
// given, in one buffer, so that a caller may reuse its buffers and an entry
// keeps nothing else alive; a rollback puts back exactly the entries the
// transaction replaced or removes those it added.
func TestCacheEntriesOwnTheirBytes(t *testing.T) {
	db, f := openFlow(t)
	c := newStateCache(1 << 20)
	seq, row := []byte("seq-1"), []byte("row-1")
	err := db.Update(func(tx *storage.Tx) error {
		c.begin(tx)
		_, at, _ := c.get([]byte("a"))
		c.put([]byte("a"), at, keyState{lastSeq: seq, lastKey: []byte("a-key"), lastRow: row})
		copy(seq, "XXXXX")
		copy(row, "XXXXX")
		// Something to commit, so that the commit publishes.
		return tx.Space(history.DataSpace(uint32(f.Target.OID))).Put([]byte("k"), history.AppendStart(nil, 1))
	})
	if err != nil {
		t.Fatal(err)
	}
	a, _, ok := c.get([]byte("a"))
	if !ok || string(a.lastSeq) != "seq-1" || string(a.lastRow) != "row-1" || string(a.lastKey) != "a-key" || a.lastSysSeq != nil {
		t.Fatalf("entry %+v after the caller reused its buffers", a)
	}
	if unsafe.Add(unsafe.Pointer(unsafe.SliceData(a.lastSeq)), len(a.lastSeq)+len(a.lastKey)) != unsafe.Pointer(unsafe.SliceData(a.lastRow)) {
		t.Error("an entry's parts are not one buffer")
	}
	tx, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	c.begin(tx)
	for _, kv := range [][2]string{{"a", "seq-2"}, {"b", "seq-9"}, {"a", "seq-3"}} {
		_, at, _ := c.get([]byte(kv[0]))
		c.put([]byte(kv[0]), at, keyState{lastSeq: []byte(kv[1])})
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if a, _, _ := c.get([]byte("a")); string(a.lastSeq) != "seq-1" {
		t.Errorf("after a rollback a holds %q, want seq-1", a.lastSeq)
	}
	if _, _, ok := c.get([]byte("b")); ok {
		t.Error("a rolled-back transaction's new entry stayed")
	}
	if want := entrySize("a", stateLen(a)); c.bytes != want {
		t.Errorf("cache counts %d bytes after the rollback, want %d", c.bytes, want)
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
	if n := cache.len(); n != keys {
		t.Fatalf("%d keys cached, want %d", n, keys)
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
	counted := cache.bytes
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

// TestCacheReusesReplacedBuffers: once a transaction that replaced an
// entry publishes, the entry's buffer is a spare that a later put fills,
// without touching what any key holds; a transaction that rolls back gives
// none, as the entries it replaced are back in their slots.
func TestCacheReusesReplacedBuffers(t *testing.T) {
	db, f := openFlow(t)
	c := newStateCache(1 << 20)
	data := history.DataSpace(uint32(f.Target.OID))
	set := func(commit bool, kvs ...[2]string) {
		t.Helper()
		tx, err := db.Begin(true)
		if err != nil {
			t.Fatal(err)
		}
		c.begin(tx)
		for _, kv := range kvs {
			_, at, _ := c.get([]byte(kv[0]))
			c.put([]byte(kv[0]), at, keyState{lastSeq: []byte(kv[1]), lastKey: []byte(kv[0] + "-key"), lastRow: []byte(kv[1] + "-row")})
		}
		if !commit {
			if err := tx.Rollback(); err != nil {
				t.Fatal(err)
			}
			return
		}
		// Something to commit, so that the commit publishes.
		if err := tx.Space(data).Put([]byte("k"), history.AppendStart(nil, 1)); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	want := func(key, seq string) {
		t.Helper()
		st, _, ok := c.get([]byte(key))
		if !ok || string(st.lastSeq) != seq || string(st.lastKey) != key+"-key" || string(st.lastRow) != seq+"-row" {
			t.Errorf("%s holds %q %q %q, want %s", key, st.lastSeq, st.lastKey, st.lastRow, seq)
		}
	}
	set(true, [2]string{"a", "seq-1"})
	first, _, _ := c.get([]byte("a"))
	set(true, [2]string{"a", "seq-2"})
	if c.spared != 1 {
		t.Fatalf("%d spare buffers after an entry was replaced, want 1", c.spared)
	}
	set(true, [2]string{"b", "seq-3"})
	b, _, _ := c.get([]byte("b"))
	if unsafe.SliceData(b.lastSeq) != unsafe.SliceData(first.lastSeq) {
		t.Error("b's entry did not take the buffer a's first entry left")
	}
	want("a", "seq-2")
	want("b", "seq-3")
	bytesBefore := c.bytes
	set(false, [2]string{"a", "seq-4"}, [2]string{"b", "seq-5"})
	if c.spared != 0 {
		t.Errorf("%d spare buffers after a rollback, want none", c.spared)
	}
	want("a", "seq-2")
	want("b", "seq-3")
	if c.bytes != bytesBefore {
		t.Errorf("cache counts %d bytes after the rollback, %d before", c.bytes, bytesBefore)
	}
}

// TestCacheSparesAfterAClear: a transaction that replaced an entry and
// then cleared the cache still gives the replaced buffer as a spare when
// it publishes, and the key that takes it does not share it with any
// other; an empty part stays empty and an absent one absent.
func TestCacheSparesAfterAClear(t *testing.T) {
	db, f := openFlow(t)
	c := newStateCache(1 << 20)
	data := history.DataSpace(uint32(f.Target.OID))
	state := func(seq string) keyState {
		return keyState{lastSeq: []byte(seq), lastSysSeq: []byte{}, lastRow: []byte(seq + "-row")}
	}
	update := func(fn func()) {
		t.Helper()
		err := db.Update(func(tx *storage.Tx) error {
			c.begin(tx)
			fn()
			return tx.Space(data).Put([]byte("k"), history.AppendStart(nil, 1))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	set := func(key, seq string) {
		_, at, _ := c.get([]byte(key))
		c.put([]byte(key), at, state(seq))
	}
	update(func() { set("a", "seq-1"); set("b", "seq-2") })
	update(func() { set("a", "seq-3"); c.Clear(); set("c", "seq-4") })
	if c.spared != 1 {
		t.Fatalf("%d spare buffers, want a's replaced one", c.spared)
	}
	update(func() { set("d", "seq-5") })
	for key, seq := range map[string]string{"c": "seq-4", "d": "seq-5"} {
		st, _, ok := c.get([]byte(key))
		if !ok || string(st.lastSeq) != seq || string(st.lastRow) != seq+"-row" {
			t.Errorf("%s holds %q %q, want %s", key, st.lastSeq, st.lastRow, seq)
		}
		if st.lastSysSeq == nil || len(st.lastSysSeq) != 0 || st.lastKey != nil {
			t.Errorf("%s: lastSysSeq %#v (want empty, not nil), lastKey %#v (want nil)", key, st.lastSysSeq, st.lastKey)
		}
	}
	for _, key := range []string{"a", "b"} {
		if _, _, ok := c.get([]byte(key)); ok {
			t.Errorf("%s survived the clear", key)
		}
	}
}

// TestCacheKnowsWhenItHoldsEveryKey: a cache that first meets its flow
// with nothing stored holds every key the flow stores from then on, and
// applies keys it does not hold as new; one that meets a flow with events
// stored (a cache made after a restart) does not, nor one that has dropped
// keys. The targets all come out as without a cache.
func TestCacheKnowsWhenItHoldsEveryKey(t *testing.T) {
	first := []Event{testEvent(1, 1, "a"), testEvent(2, 1, "b")}
	second := []Event{testEvent(3, 1, "c"), testEvent(1, 3, "d"), testEvent(1, 2, "e"), testEvent(2, 2, "")}
	apply := func(db *storage.DB, f *Flow, cache *StateCache, batch []Event) {
		t.Helper()
		err := db.Update(func(tx *storage.Tx) error {
			target, err := history.Open(tx, uint32(f.Target.OID), 1, true, true)
			if err != nil {
				return err
			}
			_, err = Apply(context.Background(), tx, f, target, batch, cache, nil)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	rows := func(db *storage.DB, f *Flow) (out []string) {
		t.Helper()
		if err := db.View(func(tx *storage.Tx) error { out = targetRows(t, tx, f); return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	db, f := openFlow(t)
	apply(db, f, nil, first)
	apply(db, f, nil, second)
	want := rows(db, f)

	for _, c := range []struct {
		what         string
		first, cache *StateCache // the caches given the first batch, then the second
		whole        wholeness
	}{
		{what: "a cache that began on an empty flow", whole: wholeYes},
		// As after a restart: the flow has events when the cache begins.
		{what: "a cache that began on a flow with events", first: NewStateCache(), cache: NewStateCache(), whole: wholeNo},
		// Room for no key: each goes uncached.
		{what: "a cache that had no room for a key", cache: newStateCache(1), whole: wholeNo},
	} {
		if c.cache == nil {
			c.cache = NewStateCache()
		}
		if c.first == nil {
			c.first = c.cache
		}
		db, f := openFlow(t)
		apply(db, f, c.first, first)
		apply(db, f, c.cache, second)
		if c.cache.whole != c.whole {
			t.Errorf("%s: whole = %d, want %d", c.what, c.cache.whole, c.whole)
		}
		if got := rows(db, f); !slices.Equal(got, want) {
			t.Errorf("%s: the target is %q, want %q", c.what, got, want)
		}
	}
}
