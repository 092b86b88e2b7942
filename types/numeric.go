package types

import (
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
)

// Limits of PostgreSQL's numeric: digits before and after the decimal point.
const (
	numericMaxWeightDigits = 131072
	numericMaxScale        = 16383
)

// parseNumeric is numeric_in: blanks around, [sign] digits [. digits]
// [e [sign] digits], or NaN, or [sign] Infinity / inf.
func parseNumeric(s string) (*apd.Decimal, error) {
	t := trimSpace(s)
	lt := strings.ToLower(t)
	switch lt {
	case "nan":
		return &apd.Decimal{Form: apd.NaN}, nil
	case "infinity", "+infinity", "inf", "+inf":
		return &apd.Decimal{Form: apd.Infinite}, nil
	case "-infinity", "-inf":
		return &apd.Decimal{Form: apd.Infinite, Negative: true}, nil
	}
	if !numericSyntax(t) {
		return nil, invalidSyntax(Numeric, s)
	}
	return buildNumeric(t)
}

// buildNumeric makes the Decimal of a literal numericSyntax accepted, without
// apd's exponent limits (PostgreSQL's are wider).
func buildNumeric(t string) (*apd.Decimal, error) {
	d := new(apd.Decimal)
	if t[0] == '-' || t[0] == '+' {
		d.Negative = t[0] == '-'
		t = t[1:]
	}
	mant, expPart, _ := strings.Cut(strings.ToLower(t), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	exp := int64(0)
	if expPart != "" {
		n, ok, inRange := scanInt(expPart, 64)
		if !ok {
			return nil, invalidSyntax(Numeric, t)
		}
		if !inRange || n > 1<<30 || n < -(1<<30) {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
		}
		exp = n
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	exp -= int64(len(frac))
	if digits == "" {
		digits = "0"
	}
	if _, ok := d.Coeff.SetString(digits, 10); !ok {
		return nil, invalidSyntax(Numeric, t)
	}
	if exp > 0 && digits == "0" {
		exp = 0
	}
	if exp < math.MinInt32 || exp > math.MaxInt32 {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
	}
	d.Exponent = int32(exp)
	if d.IsZero() {
		d.Negative = false
		if d.Exponent > 0 {
			d.Exponent = 0
		}
	}
	if err := checkNumericRange(d); err != nil {
		return nil, err
	}
	return d, nil
}

func numericSyntax(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		e := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			e++
		}
		if e == 0 {
			return false
		}
	}
	return i == len(s)
}

func checkNumericRange(d *apd.Decimal) error {
	if d.Form != apd.Finite || d.IsZero() {
		return nil
	}
	intDigits := int64(d.NumDigits()) + int64(d.Exponent)
	if intDigits > numericMaxWeightDigits || -int64(d.Exponent) > numericMaxScale {
		return pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
	}
	return nil
}

// quantize rounds d to the given exponent, half away from zero, as
// PostgreSQL's round_var does.
func quantize(d *apd.Decimal, exp int32) (*apd.Decimal, error) {
	prec := int64(d.NumDigits()) + int64(d.Exponent) - int64(exp) + 2
	if prec < 1 {
		prec = 1
	}
	ctx := apd.BaseContext.WithPrecision(uint32(prec))
	ctx.Rounding = apd.RoundHalfUp
	r := new(apd.Decimal)
	if _, err := ctx.Quantize(r, d, exp); err != nil {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
	}
	if r.IsZero() {
		r.Negative = false
	}
	return r, nil
}

// applyNumericTypmod is apply_typmod: round to the scale, then refuse values
// whose integer part has more digits than precision - scale allows.
func applyNumericTypmod(d *apd.Decimal, typmod int32) (Value, error) {
	p, s, ok := NumericPrecisionScale(typmod)
	if !ok || d.Form == apd.NaN {
		return d, nil
	}
	if d.Form == apd.Infinite {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "numeric field overflow").
			WithDetail("A field with precision %d, scale %d cannot hold an infinite value.", p, s)
	}
	if fitsNumericTypmod(d, p, s) {
		// Already the column's value (a value read from a column of the
		// same type, or fitted before): writers apply a column's modifier
		// to every value they store, so this is the common case.
		return d, nil
	}
	r, err := quantize(d, int32(-s))
	if err != nil {
		return nil, err
	}
	maxDigits := p - s
	if !r.IsZero() {
		// digits before the decimal point, counting none for |r| < 1
		intDigits := int(r.NumDigits()) + int(r.Exponent)
		if intDigits > maxDigits {
			e := pgerror.New(pgerror.NumericValueOutOfRange, "numeric field overflow")
			if maxDigits != 0 { // negative too: numeric(2,3) holds less than 10^-1
				return nil, e.WithDetail("A field with precision %d, scale %d must round to an absolute value less than 10^%d.", p, s, maxDigits)
			}
			return nil, e.WithDetail("A field with precision %d, scale %d must round to an absolute value less than 1.", p, s)
		}
	}
	return r, nil
}

// fitsNumericTypmod reports whether d is already at scale s with at most
// p - s integer digits, so applying numeric(p, s) would give d back.
func fitsNumericTypmod(d *apd.Decimal, p, s int) bool {
	if d.Form != apd.Finite || d.Exponent != int32(-s) {
		return false
	}
	if d.IsZero() {
		return !d.Negative
	}
	return int(d.NumDigits())+int(d.Exponent) <= p-s
}

// appendNumeric is numeric_out: plain notation keeping the value's scale.
func appendNumeric(dst []byte, d *apd.Decimal) []byte {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return append(dst, "NaN"...)
	case apd.Infinite:
		if d.Negative {
			return append(dst, "-Infinity"...)
		}
		return append(dst, "Infinity"...)
	}
	if d.IsZero() && (d.Negative || d.Exponent > 0) {
		// No "-0", and no "00" for a zero a negative scale made (0E+1).
		c := *d
		c.Negative = false
		c.Exponent = min(c.Exponent, 0)
		return append(dst, c.Text('f')...)
	}
	return append(dst, d.Text('f')...)
}

// NumericFromString parses a numeric literal as numeric_in does; a helper for
// the SQL layer's constants.
func NumericFromString(s string) (*apd.Decimal, error) { return parseNumeric(s) }
