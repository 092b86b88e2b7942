package settings

import (
	"errors"
	"maps"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdcdb/pgerror"
	"cdcdb/sql/pgdefs"
)

func sqlState(err error) string {
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

func TestCheckValues(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		want        string // canonical value, when state is ""
		state       string
	}{
		{"row_security", "TRUE", "on", ""},
		{"row_security", " no ", "off", ""},
		{"row_security", "maybe", "", pgerror.InvalidParameterValue},
		{"client_min_messages", "WARNING", "warning", ""},
		{"client_min_messages", "loud", "", pgerror.InvalidParameterValue},
		{"default_transaction_isolation", "REPEATABLE   read", "repeatable read", ""},
		{"default_transaction_isolation", "snapshot", "", pgerror.InvalidParameterValue},
		{"extra_float_digits", " 3", "3", ""},
		{"extra_float_digits", "2.6", "3", ""},
		{"extra_float_digits", "-15", "-15", ""},
		{"extra_float_digits", "4", "", pgerror.InvalidParameterValue},
		{"extra_float_digits", "2 ms", "", pgerror.InvalidParameterValue},
		{"extra_float_digits", "three", "", pgerror.InvalidParameterValue},
		{"client_encoding", "utf-8", "UTF8", ""},
		{"client_encoding", "LATIN1", "", pgerror.FeatureNotSupported},
		{"standard_conforming_strings", "off", "", pgerror.FeatureNotSupported},
		{"search_path", `Public, "My Schema", "$user"`, `public, "My Schema", "$user"`, ""},
		{"TimeZone", "Europe/Paris", "Europe/Paris", ""},
		{"timezone", "Mars/Olympus", "", pgerror.InvalidParameterValue},
		{"statement_timeout", "1min", "1min", ""},
		{"statement_timeout", "10 parsecs", "", pgerror.InvalidParameterValue},
		{"statement_timeout", "60000", "1min", ""},
		{"statement_timeout", " 1500 ms ", "1500ms", ""},
		{"statement_timeout", "1.5s", "1500ms", ""},
		{"statement_timeout", "3600s", "1h", ""},
		{"statement_timeout", "2d", "2d", ""},
		{"statement_timeout", "1e3", "1s", ""},
		{"statement_timeout", "2500us", "2ms", ""},
		{"statement_timeout", "0", "0", ""},
		{"statement_timeout", "1MIN", "", pgerror.InvalidParameterValue},
		{"statement_timeout", "-1", "", pgerror.InvalidParameterValue},
		{"statement_timeout", "3000000000", "", pgerror.InvalidParameterValue},
		{"lock_timeout", "25d", "", pgerror.InvalidParameterValue},
		{"lock_timeout", "24d", "24d", ""},
		{"work_mem", "8192", "8MB", ""},
		{"work_mem", "1000kB", "1000kB", ""},
		{"work_mem", "1GB", "1GB", ""},
		{"work_mem", "65536B", "64kB", ""},
		{"work_mem", "32kB", "", pgerror.InvalidParameterValue},
		{"work_mem", "4mb", "", pgerror.InvalidParameterValue},
		{"work_mem", "lots", "", pgerror.InvalidParameterValue},
		{"server_encoding", "LATIN1", "", pgerror.CantChangeRuntimeParam},
		{"block_size", "8192", "", pgerror.CantChangeRuntimeParam},
	} {
		d, ok := Lookup(strings.ToLower(tc.name))
		if !ok {
			t.Fatalf("%s: not defined", tc.name)
		}
		got, err := d.Check(tc.value)
		if tc.state != "" {
			if sqlState(err) != tc.state {
				t.Errorf("SET %s = %q: error %v, want SQLSTATE %s", tc.name, tc.value, err, tc.state)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("SET %s = %q: %q, %v; want %q", tc.name, tc.value, got, err, tc.want)
		}
	}
}

// TestCheckMessages pins PostgreSQL 15's messages for bad values.
func TestCheckMessages(t *testing.T) {
	for _, tc := range []struct{ name, value, want string }{
		{"statement_timeout", "-1", `-1 ms is outside the valid range for parameter "statement_timeout" (0 .. 2147483647)`},
		{"work_mem", "32kB", `32 kB is outside the valid range for parameter "work_mem" (64 .. 2147483647)`},
		{"statement_timeout", "1 fortnight", `invalid value for parameter "statement_timeout": "1 fortnight"`},
		{"row_security", "maybe", `parameter "row_security" requires a Boolean value`},
		{"client_min_messages", "loud", `invalid value for parameter "client_min_messages": "loud"`},
		{"timezone", "Nowhere/City", `invalid value for parameter "TimeZone": "Nowhere/City"`},
		{"block_size", "1", `parameter "block_size" cannot be changed`},
		{"extra_float_digits", "-16", `-16 is outside the valid range for parameter "extra_float_digits" (-15 .. 3)`},
		{"lock_timeout", "25d", `invalid value for parameter "lock_timeout": "25d"`},
	} {
		d, _ := Lookup(tc.name)
		_, err := d.Check(tc.value)
		var pe *pgerror.Error
		if !errors.As(err, &pe) || pe.Message != tc.want {
			t.Errorf("SET %s = %q: %v, want %q", tc.name, tc.value, err, tc.want)
		}
	}
	d, _ := Lookup("work_mem")
	_, err := d.Check("4 pages")
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Hint != `Valid units for this parameter are "B", "kB", "MB", "GB", and "TB".` {
		t.Errorf("work_mem = '4 pages': %+v, want the hint listing memory units", err)
	}
}

func TestParseDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"250", 250 * time.Millisecond, true},
		{"250ms", 250 * time.Millisecond, true},
		{"1.5s", 1500 * time.Millisecond, true},
		{"2min", 2 * time.Minute, true},
		{"1h", time.Hour, true},
		{"1d", 24 * time.Hour, true},
		{"1500us", 2 * time.Millisecond, true},
		{"1 fortnight", 0, false},
		{"soon", 0, false},
	} {
		got, err := ParseDuration(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestInUnit(t *testing.T) {
	for _, tc := range []struct{ value, unit, want string }{
		{"1min", "ms", "60000"},
		{"0", "ms", "0"},
		{"4MB", "kB", "4096"},
		{"64kB", "kB", "64"},
		{"1GB", "kB", "1048576"},
		{"2048", "kB", "2048"},
		{"1000kB", "kB", "1000"},
		{"1500ms", "ms", "1500"},
		{"on", "", "on"},
	} {
		if got := inUnit(tc.value, tc.unit); got != tc.want {
			t.Errorf("inUnit(%q, %q) = %q, want %q", tc.value, tc.unit, got, tc.want)
		}
	}
}

func TestDefineRefusesDuplicates(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("defining work_mem a second time did not panic")
		}
	}()
	Define(&Def{Name: "Work_Mem"})
}

// scopeStep is one statement of a scope test, run against a session's
// values and its block's record of changes.
type scopeStep struct {
	op    string // "set", "local", "savepoint", "rollback to", "commit", "rollback"
	value string
}

// TestScope runs transaction blocks that set one parameter and checks its
// value after each, with the rules PostgreSQL applies: the model is the
// session's values map, the block's Changes and savepoints' copies of both.
func TestScope(t *testing.T) {
	const ln = "work_mem"
	for _, tc := range []struct {
		name  string
		steps []scopeStep
		want  []string // the value after each step
	}{
		{"commit keeps SET", []scopeStep{{"set", "8MB"}, {"commit", ""}}, []string{"8MB", "8MB"}},
		{"rollback undoes SET", []scopeStep{{"set", "8MB"}, {"rollback", ""}}, []string{"8MB", "4MB"}},
		{"SET LOCAL ends with the block", []scopeStep{{"local", "8MB"}, {"commit", ""}}, []string{"8MB", "4MB"}},
		{"SET after SET LOCAL is kept", []scopeStep{{"local", "8MB"}, {"set", "16MB"}, {"commit", ""}}, []string{"8MB", "16MB", "16MB"}},
		{"SET LOCAL after SET: SET is kept", []scopeStep{{"set", "16MB"}, {"local", "8MB"}, {"commit", ""}}, []string{"16MB", "8MB", "16MB"}},
		{"rollback to savepoint undoes SET", []scopeStep{{"set", "8MB"}, {"savepoint", ""}, {"set", "16MB"}, {"rollback to", ""}, {"commit", ""}},
			[]string{"8MB", "8MB", "16MB", "8MB", "8MB"}},
		{"rollback to savepoint undoes SET LOCAL", []scopeStep{{"savepoint", ""}, {"local", "16MB"}, {"rollback to", ""}, {"commit", ""}},
			[]string{"4MB", "16MB", "4MB", "4MB"}},
		{"rollback after savepoint undoes all", []scopeStep{{"set", "8MB"}, {"savepoint", ""}, {"set", "16MB"}, {"rollback", ""}},
			[]string{"8MB", "8MB", "16MB", "4MB"}},
	} {
		values := map[string]string{ln: "4MB", "custom.x": "kept"}
		var block Changes
		var savedValues map[string]string
		var savedChanges Changes
		for i, st := range tc.steps {
			switch st.op {
			case "set", "local":
				block.Record(ln, values[ln], st.value, st.op == "local")
				values[ln] = st.value
			case "savepoint":
				savedValues, savedChanges = maps.Clone(values), block.Clone()
			case "rollback to":
				maps.Copy(values, RolledBack(values, savedValues))
				block = savedChanges.Clone()
			case "commit", "rollback":
				maps.Copy(values, block.AtEnd(st.op == "commit"))
				block = nil
			}
			if values[ln] != tc.want[i] {
				t.Errorf("%s: after step %d (%s %s) %s = %q, want %q", tc.name, i+1, st.op, st.value, ln, values[ln], tc.want[i])
			}
			if values["custom.x"] != "kept" {
				t.Errorf("%s: a parameter the block never set changed to %q", tc.name, values["custom.x"])
			}
		}
	}
}

func TestRolledBackForgetsParametersSetSince(t *testing.T) {
	got := RolledBack(map[string]string{"a": "1", "my.new": "x"}, map[string]string{"a": "1"})
	if len(got) != 1 || got["my.new"] != "" {
		t.Fatalf("RolledBack = %v, want only my.new reset to empty", got)
	}
}

func TestSendsNotice(t *testing.T) {
	for _, tc := range []struct {
		min, severity string
		want          bool
	}{
		{"notice", "NOTICE", true},
		{"notice", "DEBUG1", false},
		{"warning", "NOTICE", false},
		{"warning", "WARNING", true},
		{"error", "INFO", true},
		{"notice", "LOG", false},
	} {
		if got := SendsNotice(tc.min, tc.severity); got != tc.want {
			t.Errorf("SendsNotice(%q, %q) = %v, want %v", tc.min, tc.severity, got, tc.want)
		}
	}
}

// TestDefinitionsMatchPostgres holds the registry to PostgreSQL 15's own
// description of its parameters (postgres --describe-config, package
// pgdefs): the context of each parameter both have, and the bounds of each
// integer one. A parameter cdcdb keeps from SET that PostgreSQL lets a user
// set (track_counts: cdcdb counts nothing) is named here with its reason.
func TestDefinitionsMatchPostgres(t *testing.T) {
	stricter := map[string]bool{"track_counts": true}
	for ln, d := range All() {
		pg, ok := pgdefs.SettingByName(ln)
		if !ok {
			continue
		}
		if got := d.Context.String(); got != pg.Context && !stricter[ln] {
			t.Errorf("%s: context %s, PostgreSQL's is %s", d.Name, got, pg.Context)
		}
		if d.Integer && (strconv.FormatInt(d.Min, 10) != pg.Min || strconv.FormatInt(d.Max, 10) != pg.Max) {
			t.Errorf("%s: bounds %d .. %d, PostgreSQL's are %s .. %s", d.Name, d.Min, d.Max, pg.Min, pg.Max)
		}
	}
	d, _ := Lookup("max_connections")
	_, err := d.Check("10")
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.CantChangeRuntimeParam ||
		pe.Message != `parameter "max_connections" cannot be changed without restarting the server` {
		t.Errorf("SET max_connections: %v", err)
	}
}

func TestCannotChangeNamesTheContext(t *testing.T) {
	for _, tc := range []struct {
		context Context
		want    string
	}{
		{ContextInternal, `parameter "p" cannot be changed`},
		{ContextPostmaster, `parameter "p" cannot be changed without restarting the server`},
		{ContextSighup, `parameter "p" cannot be changed now`},
		{ContextBackend, `parameter "p" cannot be set after connection start`},
	} {
		d := &Def{Name: "p", Context: tc.context}
		_, err := d.Check("x")
		var pe *pgerror.Error
		if !errors.As(err, &pe) || pe.Code != pgerror.CantChangeRuntimeParam || pe.Message != tc.want {
			t.Errorf("%s: %v, want 55P02 %q", tc.context, err, tc.want)
		}
	}
	for _, c := range []Context{ContextUser, ContextSuperuser} {
		if !c.Settable() {
			t.Errorf("%s parameters are settable", c)
		}
	}
}

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		def          *Def
		value, reset string
		want         Description
	}{
		{mustLookup(t, "work_mem"), "8MB", "4MB", Description{Name: "work_mem", Setting: "8192", Unit: "kB",
			Category: "Resource Usage / Memory", Context: "user", VarType: "integer", Source: "session",
			Min: "64", Max: "2147483647", BootVal: "4096", ResetVal: "4096"}},
		{mustLookup(t, "statement_timeout"), "1s", "1s", Description{Name: "statement_timeout", Setting: "1000", Unit: "ms",
			Category: "Client Connection Defaults / Statement Behavior", Context: "user", VarType: "integer", Source: "command line",
			Min: "0", Max: "2147483647", BootVal: "0", ResetVal: "1000"}},
		{mustLookup(t, "block_size"), "8192", "8192", Description{Name: "block_size", Setting: "8192",
			Category: "Preset Options", Context: "internal", VarType: "integer", Source: "override", BootVal: "8192", ResetVal: "8192"}},
		{&Def{Name: "cdcdb.test_only", Default: "on"}, "on", "on", Description{Name: "cdcdb.test_only", Setting: "on",
			Category: "Customized Options", Context: "user", VarType: "bool", Source: "default", BootVal: "on", ResetVal: "on"}},
	} {
		got := tc.def.Describe(tc.value, tc.reset)
		got.ShortDesc, got.ExtraDesc = "", "" // PostgreSQL's texts, pinned by pgdefs
		if got != tc.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.def.Name, got, tc.want)
		}
	}
}

func mustLookup(t *testing.T, ln string) *Def {
	d, ok := Lookup(ln)
	if !ok {
		t.Fatalf("%s is not defined", ln)
	}
	return d
}
