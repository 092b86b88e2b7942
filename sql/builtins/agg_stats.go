package builtins

import (
	"math"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/sql/eval"
	"cdcdb/types"
)

// The statistical aggregates (stddev, variance and their _samp and _pop
// forms; corr, covar_pop, covar_samp and the regr_* family) and the
// bitwise ones (bit_and, bit_or, bit_xor).
//
// The two-variable statistical ones take (Y, X) as float8, skip rows where
// either is NULL, and accumulate as PostgreSQL's float8_regr_accum does
// (the Youngs-Cramer sums, in its order of operations), so that they give
// PostgreSQL's bits, not merely its value to a few digits.

func init() {
	for name, mode := range map[string][2]bool{
		"stddev": {false, true}, "stddev_samp": {false, true}, "stddev_pop": {true, true},
		"variance": {false, false}, "var_samp": {false, false}, "var_pop": {true, false},
	} {
		pop, stddev := mode[0], mode[1]
		aggregate(name, func(b eval.Binder, args []eval.Expr, _ bool) (AggCall, error) {
			if len(args) != 1 {
				return AggCall{}, ErrNoFunction
			}
			if isUnknown(args[0]) {
				// An untyped literal takes the numeric category's
				// preferred type, as PostgreSQL chooses among the
				// overloads.
				if err := coerceArg(b, args, 0, types.Of(types.Float8)); err != nil {
					return AggCall{}, err
				}
			}
			t := args[0].Type().OID
			float := t == types.Float4 || t == types.Float8
			if eval.TypeCategory(t) != 'N' || eval.IsOidType(t) {
				return AggCall{}, ErrNoFunction
			}
			rt := types.Numeric
			if float {
				rt = types.Float8
			}
			return AggCall{Args: args, T: types.Of(rt), NewState: func() AggState { return &statState{float: float, pop: pop, stddev: stddev} }}, nil
		})
	}
	regression := Signature(types.Float8, types.Float8, types.Float8)
	for _, name := range []string{"corr", "covar_pop", "covar_samp", "regr_count", "regr_sxx", "regr_syy", "regr_sxy",
		"regr_avgx", "regr_avgy", "regr_r2", "regr_slope", "regr_intercept"} {
		aggregate(name, func(b eval.Binder, args []eval.Expr, _ bool) (AggCall, error) {
			args, t, err := regression(b, args)
			if err != nil {
				return AggCall{}, err
			}
			if name == "regr_count" {
				t = eval.Int8T()
			}
			return AggCall{Args: args, T: t, NewState: func() AggState { return &regrState{name: name} }}, nil
		})
	}
	for _, name := range []string{"bit_and", "bit_or", "bit_xor"} {
		aggregate(name, func(b eval.Binder, args []eval.Expr, _ bool) (AggCall, error) {
			if len(args) != 1 {
				return AggCall{}, ErrNoFunction
			}
			if isUnknown(args[0]) {
				return AggCall{}, notUnique(name)
			}
			if !eval.IsIntType(args[0].Type().OID) {
				return AggCall{}, ErrNoFunction
			}
			return AggCall{Args: args, T: args[0].Type(), NewState: func() AggState { return &bitState{op: name} }}, nil
		})
	}
}

// statState computes the sample and population variance and standard
// deviation (numeric for integer and numeric input, float8 for floats).
type statState struct {
	float  bool
	pop    bool
	stddev bool
	vals   []types.Value
}

func (s *statState) Add(_ eval.Context, args []types.Value) error {
	if args[0] != nil {
		s.vals = append(s.vals, args[0])
	}
	return nil
}

func (s *statState) Result(x eval.Context) (types.Value, error) {
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

// regrState holds float8_regr_accum's sums.
type regrState struct {
	name                     string
	n, sx, sxx, sy, syy, sxy float64
}

func (s *regrState) Add(_ eval.Context, args []types.Value) error {
	if args[0] == nil || args[1] == nil {
		return nil
	}
	y, x := args[0].(float64), args[1].(float64)
	oldN := s.n
	s.n++
	s.sx += x
	s.sy += y
	if oldN > 0 {
		tmpX := x*s.n - s.sx
		tmpY := y*s.n - s.sy
		scale := 1.0 / (s.n * oldN)
		s.sxx += tmpX * tmpX * scale
		s.syy += tmpY * tmpY * scale
		s.sxy += tmpX * tmpY * scale
		return nil
	}
	// A first value that is not finite makes the sums that depend on it
	// NaN, as PostgreSQL has it.
	if math.IsNaN(x) || math.IsInf(x, 0) {
		s.sxx, s.sxy = math.NaN(), math.NaN()
	}
	if math.IsNaN(y) || math.IsInf(y, 0) {
		s.syy, s.sxy = math.NaN(), math.NaN()
	}
	return nil
}

func (s *regrState) Result(eval.Context) (types.Value, error) {
	if s.name == "regr_count" {
		return int64(s.n), nil
	}
	if s.n < 1 {
		return nil, nil
	}
	switch s.name {
	case "regr_sxx":
		return s.sxx, nil
	case "regr_syy":
		return s.syy, nil
	case "regr_sxy":
		return s.sxy, nil
	case "regr_avgx":
		return s.sx / s.n, nil
	case "regr_avgy":
		return s.sy / s.n, nil
	case "covar_pop":
		return s.sxy / s.n, nil
	case "covar_samp":
		if s.n < 2 {
			return nil, nil
		}
		return s.sxy / (s.n - 1), nil
	case "corr":
		// Per the standard, NULL for horizontal and vertical lines.
		if s.sxx == 0 || s.syy == 0 {
			return nil, nil
		}
		return s.sxy / math.Sqrt(s.sxx*s.syy), nil
	case "regr_r2":
		if s.sxx == 0 {
			return nil, nil
		}
		if s.syy == 0 {
			return 1.0, nil
		}
		return (s.sxy * s.sxy) / (s.sxx * s.syy), nil
	case "regr_slope":
		if s.sxx == 0 {
			return nil, nil
		}
		return s.sxy / s.sxx, nil
	}
	// regr_intercept
	if s.sxx == 0 {
		return nil, nil
	}
	return (s.sy - s.sx*s.sxy/s.sxx) / s.n, nil
}

// bitState is bit_and, bit_or or bit_xor of integers: NULL until a value
// comes, and NULLs skipped.
type bitState struct {
	op   string
	v    int64
	seen bool
}

func (s *bitState) Add(_ eval.Context, args []types.Value) error {
	if args[0] == nil {
		return nil
	}
	x := args[0].(int64)
	switch {
	case !s.seen:
		s.v, s.seen = x, true
	case s.op == "bit_and":
		s.v &= x
	case s.op == "bit_or":
		s.v |= x
	default:
		s.v ^= x
	}
	return nil
}

func (s *bitState) Result(eval.Context) (types.Value, error) {
	if !s.seen {
		return nil, nil
	}
	return s.v, nil
}
