package sql

import (
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// bindOverloaded picks the signature for the arguments as PostgreSQL's
// function resolution does in the cases that matter here: every argument
// must convert implicitly (an unknown literal converts to anything), the
// signature with the most exactly matching types wins, and among equals the
// one listed first (the category's preferred type: timestamptz before
// timestamp, float8 before numeric for an integer...).
func (b *binder) bindOverloaded(name string, bi *builtins.Func, args []eval.Expr, fc *ast.FuncCall) (eval.Expr, error) {
	var tied []int // the signatures with the most exact matches
	bestExact := -1
	for i, o := range bi.Overloads {
		exact, ok := overloadMatch(o, args)
		switch {
		case !ok || exact < bestExact:
		case exact > bestExact:
			tied, bestExact = []int{i}, exact
		default:
			tied = append(tied, i)
		}
	}
	if len(tied) == 0 {
		return nil, noFunctionError(name, args, fc.Pos)
	}
	best, unique := preferredOverload(bi.Overloads, tied, args)
	if !unique {
		return nil, pgerror.New(pgerror.AmbiguousFunction, "function %s(%s) is not unique", name, argTypeList(args)).WithPosition(fc.Pos + 1).
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
	}
	o := bi.Overloads[best]
	coerced := make([]eval.Expr, len(args))
	for i, a := range args {
		p := overloadParam(o, i)
		if p == types.Unknown {
			coerced[i] = b.ResolveUnknown(a)
			continue
		}
		c, err := b.Coerce(a, types.Of(p))
		if err != nil {
			return nil, withPos(err, fc.Args[i])
		}
		coerced[i] = c
	}
	t := types.Of(o.Ret)
	if o.RetArg >= 0 {
		t = coerced[o.RetArg].Type()
	}
	return &eval.FuncCall{Name: name, Args: coerced, Fn: o.Call, Strict: bi.Strict, T: t}, nil
}

// preferredOverload breaks a tie between signatures that match equally
// many argument types exactly as PostgreSQL's func_select_candidate does:
// the signatures taking their category's preferred type (float8 for a
// number, text for a string, timestamptz for a date or time, ...) at the
// most places where an argument must be converted win. When several still
// tie and every argument's type is known, the call is ambiguous, as
// gcd(smallint, smallint) is between gcd(integer, integer), gcd(bigint,
// bigint) and gcd(numeric, numeric); with an unknown literal among the
// arguments, the signature listed first is taken.
func preferredOverload(os []builtins.Overload, tied []int, args []eval.Expr) (best int, unique bool) {
	if len(tied) == 1 {
		return tied[0], true
	}
	var kept []int
	most := -1
	for _, i := range tied {
		n := 0
		for j, a := range args {
			p, at := overloadParam(os[i], j), a.Type().OID
			if p != at && p != types.Unknown && at != types.Unknown && p == preferredType(eval.TypeCategory(at)) {
				n++
			}
		}
		switch {
		case n > most:
			kept, most = []int{i}, n
		case n == most:
			kept = append(kept, i)
		}
	}
	if len(kept) == 1 {
		return kept[0], true
	}
	for _, a := range args {
		if a.Type().OID == types.Unknown {
			return kept[0], true
		}
	}
	return kept[0], false
}

// preferredType is the preferred type of a type category (pg_type's
// typispreferred), or 0 for a category without one.
func preferredType(category byte) types.OID {
	switch category {
	case 'N':
		return types.Float8
	case 'S':
		return types.Text
	case 'D':
		return types.Timestamptz
	case 'T':
		return types.Interval
	case 'B':
		return types.Bool
	}
	return 0
}

func overloadParam(o builtins.Overload, i int) types.OID {
	if i >= len(o.Params) {
		return o.Params[len(o.Params)-1]
	}
	return o.Params[i]
}

// overloadMatch reports whether the arguments fit a signature and how many
// match its parameter types exactly.
func overloadMatch(o builtins.Overload, args []eval.Expr) (int, bool) {
	if len(args) != len(o.Params) && !(o.Variadic && len(args) >= len(o.Params)-1) {
		return 0, false
	}
	exact := 0
	for i, a := range args {
		p, at := overloadParam(o, i), a.Type().OID
		switch {
		case p == types.Unknown || at == p:
			exact++
		case at == types.Unknown || eval.ImplicitCastOK(at, p):
		default:
			return 0, false
		}
	}
	return exact, true
}
