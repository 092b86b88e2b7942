package history

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"cdcdb/storage"
	"cdcdb/storage/storagetest"
	"cdcdb/types"
)

// buildHistory writes `keys` rows and then `versions` updates spread over
// them, one write transaction per step, so every update archives a version.
// It returns, per key, the value that was current from each commit time.
func buildHistory(t testing.TB, db *storage.DB, keys, versions int, rng *rand.Rand) map[string][][2]int64 {
	t.Helper()
	const table = 1
	truth := map[string][][2]int64{} // key -> list of (start, value)
	now := int64(1000)
	write := func(key []byte, val int64) {
		err := db.Update(func(tx *storage.Tx) error {
			if err := Create(tx, table); err != nil {
				return err
			}
			now += 10
			tb, err := Open(tx, table, now, true)
			if err != nil {
				return err
			}
			return tb.Put(key, []types.Value{val})
		})
		if err != nil {
			t.Fatal(err)
		}
		truth[string(key)] = append(truth[string(key)], [2]int64{now, val})
	}
	keyOf := func(i int) []byte {
		k, _ := storage.AppendKey(nil, int64(i))
		return k
	}
	for i := 0; i < keys; i++ {
		write(keyOf(i), int64(i))
	}
	for i := 0; i < versions; i++ {
		write(keyOf(rng.IntN(keys)), int64(keys+i))
	}
	return truth
}

// TestGetAsOfMatchesBruteForce checks point reads at random times against
// the list of every version written.
func TestGetAsOfMatchesBruteForce(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	db := storagetest.Open(t)
	truth := buildHistory(t, db, 20, 400, rng)
	err := db.View(func(tx *storage.Tx) error {
		for key, versions := range truth {
			for probe := int64(990); probe < versions[len(versions)-1][0]+30; probe += 3 {
				want, ok := int64(-1), false
				for _, v := range versions {
					if v[0] <= probe {
						want, ok = v[1], true
					}
				}
				got, found, err := GetAsOf(tx, 1, []byte(key), probe)
				if err != nil {
					return err
				}
				if found != ok || (ok && got.Tuple[0] != want) {
					return fmt.Errorf("key %x at %d: got %v %v, want %v %v", key, probe, got.Tuple, found, want, ok)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestScanAsOfReadsOnlyVersionsEndedAfter checks whole-table reads against
// brute force, and that pruning removes exactly the versions that ended
// before the cutoff.
func TestScanAsOfAndPrune(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	db := storagetest.Open(t)
	truth := buildHistory(t, db, 10, 100, rng)
	asOf := func(ts int64) map[string]int64 {
		out := map[string]int64{}
		for key, versions := range truth {
			for _, v := range versions {
				if v[0] <= ts {
					out[key] = v[1]
				}
			}
		}
		return out
	}
	check := func(ts int64) {
		want := asOf(ts)
		got := map[string]int64{}
		err := db.View(func(tx *storage.Tx) error {
			return ScanAsOf(tx, 1, ts, func(v Version) error {
				if _, dup := got[string(v.Key)]; dup {
					return fmt.Errorf("key %x twice", v.Key)
				}
				got[string(v.Key)] = v.Tuple[0].(int64)
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("as of %d: got %v want %v", ts, got, want)
		}
	}
	for ts := int64(1000); ts < 1000+10*111+20; ts += 37 {
		check(ts)
	}
	var before int
	_ = db.View(func(tx *storage.Tx) error { before = Count(tx, 1); return nil })
	cutoff := int64(1500)
	var removed int
	err := db.Update(func(tx *storage.Tx) error {
		var err error
		removed, err = Prune(tx, 1, cutoff)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	wantRemoved := 0
	for _, versions := range truth {
		for i := 0; i+1 < len(versions); i++ {
			if versions[i+1][0] < cutoff { // ended before the cutoff
				wantRemoved++
			}
		}
	}
	if removed != wantRemoved {
		t.Fatalf("pruned %d versions, want %d (of %d)", removed, wantRemoved, before)
	}
	check(cutoff + 5) // reads at or after the cutoff are unchanged
}

// BenchmarkGetAsOf shows point AS OF cost against history size: each read
// is a seek, so it stays flat as versions grow tenfold and a hundredfold.
func BenchmarkGetAsOf(b *testing.B) {
	for _, versions := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("versions=%d", versions), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			db := storagetest.Open(b)
			// One transaction per 1,000 versions keeps setup fast.
			now := int64(1000)
			keys := 100
			for done := 0; done < versions; done += 1000 {
				err := db.Update(func(tx *storage.Tx) error {
					if err := Create(tx, 1); err != nil {
						return err
					}
					for i := 0; i < 1000; i++ {
						now += 10
						tb, err := Open(tx, 1, now, true)
						if err != nil {
							return err
						}
						k, _ := storage.AppendKey(nil, int64(rng.IntN(keys)))
						if err := tb.Put(k, []types.Value{int64(i)}); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			tx, err := db.Begin(false)
			if err != nil {
				b.Fatal(err)
			}
			defer tx.Rollback()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k, _ := storage.AppendKey(nil, int64(i%keys))
				if _, _, err := GetAsOf(tx, 1, k, 1000+int64(rng.IntN(versions*10))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestInsertAfterDeleteKeepsTheEndedVersion: Insert skips the lookup Put
// makes, which is right only because a key without a current version has
// nothing to archive; the version a Delete ended stays readable.
func TestInsertAfterDeleteKeepsTheEndedVersion(t *testing.T) {
	db := storagetest.Open(t)
	key, _ := storage.AppendKey(nil, int64(1))
	step := func(now int64, fn func(tb *Table) error) {
		t.Helper()
		err := db.Update(func(tx *storage.Tx) error {
			if err := Create(tx, 1); err != nil {
				return err
			}
			tb, err := Open(tx, 1, now, true)
			if err != nil {
				return err
			}
			return fn(tb)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	step(100, func(tb *Table) error { return tb.Insert(key, []types.Value{int64(1)}) })
	step(200, func(tb *Table) error { return tb.Delete(key) })
	step(300, func(tb *Table) error { return tb.Insert(key, []types.Value{int64(2)}) })
	for _, tc := range []struct {
		ts   int64
		want any // nil: no version
	}{{150, int64(1)}, {250, nil}, {350, int64(2)}} {
		var got any
		err := db.View(func(tx *storage.Tx) error {
			v, ok, err := GetAsOf(tx, 1, key, tc.ts)
			if ok {
				got = v.Tuple[0]
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("as of %d: got %v, want %v", tc.ts, got, tc.want)
		}
	}
}

// TestTupleIsWhatEncodeWrote: Tuple finds the encoded tuple after a current
// row's version start, and refuses a value too short to hold one.
func TestTupleIsWhatEncodeWrote(t *testing.T) {
	tuple := []types.Value{int64(7), "x", nil}
	v, err := Encode(123, tuple)
	if err != nil {
		t.Fatal(err)
	}
	b, ok := Tuple(v)
	if !ok {
		t.Fatal("too short")
	}
	want, _ := storage.EncodeRow(nil, tuple)
	if string(b) != string(want) || Start(v) != 123 {
		t.Errorf("tuple bytes %x, start %d; encoded %x at 123", b, Start(v), want)
	}
	if _, ok := Tuple(v[:7]); ok {
		t.Error("a value shorter than the version start has a tuple")
	}
}
