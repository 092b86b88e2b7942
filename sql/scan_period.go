package sql

import (
	"slices"
	"time"

	"cdcdb/rowcodec"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/temporal"
	"cdcdb/types"
)

// A FOR BUSINESS_TIME (or SYSTEM_TIME on a BITEMPORAL target) clause over a
// whole table keeps few of the rows it reads: AS OF one instant, an SCD
// TYPE 2 target holds one version per key out of the key's whole history.
// The scan tests each stored row's period on its encoded start and end
// (storedrow.go) and decodes only the rows that pass. The clause stays in
// the scan's filter, which decides whenever a test cannot (a value of
// another kind); when the tests are the whole filter and decide a row
// passes, the filter is not evaluated again (the tests compute what it
// would).

// storedPeriodTest is one period clause, ready to test encoded rows.
type storedPeriodTest struct {
	op ast.PeriodOp
	// want are the stored positions of the period's start and end in
	// increasing order; startAt says which of the two is the start.
	want    [2]int
	startAt int
	// a and b are the clause's bounds (b only for FROM..TO and BETWEEN),
	// nil when NULL; kind is the instant kind of the period's values.
	a, b   any
	bounds [2]instant
	kind   instantKind
	// Scratch space for holds, kept here so that testing a row
	// allocates nothing.
	start, end instant
}

// storedPeriodTests finds the period clauses among the top-level AND terms
// of the scan's filter whose bounds do not depend on the row (they are
// evaluated once, here) and whose values are integers or times. covers
// reports that every term is such a clause or one of the scan's keyTerms:
// a row all the tests decide for (any row, when there are no tests) then
// passes the filter without it being evaluated.
func (s *tableScan) storedPeriodTests(env *eval.Env) (tests []*storedPeriodTest, covers bool) {
	if s.filter == nil {
		return nil, false
	}
	terms := s.collectPeriodTests(s.filter, env, &tests)
	return tests, len(tests) == terms
}

// collectPeriodTests appends the tests of e's AND terms to tests and
// returns how many terms the filter still has to decide.
func (s *tableScan) collectPeriodTests(e eval.Expr, env *eval.Env, tests *[]*storedPeriodTest) (terms int) {
	switch e := e.(type) {
	case *eval.And:
		return s.collectPeriodTests(e.L, env, tests) + s.collectPeriodTests(e.R, env, tests)
	case *periodExpr:
		if t := s.storedPeriodTest(e, env); t != nil {
			*tests = append(*tests, t)
		}
	case *eval.Compare:
		if slices.Contains(s.keyTerms, eval.Expr(e)) {
			return 0 // the key the scan reads under decides it
		}
	}
	return 1
}

func (s *tableScan) storedPeriodTest(e *periodExpr, env *eval.Env) *storedPeriodTest {
	if e.t.OID == types.Record || e.start >= len(s.phys) || e.end >= len(s.phys) {
		return nil
	}
	t := &storedPeriodTest{op: e.op}
	start, end := s.phys[e.start], s.phys[e.end]
	if start == end {
		return nil
	}
	t.want = [2]int{start, end}
	if start > end {
		t.want, t.startAt = [2]int{end, start}, 1
	}
	bounds := []eval.Expr{e.a}
	if e.op == ast.PeriodFromTo || e.op == ast.PeriodBetween {
		bounds = append(bounds, e.b)
	}
	for i, be := range bounds {
		if be == nil || !rowIndependent(be) {
			return nil
		}
		v, err := be.Eval(env)
		if err != nil {
			// Per-row evaluation raises it, if there is any row.
			return nil
		}
		if v == nil {
			continue // a NULL bound holds no row: the temporal rules say so
		}
		in, ok := valueInstant(v)
		if !ok || (t.kind != instantNone && in.kind != t.kind) {
			return nil
		}
		t.kind = in.kind
		t.bounds[i] = in
		if i == 0 {
			t.a = &t.bounds[0]
		} else {
			t.b = &t.bounds[1]
		}
	}
	if t.kind == instantNone {
		return nil // every bound NULL: leave it to the filter
	}
	return t
}

// rowIndependent reports whether an expression has one value for the
// whole scan: constants and parameters, cast or not. (Functions are left
// out: one may be volatile.)
func rowIndependent(e eval.Expr) bool {
	switch e := e.(type) {
	case *eval.Const, *eval.Param:
		return true
	case *eval.Cast:
		return rowIndependent(e.X)
	}
	return false
}

func valueInstant(v types.Value) (instant, bool) {
	switch v := v.(type) {
	case int64:
		return instant{kind: instantInt, hi: v}, true
	case time.Time:
		return instant{kind: instantTime, hi: v.Unix(), lo: int64(v.Nanosecond())}, true
	}
	return instant{}, false
}

func compareInstantValues(x, y any) int { return compareInstants(x.(*instant), y.(*instant)) }

// holds tests an encoded tuple. decided is false when the tuple's period
// values are not what the test expects (another kind, or damage): the
// row must then be decoded and filtered as any other.
func (t *storedPeriodTest) holds(tuple []byte) (holds, decided bool) {
	lo, hi, ok := rowcodec.RowValuePair(tuple, t.want[0], t.want[1])
	if !ok {
		return false, false
	}
	if t.startAt == 0 {
		t.start, t.end = storedInstant(lo), storedInstant(hi)
	} else {
		t.start, t.end = storedInstant(hi), storedInstant(lo)
	}
	var start, end any
	switch t.start.kind {
	case instantNull:
	case t.kind:
		start = &t.start
	default:
		return false, false
	}
	switch t.end.kind {
	case instantNull:
	case t.kind:
		end = &t.end
	default:
		return false, false
	}
	switch t.op {
	case ast.PeriodAsOf:
		if t.a != nil && start != nil {
			// temporal.AsOf on instants, spelt out: this runs for every
			// row of a whole-table read. start <= a, a < end (no end:
			// open), and the period not empty (start < end).
			a := &t.bounds[0]
			return compareInstants(&t.start, a) <= 0 && (end == nil || compareInstants(a, &t.end) < 0), true
		}
		return temporal.AsOf(start, end, t.a, compareInstantValues), true
	case ast.PeriodFromTo:
		return temporal.FromTo(start, end, t.a, t.b, compareInstantValues), true
	case ast.PeriodBetween:
		return temporal.Between(start, end, t.a, t.b, compareInstantValues), true
	}
	return false, false
}
