package eval

import (
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
)

// PostgreSQL's numeric keeps its digits in base 10000 (NBASE), and
// power_var_int sizes its intermediate products in those digits; these
// mirror its constants.
const (
	nbaseDecDigits   = 4     // DEC_DIGITS
	numericWeightMax = 32767 // NUMERIC_WEIGHT_MAX
)

// nbaseWeight is the weight of d's leading base-10000 digit, as
// PostgreSQL's NumericVar has it (0.0000|1224... is -2, 1.5 is 0,
// 12345 is 1); zero has weight 0.
func nbaseWeight(d *apd.Decimal) int {
	w, _ := NumericLeadGroup(d)
	return w
}

// powerWeightEstimate is power_var_int's estimate of log10(|x| ^ n), from
// the leading base-10000 digits of x that fit 16 decimals.
func powerWeightEstimate(x *apd.Decimal, n int64) float64 {
	coeff := x.Coeff.String()
	adj := len(coeff) + int(x.Exponent) - 1 // decimal position of the leading digit
	w := FloorDiv(adj, nbaseDecDigits)
	// Pad on the left so that the coefficient's groups of four are
	// PostgreSQL's base-10000 digits, the first ending at position
	// w*4 counted from the point.
	pad := nbaseDecDigits - 1 - (adj - w*nbaseDecDigits)
	padded := strings.Repeat("0", pad) + coeff
	f, p := 0.0, (w+1)*nbaseDecDigits
	for i := 0; i < len(padded) && i < 4*nbaseDecDigits; i += nbaseDecDigits {
		group := padded[i:min(i+nbaseDecDigits, len(padded))]
		group += strings.Repeat("0", nbaseDecDigits-len(group))
		g, _ := strconv.Atoi(group)
		f = f*10000 + float64(g)
		p -= nbaseDecDigits
	}
	return float64(n) * (math.Log10(f) + float64(p))
}

// mulRounded sets z = a * b rounded half away from zero to scale
// decimals, as PostgreSQL's mul_var does.
func mulRounded(z, a, b *apd.Decimal, scale int) error {
	c := apd.BaseContext.WithPrecision(uint32(a.NumDigits() + b.NumDigits() + 2))
	if _, err := c.Mul(z, a, b); err != nil {
		return NumericChecked(z, err)
	}
	return RoundScale(z, scale)
}

// numericPowerInt is PostgreSQL 15's power_var_int: x ^ n by repeated
// squaring, each product rounded to the significant digits the result
// needs (plus guard digits), then the result rounded to rscale. Computing
// exactly and rounding once can differ from PostgreSQL in the last
// decimal (0.000012247448713915890 ^ 4 is 0.000000000000000000023 there,
// its squares rounded before the last one), so this follows its steps.
func numericPowerInt(z, x *apd.Decimal, n int64, rscale int) error {
	switch n {
	case 0:
		z.SetInt64(1)
		return RoundScale(z, rscale)
	case 1:
		z.Set(x)
		return RoundScale(z, rscale)
	case -1:
		return NumericChecked(z, quotientAtScale(z, apd.New(1, 0), x, rscale))
	case 2:
		return mulRounded(z, x, x, rscale)
	}
	if x.IsZero() {
		if n < 0 {
			return pgerror.New(pgerror.DivisionByZero, "division by zero")
		}
		z.SetInt64(0)
		return RoundScale(z, rscale)
	}
	f := powerWeightEstimate(x, n)
	if f > 3*math.MaxInt16*nbaseDecDigits {
		return pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
	}
	if f+1 < float64(-rscale) || f+1 < -NumericMaxDisplayScale {
		z.SetInt64(0)
		return RoundScale(z, rscale)
	}
	sigDigits := 1 + rscale + int(f)
	sigDigits += int(math.Log(math.Abs(float64(n)))) + 8

	neg := n < 0
	mask := uint64(n)
	if neg {
		mask = uint64(-n)
	}
	baseProd := new(apd.Decimal).Set(x)
	baseScale := displayScale(x)
	result := new(apd.Decimal)
	resultScale := 0
	if mask&1 != 0 {
		result.Set(x)
		resultScale = baseScale
	} else {
		result.SetInt64(1)
	}
	for mask >>= 1; mask > 0; mask >>= 1 {
		local := sigDigits - 2*nbaseWeight(baseProd)*nbaseDecDigits
		local = min(local, 2*baseScale)
		local = max(local, 0)
		if err := mulRounded(baseProd, baseProd, baseProd, local); err != nil {
			return err
		}
		baseScale = local
		if mask&1 != 0 {
			local = sigDigits - (nbaseWeight(baseProd)+nbaseWeight(result))*nbaseDecDigits
			local = min(local, baseScale+resultScale)
			local = max(local, 0)
			if err := mulRounded(result, baseProd, result, local); err != nil {
				return err
			}
			resultScale = local
		}
		if nbaseWeight(baseProd) > numericWeightMax || nbaseWeight(result) > numericWeightMax {
			if !neg {
				return pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
			}
			z.SetInt64(0)
			return RoundScale(z, rscale)
		}
	}
	if neg {
		return NumericChecked(z, quotientAtScale(z, apd.New(1, 0), result, rscale))
	}
	z.Set(result)
	return RoundScale(z, rscale)
}
