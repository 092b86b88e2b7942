package builtins

import (
	"math"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// Ordered-set aggregates: percentile_cont, percentile_disc and mode, called
// as f(direct args) WITHIN GROUP (ORDER BY value). The value is the
// aggregated input, fed to the state sorted by the ORDER BY (the grouping
// operator's machinery of aggregate ORDER BY); the direct argument (the
// fraction) rides along with each row and must not depend on it.

func init() {
	for _, name := range []string{"percentile_cont", "percentile_disc"} {
		cont := name == "percentile_cont"
		RegisterAggregate(name, &Aggregate{OrderedSet: true, Resolve: func(b eval.Binder, args []eval.Expr, _ bool) (AggCall, error) {
			if len(args) != 2 {
				return AggCall{}, ErrNoFunction
			}
			// One fraction, or an array of them giving an array of
			// percentiles shaped as it is.
			many := eval.TypeCategory(args[0].Type().OID) == 'A'
			fractionT := types.Of(types.Float8)
			if many {
				fractionT = types.Of(types.Float8Array)
			}
			if many && numericArray(args[0].Type().OID) {
				// numeric[] and the integer arrays convert element by
				// element, as their elements convert to float8.
				args[0] = &eval.Cast{X: args[0], To: fractionT}
			} else if err := coerceArg(b, args, 0, fractionT); err != nil {
				return AggCall{}, err
			}
			f, value := args[0], args[1]
			vt := value.Type()
			if !cont && isUnknown(value) {
				return AggCall{}, ErrUnknownPolymorphic
			}
			if cont {
				// Continuous percentiles interpolate: float8, or interval.
				if vt.OID != types.Interval {
					vt = types.Of(types.Float8)
				}
				var err error
				if value, err = b.Coerce(value, vt); err != nil {
					return AggCall{}, ErrNoFunction
				}
			}
			rt := vt
			if many {
				if rt = eval.ArrayOf(vt); rt.OID == 0 {
					return AggCall{}, ErrNoFunction
				}
			}
			return AggCall{Args: []eval.Expr{value, f}, T: rt, NewState: func() AggState { return &percentileState{cont: cont, t: vt} }}, nil
		}})
	}
	RegisterAggregate("mode", &Aggregate{OrderedSet: true, Resolve: func(b eval.Binder, args []eval.Expr, _ bool) (AggCall, error) {
		if len(args) != 1 {
			return AggCall{}, ErrNoFunction
		}
		if isUnknown(args[0]) {
			return AggCall{}, ErrUnknownPolymorphic
		}
		vt := args[0].Type()
		return AggCall{Args: args, T: vt, NewState: func() AggState { return &modeState{t: vt} }}, nil
	}})
}

// numericArray reports whether oid is an array of a numeric type other
// than float8 (whose elements convert to float8 implicitly).
func numericArray(oid types.OID) bool {
	elem := types.ElemOf(oid)
	return elem != 0 && elem != types.Float8 && eval.TypeCategory(elem) == 'N' && !eval.IsOidType(elem)
}

// percentileState collects the sorted non-NULL values; the fraction is a
// float8, or a float8[] for an array of percentiles.
type percentileState struct {
	cont     bool
	t        types.T
	vals     []types.Value
	fraction types.Value
}

func (s *percentileState) Add(_ eval.Context, args []types.Value) error {
	s.fraction = args[1]
	if args[0] != nil {
		s.vals = append(s.vals, args[0])
	}
	return nil
}

func (s *percentileState) Result(eval.Context) (types.Value, error) {
	if len(s.vals) == 0 || s.fraction == nil {
		return nil, nil
	}
	fractions, many := s.fraction.(types.ArrayValue)
	if !many {
		return s.percentile(s.fraction.(float64))
	}
	out := types.ArrayValue{Elem: s.t.OID, Dims: fractions.Dims, Elems: make([]types.Value, len(fractions.Elems))}
	for i, f := range fractions.Elems {
		if f == nil {
			continue // a NULL fraction's percentile is NULL
		}
		v, err := s.percentile(f.(float64))
		if err != nil {
			return nil, err
		}
		out.Elems[i] = v
	}
	return out, nil
}

// percentile is the value at fraction f of the sorted values.
func (s *percentileState) percentile(f float64) (types.Value, error) {
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

func (s *modeState) Add(_ eval.Context, args []types.Value) error {
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

func (s *modeState) Result(eval.Context) (types.Value, error) { return s.best, nil }
