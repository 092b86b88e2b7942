package cdcexec

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/storage"
	"cdcdb/types"
)

// mixedFlow is an SCD TYPE 2 flow over data columns (id, city, amount,
// ratio) whose target has a column the flow does not write (attnum 3,
// between the data columns) and puts its period after them: values whose
// encodings are not the only ones of their value (1.0 and 1.00, 0 and -0)
// and NULLs meet the encoded path's comparisons, and its rows must be laid
// out by attnum.
func mixedFlow(oid catalog.OID) *Flow {
	f := testFlow(oid)
	f.Target = &catalog.Table{OID: oid + 1, NextAttnum: 8}
	f.DataAttnums = []int16{1, 2, 4, 5}
	f.StartAttnum, f.EndAttnum = 6, 7
	return f
}

// mixedFeed draws batches of mixedEvent over keys 0 to keys-1 with rising
// sequence values, one event in lateOneIn sent up to lateBy values late.
type mixedFeed struct {
	rng       *rand.Rand
	keys      int64
	lateOneIn int
	lateBy    int64
	seq       int64 // the last sequence value drawn
}

func (f *mixedFeed) batch(n int) []Event {
	events := make([]Event, 0, n)
	for range n {
		f.seq += 1 + f.rng.Int64N(3)
		s := f.seq
		if f.rng.IntN(f.lateOneIn) == 0 {
			s = max(1, s-f.rng.Int64N(f.lateBy)) // late
		}
		events = append(events, mixedEvent(f.rng, f.rng.Int64N(f.keys), s))
	}
	return events
}

func mixedEvent(rng *rand.Rand, id, seq int64) Event {
	if rng.IntN(8) == 0 {
		return Event{Kind: Delete, Key: []types.Value{id}, Seq: []types.Value{seq}, Values: []types.Value{id, nil, nil, nil}}
	}
	vals := []types.Value{id, nil, nil, nil}
	if rng.IntN(5) > 0 {
		vals[1] = []string{"Oaxaca", "Leon", "Puebla"}[rng.IntN(3)]
	}
	if rng.IntN(5) > 0 {
		// The same amount at different scales: equal values, unequal
		// encodings.
		vals[2] = apd.New(int64(10*rng.IntN(3)), -1-int32(rng.IntN(2)))
	}
	if rng.IntN(5) > 0 {
		vals[3] = []float64{0, math.Copysign(0, -1), 0.5}[rng.IntN(3)]
	}
	return Event{Kind: Upsert, Key: []types.Value{id}, Seq: []types.Value{seq}, Values: vals}
}

// TestEncodedSCD2MatchesGeneral: the same batches (in order and late, with
// deletes, identical and equal-but-differently-encoded updates, NULLs, a
// column the flow does not write) applied through the encoded continuation
// and through the general one leave every keyspace of the flow and its
// target (rows, their commit-time history, the log) byte for byte the same.
func TestEncodedSCD2MatchesGeneral(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	run := func(encoded bool) (map[string][]string, uint64) {
		var encodedKeys uint64
		rng := rand.New(rand.NewPCG(seed, 5))
		db, f := openFlowOf(t, mixedFlow(100))
		f.FastPathsOff.EncodedSCD2 = !encoded
		cache := NewStateCache()
		feed := mixedFeed{rng: rng, keys: 12, lateOneIn: 6, lateBy: 40}
		for batch := range 40 {
			events := feed.batch(30)
			err := db.Update(func(tx *storage.Tx) error {
				target, err := history.Open(tx, uint32(f.Target.OID), int64(1000+batch), true, true)
				if err != nil {
					return err
				}
				st, err := Apply(context.Background(), tx, f, target, events, cache, nil)
				encodedKeys += st.EncodedSCD2Keys
				return err
			})
			if err != nil && pgerror.CodeOf(err) != pgerror.CardinalityViolation {
				t.Fatal(err)
			}
		}
		return keyspaceContents(t, db), encodedKeys
	}
	general, generalKeys := run(false)
	encoded, encodedKeys := run(true)
	if len(general) == 0 {
		t.Fatal("nothing was written")
	}
	if generalKeys != 0 || encodedKeys == 0 {
		t.Fatalf("keys continued on encodings: %d with the fast path off, %d with it on", generalKeys, encodedKeys)
	}
	t.Logf("%d keys continued on encodings", encodedKeys)
	for name, rows := range general {
		if got := encoded[name]; !slices.Equal(got, rows) {
			t.Fatalf("keyspace %s: encoded path wrote %d entries, general %d, and they differ", name, len(got), len(rows))
		}
	}
	if len(encoded) != len(general) {
		t.Fatalf("encoded path wrote %d keyspaces, general %d", len(encoded), len(general))
	}
}

// keyspaceContents lists every keyspace of db, each entry as "key=value"
// in hex, in key order.
func keyspaceContents(t *testing.T, db *storage.DB) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := db.View(func(tx *storage.Tx) error {
		for _, name := range tx.Spaces("") {
			c := tx.Space(name).Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				out[name] = append(out[name], fmt.Sprintf("%x=%x", k, v))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
