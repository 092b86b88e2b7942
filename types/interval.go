package types

import (
	"math"
	"math/bits"
	"strconv"
	"strings"

	"cdcdb/pgerror"
)

// intervalFieldOverflow is SQLSTATE 22015, which pgerror does not name.
const intervalFieldOverflow = "22015"

// interval units and what one of each adds.
type ivUnit int

const (
	ivMicro ivUnit = iota
	ivMilli
	ivSecond
	ivMinute
	ivHour
	ivDay
	ivWeek
	ivMonth
	ivYear
	ivDecade
	ivCentury
	ivMillennium
)

var ivUnits = map[string]ivUnit{
	"microsecond": ivMicro, "microseconds": ivMicro, "us": ivMicro, "usec": ivMicro, "usecs": ivMicro, "useconds": ivMicro, "usecond": ivMicro,
	"millisecond": ivMilli, "milliseconds": ivMilli, "ms": ivMilli, "msec": ivMilli, "msecs": ivMilli, "mseconds": ivMilli, "msecond": ivMilli,
	"second": ivSecond, "seconds": ivSecond, "s": ivSecond, "sec": ivSecond, "secs": ivSecond,
	"minute": ivMinute, "minutes": ivMinute, "m": ivMinute, "min": ivMinute, "mins": ivMinute,
	"hour": ivHour, "hours": ivHour, "h": ivHour, "hr": ivHour, "hrs": ivHour,
	"day": ivDay, "days": ivDay, "d": ivDay,
	"week": ivWeek, "weeks": ivWeek, "w": ivWeek,
	"month": ivMonth, "months": ivMonth, "mon": ivMonth, "mons": ivMonth,
	"year": ivYear, "years": ivYear, "y": ivYear, "yr": ivYear, "yrs": ivYear,
	"decade": ivDecade, "decades": ivDecade, "dec": ivDecade, "decs": ivDecade,
	"century": ivCentury, "centuries": ivCentury, "c": ivCentury, "cent": ivCentury,
	"millennium": ivMillennium, "millennia": ivMillennium, "millenniums": ivMillennium, "mil": ivMillennium, "mils": ivMillennium,
}

// ivAcc accumulates an interval in 64-bit fields, noting any overflow.
type ivAcc struct {
	months, days, micros int64
	any, overflow        bool
	monthsOverflow       bool
	fields               int // ivField bits seen: each may be given once
}

// Interval fields, as PostgreSQL's DTK_M masks: a string may name each once.
const (
	ivfYear = 1 << iota
	ivfMonth
	ivfWeek
	ivfDay
	ivfHour
	ivfMinute
	ivfSecond
	ivfMilli
	ivfMicro
	ivfDecade
	ivfCentury
	ivfMillennium
)

var ivUnitField = map[ivUnit]int{
	ivMicro: ivfMicro, ivMilli: ivfMilli, ivSecond: ivfSecond, ivMinute: ivfMinute, ivHour: ivfHour,
	ivDay: ivfDay, ivWeek: ivfWeek, ivMonth: ivfMonth, ivYear: ivfYear, ivDecade: ivfDecade,
	ivCentury: ivfCentury, ivMillennium: ivfMillennium,
}

// claim marks fields as given and reports whether any already was.
func (a *ivAcc) claim(mask int) bool {
	if a.fields&mask != 0 {
		return false
	}
	a.fields |= mask
	return true
}

func (a *ivAcc) mulAdd(dst *int64, v, mul int64) {
	hi, lo := bits.Mul64(uint64(abs64(v)), uint64(mul))
	if hi != 0 || lo > math.MaxInt64 {
		a.overflow = true
		return
	}
	p := int64(lo)
	if v < 0 {
		p = -p
	}
	sum := *dst + p
	if (p > 0 && sum < *dst) || (p < 0 && sum > *dst) {
		a.overflow = true
		return
	}
	*dst = sum
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// add adds ival+frac units (frac has ival's sign and |frac| < 1), carrying
// fractions down as PostgreSQL does: months of 30 days, days of 24 hours.
func (a *ivAcc) add(ival int64, frac float64, u ivUnit) {
	a.any = true
	round := func(f float64) int64 { return int64(math.RoundToEven(f)) }
	switch u {
	case ivMicro:
		a.mulAdd(&a.micros, ival, 1)
		a.mulAdd(&a.micros, round(frac), 1)
	case ivMilli:
		a.mulAdd(&a.micros, ival, 1000)
		a.mulAdd(&a.micros, round(frac*1000), 1)
	case ivSecond:
		a.mulAdd(&a.micros, ival, 1e6)
		a.mulAdd(&a.micros, round(frac*1e6), 1)
	case ivMinute:
		a.mulAdd(&a.micros, ival, 60e6)
		a.mulAdd(&a.micros, round(frac*60e6), 1)
	case ivHour:
		a.mulAdd(&a.micros, ival, 3600e6)
		a.mulAdd(&a.micros, round(frac*3600e6), 1)
	case ivDay:
		a.mulAdd(&a.days, ival, 1)
		a.mulAdd(&a.micros, round(frac*usPerDay), 1)
	case ivWeek:
		a.mulAdd(&a.days, ival, 7)
		a.addFractDays(frac * 7)
	case ivMonth:
		a.mulAdd(&a.months, ival, 1)
		a.addFractDays(frac * 30)
	case ivYear:
		a.monthsMul(ival, 12)
		a.mulAdd(&a.months, round(frac*12), 1)
	case ivDecade:
		a.monthsMul(ival, 120)
		a.mulAdd(&a.months, round(frac*120), 1)
	case ivCentury:
		a.monthsMul(ival, 1200)
		a.mulAdd(&a.months, round(frac*1200), 1)
	case ivMillennium:
		a.monthsMul(ival, 12000)
		a.mulAdd(&a.months, round(frac*12000), 1)
	}
}

// monthsMul adds years (in months); overflowing there is PostgreSQL's
// "interval out of range", not a bad field.
func (a *ivAcc) monthsMul(v, mul int64) {
	was := a.overflow
	a.mulAdd(&a.months, v, mul)
	if a.overflow && !was {
		a.overflow, a.monthsOverflow = false, true
	}
}

func (a *ivAcc) addFractDays(fractDays float64) {
	whole, frac := math.Modf(fractDays)
	a.mulAdd(&a.days, int64(whole), 1)
	a.mulAdd(&a.micros, int64(math.RoundToEven(frac*usPerDay)), 1)
}

// splitNumber reads [sign]digits[.digits] into a whole part and a fraction
// of the same sign.
func splitNumber(s string) (ival int64, frac float64, ok bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	ip, fp, _ := strings.Cut(s, ".")
	if ip == "" && fp == "" {
		return 0, 0, false
	}
	if ip != "" {
		n, err := strconv.ParseInt(ip, 10, 64)
		if err != nil || !allDigits(ip) {
			return 0, 0, false
		}
		ival = n
	}
	if fp != "" {
		if !allDigits(fp) {
			return 0, 0, false
		}
		frac, _ = strconv.ParseFloat("0."+fp, 64)
	}
	if neg {
		ival, frac = -ival, -frac
	}
	return ival, frac, true
}

// parseInterval is interval_in for PostgreSQL's own syntax ('1 year 2 mons 3
// days 04:05:06', '@ 1 day ago', units with fractions, bare numbers as
// seconds, SQL 'Y-M' and 'D H:M:S') and ISO 8601 ('P1Y2M3DT4H5M6S',
// 'P0001-02-03T04:05:06').
//
// rng is the field range of the interval's modifier (intervalFullRange for
// none): as in PostgreSQL, it says what a number without a unit counts,
// the last field the modifier keeps ('1' is a day for interval day, a
// second for a plain interval), and makes a two-field h:m read as m:s for
// interval minute to second.
func parseInterval(s string, rng int) (IntervalValue, error) {
	bad := func() (IntervalValue, error) {
		return IntervalValue{}, pgerror.New(pgerror.InvalidDatetimeFormat, "invalid input syntax for type interval: \"%s\"", s)
	}
	t := strings.ToLower(trimSpace(s))
	var acc ivAcc
	if strings.HasPrefix(t, "p") {
		if !parseISOInterval(t[1:], &acc) {
			return bad()
		}
	} else {
		t = strings.TrimPrefix(t, "@")
		toks, ok := tokenizeInterval(t)
		if !ok || len(toks) == 0 {
			return bad()
		}
		bareUnits := bareNumberUnits(toks, rng)
		ago := false
		for i := 0; i < len(toks); i++ {
			tk := toks[i]
			switch tk.kind {
			case 'a':
				if tk.text == "ago" && acc.any {
					ago = true
					continue
				}
				return bad()
			case 't':
				if !acc.claim(ivfHour|ivfMinute|ivfSecond) || !addTimeField(tk.text, rng == IntervalMinute|IntervalSecond, &acc) {
					return bad()
				}
			case 'y':
				// SQL standard year-month: [-]Y-M
				neg := strings.HasPrefix(tk.text, "-")
				p := strings.SplitN(strings.TrimLeft(tk.text, "+-"), "-", 2)
				y, yf, ok1 := splitNumber(p[0])
				m, mf, ok2 := splitNumber(p[1])
				if !ok1 || !ok2 || yf != 0 || mf != 0 {
					return bad()
				}
				if neg {
					y, m = -y, -m
				}
				// PostgreSQL counts Y-M as months, the field it claims.
				if !acc.claim(ivfMonth) {
					return bad()
				}
				acc.add(y, 0, ivYear)
				acc.add(m, 0, ivMonth)
			case 'n':
				ival, frac, ok := splitNumber(tk.text)
				if !ok {
					return bad()
				}
				if ival > math.MaxInt32 || ival < math.MinInt32 {
					return IntervalValue{}, pgerror.New(intervalFieldOverflow, "interval field value out of range: \"%s\"", s)
				}
				u := bareUnits[i]
				if i+1 < len(toks) && toks[i+1].kind == 'a' && toks[i+1].text != "ago" {
					var ok bool
					if u, ok = ivUnits[toks[i+1].text]; !ok {
						return bad()
					}
					i++
				}
				mask := ivUnitField[u]
				if u == ivSecond && frac != 0 {
					mask |= ivfMilli | ivfMicro
				}
				if !acc.claim(mask) {
					return bad()
				}
				acc.add(ival, frac, u)
			}
		}
		if ago {
			acc.months, acc.days, acc.micros = -acc.months, -acc.days, -acc.micros
		}
	}
	if !acc.any {
		return bad()
	}
	if acc.monthsOverflow || (!acc.overflow && (acc.months > math.MaxInt32 || acc.months < math.MinInt32)) {
		return IntervalValue{}, pgerror.New(pgerror.DatetimeFieldOverflow, "interval out of range")
	}
	if acc.overflow || acc.days > math.MaxInt32 || acc.days < math.MinInt32 {
		return IntervalValue{}, pgerror.New(intervalFieldOverflow, "interval field value out of range: \"%s\"", s)
	}
	return IntervalValue{Months: int32(acc.months), Days: int32(acc.days), Micros: acc.micros}, nil
}

// bareNumberUnits decides what each number without a unit of toks counts,
// reading from the end as PostgreSQL's DecodeInterval does: the last field
// of the modifier's range, until a unit word, an h:m:s time or a Y-M says
// otherwise for the numbers before it; a number of hours makes the one
// before it days ('5 1 hour' is 5 days 01:00:00).
func bareNumberUnits(toks []ivToken, rng int) []ivUnit {
	units := make([]ivUnit, len(toks))
	next, set := ivUnit(0), false
	for i := len(toks) - 1; i >= 0; i-- {
		switch tk := toks[i]; tk.kind {
		case 't':
			next, set = ivDay, true
		case 'y':
			next, set = ivMonth, true
		case 'a':
			if u, ok := ivUnits[tk.text]; ok {
				next, set = u, true
			}
		case 'n':
			u := next
			if !set {
				u = lastFieldUnit(rng)
			}
			units[i] = u
			if u == ivHour {
				next, set = ivDay, true
			} else {
				next, set = u, true
			}
		}
	}
	return units
}

// lastFieldUnit is the unit of the last field an interval modifier's range
// keeps: what a bare number counts.
func lastFieldUnit(rng int) ivUnit {
	switch rng {
	case IntervalYear:
		return ivYear
	case IntervalMonth, IntervalYear | IntervalMonth:
		return ivMonth
	case IntervalDay:
		return ivDay
	case IntervalHour, IntervalDay | IntervalHour:
		return ivHour
	case IntervalMinute, IntervalHour | IntervalMinute, IntervalDay | IntervalHour | IntervalMinute:
		return ivMinute
	}
	return ivSecond
}

type ivToken struct {
	kind byte // 'n' number, 'a' word, 't' h:m[:s], 'y' year-month
	text string
}

func tokenizeInterval(s string) ([]ivToken, bool) {
	var toks []ivToken
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case isSpace(c) || c == ',':
			i++
		case isDigit(c) || c == '.' || c == '+' || c == '-':
			j := i
			if c == '+' || c == '-' {
				j++
			}
			start := j
			for j < len(s) && (isDigit(s[j]) || s[j] == '.') {
				j++
			}
			if j == start {
				return nil, false
			}
			kind := byte('n')
			if j < len(s) && s[j] == ':' {
				for j < len(s) && (isDigit(s[j]) || s[j] == '.' || s[j] == ':') {
					j++
				}
				kind = 't'
			} else if j+1 < len(s) && s[j] == '-' && isDigit(s[j+1]) {
				j++
				for j < len(s) && isDigit(s[j]) {
					j++
				}
				kind = 'y'
			}
			toks = append(toks, ivToken{kind, s[i:j]})
			i = j
		case isAlpha(c):
			j := i
			for j < len(s) && isAlpha(s[j]) {
				j++
			}
			toks = append(toks, ivToken{'a', s[i:j]})
			i = j
		default:
			return nil, false
		}
	}
	return toks, true
}

// addTimeField adds [-]h:m[:s[.f]] (or m:s.f, or m:s when minuteSecond:
// an interval minute to second reads two fields so).
func addTimeField(s string, minuteSecond bool, acc *ivAcc) bool {
	neg := strings.HasPrefix(s, "-")
	p := strings.Split(strings.TrimLeft(s, "+-"), ":")
	if len(p) > 3 {
		return false
	}
	var whole [3]int64
	var frac float64
	for i, x := range p {
		if x == "" {
			return false
		}
		w, f, ok := splitNumber(x)
		if !ok || (f != 0 && i < len(p)-1) || (strings.Contains(x, ".") && i < len(p)-1) {
			return false
		}
		whole[i], frac = w, f
	}
	if len(p) == 2 && (minuteSecond || strings.Contains(p[1], ".")) {
		// m:s.f, as PostgreSQL reads two fields with a fraction
		whole[0], whole[1], whole[2] = 0, whole[0], whole[1]
	}
	var us int64
	acc.mulAdd(&us, whole[0], 3600e6)
	acc.mulAdd(&us, whole[1], 60e6)
	acc.mulAdd(&us, whole[2], 1e6)
	acc.mulAdd(&us, int64(math.RoundToEven(frac*1e6)), 1)
	if neg {
		us = -us
	}
	acc.mulAdd(&acc.micros, us, 1)
	acc.any = true
	return true
}

// parseISOInterval reads what follows 'P': designators (nY nM nW nD T nH nM
// nS) or the alternative YYYY-MM-DDTHH:MM:SS.
func parseISOInterval(s string, acc *ivAcc) bool {
	if s == "" {
		return false
	}
	if len(s) >= 4 && isDigit(s[0]) && strings.Contains(s, "-") {
		datePart, timePart, _ := strings.Cut(s, "t")
		p := strings.Split(datePart, "-")
		if len(p) != 3 {
			return false
		}
		for i, u := range []ivUnit{ivYear, ivMonth, ivDay} {
			w, f, ok := splitNumber(p[i])
			if !ok {
				return false
			}
			acc.add(w, f, u)
		}
		if timePart != "" {
			return addTimeField(timePart, false, acc)
		}
		return true
	}
	inTime := false
	for s != "" {
		if s[0] == 't' {
			if inTime {
				return false
			}
			inTime = true
			acc.any = true
			s = s[1:]
			continue
		}
		j := 0
		if j < len(s) && (s[j] == '-' || s[j] == '+') {
			j++
		}
		for j < len(s) && (isDigit(s[j]) || s[j] == '.') {
			j++
		}
		if j == 0 || j >= len(s) {
			return false
		}
		w, f, ok := splitNumber(s[:j])
		if !ok {
			return false
		}
		var u ivUnit
		switch s[j] {
		case 'y':
			u = ivYear
		case 'm':
			u = ivMonth
			if inTime {
				u = ivMinute
			}
		case 'w':
			u = ivWeek
		case 'd':
			u = ivDay
		case 'h':
			u = ivHour
		case 's':
			u = ivSecond
		default:
			return false
		}
		if inTime != (u == ivHour || u == ivMinute || u == ivSecond) {
			return false
		}
		acc.add(w, f, u)
		s = s[j+1:]
	}
	return true
}

// appendInterval prints in PostgreSQL's default IntervalStyle "postgres".
func appendInterval(dst []byte, iv IntervalValue) []byte {
	year := iv.Months / 12
	mon := iv.Months % 12
	isZero, isBefore := true, false
	part := func(v int64, unit string) {
		if v == 0 {
			return
		}
		if !isZero {
			dst = append(dst, ' ')
		}
		if isBefore && v > 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, v, 10)
		dst = append(dst, ' ')
		dst = append(dst, unit...)
		if v != 1 {
			dst = append(dst, 's')
		}
		isBefore = v < 0
		isZero = false
	}
	part(int64(year), "year")
	part(int64(mon), "mon")
	part(int64(iv.Days), "day")
	us := iv.Micros
	if isZero || us != 0 {
		if !isZero {
			dst = append(dst, ' ')
		}
		neg := us < 0
		if neg {
			dst = append(dst, '-')
		} else if isBefore {
			dst = append(dst, '+')
		}
		u := uint64(us)
		if neg {
			u = -u
		}
		dst = appendInt(dst, int64(u/3600e6), 2)
		dst = append(dst, ':')
		dst = appendInt(dst, int64(u/60e6%60), 2)
		dst = append(dst, ':')
		dst = appendInt(dst, int64(u/1e6%60), 2)
		dst = appendFraction(dst, int64(u%1e6))
	}
	return dst
}

// intervalRange is the field range of an interval modifier
// (intervalFullRange for none).
func intervalRange(typmod int32) int {
	if typmod < 0 {
		return intervalFullRange
	}
	return int(typmod>>16) & 0x7fff
}

// roundInterval applies an interval modifier: fields drop what is below the
// last named field, precision rounds the seconds (AdjustIntervalForTypmod).
func roundInterval(iv IntervalValue, typmod int32) IntervalValue {
	if typmod < 0 {
		return iv
	}
	rng := intervalRange(typmod)
	prec := int(typmod & 0xffff)
	trunc := func(unit int64) { iv.Micros = iv.Micros / unit * unit }
	switch rng {
	case intervalFullRange:
	case IntervalYear:
		iv.Months = iv.Months / 12 * 12
		iv.Days, iv.Micros = 0, 0
	case IntervalMonth, IntervalYear | IntervalMonth:
		iv.Days, iv.Micros = 0, 0
	case IntervalDay:
		iv.Micros = 0
	case IntervalHour, IntervalDay | IntervalHour:
		trunc(3600e6)
	case IntervalMinute, IntervalDay | IntervalHour | IntervalMinute, IntervalHour | IntervalMinute:
		trunc(60e6)
	}
	if prec != intervalFullPrecision && prec < MaxTimePrecision {
		iv.Micros = roundMicros(iv.Micros, int32(prec))
	}
	return iv
}

// intervalSpan is an interval's length as PostgreSQL compares intervals: a
// month is 30 days, a day 24 hours. It is a 128-bit count of microseconds.
func intervalSpan(iv IntervalValue) (hi int64, lo uint64) {
	days := int64(iv.Months)*30 + int64(iv.Days)
	// days * usPerDay as 128 bits
	neg := days < 0
	ud := uint64(days)
	if neg {
		ud = -ud
	}
	h, l := bits.Mul64(ud, usPerDay)
	if neg {
		l = ^l + 1
		h = ^h
		if l == 0 {
			h++
		}
	}
	// + micros (sign-extended)
	m := uint64(iv.Micros)
	var mh uint64
	if iv.Micros < 0 {
		mh = math.MaxUint64
	}
	l2, carry := bits.Add64(l, m, 0)
	h2, _ := bits.Add64(h, mh, carry)
	return int64(h2), l2
}

func compareInterval(a, b IntervalValue) int {
	ah, al := intervalSpan(a)
	bh, bl := intervalSpan(b)
	switch {
	case ah < bh:
		return -1
	case ah > bh:
		return 1
	case al < bl:
		return -1
	case al > bl:
		return 1
	}
	return 0
}

// IntervalFromSpan builds the interval that a 128-bit span (see Compare for
// intervals) stands for, as days and microseconds: the inverse of the
// comparison's view, used to decode index keys.
func IntervalFromSpan(hi int64, lo uint64) IntervalValue {
	neg := hi < 0
	h, l := uint64(hi), lo
	if neg {
		l = ^l + 1
		h = ^h
		if l == 0 {
			h++
		}
	}
	q, r := bits.Div64(h%usPerDay, l, usPerDay) // h < usPerDay for every interval
	days := int64(q)
	iv := IntervalValue{Micros: int64(r)}
	if days > math.MaxInt32 {
		iv.Months, iv.Days = int32(days/30), int32(days%30)
	} else {
		iv.Days = int32(days)
	}
	if neg {
		iv.Months, iv.Days, iv.Micros = -iv.Months, -iv.Days, -iv.Micros
	}
	return iv
}

// IntervalSpan exposes intervalSpan for key encoding.
func IntervalSpan(iv IntervalValue) (hi int64, lo uint64) { return intervalSpan(iv) }
