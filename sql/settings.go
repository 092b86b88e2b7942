package sql

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"cdcdb/pgerror"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// settingDef describes one run-time parameter (GUC).
type settingDef struct {
	// name is the canonical spelling SHOW and ParameterStatus use.
	name string
	def  string
	// report marks the parameters PostgreSQL 15 reports to the client in
	// ParameterStatus, at startup and whenever they change.
	report   bool
	readOnly bool
	// normalize validates a new value and returns its canonical form.
	normalize func(s *Session, v string) (string, error)
	// show and assign, when set, make the parameter a view of session
	// state rather than a stored value: SHOW reads it with show, SET
	// changes it with assign (the transaction_* parameters, txmodes.go).
	show   func(s *Session) string
	assign func(s *Session, v string) error
	desc   string
}

var settingDefs = map[string]*settingDef{}

func defineSetting(d *settingDef) { settingDefs[strings.ToLower(d.name)] = d }

// settingDefault is what a session starts with and RESET returns to: the
// server's default when it sets one (Options.Settings), else the built-in
// one.
func (e *Engine) settingDefault(ln string, d *settingDef) string {
	if v, ok := e.settingDefaults[ln]; ok {
		return v
	}
	return d.def
}

func init() {
	for _, d := range []*settingDef{
		{name: "application_name", def: "", report: true, desc: "Sets the application name to be reported in statistics and logs."},
		{name: "client_encoding", def: "UTF8", report: true, normalize: normalizeEncoding, desc: "Sets the client's character set encoding."},
		{name: "DateStyle", def: "ISO, MDY", report: true, normalize: normalizeDateStyle, desc: "Sets the display format for date and time values."},
		{name: "default_transaction_read_only", def: "off", report: true, normalize: normalizeBool, desc: "Sets the default read-only status of new transactions."},
		{name: "in_hot_standby", def: "off", report: true, readOnly: true, desc: "Shows whether hot standby is currently active."},
		{name: "integer_datetimes", def: "on", report: true, readOnly: true, desc: "Shows whether datetimes are integer based."},
		{name: "IntervalStyle", def: "postgres", report: true, normalize: oneOf("postgres"), desc: "Sets the display format for interval values."},
		{name: "is_superuser", def: "on", report: true, readOnly: true, desc: "Shows whether the current user is a superuser."},
		{name: "server_encoding", def: "UTF8", report: true, readOnly: true, desc: "Shows the server (database) character set encoding."},
		{name: "server_version", def: catalogviews.ServerVersion, report: true, readOnly: true, desc: "Shows the server version."},
		{name: "server_version_num", def: catalogviews.ServerVersionNum, readOnly: true, desc: "Shows the server version as an integer."},
		{name: "session_authorization", def: "", report: true, desc: "Sets the session user name."},
		{name: "standard_conforming_strings", def: "on", report: true, normalize: onlyOn, desc: "Causes '...' strings to treat backslashes literally."},
		{name: "TimeZone", def: "UTC", report: true, normalize: normalizeTimeZone, desc: "Sets the time zone for displaying and interpreting time stamps."},
		{name: "search_path", def: `"$user", public`, normalize: normalizeSearchPath, desc: "Sets the schema search order for names that are not schema-qualified."},
		{name: "statement_timeout", def: "0", normalize: normalizeDuration, desc: "Sets the maximum allowed duration of any statement."},
		{name: "lock_timeout", def: "0", normalize: normalizeDuration, desc: "Sets the maximum allowed duration of any wait for a lock."},
		{name: "idle_in_transaction_session_timeout", def: "0", normalize: normalizeDuration, desc: "Sets the maximum allowed idle time between queries, when in a transaction."},
		{name: "extra_float_digits", def: "1", normalize: normalizeInt, desc: "Sets the number of digits displayed for floating-point values."},
		{name: "client_min_messages", def: "notice", normalize: oneOf("debug5", "debug4", "debug3", "debug2", "debug1", "log", "notice", "warning", "error"), desc: "Sets the message levels that are sent to the client."},
		{name: "transaction_isolation", def: "read committed", normalize: normalizeIsolation("transaction_isolation"), show: showIsolation, assign: assignIsolation, desc: "Sets the current transaction's isolation level."},
		{name: "default_transaction_isolation", def: "read committed", normalize: normalizeIsolation("default_transaction_isolation"), desc: "Sets the transaction isolation level of each new transaction."},
		{name: "transaction_read_only", def: "off", normalize: normalizeBool, show: showReadOnly, assign: assignReadOnly, desc: "Sets the current transaction's read-only status."},
		{name: "transaction_deferrable", def: "off", normalize: normalizeBool, show: showDeferrable, assign: assignDeferrable, desc: "Whether to defer a read-only serializable transaction until it can be executed with no possible serialization failures."},
		{name: "default_transaction_deferrable", def: "off", normalize: normalizeBool, desc: "Sets the default deferrable status of new transactions."},
		{name: "max_identifier_length", def: "63", readOnly: true, desc: "Shows the maximum identifier length."},
		{name: "bytea_output", def: "hex", normalize: oneOf("hex"), desc: "Sets the output format for bytea."},
		{name: "synchronous_commit", def: "on", normalize: oneOf("on", "off", "local", "remote_write", "remote_apply"), desc: "Sets the current transaction's synchronization level."},
		{name: "row_security", def: "on", normalize: normalizeBool, desc: "Enable row security."},
		// cdcdb never synchronizes scans (each starts at its table's
		// first key), which both values allow: pg_dump sets it off.
		{name: "synchronize_seqscans", def: "on", normalize: normalizeBool, desc: "Enable synchronized sequential scans."},
		{name: "work_mem", def: "4MB", normalize: normalizeWorkMem, desc: "Sets the maximum memory to be used for query workspaces."},
		{name: "max_connections", def: "100", readOnly: true, desc: "Sets the maximum number of concurrent connections."},
		{name: "lc_collate", def: "C", readOnly: true, desc: "Shows the collation order locale."},
		{name: "lc_ctype", def: "C", readOnly: true, desc: "Shows the character classification and case conversion locale."},
		{name: "lc_messages", def: "C", desc: "Sets the language in which messages are displayed."},
		{name: "lc_monetary", def: "C", desc: "Sets the locale for formatting monetary amounts."},
		{name: "lc_numeric", def: "C", desc: "Sets the locale for formatting numbers."},
		{name: "lc_time", def: "C", desc: "Sets the locale for formatting date and time values."},
		{name: "block_size", def: "8192", readOnly: true, desc: "Shows the size of a disk block."},
		{name: "cdcdb.dialect", def: parse.DialectPostgres.String(), normalize: oneOf(dialectNames()...), desc: "SQL dialect of this session: postgres or databricks."},
	} {
		defineSetting(d)
	}
}

// dialectNames are the values cdcdb.dialect takes.
func dialectNames() []string {
	var names []string
	for _, d := range parse.Dialects() {
		names = append(names, d.String())
	}
	return names
}

func oneOf(allowed ...string) func(*Session, string) (string, error) {
	return func(_ *Session, v string) (string, error) {
		lv := strings.ToLower(v)
		for _, a := range allowed {
			if lv == a {
				return a, nil
			}
		}
		return "", pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter: \"%s\"", v).
			WithHint("Available values: %s.", strings.Join(allowed, ", "))
	}
}

func normalizeBool(_ *Session, v string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true", "yes", "1", "t", "y":
		return "on", nil
	case "off", "false", "no", "0", "f", "n":
		return "off", nil
	}
	return "", pgerror.New(pgerror.InvalidParameterValue, "parameter requires a Boolean value")
}

func onlyOn(s *Session, v string) (string, error) {
	b, err := normalizeBool(s, v)
	if err != nil {
		return "", err
	}
	if b != "on" {
		return "", pgerror.New(pgerror.FeatureNotSupported, "cdcdb supports only standard_conforming_strings = on")
	}
	return b, nil
}

func normalizeInt(_ *Session, v string) (string, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return "", pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter: \"%s\"", v)
	}
	return strconv.Itoa(n), nil
}

func normalizeEncoding(_ *Session, v string) (string, error) {
	switch strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(v), "-", "")) {
	case "UTF8", "UNICODE":
		return "UTF8", nil
	}
	return "", pgerror.New(pgerror.FeatureNotSupported, "cdcdb supports only the UTF8 client encoding, not \"%s\"", v)
}

func normalizeDateStyle(_ *Session, v string) (string, error) {
	u := strings.ToUpper(v)
	if strings.Contains(u, "ISO") || u == "" || strings.TrimSpace(u) == "MDY" {
		return "ISO, MDY", nil
	}
	return "", pgerror.New(pgerror.FeatureNotSupported, "cdcdb supports only DateStyle ISO, not \"%s\"", v)
}

// normalizeIsolation validates an isolation level for the parameter name.
func normalizeIsolation(name string) func(*Session, string) (string, error) {
	return func(_ *Session, v string) (string, error) {
		if l, ok := parseIsolation(v); ok {
			return l.String(), nil
		}
		return "", pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v).
			WithHint("Available values: serializable, repeatable read, read committed, read uncommitted.")
	}
}

func normalizeDuration(_ *Session, v string) (string, error) {
	if _, err := parseDurationSetting(v); err != nil {
		return "", err
	}
	return strings.TrimSpace(v), nil
}

// parseDurationSetting reads a time setting: a number of milliseconds or a
// number with a unit (ms, s, min, h, d).
func parseDurationSetting(v string) (time.Duration, error) {
	s := strings.TrimSpace(strings.ToLower(v))
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	n, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter: \"%s\"", v)
	}
	unit := map[string]time.Duration{"": time.Millisecond, "ms": time.Millisecond, "s": time.Second, "min": time.Minute, "h": time.Hour, "d": 24 * time.Hour}
	u, ok := unit[strings.TrimSpace(s[i:])]
	if !ok {
		return 0, pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter: \"%s\"", v).WithHint("Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".")
	}
	return time.Duration(n * float64(u)), nil
}

func normalizeTimeZone(_ *Session, v string) (string, error) {
	name := strings.TrimSpace(v)
	if _, err := loadLocation(name); err != nil {
		return "", pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"TimeZone\": \"%s\"", v)
	}
	return name, nil
}

// loadLocation resolves a time zone setting: a zone name, UTC/GMT, or a
// numeric offset in hours (SET TIME ZONE -5 means UTC-5, the SQL-standard
// sign).
func loadLocation(name string) (*time.Location, error) {
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

func normalizeSearchPath(_ *Session, v string) (string, error) {
	parts := splitSearchPath(v)
	for i, p := range parts {
		if p != `"$user"` && p != "$user" && strings.ContainsAny(p, " ,") {
			parts[i] = `"` + p + `"`
		}
	}
	return strings.Join(parts, ", "), nil
}

// splitSearchPath splits a search_path value into schema names, unquoting
// double-quoted ones (but keeping "$user" recognizable).
func splitSearchPath(v string) []string {
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

// settingNames lists every setting's canonical name, sorted, for SHOW ALL.
func settingNames() []string {
	var names []string
	for _, d := range settingDefs {
		names = append(names, d.name)
	}
	sort.Slice(names, func(i, j int) bool { return strings.ToLower(names[i]) < strings.ToLower(names[j]) })
	return names
}
