package builtins

import (
	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// Func is a scalar function: Resolve checks and coerces the arguments
// and gives the result type; Call computes the result.
type Func struct {
	Resolve func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error)
	Call    func(x eval.Context, args []types.Value) (types.Value, error)
	// Strict functions return NULL for any NULL argument without being
	// called.
	Strict bool
	// Overloads, when set, replace Resolve and Call: signatures whose
	// implementations differ (date_trunc of a timestamp or of a
	// timestamptz), chosen as PostgreSQL chooses (the binder's
	// bindOverloaded, in package sql).
	Overloads []Overload
}

// Funcs maps lower-case function names to implementations; filled by
// the init functions of this package's files and of packages sql and
// sql/catalogviews (the functions that read the session), through
// Register.
var Funcs = map[string]*Func{}

// Register adds a scalar function. A name registered twice is a
// programming error that would silently replace a function, so it panics
// when the program starts.
func Register(name string, f *Func) {
	if _, dup := Funcs[name]; dup {
		panic("builtins: function " + name + " registered twice")
	}
	Funcs[name] = f
}

// RegisterSet adds a set-returning function, refusing a name registered
// twice as Register does.
func RegisterSet(name string, f *SetFunc) {
	if _, dup := SetFuncs[name]; dup {
		panic("builtins: set-returning function " + name + " registered twice")
	}
	SetFuncs[name] = f
}

// Signature makes a resolver for fixed argument types (Unknown accepts any
// type as is) and a fixed result type.
func Signature(ret types.OID, params ...types.OID) func(eval.Binder, []eval.Expr) ([]eval.Expr, types.T, error) {
	return func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != len(params) {
			return nil, types.T{}, ErrNoFunction
		}
		out := make([]eval.Expr, len(args))
		for i, a := range args {
			if params[i] == types.Unknown {
				out[i] = b.ResolveUnknown(a)
				continue
			}
			c, err := b.Coerce(a, types.Of(params[i]))
			if err != nil {
				return nil, types.T{}, ErrNoFunction
			}
			out[i] = c
		}
		return out, types.Of(ret), nil
	}
}

// ErrNoFunction is replaced by PostgreSQL's full message where the call's
// name and argument types are known.
var ErrNoFunction = pgerror.New(pgerror.UndefinedFunction, "function does not exist")

// Overload is one signature of an overloaded builtin.
type Overload struct {
	Params []types.OID // Unknown accepts an argument of any type as it is
	// Variadic repeats the last parameter for any further arguments.
	Variadic bool
	Ret      types.OID
	// RetArg >= 0 makes the result the type of that argument, as for
	// PostgreSQL's anyelement functions; -1 uses ret.
	RetArg int
	Call   func(x eval.Context, args []types.Value) (types.Value, error)
}

// overloaded makes a builtin from signatures listed in PostgreSQL's order
// of preference.
func overloaded(strict bool, os ...Overload) *Func {
	return &Func{Strict: strict, Overloads: os}
}

// sig is an overload with a fixed result type.
func sig(ret types.OID, call func(x eval.Context, args []types.Value) (types.Value, error), params ...types.OID) Overload {
	return Overload{Params: params, Ret: ret, RetArg: -1, Call: call}
}

// SetFunc is a set-returning function with several output columns, used
// in FROM: pg_show_all_settings() (behind pg_settings), pg_get_keywords(),
// information_schema._pg_expandarray(). Where PostgreSQL declares the
// function with OUT arguments, the columns are read from its pg_proc row,
// so names and types are PostgreSQL's.
type SetFunc struct {
	// Resolve checks and coerces the arguments and gives the columns.
	Resolve func(b eval.Binder, args []eval.Expr) ([]eval.Expr, []Column, error)
	Gen     func(x eval.Context, args []types.Value) ([]eval.Row, error)
	// Strict functions return no rows for a NULL argument.
	Strict bool
}

// SetFuncs maps lower-case function names to table functions.
var SetFuncs = map[string]*SetFunc{}

// Column is an output column of a set-returning function.
type Column struct {
	Name string
	T    types.T
}
