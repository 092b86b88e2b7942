package history

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"cdcdb/rowcodec"
	"cdcdb/storage"
	"cdcdb/storage/storagetest"
	"cdcdb/types"
)

// TestRewriteTuplesConvertsEveryVersion: after RewriteTuples, every read as
// of any time finds the version it found before, converted, with the same
// period; current versions are told from past ones; a failing conversion
// writes nothing. Tables that archive at once and tables that embed the
// previous version are both checked.
func TestRewriteTuplesConvertsEveryVersion(t *testing.T) {
	for _, embed := range []bool{false, true} {
		t.Run(fmt.Sprintf("embed=%v", embed), func(t *testing.T) {
			seed := rand.Uint64()
			t.Logf("seed %d", seed)
			rng := rand.New(rand.NewPCG(seed, 3))
			db := storagetest.Open(t)
			const table, keys = 1, 12
			now := int64(1000)
			for i := 0; i < 150; i++ {
				now += 10
				key, _ := rowcodec.AppendKey(nil, int64(rng.IntN(keys)))
				val := int64(i)
				err := db.Update(func(tx *storage.Tx) error {
					if err := Create(tx, table); err != nil {
						return err
					}
					tb, err := Open(tx, table, now, true, embed)
					if err != nil {
						return err
					}
					if rng.IntN(8) == 0 {
						return tb.Delete(key)
					}
					return tb.Put(key, []types.Value{val, "x"})
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			type seen struct {
				first      types.Value
				rest       types.Value
				start, end int64
			}
			read := func() map[string]seen {
				out := map[string]seen{}
				err := db.View(func(tx *storage.Tx) error {
					for probe := int64(1000); probe <= now+10; probe += 5 {
						if err := ScanAsOf(tx, table, probe, func(v Version) error {
							out[fmt.Sprintf("%x@%d", v.Key, probe)] = seen{v.Tuple[0], v.Tuple[1], v.Start, v.End}
							return nil
						}); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			before := read()
			// A conversion that fails on a past version changes nothing.
			errStop := errors.New("stop")
			err := db.Update(func(tx *storage.Tx) error {
				return RewriteTuples(tx, table, func(key []byte, tuple []types.Value, current bool) ([]types.Value, error) {
					if !current {
						return nil, errStop
					}
					return []types.Value{"changed", tuple[1]}, nil
				})
			})
			if !errors.Is(err, errStop) {
				t.Fatalf("failing conversion: %v", err)
			}
			if after := read(); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Fatal("a failed rewrite changed what reads find")
			}
			currents := 0
			err = db.Update(func(tx *storage.Tx) error {
				return RewriteTuples(tx, table, func(key []byte, tuple []types.Value, current bool) ([]types.Value, error) {
					if current {
						currents++
					}
					return []types.Value{fmt.Sprintf("v%d", tuple[0]), tuple[1]}, nil
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			if currents > keys {
				t.Errorf("%d current rows converted, at most %d exist", currents, keys)
			}
			after := read()
			if len(after) != len(before) {
				t.Fatalf("%d versions read after, %d before", len(after), len(before))
			}
			for k, b := range before {
				want := seen{fmt.Sprintf("v%d", b.first), b.rest, b.start, b.end}
				if after[k] != want {
					t.Errorf("%s: after %v, want %v", k, after[k], want)
				}
			}
		})
	}
}
