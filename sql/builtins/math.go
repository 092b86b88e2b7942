package builtins

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// numericArg resolves a one-argument numeric function that keeps its
// argument's type (abs, sign, ceil, floor): integers, float8 or numeric.
func sameNumericType(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
	if len(args) < 1 {
		return nil, types.T{}, ErrNoFunction
	}
	t := args[0].Type()
	switch {
	case t.OID == types.Unknown:
		t = types.Of(types.Float8)
	case t.OID == types.Float4:
		t = types.Of(types.Float8)
	case eval.TypeCategory(t.OID) != 'N' || eval.IsOidType(t.OID):
		return nil, types.T{}, ErrNoFunction
	}
	t.Typmod = -1
	out := make([]eval.Expr, len(args))
	var err error
	if out[0], err = b.Coerce(args[0], t); err != nil {
		return nil, types.T{}, ErrNoFunction
	}
	for i := 1; i < len(args); i++ {
		if out[i], err = b.Coerce(args[i], eval.Int4T()); err != nil {
			return nil, types.T{}, ErrNoFunction
		}
	}
	return out, t, nil
}

func mathFn(intF func(int64) (int64, error), floatF func(float64) float64, decF func(z, x *apd.Decimal) error) *Func {
	return &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != 1 {
			return nil, types.T{}, ErrNoFunction
		}
		out, t, err := sameNumericType(b, args)
		if err == nil && eval.IsIntType(t.OID) && intF == nil {
			// ceil/floor of an integer go through float8, as in PostgreSQL.
			out[0] = &eval.Cast{X: out[0], To: types.Of(types.Float8)}
			t = types.Of(types.Float8)
		}
		return out, t, err
	}, Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		switch v := a[0].(type) {
		case int64:
			return intF(v)
		case float64:
			return floatF(v), nil
		case *apd.Decimal:
			z := new(apd.Decimal)
			if err := decF(z, v); err != nil {
				return nil, err
			}
			return z, nil
		}
		return nil, pgerror.New(pgerror.InternalError, "unexpected numeric value %T", a[0])
	}}
}

func init() {
	// abs has PostgreSQL's six signatures, so abs(real) stays real and an
	// integer's overflows are its own type's (abs(-32768::int2) is out of
	// range).
	absInt := func(t types.OID) func(eval.Context, []types.Value) (types.Value, error) {
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			v := a[0].(int64)
			if v < 0 {
				v = -v
			}
			if v < 0 || !eval.IntFits(t, v) {
				return nil, eval.IntRangeError(t)
			}
			return v, nil
		}
	}
	absFloat := func(_ eval.Context, a []types.Value) (types.Value, error) { return math.Abs(a[0].(float64)), nil }
	Register("abs", overloaded(true,
		sig(types.Float8, absFloat, types.Float8),
		sig(types.Float4, absFloat, types.Float4),
		sig(types.Numeric, func(_ eval.Context, a []types.Value) (types.Value, error) {
			return new(apd.Decimal).Abs(a[0].(*apd.Decimal)), nil
		}, types.Numeric),
		sig(types.Int8, absInt(types.Int8), types.Int8),
		sig(types.Int4, absInt(types.Int4), types.Int4),
		sig(types.Int2, absInt(types.Int2), types.Int2),
	))
	Register("ceil", mathFn(nil, math.Ceil, func(z, x *apd.Decimal) error {
		if x.Form != apd.Finite {
			z.Set(x) // NaN and the infinities are their own ceiling
			return nil
		}
		_, err := eval.NumericCtx.Ceil(z, x)
		return err
	}))
	Register("ceiling", Funcs["ceil"])
	Register("floor", mathFn(nil, math.Floor, func(z, x *apd.Decimal) error {
		if x.Form != apd.Finite {
			z.Set(x)
			return nil
		}
		_, err := eval.NumericCtx.Floor(z, x)
		return err
	}))
	Register("round", &Func{Resolve: roundResolve, Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		scale := int64(0)
		if len(a) == 2 {
			scale = a[1].(int64)
		}
		switch v := a[0].(type) {
		case float64:
			return math.RoundToEven(v), nil
		case *apd.Decimal:
			if s, ok := numericSpecial(v); ok {
				return s, nil
			}
			z := new(apd.Decimal).Set(v)
			return z, eval.RoundScale(z, eval.ClampRoundScale(scale))
		}
		return nil, pgerror.New(pgerror.InternalError, "unexpected value for round")
	}})
	Register("trunc", &Func{Resolve: roundResolve, Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		scale := int64(0)
		if len(a) == 2 {
			scale = a[1].(int64)
		}
		switch v := a[0].(type) {
		case float64:
			return math.Trunc(v), nil
		case *apd.Decimal:
			if s, ok := numericSpecial(v); ok {
				return s, nil
			}
			z := new(apd.Decimal)
			return z, eval.QuantizeScale(z, v, eval.ClampRoundScale(scale), apd.RoundDown)
		}
		return nil, pgerror.New(pgerror.InternalError, "unexpected value for trunc")
	}})
	Register("sqrt", overloaded(true,
		sig(types.Float8, func(_ eval.Context, a []types.Value) (types.Value, error) {
			if a[0].(float64) < 0 {
				return nil, pgerror.New(pgerror.InvalidArgumentForPower, "cannot take square root of a negative number")
			}
			return math.Sqrt(a[0].(float64)), nil
		}, types.Float8),
		sig(types.Numeric, numericSqrt, types.Numeric)))
	Register("exp", &Func{Resolve: Signature(types.Float8, types.Float8), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		x := a[0].(float64)
		r := math.Exp(x)
		switch {
		case math.IsInf(r, 0) && !math.IsInf(x, 0):
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
		case r == 0 && !math.IsInf(x, 0):
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: underflow")
		}
		return r, nil
	}})
	Register("ln", &Func{Resolve: Signature(types.Float8, types.Float8), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		v := a[0].(float64)
		if v == 0 {
			return nil, pgerror.New("2201E", "cannot take logarithm of zero")
		}
		if v < 0 {
			return nil, pgerror.New("2201E", "cannot take logarithm of a negative number")
		}
		return logOf(v, math.Log, math.Ln2), nil
	}})
	Register("mod", &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != 2 {
			return nil, types.T{}, ErrNoFunction
		}
		x, err := b.Arithmetic("%", args[0], args[1])
		if err != nil {
			return nil, types.T{}, ErrNoFunction
		}
		fe := x.(*eval.FuncCall)
		return fe.Args, fe.T, nil
	}, Strict: true, Call: func(x eval.Context, a []types.Value) (types.Value, error) {
		switch a[0].(type) {
		case int64:
			f, _ := eval.IntArith("%", types.Int8)
			return f(x, a)
		default:
			f, _ := eval.NumericArith("%")
			return f(x, a)
		}
	}})
	Register("random", &Func{Resolve: Signature(types.Float8), Call: func(eval.Context, []types.Value) (types.Value, error) {
		return rand.Float64(), nil
	}})
	Register("pi", &Func{Resolve: Signature(types.Float8), Call: func(eval.Context, []types.Value) (types.Value, error) {
		return math.Pi, nil
	}})
}

// roundResolve resolves round/trunc: round(float8), round(numeric [, int]).
func roundResolve(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, types.T{}, ErrNoFunction
	}
	t := args[0].Type()
	target := types.Of(types.Numeric)
	if len(args) == 1 && (t.OID == types.Float8 || t.OID == types.Float4) {
		target = types.Of(types.Float8)
	}
	out := make([]eval.Expr, len(args))
	var err error
	if out[0], err = b.Coerce(args[0], target); err != nil {
		return nil, types.T{}, ErrNoFunction
	}
	if len(args) == 2 {
		if out[1], err = b.Coerce(args[1], eval.Int4T()); err != nil {
			return nil, types.T{}, ErrNoFunction
		}
	}
	return out, target, nil
}

// Overloads PostgreSQL resolves by type: an integer argument goes to the
// float8 variant (the numeric category's preferred type), a numeric one to
// the numeric variant.
func init() {
	signFloat := func(_ eval.Context, a []types.Value) (types.Value, error) {
		v := a[0].(float64)
		switch {
		case v > 0:
			return 1.0, nil
		case v < 0:
			return -1.0, nil
		}
		return 0.0, nil
	}
	Register("sign", overloaded(true, sig(types.Float8, signFloat, types.Float8), sig(types.Numeric, numericSign, types.Numeric)))
	logFloat := func(_ eval.Context, a []types.Value) (types.Value, error) {
		v := a[0].(float64)
		if err := checkLogArg(v == 0, v < 0); err != nil {
			return nil, err
		}
		return logOf(v, math.Log10, math.Log10(2)), nil
	}
	logNumeric := func(_ eval.Context, a []types.Value) (types.Value, error) {
		if len(a) == 1 {
			return numericLog(apd.New(10, 0), a[0].(*apd.Decimal))
		}
		return numericLog(a[0].(*apd.Decimal), a[1].(*apd.Decimal))
	}
	Register("log", overloaded(true,
		sig(types.Float8, logFloat, types.Float8),
		sig(types.Numeric, logNumeric, types.Numeric),
		sig(types.Numeric, logNumeric, types.Numeric, types.Numeric)))
	Register("log10", Funcs["log"])
	Register("div", overloaded(true, sig(types.Numeric, func(_ eval.Context, a []types.Value) (types.Value, error) {
		y := a[1].(*apd.Decimal)
		if r, ok, err := eval.NumericDivSpecial(a[0].(*apd.Decimal), y); ok {
			return r, err
		}
		if y.IsZero() {
			return nil, pgerror.New(pgerror.DivisionByZero, "division by zero")
		}
		z := new(apd.Decimal)
		_, err := eval.ExactCtx(a[0].(*apd.Decimal), y).QuoInteger(z, a[0].(*apd.Decimal), y)
		return z, eval.NumericChecked(z, err)
	}, types.Numeric, types.Numeric)))
	// gcd and lcm of integers work on magnitudes, so the most negative
	// value's magnitude (which its type cannot hold) is an overflow only
	// when it is the result, as in PostgreSQL.
	gcd := func(t types.OID, lcm bool) func(eval.Context, []types.Value) (types.Value, error) {
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			x, y := magnitude(a[0].(int64)), magnitude(a[1].(int64))
			g := x
			for r := y; r != 0; {
				g, r = r, g%r
			}
			r := g
			if lcm {
				if x == 0 || y == 0 {
					return int64(0), nil
				}
				hi, lo := bits.Mul64(x/g, y)
				if hi != 0 {
					return nil, eval.IntRangeError(t)
				}
				r = lo
			}
			if r > math.MaxInt64 || !eval.IntFits(t, int64(r)) {
				return nil, eval.IntRangeError(t)
			}
			return int64(r), nil
		}
	}
	Register("gcd", overloaded(true,
		sig(types.Int4, gcd(types.Int4, false), types.Int4, types.Int4),
		sig(types.Int8, gcd(types.Int8, false), types.Int8, types.Int8),
		sig(types.Numeric, numericGCD(false), types.Numeric, types.Numeric)))
	Register("lcm", overloaded(true,
		sig(types.Int4, gcd(types.Int4, true), types.Int4, types.Int4),
		sig(types.Int8, gcd(types.Int8, true), types.Int8, types.Int8),
		sig(types.Numeric, numericGCD(true), types.Numeric, types.Numeric)))
	Register("factorial", overloaded(true, sig(types.Numeric, func(_ eval.Context, a []types.Value) (types.Value, error) {
		n := a[0].(int64)
		if n < 0 {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "factorial of a negative number is undefined")
		}
		z := apd.New(1, 0)
		for i := int64(2); i <= n; i++ {
			if _, err := eval.NumericCtx.Mul(z, z, apd.New(i, 0)); err != nil {
				return nil, err
			}
		}
		return z, nil
	}, types.Int8)))
	Register("scale", overloaded(true, sig(types.Int4, func(_ eval.Context, a []types.Value) (types.Value, error) {
		if a[0].(*apd.Decimal).Form != apd.Finite {
			return nil, nil // NaN and the infinities have no scale
		}
		return int64(eval.NumericDisplayScale(a[0].(*apd.Decimal))), nil
	}, types.Numeric)))
	Register("min_scale", overloaded(true, sig(types.Int4, numericMinScale, types.Numeric)))
	Register("trim_scale", overloaded(true, sig(types.Numeric, numericTrimScale, types.Numeric)))
	Register("setseed", overloaded(true, sig(types.Void, func(_ eval.Context, a []types.Value) (types.Value, error) {
		s := a[0].(float64)
		if s < -1 || s > 1 || math.IsNaN(s) {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "setseed parameter %s is out of allowed range [-1,1]", types.FormatText(types.Of(types.Float8), s))
		}
		return "", nil
	}, types.Float8)))
	float1 := func(f func(float64) float64) *Func {
		return overloaded(true, sig(types.Float8, func(_ eval.Context, a []types.Value) (types.Value, error) {
			return f(a[0].(float64)), nil
		}, types.Float8))
	}
	Register("cbrt", float1(math.Cbrt))
	Register("degrees", float1(func(r float64) float64 { return r * 180 / math.Pi }))
	Register("radians", float1(func(d float64) float64 { return d * math.Pi / 180 }))
	// ranged is a float function defined on [lo, hi] (NaN passes through):
	// outside, PostgreSQL's "input is out of range".
	ranged := func(f func(float64) float64, lo, hi float64) *Func {
		return overloaded(true, sig(types.Float8, func(_ eval.Context, a []types.Value) (types.Value, error) {
			x := a[0].(float64)
			if x < lo || x > hi {
				return nil, pgerror.New(pgerror.NumericValueOutOfRange, "input is out of range")
			}
			return f(x), nil
		}, types.Float8))
	}
	finite := math.MaxFloat64
	Register("sin", ranged(math.Sin, -finite, finite))
	Register("cos", ranged(math.Cos, -finite, finite))
	Register("tan", ranged(math.Tan, -finite, finite))
	Register("asin", ranged(math.Asin, -1, 1))
	Register("acos", ranged(math.Acos, -1, 1))
	Register("atan", float1(math.Atan))
	Register("sinh", float1(math.Sinh))
	Register("cosh", float1(math.Cosh))
	Register("tanh", float1(math.Tanh))
	Register("asinh", float1(math.Asinh))
	Register("acosh", ranged(math.Acosh, 1, math.Inf(1)))
	Register("atanh", ranged(math.Atanh, -1, 1))
	Register("cot", float1(func(x float64) float64 { return 1 / math.Tan(x) }))
	Register("atan2", overloaded(true, sig(types.Float8, func(_ eval.Context, a []types.Value) (types.Value, error) {
		return math.Atan2(a[0].(float64), a[1].(float64)), nil
	}, types.Float8, types.Float8)))
}

func checkLogArg(zero, negative bool) error {
	switch {
	case zero:
		return pgerror.New("2201E", "cannot take logarithm of zero")
	case negative:
		return pgerror.New("2201E", "cannot take logarithm of a negative number")
	}
	return nil
}

// numericLog is log(base, x) in numeric: enough decimals for 16
// significant digits, and no fewer than either argument shows.
func numericLog(base, x *apd.Decimal) (types.Value, error) {
	if err := checkLogArg(x.IsZero() || base.IsZero(), x.Negative || base.Negative); err != nil {
		return nil, err
	}
	c := apd.BaseContext.WithPrecision(60)
	lx, lb := new(apd.Decimal), new(apd.Decimal)
	if _, err := c.Ln(lx, x); err != nil {
		return nil, err
	}
	if _, err := c.Ln(lb, base); err != nil {
		return nil, err
	}
	if lb.IsZero() {
		return nil, pgerror.New(pgerror.DivisionByZero, "division by zero")
	}
	z := new(apd.Decimal)
	if _, err := c.Quo(z, lx, lb); err != nil {
		return nil, err
	}
	weight := 0
	if !z.IsZero() {
		weight = int(z.NumDigits()) + int(z.Exponent) - 1
	}
	scale := max(16-weight, eval.NumericDisplayScale(base), eval.NumericDisplayScale(x), 0)
	return z, eval.RoundScale(z, min(scale, 1000))
}

// logOf is a logarithm of x > 0 by f, whose base has log2base as its log
// of 2. Go's math.Log and math.Log10 are off for subnormal x on amd64
// (ln(1e-320) came out as ln of the smallest normal number, -709.09, for
// -736.83), so such an x is taken apart into its fraction and power of
// two first.
func logOf(x float64, f func(float64) float64, log2base float64) float64 {
	if x >= 0x1p-1022 || math.IsNaN(x) {
		return f(x)
	}
	frac, exp := math.Frexp(x)
	return f(frac) + float64(exp)*log2base
}

// magnitude is |v| as an unsigned number, which holds every int64's.
func magnitude(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1
	}
	return uint64(v)
}
