package sql

import (
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
)

// Binding ordered-set aggregate calls, f(direct args) WITHIN GROUP (ORDER
// BY value), whose functions (percentile_cont, percentile_disc, mode) are
// builtins'. The value is the aggregated input, fed to the state sorted by
// the ORDER BY (aggPlan's machinery of aggregate ORDER BY); the direct
// arguments ride along with each row and must not depend on it.

// bindOrderedSet binds an ordered-set aggregate call.
func (b *binder) bindOrderedSet(fc *ast.FuncCall) (*aggSpec, error) {
	name := fc.Name.Name()
	if !isOrderedSetName(name) {
		return nil, pgerror.New(pgerror.WrongObjectType, "%s is not an ordered-set aggregate, so it cannot have WITHIN GROUP", name).WithPosition(fc.Pos + 1)
	}
	if !fc.WithinGroup || len(fc.OrderBy) != 1 {
		// Without WITHIN GROUP no signature matches, as PostgreSQL says.
		var args []eval.Expr
		for _, a := range fc.Args {
			x, err := b.bind(a)
			if err != nil {
				return nil, err
			}
			args = append(args, x)
		}
		return nil, noFunctionError(name, args, fc.Pos)
	}
	if fc.Distinct || fc.Star {
		return nil, pgerror.New(pgerror.SyntaxError, "cannot use DISTINCT or * with WITHIN GROUP").WithPosition(fc.Pos + 1)
	}
	value, err := b.bind(fc.OrderBy[0].Expr)
	if err != nil {
		return nil, err
	}
	var direct []eval.Expr
	for _, a := range fc.Args {
		x, err := b.bind(a)
		if err != nil {
			return nil, err
		}
		direct = append(direct, x)
	}
	args := append(direct, value)
	written := argTypeList(args)
	call, err := builtins.Aggregates[name].Resolve(b, args, false)
	if err == builtins.ErrNoFunction {
		err = noAggregateError(name, written)
	}
	if err != nil {
		return nil, callError(err, fc)
	}
	// The aggregated value comes first, coerced as the aggregate takes it.
	value = call.Args[0]
	spec := &aggSpec{fn: &aggregateFunc{name: name, newState: call.NewState}, t: call.T, args: call.Args}
	o := fc.OrderBy[0]
	spec.orderBy = []sortKey{{e: value, desc: o.Desc, nullsFirst: nullsFirst(o)}}
	if fc.Filter != nil {
		if spec.filter, err = b.bindCondition(fc.Filter, "FILTER"); err != nil {
			return nil, err
		}
	}
	return spec, nil
}
