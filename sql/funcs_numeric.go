package sql

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

var (
	numericNaN    = &apd.Decimal{Form: apd.NaN}
	numericPosInf = &apd.Decimal{Form: apd.Infinite}
	numericNegInf = &apd.Decimal{Form: apd.Infinite, Negative: true}
)

// numericSign is sign(numeric): -1, 0 or 1, and NaN for NaN.
func numericSign(_ eval.Context, a []types.Value) (types.Value, error) {
	d := a[0].(*apd.Decimal)
	if d.Form == apd.NaN {
		return new(apd.Decimal).Set(numericNaN), nil
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
		return new(apd.Decimal).Set(numericNaN), nil
	case x.Sign() < 0:
		return nil, pgerror.New(pgerror.InvalidArgumentForPower, "cannot take square root of a negative number")
	case x.Form == apd.Infinite:
		return new(apd.Decimal).Set(numericPosInf), nil
	}
	weight, _ := numericLeadGroup(x)
	sweight := (weight+1)*4/2 - 1
	rscale := max(numericMinSigDigits-sweight, numericDisplayScale(x), 0)
	rscale = min(rscale, numericMaxDisplayScale)
	z := new(apd.Decimal)
	if x.IsZero() {
		return z, roundScale(z, rscale)
	}
	intDigits := max(int(x.NumDigits())+int(x.Exponent), 1)/2 + 1
	c := apd.BaseContext.WithPrecision(uint32(intDigits + rscale + 20))
	c.Rounding = apd.RoundDown
	if _, err := c.Sqrt(z, x); err != nil {
		return nil, numericChecked(z, err)
	}
	return z, roundScale(z, rscale)
}

// numericArithSpecial is PostgreSQL's x + y, x - y or x * y (op) when
// either is NaN or infinite: NaN with a NaN, for infinities of opposite
// signs added (or alike subtracted) and for infinity times zero, else the
// infinity with its sign. ok is false when both are finite.
func numericArithSpecial(op string, x, y *apd.Decimal) (r *apd.Decimal, ok bool) {
	if x.Form == apd.Finite && y.Form == apd.Finite {
		return nil, false
	}
	if x.Form == apd.NaN || y.Form == apd.NaN {
		return new(apd.Decimal).Set(numericNaN), true
	}
	switch op {
	case "+", "-":
		yNeg := y.Negative != (op == "-")
		switch {
		case x.Form == apd.Infinite && y.Form == apd.Infinite:
			if x.Negative != yNeg {
				return new(apd.Decimal).Set(numericNaN), true
			}
			return new(apd.Decimal).Set(x), true
		case x.Form == apd.Infinite:
			return new(apd.Decimal).Set(x), true
		}
		return &apd.Decimal{Form: apd.Infinite, Negative: yNeg}, true
	}
	if x.IsZero() || y.IsZero() {
		return new(apd.Decimal).Set(numericNaN), true
	}
	return &apd.Decimal{Form: apd.Infinite, Negative: x.Negative != y.Negative}, true
}

// numericModSpecial is PostgreSQL's x % y when either is NaN or infinite:
// NaN with a NaN, NaN for an infinite x (division by zero for a zero y),
// and x for an infinite y. ok is false when both are finite.
func numericModSpecial(x, y *apd.Decimal) (r *apd.Decimal, ok bool, err error) {
	switch {
	case x.Form == apd.Finite && y.Form == apd.Finite:
		return nil, false, nil
	case x.Form == apd.NaN || y.Form == apd.NaN:
		return new(apd.Decimal).Set(numericNaN), true, nil
	case x.Form == apd.Infinite:
		if y.IsZero() {
			return nil, true, pgerror.New(pgerror.DivisionByZero, "division by zero")
		}
		return new(apd.Decimal).Set(numericNaN), true, nil
	}
	return new(apd.Decimal).Set(x), true, nil
}

// numericDivSpecial is PostgreSQL's x / y and div(x, y) when either is NaN
// or infinite: NaN with a NaN or for infinity / infinity, a signed
// infinity for infinity / finite (division by zero for a zero y), and 0
// for finite / infinity. ok is false when both are finite.
func numericDivSpecial(x, y *apd.Decimal) (r *apd.Decimal, ok bool, err error) {
	switch {
	case x.Form == apd.Finite && y.Form == apd.Finite:
		return nil, false, nil
	case x.Form == apd.NaN || y.Form == apd.NaN:
		return new(apd.Decimal).Set(numericNaN), true, nil
	case x.Form == apd.Infinite && y.Form == apd.Infinite:
		return new(apd.Decimal).Set(numericNaN), true, nil
	case x.Form == apd.Infinite:
		switch y.Sign() {
		case 0:
			return nil, true, pgerror.New(pgerror.DivisionByZero, "division by zero")
		case -1:
			return new(apd.Decimal).Neg(x), true, nil
		}
		return new(apd.Decimal).Set(x), true, nil
	}
	return new(apd.Decimal), true, nil
}

// numericPowerSpecial is PostgreSQL's x ^ y when either is NaN or
// infinite, which follows POSIX pow(3): NaN ^ 0 and 1 ^ NaN are 1, any
// other NaN gives NaN; |x| = 1 ^ ±Infinity is 1; otherwise the magnitude
// of x against 1 and the sign of y decide between 0 and Infinity, and a
// negative infinite x keeps its sign for an odd integer y. ok is false
// when both are finite.
func numericPowerSpecial(x, y *apd.Decimal) (r *apd.Decimal, ok bool, err error) {
	one := apd.New(1, 0)
	switch {
	case x.Form == apd.Finite && y.Form == apd.Finite:
		return nil, false, nil
	case x.Form == apd.NaN:
		if y.Form == apd.Finite && y.IsZero() {
			return one, true, nil
		}
		return new(apd.Decimal).Set(numericNaN), true, nil
	case y.Form == apd.NaN:
		if x.Form == apd.Finite && x.Cmp(one) == 0 {
			return one, true, nil
		}
		return new(apd.Decimal).Set(numericNaN), true, nil
	case y.Form == apd.Infinite:
		absX := new(apd.Decimal).Abs(x)
		c := absX.Cmp(one)
		if c == 0 {
			return one, true, nil
		}
		if !y.Negative {
			if c < 0 {
				return new(apd.Decimal), true, nil
			}
			return new(apd.Decimal).Set(numericPosInf), true, nil
		}
		if x.Form == apd.Finite && x.IsZero() {
			return nil, true, pgerror.New(pgerror.InvalidArgumentForPower, "zero raised to a negative power is undefined")
		}
		if c < 0 {
			return new(apd.Decimal).Set(numericPosInf), true, nil
		}
		return new(apd.Decimal), true, nil
	}
	// x is ±Infinity, y finite.
	switch y.Sign() {
	case 0:
		return one, true, nil
	case -1:
		return new(apd.Decimal), true, nil
	}
	if !x.Negative {
		return new(apd.Decimal).Set(numericPosInf), true, nil
	}
	if numericIsOddInteger(y) {
		return new(apd.Decimal).Set(numericNegInf), true, nil
	}
	return new(apd.Decimal).Set(numericPosInf), true, nil
}

// numericIsOddInteger reports whether a finite d is an odd integer.
func numericIsOddInteger(d *apd.Decimal) bool {
	i := new(apd.Decimal)
	if _, err := apd.BaseContext.WithPrecision(uint32(max(1, d.NumDigits()+1))).RoundToIntegralValue(i, d); err != nil || i.Cmp(d) != 0 {
		return false
	}
	c := new(big.Int).Set(i.Coeff.MathBigInt())
	for e := i.Exponent; e > 0; e-- {
		c.Mul(c, big.NewInt(10))
	}
	return c.Bit(0) == 1
}

// numericMinScale is min_scale: the fewest decimals that show d exactly
// (its scale without trailing zeros); NULL for NaN and the infinities.
func numericMinScale(_ eval.Context, a []types.Value) (types.Value, error) {
	d := a[0].(*apd.Decimal)
	if d.Form != apd.Finite {
		return nil, nil
	}
	return int64(numericDisplayScale(trimmedScale(d))), nil
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
			return new(apd.Decimal).Set(numericNaN), nil
		}
		scale := max(numericDisplayScale(x), numericDisplayScale(y))
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
		return z, numericChecked(z, nil)
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
