package spill

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"cdcdb/rowcodec"
	"cdcdb/types"
)

var testCodec = Codec{Append: rowcodec.EncodeRow, Decode: rowcodec.DecodeRow}

// compareFirst orders rows by their first value (an int64), so rows with
// equal keys tell by their second value whether the order was stable.
func compareFirst(a, b []types.Value) int { return cmp.Compare(a[0].(int64), b[0].(int64)) }

func randomRows(rng *rand.Rand, n, keys int) [][]types.Value {
	rows := make([][]types.Value, n)
	for i := range rows {
		rows[i] = []types.Value{int64(rng.IntN(keys)), int64(i), fmt.Sprintf("row %d %s", i, string(make([]byte, rng.IntN(40))))}
	}
	return rows
}

// TestSorterMatchesStableSort holds the external merge sort (with and
// without a bound, spilling at a few hundred bytes so every path runs,
// multi-pass merges included) to slices.SortStableFunc on random rows.
func TestSorterMatchesStableSort(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for trial := range 40 {
		n := rng.IntN(3000)
		rows := randomRows(rng, n, 1+rng.IntN(50))
		workMem := int64(200 + rng.IntN(20000))
		var bound int64
		if trial%2 == 1 {
			bound = int64(1 + rng.IntN(n+10))
		}
		budget := NewBudget(0)
		s := NewSorter(SortConfig{Compare: compareFirst, Codec: testCodec, Dir: t.TempDir(), WorkMem: workMem, Account: budget.NewAccount("sort"), Bound: bound})
		for _, r := range rows {
			if err := s.Add(slices.Clone(r)); err != nil {
				t.Fatal(err)
			}
		}
		out, err := s.Finish()
		if err != nil {
			t.Fatal(err)
		}
		var got [][]types.Value
		for {
			r, err := out.Next()
			if err != nil {
				t.Fatal(err)
			}
			if r == nil {
				break
			}
			got = append(got, r)
		}
		out.Close()
		want := slices.Clone(rows)
		slices.SortStableFunc(want, compareFirst)
		if bound > 0 && int64(len(want)) > bound {
			want = want[:bound]
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("trial %d (n %d, work_mem %d, bound %d, spilled %v): sorted rows differ", trial, n, workMem, bound, s.Spilled())
		}
		if budget.Used() != 0 {
			t.Fatalf("trial %d: %d bytes still accounted after Close", trial, budget.Used())
		}
	}
}

func TestBudgetRefusesPastItsLimit(t *testing.T) {
	b := NewBudget(1000)
	a, c := b.NewAccount("a"), b.NewAccount("c")
	if err := a.Grow(600); err != nil {
		t.Fatal(err)
	}
	if err := c.Grow(500); err == nil {
		t.Fatal("a grow past the budget succeeded")
	}
	if err := c.Grow(400); err != nil {
		t.Fatal(err)
	}
	a.Close()
	c.Close()
	if b.Used() != 0 {
		t.Fatalf("used %d after closing every account", b.Used())
	}
}
