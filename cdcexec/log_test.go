package cdcexec

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/storage"
	"cdcdb/storage/storagetest"
	"cdcdb/temporal"
	"cdcdb/types"
)

// testFlow is an SCD TYPE 2 flow with KEYS (id) over data columns (id,
// city) into a target (id, city, __start_at, __end_at) of table OID oid.
func testFlow(oid catalog.OID) *Flow {
	return &Flow{
		OID: oid, Name: "f", StoredAs: catalog.SCD2,
		Target: &catalog.Table{OID: oid + 1, NextAttnum: 5},
		Rules: temporal.Rules{
			Compare:    temporal.Lexicographic(compareTestValues),
			Equal:      func(a, b any) bool { return compareTestValues(a, b) == 0 },
			KeyColumns: temporal.ColumnsAt(0),
		},
		DataAttnums: []int16{1, 2}, KeyPositions: []int{0}, KeyNames: []string{"id"},
		StartAttnum: 3, EndAttnum: 4, SeqType: types.Of(types.Int8),
		FormatSeq: func(seq []types.Value) string { return fmt.Sprint(seq...) },
	}
}

// compareTestValues orders the values the test flows' columns hold.
func compareTestValues(a, b any) int {
	switch x := a.(type) {
	case int64:
		return cmp.Compare(x, b.(int64))
	case string:
		return cmp.Compare(x, b.(string))
	case *apd.Decimal:
		return x.Cmp(b.(*apd.Decimal))
	case float64:
		return types.Compare(types.Of(types.Float8), x, b)
	}
	panic(fmt.Sprintf("unexpected %T", a))
}

func testEvent(id, seq int64, city string) Event {
	e := Event{Kind: Upsert, Key: []types.Value{id}, Seq: []types.Value{seq}, Values: []types.Value{id, city}}
	if city == "" {
		e.Kind = Delete
	}
	return e
}

// targetRows lists a target's rows as text.
func targetRows(t *testing.T, tx *storage.Tx, f *Flow) []string {
	t.Helper()
	var out []string
	c := tx.Space(history.DataSpace(uint32(f.Target.OID))).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		_, tuple, err := history.Decode(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(tuple...))
	}
	return out
}

// openFlow opens a fresh database holding testFlow(100) and its target.
func openFlow(t *testing.T) (*storage.DB, *Flow) {
	t.Helper()
	return openFlowOf(t, testFlow(100))
}

// openFlowOf opens a fresh database holding flow f and its target.
func openFlowOf(t testing.TB, f *Flow) (*storage.DB, *Flow) {
	t.Helper()
	db := storagetest.Open(t)
	err := db.Update(func(tx *storage.Tx) error {
		if err := history.Create(tx, uint32(f.Target.OID)); err != nil {
			return err
		}
		return Prepare(tx, f)
	})
	if err != nil {
		t.Fatal(err)
	}
	return db, f
}

func applyAll(t *testing.T, tx *storage.Tx, f *Flow, events []Event) {
	t.Helper()
	applyCached(t, tx, f, events, nil)
}

// applyCached is applyAll through a flow state cache (nil: none).
func applyCached(t testing.TB, tx *storage.Tx, f *Flow, events []Event, cache *StateCache) {
	t.Helper()
	target, err := history.Open(tx, uint32(f.Target.OID), 1, true, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(context.Background(), tx, f, target, events, cache, nil); err != nil {
		t.Fatal(err)
	}
}

// TestLegacyHistoriesMigrate: a flow whose histories are stored the old way,
// one value per key in the "events" space, moves them to its log on its next
// batch and ends up as a flow that got every event the new way.
func TestLegacyHistoriesMigrate(t *testing.T) {
	db := storagetest.Open(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var first, second []Event
	for i := range 400 {
		e := testEvent(int64(1+rng.IntN(20)), int64(i+1), []string{"", "Oaxaca", "Leon", "Puebla"}[rng.IntN(4)])
		if i < 300 {
			first = append(first, e)
		} else {
			second = append(second, e)
		}
	}
	rng.Shuffle(len(second), func(i, j int) { second[i], second[j] = second[j], second[i] })
	legacy, fresh := testFlow(100), testFlow(200)
	err := db.Update(func(tx *storage.Tx) error {
		for _, f := range []*Flow{legacy, fresh} {
			if err := history.Create(tx, uint32(f.Target.OID)); err != nil {
				return err
			}
			if err := Prepare(tx, f); err != nil {
				return err
			}
			applyAll(t, tx, f, first)
		}
		// Rewrite the legacy flow's log in the old layout.
		log := tx.Space(catalog.FlowSpace(legacy.OID, logPart))
		old, err := tx.CreateSpace(catalog.FlowSpace(legacy.OID, legacyPart))
		if err != nil {
			return err
		}
		histories := map[string][]byte{}
		var keys []string
		c := log.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			n, err := legacy.keyPrefixLen(k)
			if err != nil {
				return err
			}
			key := string(k[:n])
			if _, ok := histories[key]; !ok {
				keys = append(keys, key)
			}
			histories[key] = append(binary.AppendUvarint(histories[key], uint64(len(v))), v...)
		}
		for _, k := range keys {
			if err := old.Put([]byte(k), histories[k]); err != nil {
				return err
			}
		}
		return tx.DropSpace(catalog.FlowSpace(legacy.OID, logPart))
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *storage.Tx) error {
		for _, f := range []*Flow{legacy, fresh} {
			applyAll(t, tx, f, second)
		}
		if tx.Space(catalog.FlowSpace(legacy.OID, legacyPart)) != nil {
			t.Error("legacy events space still there after migration")
		}
		got, want := targetRows(t, tx, legacy), targetRows(t, tx, fresh)
		if !slices.Equal(got, want) || len(want) == 0 {
			t.Errorf("migrated flow's target:\n%q\nwant\n%q", got, want)
		}
		var a, b [][]byte
		for _, pair := range []struct {
			f   *Flow
			out *[][]byte
		}{{legacy, &a}, {fresh, &b}} {
			c := tx.Space(catalog.FlowSpace(pair.f.OID, logPart)).Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				*pair.out = append(*pair.out, append(bytes.Clone(k), v...))
			}
		}
		if !slices.EqualFunc(a, b, bytes.Equal) || len(a) == 0 {
			t.Errorf("migrated log has %d entries, fresh %d, or they differ", len(a), len(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
