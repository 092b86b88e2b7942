package builtins

import (
	"math/big"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// Numeric functions whose results depend on PostgreSQL's rules for NaN
// and the infinities, and the few that only numeric has: sqrt(numeric),
// gcd and lcm of numerics, min_scale and trim_scale.

// numericSpecial copies a NaN or infinite d, the value the rounding
// functions (round, trunc, ceil, floor) give back unchanged; ok is false
// for a finite d.
func numericSpecial(d *apd.Decimal) (types.Value, bool) {
	if d.Form == apd.Finite {
		return nil, false
	}
	return new(apd.Decimal).Set(d), true
}

// numericSign is sign(numeric): -1, 0 or 1, and NaN for NaN.
func numericSign(_ eval.Context, a []types.Value) (types.Value, error) {
	d := a[0].(*apd.Decimal)
	if d.Form == apd.NaN {
		return new(apd.Decimal).Set(eval.NumericNaN), nil
	}
	return apd.New(int64(d.Sign()), 0), nil
}

// numericSqrt is sqrt(numeric), to the scale PostgreSQL gives it: 16
// significant digits at least, and never fewer decimals than the argument
// has, rounded half away from zero.
func numericSqrt(_ eval.Context, a []types.Value) (types.Value, error) {
	x := a[0].(*apd.Decimal)
	switch {
	case x.Form == apd.NaN:
		return new(apd.Decimal).Set(eval.NumericNaN), nil
	case x.Sign() < 0:
		return nil, pgerror.New(pgerror.InvalidArgumentForPower, "cannot take square root of a negative number")
	case x.Form == apd.Infinite:
		return new(apd.Decimal).Set(eval.NumericPosInf), nil
	}
	weight, _ := eval.NumericLeadGroup(x)
	sweight := (weight+1)*4/2 - 1
	rscale := max(eval.NumericMinSigDigits-sweight, eval.NumericDisplayScale(x), 0)
	rscale = min(rscale, eval.NumericMaxDisplayScale)
	z := new(apd.Decimal)
	if x.IsZero() {
		return z, eval.RoundScale(z, rscale)
	}
	intDigits := max(int(x.NumDigits())+int(x.Exponent), 1)/2 + 1
	c := apd.BaseContext.WithPrecision(uint32(intDigits + rscale + 20))
	c.Rounding = apd.RoundDown
	if _, err := c.Sqrt(z, x); err != nil {
		return nil, eval.NumericChecked(z, err)
	}
	return z, eval.RoundScale(z, rscale)
}

// numericMinScale is min_scale: the fewest decimals that show d exactly
// (its scale without trailing zeros); NULL for NaN and the infinities.
func numericMinScale(_ eval.Context, a []types.Value) (types.Value, error) {
	d := a[0].(*apd.Decimal)
	if d.Form != apd.Finite {
		return nil, nil
	}
	return int64(eval.NumericDisplayScale(trimmedScale(d))), nil
}

// numericTrimScale is trim_scale: d without its trailing decimal zeros.
func numericTrimScale(_ eval.Context, a []types.Value) (types.Value, error) {
	d := a[0].(*apd.Decimal)
	if d.Form != apd.Finite {
		return new(apd.Decimal).Set(d), nil
	}
	return trimmedScale(d), nil
}

// trimmedScale is d with no trailing zeros after the point (and a zero
// with none at all).
func trimmedScale(d *apd.Decimal) *apd.Decimal {
	z := new(apd.Decimal).Set(d)
	if z.IsZero() {
		z.Exponent = 0
		z.Negative = false
		return z
	}
	ten := big.NewInt(10)
	coeff := new(big.Int).Set(z.Coeff.MathBigInt())
	m := new(big.Int)
	for z.Exponent < 0 {
		q, r := new(big.Int).QuoRem(coeff, ten, m)
		if r.Sign() != 0 {
			break
		}
		coeff = q
		z.Exponent++
	}
	z.Coeff.SetMathBigInt(coeff)
	return z
}

// numericGCD is gcd(numeric, numeric) or, with lcm, lcm(numeric,
// numeric): computed on the values scaled to integers, with the larger of
// the two scales; NaN when either is NaN or infinite.
func numericGCD(lcm bool) func(eval.Context, []types.Value) (types.Value, error) {
	return func(_ eval.Context, a []types.Value) (types.Value, error) {
		x, y := a[0].(*apd.Decimal), a[1].(*apd.Decimal)
		if x.Form != apd.Finite || y.Form != apd.Finite {
			return new(apd.Decimal).Set(eval.NumericNaN), nil
		}
		scale := max(eval.NumericDisplayScale(x), eval.NumericDisplayScale(y))
		ix, iy := scaledInteger(x, scale), scaledInteger(y, scale)
		var r *big.Int
		switch {
		case !lcm:
			r = new(big.Int).GCD(nil, nil, new(big.Int).Abs(ix), new(big.Int).Abs(iy))
		case ix.Sign() == 0 || iy.Sign() == 0:
			r = new(big.Int)
		default:
			g := new(big.Int).GCD(nil, nil, new(big.Int).Abs(ix), new(big.Int).Abs(iy))
			// lcm(a*10^s, b*10^s) is lcm(a, b)*10^s: already at the scale.
			r = new(big.Int).Quo(ix, g)
			r.Mul(r, iy).Abs(r)
		}
		z := new(apd.Decimal)
		z.Coeff.SetMathBigInt(r)
		z.Exponent = int32(-scale)
		return z, eval.NumericChecked(z, nil)
	}
}

// scaledInteger is d * 10^scale, an integer for a scale at least d's.
func scaledInteger(d *apd.Decimal, scale int) *big.Int {
	c := new(big.Int).Set(d.Coeff.MathBigInt())
	shift := int64(d.Exponent) + int64(scale)
	if shift > 0 {
		c.Mul(c, new(big.Int).Exp(big.NewInt(10), big.NewInt(shift), nil))
	}
	if d.Negative {
		c.Neg(c)
	}
	return c
}

func init() {
	Register("power", overloaded(true,
		sig(types.Float8, eval.FloatPower, types.Float8, types.Float8),
		sig(types.Numeric, func(_ eval.Context, a []types.Value) (types.Value, error) {
			z := new(apd.Decimal)
			return z, eval.NumericPower(z, a[0].(*apd.Decimal), a[1].(*apd.Decimal))
		}, types.Numeric, types.Numeric)))
	Register("pow", Funcs["power"])
}
