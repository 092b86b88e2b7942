package builtins

import (
	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// AggState accumulates one group's (or one window frame's) values for one
// aggregate call. Add sees each input row's arguments in the order the
// call's ORDER BY asks for; Result may be called after any Add (window
// frames that grow read it once per row), so it must not spoil the state.
type AggState interface {
	Add(x eval.Context, args []types.Value) error
	Result(x eval.Context) (types.Value, error)
}

// Aggregate is an aggregate function. Resolve checks and coerces the
// arguments (star is count(*)'s star, false for every other call) and says
// how to aggregate them; ErrNoFunction from it becomes PostgreSQL's "function
// f(types) does not exist", naming the types as called.
//
// An OrderedSet aggregate is called as f(direct args) WITHIN GROUP (ORDER BY
// value): its resolver gets the direct arguments followed by the aggregated
// value, and returns the aggregated value first in AggCall.Args, since that
// is what the grouping operator sorts the input by.
type Aggregate struct {
	Resolve    func(b eval.Binder, args []eval.Expr, star bool) (AggCall, error)
	OrderedSet bool
}

// AggCall is a resolved aggregate call: its coerced arguments, its result
// type and a maker of fresh states.
type AggCall struct {
	Args     []eval.Expr
	T        types.T
	NewState func() AggState
}

// Aggregates maps lower-case aggregate names to implementations; filled by
// this package's init functions through RegisterAggregate.
var Aggregates = map[string]*Aggregate{}

// RegisterAggregate adds an aggregate, refusing a name registered twice as
// Register does.
func RegisterAggregate(name string, a *Aggregate) {
	if _, dup := Aggregates[name]; dup {
		panic("builtins: aggregate " + name + " registered twice")
	}
	Aggregates[name] = a
}

// IsAggregate reports whether name is an aggregate function.
func IsAggregate(name string) bool {
	_, ok := Aggregates[name]
	return ok
}

// aggregate registers an aggregate resolved by resolve.
func aggregate(name string, resolve func(b eval.Binder, args []eval.Expr, star bool) (AggCall, error)) {
	RegisterAggregate(name, &Aggregate{Resolve: resolve})
}

// resolveUnknowns gives every untyped literal or parameter among args its
// default type (text), as an aggregate's polymorphic parameters take them.
func resolveUnknowns(b eval.Binder, args []eval.Expr) {
	for i := range args {
		args[i] = b.ResolveUnknown(args[i])
	}
}

// coerceArg converts argument i to a parameter's type t, leaving it as it
// was on failure so the error can name the types as called. It fails with
// ErrNoFunction when the argument's type does not convert, and with the
// literal's own error when an untyped literal does not read as t
// (ntile('a') is invalid input for integer, as in PostgreSQL).
func coerceArg(b eval.Binder, args []eval.Expr, i int, t types.T) error {
	c, err := b.Coerce(args[i], t)
	switch {
	case err == nil:
		args[i] = c
		return nil
	case args[i].Type().OID == types.Unknown:
		return err
	}
	return ErrNoFunction
}

// ErrUnknownPolymorphic is PostgreSQL's error for an untyped literal or
// parameter given where only a polymorphic (anyelement) parameter takes
// it (json_agg('a'), lag(NULL) OVER ()). It carries no position, as
// PostgreSQL's does not; callers keep it so.
var ErrUnknownPolymorphic = pgerror.New(pgerror.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")

// notUnique is PostgreSQL's error for an untyped literal or parameter that
// fits several of an aggregate's overloads (sum('1'), bit_and(NULL)).
func notUnique(name string) error {
	return pgerror.New(pgerror.AmbiguousFunction, "function %s(unknown) is not unique", name).
		WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
}

// isUnknown reports whether x is an untyped literal or parameter.
func isUnknown(x eval.Expr) bool { return x.Type().OID == types.Unknown }
