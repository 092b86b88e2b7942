package sql

import (
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
)

// Index nested loop joins and filter pushdown into joins.
//
// When one equality of an inner or left join's condition compares a column
// of the right side's table with an expression of the left row, and that
// column starts an index (or the equalities give the whole primary key),
// the join runs as a nested loop whose right side is an index lookup
// parameterized by the left row: the right plan is opened once per left row
// with that row as its enclosing row (level 1), exactly as a LATERAL
// subquery is. A hash join would read the whole right table instead.
//
// A WHERE clause over an inner join is split: conjuncts that read one side
// only move into that side (where a table scan can turn them into a key or
// index lookup), the rest join the condition, whose equalities may then
// parameterize the right side.

// parameterize turns an inner or left equi-join into an index nested loop
// when the right side can look up its matching rows by key; it reports
// whether it did.
func (p *joinPlan) parameterize() bool {
	if p.param || p.cond == nil || (p.kind != ast.JoinInner && p.kind != ast.JoinCross && p.kind != ast.JoinLeft) {
		return false
	}
	base := rightTableScan(p.right)
	if base == nil || (base.filter != nil && !exprKnown(base.filter)) {
		return false
	}
	lw := len(p.left.columns())
	var lookups []eval.Expr
	for _, c := range conjuncts(p.cond) {
		cmp, ok := c.(*eval.Compare)
		if !ok || cmp.Op != "=" {
			continue
		}
		ls, lok := sideOf(cmp.L, lw)
		rs, rok := sideOf(cmp.R, lw)
		if !lok || !rok || ls == rs {
			continue
		}
		// Over the right row with the left row one level out.
		if moved, ok := toParameterized(cmp, lw); ok {
			lookups = append(lookups, moved)
		}
	}
	if len(lookups) == 0 {
		return false
	}
	// The right side gets the left row as its enclosing row: what its
	// filter read one level out is now two levels out.
	fresh := newTableScan(base.table)
	if base.filter != nil {
		lookups = append([]eval.Expr{outerDeeper(base.filter)}, lookups...)
	}
	right := pushFilter(fresh, andAll(lookups))
	switch r := right.(type) {
	case *indexScan:
	case *tableScan:
		if r.keyExprs == nil {
			return false // no key to look up: a hash join reads less
		}
	default:
		return false
	}
	p.right = right
	p.param = true
	p.leftKeys, p.rightKeys = nil, nil
	return true
}

// rightTableScan returns the table scan a join's right side is (a plain
// scan, or an index scan already chosen for its own filter), nil otherwise.
func rightTableScan(p plan) *tableScan {
	switch r := p.(type) {
	case *tableScan:
		if r.sysTime == nil && !r.withKey {
			return r
		}
	case *indexScan:
		return rightTableScan(r.scan)
	}
	return nil
}

// toParameterized rewrites an expression over the joined row so that it
// reads the right row at level 0 and the left row at level 1; ok is false
// for expressions it cannot see through.
func toParameterized(e eval.Expr, lw int) (eval.Expr, bool) {
	if !exprKnown(e) {
		return nil, false
	}
	return mapColumns(e, func(c *eval.ColRef) *eval.ColRef {
		n := *c
		switch {
		case c.Level > 0:
			n.Level++
		case c.Idx >= lw:
			n.Idx -= lw
		default:
			n.Level = 1
		}
		return &n
	}), true
}

// outerDeeper moves an expression's references to enclosing rows one
// level further out, for evaluation under one more enclosing row.
func outerDeeper(e eval.Expr) eval.Expr {
	return mapColumns(e, func(c *eval.ColRef) *eval.ColRef {
		if c.Level == 0 {
			return c
		}
		n := *c
		n.Level++
		return &n
	})
}

// conjuncts splits an AND tree.
func conjuncts(e eval.Expr) []eval.Expr {
	if a, ok := e.(*eval.And); ok {
		return append(conjuncts(a.L), conjuncts(a.R)...)
	}
	return []eval.Expr{e}
}

// exprChildren lists the subexpressions of the expression kinds the
// planner can move between row layouts; ok is false for any other kind
// (subqueries and window values read rows of their own).
func exprChildren(e eval.Expr) ([]eval.Expr, bool) {
	switch e := e.(type) {
	case *eval.ColRef, *eval.Const, *eval.Param:
		return nil, true
	case *eval.Cast:
		return []eval.Expr{e.X}, true
	case *eval.FuncCall:
		return e.Args, true
	case *eval.And:
		return []eval.Expr{e.L, e.R}, true
	case *eval.Or:
		return []eval.Expr{e.L, e.R}, true
	case *eval.Not:
		return []eval.Expr{e.X}, true
	case *eval.IsNull:
		return []eval.Expr{e.X}, true
	case *eval.IsBool:
		return []eval.Expr{e.X}, true
	case *eval.Case:
		out := append(append([]eval.Expr(nil), e.Conds...), e.Results...)
		if e.Els != nil {
			out = append(out, e.Els)
		}
		return out, true
	case *eval.Coalesce:
		return e.Args, true
	case *eval.InList:
		return append([]eval.Expr{e.X}, e.List...), true
	case *eval.Compare:
		return []eval.Expr{e.L, e.R}, true
	case *eval.IsDistinct:
		return []eval.Expr{e.L, e.R}, true
	case *anyArrayExpr:
		return []eval.Expr{e.x, e.arr}, true
	case *eval.ArrayCtor:
		return e.Elems, true
	case *eval.RowCtor:
		return e.Elems, true
	}
	return nil, false
}

// exprKnown reports whether every node of e is one exprChildren knows.
func exprKnown(e eval.Expr) bool {
	kids, ok := exprChildren(e)
	if !ok {
		return false
	}
	for _, k := range kids {
		if k != nil && !exprKnown(k) {
			return false
		}
	}
	return true
}

// rowSides reports which sides of a join (0 left, 1 right) an expression
// reads at the current level; ok is false when it cannot tell.
func rowSides(e eval.Expr, lw int) (left, right, ok bool) {
	if !exprKnown(e) {
		return false, false, false
	}
	mapColumns(e, func(c *eval.ColRef) *eval.ColRef {
		if c.Level == 0 {
			if c.Idx < lw {
				left = true
			} else {
				right = true
			}
		}
		return c
	})
	return left, right, true
}

// pushIntoJoin adds a WHERE condition to a join: conjuncts that read only
// the left side go down to it, and for an inner join conjuncts that read
// only the right side go down to that side and the others into the join
// condition. The rest of a left join's WHERE stays above it (moving it
// into the join would change which rows come out NULL-extended).
func pushIntoJoin(j *joinPlan, cond eval.Expr) plan {
	inner := j.kind == ast.JoinInner || j.kind == ast.JoinCross
	if !inner && j.kind != ast.JoinLeft {
		return &filterPlan{input: j, cond: cond}
	}
	c := *j
	lw := len(j.left.columns())
	var rest []eval.Expr
	for _, e := range conjuncts(cond) {
		left, right, ok := rowSides(e, lw)
		switch {
		case ok && left && !right:
			c.left = pushFilter(c.left, e)
		case ok && right && !left && inner:
			e = shiftAfter(e, lw, -lw)
			if c.param {
				e = outerDeeper(e) // the right side's enclosing row is the left row
			}
			c.right = pushFilter(unwrapIndexScan(c.right), e)
		default:
			rest = append(rest, e)
		}
	}
	if !inner {
		if len(rest) == 0 {
			return &c
		}
		return &filterPlan{input: &c, cond: andAll(rest)}
	}
	if len(rest) > 0 {
		if c.cond != nil {
			rest = append([]eval.Expr{c.cond}, rest...)
		}
		c.cond = andAll(rest)
		c.kind = ast.JoinInner
	}
	if !c.param {
		c.leftKeys, c.rightKeys = nil, nil
		if c.cond != nil && !c.parameterize() {
			c.leftKeys, c.rightKeys = equiJoinKeys(c.cond, lw)
		}
	}
	return &c
}

// unwrapIndexScan returns the table scan an index scan was chosen for, so
// that a filter added to it chooses the access path again.
func unwrapIndexScan(p plan) plan {
	if ix, ok := p.(*indexScan); ok {
		return ix.scan
	}
	return p
}

// andAll joins conditions with AND.
func andAll(es []eval.Expr) eval.Expr {
	var out eval.Expr
	for _, e := range es {
		if out == nil {
			out = e
		} else {
			out = &eval.And{L: out, R: e}
		}
	}
	return out
}

// paramJoinIter runs an index nested loop: the right plan is opened for
// each left row with that row as its enclosing row.
type paramJoinIter struct {
	p       *joinPlan
	x       *execCtx
	outer   *eval.Env
	left    rowIter
	right   rowIter
	cur     eval.Row
	matched bool
	env     eval.Env
	rw      int
}

func (it *paramJoinIter) next() (eval.Row, error) {
	for {
		if it.cur == nil {
			l, err := it.left.next()
			if err != nil || l == nil {
				return nil, err
			}
			if err := it.x.CheckCancel(); err != nil {
				return nil, err
			}
			it.cur = append(eval.Row(nil), l...)
			it.matched = false
			if it.right, err = it.p.right.open(it.x, &eval.Env{Row: it.cur, Outer: it.outer, X: it.x}); err != nil {
				return nil, err
			}
		}
		r, err := it.right.next()
		if err != nil {
			return nil, err
		}
		if r == nil {
			it.right.close()
			it.right = nil
			cur := it.cur
			it.cur = nil
			if !it.matched && it.p.kind == ast.JoinLeft {
				row := make(eval.Row, len(cur)+it.rw)
				copy(row, cur)
				return row, nil
			}
			continue
		}
		row := make(eval.Row, 0, len(it.cur)+len(r))
		row = append(append(row, it.cur...), r...)
		if it.p.cond != nil {
			it.env.Row = row
			v, err := it.p.cond.Eval(&it.env)
			if err != nil {
				return nil, err
			}
			if v != true {
				continue
			}
		}
		it.matched = true
		return row, nil
	}
}

func (it *paramJoinIter) close() {
	if it.right != nil {
		it.right.close()
	}
	it.left.close()
}

// openParameterized starts an index nested loop.
func (p *joinPlan) openParameterized(x *execCtx, outer *eval.Env) (rowIter, error) {
	left, err := p.left.open(x, outer)
	if err != nil {
		return nil, err
	}
	return &paramJoinIter{p: p, x: x, outer: outer, left: left, env: eval.Env{Outer: outer, X: x}, rw: len(p.right.columns())}, nil
}
