package sql

import (
	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// builtin is a scalar function: resolve checks and coerces the arguments
// and gives the result type; call computes the result.
type builtin struct {
	resolve func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error)
	call    func(x eval.Context, args []types.Value) (types.Value, error)
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
func signature(ret types.OID, params ...types.OID) func(eval.Binder, []eval.Expr) ([]eval.Expr, types.T, error) {
	return func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != len(params) {
			return nil, types.T{}, errNoFunction
		}
		out := make([]eval.Expr, len(args))
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

// fnOverload is one signature of an overloaded builtin.
type fnOverload struct {
	params []types.OID // Unknown accepts an argument of any type as it is
	// variadic repeats the last parameter for any further arguments.
	variadic bool
	ret      types.OID
	// retArg >= 0 makes the result the type of that argument, as for
	// PostgreSQL's anyelement functions; -1 uses ret.
	retArg int
	call   func(x eval.Context, args []types.Value) (types.Value, error)
}

// overloaded makes a builtin from signatures listed in PostgreSQL's order
// of preference.
func overloaded(strict bool, os ...fnOverload) *builtin {
	return &builtin{strict: strict, overloads: os}
}

// sig is an overload with a fixed result type.
func sig(ret types.OID, call func(x eval.Context, args []types.Value) (types.Value, error), params ...types.OID) fnOverload {
	return fnOverload{params: params, ret: ret, retArg: -1, call: call}
}

// tableFunc is a set-returning function with several output columns, used
// in FROM: pg_show_all_settings() (behind pg_settings), pg_get_keywords(),
// information_schema._pg_expandarray(). Where PostgreSQL declares the
// function with OUT arguments, the columns are read from its pg_proc row,
// so names and types are PostgreSQL's.
type tableFunc struct {
	// resolve checks and coerces the arguments and gives the columns.
	resolve func(b eval.Binder, args []eval.Expr) ([]eval.Expr, []funcColumn, error)
	gen     func(x eval.Context, args []types.Value) ([]eval.Row, error)
	// strict functions return no rows for a NULL argument.
	strict bool
}

// tableFuncs maps lower-case function names to table functions.
var tableFuncs = map[string]*tableFunc{}

// funcColumn is an output column of a set-returning function.
type funcColumn struct {
	name string
	t    types.T
}
