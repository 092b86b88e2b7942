package sql

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"cdcdb/history"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// TestStoredPeriodTestMatchesPeriodExpr compares the test on encoded rows
// with periodExpr, which decides on decoded ones, for random periods and
// bounds (NULLs, empty and reversed periods, equal instants included), of
// integers and of times.
func TestStoredPeriodTestMatchesPeriodExpr(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 3))
	value := func(asTime bool) types.Value {
		if r.IntN(8) == 0 {
			return nil
		}
		n := int64(r.IntN(12) - 2)
		if r.IntN(20) == 0 {
			n = int64(r.Uint64()) // far from the others, either sign
		}
		if asTime {
			if r.IntN(30) == 0 {
				return types.InfinityTime
			}
			return time.Unix(n%1e9, int64(r.IntN(3))*500).UTC()
		}
		return n
	}
	for i := 0; i < 20000; i++ {
		asTime := r.IntN(2) == 0
		pt := types.Of(types.Int8)
		if asTime {
			pt = types.Of(types.Timestamp)
		}
		op := []ast.PeriodOp{ast.PeriodAsOf, ast.PeriodFromTo, ast.PeriodBetween}[r.IntN(3)]
		// Start and end anywhere in a tuple of a few other values.
		startPos, endPos := r.IntN(5), r.IntN(5)
		if startPos == endPos {
			endPos = (startPos + 1 + r.IntN(4)) % 5
		}
		tuple := []types.Value{"x", int64(1000), nil, 2.5, "y"}
		tuple[startPos], tuple[endPos] = value(asTime), value(asTime)
		if r.IntN(10) == 0 { // written before the period columns existed
			tuple = tuple[:min(startPos, endPos)]
		}
		a, b := value(asTime), value(asTime)
		pe := &periodExpr{start: startPos, end: endPos, op: op, t: pt,
			a: &eval.Const{V: a, T: pt}, b: &eval.Const{V: b, T: pt}}
		scan := &tableScan{phys: []int{0, 1, 2, 3, 4}, filter: pe}
		row := make(eval.Row, 5)
		copy(row, tuple)
		want, err := pe.Eval(&eval.Env{Row: row})
		if err != nil {
			t.Fatal(err)
		}
		tests, covers := scan.storedPeriodTests(&eval.Env{})
		if len(tests) > 0 && !covers {
			t.Fatalf("one period clause as the whole filter: its test does not cover it")
		}
		if len(tests) == 0 {
			// Only when no bound is known is there nothing to test.
			if a != nil || (op != ast.PeriodAsOf && b != nil) {
				t.Fatalf("no test built for %v %v %v", op, a, b)
			}
			continue
		}
		enc, err := history.Encode(1, tuple)
		if err != nil {
			t.Fatal(err)
		}
		tb, _ := history.Tuple(enc)
		got, decided := tests[0].holds(tb)
		if !decided {
			t.Fatalf("undecided: period %v..%v, %v %v %v", row[startPos], row[endPos], op, a, b)
		}
		if got != want.(bool) {
			t.Fatalf("period [%v, %v) %v (%v, %v): encoded test says %v, periodExpr %v",
				row[startPos], row[endPos], op, a, b, got, want)
		}
	}
}

// TestStoredPeriodTestLeavesOtherValuesToTheFilter: a row whose period
// values are not of the expected kind is not decided on its encoding.
func TestStoredPeriodTestLeavesOtherValuesToTheFilter(t *testing.T) {
	pt := types.Of(types.Int8)
	pe := &periodExpr{start: 0, end: 1, op: ast.PeriodAsOf, t: pt, a: &eval.Const{V: int64(5), T: pt}}
	scan := &tableScan{phys: []int{0, 1}, filter: &eval.And{L: &eval.Const{V: true, T: eval.BoolT()}, R: pe}}
	tests, covers := scan.storedPeriodTests(&eval.Env{})
	if len(tests) != 1 {
		t.Fatalf("%d tests, want the one under AND", len(tests))
	}
	if covers {
		t.Error("the test covers a filter with another term beside it")
	}
	enc, _ := history.Encode(1, []types.Value{"not a number", nil})
	tb, _ := history.Tuple(enc)
	if _, decided := tests[0].holds(tb); decided {
		t.Error("a text start was decided on its encoding")
	}
	// Bounds that may differ from row to row are never evaluated ahead.
	pe.a = &eval.FuncCall{}
	if tests, _ := scan.storedPeriodTests(&eval.Env{}); len(tests) != 0 {
		t.Error("a function bound was evaluated once for the scan")
	}
}

// TestWholeTableAsOfIsTestedEncoded checks that the planner's scan for a
// whole-table AS OF read gets its encoded test.
func TestWholeTableAsOfIsTestedEncoded(t *testing.T) {
	s := newInternalSession(t)
	for _, q := range []string{
		"CREATE TABLE ev (id int, v text, seq bigint)",
		"CREATE STREAMING TABLE tgt",
		"CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2",
	} {
		runText(t, s, q)
	}
	sts, err := s.Parse(context.Background(), "SELECT id, v FROM tgt FOR BUSINESS_TIME AS OF $1 WHERE v <> 'x'", nil)
	if err != nil {
		t.Fatal(err)
	}
	var scan *tableScan
	var find func(p plan)
	find = func(p plan) {
		switch p := p.(type) {
		case *tableScan:
			scan = p
		case *projectPlan:
			find(p.input)
		case *filterPlan:
			find(p.input)
		}
	}
	find(sts[0].(*preparedStatement).c.query)
	if scan == nil {
		t.Fatal("no table scan in the plan")
	}
	x := &execCtx{params: []types.Value{int64(3)}}
	if tests, covers := scan.storedPeriodTests(&eval.Env{X: x}); len(tests) != 1 || covers {
		t.Errorf("%d encoded period tests (covering the filter: %v), want 1, not covering v <> 'x'", len(tests), covers)
	}
}

// BenchmarkStoredPeriodTest is the test a whole-table AS OF read makes of
// every stored row of cdcbench's target (id, name, city, start, end).
func BenchmarkStoredPeriodTest(b *testing.B) {
	pt := types.Of(types.Int8)
	pe := &periodExpr{start: 3, end: 4, op: ast.PeriodAsOf, t: pt, a: &eval.Const{V: int64(50_000), T: pt}}
	scan := &tableScan{phys: []int{0, 1, 2, 3, 4}, filter: pe}
	tests, _ := scan.storedPeriodTests(&eval.Env{})
	test := tests[0]
	r := rand.New(rand.NewPCG(1, 1))
	var tuples [][]byte
	for i := 0; i < 1000; i++ {
		start := int64(r.IntN(100_000))
		var end types.Value = start + int64(r.IntN(20_000))
		if r.IntN(8) == 0 {
			end = nil
		}
		enc, _ := history.Encode(1, []types.Value{int64(r.IntN(10_000)), "name" + string(rune('a'+r.IntN(26))), "Guadalajara", start, end})
		tb, _ := history.Tuple(enc)
		tuples = append(tuples, tb)
	}
	n := 0
	for i := 0; b.Loop(); i++ {
		if ok, _ := test.holds(tuples[i%len(tuples)]); ok {
			n++
		}
	}
	_ = n
}
