package sql

import (
	"slices"
	"strconv"
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// aggCtx is the binder's view of an aggregating query level: its GROUP BY
// expressions and the aggregate calls found so far. Expressions bound after
// grouping read a row of [group values..., aggregate results...].
type aggCtx struct {
	groupFP    []string
	groupExprs []eval.Expr
	aggs       []*aggSpec
	// sets lists the grouping sets as indexes into groupExprs; nil without
	// ROLLUP, CUBE or GROUPING SETS (grouping.go).
	sets [][]int
}

// aggSpec is one aggregate call.
type aggSpec struct {
	fn       *aggregateFunc
	args     []eval.Expr
	distinct bool
	filter   eval.Expr
	orderBy  []sortKey
	fp       string
	t        types.T
}

// matchGroup binds e as a reference to a GROUP BY expression or an aggregate
// call when it is one.
func (a *aggCtx) matchGroup(b *binder, e ast.Expr) (eval.Expr, bool, error) {
	fp := fingerprint(e)
	if i := slices.Index(a.groupFP, fp); i >= 0 {
		return &eval.ColRef{Idx: i, T: a.groupExprs[i].Type()}, true, nil
	}
	fc, ok := e.(*ast.FuncCall)
	if !ok || fc.Over != nil || !isAggregateName(fc.Name.Name()) {
		return nil, false, nil
	}
	for i, s := range a.aggs {
		if s.fp == fp {
			return &eval.ColRef{Idx: len(a.groupExprs) + i, T: s.t}, true, nil
		}
	}
	spec, err := b.bindAggregate(fc)
	if err != nil {
		return nil, true, err
	}
	spec.fp = fp
	a.aggs = append(a.aggs, spec)
	return &eval.ColRef{Idx: len(a.groupExprs) + len(a.aggs) - 1, T: spec.t}, true, nil
}

func (b *binder) bindAggregate(fc *ast.FuncCall) (*aggSpec, error) {
	if b.inAggArgs {
		return nil, pgerror.New(pgerror.GroupingError, "aggregate function calls cannot be nested").WithPosition(fc.Pos + 1)
	}
	b.inAggArgs = true
	defer func() { b.inAggArgs = false }()
	name := fc.Name.Name()
	if fc.WithinGroup || isOrderedSetName(name) {
		return b.bindOrderedSet(fc)
	}
	spec := &aggSpec{distinct: fc.Distinct}
	var args []eval.Expr
	for _, a := range fc.Args {
		x, err := b.bind(a)
		if err != nil {
			return nil, err
		}
		args = append(args, x)
	}
	fn, t, args, err := resolveAggregate(b, name, fc.Star, args)
	if err != nil {
		return nil, callError(err, fc)
	}
	spec.fn, spec.t, spec.args = fn, t, args
	if fc.Filter != nil {
		f, err := b.bindCondition(fc.Filter, "FILTER")
		if err != nil {
			return nil, err
		}
		spec.filter = f
	}
	for _, o := range fc.OrderBy {
		x, err := b.bind(o.Expr)
		if err != nil {
			return nil, err
		}
		spec.orderBy = append(spec.orderBy, sortKey{e: b.resolveUnknown(x), desc: o.Desc, nullsFirst: nullsFirst(o)})
	}
	return spec, nil
}

func nullsFirst(o ast.OrderItem) bool {
	switch o.Nulls {
	case "FIRST":
		return true
	case "LAST":
		return false
	}
	return o.Desc
}

// aggregateFunc is an aggregate's implementation: one of builtins'
// Aggregates as resolved for a call, or an internal state such as
// groupdep.go's functionally dependent column.
type aggregateFunc struct {
	name string
	// newState makes a fresh accumulator.
	newState func() builtins.AggState
}

func isAggregateName(name string) bool { return builtins.IsAggregate(name) }

func isOrderedSetName(name string) bool {
	agg, ok := builtins.Aggregates[name]
	return ok && agg.OrderedSet
}

// resolveAggregate picks the implementation and result type of an
// aggregate for its argument types, through builtins' registry.
func resolveAggregate(b *binder, name string, star bool, args []eval.Expr) (*aggregateFunc, types.T, []eval.Expr, error) {
	agg, ok := builtins.Aggregates[name]
	if !ok {
		return nil, types.T{}, nil, pgerror.New(pgerror.FeatureNotSupported, "aggregate %s is not supported", name)
	}
	written := argTypeList(args) // the types as called, for errors
	call, err := agg.Resolve(b, args, star)
	if err == builtins.ErrNoFunction {
		err = noAggregateError(name, written)
	}
	if err != nil {
		return nil, types.T{}, nil, err
	}
	return &aggregateFunc{name: name, newState: call.NewState}, call.T, call.Args, nil
}

// noAggregateError is PostgreSQL's error for an aggregate call no
// signature matches.
func noAggregateError(name, argTypes string) error {
	return pgerror.New(pgerror.UndefinedFunction, "function %s(%s) does not exist", name, argTypes).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// callError points a resolution error at the call, except the one
// PostgreSQL reports without a position.
func callError(err error, fc *ast.FuncCall) error {
	if err == builtins.ErrUnknownPolymorphic {
		return err
	}
	return withPos(err, fc)
}

func argTypeList(args []eval.Expr) string {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = eval.TypeName(a.Type())
	}
	return strings.Join(names, ", ")
}

// aggPlan groups its input and computes aggregates. Its output row is the
// group values followed by the aggregate results. With no GROUP BY it
// yields exactly one row, even for empty input.
type aggPlan struct {
	input      plan
	groupExprs []eval.Expr
	aggs       []*aggSpec
	// sets, when not nil, are the grouping sets (indexes into groupExprs):
	// each row goes to one group per set, and each output row ends with
	// the mask of the group expressions its set leaves out (grouping.go).
	sets [][]int
	cols []outCol
}

func (p *aggPlan) columns() []outCol { return p.cols }

func (p *aggPlan) explain(depth int, out *[]string) {
	if len(p.groupExprs) > 0 {
		explainLine(out, depth, "HashAggregate")
	} else {
		explainLine(out, depth, "Aggregate")
	}
	p.input.explain(depth+1, out)
}

type aggGroup struct {
	keys   eval.Row
	absent int64 // with grouping sets: the mask of the group's set
	states []builtins.AggState
	// per-aggregate buffered inputs for DISTINCT / ORDER BY aggregates
	buffered [][]eval.Row
}

func (p *aggPlan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	if len(p.groupExprs) > 0 {
		// GROUP BY spills past work_mem (agg_spill.go).
		return p.openHashed(x, outer)
	}
	in, err := p.input.open(x, outer)
	if err != nil {
		return nil, err
	}
	defer in.close()
	env := &eval.Env{Outer: outer, X: x}
	groups := map[string]*aggGroup{}
	var order []*aggGroup
	newGroup := func(keys eval.Row, absent int64) *aggGroup {
		g := &aggGroup{keys: keys, absent: absent, states: make([]builtins.AggState, len(p.aggs)), buffered: make([][]eval.Row, len(p.aggs))}
		for i, a := range p.aggs {
			g.states[i] = a.fn.newState()
		}
		return g
	}
	gtypes := exprTypes(p.groupExprs)
	var masks []int64
	if p.sets != nil {
		masks = groupingMasks(p.sets, len(p.groupExprs))
	}
	held := x.rowsAccount("an aggregation's groups and states")
	growth := make([]func([]types.Value) int64, len(p.aggs))
	for i, a := range p.aggs {
		growth[i] = aggStateGrowth(a.fn.name)
	}
	// argVals holds a row's arguments of each aggregate (nil: filtered out),
	// evaluated once however many grouping sets take the row.
	argVals := make([][]types.Value, len(p.aggs))
	for {
		r, err := in.next()
		if err != nil {
			return nil, err
		}
		if r == nil {
			break
		}
		if err := x.CheckCancel(); err != nil {
			return nil, err
		}
		env.Row = r
		keys := make(eval.Row, len(p.groupExprs))
		for i, g := range p.groupExprs {
			if keys[i], err = g.Eval(env); err != nil {
				return nil, err
			}
		}
		for i, a := range p.aggs {
			argVals[i] = nil
			if a.filter != nil {
				v, err := a.filter.Eval(env)
				if err != nil {
					return nil, err
				}
				if v != true {
					continue
				}
			}
			vals := make([]types.Value, len(a.args), len(a.args)+len(a.orderBy))
			for j, ae := range a.args {
				if vals[j], err = ae.Eval(env); err != nil {
					return nil, err
				}
			}
			for _, o := range a.orderBy {
				v, err := o.e.Eval(env)
				if err != nil {
					return nil, err
				}
				vals = append(vals, v)
			}
			argVals[i] = vals
		}
		nsets := 1
		if p.sets != nil {
			nsets = len(p.sets)
		}
		for si := range nsets {
			setRow, k := keys, ""
			if p.sets == nil {
				k = rowKey(keys, gtypes)
			} else {
				setRow = make(eval.Row, len(keys))
				for _, i := range p.sets[si] {
					setRow[i] = keys[i]
				}
				k = setGroupKey(si, setRow, gtypes)
			}
			g, ok := groups[k]
			if !ok {
				var absent int64
				if masks != nil {
					absent = masks[si]
				}
				if err := held.keepBytes(groupCost(setRow, k, len(p.aggs))); err != nil {
					held.close()
					return nil, err
				}
				g = newGroup(setRow, absent)
				groups[k] = g
				order = append(order, g)
			}
			for i, a := range p.aggs {
				vals := argVals[i]
				if vals == nil {
					continue
				}
				if a.distinct || len(a.orderBy) > 0 {
					if err := held.keep(vals); err != nil {
						held.close()
						return nil, err
					}
					g.buffered[i] = append(g.buffered[i], vals)
					continue
				}
				if growth[i] != nil {
					if err := held.keepBytes(growth[i](vals[:len(a.args)])); err != nil {
						held.close()
						return nil, err
					}
				}
				sized, _ := g.states[i].(builtins.SizedState)
				var before int64
				if sized != nil {
					before = sized.HeldBytes()
				}
				if err := g.states[i].Add(x, vals[:len(a.args)]); err != nil {
					return nil, err
				}
				if sized != nil {
					if err := held.keepBytes(growingBufferCost(sized.HeldBytes() - before)); err != nil {
						held.close()
						return nil, err
					}
				}
			}
		}
	}
	if p.sets == nil && len(order) == 0 && len(p.groupExprs) == 0 {
		order = append(order, newGroup(nil, 0))
	}
	// An empty grouping set yields its one row even from no rows, as a
	// query without GROUP BY does.
	for si, s := range p.sets {
		if len(s) == 0 {
			none := make(eval.Row, len(p.groupExprs))
			k := setGroupKey(si, none, gtypes)
			if _, ok := groups[k]; !ok {
				g := newGroup(none, masks[si])
				groups[k] = g
				order = append(order, g)
			}
		}
	}
	rows := make([]eval.Row, 0, len(order))
	for _, g := range order {
		row := make(eval.Row, 0, len(p.cols))
		row = append(row, g.keys...)
		for i, a := range p.aggs {
			if a.distinct || len(a.orderBy) > 0 {
				if err := feedBuffered(x, a, g.states[i], g.buffered[i]); err != nil {
					return nil, err
				}
			}
			v, err := g.states[i].Result(x)
			if err != nil {
				return nil, err
			}
			row = append(row, v)
		}
		if p.sets != nil {
			row = append(row, g.absent)
		}
		rows = append(rows, row)
	}
	heldBySlice(held, rows)
	return &sliceIter{rows: rows}, nil
}

// setGroupKey is the map key of a group of grouping set si.
func setGroupKey(si int, keys eval.Row, gtypes []types.T) string {
	return strconv.Itoa(si) + ":" + rowKey(keys, gtypes)
}

// feedBuffered applies ORDER BY and DISTINCT of an aggregate call to its
// buffered inputs, then feeds them to the accumulator.
func feedBuffered(x *execCtx, a *aggSpec, st builtins.AggState, rows []eval.Row) error {
	n := len(a.args)
	switch {
	case len(a.orderBy) > 0:
		keys := make([]sortKey, len(a.orderBy))
		copy(keys, a.orderBy)
		sortRowsBy(rows, n, keys)
	case a.distinct:
		// PostgreSQL finds the distinct values by sorting them, so without
		// an ORDER BY they reach the aggregate in ascending order
		// (string_agg(DISTINCT x, ',') is 'a,b', whatever order the rows
		// came in).
		keys := make([]sortKey, n)
		for i, e := range a.args {
			keys[i] = sortKey{e: e}
		}
		sortRowsBy(rows, 0, keys)
	}
	seen := map[string]bool{}
	ts := exprTypes(a.args)
	for _, r := range rows {
		vals := r[:n]
		if a.distinct {
			k := rowKey(vals, ts)
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		if err := st.Add(x, vals); err != nil {
			return err
		}
	}
	return nil
}

func sortRowsBy(rows []eval.Row, offset int, keys []sortKey) {
	sortStable(rows, func(a, b eval.Row) bool {
		return compareSortKeys(keys, a[offset:], b[offset:]) < 0
	})
}
