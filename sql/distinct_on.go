package sql

import (
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
)

// distinctOnSort enforces PostgreSQL's rule that DISTINCT ON expressions
// match the leading ORDER BY items: which row of each group survives is
// only defined when the sort starts with the group keys. ORDER BY may list
// the DISTINCT ON expressions in any order and continue with others, but
// once an item outside DISTINCT ON appears, no DISTINCT ON expression may
// follow it or be missing. keys[i] is the bound sel.OrderBy[i]; on[i] the
// bound core.DistinctOn[i]. Two items match when they read the same output
// column or are written alike.
//
// It returns the sort to use: keys followed by the DISTINCT ON expressions
// ORDER BY leaves out, ascending, since PostgreSQL sorts by every
// DISTINCT ON expression to find the groups and its output shows that
// order.
func distinctOnSort(orderBy []ast.OrderItem, keys []sortKey, distinctOn []ast.Expr, on []eval.Expr) ([]sortKey, error) {
	same := func(k, d int) bool {
		kc, ok1 := keys[k].e.(*eval.ColRef)
		dc, ok2 := on[d].(*eval.ColRef)
		if ok1 && ok2 && kc.Idx == dc.Idx {
			return true
		}
		return fingerprint(orderBy[k].Expr) == fingerprint(distinctOn[d])
	}
	mismatch := func(d int) error {
		return pgerror.New(pgerror.InvalidColumnReference, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions").WithPosition(distinctOn[d].Position() + 1)
	}
	covered := make([]bool, len(on))
	skipped := false
	for k := range keys {
		first := -1
		for d := range on {
			if same(k, d) {
				if first < 0 {
					first = d
				}
				covered[d] = true
			}
		}
		switch {
		case first < 0:
			skipped = true
		case skipped:
			return nil, mismatch(first)
		}
	}
	for d := range on {
		switch {
		case covered[d]:
		case skipped:
			return nil, mismatch(d)
		default:
			keys = append(keys, sortKey{e: on[d]})
			covered[d] = true
		}
	}
	return keys, nil
}
