package cdcexec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"cdcdb/history"
	"cdcdb/storage"
)

// TestCacheLimit: a cache far smaller than what a flow's keys need holds no
// more than its limit, committed or pending, and the flow's target is the
// same as without a cache: keys past the limit go uncached and are read from
// storage, never continued from a stale entry.
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
				_, err = Apply(context.Background(), tx, f, target, batch, cache)
				if cache != nil && cache.pending.bytes > cache.limit {
					t.Errorf("batch %d: pending entries hold %d bytes, over the limit %d", i, cache.pending.bytes, cache.limit)
				}
				return err
			})
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
