package temporal

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The replays run on a key's whole history for every batch touching the key,
// so their cost per event matters. These benchmarks back the costs doc.go
// states: linear for SCD TYPE 1 and 2, and for BITEMPORAL when events arrive
// in order on both axes.

func benchmarkHistory(b *testing.B, n int, bitemporal bool, order func(i int) (bt, st int)) []Event {
	b.Helper()
	r := testRules(0)
	rng := rand.New(rand.NewPCG(1, 2))
	events := make([]Event, n)
	for i := range events {
		bt, st := order(i)
		e := Event{Seq: seq(bt), Values: []any{1, fmt.Sprint("v", rng.IntN(4)), rng.IntN(3)}}
		if bitemporal {
			e.SysSeq = seq(st)
		}
		events[i] = e
	}
	history, err := r.Merge(nil, events)
	if err != nil {
		b.Fatal(err)
	}
	return history
}

func inOrder(i int) (int, int)          { return i, i }
func businessReversed(i int) (int, int) { return 1_000_000 - i, i }

func BenchmarkReplaySCD1(b *testing.B) {
	r := testRules(0)
	history := benchmarkHistory(b, 10_000, false, inOrder)
	for b.Loop() {
		if _, _, err := r.ReplaySCD1(history, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReplaySCD2(b *testing.B) {
	r := testRules(0)
	history := benchmarkHistory(b, 10_000, false, inOrder)
	for b.Loop() {
		if _, err := r.ReplaySCD2(history); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReplayBitemporal(b *testing.B) {
	for _, bench := range []struct {
		name  string
		order func(int) (int, int)
	}{
		{"in order", inOrder},
		{"business time reversed", businessReversed},
	} {
		for _, n := range []int{1_000, 10_000} {
			b.Run(fmt.Sprintf("%s/%d", bench.name, n), func(b *testing.B) {
				r := testRules(0)
				history := benchmarkHistory(b, n, true, bench.order)
				for b.Loop() {
					if _, err := r.ReplayBitemporal(history); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkMergeOneEvent(b *testing.B) {
	r := testRules(0)
	history := benchmarkHistory(b, 10_000, false, inOrder)
	next := []Event{upsert(20_000, 1, "new", 1)}
	for b.Loop() {
		if _, err := r.Merge(history, next); err != nil {
			b.Fatal(err)
		}
	}
}
