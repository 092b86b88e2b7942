package eval

import (
	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
)

// numericMaxIntDigits is how many digits PostgreSQL's numeric keeps before
// the decimal point (NUMERIC_WEIGHT_MAX groups of four); larger results
// fail with 22003 rather than being rounded.
const numericMaxIntDigits = 131072

// ExactCtx returns an arithmetic context precise enough that adding,
// subtracting, multiplying or taking the remainder of x and y is exact.
// PostgreSQL's numeric never rounds these operations, so a fixed
// precision (numericCtx's) would silently lose digits of wide values and
// make Rem fail outright once the integer quotient outgrows it.
func ExactCtx(x, y *apd.Decimal) *apd.Context {
	digits := x.NumDigits() + y.NumDigits()
	hi := max(x.NumDigits()+int64(x.Exponent), y.NumDigits()+int64(y.Exponent))
	lo := min(int64(x.Exponent), int64(y.Exponent))
	p := max(digits, hi-lo) + 2
	if p <= int64(NumericCtx.Precision) {
		return NumericCtx
	}
	return NumericCtx.WithPrecision(uint32(min(p, 4*numericMaxIntDigits)))
}

// NumericChecked finishes a numeric operation: apd's own failures
// (exponent out of range, impossible division) and results wider than
// numeric can store become PostgreSQL's 22003, so no internal error text
// reaches the client.
func NumericChecked(z *apd.Decimal, err error) error {
	if err != nil {
		if _, ok := err.(*pgerror.Error); ok {
			return err
		}
		return pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
	}
	if z.Form == apd.Finite && z.NumDigits()+int64(z.Exponent) > numericMaxIntDigits {
		return pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
	}
	if z.IsZero() {
		z.Negative = false // numeric has no negative zero (-0.0001 * 0 is 0.0000)
	}
	return nil
}
