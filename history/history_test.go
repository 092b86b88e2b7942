package history

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"cdcdb/rowcodec"
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
			tb, err := Open(tx, table, now, true, false)
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
		k, _ := rowcodec.AppendKey(nil, int64(i))
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
						tb, err := Open(tx, 1, now, true, false)
						if err != nil {
							return err
						}
						k, _ := rowcodec.AppendKey(nil, int64(rng.IntN(keys)))
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
				k, _ := rowcodec.AppendKey(nil, int64(i%keys))
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
	key, _ := rowcodec.AppendKey(nil, int64(1))
	step := func(now int64, fn func(tb *Table) error) {
		t.Helper()
		err := db.Update(func(tx *storage.Tx) error {
			if err := Create(tx, 1); err != nil {
				return err
			}
			tb, err := Open(tx, 1, now, true, false)
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
	want, _ := rowcodec.EncodeRow(nil, tuple)
	if string(b) != string(want) || Start(v) != 123 {
		t.Errorf("tuple bytes %x, start %d; encoded %x at 123", b, Start(v), want)
	}
	if _, ok := Tuple(v[:7]); ok {
		t.Error("a value shorter than the version start has a tuple")
	}
}

// modelVersion is one version of a key in TestHistoryMatchesModel's model.
type modelVersion struct {
	start, end int64 // end 0: current
	val        int64
}

// TestHistoryMatchesModel runs random writes (updates, deletes, inserts
// after deletes, several writes of one key in one transaction) through
// tables that archive every replaced version at once and through tables
// that embed it in the new value, and checks every way of reading history
// (a key at a time, the whole table as of an instant, the versions
// overlapping a period) against a model of every version, before and after
// a prune.
func TestHistoryMatchesModel(t *testing.T) {
	for _, embed := range []bool{false, true} {
		t.Run(fmt.Sprintf("embed=%v", embed), func(t *testing.T) {
			seed := rand.Uint64()
			t.Logf("seed %d", seed)
			rng := rand.New(rand.NewPCG(seed, 3))
			db := storagetest.Open(t)
			model := map[string][]modelVersion{}
			keyOf := func(i int) []byte {
				k, _ := rowcodec.AppendKey(nil, int64(i))
				return k
			}
			now := int64(1000)
			for step := range 300 {
				now += 10
				// Half the keys are left alone in the second half, so their
				// last changes (and what those embed) end before the prune's
				// cutoff.
				keys := 8
				if step >= 150 {
					keys = 4
				}
				err := db.Update(func(tx *storage.Tx) error {
					if err := Create(tx, 1); err != nil {
						return err
					}
					tb, err := Open(tx, 1, now, true, embed)
					if err != nil {
						return err
					}
					for range 1 + rng.IntN(3) {
						key := keyOf(rng.IntN(keys))
						vs := model[string(key)]
						var cur *modelVersion
						if n := len(vs); n > 0 && vs[n-1].end == 0 {
							cur = &vs[n-1]
						}
						if rng.IntN(4) == 0 {
							if err := tb.Delete(key); err != nil {
								return err
							}
							switch {
							case cur == nil:
							case cur.start == now: // never visible
								vs = vs[:len(vs)-1]
							default:
								cur.end = now
							}
							model[string(key)] = vs
							continue
						}
						val := rng.Int64N(1000)
						var err error
						if cur == nil && rng.IntN(2) == 0 {
							err = tb.Insert(key, []types.Value{val})
						} else {
							err = tb.Put(key, []types.Value{val})
						}
						if err != nil {
							return err
						}
						switch {
						case cur != nil && cur.start == now:
							cur.val = val
						case cur != nil:
							cur.end = now
							vs = append(vs, modelVersion{start: now, val: val})
						default:
							vs = append(vs, modelVersion{start: now, val: val})
						}
						model[string(key)] = vs
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			check := func(pruned int64) {
				t.Helper()
				visible := func(v modelVersion) bool { return v.end == 0 || v.end >= pruned }
				err := db.View(func(tx *storage.Tx) error {
					for ts := int64(995); ts <= now+10; ts += 7 {
						want := map[string]int64{}
						for key, vs := range model {
							for _, v := range vs {
								if v.start <= ts && (v.end == 0 || v.end > ts) && visible(v) {
									want[key] = v.val
								}
							}
							got, ok, err := GetAsOf(tx, 1, []byte(key), ts)
							if err != nil {
								return err
							}
							if w, has := want[key]; ok != has || (ok && got.Tuple[0] != w) {
								return fmt.Errorf("GetAsOf %x at %d: %v %v, want %v %v", key, ts, got.Tuple, ok, w, has)
							}
						}
						got := map[string]int64{}
						err := ScanAsOf(tx, 1, ts, func(v Version) error {
							if _, dup := got[string(v.Key)]; dup {
								return fmt.Errorf("ScanAsOf %d: key %x twice", ts, v.Key)
							}
							got[string(v.Key)] = v.Tuple[0].(int64)
							return nil
						})
						if err != nil {
							return err
						}
						if fmt.Sprint(got) != fmt.Sprint(want) {
							return fmt.Errorf("ScanAsOf %d: %v, want %v", ts, got, want)
						}
						to := ts + int64(rng.IntN(60)) - 10
						if rng.IntN(5) == 0 {
							to = -1
						}
						var wantOver, gotOver []string
						for key, vs := range model {
							for _, v := range vs {
								if (to < 0 || v.start < to) && (v.end == 0 || v.end > ts) && visible(v) {
									wantOver = append(wantOver, fmt.Sprintf("%x@%d-%d=%d", key, v.start, v.end, v.val))
								}
							}
						}
						err = ScanOverlapping(tx, 1, ts, to, func(v Version) error {
							gotOver = append(gotOver, fmt.Sprintf("%x@%d-%d=%d", v.Key, v.Start, v.End, v.Tuple[0]))
							return nil
						})
						if err != nil {
							return err
						}
						slices.Sort(wantOver)
						slices.Sort(gotOver)
						if !slices.Equal(gotOver, wantOver) {
							return fmt.Errorf("ScanOverlapping [%d, %d): %v, want %v", ts, to, gotOver, wantOver)
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			check(0)
			cutoff := 1000 + (now-1000)/2
			err := db.Update(func(tx *storage.Tx) error {
				_, err := Prune(tx, 1, cutoff)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			check(cutoff)
		})
	}
}
