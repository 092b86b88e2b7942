package cdcexec

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"cdcdb/rowcodec"
	"cdcdb/types"
)

// TestSnapshotRowsSorted adds rows in random, ascending and descending key
// order, with budgets that keep everything in memory or spill every few
// rows, and reads them back: every row once, in key order, as added.
func TestSnapshotRowsSorted(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	f := &Flow{Name: "f", KeyPositions: []int{1}, KeyNames: []string{"id"}, FormatSeq: func(s []types.Value) string { return fmt.Sprint(s...) }}
	for _, tc := range []struct {
		name   string
		order  func(n int) []int
		budget int
	}{
		{"random, in memory", func(n int) []int { return rng.Perm(n) }, 0},
		{"random, spilled", func(n int) []int { return rng.Perm(n) }, 256},
		{"ascending, spilled", func(n int) []int { return identity(n) }, 512},
		{"descending, in memory", func(n int) []int { return reversed(identity(n)) }, 0},
		{"descending, spilled", func(n int) []int { return reversed(identity(n)) }, 300},
	} {
		n := 500 + rng.IntN(500)
		rows := f.NewSnapshotRows([]types.Value{int64(1)}, tc.budget, t.TempDir())
		for _, i := range tc.order(n) {
			vals := []types.Value{fmt.Sprintf("row %d", i), int64(i)}
			var err error
			if i%2 == 0 {
				err = rows.Add(vals)
			} else {
				enc, _ := rowcodec.EncodeRow(nil, vals)
				err = rows.AddEncoded([]types.Value{int64(i)}, enc)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if tc.budget > 0 && len(rows.runs) < 2 {
			t.Errorf("%s: %d runs, want several", tc.name, len(rows.runs))
		}
		src, closeSrc, err := rows.sorted()
		if err != nil {
			t.Fatal(err)
		}
		var prev []byte
		got := 0
		for {
			k, r, err := src.next()
			if err != nil {
				t.Fatal(err)
			}
			if k == nil {
				break
			}
			if prev != nil && bytes.Compare(prev, k) >= 0 {
				t.Fatalf("%s: keys out of order", tc.name)
			}
			prev = append(prev[:0], k...)
			vals, err := rowcodec.DecodeRow(r)
			if err != nil || len(vals) != 2 || vals[0] != fmt.Sprintf("row %d", got) || vals[1] != int64(got) {
				t.Fatalf("%s: row %d is %v (%v)", tc.name, got, vals, err)
			}
			got++
		}
		closeSrc()
		rows.Close()
		if got != n {
			t.Errorf("%s: %d rows back of %d", tc.name, got, n)
		}
	}
	// A NULL key is refused as it arrives.
	rows := f.NewSnapshotRows([]types.Value{int64(7)}, 0, "")
	if err := rows.Add([]types.Value{"x", nil}); err == nil || rows.Len() != 0 {
		t.Errorf("NULL key: %v, %d rows", err, rows.Len())
	}
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func reversed(xs []int) []int {
	for i, j := 0, len(xs)-1; i < j; i, j = i+1, j-1 {
		xs[i], xs[j] = xs[j], xs[i]
	}
	return xs
}
