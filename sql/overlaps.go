package sql

import (
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// (s1, e1) OVERLAPS (s2, e2) is the SQL standard's test of two periods:
// each an ordered pair of points, or a start and an interval after it.
// NULLs make it unknown only where the standard's definition needs the
// missing point, as PostgreSQL's overlaps_timestamp has it.

func (b *binder) bindOverlaps(e *ast.Binary) (eval.Expr, error) {
	side := func(x ast.Expr, which string) ([]eval.Expr, error) {
		row, ok := x.(*ast.RowExpr)
		if !ok || len(row.Elems) != 2 {
			return nil, pgerror.New(pgerror.SyntaxError, "wrong number of parameters on %s side of OVERLAPS expression", which).WithPosition(x.Position() + 1)
		}
		out := make([]eval.Expr, 2)
		for i, el := range row.Elems {
			v, err := b.bind(el)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		if out[1].Type().OID == types.Interval {
			// (start, length): the end is start + length.
			end, err := bindArithmetic(b, "+", out[0], out[1])
			if err != nil {
				return nil, withPos(err, row.Elems[1])
			}
			out[1] = end
		}
		return out, nil
	}
	l, err := side(e.L, "left")
	if err != nil {
		return nil, err
	}
	r, err := side(e.R, "right")
	if err != nil {
		return nil, err
	}
	all := append(l, r...)
	t, err := eval.CommonType(all, "OVERLAPS")
	if err != nil {
		return nil, pgerror.As(err).WithPosition(e.OpPos + 1)
	}
	if eval.TypeCategory(t.OID) != 'D' {
		return nil, pgerror.New(pgerror.UndefinedFunction, "function pg_catalog.overlaps(%s, %s, %s, %s) does not exist",
			eval.TypeName(all[0].Type()), eval.TypeName(all[1].Type()), eval.TypeName(all[2].Type()), eval.TypeName(all[3].Type())).WithPosition(e.OpPos + 1).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	for i := range all {
		if all[i], err = b.coerce(all[i], t); err != nil {
			return nil, pgerror.As(err).WithPosition(e.OpPos + 1)
		}
	}
	return &overlapsExpr{args: all, t: t}, nil
}

type overlapsExpr struct {
	args []eval.Expr // s1, e1, s2, e2
	t    types.T
}

func (e *overlapsExpr) Type() types.T { return eval.BoolT() }

func (e *overlapsExpr) Eval(env *eval.Env) (types.Value, error) {
	var v [4]types.Value
	for i, a := range e.args {
		x, err := a.Eval(env)
		if err != nil {
			return nil, err
		}
		v[i] = x
	}
	cmp := func(a, b types.Value) int { return types.Compare(e.t, a, b) }
	// Each period's start is its lesser point, or its one point when the
	// other is NULL (and then its end is unknown).
	order := func(s, en types.Value) (types.Value, types.Value, bool) {
		if s == nil {
			if en == nil {
				return nil, nil, false
			}
			return en, nil, true
		}
		if en != nil && cmp(s, en) > 0 {
			return en, s, true
		}
		return s, en, true
	}
	s1, e1, ok1 := order(v[0], v[1])
	s2, e2, ok2 := order(v[2], v[3])
	if !ok1 || !ok2 {
		return nil, nil
	}
	c := cmp(s1, s2)
	if c == 0 {
		// Equal starts: true when both ends are known.
		if e1 == nil || e2 == nil {
			return nil, nil
		}
		return true, nil
	}
	// The test is symmetric: let period 1 be the one starting later.
	if c < 0 {
		s1, e1, s2, e2 = s2, e2, s1, e1
	}
	// s1 < e2 (or, redundantly save for NULLs, e1 < e2).
	if e2 == nil {
		return nil, nil
	}
	if cmp(s1, e2) < 0 {
		return true, nil
	}
	if e1 == nil {
		return nil, nil
	}
	return false, nil
}
