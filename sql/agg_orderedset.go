package sql

import (
	"slices"

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
	if err := b.checkDirectArgs(fc.Args); err != nil {
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

// checkDirectArgs refuses a direct argument that reads a column of this
// query level which the query does not group by, as PostgreSQL does: it
// evaluates direct arguments once per group, so they may read only what
// the group's rows share. (They are bound as aggregate arguments, riding
// along with each row, which gives the same value for what is grouped.)
func (b *binder) checkDirectArgs(args []ast.Expr) error {
	grouped := func(e ast.Expr) bool { return slices.Contains(b.agg.groupFP, fingerprint(e)) }
	for _, a := range args {
		if grouped(a) {
			continue
		}
		var err error
		walkExpr(a, func(n ast.Node) bool {
			if err != nil {
				return false
			}
			if fc, ok := n.(*ast.FuncCall); ok && isAggregateName(fc.Name.Name()) {
				return false // its own arguments' rules apply
			}
			c, ok := n.(*ast.ColumnRef)
			if !ok {
				return true
			}
			if grouped(c) {
				return false
			}
			level, idx, col, rerr := b.sc.resolveColumn(c)
			if rerr != nil || level != 0 {
				return false // binding reports it, or it is an outer value
			}
			_, err = b.ungroupedColumn(c, idx, col)
			return false
		})
		if err != nil {
			return err
		}
	}
	return nil
}
