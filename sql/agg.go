package sql

import (
	"slices"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

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
	if fc.WithinGroup || orderedSetAggregates[name] {
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
		return nil, withPos(err, fc)
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

// aggregateFunc is an aggregate's implementation.
type aggregateFunc struct {
	name string
	// newState makes a fresh accumulator.
	newState func() aggState
}

// aggState accumulates one group's values for one aggregate.
type aggState interface {
	add(x *execCtx, args []types.Value) error
	result(x *execCtx) (types.Value, error)
}

var aggregateNames = map[string]bool{
	"count": true, "sum": true, "avg": true, "min": true, "max": true,
	"bool_and": true, "bool_or": true, "every": true, "string_agg": true, "array_agg": true,
	"json_agg": true, "jsonb_agg": true, "json_object_agg": true, "jsonb_object_agg": true,
	"stddev": true, "stddev_samp": true, "stddev_pop": true, "variance": true, "var_samp": true, "var_pop": true,
	"bit_and": true, "bit_or": true,
	"percentile_cont": true, "percentile_disc": true, "mode": true,
}

func isAggregateName(name string) bool { return aggregateNames[name] }

// resolveAggregate picks the implementation and result type of an
// aggregate for its argument types.
func resolveAggregate(b *binder, name string, star bool, args []eval.Expr) (*aggregateFunc, types.T, []eval.Expr, error) {
	argc := func(n int) error {
		if len(args) != n {
			return pgerror.New(pgerror.UndefinedFunction, "function %s(%s) does not exist", name, argTypeList(args)).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		return nil
	}
	written := argTypeList(args) // the types as called, for errors
	noFunction := func() error {
		return pgerror.New(pgerror.UndefinedFunction, "function %s(%s) does not exist", name, written).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	if (name == "sum" || name == "avg") && len(args) == 1 && args[0].Type().OID == types.Unknown {
		// A literal of unknown type fits several of their overloads.
		return nil, types.T{}, nil, pgerror.New(pgerror.AmbiguousFunction, "function %s(unknown) is not unique", name).
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
	}
	for i := range args {
		args[i] = b.resolveUnknown(args[i])
	}
	switch name {
	case "count":
		if star {
			return &aggregateFunc{name: name, newState: func() aggState { return &countState{star: true} }}, eval.Int8T(), nil, nil
		}
		if err := argc(1); err != nil {
			return nil, types.T{}, nil, err
		}
		return &aggregateFunc{name: name, newState: func() aggState { return &countState{} }}, eval.Int8T(), args, nil
	case "sum", "avg":
		if err := argc(1); err != nil {
			return nil, types.T{}, nil, err
		}
		at := args[0].Type().OID
		var rt types.OID
		switch at {
		case types.Int2, types.Int4:
			rt = types.Int8
			if name == "avg" {
				rt = types.Numeric
			}
		case types.Int8, types.Numeric:
			rt = types.Numeric
		case types.Float4:
			rt = types.Float4
			if name == "avg" {
				rt = types.Float8
			}
		case types.Float8:
			rt = types.Float8
		case types.Interval:
			rt = types.Interval
		default:
			return nil, types.T{}, nil, pgerror.New(pgerror.UndefinedFunction, "function %s(%s) does not exist", name, eval.TypeName(args[0].Type())).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		avg := name == "avg"
		return &aggregateFunc{name: name, newState: func() aggState { return &sumState{in: at, out: rt, avg: avg} }}, types.Of(rt), args, nil
	case "min", "max":
		if err := argc(1); err != nil {
			return nil, types.T{}, nil, err
		}
		t := args[0].Type()
		want := 1
		if name == "min" {
			want = -1
		}
		return &aggregateFunc{name: name, newState: func() aggState { return &minMaxState{t: t, want: want} }}, t, args, nil
	case "bool_and", "every", "bool_or":
		if err := argc(1); err != nil {
			return nil, types.T{}, nil, err
		}
		x, err := b.coerce(args[0], eval.BoolT())
		if err != nil {
			return nil, types.T{}, nil, err
		}
		and := name != "bool_or"
		return &aggregateFunc{name: name, newState: func() aggState { return &boolState{and: and} }}, eval.BoolT(), []eval.Expr{x}, nil
	case "string_agg":
		if err := argc(2); err != nil {
			return nil, types.T{}, nil, err
		}
		for i := range args {
			x, err := b.coerce(args[i], eval.TextT())
			if err != nil {
				return nil, types.T{}, nil, noFunction()
			}
			args[i] = x
		}
		return &aggregateFunc{name: name, newState: func() aggState { return &stringAggState{} }}, eval.TextT(), args, nil
	case "array_agg":
		if err := argc(1); err != nil {
			return nil, types.T{}, nil, err
		}
		t := args[0].Type()
		at := eval.ArrayOf(t)
		if at.OID == 0 {
			return nil, types.T{}, nil, pgerror.New(pgerror.UndefinedObject, "could not find array type for data type %s", eval.TypeName(t))
		}
		return &aggregateFunc{name: name, newState: func() aggState { return &arrayAggState{elem: t.OID} }}, at, args, nil
	}
	if more, ok := moreAggregates[name]; ok {
		fn, t, args, err := more(b, name, args)
		if err == builtins.ErrNoFunction {
			err = pgerror.New(pgerror.UndefinedFunction, "function %s(%s) does not exist", name, argTypeList(args)).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		return fn, t, args, err
	}
	return nil, types.T{}, nil, pgerror.New(pgerror.FeatureNotSupported, "aggregate %s is not supported", name)
}

// moreAggregates are aggregates resolved outside the switch above, by
// files of their own concern (JSON, statistics).
var moreAggregates = map[string]func(b *binder, name string, args []eval.Expr) (*aggregateFunc, types.T, []eval.Expr, error){}

func argTypeList(args []eval.Expr) string {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = eval.TypeName(a.Type())
	}
	return strings.Join(names, ", ")
}

type countState struct {
	star bool
	n    int64
}

func (s *countState) add(_ *execCtx, args []types.Value) error {
	if s.star || args[0] != nil {
		s.n++
	}
	return nil
}
func (s *countState) result(*execCtx) (types.Value, error) { return s.n, nil }

// sumState sums (and for avg counts) in the widest type needed: int64 while
// it fits for small ints, numeric otherwise, float64 for floats.
type sumState struct {
	in, out types.OID
	avg     bool
	n       int64
	isum    int64
	dsum    *apd.Decimal
	fsum    float64
	ivsum   types.IntervalValue
}

func (s *sumState) add(_ *execCtx, args []types.Value) error {
	v := args[0]
	if v == nil {
		return nil
	}
	s.n++
	switch s.in {
	case types.Int2, types.Int4:
		s.isum += v.(int64)
	case types.Int8:
		if s.dsum == nil {
			s.dsum = new(apd.Decimal)
		}
		_, err := eval.NumericCtx.Add(s.dsum, s.dsum, apd.New(v.(int64), 0))
		return err
	case types.Numeric:
		if s.dsum == nil {
			s.dsum = new(apd.Decimal)
		}
		_, err := eval.ExactCtx(s.dsum, v.(*apd.Decimal)).Add(s.dsum, s.dsum, v.(*apd.Decimal))
		return eval.NumericChecked(s.dsum, err)
	case types.Float4, types.Float8:
		s.fsum += v.(float64)
	case types.Interval:
		iv := v.(types.IntervalValue)
		s.ivsum.Months += iv.Months
		s.ivsum.Days += iv.Days
		s.ivsum.Micros += iv.Micros
	}
	return nil
}

func (s *sumState) result(*execCtx) (types.Value, error) {
	if s.n == 0 {
		return nil, nil
	}
	switch s.in {
	case types.Int2, types.Int4:
		if !s.avg {
			return s.isum, nil
		}
		s.dsum = apd.New(s.isum, 0)
		fallthrough
	case types.Int8, types.Numeric:
		if !s.avg {
			return s.dsum, nil
		}
		z := new(apd.Decimal)
		if err := eval.NumericDivide(z, s.dsum, apd.New(s.n, 0)); err != nil {
			return nil, err
		}
		return z, nil
	case types.Float4, types.Float8:
		v := s.fsum
		if s.avg {
			v /= float64(s.n)
		} else if s.in == types.Float4 {
			v = float64(float32(v))
		}
		return v, nil
	case types.Interval:
		if s.avg {
			n := int64(s.n)
			return types.IntervalValue{Months: int32(int64(s.ivsum.Months) / n), Days: int32(int64(s.ivsum.Days) / n), Micros: s.ivsum.Micros / n}, nil
		}
		return s.ivsum, nil
	}
	return nil, nil
}

type minMaxState struct {
	t    types.T
	want int
	v    types.Value
}

func (s *minMaxState) add(_ *execCtx, args []types.Value) error {
	v := args[0]
	if v == nil {
		return nil
	}
	if s.v == nil || types.Compare(s.t, v, s.v)*s.want > 0 {
		s.v = v
	}
	return nil
}
func (s *minMaxState) result(*execCtx) (types.Value, error) { return s.v, nil }

type boolState struct {
	and bool
	v   types.Value
}

func (s *boolState) add(_ *execCtx, args []types.Value) error {
	v := args[0]
	if v == nil {
		return nil
	}
	if s.v == nil {
		s.v = v
	} else if s.and {
		s.v = s.v.(bool) && v.(bool)
	} else {
		s.v = s.v.(bool) || v.(bool)
	}
	return nil
}
func (s *boolState) result(*execCtx) (types.Value, error) { return s.v, nil }

type stringAggState struct {
	sb   strings.Builder
	some bool
}

func (s *stringAggState) add(_ *execCtx, args []types.Value) error {
	if args[0] == nil {
		return nil
	}
	if s.some && args[1] != nil {
		s.sb.WriteString(args[1].(string))
	}
	s.some = true
	s.sb.WriteString(args[0].(string))
	return nil
}
func (s *stringAggState) result(*execCtx) (types.Value, error) {
	if !s.some {
		return nil, nil
	}
	return s.sb.String(), nil
}

type arrayAggState struct {
	elem  types.OID
	elems []types.Value
	some  bool
}

func (s *arrayAggState) add(_ *execCtx, args []types.Value) error {
	s.some = true
	s.elems = append(s.elems, args[0])
	return nil
}
func (s *arrayAggState) result(*execCtx) (types.Value, error) {
	if !s.some {
		return nil, nil
	}
	return types.ArrayValue{Elem: s.elem, Elems: s.elems}, nil
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
	states []aggState
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
		g := &aggGroup{keys: keys, absent: absent, states: make([]aggState, len(p.aggs)), buffered: make([][]eval.Row, len(p.aggs))}
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
				sized, _ := g.states[i].(sizedState)
				var before int64
				if sized != nil {
					before = sized.heldBytes()
				}
				if err := g.states[i].add(x, vals[:len(a.args)]); err != nil {
					return nil, err
				}
				if sized != nil {
					if err := held.keepBytes(growingBufferCost(sized.heldBytes() - before)); err != nil {
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
			v, err := g.states[i].result(x)
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
func feedBuffered(x *execCtx, a *aggSpec, st aggState, rows []eval.Row) error {
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
		if err := st.add(x, vals); err != nil {
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
