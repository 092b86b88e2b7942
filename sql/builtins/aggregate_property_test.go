package builtins

import (
	"math/big"
	"math/rand"
	"testing"
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/sql/eval"
	"cdcdb/types"
)

// TestSumAgainstBigInt checks sum, count, min and max of random integers
// (of every integer width, NULLs among them) against math/big.
func TestSumAgainstBigInt(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	widths := map[types.OID]int64{types.Int2: 1 << 15, types.Int4: 1 << 31, types.Int8: 1 << 62}
	for round := 0; round < 200; round++ {
		for oid, limit := range widths {
			n := rng.Intn(50)
			rows := make([][]types.Value, n)
			want, some, count := new(big.Int), false, int64(0)
			var lo, hi int64
			for i := range rows {
				if rng.Intn(8) == 0 {
					rows[i] = []types.Value{nil}
					continue
				}
				v := rng.Int63n(limit) - rng.Int63n(limit)
				if oid == types.Int8 && rng.Intn(2) == 0 {
					v = v*2 + rng.Int63n(2) // reach the full width
				}
				rows[i] = []types.Value{v}
				count++
				want.Add(want, big.NewInt(v))
				if !some || v < lo {
					lo = v
				}
				if !some || v > hi {
					hi = v
				}
				some = true
			}
			results := map[string]types.Value{}
			for _, name := range []string{"sum", "count", "min", "max"} {
				call, err := Aggregates[name].Resolve(exactBinder{}, []eval.Expr{column(oid)}, false)
				if err != nil {
					t.Fatal(err)
				}
				st := call.NewState()
				for _, r := range rows {
					if err := st.Add(plainContext{}, r); err != nil {
						t.Fatalf("seed %d: %s: %v", seed, name, err)
					}
				}
				if results[name], err = st.Result(plainContext{}); err != nil {
					t.Fatalf("seed %d: %s: %v", seed, name, err)
				}
			}
			if results["count"] != count {
				t.Fatalf("seed %d: count %v, want %d", seed, results["count"], count)
			}
			if !some {
				if results["sum"] != nil || results["min"] != nil || results["max"] != nil {
					t.Fatalf("seed %d: no values gave %v", seed, results)
				}
				continue
			}
			var got string
			switch v := results["sum"].(type) {
			case int64:
				got = big.NewInt(v).String()
			case *apd.Decimal:
				got = v.Text('f')
			}
			if got != want.String() {
				t.Fatalf("seed %d: sum of %v over type %d: %s, want %s", seed, rows, oid, got, want)
			}
			if results["min"] != lo || results["max"] != hi {
				t.Fatalf("seed %d: min/max %v/%v, want %d/%d", seed, results["min"], results["max"], lo, hi)
			}
		}
	}
}
