package sql

import (
	"cdcdb/sql/ast"
	"cdcdb/types"
)

// fnOverload is one signature of an overloaded builtin.
type fnOverload struct {
	params []types.OID // Unknown accepts an argument of any type as it is
	// variadic repeats the last parameter for any further arguments.
	variadic bool
	ret      types.OID
	// retArg >= 0 makes the result the type of that argument, as for
	// PostgreSQL's anyelement functions; -1 uses ret.
	retArg int
	call   func(x *execCtx, args []types.Value) (types.Value, error)
}

// overloaded makes a builtin from signatures listed in PostgreSQL's order
// of preference.
func overloaded(strict bool, os ...fnOverload) *builtin {
	return &builtin{strict: strict, overloads: os}
}

// sig is an overload with a fixed result type.
func sig(ret types.OID, call func(x *execCtx, args []types.Value) (types.Value, error), params ...types.OID) fnOverload {
	return fnOverload{params: params, ret: ret, retArg: -1, call: call}
}

// bindOverloaded picks the signature for the arguments as PostgreSQL's
// function resolution does in the cases that matter here: every argument
// must convert implicitly (an unknown literal converts to anything), the
// signature with the most exactly matching types wins, and among equals the
// one listed first (the category's preferred type: timestamptz before
// timestamp, float8 before numeric for an integer...).
func (b *binder) bindOverloaded(name string, bi *builtin, args []expr, fc *ast.FuncCall) (expr, error) {
	best, bestExact := -1, -1
	for i, o := range bi.overloads {
		exact, ok := overloadMatch(o, args)
		if ok && exact > bestExact {
			best, bestExact = i, exact
		}
	}
	if best < 0 {
		return nil, noFunctionError(name, args, fc.Pos)
	}
	o := bi.overloads[best]
	coerced := make([]expr, len(args))
	for i, a := range args {
		p := overloadParam(o, i)
		if p == types.Unknown {
			coerced[i] = b.resolveUnknown(a)
			continue
		}
		c, err := b.coerce(a, types.Of(p))
		if err != nil {
			return nil, withPos(err, fc.Args[i])
		}
		coerced[i] = c
	}
	t := types.Of(o.ret)
	if o.retArg >= 0 {
		t = coerced[o.retArg].typ()
	}
	return &funcExpr{name: name, args: coerced, fn: o.call, strict: bi.strict, t: t}, nil
}

func overloadParam(o fnOverload, i int) types.OID {
	if i >= len(o.params) {
		return o.params[len(o.params)-1]
	}
	return o.params[i]
}

// overloadMatch reports whether the arguments fit a signature and how many
// match its parameter types exactly.
func overloadMatch(o fnOverload, args []expr) (int, bool) {
	if len(args) != len(o.params) && !(o.variadic && len(args) >= len(o.params)-1) {
		return 0, false
	}
	exact := 0
	for i, a := range args {
		p, at := overloadParam(o, i), a.typ().OID
		switch {
		case p == types.Unknown || at == p:
			exact++
		case at == types.Unknown || implicitCastOK(at, p):
		default:
			return 0, false
		}
	}
	return exact, true
}
