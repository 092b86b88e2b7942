package sql

import (
	"time"

	"cdcdb/pgerror"
	"cdcdb/types"
)

const microsPerDay = 86400 * 1000000

// datetimeArithmetic resolves + and - between dates, times, timestamps and
// intervals, and * and / of an interval by a number.
func datetimeArithmetic(op string, l, r types.OID) (func(*execCtx, []types.Value) (types.Value, error), types.OID, bool) {
	isTS := func(o types.OID) bool { return o == types.Timestamp || o == types.Timestamptz }
	switch {
	case op == "+" && l == types.Date && isIntType(r):
		return func(_ *execCtx, a []types.Value) (types.Value, error) {
			return a[0].(time.Time).AddDate(0, 0, int(a[1].(int64))), nil
		}, types.Date, true
	case op == "+" && isIntType(l) && r == types.Date:
		return func(_ *execCtx, a []types.Value) (types.Value, error) {
			return a[1].(time.Time).AddDate(0, 0, int(a[0].(int64))), nil
		}, types.Date, true
	case op == "-" && l == types.Date && isIntType(r):
		return func(_ *execCtx, a []types.Value) (types.Value, error) {
			return a[0].(time.Time).AddDate(0, 0, -int(a[1].(int64))), nil
		}, types.Date, true
	case op == "-" && l == types.Date && r == types.Date:
		return func(_ *execCtx, a []types.Value) (types.Value, error) {
			return int64(a[0].(time.Time).Sub(a[1].(time.Time)).Hours() / 24), nil
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
		return func(x *execCtx, a []types.Value) (types.Value, error) {
			return addInterval(x, a[0].(time.Time), a[1].(types.IntervalValue), sign, res == types.Timestamptz), nil
		}, res, true
	case op == "+" && l == types.Interval && (isTS(r) || r == types.Date):
		res := r
		if r == types.Date {
			res = types.Timestamp
		}
		return func(x *execCtx, a []types.Value) (types.Value, error) {
			return addInterval(x, a[1].(time.Time), a[0].(types.IntervalValue), 1, res == types.Timestamptz), nil
		}, res, true
	case op == "-" && isTS(l) && l == r:
		return func(_ *execCtx, a []types.Value) (types.Value, error) {
			d := a[0].(time.Time).Sub(a[1].(time.Time))
			us := d.Microseconds()
			return types.IntervalValue{Days: int32(us / microsPerDay), Micros: us % microsPerDay}, nil
		}, types.Interval, true
	case (op == "+" || op == "-") && l == types.Interval && r == types.Interval:
		sign := int64(1)
		if op == "-" {
			sign = -1
		}
		return func(_ *execCtx, a []types.Value) (types.Value, error) {
			x, y := a[0].(types.IntervalValue), a[1].(types.IntervalValue)
			return types.IntervalValue{Months: x.Months + int32(sign)*y.Months, Days: x.Days + int32(sign)*y.Days, Micros: x.Micros + sign*y.Micros}, nil
		}, types.Interval, true
	case op == "+" && (l == types.Date && r == types.Time || l == types.Time && r == types.Date):
		// A date at a time of day is a timestamp.
		return func(_ *execCtx, a []types.Value) (types.Value, error) {
			d, t := a[0], a[1]
			if l == types.Time {
				d, t = t, d
			}
			return d.(time.Time).Add(time.Duration(t.(types.TimeOfDay)) * time.Microsecond), nil
		}, types.Timestamp, true
	case op == "-" && l == types.Time && r == types.Time:
		return func(_ *execCtx, a []types.Value) (types.Value, error) {
			return types.IntervalValue{Micros: int64(a[0].(types.TimeOfDay)) - int64(a[1].(types.TimeOfDay))}, nil
		}, types.Interval, true
	case op == "+" && l == types.Interval && r == types.Time:
		return func(_ *execCtx, a []types.Value) (types.Value, error) {
			t := (int64(a[1].(types.TimeOfDay)) + a[0].(types.IntervalValue).Micros) % microsPerDay
			if t < 0 {
				t += microsPerDay
			}
			return types.TimeOfDay(t), nil
		}, types.Time, true
	case (op == "+" || op == "-") && l == types.Time && r == types.Interval:
		sign := int64(1)
		if op == "-" {
			sign = -1
		}
		return func(_ *execCtx, a []types.Value) (types.Value, error) {
			t := (int64(a[0].(types.TimeOfDay)) + sign*a[1].(types.IntervalValue).Micros) % microsPerDay
			if t < 0 {
				t += microsPerDay
			}
			return types.TimeOfDay(t), nil
		}, types.Time, true
	case (op == "*" || op == "/") && l == types.Interval && (typeCategory(r) == 'N'):
		return func(_ *execCtx, a []types.Value) (types.Value, error) {
			f, err := toFloat(a[1])
			if err != nil {
				return nil, err
			}
			if op == "/" {
				if f == 0 {
					return nil, pgerror.New(pgerror.DivisionByZero, "division by zero")
				}
				f = 1 / f
			}
			return scaleInterval(a[0].(types.IntervalValue), f), nil
		}, types.Interval, true
	case op == "*" && typeCategory(l) == 'N' && r == types.Interval:
		return func(_ *execCtx, a []types.Value) (types.Value, error) {
			f, err := toFloat(a[0])
			if err != nil {
				return nil, err
			}
			return scaleInterval(a[1].(types.IntervalValue), f), nil
		}, types.Interval, true
	}
	return nil, 0, false
}

// addInterval adds an interval the way PostgreSQL does: months and days in
// the session's calendar (for timestamptz, across DST in local time), then
// the exact microseconds.
func addInterval(x *execCtx, t time.Time, iv types.IntervalValue, sign int, zoned bool) time.Time {
	if zoned {
		t = t.In(x.location())
	}
	if iv.Months != 0 {
		// A month later is the same day of the month, or the month's last
		// day when it is shorter (Jan 31 + 1 month = Feb 29).
		y, m, d := t.Date()
		total := int(m) - 1 + sign*int(iv.Months)
		y += floorDiv(total, 12)
		m = time.Month(total - floorDiv(total, 12)*12 + 1)
		d = min(d, daysIn(y, m))
		h, mi, s := t.Clock()
		t = time.Date(y, m, d, h, mi, s, t.Nanosecond(), t.Location())
	}
	if iv.Days != 0 {
		t = t.AddDate(0, 0, sign*int(iv.Days))
	}
	t = t.Add(time.Duration(int64(sign)*iv.Micros) * time.Microsecond)
	return t.UTC()
}

// scaleInterval multiplies an interval, cascading fractional months into
// days and fractional days into time as PostgreSQL does.
func scaleInterval(iv types.IntervalValue, f float64) types.IntervalValue {
	months := float64(iv.Months) * f
	wholeMonths := int32(months)
	days := float64(iv.Days)*f + (months-float64(wholeMonths))*30
	wholeDays := int32(days)
	micros := float64(iv.Micros)*f + (days-float64(wholeDays))*microsPerDay
	return types.IntervalValue{Months: wholeMonths, Days: wholeDays, Micros: int64(micros + 0.5*sgn(micros))}
}

func sgn(f float64) float64 {
	if f < 0 {
		return -1
	}
	return 1
}

func toFloat(v types.Value) (float64, error) {
	switch v := v.(type) {
	case int64:
		return float64(v), nil
	case float64:
		return v, nil
	}
	f, err := castValue(nil, v, types.Of(types.Numeric), types.Of(types.Float8), true)
	if err != nil {
		return 0, err
	}
	return f.(float64), nil
}
