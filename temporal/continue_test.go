package temporal

import (
	"slices"
	"testing"
)

// TestContinueEqualsReplay: for random flows and histories cut at a random
// point, continuing the replay of the first part with the rest gives what
// replaying the whole history gives.
func TestContinueEqualsReplay(t *testing.T) {
	for _, kind := range []flowKind{scd1, scd2} {
		runProperty(t, kind, func(t *testing.T, c *flowCase) {
			var mark Seq
			for _, s := range c.truncates {
				mark = c.rules.LaterTruncateMark(mark, s)
			}
			for k := range c.keys {
				history, refused := c.mergeArrivals(t, k)
				if refused {
					continue
				}
				for cut := range len(history) + 1 {
					head, tail := history[:cut], history[cut:]
					if kind == scd1 {
						row, exists, _ := c.rules.ReplaySCD1(head, mark)
						got, gotExists, err := c.rules.ContinueSCD1(row, exists, tail, mark)
						if err != nil {
							t.Fatal(err)
						}
						want, wantExists, _ := c.rules.ReplaySCD1(history, mark)
						if gotExists != wantExists || !slices.Equal(formatValues(got), formatValues(want)) {
							t.Fatalf("key %v cut at %d: continued %v (%v), replayed %v (%v)", c.keys[k], cut, got, gotExists, want, wantExists)
						}
						continue
					}
					versions, _ := c.rules.ReplaySCD2(head)
					var open *Version
					if n := len(versions); n > 0 && versions[n-1].End == nil {
						open = &versions[n-1]
						versions = versions[:n-1]
					}
					closed, next, err := c.rules.ContinueSCD2(open, tail)
					if err != nil {
						t.Fatal(err)
					}
					got := append(append([]Version(nil), versions...), closed...)
					if next != nil {
						got = append(got, *next)
					}
					want, _ := c.rules.ReplaySCD2(history)
					if g, w := formatVersions(got), formatVersions(want); !slices.Equal(g, w) {
						t.Fatalf("key %v cut at %d:\ncontinued %q\nreplayed  %q", c.keys[k], cut, g, w)
					}
				}
			}
		})
	}
}

func TestContinueRefusesUnsortedEvents(t *testing.T) {
	r := testRules(0)
	if _, _, err := r.ContinueSCD2(nil, []Event{upsert(2, 1, "a"), upsert(1, 1, "b")}); err != ErrUnsortedContinuation {
		t.Fatalf("out of order: %v", err)
	}
	if _, _, err := r.ContinueSCD1(nil, false, []Event{upsert(1, 1, "a"), upsert(1, 1, "a")}, nil); err != ErrUnsortedContinuation {
		t.Fatalf("repeated: %v", err)
	}
}

// TestContinueBitemporalEqualsReplay: for random bitemporal histories cut
// (in system order) where the rest comes after the start on both axes,
// continuing the start's replay with the rest gives the whole replay.
func TestContinueBitemporalEqualsReplay(t *testing.T) {
	tested := 0
	runProperty(t, bitemporal, func(t *testing.T, c *flowCase) {
		for k := range c.keys {
			history, refused := c.mergeArrivals(t, k)
			if refused || len(history) == 0 {
				continue
			}
			bySystem := slices.Clone(history)
			slices.SortStableFunc(bySystem, func(a, b Event) int { return c.rules.compareSystem(a.SysSeq, b.SysSeq) })
			for cut := range len(bySystem) {
				head, tail := bySystem[:cut], bySystem[cut:]
				if !laterOnBothAxes(c.rules, head, tail) {
					continue
				}
				tested++
				headSorted, _ := c.rules.Merge(nil, head)
				tailSorted, _ := c.rules.Merge(nil, tail)
				rows, err := c.rules.ReplayBitemporal(headSorted)
				if err != nil {
					t.Fatal(err)
				}
				var last *BiVersion
				for i := range rows {
					if rows[i].SysEnd == nil && (last == nil || c.rules.Compare(rows[i].Start, last.Start) > 0) {
						last = &rows[i]
					}
				}
				retired, added, err := c.rules.ContinueBitemporal(last, tailSorted)
				if err != nil {
					t.Fatalf("key %v cut %d: %v", c.keys[k], cut, err)
				}
				got := slices.Clone(rows)
				for _, r := range retired {
					i := slices.IndexFunc(got, func(x BiVersion) bool { return x.SysEnd == nil && c.rules.sameBiRow(x, r) })
					if i < 0 {
						t.Fatalf("key %v cut %d: retired row %v is not a current row", c.keys[k], cut, r)
					}
					got[i] = r
				}
				got = append(got, added...)
				want, _ := c.rules.ReplayBitemporal(history)
				g, w := formatBiVersions(got), formatBiVersions(want)
				slices.Sort(g)
				slices.Sort(w)
				if !slices.Equal(g, w) {
					t.Fatalf("key %v cut %d:\ncontinued %q\nreplayed  %q", c.keys[k], cut, g, w)
				}
			}
		}
	})
	t.Logf("%d continuations checked", tested)
	if tested < 100 {
		t.Fatalf("only %d continuations checked", tested)
	}
}

// laterOnBothAxes reports whether every event of tail comes after every
// event of head in business and in system time, with system times not
// decreasing in business order within tail.
func laterOnBothAxes(r Rules, head, tail []Event) bool {
	for _, a := range head {
		for _, b := range tail {
			if r.Compare(a.Seq, b.Seq) >= 0 || r.compareSystem(a.SysSeq, b.SysSeq) >= 0 {
				return false
			}
		}
	}
	byBusiness := slices.Clone(tail)
	slices.SortStableFunc(byBusiness, func(a, b Event) int { return r.Compare(a.Seq, b.Seq) })
	for i := 1; i < len(byBusiness); i++ {
		if r.Compare(byBusiness[i-1].Seq, byBusiness[i].Seq) == 0 || r.compareSystem(byBusiness[i-1].SysSeq, byBusiness[i].SysSeq) > 0 {
			return false
		}
	}
	return true
}
