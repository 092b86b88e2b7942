package cdcexec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/storage"
	"cdcdb/types"
)

// TestSharedApplyMatchesOneGoroutine: batches of a few hundred keys (in
// order and late, with deletes, and now and then conflicts that fail the
// batch) applied by two goroutines leave every keyspace byte for byte as
// applying them on one does, fail with the same errors, and leave the same
// states in the flow's cache (each goroutine holds its keys' states back
// until it gets the cache's lock: every one must land, and a failed batch's
// be undone, so the cache holds exactly the keys of the batches that
// succeeded).
func TestSharedApplyMatchesOneGoroutine(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	run := func(shared bool) (map[string][]string, []string, map[string]keyState, int) {
		helperFirst = shared
		defer func() { helperFirst = false }()
		rng := rand.New(rand.NewPCG(seed, 7))
		db, f := openFlowOf(t, mixedFlow(100))
		f.FastPathsOff.SharedApply = !shared
		cache := NewStateCache()
		var failures []string
		applied := map[string]bool{} // the keys of the batches that succeeded
		feed := mixedFeed{rng: rng, keys: 300, lateOneIn: 5, lateBy: 3000}
		for batch := range 12 {
			events := feed.batch(400)
			if batch%4 == 3 {
				// Two different events of one key at one sequence
				// value, for two keys: the error names the first.
				for range 2 {
					e := events[rng.IntN(len(events))]
					e.Values = slices.Clone(e.Values)
					e.Values[1] = "conflicting"
					e.Kind = Upsert
					events = append(events, e)
				}
			}
			err := applyBatch(t, db, f, int64(1000+batch), events, cache, nil)
			if err == nil {
				for _, e := range events {
					applied[fmt.Sprint(e.Key)] = true
				}
			} else {
				if pgerror.CodeOf(err) != pgerror.CardinalityViolation {
					t.Fatal(err)
				}
				var pe *pgerror.Error
				errors.As(err, &pe)
				failures = append(failures, fmt.Sprintf("batch %d: %s %s", batch, pe.Message, pe.Detail))
			}
		}
		return keyspaceContents(t, db), failures, cacheContents(cache), len(applied)
	}
	before := sharedBatches.Load()
	one, oneFailures, oneCache, applied := run(false)
	if sharedBatches.Load() != before {
		t.Fatal("a helper applied keys with the shared apply off")
	}
	two, twoFailures, twoCache, _ := run(true)
	if sharedBatches.Load() == before {
		t.Fatal("no batch was applied with a helper")
	}
	// Three batches have conflicts put in; late events may make more.
	if len(oneFailures) < 3 || !slices.Equal(oneFailures, twoFailures) {
		t.Fatalf("failures on one goroutine:\n%q\non two:\n%q\nwant the same, at least three", oneFailures, twoFailures)
	}
	if len(one) == 0 || len(one) != len(two) {
		t.Fatalf("%d keyspaces written on one goroutine, %d on two", len(one), len(two))
	}
	for name, rows := range one {
		if got := two[name]; !slices.Equal(got, rows) {
			t.Fatalf("keyspace %s: %d entries on two goroutines, %d on one, and they differ", name, len(got), len(rows))
		}
	}
	// Most keys get events in some batch that succeeds; a key whose events
	// all fell in failed batches is not cached.
	if applied < 250 || len(oneCache) != applied || len(twoCache) != applied {
		t.Fatalf("%d keys cached on one goroutine, %d on two; want the %d keys of the batches that succeeded", len(oneCache), len(twoCache), applied)
	}
	for key, st := range oneCache {
		got, ok := twoCache[key]
		if !ok || !sameState(got, st) {
			t.Fatalf("key %x: cached %+v on two goroutines, %+v on one", key, got, st)
		}
	}
}

// cacheContents is every state a cache holds, by key.
func cacheContents(c *StateCache) map[string]keyState {
	states := map[string]keyState{}
	for key, slot := range c.index {
		if e := c.slots[slot]; e.buf != nil {
			states[key] = e.state()
		}
	}
	return states
}

// sameState compares two states part by part, a nil part differing from
// an empty one.
func sameState(a, b keyState) bool {
	same := func(x, y []byte) bool { return (x == nil) == (y == nil) && bytes.Equal(x, y) }
	return same(a.lastSeq, b.lastSeq) && same(a.lastSysSeq, b.lastSysSeq) &&
		same(a.lastKey, b.lastKey) && same(a.lastRow, b.lastRow)
}

// applyBatch applies events in a transaction of their own at commit time
// now.
func applyBatch(t *testing.T, db *storage.DB, f *Flow, now int64, events []Event, cache *StateCache, check RowCheck) error {
	t.Helper()
	return db.Update(func(tx *storage.Tx) error {
		target, err := history.Open(tx, uint32(f.Target.OID), now, true, true)
		if err != nil {
			return err
		}
		_, err = Apply(context.Background(), tx, f, target, events, cache, check)
		return err
	})
}

// distinctKeys is a batch of one in-order event for each of n keys.
func distinctKeys(n int64, seq int64) []Event {
	var events []Event
	for id := range n {
		events = append(events, testEvent(id, seq, "Leon"))
	}
	return events
}

// TestRowChecksStayOnTheSession: a target with a row check is applied on
// the session's goroutine only, as the check runs in the session's
// statement, which may read its transaction.
func TestRowChecksStayOnTheSession(t *testing.T) {
	db, f := openFlowOf(t, mixedFlow(100))
	before := sharedBatches.Load()
	checked := 0
	check := func([]types.Value) error {
		checked++
		return nil
	}
	if err := applyBatch(t, db, f, 1000, distinctKeys(300, 1), NewStateCache(), check); err != nil {
		t.Fatal(err)
	}
	if checked != 300 || sharedBatches.Load() != before {
		t.Errorf("checked %d rows, shared %d batches; want 300 rows on one goroutine", checked, sharedBatches.Load()-before)
	}
}

// encodedID is key id's encoding, as beforeKey sees it.
func encodedID(t *testing.T, id int64) string {
	k, err := rowcodec.AppendKey(nil, id)
	if err != nil {
		t.Fatal(err)
	}
	return string(k)
}

// TestSharedApplyPanicsInTheCaller: a panic while a key is applied, on
// either goroutine, comes out of Apply on the caller's goroutine (where
// the server recovers from it) with its value: a corrupt file's error
// still reads as one. The transaction then rolls back and the flow goes
// on.
func TestSharedApplyPanicsInTheCaller(t *testing.T) {
	helperFirst = true
	defer func() { helperFirst, beforeKey = false, nil }()
	db, f := openFlowOf(t, mixedFlow(100))
	cache := NewStateCache()
	// The helper takes the first chunk of keys, 0 to 31; the session most
	// likely the second.
	for _, bad := range []int64{5, 40} {
		badKey := encodedID(t, bad)
		beforeKey = func(encKey []byte) {
			if string(encKey) == badKey {
				panic(fmt.Errorf("boom at %d: %w", bad, storage.ErrCorrupt))
			}
		}
		// (storage's Update turns the panic of a read that found the file
		// corrupt into its error.)
		var recovered any
		var err error
		func() {
			defer func() { recovered = recover() }()
			err = applyBatch(t, db, f, 1000, distinctKeys(300, 1), cache, nil)
		}()
		if recovered != nil {
			err, _ = recovered.(error)
		}
		if err == nil || !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("boom at %d", bad)) {
			t.Fatalf("got %v (panic %v), want the panic's error, boom at %d, wrapping ErrCorrupt", err, recovered, bad)
		}
	}
	beforeKey = nil
	err := db.Update(func(tx *storage.Tx) error {
		applyCached(t, tx, f, []Event{testEvent(7, 2, "Puebla")}, cache)
		if got := targetRows(t, tx, f); len(got) != 1 {
			t.Errorf("after the panics the target holds %q, want only key 7's row", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSharedApplyReportsTheFirstFailure: with a panic at one key and a
// conflict at another, Apply fails as it would on one goroutine, which
// meets the first of them in key order and never the second.
func TestSharedApplyReportsTheFirstFailure(t *testing.T) {
	helperFirst = true
	defer func() { helperFirst, beforeKey = false, nil }()
	db, f := openFlowOf(t, mixedFlow(100))
	for _, c := range []struct{ panicAt, conflictAt int64 }{{5, 40}, {40, 5}, {200, 70}, {70, 200}} {
		badKey := encodedID(t, c.panicAt)
		beforeKey = func(encKey []byte) {
			if string(encKey) == badKey {
				panic("boom")
			}
		}
		events := distinctKeys(300, 1)
		conflict := testEvent(c.conflictAt, 1, "Toluca")
		events = append(events, conflict)
		var recovered any
		var err error
		func() {
			defer func() { recovered = recover() }()
			err = applyBatch(t, db, f, 1000, events, NewStateCache(), nil)
		}()
		if c.panicAt < c.conflictAt {
			if recovered == nil || fmt.Sprint(recovered) != "boom" {
				t.Errorf("panic at %d, conflict at %d: recovered %v (error %v), want the panic", c.panicAt, c.conflictAt, recovered, err)
			}
			continue
		}
		if recovered != nil || pgerror.CodeOf(err) != pgerror.CardinalityViolation {
			t.Errorf("panic at %d, conflict at %d: recovered %v, error %v; want the conflict's error", c.panicAt, c.conflictAt, recovered, err)
		}
	}
}

// TestReleasedApplierHoldsNoStates: states a goroutine still held back when
// its applier went back to the pool (a put panicked) are dropped, not put
// into the cache by whichever batch takes the applier next.
func TestReleasedApplierHoldsNoStates(t *testing.T) {
	a := new(applier)
	a.held.add([]byte("key"), slotRef{slot: -1}, keyState{lastSeq: []byte{1}, lastRow: []byte("row")})
	a.held.add([]byte("other"), slotRef{slot: -1}, keyState{lastSeq: []byte{2}})
	a.release()
	if n := len(a.held.puts); n != 0 {
		t.Fatalf("a released applier still holds %d states back", n)
	}
}
