package settings

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"cdcdb/pgerror"
)

// The base units of integer parameters, as pg_settings' unit column names
// them.
const (
	UnitMs = "ms"
	UnitKB = "kB"
)

// unitScale is one unit a value may be written in, and how many of the
// base unit it is.
type unitScale struct {
	name   string
	factor float64
}

// unitScales are the units of each base unit, largest first (the order
// SHOW picks one in). Unit names are case-sensitive, as in PostgreSQL.
var unitScales = map[string][]unitScale{
	UnitMs: {{"d", 24 * 60 * 60 * 1000}, {"h", 60 * 60 * 1000}, {"min", 60 * 1000}, {"s", 1000}, {"ms", 1}, {"us", 1.0 / 1000}},
	UnitKB: {{"TB", 1 << 30}, {"GB", 1 << 20}, {"MB", 1 << 10}, {"kB", 1}, {"B", 1.0 / 1024}},
}

// unitHints are PostgreSQL's hints for a unit it does not take.
var unitHints = map[string]string{
	UnitMs: `Valid units for this parameter are "us", "ms", "s", "min", "h", and "d".`,
	UnitKB: `Valid units for this parameter are "B", "kB", "MB", "GB", and "TB".`,
}

// leadingNumber is the number a quantity starts with: an integer or a
// decimal, with an exponent or not (PostgreSQL reads "1.5s" and "1e3").
var leadingNumber = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?`)

// parseQuantity reads a value of an integer parameter whose base unit is
// unit ("" for none): a number, in the base unit, or a number with a unit
// of its kind, rounded to a whole number of the base unit. It does not
// check the bounds.
func parseQuantity(name, unit, v string) (int64, error) {
	s := strings.TrimSpace(v)
	invalid := pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v)
	num := leadingNumber.FindString(s)
	if num == "" {
		return 0, invalid
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, invalid
	}
	if rest := strings.TrimSpace(s[len(num):]); rest != "" {
		found := false
		for _, u := range unitScales[unit] {
			if u.name == rest {
				f, found = f*u.factor, true
				break
			}
		}
		if !found && unitHints[unit] == "" {
			return 0, invalid
		}
		if !found {
			return 0, invalid.WithHint("%s", unitHints[unit])
		}
	}
	f = math.RoundToEven(f)
	if f > math.MaxInt32 || f < math.MinInt32 {
		return 0, invalid.WithHint("Value exceeds integer range.")
	}
	return int64(f), nil
}

// formatQuantity shows n of the base unit in the largest unit that holds
// it whole, as PostgreSQL's SHOW does (zero and negative values bare).
func formatQuantity(n int64, unit string) string {
	if n <= 0 {
		return strconv.FormatInt(n, 10)
	}
	for _, u := range unitScales[unit] {
		if u.factor >= 1 && n%int64(u.factor) == 0 {
			return strconv.FormatInt(n/int64(u.factor), 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10) + unit
}

// checkQuantity validates a value of an integer parameter: its number,
// its unit and its bounds, with PostgreSQL's errors.
func (d *Def) checkQuantity(v string) (string, error) {
	n, err := parseQuantity(d.Name, d.Unit, v)
	if err != nil {
		return "", err
	}
	if n < d.Min || n > d.Max {
		unit := ""
		if d.Unit != "" {
			unit = " " + d.Unit
		}
		return "", pgerror.New(pgerror.InvalidParameterValue, "%d%s is outside the valid range for parameter \"%s\" (%d .. %d)",
			n, unit, d.Name, d.Min, d.Max)
	}
	return formatQuantity(n, d.Unit), nil
}

// ParseDuration reads the value of a time parameter (whose base unit is
// milliseconds): a number of milliseconds, or a number with a unit.
func ParseDuration(v string) (time.Duration, error) {
	n, err := parseQuantity("", UnitMs, v)
	if err != nil {
		return 0, err
	}
	return time.Duration(n) * time.Millisecond, nil
}

// ParseMemoryKB reads the value of a memory parameter (whose base unit is
// kB): a number of kB, or a number with a unit.
func ParseMemoryKB(v string) (int64, error) {
	return parseQuantity("", UnitKB, v)
}

// inUnit converts a parameter's value to a number of its base unit, as
// pg_settings shows it; a value it cannot read is returned as it is.
func inUnit(v, unit string) string {
	if _, ok := unitScales[unit]; !ok {
		return v
	}
	n, err := parseQuantity("", unit, v)
	if err != nil {
		return v
	}
	return strconv.FormatInt(n, 10)
}

// varType guesses a parameter's type, as pg_settings names it, from its
// default value: for the parameters PostgreSQL's description lacks.
func varType(def string) string {
	switch def {
	case "on", "off":
		return "bool"
	}
	if _, err := strconv.Atoi(def); err == nil {
		return "integer"
	}
	return "string"
}
