package settings

import (
	"strconv"
	"strings"
	"time"

	"cdcdb/pgerror"
	"cdcdb/types"
)

// The normalizers of parameter values: each validates a value as SET
// gives it and returns the form SHOW shows.

// OneOf takes one of the allowed values, in any case.
func OneOf(allowed ...string) func(name, v string) (string, error) {
	return func(name, v string) (string, error) {
		lv := strings.ToLower(v)
		for _, a := range allowed {
			if lv == a {
				return a, nil
			}
		}
		return "", pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v).
			WithHint("Available values: %s.", strings.Join(allowed, ", "))
	}
}

// NormalizeBool takes PostgreSQL's spellings of a Boolean and shows on or off.
func NormalizeBool(name, v string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true", "yes", "1", "t", "y":
		return "on", nil
	case "off", "false", "no", "0", "f", "n":
		return "off", nil
	}
	return "", pgerror.New(pgerror.InvalidParameterValue, "parameter \"%s\" requires a Boolean value", name)
}

// OnOff is a Boolean as a parameter shows it.
func OnOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func onlyOn(name, v string) (string, error) {
	b, err := NormalizeBool(name, v)
	if err != nil {
		return "", err
	}
	if b != "on" {
		return "", pgerror.New(pgerror.FeatureNotSupported, "cdcdb supports only standard_conforming_strings = on")
	}
	return b, nil
}

func normalizeEncoding(_, v string) (string, error) {
	switch strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(v), "-", "")) {
	case "UTF8", "UNICODE":
		return "UTF8", nil
	}
	return "", pgerror.New(pgerror.FeatureNotSupported, "cdcdb supports only the UTF8 client encoding, not \"%s\"", v)
}

func normalizeDateStyle(_, v string) (string, error) {
	u := strings.ToUpper(v)
	if strings.Contains(u, "ISO") || u == "" || strings.TrimSpace(u) == "MDY" {
		return "ISO, MDY", nil
	}
	return "", pgerror.New(pgerror.FeatureNotSupported, "cdcdb supports only DateStyle ISO, not \"%s\"", v)
}

// isolationLevels are the values of the *_isolation parameters, as they
// show them.
var isolationLevels = []string{"serializable", "repeatable read", "read committed", "read uncommitted"}

// CanonicalIsolation returns an isolation level as the *_isolation
// parameters show it: words in lower case, one space between them.
func CanonicalIsolation(v string) (string, bool) {
	c := strings.ToLower(strings.Join(strings.Fields(v), " "))
	for _, l := range isolationLevels {
		if c == l {
			return c, true
		}
	}
	return "", false
}

// normalizeIsolation validates an isolation level.
func normalizeIsolation(name, v string) (string, error) {
	if c, ok := CanonicalIsolation(v); ok {
		return c, nil
	}
	return "", pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v).
		WithHint("Available values: %s.", strings.Join(isolationLevels, ", "))
}

func normalizeTimeZone(name, v string) (string, error) {
	zone := strings.TrimSpace(v)
	if _, err := LoadLocation(zone); err != nil {
		return "", pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v)
	}
	return zone, nil
}

// LoadLocation resolves a time zone setting: a zone name, UTC/GMT, or a
// numeric offset in hours (SET TIME ZONE -5 means UTC-5, the SQL-standard
// sign).
func LoadLocation(name string) (*time.Location, error) {
	switch strings.ToLower(name) {
	case "utc", "gmt", "z", "zulu", "etc/utc", "universal":
		return time.UTC, nil
	case "local", "default":
		return time.UTC, nil
	}
	if h, err := strconv.ParseFloat(name, 64); err == nil {
		return time.FixedZone(name, int(h*3600)), nil
	}
	return types.LoadZone(name)
}

func normalizeSearchPath(_, v string) (string, error) {
	parts := SplitSearchPath(v)
	for i, p := range parts {
		if p != `"$user"` && p != "$user" && strings.ContainsAny(p, " ,") {
			parts[i] = `"` + p + `"`
		}
	}
	return strings.Join(parts, ", "), nil
}

// SplitSearchPath splits a search_path value into schema names, unquoting
// double-quoted ones (but keeping "$user" recognizable).
func SplitSearchPath(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if p == `"$user"` || p == "$user" {
			out = append(out, `"$user"`)
			continue
		}
		if strings.HasPrefix(p, `"`) && strings.HasSuffix(p, `"`) && len(p) >= 2 {
			p = strings.ReplaceAll(p[1:len(p)-1], `""`, `"`)
		} else {
			p = strings.ToLower(p)
		}
		out = append(out, p)
	}
	return out
}

// noticeRanks orders client_min_messages' levels and the severities of
// notices, as PostgreSQL does: a notice is sent when its severity ranks at
// or above the setting. INFO is always sent.
var noticeRanks = map[string]int{
	"debug5": 0, "debug4": 1, "debug3": 2, "debug2": 3, "debug1": 4,
	"log": 5, "notice": 6, "warning": 7, "error": 8,
}

// SendsNotice reports whether a notice of severity reaches a client whose
// client_min_messages is minLevel.
func SendsNotice(minLevel, severity string) bool {
	if severity == "INFO" {
		return true
	}
	min, ok := noticeRanks[minLevel]
	rank, known := noticeRanks[strings.ToLower(severity)]
	return !ok || !known || rank >= min
}
