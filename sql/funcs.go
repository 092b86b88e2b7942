package sql

import (
	"slices"
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/types"
)

// builtin is a scalar function: resolve checks and coerces the arguments
// and gives the result type; call computes the result.
type builtin struct {
	resolve func(b argBinder, args []expr) ([]expr, types.T, error)
	call    func(x evalContext, args []types.Value) (types.Value, error)
	// strict functions return NULL for any NULL argument without being
	// called.
	strict bool
	// overloads, when set, replace resolve and call: signatures whose
	// implementations differ (date_trunc of a timestamp or of a
	// timestamptz), chosen as PostgreSQL chooses (see funcs_overload.go).
	overloads []fnOverload
}

// builtins maps lower-case function names to implementations; filled by
// the init functions of the funcs_*.go files.
var builtins = map[string]*builtin{}

func register(name string, b *builtin) { builtins[name] = b }

// signature makes a resolver for fixed argument types (Unknown accepts any
// type as is) and a fixed result type.
func signature(ret types.OID, params ...types.OID) func(argBinder, []expr) ([]expr, types.T, error) {
	return func(b argBinder, args []expr) ([]expr, types.T, error) {
		if len(args) != len(params) {
			return nil, types.T{}, errNoFunction
		}
		out := make([]expr, len(args))
		for i, a := range args {
			if params[i] == types.Unknown {
				out[i] = b.ResolveUnknown(a)
				continue
			}
			c, err := b.Coerce(a, types.Of(params[i]))
			if err != nil {
				return nil, types.T{}, errNoFunction
			}
			out[i] = c
		}
		return out, types.Of(ret), nil
	}
}

// errNoFunction is replaced by PostgreSQL's full message where the call's
// name and argument types are known.
var errNoFunction = pgerror.New(pgerror.UndefinedFunction, "function does not exist")

func (b *binder) bindFunc(fc *ast.FuncCall) (expr, error) {
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
	if _, ok := windowOnly[name]; ok {
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
	var args []expr
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
	bi, ok := builtins[name]
	if !ok {
		return nil, noFunctionError(name, args, fc.Pos)
	}
	if bi.overloads != nil {
		return b.bindOverloaded(name, bi, args, fc)
	}
	coerced, t, err := bi.resolve(b, args)
	if err != nil {
		if err == errNoFunction {
			return nil, noFunctionError(name, args, fc.Pos)
		}
		return nil, withPos(err, fc)
	}
	return &funcExpr{name: name, args: coerced, fn: bi.call, strict: bi.strict, t: t}, nil
}

// withoutVoidParams drops the arguments that are parameters the client
// declared of type void, as PostgreSQL's function lookup does for pgjdbc:
// a CallableStatement's OUT parameters are sent so ({? = call upper(?)}
// becomes SELECT * FROM upper($1, $2) AS result, $1 void).
func withoutVoidParams(args []expr) []expr {
	isVoid := func(a expr) bool {
		p, ok := a.(*paramRef)
		return ok && p.t.OID == types.Void
	}
	if !slices.ContainsFunc(args, isVoid) {
		return args
	}
	out := make([]expr, 0, len(args))
	for _, a := range args {
		if !isVoid(a) {
			out = append(out, a)
		}
	}
	return out
}

func noFunctionError(name string, args []expr, pos int) error {
	return pgerror.New(pgerror.UndefinedFunction, "function %s(%s) does not exist", name, argTypeList(args)).WithPosition(pos + 1).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// bindConditionalFunc binds COALESCE, GREATEST, LEAST and NULLIF, whose
// arguments share one resolved type.
func (b *binder) bindConditionalFunc(name string, args []expr, fc *ast.FuncCall) (expr, error) {
	upper := strings.ToUpper(name)
	if len(args) == 0 || (name == "nullif" && len(args) != 2) {
		return nil, noFunctionError(name, args, fc.Pos)
	}
	t, err := commonType(args, upper)
	if err != nil {
		return nil, withPos(err, fc)
	}
	if t.OID == types.Unknown {
		t = textT()
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
		return &coalesceExpr{args: args, t: t}, nil
	}
	want := 1
	if name == "least" {
		want = -1
	}
	return &funcExpr{name: name, args: args, t: t, fn: func(_ evalContext, a []types.Value) (types.Value, error) {
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
func (b *binder) bindNullif(args []expr, t types.T, fc *ast.FuncCall) (expr, error) {
	first := b.ResolveUnknown(args[0])
	lt, rt := first.typ().OID, args[1].typ().OID
	if rt == types.Unknown {
		rt = lt
	}
	floats := func(o types.OID) bool { return o == types.Float4 || o == types.Float8 }
	res := t
	switch {
	case isIntType(lt) && isIntType(rt), floats(lt) && floats(rt), dateLike(lt) && dateLike(rt):
		res = types.Of(lt)
	case typeCategory(lt) == 'S' && typeCategory(rt) == 'S':
		res = textT()
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
	return &funcExpr{name: "nullif", args: []expr{x, y}, t: res, fn: func(ec evalContext, a []types.Value) (types.Value, error) {
		if a[0] == nil || a[1] == nil {
			return a[0], nil
		}
		v := a[0]
		if res.OID != t.OID {
			var err error
			if v, err = castValue(ec, v, res, t, false); err != nil {
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
func (b *binder) bindSpecial(e *ast.SpecialFunc) (expr, error) {
	name := map[string]string{
		"CURRENT_DATE": "current_date", "CURRENT_TIMESTAMP": "now", "LOCALTIMESTAMP": "localtimestamp",
		"CURRENT_TIME": "current_time", "LOCALTIME": "localtime",
		"CURRENT_USER": "current_user", "SESSION_USER": "session_user", "USER": "current_user", "CURRENT_ROLE": "current_user",
		"CURRENT_CATALOG": "current_database", "CURRENT_SCHEMA": "current_schema",
	}[e.Name]
	bi, ok := builtins[name]
	if !ok {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "%s is not supported", e.Name).WithPosition(e.Pos + 1)
	}
	if bi.overloads != nil {
		return b.bindOverloaded(name, bi, nil, &ast.FuncCall{Pos: e.Pos})
	}
	args, t, err := bi.resolve(b, nil)
	if err != nil {
		return nil, withPos(err, e)
	}
	return &funcExpr{name: name, args: args, fn: bi.call, strict: bi.strict, t: t}, nil
}
