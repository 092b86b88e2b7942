package sql

import "cdcdb/sql/eval"

// mapColumns rebuilds an expression with every column reference passed
// through f. Subquery plans are left alone: their own columns are theirs.
func mapColumns(e eval.Expr, f func(*eval.ColRef) *eval.ColRef) eval.Expr {
	if e == nil {
		return nil
	}
	m := func(x eval.Expr) eval.Expr { return mapColumns(x, f) }
	ms := func(xs []eval.Expr) []eval.Expr {
		out := make([]eval.Expr, len(xs))
		for i, x := range xs {
			out[i] = m(x)
		}
		return out
	}
	switch e := e.(type) {
	case *eval.ColRef:
		return f(e)
	case *eval.Const, *eval.Param:
		return e
	case *eval.Cast:
		c := *e
		c.X = m(e.X)
		return &c
	case *eval.FuncCall:
		c := *e
		c.Args = ms(e.Args)
		return &c
	case *eval.And:
		return &eval.And{L: m(e.L), R: m(e.R)}
	case *eval.Or:
		return &eval.Or{L: m(e.L), R: m(e.R)}
	case *eval.Not:
		return &eval.Not{X: m(e.X)}
	case *eval.IsNull:
		return &eval.IsNull{X: m(e.X), Not: e.Not}
	case *eval.IsBool:
		return &eval.IsBool{X: m(e.X), Not: e.Not, Want: e.Want}
	case *eval.Case:
		return &eval.Case{Conds: ms(e.Conds), Results: ms(e.Results), Els: m(e.Els), T: e.T}
	case *eval.Coalesce:
		return &eval.Coalesce{Args: ms(e.Args), T: e.T}
	case *eval.InList:
		return &eval.InList{X: m(e.X), List: ms(e.List), CmpT: e.CmpT, Not: e.Not}
	case *eval.RowCtor:
		return &eval.RowCtor{Elems: ms(e.Elems)}
	case *eval.ArrayCtor:
		return &eval.ArrayCtor{Elems: ms(e.Elems), Elem: e.Elem, T: e.T}
	case *eval.Compare:
		c := *e
		c.L, c.R = m(e.L), m(e.R)
		return &c
	case *eval.IsDistinct:
		c := *e
		c.L, c.R = m(e.L), m(e.R)
		return &c
	case *eval.Like:
		return eval.NewLike(m(e.X), m(e.Pattern), m(e.Escape), e.Not, e.Ilike, e.Similar)
	case *eval.RegexMatch:
		c := eval.NewRegexMatch("~", m(e.L), m(e.R))
		c.Not, c.CaseInsensitive = e.Not, e.CaseInsensitive
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
