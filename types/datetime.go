package types

import (
	"math"
	"strconv"
	"strings"
	"time"

	"cdcdb/pgerror"
)

// PostgreSQL's 'infinity' and '-infinity' for date, timestamp and timestamptz
// are held as these two instants, far outside every finite date PostgreSQL
// accepts, so they sort after and before every finite value. Test with
// IsInfinite; never do arithmetic with them.
var (
	InfinityTime    = time.Unix(1<<62, 0).UTC()
	NegInfinityTime = time.Unix(-(1 << 62), 0).UTC()
)

// IsInfinite returns +1 for InfinityTime, -1 for NegInfinityTime, else 0.
func IsInfinite(t time.Time) int {
	switch u := t.Unix(); {
	case u >= 1<<62:
		return 1
	case u <= -(1 << 62):
		return -1
	}
	return 0
}

var epochUnix = PostgresEpoch.Unix()

// Micros returns t as microseconds since 2000-01-01 00:00:00 UTC, the unit of
// PostgreSQL's timestamps (sub-microsecond digits are dropped, toward minus
// infinity). Infinite times map to math.MaxInt64 / math.MinInt64.
func Micros(t time.Time) int64 {
	switch IsInfinite(t) {
	case 1:
		return math.MaxInt64
	case -1:
		return math.MinInt64
	}
	return (t.Unix()-epochUnix)*1e6 + int64(t.Nanosecond()/1000)
}

// FromMicros is the inverse of Micros.
func FromMicros(us int64) time.Time {
	switch us {
	case math.MaxInt64:
		return InfinityTime
	case math.MinInt64:
		return NegInfinityTime
	}
	sec := us / 1e6
	rem := us % 1e6
	if rem < 0 {
		sec--
		rem += 1e6
	}
	return time.Unix(epochUnix+sec, rem*1000).UTC()
}

// Days returns the date of t as days since 2000-01-01 (PostgreSQL's date
// unit). Infinite dates map to math.MaxInt32 / math.MinInt32.
func Days(t time.Time) int64 {
	switch IsInfinite(t) {
	case 1:
		return math.MaxInt32
	case -1:
		return math.MinInt32
	}
	u := t.Unix() - epochUnix
	d := u / 86400
	if u%86400 < 0 {
		d--
	}
	return d
}

// FromDays is the inverse of Days: midnight UTC of that date.
func FromDays(d int64) time.Time {
	switch d {
	case math.MaxInt32:
		return InfinityTime
	case math.MinInt32:
		return NegInfinityTime
	}
	return time.Unix(epochUnix+d*86400, 0).UTC()
}

// Ranges of PostgreSQL's date and timestamp types.
var (
	minDate      = time.Date(-4713, 11, 24, 0, 0, 0, 0, time.UTC)
	maxDate      = time.Date(5874897, 12, 31, 0, 0, 0, 0, time.UTC)
	minTimestamp = minDate
	maxTimestamp = time.Date(294276, 12, 31, 23, 59, 59, 999999000, time.UTC)
)

// TimestampInRange reports whether t is a timestamp PostgreSQL can hold
// (the infinities included): 4714-11-24 BC to 294276-12-31.
func TimestampInRange(t time.Time) bool { return timestampInRange(t) }

// DateInRange reports whether t is a date PostgreSQL can hold (the
// infinities included): 4714-11-24 BC to 5874897-12-31.
func DateInRange(t time.Time) bool { return dateInRange(t) }

func timestampInRange(t time.Time) bool {
	return IsInfinite(t) != 0 || (!t.Before(minTimestamp) && !t.After(maxTimestamp))
}

func dateInRange(t time.Time) bool {
	return IsInfinite(t) != 0 || (!t.Before(minDate) && !t.After(maxDate))
}

const usPerDay = 86400 * 1e6

// timeOfDayOf returns the wall-clock time of t.
func timeOfDayOf(t time.Time) TimeOfDay {
	h, m, s := t.Clock()
	return TimeOfDay(((int64(h)*60+int64(m))*60+int64(s))*1e6 + int64(t.Nanosecond()/1000))
}

// dtFields is what the date/time parser found in a string.
type dtFields struct {
	special            string // epoch, infinity, -infinity, now, today, tomorrow, yesterday, allballs
	year, month, day   int
	haveDate, haveTime bool
	yearDigits         int
	hour, min, sec     int
	usec               int64
	bc, ampm, pm       bool
	loc                *time.Location // zone named or offset given; nil if none
	namedZone          bool           // loc came from an IANA name
}

var monthNames = map[string]int{
	"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
	"may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8,
	"sep": 9, "sept": 9, "september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11,
	"dec": 12, "december": 12,
}

var weekdayNames = map[string]bool{
	"sun": true, "sunday": true, "mon": true, "monday": true, "tue": true, "tues": true, "tuesday": true,
	"wed": true, "wednesday": true, "thu": true, "thur": true, "thurs": true, "thursday": true,
	"fri": true, "friday": true, "sat": true, "saturday": true,
}

// zoneAbbrevs are the common abbreviations of PostgreSQL's Default timezone
// abbreviation set; other zones must be spelled as IANA names.
var zoneAbbrevs = map[string]int{
	"utc": 0, "gmt": 0, "z": 0, "zulu": 0, "ut": 0,
	"est": -5 * 3600, "edt": -4 * 3600, "cst": -6 * 3600, "cdt": -5 * 3600,
	"mst": -7 * 3600, "mdt": -6 * 3600, "pst": -8 * 3600, "pdt": -7 * 3600,
	"akst": -9 * 3600, "akdt": -8 * 3600, "hst": -10 * 3600,
	"wet": 0, "west": 3600, "bst": 3600, "cet": 3600, "cest": 2 * 3600, "met": 3600, "mest": 2 * 3600,
	"eet": 2 * 3600, "eest": 3 * 3600, "msk": 3 * 3600, "jst": 9 * 3600, "kst": 9 * 3600,
	"aest": 10 * 3600, "aedt": 11 * 3600, "nzst": 12 * 3600, "nzdt": 13 * 3600,
}

type dtToken struct {
	kind byte // 'n' number, 't' time, 'd' date, 'a' alpha, 's' signed number/offset
	text string
}

// tokenizeDateTime splits like PostgreSQL's ParseDateTime: runs of digits,
// letters, time fields (with ':'), dates (with '-', '/' or '.'), signed
// fields; other punctuation and blanks separate.
func tokenizeDateTime(s string) ([]dtToken, bool) {
	s = strings.ToLower(s)
	// The ISO 'T' between date and time.
	b := []byte(s)
	for i := 1; i+1 < len(b); i++ {
		if b[i] == 't' && isDigit(b[i-1]) && isDigit(b[i+1]) {
			b[i] = ' '
		}
	}
	s = string(b)
	var toks []dtToken
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case isSpace(c) || c == ',':
			i++
		case isDigit(c) || (c == '.' && i+1 < len(s) && isDigit(s[i+1])):
			j := i
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			if j < len(s) && s[j] == ':' {
				for j < len(s) && (isDigit(s[j]) || s[j] == ':' || s[j] == '.') {
					j++
				}
				toks = append(toks, dtToken{'t', s[i:j]})
			} else if j < len(s) && (s[j] == '-' || s[j] == '/' || s[j] == '.') && j > i {
				sep := s[j]
				k := j
				parts := 1
				for k < len(s) && s[k] == sep && k+1 < len(s) && isAlnum(s[k+1]) {
					k++
					for k < len(s) && isAlnum(s[k]) {
						k++
					}
					parts++
				}
				if parts == 1 {
					toks = append(toks, dtToken{'n', s[i:j]})
				} else if sep == '.' && parts == 2 {
					// a number with a fraction
					toks = append(toks, dtToken{'n', s[i:k]})
				} else {
					toks = append(toks, dtToken{'d', s[i:k]})
				}
				j = k
			} else {
				if j < len(s) && s[j] == '.' {
					j++
					for j < len(s) && isDigit(s[j]) {
						j++
					}
				}
				toks = append(toks, dtToken{'n', s[i:j]})
			}
			i = j
		case isAlpha(c):
			j := i
			for j < len(s) && isAlpha(s[j]) {
				j++
			}
			if j < len(s) && (s[j] == '/' || s[j] == '_') {
				for j < len(s) && (isAlnum(s[j]) || s[j] == '/' || s[j] == '_' || s[j] == '+' || s[j] == '-') {
					j++
				}
			} else if j < len(s) && s[j] == '-' && j+1 < len(s) && isDigit(s[j+1]) && monthNames[s[i:j]] != 0 {
				for j < len(s) && (isAlnum(s[j]) || s[j] == '-') {
					j++
				}
				toks = append(toks, dtToken{'d', s[i:j]})
				i = j
				continue
			}
			toks = append(toks, dtToken{'a', s[i:j]})
			i = j
		case c == '+' || c == '-':
			j := i + 1
			if j < len(s) && isAlpha(s[j]) {
				for j < len(s) && isAlpha(s[j]) {
					j++
				}
				toks = append(toks, dtToken{'a', s[i:j]})
			} else {
				for j < len(s) && (isDigit(s[j]) || s[j] == ':' || s[j] == '.') {
					j++
				}
				if j == i+1 {
					return nil, false
				}
				toks = append(toks, dtToken{'s', s[i:j]})
			}
			i = j
		default:
			return nil, false
		}
	}
	return toks, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isAlnum(c byte) bool { return isDigit(c) || isAlpha(c) }

// errBadFormat and errFieldRange tell the caller which of PostgreSQL's two
// complaints to raise.
type dtErr int

const (
	dtBadFormat dtErr = iota + 1
	dtFieldRange
	dtBadZone
	dtBadOffset
)

func (e dtErr) Error() string { return "bad date/time" }

// decodeDateTime reads a date, time or timestamp string into fields.
func decodeDateTime(s string) (*dtFields, error) {
	f := &dtFields{}
	toks, ok := tokenizeDateTime(s)
	if !ok || len(toks) == 0 {
		return nil, dtBadFormat
	}
	if len(toks) == 1 && toks[0].kind == 'a' {
		switch toks[0].text {
		case "epoch", "infinity", "+infinity", "-infinity", "now", "today", "tomorrow", "yesterday", "allballs":
			f.special = strings.TrimPrefix(toks[0].text, "+")
			return f, nil
		}
	}
	var nums []string
	textMonth := 0
	prevTime := false
	posixAfterZone := false // "GMT+2" is two hours west, POSIX style
	for ti := 0; ti < len(toks); ti++ {
		tk := toks[ti]
		if tk.kind == 'a' && tk.text == "j" && ti+1 < len(toks) && toks[ti+1].kind == 'n' && allDigits(toks[ti+1].text) && !f.haveDate {
			jd, err := strconv.ParseInt(toks[ti+1].text, 10, 64)
			if err != nil || jd > 1<<31 {
				return nil, dtFieldRange
			}
			d := FromDays(jd - 2451545)
			f.year, f.month, f.day = d.Year(), int(d.Month()), d.Day()
			f.haveDate = true
			ti++
			continue
		}
		wasZone := posixAfterZone
		posixAfterZone = false
		switch tk.kind {
		case 'd':
			if f.haveDate {
				return nil, dtBadFormat
			}
			if err := f.decodeDateField(tk.text); err != nil {
				return nil, err
			}
		case 't':
			if f.haveTime {
				return nil, dtBadFormat
			}
			if err := f.decodeTimeField(tk.text); err != nil {
				return nil, err
			}
			prevTime = true
			continue
		case 'n':
			switch {
			case !f.haveDate && textMonth == 0 && len(nums) == 0 && len(tk.text) == 8 && allDigits(tk.text):
				f.year, _ = strconv.Atoi(tk.text[:4])
				f.month, _ = strconv.Atoi(tk.text[4:6])
				f.day, _ = strconv.Atoi(tk.text[6:])
				f.yearDigits = 4
				f.haveDate = true
			case f.haveDate && !f.haveTime && (len(tk.text) == 6 || len(tk.text) == 4) && allDigits(tk.text):
				f.hour, _ = strconv.Atoi(tk.text[:2])
				f.min, _ = strconv.Atoi(tk.text[2:4])
				if len(tk.text) == 6 {
					f.sec, _ = strconv.Atoi(tk.text[4:])
				}
				f.haveTime = true
			case f.haveDate && !f.haveTime && len(tk.text) > 6 && strings.Contains(tk.text, ".") && len(strings.Split(tk.text, ".")[0]) == 6:
				p := strings.SplitN(tk.text, ".", 2)
				f.hour, _ = strconv.Atoi(p[0][:2])
				f.min, _ = strconv.Atoi(p[0][2:4])
				f.sec, _ = strconv.Atoi(p[0][4:])
				us, ok := fractionMicros(p[1])
				if !ok {
					return nil, dtBadFormat
				}
				f.usec = us
				f.haveTime = true
			default:
				if !allDigits(tk.text) {
					return nil, dtBadFormat
				}
				nums = append(nums, tk.text)
			}
		case 'a':
			t := tk.text
			switch {
			case monthNames[t] != 0 && !f.haveDate && textMonth == 0:
				textMonth = monthNames[t]
			case weekdayNames[t]:
			case t == "am" || t == "pm" || t == "a.m." || t == "p.m.":
				f.ampm, f.pm = true, t[0] == 'p'
			case t == "bc":
				f.bc = true
			case t == "ad":
			case t == "t" && ti+1 < len(toks):
			case t == "at":
			default:
				if f.loc != nil {
					return nil, dtBadFormat
				}
				loc, err := zoneByName(t)
				if err != nil {
					return nil, err
				}
				f.loc = loc
				f.namedZone = !strings.ContainsAny(t, "+-") && zoneAbbrevs[t] == 0 && t != "utc" && t != "gmt" && t != "z" && t != "zulu" && t != "ut"
				posixAfterZone = t == "gmt" || t == "utc" || t == "ut"
			}
		case 's':
			if wasZone {
				loc, ok := parseOffset(tk.text)
				if !ok || loc == nil {
					return nil, dtBadFormat
				}
				_, off := time.Unix(0, 0).In(loc).Zone()
				f.loc = time.FixedZone("", -off)
				break
			}
			// A signed number is a zone offset to PostgreSQL wherever it
			// stands, so one out of range is that error before any other.
			loc, ok := parseOffset(tk.text)
			if ok && loc == nil {
				return nil, dtBadOffset
			}
			if !ok || f.loc != nil || (!f.haveTime && !prevTime && !f.haveDate) {
				return nil, dtBadFormat
			}
			f.loc = loc
		}
		prevTime = false
	}
	if textMonth != 0 {
		f.month = textMonth
		switch len(nums) {
		case 2:
			if len(nums[0]) > 2 {
				f.year, _ = strconv.Atoi(nums[0])
				f.day, _ = strconv.Atoi(nums[1])
				f.yearDigits = len(nums[0])
			} else {
				f.day, _ = strconv.Atoi(nums[0])
				f.year, _ = strconv.Atoi(nums[1])
				f.yearDigits = len(nums[1])
			}
		default:
			return nil, dtBadFormat
		}
		f.haveDate = true
		nums = nil
	}
	if len(nums) == 1 && !f.haveDate {
		// A lone number, read as PostgreSQL's DecodeNumber and
		// DecodeNumberField read it: six digits or more are YY..MMDD; fewer
		// than three a month (DateStyle MDY), out of range when no month
		// could be it; others a year. Either of the latter leaves the date
		// incomplete.
		n := nums[0]
		if len(n) >= 6 {
			f.year, _ = strconv.Atoi(n[:len(n)-4])
			f.month, _ = strconv.Atoi(n[len(n)-4 : len(n)-2])
			f.day, _ = strconv.Atoi(n[len(n)-2:])
			f.yearDigits = len(n) - 4
			if f.month < 1 || f.month > 12 || f.day < 1 || f.day > 31 {
				return nil, dtFieldRange
			}
			f.haveDate = true
			nums = nil
		} else if month, _ := strconv.Atoi(n); len(n) < 3 && (month < 1 || month > 12) {
			return nil, dtFieldRange
		}
	}
	if len(nums) > 0 {
		return nil, dtBadFormat
	}
	if f.yearDigits > 0 && f.yearDigits <= 2 && !f.bc {
		// A year of one or two digits is 1970 to 2069, as PostgreSQL reads it.
		if f.year < 70 {
			f.year += 2000
		} else {
			f.year += 1900
		}
	}
	if f.ampm {
		if !f.haveTime || f.hour < 1 || f.hour > 12 {
			return nil, dtFieldRange
		}
		if f.pm && f.hour != 12 {
			f.hour += 12
		} else if !f.pm && f.hour == 12 {
			f.hour = 0
		}
	}
	if f.haveDate {
		if f.year == 0 || f.month < 1 || f.month > 12 || f.day < 1 || f.day > daysIn(f.year, f.month, f.bc) {
			return nil, dtFieldRange
		}
		if f.bc {
			f.year = 1 - f.year
		}
	} else if f.bc {
		return nil, dtBadFormat
	}
	if f.haveTime {
		if f.hour < 0 || f.hour > 24 || f.min < 0 || f.min > 59 || f.sec < 0 || f.sec > 60 ||
			(f.hour == 24 && (f.min != 0 || f.sec != 0 || f.usec != 0)) {
			return nil, dtFieldRange
		}
	}
	return f, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

func daysIn(year, month int, bc bool) int {
	if bc {
		year = 1 - year
	}
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// decodeDateField reads y-m-d, m/d/y, y/m/d, d.m.y style dates (PostgreSQL's
// default DateStyle "ISO, MDY": a leading field of three or more digits is
// the year), and forms with a month name such as 18-jul-2025.
func (f *dtFields) decodeDateField(s string) error {
	si := strings.IndexAny(s, "-/.")
	if si < 0 {
		return dtBadFormat
	}
	sep := s[si]
	parts := strings.Split(s, string(sep))
	if len(parts) != 3 {
		return dtBadFormat
	}
	month := 0
	var nums []string
	for _, p := range parts {
		if m := monthNames[p]; m != 0 && month == 0 {
			month = m
			continue
		}
		if !allDigits(p) {
			return dtBadFormat
		}
		nums = append(nums, p)
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	switch {
	case month != 0:
		if len(nums[0]) > 2 {
			f.year, f.day, f.yearDigits = atoi(nums[0]), atoi(nums[1]), len(nums[0])
		} else {
			f.day, f.year, f.yearDigits = atoi(nums[0]), atoi(nums[1]), len(nums[1])
		}
		f.month = month
	case len(parts[0]) > 2:
		f.year, f.month, f.day, f.yearDigits = atoi(parts[0]), atoi(parts[1]), atoi(parts[2]), len(parts[0])
	default:
		f.month, f.day, f.year, f.yearDigits = atoi(parts[0]), atoi(parts[1]), atoi(parts[2]), len(parts[2])
	}
	f.haveDate = true
	return nil
}

// decodeTimeField reads h:m, h:m:s, h:m:s.frac.
func (f *dtFields) decodeTimeField(s string) error {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return dtBadFormat
	}
	var err error
	if f.hour, err = strconv.Atoi(parts[0]); err != nil {
		return dtBadFormat
	}
	last := parts[len(parts)-1]
	frac := ""
	if i := strings.IndexByte(last, '.'); i >= 0 {
		last, frac = last[:i], last[i+1:]
	}
	if len(parts) == 2 {
		if f.min, err = strconv.Atoi(last); err != nil {
			return dtBadFormat
		}
		if frac != "" || strings.HasSuffix(parts[1], ".") {
			// m:s.frac, as PostgreSQL reads two fields with a fraction
			us, ok := fractionMicros(frac)
			if !ok {
				return dtBadFormat
			}
			f.hour, f.min, f.sec, f.usec = 0, f.hour, f.min, us
		}
	} else {
		if f.min, err = strconv.Atoi(parts[1]); err != nil {
			return dtBadFormat
		}
		if f.sec, err = strconv.Atoi(last); err != nil {
			return dtBadFormat
		}
		if frac != "" || strings.HasSuffix(parts[2], ".") {
			us, ok := fractionMicros(frac)
			if !ok {
				return dtBadFormat
			}
			f.usec = us
		}
	}
	f.haveTime = true
	return nil
}

// fractionMicros turns the digits after a decimal point into microseconds,
// rounding half to even as PostgreSQL's rint does. "" is zero.
func fractionMicros(digits string) (int64, bool) {
	if digits == "" {
		return 0, true
	}
	if !allDigits(digits) {
		return 0, false
	}
	v, err := strconv.ParseFloat("0."+digits, 64)
	if err != nil {
		return 0, false
	}
	return int64(math.RoundToEven(v * 1e6)), true
}

// parseOffset reads +h, +hh, +hhmm, +hh:mm, +hh:mm:ss.
func parseOffset(s string) (*time.Location, bool) {
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	body := s[1:]
	var h, m, sec int
	var err error
	switch {
	case strings.Contains(body, ":"):
		p := strings.Split(body, ":")
		if len(p) > 3 {
			return nil, false
		}
		vals := make([]int, 3)
		for i, x := range p {
			if vals[i], err = strconv.Atoi(x); err != nil {
				return nil, false
			}
		}
		h, m, sec = vals[0], vals[1], vals[2]
	case allDigits(body) && len(body) <= 2:
		h, _ = strconv.Atoi(body)
	case allDigits(body) && len(body) == 4:
		h, _ = strconv.Atoi(body[:2])
		m, _ = strconv.Atoi(body[2:])
	case allDigits(body) && len(body) == 6:
		h, _ = strconv.Atoi(body[:2])
		m, _ = strconv.Atoi(body[2:4])
		sec, _ = strconv.Atoi(body[4:])
	default:
		return nil, false
	}
	if m > 59 || sec > 59 {
		return nil, false
	}
	if h > 15 {
		return nil, true // displacement out of range: the caller reports it
	}
	return time.FixedZone("", sign*(h*3600+m*60+sec)), true
}

// zoneByName resolves a zone abbreviation or an IANA name (as PostgreSQL's
// timezone setting and AT TIME ZONE take them).
func zoneByName(name string) (*time.Location, error) {
	if off, ok := zoneAbbrevs[strings.ToLower(name)]; ok {
		return time.FixedZone(strings.ToUpper(name), off), nil
	}
	loc, err := LoadZone(name)
	if err != nil {
		if strings.Contains(name, "/") {
			return nil, dtBadZone
		}
		return nil, dtBadFormat
	}
	return loc, nil
}

// LoadZone finds a time zone by IANA name, case-insensitively for the common
// spellings ("utc", "europe/paris"), as PostgreSQL does; it also takes POSIX
// offsets such as "+05:30" (which PostgreSQL's timezone setting reads with
// the ISO sign convention when written as an offset, e.g. SET TIME ZONE
// '+05:30' or INTERVAL '+05:30').
func LoadZone(name string) (*time.Location, error) {
	switch strings.ToLower(name) {
	case "utc", "gmt", "z", "zulu", "etc/utc", "etc/gmt", "universal", "":
		return time.UTC, nil
	}
	if loc, err := time.LoadLocation(name); err == nil {
		return loc, nil
	}
	// Retry with PostgreSQL's case-insensitive matching of path components.
	parts := strings.Split(name, "/")
	for i, p := range parts {
		sub := strings.Split(strings.ToLower(p), "_")
		for j, w := range sub {
			if len(w) > 0 && !(len(w) <= 3 && i == 0 && len(parts) > 1 && strings.EqualFold(w, "us")) {
				sub[j] = strings.ToUpper(w[:1]) + w[1:]
			} else {
				sub[j] = strings.ToUpper(w)
			}
		}
		parts[i] = strings.Join(sub, "_")
	}
	if loc, err := time.LoadLocation(strings.Join(parts, "/")); err == nil {
		return loc, nil
	}
	if loc, ok := posixOffsetZone(name); ok && loc != nil {
		return loc, nil
	}
	return nil, pgerror.New(pgerror.InvalidParameterValue, "time zone \"%s\" not recognized", name)
}

// posixOffsetZone reads a zone name that is a POSIX offset: "+05:30", "-3",
// "UTC+3", "ABC-2", "UTC3" (an abbreviation may lead, and a bare number
// after one means +). As in POSIX, and in
// PostgreSQL's zone names, a positive offset is west of Greenwich:
// '+05:30' is UTC-05:30 (where a time's own offset, as in
// '12:00+05:30', is east). A nil zone with true: out of range.
func posixOffsetZone(name string) (*time.Location, bool) {
	i := 0
	for i < len(name) && (name[i] >= 'a' && name[i] <= 'z' || name[i] >= 'A' && name[i] <= 'Z') {
		i++
	}
	rest := name[i:]
	if rest == "" {
		return nil, false
	}
	if rest[0] != '+' && rest[0] != '-' {
		if i == 0 || rest[0] < '0' || rest[0] > '9' {
			return nil, false
		}
		rest = "+" + rest
	}
	if len(rest) < 2 {
		return nil, false
	}
	loc, ok := parseOffset(rest)
	if !ok || loc == nil {
		return loc, ok
	}
	_, east := time.Unix(0, 0).In(loc).Zone()
	return time.FixedZone(name, -east), true
}

func dateTimeError(err error, oid OID, s string) error {
	switch err {
	case dtFieldRange:
		return pgerror.New(pgerror.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", s)
	case dtBadOffset:
		return pgerror.New(pgerror.InvalidTimeZoneDisplacement, "time zone displacement out of range: \"%s\"", s)
	case dtBadZone:
		return pgerror.New(pgerror.InvalidParameterValue, "time zone \"%s\" not recognized", badZoneName(s))
	}
	return pgerror.New(pgerror.InvalidDatetimeFormat, "invalid input syntax for type %s: \"%s\"", dtTypeName(oid), s)
}

func badZoneName(s string) string {
	toks, _ := tokenizeDateTime(s)
	for _, t := range toks {
		if t.kind == 'a' && monthNames[t.text] == 0 && !weekdayNames[t.text] {
			if _, err := zoneByName(t.text); err != nil {
				return t.text
			}
		}
	}
	return s
}

func dtTypeName(oid OID) string {
	switch oid {
	case Timestamp:
		return "timestamp"
	case Time:
		return "time"
	}
	return sqlName(oid)
}

// ReadsClock reports whether reading s as a value of type t reads the
// current time: 'now', 'today', 'tomorrow' and 'yesterday' as a date, time,
// timestamp or timestamptz, alone or as an array's element. The value read
// holds only for the moment it was read, so whoever keeps it (a plan that
// folded the literal) must know.
func ReadsClock(t T, s string) bool {
	if elem := ElemOf(t.OID); elem != 0 {
		texts, _, err := splitArray(s)
		if err != nil {
			return false
		}
		for _, e := range texts {
			if e != nil && ReadsClock(T{OID: elem, Typmod: -1}, *e) {
				return true
			}
		}
		return false
	}
	switch t.OID {
	case Date, Time, Timestamp, Timestamptz:
	default:
		return false
	}
	f, err := decodeDateTime(s)
	if err != nil {
		return false
	}
	switch f.special {
	case "now", "today", "tomorrow", "yesterday":
		return true
	}
	return false
}

// midnightOf returns the date of t (in t's location) as midnight UTC.
func midnightOf(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func specialDate(special string, in Input) (time.Time, bool) {
	switch special {
	case "epoch":
		return time.Unix(0, 0).UTC(), true
	case "infinity":
		return InfinityTime, true
	case "-infinity":
		return NegInfinityTime, true
	case "today", "now":
		return midnightOf(in.now()), true
	case "tomorrow":
		return midnightOf(in.now()).AddDate(0, 0, 1), true
	case "yesterday":
		return midnightOf(in.now()).AddDate(0, 0, -1), true
	}
	return time.Time{}, false
}

func parseDate(s string, in Input) (Value, error) {
	f, err := decodeDateTime(s)
	if err != nil {
		return nil, dateTimeError(err, Date, s)
	}
	if f.special != "" {
		if t, ok := specialDate(f.special, in); ok {
			return t, nil
		}
		return nil, dateTimeError(dtBadFormat, Date, s)
	}
	if !f.haveDate {
		return nil, dateTimeError(dtBadFormat, Date, s)
	}
	t := time.Date(f.year, time.Month(f.month), f.day, 0, 0, 0, 0, time.UTC)
	if !dateInRange(t) {
		return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "date out of range: \"%s\"", s)
	}
	return t, nil
}

func parseTimestamp(s string, withTZ bool, in Input) (time.Time, error) {
	loc := in.loc()
	oid := OID(Timestamp)
	if withTZ {
		oid = Timestamptz
	}
	f, err := decodeDateTime(s)
	if err != nil {
		return time.Time{}, dateTimeError(err, oid, s)
	}
	switch f.special {
	case "":
	case "now":
		n := in.now()
		if !withTZ {
			n = wallAsUTC(n)
		}
		return n.Truncate(time.Microsecond).UTC(), nil
	case "allballs":
		return time.Time{}, dateTimeError(dtBadFormat, oid, s)
	default:
		t, _ := specialDate(f.special, in)
		if withTZ && IsInfinite(t) == 0 && f.special != "epoch" {
			y, m, d := t.Date()
			t = LocalToUTC(y, m, d, 0, 0, 0, 0, loc)
		}
		return t, nil
	}
	if !f.haveDate {
		return time.Time{}, dateTimeError(dtBadFormat, oid, s)
	}
	zone := time.UTC
	if withTZ {
		zone = loc
		if f.loc != nil {
			zone = f.loc
		}
	}
	t := LocalToUTC(f.year, time.Month(f.month), f.day, f.hour, f.min, f.sec, int(f.usec)*1000, zone).UTC()
	if !timestampInRange(t) {
		return time.Time{}, pgerror.New(pgerror.DatetimeFieldOverflow, "timestamp out of range: \"%s\"", s)
	}
	return t, nil
}

// LocalToUTC returns the instant at which the wall clock of loc shows the
// given date and time. Where a daylight-saving change makes that wall time
// happen twice or never, it resolves as PostgreSQL does: a time in a
// spring-forward gap is read with the offset from before the change, a time
// in a fall-back overlap with the offset from after it.
func LocalToUTC(year int, month time.Month, day, hour, min, sec, nsec int, loc *time.Location) time.Time {
	naive := time.Date(year, month, day, hour, min, sec, nsec, time.UTC)
	if loc == time.UTC {
		return naive
	}
	const span = 36 * time.Hour
	_, offBefore := naive.Add(-span).In(loc).Zone()
	_, offAfter := naive.Add(span).In(loc).Zone()
	try := func(off int) (time.Time, bool) {
		t := naive.Add(-time.Duration(off) * time.Second)
		_, o := t.In(loc).Zone()
		return t, o == off
	}
	tb, okb := try(offBefore)
	ta, oka := try(offAfter)
	switch {
	case okb && oka:
		return ta // ambiguous (or no change at all): the later offset
	case okb:
		return tb
	case oka:
		return ta
	}
	return tb // in the gap
}

// wallAsUTC keeps t's wall clock and calls it UTC: how a timestamp without
// time zone is held.
func wallAsUTC(t time.Time) time.Time {
	y, m, d := t.Date()
	h, mi, s := t.Clock()
	return time.Date(y, m, d, h, mi, s, t.Nanosecond(), time.UTC)
}

// parseTime reads a time of day; 'now' is the wall clock in the session's
// time zone at the input's moment, as PostgreSQL reads it.
func parseTime(s string, in Input) (TimeOfDay, error) {
	if t := trimSpace(s); (len(t) == 4 || len(t) == 6) && allDigits(t) {
		// concatenated HHMM[SS]
		t += "00"
		h, _ := strconv.Atoi(t[:2])
		m, _ := strconv.Atoi(t[2:4])
		sec, _ := strconv.Atoi(t[4:6])
		if h > 24 || m > 59 || sec > 60 || (h == 24 && (m != 0 || sec != 0)) {
			return 0, dateTimeError(dtFieldRange, Time, s)
		}
		return TimeOfDay(((int64(h)*60+int64(m))*60 + int64(sec)) * 1e6), nil
	}
	f, err := decodeDateTime(s)
	if err != nil {
		return 0, dateTimeError(err, Time, s)
	}
	switch f.special {
	case "":
	case "allballs":
		return 0, nil
	case "now":
		return timeOfDayOf(in.now()), nil
	default:
		return 0, dateTimeError(dtBadFormat, Time, s)
	}
	if !f.haveTime || f.namedZone && !f.haveDate {
		return 0, dateTimeError(dtBadFormat, Time, s)
	}
	return TimeOfDay(((int64(f.hour)*60+int64(f.min))*60+int64(f.sec))*1e6 + f.usec), nil
}

// precision scales, as PostgreSQL's TimestampScales/TimestampOffsets.
var precScale = [7]int64{1000000, 100000, 10000, 1000, 100, 10, 1}

func roundMicros(us int64, typmod int32) int64 {
	if typmod < 0 || typmod >= MaxTimePrecision {
		return us
	}
	sc := precScale[typmod]
	if us >= 0 {
		return (us + sc/2) / sc * sc
	}
	return -((-us + sc/2) / sc * sc)
}

func roundTimestamp(t time.Time, typmod int32) time.Time {
	if typmod < 0 || typmod >= MaxTimePrecision || IsInfinite(t) != 0 {
		return t
	}
	return FromMicros(roundMicros(Micros(t), typmod))
}

func roundTimeOfDay(t TimeOfDay, typmod int32) TimeOfDay {
	return TimeOfDay(roundMicros(int64(t), typmod))
}

func appendInt(dst []byte, n int64, width int) []byte {
	var buf [24]byte
	s := strconv.AppendInt(buf[:0], n, 10)
	for i := len(s); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// appendFraction appends .ffffff without trailing zeros, or nothing.
func appendFraction(dst []byte, us int64) []byte {
	if us == 0 {
		return dst
	}
	var buf [6]byte
	for i := 5; i >= 0; i-- {
		buf[i] = byte('0' + us%10)
		us /= 10
	}
	n := 6
	for n > 0 && buf[n-1] == '0' {
		n--
	}
	dst = append(dst, '.')
	return append(dst, buf[:n]...)
}

func appendYMD(dst []byte, t time.Time) ([]byte, bool) {
	y, m, d := t.Date()
	bc := y <= 0
	if bc {
		y = 1 - y
	}
	dst = appendInt(dst, int64(y), 4)
	dst = append(dst, '-')
	dst = appendInt(dst, int64(m), 2)
	dst = append(dst, '-')
	dst = appendInt(dst, int64(d), 2)
	return dst, bc
}

func appendDate(dst []byte, t time.Time) []byte {
	switch IsInfinite(t) {
	case 1:
		return append(dst, "infinity"...)
	case -1:
		return append(dst, "-infinity"...)
	}
	dst, bc := appendYMD(dst, t)
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

func appendTimestamp(dst []byte, t time.Time, loc *time.Location, withTZ bool) []byte {
	switch IsInfinite(t) {
	case 1:
		return append(dst, "infinity"...)
	case -1:
		return append(dst, "-infinity"...)
	}
	if withTZ {
		t = t.In(loc)
	} else {
		t = t.UTC()
	}
	dst, bc := appendYMD(dst, t)
	dst = append(dst, ' ')
	h, m, s := t.Clock()
	dst = appendInt(dst, int64(h), 2)
	dst = append(dst, ':')
	dst = appendInt(dst, int64(m), 2)
	dst = append(dst, ':')
	dst = appendInt(dst, int64(s), 2)
	dst = appendFraction(dst, int64(t.Nanosecond()/1000))
	if withTZ {
		_, off := t.Zone()
		dst = appendOffset(dst, off)
	}
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

// appendOffset prints a UTC offset as PostgreSQL does: +00, +05:30,
// -03:00:00 only when there are seconds.
func appendOffset(dst []byte, off int) []byte {
	if off < 0 {
		dst = append(dst, '-')
		off = -off
	} else {
		dst = append(dst, '+')
	}
	dst = appendInt(dst, int64(off/3600), 2)
	if m, s := off%3600/60, off%60; m != 0 || s != 0 {
		dst = append(dst, ':')
		dst = appendInt(dst, int64(m), 2)
		if s != 0 {
			dst = append(dst, ':')
			dst = appendInt(dst, int64(s), 2)
		}
	}
	return dst
}

func appendTimeOfDay(dst []byte, t TimeOfDay) []byte {
	us := int64(t)
	dst = appendInt(dst, us/3600e6, 2)
	dst = append(dst, ':')
	dst = appendInt(dst, us/60e6%60, 2)
	dst = append(dst, ':')
	dst = appendInt(dst, us/1e6%60, 2)
	return appendFraction(dst, us%1e6)
}
