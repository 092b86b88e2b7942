package eval

import (
	"math/big"
	"regexp/syntax"
	"strconv"
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/types"
)

func ArrayDims(arr types.ArrayValue) []int {
	if arr.Dims != nil {
		return arr.Dims
	}
	return []int{len(arr.Elems)}
}

func DaysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

func FloorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// GoValueType guesses the SQL type of a value from its Go representation.
func GoValueType(v types.Value) types.OID {
	switch v.(type) {
	case bool:
		return types.Bool
	case int64:
		return types.Int8
	case float64:
		return types.Float8
	case *apd.Decimal:
		return types.Numeric
	case string:
		return types.Text
	case []byte:
		return types.Bytea
	case time.Time:
		return types.Timestamptz
	case types.TimeOfDay:
		return types.Time
	case types.IntervalValue:
		return types.Interval
	case types.UUIDValue:
		return types.UUID
	case types.RecordValue:
		return types.Record
	}
	return types.Text
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
		return new(apd.Decimal).Set(NumericNaN), true
	}
	switch op {
	case "+", "-":
		yNeg := y.Negative != (op == "-")
		switch {
		case x.Form == apd.Infinite && y.Form == apd.Infinite:
			if x.Negative != yNeg {
				return new(apd.Decimal).Set(NumericNaN), true
			}
			return new(apd.Decimal).Set(x), true
		case x.Form == apd.Infinite:
			return new(apd.Decimal).Set(x), true
		}
		return &apd.Decimal{Form: apd.Infinite, Negative: yNeg}, true
	}
	if x.IsZero() || y.IsZero() {
		return new(apd.Decimal).Set(NumericNaN), true
	}
	return &apd.Decimal{Form: apd.Infinite, Negative: x.Negative != y.Negative}, true
}

// NumericDivSpecial is PostgreSQL's x / y and div(x, y) when either is NaN
// or infinite: NaN with a NaN or for infinity / infinity, a signed
// infinity for infinity / finite (division by zero for a zero y), and 0
// for finite / infinity. ok is false when both are finite.
func NumericDivSpecial(x, y *apd.Decimal) (r *apd.Decimal, ok bool, err error) {
	switch {
	case x.Form == apd.Finite && y.Form == apd.Finite:
		return nil, false, nil
	case x.Form == apd.NaN || y.Form == apd.NaN:
		return new(apd.Decimal).Set(NumericNaN), true, nil
	case x.Form == apd.Infinite && y.Form == apd.Infinite:
		return new(apd.Decimal).Set(NumericNaN), true, nil
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

// numericModSpecial is PostgreSQL's x % y when either is NaN or infinite:
// NaN with a NaN, NaN for an infinite x (division by zero for a zero y),
// and x for an infinite y. ok is false when both are finite.
func numericModSpecial(x, y *apd.Decimal) (r *apd.Decimal, ok bool, err error) {
	switch {
	case x.Form == apd.Finite && y.Form == apd.Finite:
		return nil, false, nil
	case x.Form == apd.NaN || y.Form == apd.NaN:
		return new(apd.Decimal).Set(NumericNaN), true, nil
	case x.Form == apd.Infinite:
		if y.IsZero() {
			return nil, true, pgerror.New(pgerror.DivisionByZero, "division by zero")
		}
		return new(apd.Decimal).Set(NumericNaN), true, nil
	}
	return new(apd.Decimal).Set(x), true, nil
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
		return new(apd.Decimal).Set(NumericNaN), true, nil
	case y.Form == apd.NaN:
		if x.Form == apd.Finite && x.Cmp(one) == 0 {
			return one, true, nil
		}
		return new(apd.Decimal).Set(NumericNaN), true, nil
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
			return new(apd.Decimal).Set(NumericPosInf), true, nil
		}
		if x.Form == apd.Finite && x.IsZero() {
			return nil, true, pgerror.New(pgerror.InvalidArgumentForPower, "zero raised to a negative power is undefined")
		}
		if c < 0 {
			return new(apd.Decimal).Set(NumericPosInf), true, nil
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
		return new(apd.Decimal).Set(NumericPosInf), true, nil
	}
	if numericIsOddInteger(y) {
		return new(apd.Decimal).Set(numericNegInf), true, nil
	}
	return new(apd.Decimal).Set(NumericPosInf), true, nil
}

// regexError turns Go's regexp syntax errors into PostgreSQL's wording.
func regexError(err error) error {
	msg := err.Error()
	if se, ok := err.(*syntax.Error); ok {
		switch se.Code {
		case syntax.ErrMissingParen, syntax.ErrUnexpectedParen:
			msg = "parentheses () not balanced"
		case syntax.ErrMissingBracket:
			msg = "brackets [] not balanced"
		case syntax.ErrMissingRepeatArgument, syntax.ErrInvalidRepeatOp:
			msg = "quantifier operand invalid"
		case syntax.ErrInvalidRepeatSize:
			msg = "invalid repetition count(s)"
		case syntax.ErrInvalidEscape, syntax.ErrTrailingBackslash:
			msg = "invalid escape \\ sequence"
		case syntax.ErrInvalidCharRange:
			msg = "invalid character range"
		}
	}
	return pgerror.New(pgerror.InvalidRegularExpression, "invalid regular expression: %s", msg)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

var (
	NumericNaN    = &apd.Decimal{Form: apd.NaN}
	NumericPosInf = &apd.Decimal{Form: apd.Infinite}
	numericNegInf = &apd.Decimal{Form: apd.Infinite, Negative: true}
)

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
