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
