package sql

import (
	"math"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// Ordered-set aggregates: percentile_cont, percentile_disc and mode, called
// as f(direct args) WITHIN GROUP (ORDER BY value). The value is the
// aggregated input, fed to the state sorted by the ORDER BY (the machinery
// of aggregate ORDER BY); the direct argument (the fraction) rides along
// with each row and must not depend on it.

var orderedSetAggregates = map[string]bool{"percentile_cont": true, "percentile_disc": true, "mode": true}

// bindOrderedSet binds an ordered-set aggregate call.
func (b *binder) bindOrderedSet(fc *ast.FuncCall) (*aggSpec, error) {
	name := fc.Name.Name()
	if !orderedSetAggregates[name] {
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
	value = b.resolveUnknown(value)
	var direct []eval.Expr
	for _, a := range fc.Args {
		x, err := b.bind(a)
		if err != nil {
			return nil, err
		}
		direct = append(direct, x)
	}
	noFunction := func() error {
		return pgerror.New(pgerror.UndefinedFunction, "function %s(%s) does not exist", name, argTypeList(append(append([]eval.Expr(nil), direct...), value))).
			WithPosition(fc.Pos + 1).WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	spec := &aggSpec{}
	switch name {
	case "percentile_cont", "percentile_disc":
		if len(direct) != 1 {
			return nil, noFunction()
		}
		f, err := b.coerce(direct[0], types.Of(types.Float8))
		if err != nil {
			return nil, noFunction()
		}
		vt := value.Type()
		cont := name == "percentile_cont"
		if cont {
			if vt.OID != types.Interval {
				vt = types.Of(types.Float8)
			}
			c, err := b.coerce(value, vt)
			if err != nil {
				return nil, noFunction()
			}
			value = c
		}
		spec.fn = &aggregateFunc{name: name, newState: func() aggState { return &percentileState{cont: cont, t: vt} }}
		spec.t, spec.args = vt, []eval.Expr{value, f}
	case "mode":
		if len(direct) != 0 {
			return nil, noFunction()
		}
		vt := value.Type()
		spec.fn = &aggregateFunc{name: name, newState: func() aggState { return &modeState{t: vt} }}
		spec.t, spec.args = vt, []eval.Expr{value}
	}
	o := fc.OrderBy[0]
	spec.orderBy = []sortKey{{e: value, desc: o.Desc, nullsFirst: nullsFirst(o)}}
	if fc.Filter != nil {
		if spec.filter, err = b.bindCondition(fc.Filter, "FILTER"); err != nil {
			return nil, err
		}
	}
	return spec, nil
}

// percentileState collects the sorted non-NULL values.
type percentileState struct {
	cont     bool
	t        types.T
	vals     []types.Value
	fraction types.Value
}

func (s *percentileState) add(_ *execCtx, args []types.Value) error {
	s.fraction = args[1]
	if args[0] != nil {
		s.vals = append(s.vals, args[0])
	}
	return nil
}

func (s *percentileState) result(*execCtx) (types.Value, error) {
	if len(s.vals) == 0 || s.fraction == nil {
		return nil, nil
	}
	f := s.fraction.(float64)
	if f < 0 || f > 1 || math.IsNaN(f) {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "percentile value %s is not between 0 and 1", types.FormatText(types.Of(types.Float8), f))
	}
	n := len(s.vals)
	if !s.cont {
		// The first value whose position reaches the fraction.
		i := int(math.Ceil(f*float64(n))) - 1
		return s.vals[max(i, 0)], nil
	}
	pos := f * float64(n-1)
	lo, hi := int(math.Floor(pos)), int(math.Ceil(pos))
	if lo == hi {
		return s.vals[lo], nil
	}
	frac := pos - float64(lo)
	if s.t.OID == types.Interval {
		a, b := s.vals[lo].(types.IntervalValue), s.vals[hi].(types.IntervalValue)
		diff := types.IntervalValue{Months: b.Months - a.Months, Days: b.Days - a.Days, Micros: b.Micros - a.Micros}
		scaled, err := eval.MultiplyInterval(diff, frac)
		if err != nil {
			return nil, err
		}
		d := scaled.(types.IntervalValue)
		return types.IntervalValue{Months: a.Months + d.Months, Days: a.Days + d.Days, Micros: a.Micros + d.Micros}, nil
	}
	a, b := s.vals[lo].(float64), s.vals[hi].(float64)
	return a + frac*(b-a), nil
}

// modeState finds the most frequent value of a sorted input (the first of
// equally frequent ones).
type modeState struct {
	t           types.T
	best, cur   types.Value
	bestN, curN int
	seen        bool
}

func (s *modeState) add(_ *execCtx, args []types.Value) error {
	v := args[0]
	if v == nil {
		return nil
	}
	if s.seen && types.Compare(s.t, v, s.cur) == 0 {
		s.curN++
	} else {
		s.cur, s.curN, s.seen = v, 1, true
	}
	if s.curN > s.bestN {
		s.best, s.bestN = s.cur, s.curN
	}
	return nil
}

func (s *modeState) result(*execCtx) (types.Value, error) { return s.best, nil }
