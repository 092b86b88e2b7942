package eval

import "cdcdb/types"

// DivideInterval is interval / float8 as PostgreSQL 15 computes it (the
// fractions of months and days cascaded down), for avg(interval).
func DivideInterval(iv types.IntervalValue, f float64) (types.Value, error) {
	return divideInterval(iv, f)
}

// AddIntervals is interval + interval, refusing a field that overflows as
// PostgreSQL's interval_pl does.
func AddIntervals(a, b types.IntervalValue) (types.IntervalValue, error) {
	months, days := int64(a.Months)+int64(b.Months), int64(a.Days)+int64(b.Days)
	micros := a.Micros + b.Micros
	if months != int64(int32(months)) || days != int64(int32(days)) || (a.Micros >= 0) == (b.Micros >= 0) && (micros >= 0) != (a.Micros >= 0) {
		return types.IntervalValue{}, errIntervalRange
	}
	return types.IntervalValue{Months: int32(months), Days: int32(days), Micros: micros}, nil
}
