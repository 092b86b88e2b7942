package builtins

import (
	"math"
	"strconv"
	"strings"
	"time"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// to_char, to_date and to_timestamp: PostgreSQL's template formatting
// (formatting.c). A template is read into nodes, keywords (YYYY, Month,
// HH24, 9, 0, ...) and literal text; FM before a keyword drops its padding,
// TH/th after a numeric one adds an ordinal suffix. The datetime templates
// are in tochar.go.

func init() {
	dt := func(zoned bool) func(x eval.Context, a []types.Value) (types.Value, error) {
		return func(x eval.Context, a []types.Value) (types.Value, error) {
			t := a[0].(time.Time)
			if types.IsInfinite(t) != 0 {
				return nil, nil
			}
			return formatDateTime(wallClock(x, t, zoned), a[1].(string), zoned)
		}
	}
	num := func(kind numberKind) func(eval.Context, []types.Value) (types.Value, error) {
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			return formatNumber(kind, a[0], a[1].(string))
		}
	}
	Register("to_char", overloaded(true,
		sig(types.Text, dt(true), types.Timestamptz, types.Text),
		sig(types.Text, dt(false), types.Timestamp, types.Text),
		sig(types.Text, func(_ eval.Context, a []types.Value) (types.Value, error) {
			return formatInterval(a[0].(types.IntervalValue), a[1].(string))
		}, types.Interval, types.Text),
		sig(types.Text, num(numberInt4), types.Int4, types.Text),
		sig(types.Text, num(numberInt8), types.Int8, types.Text),
		sig(types.Text, num(numberNumeric), types.Numeric, types.Text),
		sig(types.Text, num(numberFloat8), types.Float8, types.Text),
		sig(types.Text, num(numberFloat4), types.Float4, types.Text),
	))
	Register("to_date", overloaded(true, sig(types.Date, func(x eval.Context, a []types.Value) (types.Value, error) {
		f, err := parseDateTime(a[0].(string), a[1].(string))
		if err != nil {
			return nil, err
		}
		return makeDate(int64(f.year), int64(f.month), int64(f.day))
	}, types.Text, types.Text)))
	Register("to_timestamp", overloaded(true,
		sig(types.Timestamptz, func(x eval.Context, a []types.Value) (types.Value, error) {
			f, err := parseDateTime(a[0].(string), a[1].(string))
			if err != nil {
				return nil, err
			}
			d, err := makeDate(int64(f.year), int64(f.month), int64(f.day))
			if err != nil {
				return nil, err
			}
			day := d.(time.Time)
			loc := x.Location()
			if f.zone != nil {
				loc = f.zone
			}
			return types.LocalToUTC(day.Year(), day.Month(), day.Day(), f.hour, f.minute, f.second, f.micro*1000, loc), nil
		}, types.Text, types.Text),
		sig(types.Timestamptz, func(_ eval.Context, a []types.Value) (types.Value, error) {
			s := a[0].(float64)
			switch {
			case math.IsInf(s, 1):
				return types.FromMicros(math.MaxInt64), nil
			case math.IsInf(s, -1):
				return types.FromMicros(math.MinInt64), nil
			case math.IsNaN(s):
				return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "timestamp cannot be NaN")
			}
			return time.Unix(0, 0).UTC().Add(time.Duration(math.Round(s*1e6)) * time.Microsecond), nil
		}, types.Float8),
	))
}

// parsedDateTime is what to_date / to_timestamp read.
type parsedDateTime struct {
	year, month, day            int
	hour, minute, second, micro int
	pm, hasAMPM                 bool
	zone                        *time.Location
}

// parseDateTime reads input against a template as PostgreSQL does outside
// FX mode: a template separator matches any one separator (or none),
// spaces are skipped, numbers take at most their field's width.
func parseDateTime(input, tmpl string) (*parsedDateTime, error) {
	f := &parsedDateTime{year: 1, month: 1, day: 1}
	in := input
	skipSpaces := func() {
		in = strings.TrimLeft(in, " ")
	}
	readNum := func(key string, width int) (int, error) {
		skipSpaces()
		sign := 1
		if strings.HasPrefix(in, "-") && (key == "YYYY" || key == "Y,YYY") {
			sign, in = -1, in[1:]
		}
		n := 0
		for n < len(in) && n < width && in[n] >= '0' && in[n] <= '9' {
			n++
		}
		if n == 0 {
			return 0, pgerror.New(pgerror.InvalidDatetimeFormat, "invalid value \"%s\" for \"%s\"", firstWord(in), key).
				WithDetail("Value must be an integer.")
		}
		v, _ := strconv.Atoi(in[:n])
		in = in[n:]
		return sign * v, nil
	}
	readName := func(key string, names []string, n int) (int, error) {
		skipSpaces()
		for i, nm := range names {
			cand := nm
			if n > 0 {
				cand = nm[:n]
			}
			if len(in) >= len(cand) && strings.EqualFold(in[:len(cand)], cand) {
				in = in[len(cand):]
				return i, nil
			}
		}
		return 0, pgerror.New(pgerror.InvalidDatetimeFormat, "invalid value \"%s\" for \"%s\"", firstWord(in), key).
			WithDetail("The given value did not match any of the allowed values for this field.")
	}
	months := []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	days := []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	var err error
	for _, nd := range parseTemplate(tmpl, dateKeywords) {
		key := strings.ToUpper(nd.key)
		switch key {
		case "":
			for _, c := range nd.text {
				switch {
				case c == ' ':
					skipSpaces()
				case len(in) > 0 && !isAlnum(in[0]):
					in = in[1:]
				}
			}
			continue
		case "YYYY", "IYYY":
			f.year, err = readNum(key, 4)
		case "YYY", "IYY":
			f.year, err = readNum(key, 3)
			f.year += 2000
		case "YY", "IY":
			f.year, err = readNum(key, 2)
			if f.year < 70 {
				f.year += 2000
			} else {
				f.year += 1900
			}
		case "MM":
			f.month, err = readNum(key, 2)
		case "DD":
			f.day, err = readNum(key, 2)
		case "HH", "HH12", "HH24":
			f.hour, err = readNum(key, 2)
		case "MI":
			f.minute, err = readNum(key, 2)
		case "SS":
			f.second, err = readNum(key, 2)
		case "MS":
			var ms int
			ms, err = readNum(key, 3)
			f.micro = ms * 1000
		case "US":
			f.micro, err = readNum(key, 6)
		case "MONTH":
			var m int
			m, err = readName(nd.key, months, 0)
			f.month = m + 1
		case "MON":
			var m int
			m, err = readName(nd.key, months, 3)
			f.month = m + 1
		case "DAY":
			_, err = readName(nd.key, days, 0)
		case "DY":
			_, err = readName(nd.key, days, 3)
		case "AM", "PM", "A.M.", "P.M.":
			skipSpaces()
			f.hasAMPM = true
			matched := ""
			for _, m := range []string{"A.M.", "P.M.", "AM", "PM"} {
				if strings.HasPrefix(strings.ToUpper(in), m) {
					matched = m
					break
				}
			}
			if matched == "" {
				return nil, pgerror.New(pgerror.InvalidDatetimeFormat, "invalid value \"%s\" for \"%s\"", firstWord(in), nd.key)
			}
			f.pm = matched[0] == 'P'
			in = in[len(matched):]
		case "TZ":
			skipSpaces()
			w := firstWord(in)
			if f.zone, err = types.LoadZone(w); err == nil {
				in = in[len(w):]
			}
		default:
			return nil, pgerror.New(pgerror.FeatureNotSupported, "formatting field \"%s\" is only supported in to_char", nd.key)
		}
		if err != nil {
			return nil, err
		}
	}
	if f.hasAMPM {
		if f.hour < 1 || f.hour > 12 {
			return nil, pgerror.New(pgerror.InvalidDatetimeFormat, "hour \"%d\" is invalid for the 12-hour clock", f.hour).
				WithHint("Use the 24-hour clock, or give an hour between 1 and 12.")
		}
		f.hour %= 12
		if f.pm {
			f.hour += 12
		}
	}
	if f.month < 1 || f.month > 12 || f.day < 1 || f.day > eval.DaysIn(f.year, time.Month(f.month)) ||
		f.hour > 24 || f.minute > 59 || f.second > 60 {
		return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", input)
	}
	return f, nil
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func firstWord(s string) string {
	s = strings.TrimLeft(s, " ")
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[:i]
	}
	return s
}
