package sql

import (
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// setOpPlan is UNION / INTERSECT / EXCEPT [ALL].
type setOpPlan struct {
	op          string
	all         bool
	left, right plan
	cols        []outCol
}

func (p *setOpPlan) columns() []outCol { return p.cols }

func (p *setOpPlan) explain(depth int, out *[]string) {
	name := map[string]string{"UNION": "Append", "INTERSECT": "HashSetOp Intersect", "EXCEPT": "HashSetOp Except"}[p.op]
	explainLine(out, depth, "%s", name)
	p.left.explain(depth+1, out)
	p.right.explain(depth+1, out)
}

func (pc *planCtx) planSetOp(s *ast.SetOp, sc *scope) (plan, error) {
	l, err := pc.planSetExpr(s.Left, sc)
	if err != nil {
		return nil, err
	}
	r, err := pc.planSetExpr(s.Right, sc)
	if err != nil {
		return nil, err
	}
	return pc.unifySetOp(s.Op, s.All, l, r, s.Pos)
}

// unifySetOp brings both inputs to common column types and builds the node.
// An untyped literal column ('x', NULL) takes the other side's type, as in
// PostgreSQL, where it is read as that type (and fails there if it cannot
// be); errors point at the columns involved.
func (pc *planCtx) unifySetOp(op string, all bool, l, r plan, pos int) (plan, error) {
	lc, rc := l.columns(), r.columns()
	if len(lc) != len(rc) {
		at := pos + 1
		if len(rc) > 0 && rc[0].pos > 0 {
			at = rc[0].pos
		}
		return nil, pgerror.New(pgerror.SyntaxError, "each %s query must have the same number of columns", op).WithPosition(at)
	}
	cols := make([]outCol, len(lc))
	lx, rx := make([]eval.Expr, len(lc)), make([]eval.Expr, len(lc))
	needL, needR := false, false
	b := pc.binder(newScope(nil))
	side := func(c outCol, t types.T, i int) (eval.Expr, bool, error) {
		if c.literal != nil && t.OID != types.Text {
			x, err := b.resolveUnknownAs(c.literal, t)
			return x, true, err
		}
		var x eval.Expr = &eval.ColRef{Idx: i, T: c.t}
		if c.t.OID != t.OID {
			return &eval.Cast{X: x, To: t}, true, nil
		}
		return x, false, nil
	}
	for i := range lc {
		typeOf := func(c outCol) types.T {
			if c.literal != nil {
				return eval.UnknownT()
			}
			return c.t
		}
		t, err := eval.CommonType([]eval.Expr{&eval.Const{T: typeOf(lc[i])}, &eval.Const{T: typeOf(rc[i])}}, op)
		if err != nil {
			at := pos + 1
			if rc[i].pos > 0 {
				at = rc[i].pos
			}
			return nil, pgerror.As(err).WithPosition(at)
		}
		if t.OID == types.Unknown {
			t = eval.TextT()
		}
		cols[i] = outCol{name: lc[i].name, t: t}
		var changed bool
		if lx[i], changed, err = side(lc[i], t, i); err != nil {
			return nil, err
		}
		needL = needL || changed
		if rx[i], changed, err = side(rc[i], t, i); err != nil {
			return nil, err
		}
		needR = needR || changed
	}
	if needL {
		l = &projectPlan{input: l, exprs: lx, cols: cols}
	}
	if needR {
		r = &projectPlan{input: r, exprs: rx, cols: cols}
	}
	return &setOpPlan{op: op, all: all, left: l, right: r, cols: cols}, nil
}

func (p *setOpPlan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	// Streamed, and spilled past work_mem (setop_spill.go).
	return p.openStreaming(x, outer)
}

// recursiveCTE computes WITH RECURSIVE: the non-recursive term seeds a
// working table; the recursive term runs over the working table until it
// produces no new rows (UNION drops rows already seen).
type recursiveCTE struct {
	def  *cteDef
	seed plan
	step plan
	all  bool
	cols []outCol
}

func (p *recursiveCTE) columns() []outCol { return p.cols }

func (p *recursiveCTE) explain(depth int, out *[]string) {
	explainLine(out, depth, "Recursive Union")
	p.seed.explain(depth+1, out)
	p.step.explain(depth+1, out)
}

func (p *recursiveCTE) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	seed, err := drain(x, p.seed, outer)
	if err != nil {
		return nil, err
	}
	ts := colTypes(p.cols)
	seen := map[string]bool{}
	var result []eval.Row
	add := func(rows []eval.Row) []eval.Row {
		var fresh []eval.Row
		for _, r := range rows {
			if !p.all {
				k := rowKey(r, ts)
				if seen[k] {
					continue
				}
				seen[k] = true
			}
			fresh = append(fresh, r)
		}
		result = append(result, fresh...)
		return fresh
	}
	work := add(seed)
	if x.recursiveRows == nil {
		x.recursiveRows = map[*cteDef][]eval.Row{}
	}
	for len(work) > 0 {
		if err := x.ctx.Err(); err != nil {
			return nil, cancelError(x.ctx)
		}
		x.recursiveRows[p.def] = work
		next, err := drain(x, p.step, outer)
		if err != nil {
			return nil, err
		}
		work = add(next)
	}
	delete(x.recursiveRows, p.def)
	return &sliceIter{rows: result}, nil
}

// workingTableScan reads the current working table of a recursive CTE.
type workingTableScan struct{ def *cteDef }

func (p *workingTableScan) columns() []outCol { return p.def.cols }
func (p *workingTableScan) explain(depth int, out *[]string) {
	explainLine(out, depth, "WorkTable Scan on %s", p.def.name)
}
func (p *workingTableScan) open(x *execCtx, _ *eval.Env) (rowIter, error) {
	return &sliceIter{rows: x.recursiveRows[p.def]}, nil
}

func (pc *planCtx) planRecursiveCTE(c ast.CTE, q *ast.Select, sc *scope) (plan, error) {
	so, ok := q.Body.(*ast.SetOp)
	if !ok || so.Op != "UNION" {
		return nil, pgerror.New(pgerror.InvalidRecursion, "recursive query \"%s\" does not have the form non-recursive-term UNION [ALL] recursive-term", c.Name).WithPosition(c.Pos + 1)
	}
	seed, err := pc.planSetExpr(so.Left, newScope(sc))
	if err != nil {
		return nil, err
	}
	cols := append([]outCol(nil), seed.columns()...)
	for i, n := range c.Columns {
		if i < len(cols) {
			cols[i].name = n
		}
	}
	def := &cteDef{name: c.Name, cols: cols}
	// References to the CTE inside its own recursive term read the
	// working table. planSetExpr plans a query under its scope's parent,
	// so the CTE goes in a probe scope (no row level) under another one.
	inner := newProbeScope(sc)
	inner.ctes = map[string]*cteDef{c.Name: def}
	def.plan = &workingTableScan{def: def}
	stepRaw, err := pc.planSetExpr(so.Right, newProbeScope(inner))
	if err != nil {
		return nil, err
	}
	u, err := pc.unifySetOp("UNION", true, seed, stepRaw, so.Pos)
	if err != nil {
		return nil, err
	}
	sp := u.(*setOpPlan)
	rc := &recursiveCTE{def: def, seed: sp.left, step: sp.right, all: so.All, cols: cols}
	return rc, nil
}
