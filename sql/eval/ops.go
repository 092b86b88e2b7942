package eval

import (
	"encoding/json"
	"math"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/types"
)

// NumericRank orders the numeric types by PostgreSQL's implicit widening.
func NumericRank(oid types.OID) int {
	switch oid {
	case types.Int2:
		return 1
	case types.Int4:
		return 2
	case types.Oid, types.Regclass, types.Regtype, types.Regproc, types.Regnamespace, types.Regrole, types.Regprocedure:
		return 3
	case types.Int8:
		return 4
	case types.Numeric:
		return 5
	case types.Float4:
		return 6
	case types.Float8:
		return 7
	}
	return 0
}

func IsIntType(oid types.OID) bool {
	return oid == types.Int2 || oid == types.Int4 || oid == types.Int8
}

func IsOidType(oid types.OID) bool {
	r := NumericRank(oid)
	return r == 3
}

// ImplicitCastOK reports the conversions PostgreSQL applies without being
// asked.
func ImplicitCastOK(from, to types.OID) bool {
	if from == to || from == types.Unknown {
		return true
	}
	cf, ct := TypeCategory(from), TypeCategory(to)
	switch {
	case cf == 'N' && ct == 'N':
		rf, rt := NumericRank(from), NumericRank(to)
		if IsOidType(to) {
			return IsIntType(from) || IsOidType(from)
		}
		return rf < rt || (IsOidType(from) && rt >= 3)
	case cf == 'S' && ct == 'S':
		return to != types.Char && to != types.Name || from == types.Unknown || from == types.Text || from == types.Varchar
	case from == types.Date && (to == types.Timestamp || to == types.Timestamptz):
		return true
	case from == types.Timestamp && to == types.Timestamptz:
		return true
	case from == types.JSON && to == types.JSONB, from == types.JSONB && to == types.JSON:
		return false
	case ct == 'S' && to == types.Text && (cf == 'S'):
		return true
	case to == types.Regclass && (from == types.Text || from == types.Varchar):
		// pg_cast keeps this one implicit so that nextval(text) and its
		// kin still resolve.
		return true
	}
	return false
}

// AssignmentCastOK adds what INSERT and UPDATE accept beyond implicit casts:
// narrowing numerics, anything to a string type, and the reverse datetime
// conversions.
func AssignmentCastOK(from, to types.OID) bool {
	cf, ct := TypeCategory(from), TypeCategory(to)
	switch {
	case cf == 'N' && ct == 'N':
		return true
	case ct == 'S' && to != types.Char:
		return true
	case cf == 'D' && ct == 'D':
		return !(from == types.Time || to == types.Time) || from == to
	case from == types.JSON && to == types.JSONB, from == types.JSONB && to == types.JSON:
		return true
	}
	return false
}

// ExplicitCastOK adds what CAST accepts: everything to and from text, and
// the few special conversions.
func ExplicitCastOK(from, to types.OID) bool {
	if ImplicitCastOK(from, to) || AssignmentCastOK(from, to) {
		return true
	}
	cf, ct := TypeCategory(from), TypeCategory(to)
	switch {
	case cf == 'S' || ct == 'S':
		return true
	case from == types.Int4 && to == types.Bool, from == types.Bool && to == types.Int4:
		return true
	case from == types.JSONB && (ct == 'N' && !IsOidType(to) || to == types.Bool):
		return true // a jsonb number or boolean's value
	case cf == 'D' && to == types.Time:
		return from == types.Timestamp || from == types.Timestamptz
	case from == types.Interval && to == types.Time, from == types.Time && to == types.Interval:
		return true
	case cf == 'A' && ct == 'A':
		return true
	}
	return false
}

// DateLike reports the types of dates and instants: date, timestamp and
// timestamptz.
func DateLike(oid types.OID) bool {
	return oid == types.Date || oid == types.Timestamp || oid == types.Timestamptz
}

func DtRank(oid types.OID) int {
	switch oid {
	case types.Date:
		return 1
	case types.Timestamp:
		return 2
	}
	return 3
}

// OperatorError is PostgreSQL's "operator does not exist".
func OperatorError(op string, l, r types.T) *pgerror.Error {
	return pgerror.New(pgerror.UndefinedFunction, "operator does not exist: %s %s %s", TypeName(l), op, TypeName(r)).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

// ComparisonFunc maps a comparison operator to a test on Compare's result.
func ComparisonFunc(op string) (func(c int) bool, error) {
	switch op {
	case "=":
		return func(c int) bool { return c == 0 }, nil
	case "<>", "!=":
		return func(c int) bool { return c != 0 }, nil
	case "<":
		return func(c int) bool { return c < 0 }, nil
	case "<=":
		return func(c int) bool { return c <= 0 }, nil
	case ">":
		return func(c int) bool { return c > 0 }, nil
	case ">=":
		return func(c int) bool { return c >= 0 }, nil
	}
	return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist: %s", op)
}

// Compare is a comparison of two values of one type.
type Compare struct {
	L, R Expr
	T    types.T
	Test func(int) bool
	Op   string
}

func (e *Compare) Eval(env *Env) (types.Value, error) {
	a, err := e.L.Eval(env)
	if err != nil {
		return nil, err
	}
	c, err := e.R.Eval(env)
	if err != nil || a == nil || c == nil {
		return nil, err
	}
	if ra, ok := a.(types.RecordValue); ok {
		if rc, ok := c.(types.RecordValue); ok {
			return e.compareRows(ra, rc), nil
		}
	}
	return e.Test(types.Compare(e.T, a, c)), nil
}

func (e *Compare) Type() types.T { return BoolT() }

// compareRows compares row values field by field as SQL does: the first
// pair of fields that differ decides; a NULL before that makes the result
// NULL, except that for = and <> a differing pair anywhere decides.
func (e *Compare) compareRows(a, b types.RecordValue) types.Value {
	sawNull := false
	for i := range a.Fields {
		if i >= len(b.Fields) {
			break
		}
		x, y := a.Fields[i], b.Fields[i]
		if x == nil || y == nil {
			sawNull = true
			continue
		}
		c := types.Compare(a.Types[i], x, y)
		if c == 0 {
			continue
		}
		if sawNull && e.Op != "=" && e.Op != "<>" && e.Op != "!=" {
			return nil
		}
		return e.Test(c)
	}
	if sawNull {
		return nil
	}
	return e.Test(0)
}

// IsDistinct is IS [NOT] DISTINCT FROM: a comparison where NULL equals NULL.
type IsDistinct struct {
	L, R Expr
	T    types.T
	Not  bool
}

func (e *IsDistinct) Eval(env *Env) (types.Value, error) {
	a, err := e.L.Eval(env)
	if err != nil {
		return nil, err
	}
	c, err := e.R.Eval(env)
	if err != nil {
		return nil, err
	}
	var distinct bool
	switch {
	case a == nil && c == nil:
		distinct = false
	case a == nil || c == nil:
		distinct = true
	default:
		distinct = types.Compare(e.T, a, c) != 0
	}
	return distinct != e.Not, nil
}

func (e *IsDistinct) Type() types.T { return BoolT() }

func ArithmeticFunc(op string, t types.OID) (func(Context, []types.Value) (types.Value, error), error) {
	switch t {
	case types.Int2, types.Int4, types.Int8:
		return IntArith(op, t)
	case types.Float4, types.Float8:
		return floatArith(op, t == types.Float4)
	case types.Numeric:
		return NumericArith(op)
	}
	return nil, pgerror.New(pgerror.UndefinedFunction, "no arithmetic for type")
}

func IntRangeError(t types.OID) error {
	switch t {
	case types.Int2:
		return pgerror.New(pgerror.NumericValueOutOfRange, "smallint out of range")
	case types.Int4:
		return pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
	}
	return pgerror.New(pgerror.NumericValueOutOfRange, "bigint out of range")
}

func IntFits(t types.OID, v int64) bool {
	switch t {
	case types.Int2:
		return v >= math.MinInt16 && v <= math.MaxInt16
	case types.Int4:
		return v >= math.MinInt32 && v <= math.MaxInt32
	}
	return true
}

func IntArith(op string, t types.OID) (func(Context, []types.Value) (types.Value, error), error) {
	check := func(v int64, overflow bool) (types.Value, error) {
		if overflow || !IntFits(t, v) {
			return nil, IntRangeError(t)
		}
		return v, nil
	}
	switch op {
	case "+":
		return func(_ Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(int64), a[1].(int64)
			s := x + y
			return check(s, (x > 0 && y > 0 && s < 0) || (x < 0 && y < 0 && s >= 0))
		}, nil
	case "-":
		return func(_ Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(int64), a[1].(int64)
			s := x - y
			return check(s, (x >= 0 && y < 0 && s < 0) || (x < 0 && y > 0 && s >= 0))
		}, nil
	case "*":
		return func(_ Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(int64), a[1].(int64)
			if x == 0 || y == 0 {
				return int64(0), nil
			}
			s := x * y
			return check(s, s/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64))
		}, nil
	case "/":
		return func(_ Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(int64), a[1].(int64)
			if y == 0 {
				return nil, pgerror.New(pgerror.DivisionByZero, "division by zero")
			}
			if y == -1 {
				return check(-x, x == math.MinInt64)
			}
			return x / y, nil
		}, nil
	case "%":
		return func(_ Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(int64), a[1].(int64)
			if y == 0 {
				return nil, pgerror.New(pgerror.DivisionByZero, "division by zero")
			}
			if y == -1 {
				return int64(0), nil
			}
			return x % y, nil
		}, nil
	}
	return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist")
}

func floatArith(op string, single bool) (func(Context, []types.Value) (types.Value, error), error) {
	round := func(v float64) (types.Value, error) {
		if single {
			f := float32(v)
			if math.IsInf(float64(f), 0) && !math.IsInf(v, 0) {
				return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
			}
			return float64(f), nil
		}
		return v, nil
	}
	overflow := func(x, y, v float64) (types.Value, error) {
		if math.IsInf(v, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
		}
		return round(v)
	}
	// A product or quotient of nonzero numbers that comes out zero has
	// underflowed, which PostgreSQL refuses as it refuses an overflow.
	underflow := func(v types.Value, err error, nonzero bool) (types.Value, error) {
		if err == nil && v.(float64) == 0 && nonzero {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: underflow")
		}
		return v, err
	}
	switch op {
	case "+":
		return func(_ Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(float64), a[1].(float64)
			return overflow(x, y, x+y)
		}, nil
	case "-":
		return func(_ Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(float64), a[1].(float64)
			return overflow(x, y, x-y)
		}, nil
	case "*":
		return func(_ Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(float64), a[1].(float64)
			v, err := overflow(x, y, x*y)
			return underflow(v, err, x != 0 && y != 0)
		}, nil
	case "/":
		return func(_ Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(float64), a[1].(float64)
			if y == 0 && !math.IsNaN(x) { // NaN / 0 is NaN, as in PostgreSQL
				return nil, pgerror.New(pgerror.DivisionByZero, "division by zero")
			}
			v, err := overflow(x, y, x/y)
			return underflow(v, err, x != 0 && !math.IsInf(y, 0))
		}, nil
	case "%":
		return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist")
	case "^":
		return func(_ Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(float64), a[1].(float64)
			if x == 0 && y < 0 {
				return nil, pgerror.New("2201F", "zero raised to a negative power is undefined")
			}
			if x < 0 && y != math.Trunc(y) {
				return nil, pgerror.New("2201F", "a negative number raised to a non-integer power yields a complex result")
			}
			return overflow(x, y, math.Pow(x, y))
		}, nil
	}
	return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist")
}

// NumericCtx is the arithmetic context for numeric: generous precision,
// with PostgreSQL's result scales applied per operation.
var NumericCtx = apd.BaseContext.WithPrecision(1000)

func NumericArith(op string) (func(Context, []types.Value) (types.Value, error), error) {
	bin := func(f func(z, x, y *apd.Decimal) error) func(Context, []types.Value) (types.Value, error) {
		return func(_ Context, a []types.Value) (types.Value, error) {
			z := new(apd.Decimal)
			if err := f(z, a[0].(*apd.Decimal), a[1].(*apd.Decimal)); err != nil {
				return nil, err
			}
			return z, nil
		}
	}
	exact := func(f func(c *apd.Context, z, x, y *apd.Decimal) (apd.Condition, error)) func(Context, []types.Value) (types.Value, error) {
		return bin(func(z, x, y *apd.Decimal) error {
			if r, ok := numericArithSpecial(op, x, y); ok {
				z.Set(r)
				return nil
			}
			_, err := f(ExactCtx(x, y), z, x, y)
			if err == nil {
				// numeric's scale: the larger of the operands' for a sum,
				// their total for a product.
				scale := max(NumericDisplayScale(x), NumericDisplayScale(y))
				if op == "*" {
					scale = NumericDisplayScale(x) + NumericDisplayScale(y)
				}
				ShowScale(z, scale)
			}
			return NumericChecked(z, err)
		})
	}
	switch op {
	case "+":
		return exact((*apd.Context).Add), nil
	case "-":
		return exact((*apd.Context).Sub), nil
	case "*":
		return exact((*apd.Context).Mul), nil
	case "/":
		return bin(func(z, x, y *apd.Decimal) error {
			if r, ok, err := NumericDivSpecial(x, y); ok {
				if err == nil {
					z.Set(r)
				}
				return err
			}
			if y.IsZero() {
				return pgerror.New(pgerror.DivisionByZero, "division by zero")
			}
			return NumericDivide(z, x, y)
		}), nil
	case "%":
		return bin(func(z, x, y *apd.Decimal) error {
			if r, ok, err := numericModSpecial(x, y); ok {
				if err == nil {
					z.Set(r)
				}
				return err
			}
			if y.IsZero() {
				return pgerror.New(pgerror.DivisionByZero, "division by zero")
			}
			_, err := ExactCtx(x, y).Rem(z, x, y)
			if err == nil {
				ShowScale(z, max(NumericDisplayScale(x), NumericDisplayScale(y)))
			}
			return NumericChecked(z, err)
		}), nil
	case "^":
		return bin(func(z, x, y *apd.Decimal) error {
			return NumericPower(z, x, y)
		}), nil
	}
	return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist")
}

// NumericDivide divides as PostgreSQL's numeric division does: the
// quotient is rounded to the scale select_div_scale picks, enough for 16
// significant digits (numeric is never less precise than float8) and never
// less than either operand's scale. Weights and leading digits are those of
// numeric's base-10000 representation, so the scales match PostgreSQL's
// digit for digit.
func NumericDivide(z, x, y *apd.Decimal) error {
	w1, d1 := NumericLeadGroup(x)
	w2, d2 := NumericLeadGroup(y)
	qweight := w1 - w2
	if d1 <= d2 {
		qweight--
	}
	scale := 16 - qweight*4
	scale = max(scale, NumericDisplayScale(x), NumericDisplayScale(y), 0)
	scale = min(scale, 1000)
	return quotientAtScale(z, x, y, scale)
}

// quotientAtScale sets z = x / y rounded half away from zero to scale
// decimals, as PostgreSQL's div_var with round does: computed with every
// integer digit and guard digits beyond the scale, then rounded once.
func quotientAtScale(z, x, y *apd.Decimal, scale int) error {
	intDigits := max(int(x.NumDigits())+int(x.Exponent)-int(y.NumDigits())-int(y.Exponent)+1, 0)
	c := apd.BaseContext.WithPrecision(uint32(intDigits + scale + 10))
	if _, err := c.Quo(z, x, y); err != nil {
		return err
	}
	return RoundScale(z, scale)
}

// NumericLeadGroup returns the weight (power of 10000) and value of the
// leading base-10000 digit of d, as numeric stores it; 0, 0 for zero.
func NumericLeadGroup(d *apd.Decimal) (weight int, first int) {
	if d.IsZero() {
		return 0, 0
	}
	e := int(d.NumDigits()) + int(d.Exponent) - 1 // power of ten of the leading digit
	weight = e / 4
	if e < 0 && e%4 != 0 {
		weight--
	}
	n := e - 4*weight + 1 // decimal digits in the leading group
	digits := d.Coeff.String()
	for i := 0; i < n; i++ {
		first *= 10
		if i < len(digits) {
			first += int(digits[i] - '0')
		}
	}
	return weight, first
}

// NumericDisplayScale is the number of decimals a numeric shows.
func NumericDisplayScale(d *apd.Decimal) int { return max(-int(d.Exponent), 0) }

// ShowScale gives a finite d at least scale decimals, adding trailing
// zeros: exact arithmetic leaves the fewest digits its operands' exponents
// imply (1E+3 times 2.675 is 2675), where numeric keeps the scale
// PostgreSQL gives the operation (2675.000).
func ShowScale(d *apd.Decimal, scale int) {
	if d.Form != apd.Finite || int(d.Exponent) <= -scale {
		return
	}
	shift := int64(d.Exponent) + int64(scale)
	var pow apd.BigInt
	pow.Exp(apd.NewBigInt(10), apd.NewBigInt(shift), nil)
	d.Coeff.Mul(&d.Coeff, &pow)
	d.Exponent = int32(-scale)
}

// RoundScale rounds d half away from zero to scale decimals, as numeric does.
func RoundScale(d *apd.Decimal, scale int) error {
	return QuantizeScale(d, d, scale, apd.RoundHalfUp)
}

// QuantizeScale sets z to x with scale digits after the point, rounded as
// rounding says, in a context that holds every digit of the result however
// many there are. A negative scale rounds to a multiple of 10^-scale and,
// as PostgreSQL shows such a value, leaves no digits after the point (100,
// not 1E+2).
func QuantizeScale(z, x *apd.Decimal, scale int, rounding apd.Rounder) error {
	intDigits := max(int64(x.NumDigits())+int64(x.Exponent), 1)
	// Rounding at or past the digit before the first gives 0 however far
	// past; going no further keeps the exponent within apd's limits.
	scale = int(max(int64(scale), -intDigits-1))
	c := apd.BaseContext.WithPrecision(uint32(intDigits + int64(max(scale, 0)) + 1))
	c.Rounding = rounding
	if _, err := c.Quantize(z, x, int32(-scale)); err != nil {
		return err
	}
	if scale < 0 {
		_, err := c.Quantize(z, z, 0)
		return err
	}
	return nil
}

// ClampRoundScale limits the scale argument of round and trunc as
// PostgreSQL does: to the largest display scale a numeric has, and below to
// a rounding position past any digit a numeric can have (the result is 0).
func ClampRoundScale(scale int64) int {
	const maxDisplayScale, maxIntDigits = 16383, 131072
	return int(min(max(scale, -maxIntDigits-1), maxDisplayScale))
}

// JSONBConcat is jsonb || jsonb: objects merge (right wins), otherwise both
// sides become array elements.
func JSONBConcat(_ Context, a []types.Value) (types.Value, error) {
	var l, r any
	if err := json.Unmarshal([]byte(a[0].(string)), &l); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(a[1].(string)), &r); err != nil {
		return nil, err
	}
	var out any
	lo, lok := l.(map[string]any)
	ro, rok := r.(map[string]any)
	if lok && rok {
		for k, v := range ro {
			lo[k] = v
		}
		out = lo
	} else {
		var arr []any
		if la, ok := l.([]any); ok {
			arr = append(arr, la...)
		} else {
			arr = append(arr, l)
		}
		if ra, ok := r.([]any); ok {
			arr = append(arr, ra...)
		} else {
			arr = append(arr, r)
		}
		out = arr
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return types.ParseText(types.Of(types.JSONB), string(b))
}

// CommonType finds the type several expressions (CASE branches, IN lists,
// operands) are brought to, as PostgreSQL's UNION/CASE resolution does.
func CommonType(xs []Expr, construct string) (types.T, error) {
	var best types.T = UnknownT()
	sawUnknown := false
	for _, x := range xs {
		t := x.Type()
		if t.OID == types.Unknown {
			sawUnknown = true
			continue
		}
		if best.OID == types.Unknown {
			best = t
			continue
		}
		if best.OID == t.OID {
			if best.Typmod != t.Typmod {
				best.Typmod = -1
			}
			continue
		}
		// Different types leave no modifier: greatest(numeric(10,2), 1) is
		// a plain numeric, as select_common_type makes it.
		best.Typmod = -1
		cb, ct := TypeCategory(best.OID), TypeCategory(t.OID)
		switch {
		case cb == 'N' && ct == 'N':
			if NumericRank(t.OID) > NumericRank(best.OID) {
				best = types.Of(t.OID)
			}
		case cb == 'S' && ct == 'S':
			// text, varchar and char(n) convert to one another implicitly
			// both ways, so the first type stays (select_common_type);
			// "char" only converts to text implicitly.
			best = types.Of(best.OID)
			if best.OID == types.Char {
				best = TextT()
			}
		case cb == 'D' && ct == 'D' && best.OID != types.Time && t.OID != types.Time:
			if DtRank(t.OID) > DtRank(best.OID) {
				best = types.Of(t.OID)
			}
		default:
			return best, pgerror.New(pgerror.DatatypeMismatch, "%s types %s and %s cannot be matched", construct, TypeName(best), TypeName(t))
		}
	}
	if sawUnknown && best.OID != types.Record {
		// A literal has no modifier, so the result has none either (as
		// select_common_typmod decides): coalesce(v, 'abcdef') over a
		// varchar(3) is a plain varchar, and the literal is not cut to
		// v's length nor refused for it.
		best.Typmod = -1
	}
	return best, nil
}
