package history

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"cdcdb/storage"
	"cdcdb/storage/storagetest"
	"cdcdb/types"
)

// TestChangesMatchModel writes random inserts, updates and deletes (several
// per commit, some to the same key) to a table with and without embedded
// versions, and checks Changes over random windows, and PendingChanges in
// each commit, against the differences of a plain map's states.
func TestChangesMatchModel(t *testing.T) {
	for _, embed := range []bool{false, true} {
		t.Run(fmt.Sprintf("embed=%v", embed), func(t *testing.T) {
			seed := rand.Uint64()
			t.Logf("seed %d", seed)
			rng := rand.New(rand.NewPCG(seed, 7))
			db := storagetest.Open(t)
			const table = 3
			if err := db.Update(func(tx *storage.Tx) error { return Create(tx, table) }); err != nil {
				t.Fatal(err)
			}
			model := map[string]int64{}
			var commits []int64
			states := []map[string]int64{{}} // states[i]: after commits[i-1]
			var writtenIn []map[string]bool  // the keys commits[i] wrote
			now := int64(5000)
			for c := 0; c < 120; c++ {
				now += 1 + rng.Int64N(20)
				next := maps(model)
				written := map[string]bool{}
				err := db.Update(func(tx *storage.Tx) error {
					tb, err := Open(tx, table, now, true, embed)
					if err != nil {
						return err
					}
					for op := 1 + rng.IntN(4); op > 0; op-- {
						k := fmt.Sprintf("k%02d", rng.IntN(12))
						written[k] = true
						if _, ok := next[k]; ok && rng.IntN(3) == 0 {
							delete(next, k)
							if err := tb.Delete([]byte(k)); err != nil {
								return err
							}
							continue
						}
						v := rng.Int64N(1000)
						next[k] = v
						if err := tb.Put([]byte(k), []types.Value{v}); err != nil {
							return err
						}
					}
					var pending []string
					if err := PendingChanges(tx, table, now, func(ch Change) error {
						pending = append(pending, describe(ch))
						return nil
					}); err != nil {
						return err
					}
					if want := diff(model, next, written, now); !slices.Equal(pending, want) {
						return fmt.Errorf("commit %d: pending changes %v, want %v", now, pending, want)
					}
					return LogChanges(tx, table, now)
				})
				if err != nil {
					t.Fatal(err)
				}
				model = next
				commits = append(commits, now)
				states = append(states, maps(model))
				writtenIn = append(writtenIn, written)
			}
			err := db.View(func(tx *storage.Tx) error {
				for w := 0; w < 200; w++ {
					i, j := rng.IntN(len(commits)), rng.IntN(len(commits))
					if i > j {
						i, j = j, i
					}
					// Bounds on, just before and just after commits.
					from, to := commits[i]-rng.Int64N(2), commits[j]+rng.Int64N(2)
					var got, want []string
					if err := Changes(tx, table, from, to, func(ch Change) error {
						got = append(got, describe(ch))
						return nil
					}); err != nil {
						return err
					}
					for c := range commits {
						if commits[c] >= from && commits[c] <= to {
							want = append(want, diff(states[c], states[c+1], writtenIn[c], commits[c])...)
						}
					}
					if !slices.Equal(got, want) {
						return fmt.Errorf("Changes(%d, %d) = %v\nwant %v", from, to, got, want)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

func maps(m map[string]int64) map[string]int64 {
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// diff lists the changes from state a to state b of the keys a commit at
// ts wrote, by key.
func diff(a, b map[string]int64, written map[string]bool, ts int64) []string {
	var sorted []string
	for k := range written {
		sorted = append(sorted, k)
	}
	slices.Sort(sorted)
	var out []string
	for _, k := range sorted {
		va, inA := a[k]
		vb, inB := b[k]
		switch {
		case inA && inB: // a value written again is a new version too
			out = append(out, fmt.Sprintf("%d %s %d->%d", ts, k, va, vb))
		case inA:
			out = append(out, fmt.Sprintf("%d %s %d->-", ts, k, va))
		case inB:
			out = append(out, fmt.Sprintf("%d %s -->%d", ts, k, vb))
		}
	}
	return out
}

func describe(ch Change) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s ", ch.Commit, ch.Key)
	if ch.Before != nil {
		fmt.Fprintf(&b, "%d", ch.Before[0])
	} else {
		b.WriteString("-")
	}
	b.WriteString("->")
	if ch.After != nil {
		fmt.Fprintf(&b, "%d", ch.After[0])
	} else {
		b.WriteString("-")
	}
	return b.String()
}
