package builtins

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"cdcdb/pgerror"
	"cdcdb/types"
)

// to_char of a timestamp or an interval, as PostgreSQL 15's DCH_to_char.
//
// A template is read as PostgreSQL's parse_format reads it: at each place,
// one optional prefix (FM: no padding; TM: the translated month or day
// name, which in the C locale cdcdb runs in is the English one, unpadded),
// then a keyword, then one optional postfix (TH/th: an ordinal suffix; SP,
// accepted and ignored). A prefix that no keyword follows is dropped, and
// what follows it is read afresh: FMTMMonth is literal T, the month number
// and literal onth, as in PostgreSQL. Anything else is literal text; a
// double-quoted string is literal with \ quoting the next character, and
// outside quotes a backslash is only special before a double quote.

// templateNode is one element of a template.
type templateNode struct {
	key     string // the keyword as written, "" for literal text
	text    string // literal text
	fm      bool   // FM before the keyword
	tm      bool   // TM before the keyword
	ordinal string // "TH", "th" or ""
}

// dateKeywords are PostgreSQL's datetime template keywords in its order:
// among those sharing a first letter, the first that the template starts
// with is the one read (so HH24 is not read as HH).
var dateKeywords = []string{
	"A.D.", "A.M.", "AD", "AM", "B.C.", "BC", "CC", "DAY", "DDD", "DD", "DY", "Day", "Dy", "D",
	"FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "FX", "HH24", "HH12", "HH", "IDDD", "ID", "IW", "IYYY", "IYY", "IY", "I",
	"J", "MI", "MM", "MONTH", "MON", "MS", "Month", "Mon", "OF", "P.M.", "PM", "Q", "RM", "SSSSS", "SSSS", "SS",
	"TZH", "TZM", "TZ", "US", "WW", "W", "Y,YYY", "YYYY", "YYY", "YY", "Y",
	"a.d.", "a.m.", "ad", "am", "b.c.", "bc", "cc", "day", "ddd", "dd", "dy", "d",
	"ff1", "ff2", "ff3", "ff4", "ff5", "ff6", "fx", "hh24", "hh12", "hh", "iddd", "id", "iw", "iyyy", "iyy", "iy", "i",
	"j", "mi", "mm", "month", "mon", "ms", "of", "p.m.", "pm", "q", "rm", "sssss", "ssss", "ss",
	"tzh", "tzm", "tz", "us", "ww", "w", "y,yyy", "yyyy", "yyy", "yy", "y",
}

// parseTemplate splits a datetime template into keywords and literal text.
func parseTemplate(tmpl string, keywords []string) []templateNode {
	var nodes []templateNode
	lit := func(s string) {
		if n := len(nodes); n > 0 && nodes[n-1].key == "" {
			nodes[n-1].text += s
			return
		}
		nodes = append(nodes, templateNode{text: s})
	}
	for i := 0; i < len(tmpl); {
		var n templateNode
		switch p := tmpl[i:]; {
		case strings.HasPrefix(p, "FM") || strings.HasPrefix(p, "fm"):
			n.fm = true
			i += 2
		case strings.HasPrefix(p, "TM") || strings.HasPrefix(p, "tm"):
			n.tm = true
			i += 2
		}
		for _, k := range keywords {
			if strings.HasPrefix(tmpl[i:], k) {
				n.key = k
				break
			}
		}
		if n.key != "" {
			i += len(n.key)
			switch p := tmpl[i:]; {
			case strings.HasPrefix(p, "TH") || strings.HasPrefix(p, "th"):
				n.ordinal = p[:2]
				i += 2
			case strings.HasPrefix(p, "SP"):
				i += 2 // spell mode: PostgreSQL accepts it and does nothing
			}
			nodes = append(nodes, n)
			continue
		}
		if i >= len(tmpl) {
			break
		}
		switch {
		case tmpl[i] == '"':
			j := i + 1
			var sb strings.Builder
			for j < len(tmpl) && tmpl[j] != '"' {
				if tmpl[j] == '\\' && j+1 < len(tmpl) {
					j++
				}
				sb.WriteByte(tmpl[j])
				j++
			}
			lit(sb.String())
			i = j + 1
		case tmpl[i] == '\\' && i+1 < len(tmpl) && tmpl[i+1] == '"':
			lit(`"`)
			i += 2
		default:
			lit(tmpl[i : i+1])
			i++
		}
	}
	return nodes
}

// ordinalOf is PostgreSQL's get_th: the suffix for a number as printed,
// read from its last digits (so a padded 01 is 01st, and 11 to 19 in the
// last two places are th).
func ordinalOf(printed string, upper bool) (string, error) {
	if printed == "" || printed[len(printed)-1] < '0' || printed[len(printed)-1] > '9' {
		return "", pgerror.New(pgerror.InvalidTextRepresentation, "\"%s\" is not a number", printed)
	}
	last := printed[len(printed)-1]
	if len(printed) > 1 && printed[len(printed)-2] == '1' {
		last = '0'
	}
	s := "th"
	switch last {
	case '1':
		s = "st"
	case '2':
		s = "nd"
	case '3':
		s = "rd"
	}
	if upper {
		return strings.ToUpper(s), nil
	}
	return s, nil
}

// dchFields are what to_char prints, as PostgreSQL's struct pg_tm holds
// them: for a timestamp its date (year 0 is 1 BC) and wall clock, for an
// interval its parts, each carrying the interval's sign.
type dchFields struct {
	year, mon, mday int
	hour            int64
	min, sec        int
	fsec            int64 // microseconds
	yday, wday      int
	gmtoff          int    // seconds east of UTC
	zone            string // the zone's abbreviation, "" for none
	interval        bool
}

var (
	monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	dayNames   = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	// romanMonths are the months in Roman numerals, January first.
	romanMonths = []string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"}
)

// formatDateTime is to_char of a wall clock; zoned adds the zone fields
// (a timestamp without time zone is at offset 0 with no abbreviation).
func formatDateTime(w time.Time, tmpl string, zoned bool) (types.Value, error) {
	f := dchFields{
		year: w.Year(), mon: int(w.Month()), mday: w.Day(),
		hour: int64(w.Hour()), min: w.Minute(), sec: w.Second(), fsec: int64(w.Nanosecond() / 1000),
		yday: w.YearDay(), wday: int(w.Weekday()),
	}
	if zoned {
		f.zone, f.gmtoff = w.Zone()
	}
	return f.format(tmpl)
}

// formatInterval is to_char of an interval, whose parts are split as
// PostgreSQL's interval2tm splits them: years and months from the months,
// the days as they are, and the time truncated toward zero field by field.
func formatInterval(iv types.IntervalValue, tmpl string) (types.Value, error) {
	us := iv.Micros
	f := dchFields{
		year: int(iv.Months / 12), mon: int(iv.Months % 12), mday: int(iv.Days),
		hour: us / 3600e6, min: int(us % 3600e6 / 60e6), sec: int(us % 60e6 / 1e6), fsec: us % 1e6,
		interval: true,
	}
	f.yday = (f.year*12+f.mon)*30 + f.mday
	return f.format(tmpl)
}

// adjustedYear is the year as printed: for a date, BC years count from 1
// (year 0 is 1 BC); an interval's years are as they are.
func (f *dchFields) adjustedYear(y int) int {
	if f.interval || y > 0 {
		return y
	}
	return -(y - 1)
}

func (f *dchFields) format(tmpl string) (types.Value, error) {
	var sb strings.Builder
	for _, nd := range parseTemplate(tmpl, dateKeywords) {
		if nd.key == "" {
			sb.WriteString(nd.text)
			continue
		}
		s, numeric, err := f.field(nd)
		if err != nil {
			return nil, err
		}
		if numeric && nd.ordinal != "" {
			th, err := ordinalOf(s, nd.ordinal == "TH")
			if err != nil {
				return nil, err
			}
			s += th
		}
		sb.WriteString(s)
	}
	return sb.String(), nil
}

// padded is C's "%0*d": n in at least width characters, its sign counted,
// zero-filled; width 0 under FM.
func padded(n int64, width int, fm bool) string {
	if fm {
		width = 0
	}
	return fmt.Sprintf("%0*d", width, n)
}

// signedWidth is the width PostgreSQL prints a field in: one more for a
// negative value, so its digits keep their width.
func signedWidth(n int64, width int) int {
	if n < 0 {
		return width + 1
	}
	return width
}

// nameCase gives a name the capitalization of the keyword: MONTH, Month or
// month.
func nameCase(key, name string) string {
	switch {
	case key == strings.ToUpper(key):
		return strings.ToUpper(name)
	case key == strings.ToLower(key):
		return strings.ToLower(name)
	}
	return name
}

var errIntervalFormat = pgerror.New(pgerror.InvalidDatetimeFormat, "invalid format specification for an interval value").
	WithHint("Intervals are not tied to specific calendar dates.")

// field prints one keyword; numeric says the ordinal postfix applies.
func (f *dchFields) field(nd templateNode) (s string, numeric bool, err error) {
	key, upper := nd.key, strings.ToUpper(nd.key)
	// Fields a calendar date has and an interval has not.
	switch upper {
	case "A.D.", "AD", "B.C.", "BC", "MONTH", "MON", "DAY", "DY", "D", "ID", "TZ", "TZH", "TZM", "OF":
		if f.interval {
			return "", false, errIntervalFormat
		}
	}
	name := func(full string, abbrev bool) string {
		if abbrev {
			full = full[:3]
		}
		full = nameCase(key, full)
		if !nd.tm && !nd.fm && !abbrev && len(full) < 9 {
			full += strings.Repeat(" ", 9-len(full))
		}
		return full
	}
	pick := func(cond bool, yes, no string) string {
		if cond {
			return nameCase(key, yes)
		}
		return nameCase(key, no)
	}
	year := f.adjustedYear(f.year)
	switch upper {
	case "A.D.", "B.C.":
		return pick(f.year <= 0, "B.C.", "A.D."), false, nil
	case "AD", "BC":
		return pick(f.year <= 0, "BC", "AD"), false, nil
	case "A.M.", "P.M.":
		return pick(f.hour%24 >= 12, "P.M.", "A.M."), false, nil
	case "AM", "PM":
		return pick(f.hour%24 >= 12, "PM", "AM"), false, nil
	case "HH", "HH12":
		h := f.hour % 12
		if h == 0 {
			h = 12
		}
		return padded(h, signedWidth(f.hour, 2), nd.fm), true, nil
	case "HH24":
		return padded(f.hour, signedWidth(f.hour, 2), nd.fm), true, nil
	case "MI":
		return padded(int64(f.min), signedWidth(int64(f.min), 2), nd.fm), true, nil
	case "SS":
		return padded(int64(f.sec), signedWidth(int64(f.sec), 2), nd.fm), true, nil
	case "FF1":
		return fmt.Sprintf("%01d", f.fsec/100000), true, nil
	case "FF2":
		return fmt.Sprintf("%02d", f.fsec/10000), true, nil
	case "FF3", "MS":
		return fmt.Sprintf("%03d", f.fsec/1000), true, nil
	case "FF4":
		return fmt.Sprintf("%04d", f.fsec/100), true, nil
	case "FF5":
		return fmt.Sprintf("%05d", f.fsec/10), true, nil
	case "FF6", "US":
		return fmt.Sprintf("%06d", f.fsec), true, nil
	case "SSSS", "SSSSS":
		return strconv.FormatInt(f.hour*3600+int64(f.min)*60+int64(f.sec), 10), true, nil
	case "TZ":
		return nameCase(key, f.zone), false, nil
	case "TZH", "TZM", "OF":
		sign, off := "+", f.gmtoff
		if off < 0 {
			sign, off = "-", -off
		}
		switch upper {
		case "TZH":
			return sign + fmt.Sprintf("%02d", off/3600), false, nil
		case "TZM":
			return fmt.Sprintf("%02d", off%3600/60), false, nil
		}
		s = sign + padded(int64(off/3600), 2, nd.fm)
		if off%3600 != 0 {
			s += fmt.Sprintf(":%02d", off%3600/60)
		}
		return s, false, nil
	case "MONTH", "MON":
		if f.mon == 0 {
			return "", false, nil
		}
		return name(monthNames[f.mon-1], upper == "MON"), false, nil
	case "DAY", "DY":
		return name(dayNames[f.wday], upper == "DY"), false, nil
	case "MM":
		return padded(int64(f.mon), signedWidth(int64(f.mon), 2), nd.fm), true, nil
	case "DDD":
		return padded(int64(f.yday), 3, nd.fm), true, nil
	case "IDDD":
		return padded(int64(isoYearDay(f.year, f.mon, f.mday)), 3, nd.fm), true, nil
	case "DD":
		return padded(int64(f.mday), 2, nd.fm), true, nil
	case "D":
		return strconv.Itoa(f.wday + 1), true, nil
	case "ID":
		if f.wday == 0 {
			return "7", true, nil
		}
		return strconv.Itoa(f.wday), true, nil
	case "WW":
		return padded(int64((f.yday-1)/7+1), 2, nd.fm), true, nil
	case "IW":
		return padded(int64(isoWeek(f.year, f.mon, f.mday)), 2, nd.fm), true, nil
	case "W":
		return strconv.Itoa((f.mday-1)/7 + 1), true, nil
	case "Q":
		if f.mon == 0 {
			return "", false, nil
		}
		return strconv.Itoa((f.mon-1)/3 + 1), true, nil
	case "CC":
		var c int
		switch {
		case f.interval:
			c = f.year / 100
		case f.year > 0:
			c = (f.year-1)/100 + 1 // the 21st century is 2001 to 2100
		default:
			c = f.year/100 - 1 // the 6th century BC is 600 BC to 501 BC
		}
		if c <= 99 && c >= -99 {
			return padded(int64(c), signedWidth(int64(c), 2), nd.fm), true, nil
		}
		return strconv.Itoa(c), true, nil
	case "J":
		return strconv.Itoa(dateToJulian(f.year, f.mon, f.mday)), true, nil
	case "Y,YYY":
		thousands := year / 1000
		return fmt.Sprintf("%d,%03d", thousands, year-thousands*1000), true, nil
	case "YYYY", "YYY", "YY", "Y", "IYYY", "IYY", "IY", "I":
		digits, y := len(upper), year
		if upper[0] == 'I' {
			y = f.adjustedYear(isoYear(f.year, f.mon, f.mday))
		}
		if digits < 4 {
			y %= []int{10, 100, 1000}[digits-1]
		}
		if digits == 1 {
			return strconv.Itoa(y), true, nil
		}
		// The width follows the sign of the year, ISO or not.
		return padded(int64(y), signedWidth(int64(year), digits), nd.fm), true, nil
	case "RM":
		if f.mon == 0 && f.year == 0 {
			return "", false, nil
		}
		var rm string
		switch {
		case f.mon == 0: // whole years of an interval
			rm = "XII"
			if f.year < 0 {
				rm = "I"
			}
		case f.mon < 0: // -1 is December, -2 November, ...
			rm = romanMonths[12+f.mon]
		default:
			rm = romanMonths[f.mon-1]
		}
		rm = nameCase(key, rm)
		if !nd.fm && len(rm) < 4 {
			rm += strings.Repeat(" ", 4-len(rm))
		}
		return rm, false, nil
	}
	return "", false, nil // FX: nothing to print
}

// dateToJulian is PostgreSQL's date2j: the Julian day of a proleptic
// Gregorian date, for any fields (an interval's included, as to_char's J
// asks of one).
func dateToJulian(year, month, day int) int {
	if month > 2 {
		month++
		year += 4800
	} else {
		month += 13
		year += 4799
	}
	century := year / 100
	julian := year*365 - 32167
	julian += year/4 - century + century/4
	julian += 7834*month/256 + day
	return julian
}

// julianWeekday is the weekday of a Julian day, Sunday 0.
func julianWeekday(j int) int {
	d := (j + 1) % 7
	if d < 0 {
		d += 7
	}
	return d
}

// isoWeekStart is the Julian day of the Monday of week 1 of an ISO year:
// the week holding January 4th.
func isoWeekStart(year int) int {
	jan4 := dateToJulian(year, 1, 4)
	return jan4 - julianWeekday(jan4-1)
}

// isoYear is the ISO 8601 week-numbering year a date falls in.
func isoYear(year, mon, mday int) int {
	day := dateToJulian(year, mon, mday)
	if day < isoWeekStart(year) {
		year--
	}
	if (day-isoWeekStart(year))/7+1 >= 52 && day >= isoWeekStart(year+1) {
		year++
	}
	return year
}

// isoWeek is the ISO 8601 week of a date.
func isoWeek(year, mon, mday int) int {
	day := dateToJulian(year, mon, mday)
	start := isoWeekStart(year)
	if day < start {
		start = isoWeekStart(year - 1)
	}
	week := (day-start)/7 + 1
	if next := isoWeekStart(year + 1); week >= 52 && day >= next {
		week = (day-next)/7 + 1
	}
	return week
}

// isoYearDay is the day of a date in its ISO year, counted from the
// Monday of its week 1.
func isoYearDay(year, mon, mday int) int {
	return dateToJulian(year, mon, mday) - isoWeekStart(isoYear(year, mon, mday)) + 1
}
