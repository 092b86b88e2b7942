package sql

import (
	"slices"
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

func (b *binder) bindFunc(fc *ast.FuncCall) (eval.Expr, error) {
	name := fc.Name.Name()
	if fc.Name.Schema() == "cdcdb" && fc.Over == nil {
		return b.bindCdcdbFunc(fc)
	}
	if s := fc.Name.Schema(); s != "" && s != "pg_catalog" && s != "public" && s != "information_schema" {
		return nil, pgerror.New(pgerror.UndefinedFunction, "function %s does not exist", joinParts(fc.Name.Parts)).WithPosition(fc.Pos + 1)
	}
	if fc.Over != nil {
		return b.bindWindowCall(fc)
	}
	if name == "grouping" {
		return b.bindGrouping(fc)
	}
	if _, ok := builtins.WindowFuncs[name]; ok {
		return nil, pgerror.New(pgerror.WrongObjectType, "window function %s requires an OVER clause", name).WithPosition(fc.Pos + 1)
	}
	if isAggregateName(name) {
		if b.agg == nil {
			return nil, pgerror.New(pgerror.GroupingError, "aggregate functions are not allowed here").WithPosition(fc.Pos + 1)
		}
		if b.inAggArgs {
			return nil, pgerror.New(pgerror.GroupingError, "aggregate function calls cannot be nested").WithPosition(fc.Pos + 1)
		}
		ex, _, err := b.agg.matchGroup(b, fc)
		return ex, err
	}
	var args []eval.Expr
	for _, a := range fc.Args {
		x, err := b.bind(a)
		if err != nil {
			return nil, err
		}
		args = append(args, x)
	}
	args = withoutVoidParams(args)
	switch name {
	case "coalesce", "greatest", "least", "nullif":
		return b.bindConditionalFunc(name, args, fc)
	}
	bi, ok := builtins.Funcs[name]
	if !ok {
		return nil, noFunctionError(name, args, fc.Pos)
	}
	if bi.Overloads != nil {
		return b.bindOverloaded(name, bi, args, fc)
	}
	coerced, t, err := bi.Resolve(b, args)
	if err != nil {
		if err == builtins.ErrNoFunction {
			return nil, noFunctionError(name, args, fc.Pos)
		}
		return nil, withPos(err, fc)
	}
	return &eval.FuncCall{Name: name, Args: coerced, Fn: bi.Call, Strict: bi.Strict, T: t}, nil
}

// withoutVoidParams drops the arguments that are parameters the client
// declared of type void, as PostgreSQL's function lookup does for pgjdbc:
// a CallableStatement's OUT parameters are sent so ({? = call upper(?)}
// becomes SELECT * FROM upper($1, $2) AS result, $1 void).
func withoutVoidParams(args []eval.Expr) []eval.Expr {
	isVoid := func(a eval.Expr) bool {
		p, ok := a.(*eval.Param)
		return ok && p.T.OID == types.Void
	}
	if !slices.ContainsFunc(args, isVoid) {
		return args
	}
	out := make([]eval.Expr, 0, len(args))
	for _, a := range args {
		if !isVoid(a) {
			out = append(out, a)
		}
	}
	return out
}

func noFunctionError(name string, args []eval.Expr, pos int) error {
	return pgerror.New(pgerror.UndefinedFunction, "function %s(%s) does not exist", name, argTypeList(args)).WithPosition(pos + 1).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// bindConditionalFunc binds COALESCE, GREATEST, LEAST and NULLIF, whose
// arguments share one resolved type.
func (b *binder) bindConditionalFunc(name string, args []eval.Expr, fc *ast.FuncCall) (eval.Expr, error) {
	upper := strings.ToUpper(name)
	if len(args) == 0 || (name == "nullif" && len(args) != 2) {
		return nil, noFunctionError(name, args, fc.Pos)
	}
	t, err := eval.CommonType(args, upper)
	if err != nil {
		return nil, withPos(err, fc)
	}
	if t.OID == types.Unknown {
		t = eval.TextT()
	}
	if name == "nullif" {
		return b.bindNullif(args, t, fc)
	}
	for i := range args {
		if args[i], err = b.Coerce(args[i], t); err != nil {
			return nil, withPos(err, fc)
		}
	}
	if name == "coalesce" {
		return &eval.Coalesce{Args: args, T: t}, nil
	}
	want := 1
	if name == "least" {
		want = -1
	}
	return &eval.FuncCall{Name: name, Args: args, T: t, Fn: func(_ eval.Context, a []types.Value) (types.Value, error) {
		var best types.Value
		for _, v := range a {
			if v != nil && (best == nil || types.Compare(t, v, best)*want > 0) {
				best = v
			}
		}
		return best, nil
	}}, nil
}

// bindNullif binds NULLIF(a, b): the arguments are compared as their
// common type t, and the result is a, of the type PostgreSQL's "=" takes
// it as: a's own type where an operator compares it with b's type as it is
// (integers of any width, float4 with float8, dates with timestamps,
// char(n) with char(n)), text for the other strings, else t.
func (b *binder) bindNullif(args []eval.Expr, t types.T, fc *ast.FuncCall) (eval.Expr, error) {
	first := b.ResolveUnknown(args[0])
	lt, rt := first.Type().OID, args[1].Type().OID
	if rt == types.Unknown {
		rt = lt
	}
	floats := func(o types.OID) bool { return o == types.Float4 || o == types.Float8 }
	res := t
	switch {
	case eval.IsIntType(lt) && eval.IsIntType(rt), floats(lt) && floats(rt), eval.DateLike(lt) && eval.DateLike(rt):
		res = types.Of(lt)
	case eval.TypeCategory(lt) == 'S' && eval.TypeCategory(rt) == 'S':
		res = eval.TextT()
		if lt == rt && (lt == types.Bpchar || lt == types.Name) {
			res = types.Of(lt)
		}
	}
	x, err := b.Coerce(first, res)
	if err != nil {
		return nil, withPos(err, fc)
	}
	y, err := b.Coerce(args[1], t)
	if err != nil {
		return nil, withPos(err, fc)
	}
	return &eval.FuncCall{Name: "nullif", Args: []eval.Expr{x, y}, T: res, Fn: func(ec eval.Context, a []types.Value) (types.Value, error) {
		if a[0] == nil || a[1] == nil {
			return a[0], nil
		}
		v := a[0]
		if res.OID != t.OID {
			var err error
			if v, err = eval.CastValue(ec, v, res, t, false); err != nil {
				return nil, err
			}
		}
		if types.Compare(t, v, a[1]) == 0 {
			return nil, nil
		}
		return a[0], nil
	}}, nil
}

// bindSpecial binds the SQL-standard niladic functions.
func (b *binder) bindSpecial(e *ast.SpecialFunc) (eval.Expr, error) {
	name := map[string]string{
		"CURRENT_DATE": "current_date", "CURRENT_TIMESTAMP": "now", "LOCALTIMESTAMP": "localtimestamp",
		"CURRENT_TIME": "current_time", "LOCALTIME": "localtime",
		"CURRENT_USER": "current_user", "SESSION_USER": "session_user", "USER": "current_user", "CURRENT_ROLE": "current_user",
		"CURRENT_CATALOG": "current_database", "CURRENT_SCHEMA": "current_schema",
	}[e.Name]
	bi, ok := builtins.Funcs[name]
	if !ok {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "%s is not supported", e.Name).WithPosition(e.Pos + 1)
	}
	if bi.Overloads != nil {
		return b.bindOverloaded(name, bi, nil, &ast.FuncCall{Pos: e.Pos})
	}
	args, t, err := bi.Resolve(b, nil)
	if err != nil {
		return nil, withPos(err, e)
	}
	return &eval.FuncCall{Name: name, Args: args, Fn: bi.Call, Strict: bi.Strict, T: t}, nil
}
