package sql

import (
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
)

// Join order for a comma-separated FROM list with a WHERE clause
// (FROM a, b, c WHERE a.x = c.y AND ...), the form catalog queries of
// psqlODBC and psql use. Joined in the written order, two relations that no
// equality connects come first whenever the list names them first (psqlODBC
// lists two pg_attribute aliases side by side): with the catalogs' thousands
// of rows a six-way list then builds billions of rows. When that is so, the
// relations are joined in another order instead: the first one, then each
// time one that an equality reaches from those joined so far (else the next
// in order); a conjunct on one relation is pushed into it, the others join
// the condition of the first join that has all their relations, and that
// join becomes an index nested loop or a hash join (join_index.go). A
// projection then puts the columns back in FROM-list order, so nothing above
// sees the change. Conjuncts that hold subqueries stay on top, where their
// outer-row column numbers still hold. When the written order already
// connects each relation to the ones before it, pushFilter's own join
// pushdown plans the list.

// crossLeaf is one relation of the FROM list: its plan and where its columns
// sit in the original row.
type crossLeaf struct {
	p      plan
	offset int
	width  int
}

// flattenCrossJoins lists the relations of a left-deep chain of plain cross
// joins (as planFrom builds for a FROM list); false when p is not one.
func flattenCrossJoins(p plan) ([]crossLeaf, bool) {
	j, ok := p.(*joinPlan)
	if !ok || j.kind != ast.JoinCross || j.cond != nil || len(j.leftKeys) > 0 || j.param {
		return []crossLeaf{{p: p, width: len(p.columns())}}, false
	}
	left, _ := flattenCrossJoins(j.left)
	off := 0
	for _, l := range left {
		off += l.width
	}
	return append(left, crossLeaf{p: j.right, offset: off, width: len(j.right.columns())}), true
}

// conjunct is one AND-ed part of the WHERE clause and the relations it
// reads (a bit per leaf).
type conjunct struct {
	e       eval.Expr
	leaves  uint64
	onlyTop bool // holds a subquery, or reads columns no leaf has
}

// leavesOf finds the leaves an expression reads.
func leavesOf(e eval.Expr, leaves []crossLeaf) (uint64, bool) {
	var set uint64
	ok := true
	hasSubquery := false
	mapColumns(e, func(c *eval.ColRef) *eval.ColRef {
		if c.Level != 0 {
			return c
		}
		found := false
		for i, l := range leaves {
			if c.Idx >= l.offset && c.Idx < l.offset+l.width {
				set |= 1 << i
				found = true
			}
		}
		if !found {
			ok = false
		}
		return c
	})
	opened := visitBoundExpr(e, func(x eval.Expr) {
		if _, isSub := x.(*subqueryExpr); isSub {
			hasSubquery = true
		}
	})
	return set, ok && opened && !hasSubquery
}

// visitBoundExpr visits an expression and its operands, not into subqueries. It
// reports false when it meets an expression kind it cannot open, so that
// callers stay conservative about what they did not see.
func visitBoundExpr(e eval.Expr, f func(eval.Expr)) bool {
	if e == nil {
		return true
	}
	f(e)
	all := func(xs ...eval.Expr) bool {
		ok := true
		for _, x := range xs {
			ok = visitBoundExpr(x, f) && ok
		}
		return ok
	}
	switch x := e.(type) {
	case *eval.ColRef, *eval.Const, *eval.Param, *subqueryExpr:
		return true
	case *eval.And:
		return all(x.L, x.R)
	case *eval.Or:
		return all(x.L, x.R)
	case *eval.Not:
		return all(x.X)
	case *eval.Compare:
		return all(x.L, x.R)
	case *eval.IsDistinct:
		return all(x.L, x.R)
	case *eval.RegexMatch:
		return all(x.L, x.R)
	case *eval.Like:
		return all(x.X, x.Pattern, x.Escape)
	case *eval.FuncCall:
		return all(x.Args...)
	case *eval.Cast:
		return all(x.X)
	case *eval.IsNull:
		return all(x.X)
	case *eval.IsBool:
		return all(x.X)
	case *eval.Case:
		return all(x.Conds...) && all(x.Results...) && all(x.Els)
	case *eval.Coalesce:
		return all(x.Args...)
	case *eval.InList:
		return all(x.X) && all(x.List...)
	case *subscriptExpr:
		return all(x.x, x.index, x.lo, x.hi)
	case *anyArrayExpr:
		return all(x.x, x.arr)
	case *eval.RowCtor:
		return all(x.Elems...)
	case *eval.ArrayCtor:
		return all(x.Elems...)
	}
	return false
}

// reorderCrossJoins plans FROM-list relations and their WHERE clause as
// described above; it returns nil when the input is not such a list, or
// when the written order already joins each relation to the ones before it
// (then pushFilter's join pushdown, with its index nested loops, plans it).
func reorderCrossJoins(input plan, cond eval.Expr) plan {
	leaves, ok := flattenCrossJoins(input)
	if !ok || len(leaves) < 3 || len(leaves) > 64 {
		return nil
	}
	var cs []conjunct
	for _, e := range conjuncts(cond) {
		set, ok := leavesOf(e, leaves)
		cs = append(cs, conjunct{e: e, leaves: set, onlyTop: !ok})
	}
	order := joinOrder(leaves, cs)
	identity := true
	for i, l := range order {
		identity = identity && l == i
	}
	if identity {
		return nil
	}
	used := make([]bool, len(cs))
	// remap moves a column of the original row to the physical row, whose
	// leaves are in the order placed.
	physOffset := make([]int, len(leaves))
	remap := func(e eval.Expr) eval.Expr {
		return mapColumns(e, func(c *eval.ColRef) *eval.ColRef {
			if c.Level != 0 {
				return c
			}
			for i, l := range leaves {
				if c.Idx >= l.offset && c.Idx < l.offset+l.width {
					n := *c
					n.Idx = physOffset[i] + (c.Idx - l.offset)
					return &n
				}
			}
			return c
		})
	}
	// leafPlan is a leaf with its own conjuncts pushed into it (a table
	// scan turns them into key or index lookups).
	leafPlan := func(i int) plan {
		var own []eval.Expr
		for k, c := range cs {
			if !used[k] && !c.onlyTop && c.leaves == 1<<i {
				used[k] = true
				own = append(own, c.e)
			}
		}
		if len(own) == 0 {
			return leaves[i].p
		}
		saved := physOffset[i]
		physOffset[i] = 0
		f := remap(andAll(own))
		physOffset[i] = saved
		return pushFilter(leaves[i].p, f)
	}
	placed := uint64(1) << order[0]
	cur := leafPlan(order[0])
	width := leaves[order[0]].width
	physOffset[order[0]] = 0
	for _, next := range order[1:] {
		right := leafPlan(next)
		physOffset[next] = width
		placed |= 1 << next
		var jc []eval.Expr
		for k, c := range cs {
			if !used[k] && !c.onlyTop && c.leaves&^placed == 0 {
				used[k] = true
				jc = append(jc, remap(c.e))
			}
		}
		cols := append(append([]outCol(nil), cur.columns()...), right.columns()...)
		jp := &joinPlan{left: cur, right: right, kind: ast.JoinCross, cols: cols}
		if len(jc) > 0 {
			jp.kind = ast.JoinInner
			jp.cond = andAll(jc)
			if !jp.parameterize() {
				jp.leftKeys, jp.rightKeys = equiJoinKeys(jp.cond, width)
			}
		}
		cur = jp
		width += leaves[next].width
	}
	// Back to FROM-list order.
	var exprs []eval.Expr
	var cols []outCol
	phys := cur.columns()
	for i, l := range leaves {
		for k := 0; k < l.width; k++ {
			c := phys[physOffset[i]+k]
			exprs = append(exprs, &eval.ColRef{Idx: physOffset[i] + k, T: c.t, Name: c.name})
			cols = append(cols, c)
		}
	}
	var out plan = &projectPlan{input: cur, exprs: exprs, cols: cols}
	var top []eval.Expr
	for k, c := range cs {
		if !used[k] {
			top = append(top, c.e)
		}
	}
	if len(top) > 0 {
		out = &filterPlan{input: out, cond: andAll(top)}
	}
	return out
}

// joinOrder picks the order to join the leaves in: the first leaf, then
// repeatedly the first leaf an equality reaches from those placed, else
// the next in the written order.
func joinOrder(leaves []crossLeaf, cs []conjunct) []int {
	placed := uint64(1)
	order := []int{0}
	for len(order) < len(leaves) {
		next := -1
		for _, c := range cs {
			rest := c.leaves &^ placed
			if c.onlyTop || rest == 0 || rest&(rest-1) != 0 || c.leaves&placed == 0 {
				continue
			}
			if ce, ok := c.e.(*eval.Compare); ok && ce.Op == "=" {
				for i := range leaves {
					if rest == 1<<i && (next < 0 || i < next) {
						next = i
					}
				}
			}
		}
		if next < 0 {
			for i := range leaves {
				if placed&(1<<i) == 0 {
					next = i
					break
				}
			}
		}
		placed |= 1 << next
		order = append(order, next)
	}
	return order
}
