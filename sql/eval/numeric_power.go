package eval

import (
	"math"
	"math/big"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/types"
)

// numeric ^ numeric and power() follow PostgreSQL 15's power_var: an
// integer power has 16 decimals (more when the base shows more), so
// 2::numeric ^ 10 prints 1024.0000000000000000; any other power has at
// least 16 significant digits and no fewer decimals than either input
// shows, chosen from an estimate of the result's decimal weight, so
// 100 ^ 1.5 prints 1000.0000000000000 and 2 ^ 0.5 1.4142135623730950.
// An integer power is computed as power_var_int computes it
// (numeric_powint.go); any other carries guard digits beyond its scale and
// then rounds half away from zero.

const (
	NumericMinSigDigits    = 16
	NumericMaxDisplayScale = 1000
)

// FloatPower is float8 ^ float8 with PostgreSQL's errors for undefined
// results.
func FloatPower(_ Context, a []types.Value) (types.Value, error) {
	x, y := a[0].(float64), a[1].(float64)
	if x == 0 && y < 0 {
		return nil, pgerror.New(pgerror.InvalidArgumentForPower, "zero raised to a negative power is undefined")
	}
	if x < 0 && y != math.Trunc(y) {
		return nil, pgerror.New(pgerror.InvalidArgumentForPower, "a negative number raised to a non-integer power yields a complex result")
	}
	v := math.Pow(x, y)
	if math.IsInf(v, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
	}
	if v == 0 && x != 0 && !math.IsInf(y, 0) {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: underflow")
	}
	return v, nil
}

// displayScale is the number of decimals a numeric shows.
func displayScale(d *apd.Decimal) int {
	return max(0, -int(d.Exponent))
}

// log10Abs estimates log10(|d|) for a nonzero d from its leading digits,
// exactly when d is a power of ten.
func log10Abs(d *apd.Decimal) float64 {
	coeff := new(big.Int).Set(d.Coeff.MathBigInt())
	exp := int64(d.Exponent)
	ten := big.NewInt(10)
	digits := int64(len(coeff.String()))
	if digits > 17 {
		coeff.Quo(coeff, new(big.Int).Exp(ten, big.NewInt(digits-17), nil))
		exp += digits - 17
	}
	f, _ := new(big.Float).SetInt(coeff).Float64()
	l := math.Log10(f)
	if r := math.Round(l); math.Pow(10, r) == f {
		l = r
	}
	return l + float64(exp)
}

// NumericPower sets z = x ^ y.
func NumericPower(z, x, y *apd.Decimal) error {
	if r, ok, err := numericPowerSpecial(x, y); ok {
		if err == nil {
			z.Set(r)
		}
		return err
	}
	if x.IsZero() && y.Sign() < 0 {
		return pgerror.New(pgerror.InvalidArgumentForPower, "zero raised to a negative power is undefined")
	}
	yInt := new(apd.Decimal)
	if _, err := apd.BaseContext.WithPrecision(uint32(max(1, y.NumDigits()+1))).RoundToIntegralValue(yInt, y); err != nil {
		return NumericChecked(z, err)
	}
	integral := yInt.Cmp(y) == 0
	if x.Sign() < 0 && !integral {
		return pgerror.New(pgerror.InvalidArgumentForPower, "a negative number raised to a non-integer power yields a complex result")
	}
	var weight float64 // estimated decimal weight of the result
	var n int64        // the exponent, when integral
	if integral {
		var err error
		n, err = yInt.Int64()
		if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
			integral = false
		} else if !x.IsZero() {
			weight = float64(n) * log10Abs(x)
		}
	}
	if !integral {
		if x.IsZero() {
			z.SetInt64(0)
			z.Exponent = -NumericMinSigDigits
			return nil
		}
		lnVal, ok := lnEstimate(x, y)
		if math.Abs(lnVal) > 2000*3.01 {
			if lnVal > 0 || !ok {
				return pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
			}
			z.SetInt64(0)
			z.Exponent = -NumericMaxDisplayScale
			return nil
		}
		weight = lnVal * 0.434294481903252
	}
	if integral {
		if weight > 131072 {
			return pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
		}
		if weight+1 < -NumericMaxDisplayScale {
			z.SetInt64(0)
			z.Exponent = -NumericMaxDisplayScale
			return nil
		}
	}
	// PostgreSQL 15 gives integer powers a fixed 16 decimals (or the
	// base's scale); other powers get 16 significant digits.
	rscale := max(NumericMinSigDigits, displayScale(x))
	if !integral {
		rscale = max(NumericMinSigDigits-int(weight), displayScale(x), displayScale(y))
	}
	rscale = min(rscale, NumericMaxDisplayScale)
	if x.IsZero() { // 0 ^ 0 is 1, as SQL:2003 and most languages have it
		z.SetInt64(0)
		if y.IsZero() {
			z.SetInt64(1)
		}
		return RoundScale(z, rscale)
	}
	if integral {
		return numericPowerInt(z, x, n, rscale)
	}
	prec := max(int(weight), 0) + rscale + 10
	if _, err := apd.BaseContext.WithPrecision(uint32(prec)).Pow(z, x, y); err != nil {
		return NumericChecked(z, err)
	}
	c := apd.BaseContext.WithPrecision(uint32(prec + 2))
	c.Rounding = apd.RoundHalfUp
	_, err := c.Quantize(z, z, int32(-rscale))
	return NumericChecked(z, err)
}

// lnEstimate is PostgreSQL's low-precision ln(x) * y, used only to choose
// the result scale: ln(x) and the product are rounded to 8 significant
// decimals as power_var rounds them, so results near a whole decimal
// weight pick the same scale. ok is false when x's logarithm does not fit
// a float.
func lnEstimate(x, y *apd.Decimal) (float64, bool) {
	lnx := log10Abs(x) * math.Ln10
	if math.IsInf(lnx, 0) || math.IsNaN(lnx) {
		return 0, false
	}
	// estimate_ln_dweight: the decimal weight of ln(x), from x - 1 when x
	// is near 1.
	var dweight int
	xf, _ := x.Float64()
	if xf >= 0.9 && xf <= 1.1 {
		if d := xf - 1; d != 0 {
			dweight = int(math.Floor(math.Log10(math.Abs(d))))
		}
	} else if lnx != 0 {
		dweight = int(math.Log10(math.Abs(lnx)))
	}
	scale := max(8-dweight, 0)
	round := func(v float64) float64 {
		p := math.Pow(10, float64(scale))
		return math.Round(v*p) / p
	}
	yf, _ := y.Float64()
	return round(round(lnx) * yf), true
}
