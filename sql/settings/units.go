package settings

import (
	"strconv"
	"strings"
)

// InUnit converts a duration or memory setting to a number of unit, as
// pg_settings shows it; a value it cannot read is returned as it is.
func InUnit(v, unit string) string {
	switch unit {
	case "ms":
		d, err := ParseDuration(v)
		if err != nil {
			return v
		}
		return strconv.FormatInt(d.Milliseconds(), 10)
	case "kB":
		s := strings.TrimSpace(strings.ToUpper(v))
		mult := int64(1)
		for suffix, m := range map[string]int64{"KB": 1, "MB": 1024, "GB": 1024 * 1024, "TB": 1024 * 1024 * 1024} {
			if strings.HasSuffix(s, suffix) {
				s, mult = strings.TrimSpace(strings.TrimSuffix(s, suffix)), m
			}
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return v
		}
		return strconv.FormatInt(n*mult, 10)
	}
	return v
}

// VarType guesses a parameter's type, as pg_settings names it, from its
// default value: for the parameters PostgreSQL's description lacks.
func VarType(def string) string {
	switch def {
	case "on", "off":
		return "bool"
	}
	if _, err := strconv.Atoi(def); err == nil {
		return "integer"
	}
	return "string"
}
