package sql

import (
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

func init() {
	moreAggregates["json_agg"] = jsonAggregate(false, false)
	moreAggregates["jsonb_agg"] = jsonAggregate(true, false)
	moreAggregates["json_object_agg"] = jsonAggregate(false, true)
	moreAggregates["jsonb_object_agg"] = jsonAggregate(true, true)
	for name, mode := range map[string][2]bool{
		"stddev": {false, true}, "stddev_samp": {false, true}, "stddev_pop": {true, true},
		"variance": {false, false}, "var_samp": {false, false}, "var_pop": {true, false},
	} {
		pop, stddev := mode[0], mode[1]
		moreAggregates[name] = func(b *binder, name string, args []eval.Expr) (*aggregateFunc, types.T, []eval.Expr, error) {
			if len(args) != 1 {
				return nil, types.T{}, nil, builtins.ErrNoFunction
			}
			t := args[0].Type().OID
			float := t == types.Float4 || t == types.Float8
			if eval.TypeCategory(t) != 'N' || eval.IsOidType(t) {
				return nil, types.T{}, nil, builtins.ErrNoFunction
			}
			rt := types.Numeric
			if float {
				rt = types.Float8
			}
			return &aggregateFunc{name: name, newState: func() aggState { return &statState{float: float, pop: pop, stddev: stddev} }}, types.Of(rt), args, nil
		}
	}
}

type jsonAggState struct {
	binary bool
	object bool
	t, kt  types.T
	parts  []string
	some   bool
	// nulls marks the parts that are NULL values (json_agg's separators
	// differ for them).
	nulls []bool
}

func (s *jsonAggState) add(x *execCtx, args []types.Value) error {
	s.some = true
	if !s.object {
		s.parts = append(s.parts, eval.ToJSON(x, s.t, args[0]))
		s.nulls = append(s.nulls, args[0] == nil)
		return nil
	}
	if args[0] == nil {
		return pgerror.New(pgerror.NullValueNotAllowed, "field name must not be null")
	}
	key := builtins.JSONKeyText(eval.ToJSON(x, s.kt, args[0]))
	if s.binary {
		s.parts = append(s.parts, key+": "+eval.ToJSON(x, s.t, args[1]))
	} else {
		s.parts = append(s.parts, key+" : "+eval.ToJSON(x, s.t, args[1]))
	}
	return nil
}

func (s *jsonAggState) result(*execCtx) (types.Value, error) {
	if !s.some {
		return nil, nil
	}
	var out string
	switch {
	case s.object && s.binary:
		out = "{" + strings.Join(s.parts, ", ") + "}"
	case s.object:
		out = "{ " + strings.Join(s.parts, ", ") + " }"
	case !s.binary && (s.t.OID == types.Record || eval.TypeCategory(s.t.OID) == 'A'):
		// json_agg puts a line break before each array or row after the
		// first, as PostgreSQL's json_agg_transfn does (not before NULLs).
		var b strings.Builder
		b.WriteByte('[')
		for i, p := range s.parts {
			if i > 0 {
				b.WriteString(", ")
				if !s.nulls[i] {
					b.WriteString("\n ")
				}
			}
			b.WriteString(p)
		}
		b.WriteByte(']')
		out = b.String()
	default:
		out = "[" + strings.Join(s.parts, ", ") + "]"
	}
	if s.binary {
		return eval.AsJSONB(out)
	}
	return out, nil
}

// statState computes the sample and population variance and standard
// deviation (numeric for integer and numeric input, float8 for floats).
type statState struct {
	float  bool
	pop    bool
	stddev bool
	vals   []types.Value
}

func (s *statState) add(_ *execCtx, args []types.Value) error {
	if args[0] != nil {
		s.vals = append(s.vals, args[0])
	}
	return nil
}

func (s *statState) result(x *execCtx) (types.Value, error) {
	n := len(s.vals)
	if n == 0 || (n == 1 && !s.pop) {
		return nil, nil
	}
	if s.float {
		var sum, sumSq float64
		for _, v := range s.vals {
			f, err := eval.ToFloat(v)
			if err != nil {
				return nil, err
			}
			sum += f
			sumSq += f * f
		}
		fn := float64(n)
		num := fn*sumSq - sum*sum
		if num < 0 {
			num = 0
		}
		den := fn * (fn - 1)
		if s.pop {
			den = fn * fn
		}
		v := num / den
		if s.stddev {
			return math.Sqrt(v), nil
		}
		return v, nil
	}
	return numericVariance(x, s.vals, s.pop, s.stddev)
}

func jsonAggregate(binary, object bool) func(b *binder, name string, args []eval.Expr) (*aggregateFunc, types.T, []eval.Expr, error) {
	return func(b *binder, name string, args []eval.Expr) (*aggregateFunc, types.T, []eval.Expr, error) {
		want := 1
		if object {
			want = 2
		}
		if len(args) != want {
			return nil, types.T{}, nil, builtins.ErrNoFunction
		}
		vt, kt := args[len(args)-1].Type(), args[0].Type()
		rt := types.JSON
		if binary {
			rt = types.JSONB
		}
		return &aggregateFunc{name: name, newState: func() aggState {
			return &jsonAggState{binary: binary, object: object, t: vt, kt: kt}
		}}, types.Of(rt), args, nil
	}
}

// numericVariance is the numeric variance or standard deviation as
// PostgreSQL computes it: (N*sum(x^2) - sum(x)^2) / (N*(N-1)) (N*N for the
// population) at division's scale, the root taken at the same scale.
func numericVariance(x eval.Context, vals []types.Value, pop, stddev bool) (types.Value, error) {
	sum, sumSq := new(apd.Decimal), new(apd.Decimal)
	for _, v := range vals {
		d, ok := v.(*apd.Decimal)
		if !ok {
			d = apd.New(v.(int64), 0)
		}
		sq := new(apd.Decimal)
		if _, err := eval.NumericCtx.Mul(sq, d, d); err != nil {
			return nil, err
		}
		if _, err := eval.NumericCtx.Add(sum, sum, d); err != nil {
			return nil, err
		}
		if _, err := eval.NumericCtx.Add(sumSq, sumSq, sq); err != nil {
			return nil, err
		}
	}
	n := apd.New(int64(len(vals)), 0)
	num, sq := new(apd.Decimal), new(apd.Decimal)
	if _, err := eval.NumericCtx.Mul(num, n, sumSq); err != nil {
		return nil, err
	}
	if _, err := eval.NumericCtx.Mul(sq, sum, sum); err != nil {
		return nil, err
	}
	if _, err := eval.NumericCtx.Sub(num, num, sq); err != nil {
		return nil, err
	}
	if num.Sign() <= 0 {
		return apd.New(0, 0), nil
	}
	den := apd.New(int64(len(vals))*int64(len(vals)-1), 0)
	if pop {
		den = apd.New(int64(len(vals))*int64(len(vals)), 0)
	}
	z := new(apd.Decimal)
	if err := eval.NumericDivide(z, num, den); err != nil {
		return nil, err
	}
	if !stddev {
		return z, nil
	}
	scale := eval.NumericDisplayScale(z)
	r := new(apd.Decimal)
	if _, err := apd.BaseContext.WithPrecision(uint32(scale+int(z.NumDigits())+10)).Sqrt(r, z); err != nil {
		return nil, err
	}
	return r, eval.RoundScale(r, scale)
}
