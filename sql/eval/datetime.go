package eval

import (
	"math"
	"time"

	"cdcdb/pgerror"
	"cdcdb/types"
)

const MicrosPerDay = 86400 * 1000000

var (
	errTimestampRange   = pgerror.New(pgerror.DatetimeFieldOverflow, "timestamp out of range")
	errDateRange        = pgerror.New(pgerror.DatetimeFieldOverflow, "date out of range")
	errIntervalRange    = pgerror.New(pgerror.DatetimeFieldOverflow, "interval out of range")
	errInfiniteDates    = pgerror.New(pgerror.DatetimeFieldOverflow, "cannot subtract infinite dates")
	errInfiniteTimes    = pgerror.New(pgerror.DatetimeFieldOverflow, "cannot subtract infinite timestamps")
	errDivisionByZero   = pgerror.New(pgerror.DivisionByZero, "division by zero")
	errDateForTimestamp = pgerror.New(pgerror.DatetimeFieldOverflow, "date out of range for timestamp")
)

// DatetimeArithmetic resolves + and - between dates, times, timestamps and
// intervals, and * and / of an interval by a number, with PostgreSQL's
// rules: infinite dates and timestamps stay infinite through addition and
// cannot be subtracted from one another, and results past the types'
// ranges are errors, never values.
func DatetimeArithmetic(op string, l, r types.OID) (func(Context, []types.Value) (types.Value, error), types.OID, bool) {
	isTS := func(o types.OID) bool { return o == types.Timestamp || o == types.Timestamptz }
	switch {
	case op == "+" && l == types.Date && IsIntType(r):
		return func(_ Context, a []types.Value) (types.Value, error) {
			return addDays(a[0].(time.Time), a[1].(int64))
		}, types.Date, true
	case op == "+" && IsIntType(l) && r == types.Date:
		return func(_ Context, a []types.Value) (types.Value, error) {
			return addDays(a[1].(time.Time), a[0].(int64))
		}, types.Date, true
	case op == "-" && l == types.Date && IsIntType(r):
		return func(_ Context, a []types.Value) (types.Value, error) {
			return addDays(a[0].(time.Time), -a[1].(int64))
		}, types.Date, true
	case op == "-" && l == types.Date && r == types.Date:
		return func(_ Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(time.Time), a[1].(time.Time)
			if types.IsInfinite(x) != 0 || types.IsInfinite(y) != 0 {
				return nil, errInfiniteDates
			}
			return types.Days(x) - types.Days(y), nil
		}, types.Int4, true
	case (op == "+" || op == "-") && (isTS(l) || l == types.Date) && r == types.Interval:
		res := l
		if l == types.Date {
			res = types.Timestamp
		}
		sign := 1
		if op == "-" {
			sign = -1
		}
		return func(x Context, a []types.Value) (types.Value, error) {
			return AddInterval(x, a[0].(time.Time), a[1].(types.IntervalValue), sign, res == types.Timestamptz)
		}, res, true
	case op == "+" && l == types.Interval && (isTS(r) || r == types.Date):
		res := r
		if r == types.Date {
			res = types.Timestamp
		}
		return func(x Context, a []types.Value) (types.Value, error) {
			return AddInterval(x, a[1].(time.Time), a[0].(types.IntervalValue), 1, res == types.Timestamptz)
		}, res, true
	case op == "-" && isTS(l) && l == r:
		return func(_ Context, a []types.Value) (types.Value, error) {
			return subtractTimestamps(a[0].(time.Time), a[1].(time.Time))
		}, types.Interval, true
	case (op == "+" || op == "-") && l == types.Interval && r == types.Interval:
		sign := int64(1)
		if op == "-" {
			sign = -1
		}
		return func(_ Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(types.IntervalValue), a[1].(types.IntervalValue)
			months := int64(x.Months) + sign*int64(y.Months)
			days := int64(x.Days) + sign*int64(y.Days)
			us, overflow := addInt64(x.Micros, sign*y.Micros)
			if overflow || months != int64(int32(months)) || days != int64(int32(days)) {
				return nil, errIntervalRange
			}
			return types.IntervalValue{Months: int32(months), Days: int32(days), Micros: us}, nil
		}, types.Interval, true
	case op == "+" && (l == types.Date && r == types.Time || l == types.Time && r == types.Date):
		// A date at a time of day is a timestamp.
		return func(_ Context, a []types.Value) (types.Value, error) {
			d, t := a[0], a[1]
			if l == types.Time {
				d, t = t, d
			}
			return dateAtTime(d.(time.Time), t.(types.TimeOfDay))
		}, types.Timestamp, true
	case op == "-" && l == types.Time && r == types.Time:
		return func(_ Context, a []types.Value) (types.Value, error) {
			return types.IntervalValue{Micros: int64(a[0].(types.TimeOfDay)) - int64(a[1].(types.TimeOfDay))}, nil
		}, types.Interval, true
	case op == "+" && l == types.Interval && r == types.Time:
		return func(_ Context, a []types.Value) (types.Value, error) {
			t := (int64(a[1].(types.TimeOfDay)) + a[0].(types.IntervalValue).Micros%MicrosPerDay) % MicrosPerDay
			if t < 0 {
				t += MicrosPerDay
			}
			return types.TimeOfDay(t), nil
		}, types.Time, true
	case (op == "+" || op == "-") && l == types.Time && r == types.Interval:
		sign := int64(1)
		if op == "-" {
			sign = -1
		}
		return func(_ Context, a []types.Value) (types.Value, error) {
			t := (int64(a[0].(types.TimeOfDay)) + sign*(a[1].(types.IntervalValue).Micros%MicrosPerDay)) % MicrosPerDay
			if t < 0 {
				t += MicrosPerDay
			}
			return types.TimeOfDay(t), nil
		}, types.Time, true
	case (op == "*" || op == "/") && l == types.Interval && (TypeCategory(r) == 'N'):
		return func(_ Context, a []types.Value) (types.Value, error) {
			f, err := ToFloat(a[1])
			if err != nil {
				return nil, err
			}
			if op == "/" {
				return divideInterval(a[0].(types.IntervalValue), f)
			}
			return MultiplyInterval(a[0].(types.IntervalValue), f)
		}, types.Interval, true
	case op == "*" && TypeCategory(l) == 'N' && r == types.Interval:
		return func(_ Context, a []types.Value) (types.Value, error) {
			f, err := ToFloat(a[0])
			if err != nil {
				return nil, err
			}
			return MultiplyInterval(a[1].(types.IntervalValue), f)
		}, types.Interval, true
	}
	return nil, 0, false
}

// addInt64 is x + y and whether it overflowed.
func addInt64(x, y int64) (int64, bool) {
	s := x + y
	return s, (x > 0 && y > 0 && s < 0) || (x < 0 && y < 0 && s >= 0)
}

// addDays is date + integer: an infinite date stays infinite, and a result
// outside the dates PostgreSQL holds is an error.
func addDays(d time.Time, n int64) (types.Value, error) {
	if types.IsInfinite(d) != 0 {
		return d, nil
	}
	days, overflow := addInt64(types.Days(d), n)
	if overflow || days != int64(int32(days)) {
		return nil, errDateRange
	}
	r := types.FromDays(days)
	if types.IsInfinite(r) != 0 || !types.DateInRange(r) {
		return nil, errDateRange
	}
	return r, nil
}

// dateAtTime is date + time: the timestamp of that date at that time; an
// infinite date gives the infinite timestamp.
func dateAtTime(d time.Time, t types.TimeOfDay) (types.Value, error) {
	if types.IsInfinite(d) != 0 {
		return d, nil
	}
	if !types.TimestampInRange(d) {
		return nil, errDateForTimestamp
	}
	r := types.FromMicros(types.Micros(d) + int64(t))
	if !types.TimestampInRange(r) {
		return nil, errTimestampRange
	}
	return r, nil
}

// subtractTimestamps is timestamp - timestamp: the microseconds between
// them as days and time (justify_hours), an error for infinite ones.
func subtractTimestamps(x, y time.Time) (types.Value, error) {
	if types.IsInfinite(x) != 0 || types.IsInfinite(y) != 0 {
		return nil, errInfiniteTimes
	}
	us, overflow := addInt64(types.Micros(x), -types.Micros(y))
	if overflow {
		return nil, errIntervalRange
	}
	return types.IntervalValue{Days: int32(us / MicrosPerDay), Micros: us % MicrosPerDay}, nil
}

// AddInterval adds an interval the way PostgreSQL does: months and days in
// the session's calendar (for timestamptz, across DST in local time), then
// the exact microseconds. An infinite timestamp stays infinite; a result
// past the range of timestamps is an error.
func AddInterval(x Context, t time.Time, iv types.IntervalValue, sign int, zoned bool) (types.Value, error) {
	if types.IsInfinite(t) != 0 {
		return t, nil
	}
	if !types.TimestampInRange(t) {
		return nil, errDateForTimestamp
	}
	if zoned {
		t = t.In(x.Location())
	}
	if iv.Months != 0 {
		// A month later is the same day of the month, or the month's last
		// day when it is shorter (Jan 31 + 1 month = Feb 29).
		y, m, d := t.Date()
		total := int(m) - 1 + sign*int(iv.Months)
		y += FloorDiv(total, 12)
		m = time.Month(total - FloorDiv(total, 12)*12 + 1)
		d = min(d, DaysIn(y, m))
		h, mi, s := t.Clock()
		t = time.Date(y, m, d, h, mi, s, t.Nanosecond(), t.Location())
		if !types.TimestampInRange(t.UTC()) {
			return nil, errTimestampRange
		}
	}
	if iv.Days != 0 {
		t = t.AddDate(0, 0, sign*int(iv.Days))
		if !types.TimestampInRange(t.UTC()) {
			return nil, errTimestampRange
		}
	}
	us, overflow := addInt64(types.Micros(t.UTC()), int64(sign)*iv.Micros)
	r := types.FromMicros(us)
	if overflow || types.IsInfinite(r) != 0 || !types.TimestampInRange(r) {
		return nil, errTimestampRange
	}
	return r, nil
}

// tsRound rounds to microseconds' worth of decimals, as PostgreSQL's
// TSROUND makes whole numbers of what float arithmetic leaves nearly so.
func tsRound(f float64) float64 { return math.RoundToEven(f*1e6) / 1e6 }

// MultiplyInterval is interval * float8 as PostgreSQL 15 computes it: the
// months and days multiplied and truncated, their fractions cascaded down
// (a month is 30 days, a day 86400 seconds), never up.
func MultiplyInterval(iv types.IntervalValue, f float64) (types.Value, error) {
	return scaledInterval(iv, float64(iv.Months)*f, float64(iv.Days)*f, float64(iv.Micros)*f)
}

// divideInterval is interval / float8, likewise.
func divideInterval(iv types.IntervalValue, f float64) (types.Value, error) {
	if f == 0 {
		return nil, errDivisionByZero
	}
	return scaledInterval(iv, float64(iv.Months)/f, float64(iv.Days)/f, float64(iv.Micros)/f)
}

func scaledInterval(iv types.IntervalValue, months, days, micros float64) (types.Value, error) {
	// PostgreSQL's FLOAT8_FITS_IN_INT32: below 2^31, so that 2147483647.5
	// fits and truncates to 2147483647.
	fits32 := func(v float64) bool { return !math.IsNaN(v) && v < -float64(math.MinInt32) && v >= math.MinInt32 }
	if !fits32(months) || !fits32(days) {
		return nil, errIntervalRange
	}
	var r types.IntervalValue
	r.Months, r.Days = int32(months), int32(days)
	monthRemainderDays := tsRound((months - float64(r.Months)) * 30)
	secRemainder := tsRound((days - float64(r.Days) + monthRemainderDays - math.Trunc(monthRemainderDays)) * 86400)
	day := int64(r.Days)
	if math.Abs(secRemainder) >= 86400 {
		day += int64(secRemainder / 86400)
		secRemainder -= math.Trunc(secRemainder/86400) * 86400
	}
	day += int64(monthRemainderDays)
	if day != int64(int32(day)) {
		return nil, errIntervalRange
	}
	r.Days = int32(day)
	us := math.RoundToEven(micros + secRemainder*1e6)
	if math.IsNaN(us) || us >= 9223372036854775807 || us < -9223372036854775808 {
		return nil, errIntervalRange
	}
	r.Micros = int64(us)
	return r, nil
}

func ToFloat(v types.Value) (float64, error) {
	switch v := v.(type) {
	case int64:
		return float64(v), nil
	case float64:
		return v, nil
	}
	f, err := CastValue(nil, v, types.Of(types.Numeric), types.Of(types.Float8), true)
	if err != nil {
		return 0, err
	}
	return f.(float64), nil
}
