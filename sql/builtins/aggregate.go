package builtins

import (
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
