package sql

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/types"
)

// to_char, to_date and to_timestamp: PostgreSQL's template formatting
// (formatting.c). A template is read into nodes, keywords (YYYY, Month,
// HH24, 9, 0, ...) and literal text; FM before a keyword drops its padding,
// TH/th after a numeric one adds an ordinal suffix. The datetime templates
// are in funcs_tochar.go.

func init() {
	dt := func(zoned bool) func(x *execCtx, a []types.Value) (types.Value, error) {
		return func(x *execCtx, a []types.Value) (types.Value, error) {
			t := a[0].(time.Time)
			if types.IsInfinite(t) != 0 {
				return nil, nil
			}
			return formatDateTime(wallClock(x, t, zoned), a[1].(string), zoned)
		}
	}
	num := func(x *execCtx, a []types.Value) (types.Value, error) {
		return formatNumber(a[0], a[1].(string))
	}
	register("to_char", overloaded(true,
		sig(types.Text, dt(true), types.Timestamptz, types.Text),
		sig(types.Text, dt(false), types.Timestamp, types.Text),
		sig(types.Text, func(_ *execCtx, a []types.Value) (types.Value, error) {
			return formatInterval(a[0].(types.IntervalValue), a[1].(string))
		}, types.Interval, types.Text),
		sig(types.Text, num, types.Int4, types.Text),
		sig(types.Text, num, types.Int8, types.Text),
		sig(types.Text, num, types.Numeric, types.Text),
		sig(types.Text, num, types.Float8, types.Text),
		sig(types.Text, num, types.Float4, types.Text),
	))
	register("to_date", overloaded(true, sig(types.Date, func(x *execCtx, a []types.Value) (types.Value, error) {
		f, err := parseDateTime(a[0].(string), a[1].(string))
		if err != nil {
			return nil, err
		}
		return makeDate(int64(f.year), int64(f.month), int64(f.day))
	}, types.Text, types.Text)))
	register("to_timestamp", overloaded(true,
		sig(types.Timestamptz, func(x *execCtx, a []types.Value) (types.Value, error) {
			f, err := parseDateTime(a[0].(string), a[1].(string))
			if err != nil {
				return nil, err
			}
			d, err := makeDate(int64(f.year), int64(f.month), int64(f.day))
			if err != nil {
				return nil, err
			}
			day := d.(time.Time)
			loc := x.location()
			if f.zone != nil {
				loc = f.zone
			}
			return types.LocalToUTC(day.Year(), day.Month(), day.Day(), f.hour, f.minute, f.second, f.micro*1000, loc), nil
		}, types.Text, types.Text),
		sig(types.Timestamptz, func(_ *execCtx, a []types.Value) (types.Value, error) {
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

// numberTemplate is a parsed numeric template.
type numberTemplate struct {
	intPos  []byte // '9', '0' and ',' (group separator) before the point, in order
	frac    []byte // '9' and '0' after the point
	point   bool
	fm      bool
	sign    string // "", "S<", "S>", "MI<", "MI>", "PL<", "PL>", "SG<", "SG>", "PR"
	ordinal string // "TH" or "th" after the digits
	roman   string // "RN" or "rn": the number in Roman numerals, and nothing else
	eeee    bool   // EEEE: scientific notation
}

// intDigits counts the template's digit positions before the point.
func (t numberTemplate) intDigits() int {
	n := 0
	for _, c := range t.intPos {
		if c != ',' {
			n++
		}
	}
	return n
}

// formatNumber is to_char of a number.
func formatNumber(v types.Value, tmpl string) (types.Value, error) {
	var d *apd.Decimal
	switch n := v.(type) {
	case int64:
		d = apd.New(n, 0)
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			d = &apd.Decimal{Form: apd.NaN}
		} else {
			var err error
			if d, _, err = apd.NewFromString(strconv.FormatFloat(n, 'f', -1, 64)); err != nil {
				return nil, err
			}
		}
	case *apd.Decimal:
		d = n
	}
	t := numberTemplate{}
	seenDigits := false
	up := strings.ToUpper(tmpl)
	for i := 0; i < len(tmpl); {
		switch {
		case strings.HasPrefix(up[i:], "FM"):
			t.fm = true
			i += 2
		case up[i] == '9' || up[i] == '0':
			if t.point {
				t.frac = append(t.frac, up[i])
			} else {
				t.intPos = append(t.intPos, up[i])
			}
			seenDigits = true
			i++
		case up[i] == '.' || up[i] == 'D':
			t.point = true
			i++
		case up[i] == ',' || up[i] == 'G':
			if !t.point {
				t.intPos = append(t.intPos, ',')
			}
			i++
		case strings.HasPrefix(up[i:], "MI"), strings.HasPrefix(up[i:], "PL"), strings.HasPrefix(up[i:], "SG"):
			t.sign = up[i:i+2] + map[bool]string{false: "<", true: ">"}[seenDigits]
			i += 2
		case strings.HasPrefix(up[i:], "TH"):
			t.ordinal = tmpl[i : i+2]
			i += 2
		case strings.HasPrefix(up[i:], "RN"):
			t.roman = tmpl[i : i+2]
			i += 2
		case strings.HasPrefix(up[i:], "EEEE"):
			if strings.TrimSpace(tmpl[i+4:]) != "" {
				return nil, pgerror.New(pgerror.SyntaxError, "\"EEEE\" must be the last pattern used")
			}
			t.eeee = true
			i += 4
		case strings.HasPrefix(up[i:], "PR"):
			t.sign = "PR"
			i += 2
		case up[i] == 'S':
			t.sign = "S" + map[bool]string{false: "<", true: ">"}[seenDigits]
			i++
		default:
			i++ // other template characters are not supported and print nothing
		}
	}
	if t.roman != "" {
		return romanNumber(v, d, t)
	}
	if t.eeee {
		if t.fm || t.sign != "" || t.ordinal != "" {
			return nil, pgerror.New(pgerror.SyntaxError, "\"EEEE\" is incompatible with other formats")
		}
		return scientificNumber(v, d, t), nil
	}
	intDigits := t.intDigits()
	neg := d.Negative && !d.IsZero()
	abs := new(apd.Decimal).Abs(d)
	if d.Form == apd.Finite {
		if err := roundScale(abs, len(t.frac)); err != nil {
			return nil, err
		}
	}
	text := abs.Text('f')
	ip, fp := text, ""
	if i := strings.IndexByte(text, '.'); i >= 0 {
		ip, fp = text[:i], text[i+1:]
	}
	fp += strings.Repeat("0", max(0, len(t.frac)-len(fp)))
	overflow := d.Form != apd.Finite || (ip != "0" && len(ip) > intDigits)
	if ip == "0" {
		ip = ""
	}
	var body strings.Builder
	started := false
	digitIdx := intDigits - len(ip) // digits of ip start at this int position
	pos := 0
	for _, c := range t.intPos {
		if c == ',' {
			switch {
			case overflow:
				body.WriteByte(',')
			case started:
				body.WriteByte(',')
			case !t.fm:
				body.WriteByte(' ')
			}
			continue
		}
		switch {
		case overflow:
			body.WriteByte('#')
		case pos >= digitIdx:
			body.WriteByte(ip[pos-digitIdx])
			started = true
		case c == '0':
			body.WriteByte('0')
			started = true
		case !t.fm:
			body.WriteByte(' ')
		}
		pos++
	}
	if !overflow && !started && (!t.point || len(t.frac) == 0) && intDigits > 0 {
		// A zero prints its last digit: to_char(0, '999') is "   0".
		s := body.String()
		body.Reset()
		if len(s) > 0 {
			body.WriteString(s[:len(s)-1])
		}
		body.WriteByte('0')
	}
	if t.point {
		body.WriteByte('.')
		fracOut := []byte(fp)
		if overflow {
			fracOut = []byte(strings.Repeat("#", len(t.frac)))
		} else if t.fm {
			// FM drops the trailing zeros that stand in 9 positions.
			n := len(fracOut)
			for n > 0 && t.frac[n-1] == '9' && fracOut[n-1] == '0' {
				n--
			}
			fracOut = fracOut[:n]
		}
		body.Write(fracOut)
	}
	out := body.String()
	if t.ordinal != "" && !neg && !overflow {
		// TH suffixes the integer part; negative numbers get none.
		n, _ := strconv.ParseInt("0"+ip, 10, 64)
		out += ordinalSuffix(n, t.ordinal == "TH")
	}
	// The sign goes next to the first digit (or where the template says).
	lead := strings.IndexFunc(out, func(r rune) bool { return r != ' ' })
	if lead < 0 {
		lead = len(out)
	}
	signChar := func(plus string) string {
		if neg {
			return "-"
		}
		return plus
	}
	switch t.sign {
	case "":
		if t.fm {
			return signChar("") + strings.TrimLeft(out, " "), nil
		}
		return out[:lead] + signChar(" ") + out[lead:], nil
	case "S<":
		return out[:lead] + signChar("+") + out[lead:], nil
	case "S>":
		return out + signChar("+"), nil
	case "MI<":
		return signChar(" ") + out, nil
	case "MI>":
		return out + signChar(" "), nil
	case "PL<":
		return map[bool]string{true: "-", false: "+"}[neg] + out, nil
	case "PL>":
		return out + map[bool]string{true: "-", false: "+"}[neg], nil
	case "SG<":
		return map[bool]string{true: "-", false: "+"}[neg] + out, nil
	case "SG>":
		return out + map[bool]string{true: "-", false: "+"}[neg], nil
	case "PR":
		if neg {
			return "<" + out[lead:] + ">", nil
		}
		return " " + out + " ", nil
	}
	return out, nil
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
	if f.month < 1 || f.month > 12 || f.day < 1 || f.day > daysIn(f.year, time.Month(f.month)) ||
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

// romanNumber is to_char's RN: the number rounded to an integer (a float
// half to even, as rint does; a numeric half away from zero, and made an
// integer as PostgreSQL does, so NaN, infinity and values past int4 are
// errors) in Roman numerals, right-aligned in 15 characters unless FM;
// outside 1 to 3999, 15 '#'. As in PostgreSQL, the template's other digits
// are ignored.
func romanNumber(v types.Value, d *apd.Decimal, t numberTemplate) (types.Value, error) {
	n := int64(0)
	switch x := v.(type) {
	case int64:
		n = x
	case float64:
		if r := math.RoundToEven(x); r >= 1 && r <= 3999 {
			n = int64(r)
		}
	default:
		switch d.Form {
		case apd.NaN, apd.NaNSignaling:
			return nil, pgerror.New(pgerror.FeatureNotSupported, "cannot convert NaN to integer")
		case apd.Infinite:
			return nil, pgerror.New(pgerror.FeatureNotSupported, "cannot convert infinity to integer")
		}
		r := new(apd.Decimal).Set(d)
		if err := roundScale(r, 0); err != nil {
			return nil, err
		}
		i, err := r.Int64()
		if err != nil || i < math.MinInt32 || i > math.MaxInt32 {
			return nil, intRangeError(types.Int4)
		}
		n = i
	}
	if n < 1 || n > 3999 {
		return strings.Repeat("#", 15), nil
	}
	var b strings.Builder
	for _, step := range romanSteps {
		for n >= step.value {
			b.WriteString(step.digits)
			n -= step.value
		}
	}
	s := b.String()
	if t.roman == "rn" {
		s = strings.ToLower(s)
	}
	if t.fm {
		return s, nil
	}
	return strings.Repeat(" ", 15-len(s)) + s, nil
}

var romanSteps = []struct {
	value  int64
	digits string
}{
	{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"},
	{50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"},
}

// scientificNumber is to_char's EEEE: one digit before the point, as many
// after it as the template has, and the exponent, after a space or a minus
// sign. Integers and floats are written as C's "%+.*e" writes them; a
// numeric as PostgreSQL's numeric_out_sci does, which takes the exponent
// before it rounds (9.99 with one decimal is 10.0e+00). NaN and the
// infinities are '#' in the template's shape.
func scientificNumber(v types.Value, d *apd.Decimal, t numberTemplate) string {
	post := len(t.frac)
	hashes := func() string {
		return " " + strings.Repeat("#", t.intDigits()) + "." + strings.Repeat("#", post+4)
	}
	var out string
	switch x := v.(type) {
	case int64:
		out = strconv.FormatFloat(float64(x), 'e', post, 64)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return hashes()
		}
		out = strconv.FormatFloat(x, 'e', post, 64)
	default:
		if d.Form != apd.Finite {
			return hashes()
		}
		exp := 0
		if !d.IsZero() {
			exp = int(d.NumDigits()) + int(d.Exponent) - 1
		}
		sig := new(apd.Decimal).Set(d)
		sig.Exponent -= int32(exp)
		if err := roundScale(sig, post); err != nil {
			return hashes()
		}
		sign := ""
		if sig.Negative && !sig.IsZero() {
			sign = "-"
		}
		sig.Negative = false
		es := "+"
		if exp < 0 {
			es, exp = "-", -exp
		}
		out = fmt.Sprintf("%s%se%s%02d", sign, sig.Text('f'), es, exp)
	}
	if !strings.HasPrefix(out, "-") {
		out = " " + out
	}
	return out
}
