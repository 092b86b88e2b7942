package sql

// mapColumns rebuilds an expression with every column reference passed
// through f. Subquery plans are left alone: their own columns are theirs.
func mapColumns(e expr, f func(*colRef) *colRef) expr {
	if e == nil {
		return nil
	}
	m := func(x expr) expr { return mapColumns(x, f) }
	ms := func(xs []expr) []expr {
		out := make([]expr, len(xs))
		for i, x := range xs {
			out[i] = m(x)
		}
		return out
	}
	switch e := e.(type) {
	case *colRef:
		return f(e)
	case *constExpr, *paramRef:
		return e
	case *castExpr:
		c := *e
		c.x = m(e.x)
		return &c
	case *funcExpr:
		c := *e
		c.args = ms(e.args)
		return &c
	case *andExpr:
		return &andExpr{l: m(e.l), r: m(e.r)}
	case *orExpr:
		return &orExpr{l: m(e.l), r: m(e.r)}
	case *notExpr:
		return &notExpr{x: m(e.x)}
	case *isNullExpr:
		return &isNullExpr{x: m(e.x), not: e.not}
	case *isBoolExpr:
		return &isBoolExpr{x: m(e.x), not: e.not, want: e.want}
	case *caseExpr:
		return &caseExpr{conds: ms(e.conds), results: ms(e.results), els: m(e.els), t: e.t}
	case *coalesceExpr:
		return &coalesceExpr{args: ms(e.args), t: e.t}
	case *inListExpr:
		return &inListExpr{x: m(e.x), list: ms(e.list), cmpT: e.cmpT, not: e.not}
	case *rowExpr:
		return &rowExpr{elems: ms(e.elems)}
	case *arrayExpr:
		return &arrayExpr{elems: ms(e.elems), elem: e.elem, t: e.t}
	case *compareExpr:
		c := *e
		c.l, c.r = m(e.l), m(e.r)
		return &c
	case *distinctExpr:
		c := *e
		c.l, c.r = m(e.l), m(e.r)
		return &c
	case *likeExpr:
		return newLikeExpr(m(e.x), m(e.pattern), m(e.escape), e.not, e.ilike, e.similar)
	case *regexMatch:
		c := newRegexMatch("~", m(e.l), m(e.r))
		c.not, c.ci = e.not, e.ci
		return c
	case *anyArrayExpr:
		c := *e
		c.x, c.arr = m(e.x), m(e.arr)
		return &c
	case *subscriptExpr:
		c := *e
		c.x, c.index, c.lo, c.hi = m(e.x), m(e.index), m(e.lo), m(e.hi)
		return &c
	case *subqueryExpr:
		c := *e
		if e.x != nil {
			c.x = m(e.x)
		}
		return &c
	}
	return e
}
