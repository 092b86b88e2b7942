package types

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
)

// Cast converts v from one type to another as an explicit cast (CAST or ::)
// does, in UTC. See CastIn.
func Cast(v Value, from, to T) (Value, error) {
	return CastIn(v, from, to, true, time.UTC)
}

// CastIn converts v as PostgreSQL's casts do. explicit is false for
// assignment casts (INSERT/UPDATE into a column), which refuse a too-long
// string for varchar(n)/char(n) where an explicit cast truncates. loc is the
// session time zone, used between timestamp, timestamptz and date and when
// text is read as timestamptz. NULL casts to NULL.
func CastIn(v Value, from, to T, explicit bool, loc *time.Location) (Value, error) {
	return CastWith(v, from, to, explicit, Input{Loc: loc})
}

// CastWith is CastIn with the transaction start that text cast to a date or
// time reads 'now' and 'today' as.
func CastWith(v Value, from, to T, explicit bool, in Input) (Value, error) {
	if v == nil {
		return nil, nil
	}
	in.Loc = in.loc()
	r, err := castValue(v, from, to, explicit, in)
	if err != nil {
		return nil, err
	}
	return applyTypmod(r, to, explicit)
}

// ApplyTypmod fits a value of type t.OID to t's modifier: varchar/char
// length (explicit truncates, otherwise too long is 22001), numeric precision
// and scale, time and timestamp precision, interval fields.
func ApplyTypmod(v Value, t T, explicit bool) (Value, error) {
	if v == nil {
		return nil, nil
	}
	return applyTypmod(v, t, explicit)
}

func applyTypmod(v Value, t T, explicit bool) (Value, error) {
	if t.Typmod < 0 {
		return v, nil
	}
	switch x := v.(type) {
	case string:
		if t.OID == Varchar || t.OID == Bpchar {
			return applyCharTypmod(t, x, explicit)
		}
	case *apd.Decimal:
		if t.OID == Numeric {
			return applyNumericTypmod(x, t.Typmod)
		}
	case time.Time:
		if t.OID == Timestamp || t.OID == Timestamptz {
			return roundTimestamp(x, t.Typmod), nil
		}
	case TimeOfDay:
		return roundTimeOfDay(x, t.Typmod), nil
	case IntervalValue:
		return roundInterval(x, t.Typmod), nil
	case ArrayValue:
		if e := ElemOf(t.OID); e != 0 {
			out := ArrayValue{Elem: x.Elem, Dims: x.Dims, Elems: make([]Value, len(x.Elems))}
			for i, el := range x.Elems {
				r, err := ApplyTypmod(el, T{OID: e, Typmod: t.Typmod}, explicit)
				if err != nil {
					return nil, err
				}
				out.Elems[i] = r
			}
			return out, nil
		}
	}
	return v, nil
}

func cannotCast(from, to T) error {
	return pgerror.New(pgerror.CannotCoerce, "cannot cast type %s to %s", FormatType(Of(from.OID)), FormatType(Of(to.OID)))
}

func isStringType(oid OID) bool {
	switch oid {
	case Text, Varchar, Bpchar, Name, Unknown, Char:
		return true
	}
	return false
}

func isIntType(oid OID) bool {
	switch oid {
	case Int2, Int4, Int8:
		return true
	}
	return false
}

func isOidType(oid OID) bool {
	switch oid {
	case Oid, Regproc, Regprocedure, Regoper, Regclass, Regtype, Regnamespace, Regrole:
		return true
	}
	return false
}

func intRangeError(oid OID) error {
	switch oid {
	case Int2:
		return pgerror.New(pgerror.NumericValueOutOfRange, "smallint out of range")
	case Int4:
		return pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
	case Oid:
		return pgerror.New(pgerror.NumericValueOutOfRange, "OID out of range")
	}
	return pgerror.New(pgerror.NumericValueOutOfRange, "bigint out of range")
}

func checkIntRange(n int64, oid OID) (Value, error) {
	switch oid {
	case Int2:
		if n < math.MinInt16 || n > math.MaxInt16 {
			return nil, intRangeError(oid)
		}
	case Int4:
		if n < math.MinInt32 || n > math.MaxInt32 {
			return nil, intRangeError(oid)
		}
	}
	return n, nil
}

func castValue(v Value, from, to T, explicit bool, in Input) (Value, error) {
	loc := in.Loc
	f, t := from.OID, to.OID
	if f == t && ElemOf(f) == 0 {
		if f == JSONB {
			if s, ok := v.(string); ok {
				return normalizeJSONB(s)
			}
		}
		return v, nil
	}
	// to a string type: the source's output function, with casts that differ
	if isStringType(t) && t != Char {
		var s string
		switch {
		case f == Bool:
			if b, _ := v.(bool); b {
				s = "true"
			} else {
				s = "false"
			}
		case f == Bpchar:
			s = strings.TrimRight(v.(string), " ")
		default:
			s = FormatTextIn(from, v, loc)
		}
		if t == Name {
			return truncateName(s), nil
		}
		return s, nil
	}
	if f == Char && isIntType(t) {
		s, _ := v.(string)
		if s == "" {
			return int64(0), nil
		}
		return int64(int8(s[0])), nil
	}
	if isStringType(f) {
		s, ok := v.(string)
		if !ok {
			return nil, cannotCast(from, to)
		}
		if t == Char {
			return parseChar(s), nil
		}
		// Read as the target's input function, without the modifier, which
		// CastIn applies afterwards with the right explicitness.
		return ParseTextWith(Of(t), s, in)
	}
	if ef, et := ElemOf(f), ElemOf(t); ef != 0 && et != 0 {
		a, ok := v.(ArrayValue)
		if !ok {
			return nil, cannotCast(from, to)
		}
		out := ArrayValue{Elem: et, Dims: a.Dims, Elems: make([]Value, len(a.Elems))}
		for i, e := range a.Elems {
			r, err := CastWith(e, T{OID: ef, Typmod: from.Typmod}, T{OID: et, Typmod: to.Typmod}, explicit, in)
			if err != nil {
				return nil, err
			}
			out.Elems[i] = r
		}
		return out, nil
	}
	switch x := v.(type) {
	case int64:
		switch {
		case isIntType(t):
			if isOidType(f) {
				if t == Int8 {
					return int64(uint32(x)), nil
				}
				return checkIntRange(int64(int32(uint32(x))), t)
			}
			return checkIntRange(x, t)
		case isOidType(t) && (isIntType(f) || isOidType(f)):
			if f == Int8 && (x < 0 || x > math.MaxUint32) {
				return nil, intRangeError(Oid)
			}
			return int64(uint32(x)), nil
		case t == Float8:
			return float64(x), nil
		case t == Float4:
			return float64(float32(x)), nil
		case t == Numeric:
			return apd.New(x, 0), nil
		case t == Bool && f == Int4:
			return x != 0, nil
		case t == Char && f == Int4:
			if x < -128 || x > 127 {
				return nil, pgerror.New(pgerror.NumericValueOutOfRange, "\"char\" out of range")
			}
			if x == 0 {
				return "", nil
			}
			return string([]byte{byte(x)}), nil
		}
	case float64:
		switch {
		case isIntType(t):
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, intRangeError(t)
			}
			r := math.RoundToEven(x)
			if r < -9.223372036854775808e18 || r >= 9.223372036854775808e18 {
				return nil, intRangeError(t)
			}
			return checkIntRange(int64(r), t)
		case t == Float8:
			return x, nil
		case t == Float4:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return x, nil
			}
			r := float32(x)
			if math.IsInf(float64(r), 0) {
				return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
			}
			if r == 0 && x != 0 {
				return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: underflow")
			}
			return float64(r), nil
		case t == Numeric:
			switch {
			case math.IsNaN(x):
				return &apd.Decimal{Form: apd.NaN}, nil
			case math.IsInf(x, 1):
				return &apd.Decimal{Form: apd.Infinite}, nil
			case math.IsInf(x, -1):
				return &apd.Decimal{Form: apd.Infinite, Negative: true}, nil
			}
			digits := 15
			if f == Float4 {
				digits = 6
			}
			return parseNumeric(strconv.FormatFloat(x, 'g', digits, 64))
		}
	case *apd.Decimal:
		switch {
		case isIntType(t):
			switch x.Form {
			case apd.NaN, apd.NaNSignaling:
				return nil, pgerror.New(pgerror.FeatureNotSupported, "cannot convert NaN to %s", sqlName(t))
			case apd.Infinite:
				return nil, pgerror.New(pgerror.FeatureNotSupported, "cannot convert infinity to %s", sqlName(t))
			}
			r, err := quantize(x, 0)
			if err != nil {
				return nil, intRangeError(t)
			}
			n, err := r.Int64()
			if err != nil {
				return nil, intRangeError(t)
			}
			return checkIntRange(n, t)
		case t == Float8 || t == Float4:
			var r float64
			switch x.Form {
			case apd.NaN, apd.NaNSignaling:
				r = NaN
			case apd.Infinite:
				r = math.Inf(1)
				if x.Negative {
					r = math.Inf(-1)
				}
			default:
				bits := 64
				if t == Float4 {
					bits = 32
				}
				var err error
				r, err = strconv.ParseFloat(x.Text('e'), bits)
				if err != nil || (r == 0 && !x.IsZero()) {
					return nil, pgerror.New(pgerror.NumericValueOutOfRange, "\"%s\" is out of range for type %s", appendNumeric(nil, x), sqlName(t))
				}
				if r == 0 {
					r = 0 // a numeric zero has no sign, so neither has its float
				}
			}
			return r, nil
		case t == Numeric:
			return x, nil
		}
	case bool:
		if t == Int4 {
			if x {
				return int64(1), nil
			}
			return int64(0), nil
		}
	case time.Time:
		return castTime(x, f, t, loc, from, to)
	case TimeOfDay:
		switch t {
		case Interval:
			return IntervalValue{Micros: int64(x)}, nil
		case Time:
			return x, nil
		}
	case IntervalValue:
		if t == Time {
			us := x.Micros % usPerDay
			if us < 0 {
				us += usPerDay
			}
			return TimeOfDay(us), nil
		}
	case string:
		if f == JSONB && (t == Bool || t == Numeric || t == Float4 || t == Float8 || isIntType(t)) {
			return castJSONBScalar(x, from, to, in)
		}
		if (f == JSON || f == JSONB) && (t == JSON || t == JSONB) {
			if t == JSONB {
				return normalizeJSONB(x)
			}
			return x, nil
		}
	}
	return nil, cannotCast(from, to)
}

func castTime(x time.Time, f, t OID, loc *time.Location, from, to T) (Value, error) {
	inf := IsInfinite(x) != 0
	switch {
	case f == Date && t == Timestamp:
		// A date's range reaches past a timestamp's (PostgreSQL's
		// date2timestamp); both start at 4714 BC.
		if !inf && x.After(maxTimestamp) {
			return nil, dateOutOfRangeForTimestamp()
		}
		return x, nil
	case f == Date && t == Timestamptz:
		if inf {
			return x, nil
		}
		if x.After(maxTimestamp) {
			return nil, dateOutOfRangeForTimestamp()
		}
		y, m, d := x.Date()
		r := LocalToUTC(y, m, d, 0, 0, 0, 0, loc)
		if !timestampInRange(r) {
			return nil, dateOutOfRangeForTimestamp()
		}
		return r, nil
	case f == Timestamp && t == Date:
		if inf {
			return x, nil
		}
		return midnightOf(x), nil
	case f == Timestamptz && t == Date:
		if inf {
			return x, nil
		}
		return midnightOf(x.In(loc)), nil
	case f == Timestamp && t == Timestamptz:
		if inf {
			return x, nil
		}
		y, m, d := x.Date()
		h, mi, s := x.Clock()
		r := LocalToUTC(y, m, d, h, mi, s, x.Nanosecond(), loc)
		if !timestampInRange(r) {
			return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "timestamp out of range")
		}
		return r, nil
	case f == Timestamptz && t == Timestamp:
		if inf {
			return x, nil
		}
		r := wallAsUTC(x.In(loc))
		if !timestampInRange(r) {
			return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "timestamp out of range")
		}
		return r, nil
	case (f == Timestamp || f == Timestamptz) && t == Time:
		if inf {
			return nil, nil // an infinite timestamp has no time of day: NULL, as in PostgreSQL
		}
		if f == Timestamptz {
			x = x.In(loc)
		}
		return timeOfDayOf(x), nil
	case (f == Timestamp || f == Timestamptz) && t == f:
		return x, nil
	}
	return nil, cannotCast(from, to)
}

// castJSONBScalar is jsonb's casts to bool and the numeric types: the jsonb
// must be a scalar of the matching kind.
func castJSONBScalar(s string, from, to T, in Input) (Value, error) {
	p := jsonParser{s: s}
	n, err := p.document(true)
	if err != nil {
		return nil, err
	}
	kind := map[byte]string{'o': "object", 'a': "array", 's': "string", 'n': "numeric", 'b': "boolean", 'z': "null"}[n.kind]
	want := byte('n')
	if to.OID == Bool {
		want = 'b'
	}
	if n.kind != want {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot cast jsonb %s to type %s", kind, sqlName(to.OID))
	}
	if want == 'b' {
		return n.str == "true", nil
	}
	d, err := parseNumeric(n.str)
	if err != nil {
		return nil, err
	}
	return castValue(d, Of(Numeric), to, true, in)
}

// dateOutOfRangeForTimestamp is PostgreSQL's error for a date past the
// last timestamp (294276-12-31) made a timestamp.
func dateOutOfRangeForTimestamp() error {
	return pgerror.New(pgerror.DatetimeFieldOverflow, "date out of range for timestamp")
}
