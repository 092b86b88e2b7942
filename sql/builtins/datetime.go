package builtins

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// Date and time functions: date_trunc, extract/date_part, age, the make_*
// constructors, justify_*, isfinite and timezone (AT TIME ZONE). to_char,
// to_date and to_timestamp are in format.go.
//
// Values follow the types package: a timestamp is its wall clock held as
// UTC, a timestamptz an instant shown in the session's time zone, a date a
// midnight. Field-wise work on a timestamptz happens on its wall clock in
// the session's zone, as in PostgreSQL.

func init() {
	Register("localtime", overloaded(false, sig(types.Time, func(x eval.Context, _ []types.Value) (types.Value, error) {
		w := x.TransactionStart().In(x.Location())
		return types.TimeOfDay((int64(w.Hour()*3600+w.Minute()*60+w.Second()))*1e6 + int64(w.Nanosecond()/1000)), nil
	})))
	Register("date_bin", overloaded(true,
		sig(types.Timestamptz, dateBin, types.Interval, types.Timestamptz, types.Timestamptz),
		sig(types.Timestamp, dateBin, types.Interval, types.Timestamp, types.Timestamp)))
	Register("date_trunc", overloaded(true,
		sig(types.Timestamptz, func(x eval.Context, a []types.Value) (types.Value, error) {
			return truncTimestamp(x, a[0].(string), a[1].(time.Time), true)
		}, types.Text, types.Timestamptz),
		// date_trunc(unit, timestamptz, zone) truncates the wall clock the
		// time shows in zone rather than in the session's TimeZone.
		sig(types.Timestamptz, func(x eval.Context, a []types.Value) (types.Value, error) {
			loc, err := types.LoadZone(a[2].(string))
			if err != nil {
				return nil, err
			}
			return truncTimestampIn(a[0].(string), a[1].(time.Time), true, func(t time.Time) time.Time { return t.In(loc) })
		}, types.Text, types.Timestamptz, types.Text),
		sig(types.Timestamp, func(x eval.Context, a []types.Value) (types.Value, error) {
			return truncTimestamp(x, a[0].(string), a[1].(time.Time), false)
		}, types.Text, types.Timestamp),
		sig(types.Interval, func(_ eval.Context, a []types.Value) (types.Value, error) {
			return truncInterval(a[0].(string), a[1].(types.IntervalValue))
		}, types.Text, types.Interval),
	))
	extract := func(float bool) *Func {
		wrapAs := func(kind types.OID, f func(x eval.Context, unit string, v types.Value) (*apd.Decimal, error)) func(eval.Context, []types.Value) (types.Value, error) {
			return func(x eval.Context, a []types.Value) (types.Value, error) {
				unit := strings.ToLower(a[0].(string))
				if float {
					if v, ok := datePartFloat(x, kind, unit, a[1]); ok {
						return v, nil
					}
				}
				d, err := f(x, unit, a[1])
				if err != nil || d == nil {
					return nil, err
				}
				if float {
					f, _ := d.Float64()
					return f, nil
				}
				return d, nil
			}
		}
		wrap := func(f func(x eval.Context, unit string, v types.Value) (*apd.Decimal, error)) func(eval.Context, []types.Value) (types.Value, error) {
			return wrapAs(0, f)
		}
		ret := types.Numeric
		if float {
			ret = types.Float8
		}
		dateVariant := wrap(extractDate)
		if float {
			// date_part(text, date) is date_part of the date as a
			// timestamp, as PostgreSQL defines it; only extract has
			// date's own fields (and refuses hours of a date).
			dateVariant = wrapAs(types.Timestamp, func(x eval.Context, u string, v types.Value) (*apd.Decimal, error) {
				return extractTimestamp(x, u, v.(time.Time), false)
			})
		}
		return overloaded(true,
			sig(ret, dateVariant, types.Text, types.Date),
			sig(ret, wrapAs(types.Timestamptz, func(x eval.Context, u string, v types.Value) (*apd.Decimal, error) {
				return extractTimestamp(x, u, v.(time.Time), true)
			}), types.Text, types.Timestamptz),
			sig(ret, wrapAs(types.Timestamp, func(x eval.Context, u string, v types.Value) (*apd.Decimal, error) {
				return extractTimestamp(x, u, v.(time.Time), false)
			}), types.Text, types.Timestamp),
			sig(ret, wrapAs(types.Interval, extractInterval), types.Text, types.Interval),
			sig(ret, wrapAs(types.Time, extractTime), types.Text, types.Time),
		)
	}
	Register("extract", extract(false))
	Register("date_part", extract(true))
	Register("age", overloaded(true,
		sig(types.Interval, func(x eval.Context, a []types.Value) (types.Value, error) {
			t1, err1 := calendarInstant(a[0].(time.Time))
			t2, err2 := calendarInstant(a[1].(time.Time))
			if err := errors.Join(err1, err2); err != nil {
				return nil, err
			}
			return ageOf(t1.In(x.Location()), t2.In(x.Location())), nil
		}, types.Timestamptz, types.Timestamptz),
		sig(types.Interval, func(_ eval.Context, a []types.Value) (types.Value, error) {
			t1, err1 := calendarInstant(a[0].(time.Time))
			t2, err2 := calendarInstant(a[1].(time.Time))
			if err := errors.Join(err1, err2); err != nil {
				return nil, err
			}
			return ageOf(t1, t2), nil
		}, types.Timestamp, types.Timestamp),
		sig(types.Interval, func(x eval.Context, a []types.Value) (types.Value, error) {
			t, err := calendarInstant(a[0].(time.Time))
			if err != nil {
				return nil, err
			}
			today := wallClock(x, x.TransactionStart(), true)
			midnight := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
			return ageOf(midnight, wallClock(x, t, true)), nil
		}, types.Timestamptz),
		sig(types.Interval, func(x eval.Context, a []types.Value) (types.Value, error) {
			t, err := calendarInstant(a[0].(time.Time))
			if err != nil {
				return nil, err
			}
			today := wallClock(x, x.TransactionStart(), true)
			midnight := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
			return ageOf(midnight, t), nil
		}, types.Timestamp),
	))
	Register("make_date", overloaded(true, sig(types.Date, func(_ eval.Context, a []types.Value) (types.Value, error) {
		return makeDate(a[0].(int64), a[1].(int64), a[2].(int64))
	}, types.Int4, types.Int4, types.Int4)))
	Register("make_time", overloaded(true, sig(types.Time, func(_ eval.Context, a []types.Value) (types.Value, error) {
		us, err := timeOfDayMicros(a[0].(int64), a[1].(int64), a[2].(float64))
		return types.TimeOfDay(us), err
	}, types.Int4, types.Int4, types.Float8)))
	Register("make_timestamp", overloaded(true, sig(types.Timestamp, func(_ eval.Context, a []types.Value) (types.Value, error) {
		return makeTimestamp(a, time.UTC)
	}, types.Int4, types.Int4, types.Int4, types.Int4, types.Int4, types.Float8)))
	Register("make_timestamptz", overloaded(true,
		sig(types.Timestamptz, func(x eval.Context, a []types.Value) (types.Value, error) {
			return makeTimestamp(a, x.Location())
		}, types.Int4, types.Int4, types.Int4, types.Int4, types.Int4, types.Float8),
		sig(types.Timestamptz, func(_ eval.Context, a []types.Value) (types.Value, error) {
			loc, err := types.LoadZone(a[6].(string))
			if err != nil {
				return nil, err
			}
			return makeTimestamp(a[:6], loc)
		}, types.Int4, types.Int4, types.Int4, types.Int4, types.Int4, types.Float8, types.Text),
	))
	// make_interval(years, months, weeks, days, hours, mins, secs), each
	// defaulting to 0.
	var mk []Overload
	for n := 0; n <= 7; n++ {
		params := make([]types.OID, n)
		for i := range params {
			params[i] = types.Int4
			if i == 6 {
				params[i] = types.Float8
			}
		}
		mk = append(mk, sig(types.Interval, makeInterval, params...))
	}
	Register("make_interval", overloaded(true, mk...))
	Register("justify_days", overloaded(true, sig(types.Interval, func(_ eval.Context, a []types.Value) (types.Value, error) {
		return justifyDays(a[0].(types.IntervalValue)), nil
	}, types.Interval)))
	Register("justify_hours", overloaded(true, sig(types.Interval, func(_ eval.Context, a []types.Value) (types.Value, error) {
		return justifyHours(a[0].(types.IntervalValue)), nil
	}, types.Interval)))
	Register("justify_interval", overloaded(true, sig(types.Interval, func(_ eval.Context, a []types.Value) (types.Value, error) {
		return justifyInterval(a[0].(types.IntervalValue)), nil
	}, types.Interval)))
	finite := func(_ eval.Context, a []types.Value) (types.Value, error) {
		if t, ok := a[0].(time.Time); ok {
			return types.IsInfinite(t) == 0, nil
		}
		return true, nil
	}
	Register("isfinite", overloaded(true,
		sig(types.Bool, finite, types.Date), sig(types.Bool, finite, types.Timestamptz),
		sig(types.Bool, finite, types.Timestamp), sig(types.Bool, finite, types.Interval)))
	atZoneFn := func(toWall bool) func(eval.Context, []types.Value) (types.Value, error) {
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			loc, err := zoneArg(a[0])
			if err != nil {
				return nil, err
			}
			return atZone(a[1].(time.Time), loc, toWall), nil
		}
	}
	Register("timezone", overloaded(true,
		sig(types.Timestamp, atZoneFn(true), types.Text, types.Timestamptz),
		sig(types.Timestamptz, atZoneFn(false), types.Text, types.Timestamp),
		sig(types.Timestamp, atZoneFn(true), types.Interval, types.Timestamptz),
		sig(types.Timestamptz, atZoneFn(false), types.Interval, types.Timestamp),
	))
}

// wallClock is a timestamp's fields: a timestamptz's in the session's time
// zone, a timestamp's as stored.
func wallClock(x eval.Context, t time.Time, zoned bool) time.Time {
	if zoned && types.IsInfinite(t) == 0 {
		return t.In(x.Location())
	}
	return t
}

// unitAliases maps the spellings PostgreSQL accepts for a field to its
// canonical name.
var unitAliases = map[string]string{
	"microsecond": "microseconds", "microseconds": "microseconds", "us": "microseconds", "usec": "microseconds", "usecs": "microseconds", "useconds": "microseconds",
	"millisecond": "milliseconds", "milliseconds": "milliseconds", "ms": "milliseconds", "msec": "milliseconds", "msecs": "milliseconds", "mseconds": "milliseconds",
	"second": "second", "seconds": "second", "s": "second", "sec": "second", "secs": "second",
	"minute": "minute", "minutes": "minute", "m": "minute", "min": "minute", "mins": "minute",
	"hour": "hour", "hours": "hour", "h": "hour", "hr": "hour", "hrs": "hour",
	"day": "day", "days": "day", "d": "day",
	"week": "week", "weeks": "week", "w": "week",
	"month": "month", "months": "month", "mon": "month", "mons": "month",
	"quarter": "quarter", "qtr": "quarter",
	"year": "year", "years": "year", "y": "year", "yr": "year", "yrs": "year",
	"decade": "decade", "decades": "decade", "dec": "decade", "decs": "decade",
	"century": "century", "centuries": "century", "c": "century", "cent": "century",
	"millennium": "millennium", "millennia": "millennium", "mil": "millennium", "mils": "millennium", "millenniums": "millennium",
	"dow": "dow", "isodow": "isodow", "doy": "doy", "isoyear": "isoyear", "epoch": "epoch", "julian": "julian", "j": "julian",
	"timezone": "timezone", "timezone_h": "timezone_hour", "timezone_hour": "timezone_hour", "timezone_m": "timezone_minute", "timezone_minute": "timezone_minute",
}

func unitNotRecognized(unit string, t types.OID) error {
	return pgerror.New(pgerror.InvalidParameterValue, "unit \"%s\" not recognized for type %s", unit, eval.TypeName(types.Of(t)))
}

func unitNotSupported(unit string, t types.OID) error {
	return pgerror.New(pgerror.FeatureNotSupported, "unit \"%s\" not supported for type %s", unit, eval.TypeName(types.Of(t)))
}

// truncTimestamp is date_trunc of a timestamp (or, zoned, a timestamptz,
// truncated in the session's time zone).
func truncTimestamp(x eval.Context, unit string, t time.Time, zoned bool) (types.Value, error) {
	return truncTimestampIn(unit, t, zoned, func(t time.Time) time.Time { return wallClock(x, t, zoned) })
}

// truncTimestampIn is date_trunc on the wall clock wall gives t.
func truncTimestampIn(unit string, t time.Time, zoned bool, wall func(time.Time) time.Time) (types.Value, error) {
	typ := types.Timestamp
	if zoned {
		typ = types.Timestamptz
	}
	lower := strings.ToLower(unit)
	u, ok := unitAliases[lower]
	if !ok {
		return nil, unitNotRecognized(lower, typ)
	}
	if types.IsInfinite(t) != 0 {
		return t, nil
	}
	w := wall(t)
	y, mo, d := w.Date()
	h, mi, s := w.Clock()
	ns := w.Nanosecond()
	switch u {
	case "microseconds":
	case "milliseconds":
		ns = ns / 1e6 * 1e6
	case "second":
		ns = 0
	case "minute":
		s, ns = 0, 0
	case "hour":
		mi, s, ns = 0, 0, 0
	case "day":
		h, mi, s, ns = 0, 0, 0, 0
	case "week":
		d -= (int(w.Weekday()) + 6) % 7
		h, mi, s, ns = 0, 0, 0, 0
	case "month", "quarter", "year", "decade", "century", "millennium":
		d, h, mi, s, ns = 1, 0, 0, 0, 0
		switch u {
		case "quarter":
			mo = (mo-1)/3*3 + 1
		case "year":
			mo = 1
		case "decade":
			mo, y = 1, eval.FloorDiv(y, 10)*10
		case "century":
			mo = 1
			if y > 0 {
				y = (y+99)/100*100 - 99
			} else {
				y = -((99-(y-1))/100*100 - 1)
			}
		case "millennium":
			mo = 1
			if y > 0 {
				y = (y+999)/1000*1000 - 999
			} else {
				y = -((999-(y-1))/1000*1000 - 1)
			}
		}
	default:
		return nil, unitNotSupported(lower, typ)
	}
	out := time.Date(y, mo, d, h, mi, s, ns, w.Location())
	if zoned {
		return out.UTC(), nil
	}
	return out, nil
}

// truncInterval is date_trunc of an interval.
func truncInterval(unit string, iv types.IntervalValue) (types.Value, error) {
	lower := strings.ToLower(unit)
	u, ok := unitAliases[lower]
	if !ok {
		return nil, unitNotRecognized(lower, types.Interval)
	}
	years, months := iv.Months/12, iv.Months%12
	out := types.IntervalValue{}
	timeFloor := func(per int64) int64 { return iv.Micros / per * per }
	switch u {
	case "millennium":
		out.Months = years / 1000 * 1000 * 12
	case "century":
		out.Months = years / 100 * 100 * 12
	case "decade":
		out.Months = years / 10 * 10 * 12
	case "year":
		out.Months = years * 12
	case "quarter":
		out.Months = years*12 + months/3*3
	case "month":
		out.Months = iv.Months
	case "day":
		out.Months, out.Days = iv.Months, iv.Days
	case "hour":
		out.Months, out.Days, out.Micros = iv.Months, iv.Days, timeFloor(3600e6)
	case "minute":
		out.Months, out.Days, out.Micros = iv.Months, iv.Days, timeFloor(60e6)
	case "second":
		out.Months, out.Days, out.Micros = iv.Months, iv.Days, timeFloor(1e6)
	case "milliseconds":
		out.Months, out.Days, out.Micros = iv.Months, iv.Days, timeFloor(1e3)
	case "microseconds":
		out = iv
	case "week":
		return nil, pgerror.New(pgerror.FeatureNotSupported, "unit \"%s\" not supported for type interval", lower).
			WithDetail("Months usually have fractional weeks.")
	default:
		return nil, unitNotSupported(lower, types.Interval)
	}
	return out, nil
}

// datePartFloat computes the date_part fields PostgreSQL computes in
// float8 arithmetic rather than exactly (seconds with their fraction,
// milliseconds, microseconds, an interval's or a time's epoch, the Julian
// date with its fraction of a day), with the same operations in the same
// order, so the float8 has the same last bit. ok is false for the other
// fields and for infinite values, which extract's exact result serves.
func datePartFloat(x eval.Context, kind types.OID, unit string, v types.Value) (float64, bool) {
	u, known := unitAliases[unit]
	if !known {
		return 0, false
	}
	secondParts := func(sec, fsec int64) (float64, bool) {
		switch u {
		case "microseconds":
			return float64(sec)*1000000.0 + float64(fsec), true
		case "milliseconds":
			return float64(sec)*1000.0 + float64(fsec)/1000.0, true
		case "second":
			return float64(sec) + float64(fsec)/1000000.0, true
		}
		return 0, false
	}
	switch kind {
	case types.Timestamp, types.Timestamptz:
		t := v.(time.Time)
		if types.IsInfinite(t) != 0 {
			return 0, false
		}
		if u == "epoch" {
			return float64(types.Micros(t)+946684800e6) / 1000000.0, true
		}
		w := wallClock(x, t, kind == types.Timestamptz)
		if u == "julian" {
			daySeconds := float64((w.Hour()*60+w.Minute())*60+w.Second()) + float64(w.Nanosecond()/1000)/1000000.0
			return float64(julianDay(w.Date())) + daySeconds/86400.0, true
		}
		return secondParts(int64(w.Second()), int64(w.Nanosecond()/1000))
	case types.Interval:
		iv := v.(types.IntervalValue)
		if u == "epoch" {
			r := float64(iv.Micros) / 1000000.0
			r += (365.25 * 86400) * float64(iv.Months/12)
			r += (30.0 * 86400) * float64(iv.Months%12)
			r += 86400.0 * float64(iv.Days)
			return r, true
		}
		return secondParts(iv.Micros%60e6/1e6, iv.Micros%1e6)
	case types.Time:
		us := int64(v.(types.TimeOfDay))
		if u == "epoch" {
			return float64(us) / 1000000.0, true
		}
		return secondParts(us%60e6/1e6, us%1e6)
	}
	return 0, false
}

// julianDay is the Julian day number of a calendar date.
func julianDay(y int, m time.Month, d int) int64 {
	return int64(types.Days(time.Date(y, m, d, 0, 0, 0, 0, time.UTC))) + 2451545
}

// dateField computes the fields every date-like type shares; ok is false
// for fields that are not about the date.
func dateField(u string, w time.Time) (int64, bool) {
	y, mo, d := w.Date()
	switch u {
	case "day":
		return int64(d), true
	case "month":
		return int64(mo), true
	case "year":
		if y <= 0 {
			return int64(y - 1), true // no year zero: 1 BC is -1
		}
		return int64(y), true
	case "quarter":
		return int64((mo-1)/3 + 1), true
	case "week":
		_, wk := w.ISOWeek()
		return int64(wk), true
	case "isoyear":
		iy, _ := w.ISOWeek()
		if iy <= 0 {
			return int64(iy - 1), true // BC, as year: no year zero
		}
		return int64(iy), true
	case "decade":
		return int64(eval.FloorDiv(y, 10)), true
	case "century":
		if y > 0 {
			return int64((y + 99) / 100), true
		}
		return int64(-((99 - (y - 1)) / 100)), true
	case "millennium":
		if y > 0 {
			return int64((y + 999) / 1000), true
		}
		return int64(-((999 - (y - 1)) / 1000)), true
	case "dow":
		return int64(w.Weekday()), true
	case "isodow":
		wd := int64(w.Weekday())
		if wd == 0 {
			wd = 7
		}
		return wd, true
	case "doy":
		return int64(w.YearDay()), true
	}
	return 0, false
}

func extractDate(_ eval.Context, unit string, v types.Value) (*apd.Decimal, error) {
	u, ok := unitAliases[unit]
	if !ok {
		return nil, unitNotRecognized(unit, types.Date)
	}
	t := v.(time.Time)
	if types.IsInfinite(t) != 0 {
		switch u {
		case "day", "month", "quarter", "week", "dow", "isodow", "doy":
			return nil, nil // oscillating fields of an infinite date
		case "year", "decade", "century", "millennium", "julian", "isoyear", "epoch":
			return infiniteField(u, t, types.Date)
		}
		return nil, unitNotSupported(unit, types.Date)
	}
	if n, ok := dateField(u, t); ok {
		return apd.New(n, 0), nil
	}
	switch u {
	case "epoch":
		return apd.New(types.Days(t)*86400+946684800, 0), nil
	case "julian":
		return apd.New(julianDay(t.Date()), 0), nil
	}
	return nil, unitNotSupported(unit, types.Date)
}

// infiniteField is a field of an infinite date or timestamp: +-Infinity
// for the fields that grow with time, NULL for the others.
func infiniteField(u string, t time.Time, typ types.OID) (*apd.Decimal, error) {
	switch u {
	case "year", "decade", "century", "millennium", "julian", "isoyear", "epoch":
		d := &apd.Decimal{Form: apd.Infinite}
		d.Negative = types.IsInfinite(t) < 0
		return d, nil
	case "timezone", "timezone_hour", "timezone_minute":
		if typ == types.Timestamptz {
			return nil, nil
		}
		return nil, unitNotSupported(u, typ)
	}
	return nil, nil
}

func extractTimestamp(x eval.Context, unit string, t time.Time, zoned bool) (*apd.Decimal, error) {
	typ := types.Timestamp
	if zoned {
		typ = types.Timestamptz
	}
	u, ok := unitAliases[unit]
	if !ok {
		return nil, unitNotRecognized(unit, typ)
	}
	if types.IsInfinite(t) != 0 {
		return infiniteField(u, t, typ)
	}
	w := wallClock(x, t, zoned)
	if n, ok := dateField(u, w); ok {
		return apd.New(n, 0), nil
	}
	secMicros := int64(w.Second())*1e6 + int64(w.Nanosecond()/1000)
	switch u {
	case "microseconds":
		return apd.New(secMicros, 0), nil
	case "milliseconds":
		return apd.New(secMicros, -3), nil
	case "second":
		return apd.New(secMicros, -6), nil
	case "minute":
		return apd.New(int64(w.Minute()), 0), nil
	case "hour":
		return apd.New(int64(w.Hour()), 0), nil
	case "epoch":
		// Seconds since 1970-01-01 00:00 UTC (a timestamp's wall clock read
		// as UTC), with six decimals.
		return apd.New(types.Micros(t)+946684800e6, -6), nil
	case "julian":
		dayMicros := int64(w.Hour()*3600+w.Minute()*60)*1e6 + secMicros
		frac := new(apd.Decimal)
		if err := eval.NumericDivide(frac, apd.New(dayMicros, 0), apd.New(86400e6, 0)); err != nil {
			return nil, err
		}
		out := new(apd.Decimal)
		_, err := eval.NumericCtx.Add(out, apd.New(julianDay(w.Date()), 0), frac)
		return out, err
	case "timezone", "timezone_hour", "timezone_minute":
		if !zoned {
			return nil, unitNotSupported(unit, typ)
		}
		_, off := w.Zone()
		switch u {
		case "timezone_hour":
			return apd.New(int64(off/3600), 0), nil
		case "timezone_minute":
			return apd.New(int64(off/60%60), 0), nil
		}
		return apd.New(int64(off), 0), nil
	}
	return nil, unitNotSupported(unit, typ)
}

func extractInterval(_ eval.Context, unit string, v types.Value) (*apd.Decimal, error) {
	u, ok := unitAliases[unit]
	if !ok {
		return nil, unitNotRecognized(unit, types.Interval)
	}
	iv := v.(types.IntervalValue)
	years, months := int64(iv.Months/12), int64(iv.Months%12)
	secMicros := iv.Micros % 60e6
	switch u {
	case "microseconds":
		return apd.New(secMicros, 0), nil
	case "milliseconds":
		return apd.New(secMicros, -3), nil
	case "second":
		return apd.New(secMicros, -6), nil
	case "minute":
		return apd.New(iv.Micros/60e6%60, 0), nil
	case "hour":
		return apd.New(iv.Micros/3600e6, 0), nil
	case "day":
		return apd.New(int64(iv.Days), 0), nil
	case "month":
		return apd.New(months, 0), nil
	case "quarter":
		return apd.New(months/3+1, 0), nil
	case "year":
		return apd.New(years, 0), nil
	case "decade":
		return apd.New(years/10, 0), nil
	case "century":
		return apd.New(years/100, 0), nil
	case "millennium":
		return apd.New(years/1000, 0), nil
	case "epoch":
		// A year is 365.25 days of seconds, a month 30 days.
		secs := 31557600*years + 30*86400*months + 86400*int64(iv.Days)
		// secs*1e6 overflows int64 past some 290000 years: add exactly.
		out := new(apd.Decimal)
		_, err := eval.NumericCtx.Add(out, apd.New(secs, 0), apd.New(iv.Micros, -6))
		return out, err
	}
	return nil, unitNotSupported(unit, types.Interval)
}

func extractTime(_ eval.Context, unit string, v types.Value) (*apd.Decimal, error) {
	u, ok := unitAliases[unit]
	if !ok {
		return nil, unitNotRecognized(unit, types.Time)
	}
	us := int64(v.(types.TimeOfDay))
	switch u {
	case "microseconds":
		return apd.New(us%60e6, 0), nil
	case "milliseconds":
		return apd.New(us%60e6, -3), nil
	case "second":
		return apd.New(us%60e6, -6), nil
	case "minute":
		return apd.New(us/60e6%60, 0), nil
	case "hour":
		return apd.New(us/3600e6, 0), nil
	case "epoch":
		return apd.New(us, -6), nil
	}
	return nil, unitNotSupported(unit, types.Time)
}

// ageOf is PostgreSQL's age(): the field-wise difference of two wall
// clocks, borrowing from the next larger field (a month borrows the length
// of the month it starts from), with the sign of the whole.
// calendarInstant is t as PostgreSQL's timestamp2tm reads it for age: a
// finite t as it is; +infinity as the date its internal value (the
// largest int64 of microseconds) falls on, which PostgreSQL 15 computes
// with; -infinity, whose Julian day is negative, out of range.
func calendarInstant(t time.Time) (time.Time, error) {
	switch types.IsInfinite(t) {
	case 1:
		us := int64(math.MaxInt64)
		return time.Unix(types.PostgresEpoch.Unix()+us/1e6, us%1e6*1000).UTC(), nil
	case -1:
		return time.Time{}, pgerror.New(pgerror.DatetimeFieldOverflow, "timestamp out of range")
	}
	return t, nil
}

func ageOf(a, b time.Time) types.IntervalValue {
	neg := a.Before(b)
	y1, m1, d1 := a.Date()
	y2, m2, d2 := b.Date()
	usec := int64(a.Nanosecond()/1000 - b.Nanosecond()/1000)
	sec := int64(a.Second() - b.Second())
	min := int64(a.Minute() - b.Minute())
	hour := int64(a.Hour() - b.Hour())
	day := int64(d1 - d2)
	mon := int64(m1 - m2)
	year := int64(y1 - y2)
	if neg {
		usec, sec, min, hour, day, mon, year = -usec, -sec, -min, -hour, -day, -mon, -year
	}
	for usec < 0 {
		usec += 1e6
		sec--
	}
	for sec < 0 {
		sec += 60
		min--
	}
	for min < 0 {
		min += 60
		hour--
	}
	for hour < 0 {
		hour += 24
		day--
	}
	for day < 0 {
		from := b
		if neg {
			from = a
		}
		day += int64(eval.DaysIn(from.Year(), from.Month()))
		mon--
	}
	for mon < 0 {
		mon += 12
		year--
	}
	iv := types.IntervalValue{Months: int32(year*12 + mon), Days: int32(day), Micros: ((hour*60+min)*60+sec)*1e6 + usec}
	if neg {
		iv = types.IntervalValue{Months: -iv.Months, Days: -iv.Days, Micros: -iv.Micros}
	}
	return iv
}

// makeDate is make_date: a BC year is negative. Its error shows the year
// as PostgreSQL's make_date does, astronomically (1 BC is 0).
func makeDate(y, m, d int64) (types.Value, error) {
	shown := y
	if y < 0 {
		shown = y + 1
	}
	return makeDateShowing(y, m, d, shown)
}

// makeDateShowing is makeDate whose error shows the year as shown.
func makeDateShowing(y, m, d, shown int64) (types.Value, error) {
	if y == 0 || m < 1 || m > 12 || d < 1 || d > int64(eval.DaysIn(int(y), time.Month(m))) {
		return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "date field value out of range: %d-%02d-%02d", shown, m, d)
	}
	if y < 0 {
		y++ // 1 BC is year 0 of the proleptic calendar
	}
	return time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC), nil
}

func timeOfDayMicros(h, m int64, s float64) (int64, error) {
	us := int64(math.Round(s * 1e6))
	if h < 0 || h > 24 || m < 0 || m > 59 || s < 0 || s > 60 || (h == 24 && (m > 0 || us > 0)) {
		return 0, pgerror.New(pgerror.DatetimeFieldOverflow, "time field value out of range: %d:%02d:%s", h, m, cFormatG(s, 2))
	}
	return (h*3600+m*60)*1e6 + us, nil
}

// makeTimestamp is make_timestamp and make_timestamptz, whose errors show
// the year as given.
func makeTimestamp(a []types.Value, loc *time.Location) (types.Value, error) {
	d, err := makeDateShowing(a[0].(int64), a[1].(int64), a[2].(int64), a[0].(int64))
	if err != nil {
		return nil, err
	}
	us, err := timeOfDayMicros(a[3].(int64), a[4].(int64), a[5].(float64))
	if err != nil {
		return nil, err
	}
	day := d.(time.Time)
	if loc == time.UTC {
		return day.Add(time.Duration(us) * time.Microsecond), nil
	}
	y, mo, dd := day.Date()
	return types.LocalToUTC(y, mo, dd, 0, 0, 0, 0, loc).Add(time.Duration(us) * time.Microsecond), nil
}

func makeInterval(_ eval.Context, a []types.Value) (types.Value, error) {
	field := func(i int) int64 {
		if i < len(a) {
			return a[i].(int64)
		}
		return 0
	}
	secs := 0.0
	if len(a) == 7 {
		secs = a[6].(float64)
	}
	return types.IntervalValue{
		Months: int32(field(0)*12 + field(1)),
		Days:   int32(field(2)*7 + field(3)),
		Micros: (field(4)*60+field(5))*60e6 + int64(math.Round(secs*1e6)),
	}, nil
}

func justifyDays(iv types.IntervalValue) types.IntervalValue {
	whole := iv.Days / 30
	iv.Days -= whole * 30
	iv.Months += whole
	switch {
	case iv.Months > 0 && iv.Days < 0:
		iv.Days += 30
		iv.Months--
	case iv.Months < 0 && iv.Days > 0:
		iv.Days -= 30
		iv.Months++
	}
	return iv
}

func justifyHours(iv types.IntervalValue) types.IntervalValue {
	whole := iv.Micros / eval.MicrosPerDay
	iv.Micros -= whole * eval.MicrosPerDay
	iv.Days += int32(whole)
	switch {
	case iv.Days > 0 && iv.Micros < 0:
		iv.Micros += eval.MicrosPerDay
		iv.Days--
	case iv.Days < 0 && iv.Micros > 0:
		iv.Micros -= eval.MicrosPerDay
		iv.Days++
	}
	return iv
}

func justifyInterval(iv types.IntervalValue) types.IntervalValue {
	whole := iv.Micros / eval.MicrosPerDay
	iv.Micros -= whole * eval.MicrosPerDay
	iv.Days += int32(whole)
	wholeMonths := iv.Days / 30
	iv.Days -= wholeMonths * 30
	iv.Months += wholeMonths
	switch {
	case iv.Months > 0 && (iv.Days < 0 || (iv.Days == 0 && iv.Micros < 0)):
		iv.Days += 30
		iv.Months--
	case iv.Months < 0 && (iv.Days > 0 || (iv.Days == 0 && iv.Micros > 0)):
		iv.Days -= 30
		iv.Months++
	}
	switch {
	case iv.Days > 0 && iv.Micros < 0:
		iv.Micros += eval.MicrosPerDay
		iv.Days--
	case iv.Days < 0 && iv.Micros > 0:
		iv.Micros -= eval.MicrosPerDay
		iv.Days++
	}
	return iv
}

// zoneArg reads the zone of AT TIME ZONE / timezone(): a zone name, or an
// interval giving the offset east of UTC.
func zoneArg(v types.Value) (*time.Location, error) {
	switch z := v.(type) {
	case types.IntervalValue:
		if z.Months != 0 || z.Days != 0 {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "interval time zone \"%s\" must not include months or days", types.FormatText(types.Of(types.Interval), z))
		}
		return time.FixedZone("", int(z.Micros/1e6)), nil
	}
	return types.LoadZone(v.(string))
}

// atZone is AT TIME ZONE: a timestamptz becomes the wall clock it shows
// in loc (toWall), a timestamp's wall clock is read as a time in loc.
func atZone(t time.Time, loc *time.Location, toWall bool) time.Time {
	if types.IsInfinite(t) != 0 {
		return t
	}
	if toWall {
		return eval.WallClockUTC(t.In(loc))
	}
	return types.LocalToUTC(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc)
}

// dateBin is date_bin(stride, source, origin): the start of the
// stride-wide bin, counted from origin, that source falls in. Bins are
// exact durations, so a stride with months is refused as PostgreSQL
// refuses it.
func dateBin(_ eval.Context, a []types.Value) (types.Value, error) {
	stride := a[0].(types.IntervalValue)
	source, origin := a[1].(time.Time), a[2].(time.Time)
	if stride.Months != 0 {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "timestamps cannot be binned into intervals containing months or years")
	}
	us := int64(stride.Days)*eval.MicrosPerDay + stride.Micros
	if us <= 0 {
		return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "stride must be greater than zero")
	}
	diff := source.UnixMicro() - origin.UnixMicro()
	bins := diff / us
	if diff%us < 0 {
		bins-- // source before origin: the bin starts earlier
	}
	return time.UnixMicro(origin.UnixMicro() + bins*us).UTC(), nil
}

// cFormatG is C's printf "%0*g": six significant digits, trailing zeros
// dropped, exponent notation for very large or small values, zero-padded to
// width, as PostgreSQL prints seconds in some of its messages.
func cFormatG(f float64, width int) string {
	s := strconv.FormatFloat(f, 'g', 6, 64) // Go, like C, prints two exponent digits at least
	if len(s) >= width {
		return s
	}
	if strings.HasPrefix(s, "-") {
		return "-" + strings.Repeat("0", width-len(s)) + s[1:]
	}
	return strings.Repeat("0", width-len(s)) + s
}
