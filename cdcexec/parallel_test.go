package cdcexec

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/storage"
	"cdcdb/types"
)

// TestSharedApplyMatchesOneGoroutine: batches of a few hundred keys (in
// order and late, with deletes, and now and then a conflict that fails the
// batch) applied by two goroutines leave every keyspace byte for byte as
// applying them on one does, and fail with the same errors. It runs the
// encoded continuation and, with a row check (whose unguarded counter
// -race would catch running on two goroutines at once), the general one.
func TestSharedApplyMatchesOneGoroutine(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	for _, withCheck := range []bool{false, true} {
		run := func(shared bool) (map[string][]string, []string, int) {
			parallelEnabled, helperFirst = shared, shared
			defer func() { parallelEnabled, helperFirst = true, false }()
			rng := rand.New(rand.NewPCG(seed, 7))
			db, f := openFlowOf(t, mixedFlow(100))
			cache := NewStateCache()
			// checked counts the rows checked in batches that succeeded
			// (one that fails may check rows after its first bad key on
			// two goroutines), inBatch in the batch under way.
			checked, inBatch := 0, 0
			var check RowCheck
			if withCheck {
				check = func(tuple []types.Value) error {
					inBatch++
					return nil
				}
			}
			var failures []string
			seq := int64(0)
			for batch := range 12 {
				var events []Event
				for range 400 {
					seq += 1 + rng.Int64N(3)
					s := seq
					if rng.IntN(5) == 0 {
						s = max(1, s-rng.Int64N(3000)) // late
					}
					events = append(events, mixedEvent(rng, rng.Int64N(300), s))
				}
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
				inBatch = 0
				err := db.Update(func(tx *storage.Tx) error {
					target, err := history.Open(tx, uint32(f.Target.OID), int64(1000+batch), true, true)
					if err != nil {
						return err
					}
					_, err = Apply(context.Background(), tx, f, target, events, cache, check)
					return err
				})
				if err == nil {
					checked += inBatch
				} else {
					if pgerror.CodeOf(err) != pgerror.CardinalityViolation {
						t.Fatal(err)
					}
					var pe *pgerror.Error
					errors.As(err, &pe)
					failures = append(failures, fmt.Sprintf("batch %d: %s %s", batch, pe.Message, pe.Detail))
				}
			}
			return keyspaceContents(t, db), failures, checked
		}
		before := sharedBatches.Load()
		one, oneFailures, oneChecked := run(false)
		if sharedBatches.Load() != before {
			t.Fatal("a helper applied keys with parallelEnabled off")
		}
		two, twoFailures, twoChecked := run(true)
		if sharedBatches.Load() == before {
			t.Fatal("no batch was applied with a helper")
		}
		// Three batches have conflicts put in; late events may make more.
		if len(oneFailures) < 3 || !slices.Equal(oneFailures, twoFailures) {
			t.Fatalf("check %v: failures on one goroutine:\n%q\non two:\n%q\nwant the same, at least three", withCheck, oneFailures, twoFailures)
		}
		if withCheck && (oneChecked == 0 || oneChecked != twoChecked) {
			t.Errorf("the row check ran %d times on one goroutine, %d on two", oneChecked, twoChecked)
		}
		if len(one) == 0 || len(one) != len(two) {
			t.Fatalf("check %v: %d keyspaces written on one goroutine, %d on two", withCheck, len(one), len(two))
		}
		for name, rows := range one {
			if got := two[name]; !slices.Equal(got, rows) {
				t.Fatalf("check %v: keyspace %s: %d entries on two goroutines, %d on one, and they differ", withCheck, name, len(got), len(rows))
			}
		}
	}
}

// TestSharedApplyPanicsInTheCaller: a panic while a key is applied, on
// either goroutine, comes out of Apply on the caller's (where the server
// recovers from it), after the helper stopped; the transaction then rolls
// back and the flow goes on.
func TestSharedApplyPanicsInTheCaller(t *testing.T) {
	helperFirst = true
	defer func() { helperFirst = false }()
	db, f := openFlowOf(t, mixedFlow(100))
	cache := NewStateCache()
	// The helper takes the first chunk of keys, 0 to 31; the session most
	// likely the second.
	for _, bad := range []int64{5, 40} {
		var events []Event
		for id := range int64(300) {
			events = append(events, testEvent(id, 1, "Leon"))
		}
		check := func(tuple []types.Value) error {
			if tuple[0] == bad {
				panic(fmt.Sprintf("boom at %d", bad))
			}
			return nil
		}
		var recovered any
		func() {
			defer func() { recovered = recover() }()
			_ = db.Update(func(tx *storage.Tx) error {
				target, err := history.Open(tx, uint32(f.Target.OID), 1000, true, true)
				if err != nil {
					return err
				}
				_, err = Apply(context.Background(), tx, f, target, events, cache, check)
				return err
			})
		}()
		if want := fmt.Sprintf("boom at %d", bad); !strings.Contains(fmt.Sprint(recovered), want) {
			t.Fatalf("recovered %v, want a panic with %q", recovered, want)
		}
	}
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
