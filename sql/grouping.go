package sql

import (
	"slices"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// Grouping sets: GROUP BY ROLLUP (...), CUBE (...) and GROUPING SETS (...)
// aggregate the same rows once per grouping set, as if each set were the
// GROUP BY of its own query and the results were appended, a row's columns
// outside its set being NULL; grouping(a, ...) tells a row's set apart
// (bit i of its result is set when the i-th argument is not in the row's
// set, the first argument the highest bit).
//
// The binder expands GROUP BY into its sets (expandGroupBy), binds every
// expression any set names once (aggCtx.groupExprs), and gives aggPlan each
// set as a list of indexes into them (aggCtx.sets). aggPlan then keeps one
// group per set and key, and puts after each output row's aggregates the
// mask of the group expressions its set leaves out, which groupingExpr
// reads.

// maxGroupingSets bounds what GROUP BY may expand to, as PostgreSQL's
// 4096; CUBE alone is limited to 12 elements.
const (
	maxGroupingSets = 4096
	maxCubeElems    = 12
)

// expandGroupBy returns GROUP BY's grouping sets, each the expressions it
// groups by, and whether any ROLLUP, CUBE or GROUPING SETS asked for more
// than the one set of all the items.
func expandGroupBy(items []ast.Expr) ([][]ast.Expr, bool, error) {
	sets := [][]ast.Expr{nil}
	any := false
	for _, it := range items {
		var itemSets [][]ast.Expr
		if gs, ok := it.(*ast.GroupingSet); ok {
			any = true
			var err error
			if itemSets, err = expandGroupingSet(gs); err != nil {
				return nil, false, err
			}
		} else {
			itemSets = [][]ast.Expr{{it}}
		}
		if len(sets)*len(itemSets) > maxGroupingSets {
			return nil, false, tooManyGroupingSets()
		}
		// GROUP BY a, ROLLUP (b) groups by every combination: each set so
		// far followed by each of the item's.
		next := make([][]ast.Expr, 0, len(sets)*len(itemSets))
		for _, s := range sets {
			for _, t := range itemSets {
				next = append(next, append(append([]ast.Expr(nil), s...), t...))
			}
		}
		sets = next
	}
	return sets, any, nil
}

// expandGroupingSet lists the sets one ROLLUP, CUBE or GROUPING SETS stands
// for.
func expandGroupingSet(gs *ast.GroupingSet) ([][]ast.Expr, error) {
	switch gs.Kind {
	case ast.GroupingRollup:
		// ROLLUP (a, b) is (a, b), (a), ().
		out := make([][]ast.Expr, 0, len(gs.Elems)+1)
		for n := len(gs.Elems); n >= 0; n-- {
			var s []ast.Expr
			for _, el := range gs.Elems[:n] {
				s = append(s, el.Exprs...)
			}
			out = append(out, s)
		}
		return out, nil
	case ast.GroupingCube:
		// CUBE (a, b) is every subset: (a, b), (a), (b), ().
		if len(gs.Elems) > maxCubeElems {
			return nil, pgerror.New(pgerror.TooManyColumns, "CUBE is limited to 12 elements").WithPosition(gs.Pos + 1)
		}
		n := len(gs.Elems)
		out := make([][]ast.Expr, 0, 1<<n)
		for mask := (1 << n) - 1; mask >= 0; mask-- {
			var s []ast.Expr
			for i, el := range gs.Elems {
				if mask&(1<<(n-1-i)) != 0 {
					s = append(s, el.Exprs...)
				}
			}
			out = append(out, s)
		}
		return out, nil
	}
	var out [][]ast.Expr
	for _, el := range gs.Elems {
		if el.Set == nil {
			out = append(out, el.Exprs)
			continue
		}
		nested, err := expandGroupingSet(el.Set)
		if err != nil {
			return nil, err
		}
		out = append(out, nested...)
		if len(out) > maxGroupingSets {
			return nil, tooManyGroupingSets()
		}
	}
	return out, nil
}

func tooManyGroupingSets() error {
	return pgerror.New(pgerror.StatementTooComplex, "too many grouping sets present (maximum %d)", maxGroupingSets)
}

// bindGrouping binds grouping(a, ...), whose arguments must be expressions
// the query groups by.
func (b *binder) bindGrouping(fc *ast.FuncCall) (eval.Expr, error) {
	notGrouped := func(at ast.Expr) error {
		return pgerror.New(pgerror.GroupingError, "arguments to GROUPING must be grouping expressions of the associated query level").WithPosition(at.Position() + 1)
	}
	if len(fc.Args) > 31 {
		return nil, pgerror.New(pgerror.TooManyArguments, "GROUPING must have fewer than 32 arguments").WithPosition(fc.Pos + 1)
	}
	if b.inAggArgs {
		return nil, pgerror.New(pgerror.GroupingError, "aggregate function calls cannot be nested").WithPosition(fc.Pos + 1)
	}
	if b.agg == nil {
		// Not a grouping query: the arguments' own errors come first.
		for _, a := range fc.Args {
			if _, err := b.bind(a); err != nil {
				return nil, err
			}
		}
		if len(fc.Args) == 0 {
			return nil, pgerror.New(pgerror.SyntaxError, "syntax error at or near \")\"").WithPosition(fc.Pos + 1)
		}
		return nil, notGrouped(fc.Args[0])
	}
	g := &groupingExpr{agg: b.agg}
	for _, a := range fc.Args {
		found := slices.Index(b.agg.groupFP, fingerprint(a))
		if found < 0 {
			return nil, notGrouped(a)
		}
		g.args = append(g.args, found)
	}
	return g, nil
}

// groupingExpr is grouping(a, ...) over an aggregate row: args are the
// arguments' group expression indexes.
type groupingExpr struct {
	agg  *aggCtx
	args []int
}

func (e *groupingExpr) Type() types.T { return types.Of(types.Int4) }

func (e *groupingExpr) Eval(env *eval.Env) (types.Value, error) {
	if e.agg.sets == nil {
		return int64(0), nil // one set of every group expression
	}
	// The mask follows the group values and the aggregates; the aggregate
	// list is complete once the query is bound, before anything runs.
	absent := env.Row[len(e.agg.groupExprs)+len(e.agg.aggs)].(int64)
	var r int64
	for _, i := range e.args {
		r = r<<1 | (absent>>i)&1
	}
	return r, nil
}

// groupingMasks gives each grouping set the mask of the group expressions
// it leaves out (bit i: expression i).
func groupingMasks(sets [][]int, n int) []int64 {
	out := make([]int64, len(sets))
	for si, s := range sets {
		all := int64(1)<<n - 1
		for _, i := range s {
			all &^= 1 << i
		}
		out[si] = all
	}
	return out
}
