package builtins

import (
	"slices"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// The general-purpose aggregates: count, sum, avg, min, max, bool_and,
// bool_or, every, string_agg and array_agg.

func init() {
	aggregate("count", func(b eval.Binder, args []eval.Expr, star bool) (AggCall, error) {
		if star {
			return AggCall{T: eval.Int8T(), NewState: func() AggState { return &countState{star: true} }}, nil
		}
		if len(args) != 1 {
			return AggCall{}, ErrNoFunction
		}
		resolveUnknowns(b, args)
		return AggCall{Args: args, T: eval.Int8T(), NewState: func() AggState { return &countState{} }}, nil
	})
	for _, name := range []string{"sum", "avg"} {
		avg := name == "avg"
		aggregate(name, func(b eval.Binder, args []eval.Expr, _ bool) (AggCall, error) {
			return resolveSum(b, name, avg, args)
		})
	}
	for _, name := range []string{"min", "max"} {
		want := 1
		if name == "min" {
			want = -1
		}
		aggregate(name, func(b eval.Binder, args []eval.Expr, _ bool) (AggCall, error) {
			if len(args) != 1 {
				return AggCall{}, ErrNoFunction
			}
			resolveUnknowns(b, args)
			t := args[0].Type()
			return AggCall{Args: args, T: t, NewState: func() AggState { return &minMaxState{t: t, want: want} }}, nil
		})
	}
	for _, name := range []string{"bool_and", "every", "bool_or"} {
		and := name != "bool_or"
		aggregate(name, func(b eval.Binder, args []eval.Expr, _ bool) (AggCall, error) {
			if len(args) != 1 {
				return AggCall{}, ErrNoFunction
			}
			if err := coerceArg(b, args, 0, eval.BoolT()); err != nil {
				return AggCall{}, err
			}
			return AggCall{Args: args, T: eval.BoolT(), NewState: func() AggState { return &boolState{and: and} }}, nil
		})
	}
	aggregate("string_agg", func(b eval.Binder, args []eval.Expr, _ bool) (AggCall, error) {
		if len(args) != 2 {
			return AggCall{}, ErrNoFunction
		}
		resolveUnknowns(b, args)
		for i := range args {
			x, err := b.Coerce(args[i], eval.TextT())
			if err != nil {
				return AggCall{}, ErrNoFunction
			}
			args[i] = x
		}
		return AggCall{Args: args, T: eval.TextT(), NewState: func() AggState { return &stringAggState{} }}, nil
	})
	aggregate("array_agg", func(b eval.Binder, args []eval.Expr, _ bool) (AggCall, error) {
		if len(args) != 1 {
			return AggCall{}, ErrNoFunction
		}
		if isUnknown(args[0]) {
			// Its anynonarray and anyarray overloads both take it.
			return AggCall{}, notUnique("array_agg")
		}
		t := args[0].Type()
		if eval.TypeCategory(t.OID) == 'A' {
			// array_agg(anyarray) stacks its inputs into an array of one
			// more dimension.
			return AggCall{Args: args, T: t, NewState: func() AggState { return &arrayStackState{elem: types.ElemOf(t.OID)} }}, nil
		}
		at := eval.ArrayOf(t)
		if at.OID == 0 {
			return AggCall{}, pgerror.New(pgerror.UndefinedObject, "could not find array type for data type %s", eval.TypeName(t))
		}
		return AggCall{Args: args, T: at, NewState: func() AggState { return &arrayAggState{elem: t.OID} }}, nil
	})
}

// resolveSum types sum and avg: integers sum to bigint (int2, int4) or
// numeric (int8) and average to numeric, floats stay floats (avg of
// float4 is float8), numeric and interval stay what they are.
func resolveSum(b eval.Binder, name string, avg bool, args []eval.Expr) (AggCall, error) {
	if len(args) != 1 {
		return AggCall{}, ErrNoFunction
	}
	if isUnknown(args[0]) {
		// A literal of unknown type fits several of their overloads.
		return AggCall{}, notUnique(name)
	}
	resolveUnknowns(b, args)
	at := args[0].Type().OID
	var rt types.OID
	switch at {
	case types.Int2, types.Int4:
		rt = types.Int8
		if avg {
			rt = types.Numeric
		}
	case types.Int8, types.Numeric:
		rt = types.Numeric
	case types.Float4:
		rt = types.Float4
		if avg {
			rt = types.Float8
		}
	case types.Float8:
		rt = types.Float8
	case types.Interval:
		rt = types.Interval
	default:
		return AggCall{}, ErrNoFunction
	}
	return AggCall{Args: args, T: types.Of(rt), NewState: func() AggState { return &sumState{in: at, avg: avg} }}, nil
}

type countState struct {
	star bool
	n    int64
}

func (s *countState) Add(_ eval.Context, args []types.Value) error {
	if s.star || args[0] != nil {
		s.n++
	}
	return nil
}
func (s *countState) Result(eval.Context) (types.Value, error) { return s.n, nil }

// sumState sums (and for avg counts) in the widest type needed: int64 while
// it fits for small ints, numeric otherwise, float64 for floats.
type sumState struct {
	in    types.OID
	avg   bool
	n     int64
	isum  int64
	dsum  *apd.Decimal
	fsum  float64
	ivsum types.IntervalValue
}

func (s *sumState) Add(_ eval.Context, args []types.Value) error {
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
		sum, err := eval.AddIntervals(s.ivsum, v.(types.IntervalValue))
		if err != nil {
			return err
		}
		s.ivsum = sum
	}
	return nil
}

func (s *sumState) Result(eval.Context) (types.Value, error) {
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
			return eval.DivideInterval(s.ivsum, float64(s.n))
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

func (s *minMaxState) Add(_ eval.Context, args []types.Value) error {
	v := args[0]
	if v == nil {
		return nil
	}
	if s.v == nil || types.Compare(s.t, v, s.v)*s.want > 0 {
		s.v = v
	}
	return nil
}
func (s *minMaxState) Result(eval.Context) (types.Value, error) { return s.v, nil }

type boolState struct {
	and bool
	v   types.Value
}

func (s *boolState) Add(_ eval.Context, args []types.Value) error {
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
func (s *boolState) Result(eval.Context) (types.Value, error) { return s.v, nil }

type stringAggState struct {
	sb   strings.Builder
	some bool
}

func (s *stringAggState) Add(_ eval.Context, args []types.Value) error {
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
func (s *stringAggState) Result(eval.Context) (types.Value, error) {
	if !s.some {
		return nil, nil
	}
	return s.sb.String(), nil
}

// SizedState is a state that can say what it holds: the ones whose
// buffers grow by doubling, where the capacity, not the bytes added, is
// what memory holds (sql accounts it to the memory budget).
type SizedState interface {
	HeldBytes() int64
}

// HeldBytes is the capacity of string_agg's buffer.
func (s *stringAggState) HeldBytes() int64 { return int64(s.sb.Cap()) }

// ValueSlotBytes is a types.Value's slot in a slice (an interface value).
const ValueSlotBytes = 16

// HeldBytes is the capacity of array_agg's slice of elements, a
// types.Value's slot each.
func (s *arrayAggState) HeldBytes() int64 { return int64(cap(s.elems)) * ValueSlotBytes }

type arrayAggState struct {
	elem  types.OID
	elems []types.Value
	some  bool
}

func (s *arrayAggState) Add(_ eval.Context, args []types.Value) error {
	s.some = true
	s.elems = append(s.elems, args[0])
	return nil
}
func (s *arrayAggState) Result(eval.Context) (types.Value, error) {
	if !s.some {
		return nil, nil
	}
	return types.ArrayValue{Elem: s.elem, Elems: s.elems}, nil
}

// arrayStackState is array_agg of arrays: each input is a slice of the
// result, all of the same dimensions, none NULL or empty.
type arrayStackState struct {
	elem  types.OID
	dims  []int
	n     int
	elems []types.Value
}

func (s *arrayStackState) Add(_ eval.Context, args []types.Value) error {
	if args[0] == nil {
		return pgerror.New(pgerror.NullValueNotAllowed, "cannot accumulate null arrays")
	}
	arr := args[0].(types.ArrayValue)
	dims := eval.ArrayDims(arr)
	if len(arr.Elems) == 0 {
		dims = nil // an empty array has no dimensions
	}
	switch {
	case s.n == 0 && dims == nil:
		return pgerror.New(pgerror.ArraySubscriptError, "cannot accumulate empty arrays")
	case s.n == 0:
		s.dims = dims
	case !slices.Equal(s.dims, dims):
		return pgerror.New(pgerror.ArraySubscriptError, "cannot accumulate arrays of different dimensionality")
	}
	s.n++
	s.elems = append(s.elems, arr.Elems...)
	return nil
}

func (s *arrayStackState) Result(eval.Context) (types.Value, error) {
	if s.n == 0 {
		return nil, nil
	}
	return types.ArrayValue{Elem: s.elem, Dims: append([]int{s.n}, s.dims...), Elems: s.elems}, nil
}
