package source

import (
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"cdcdb/pgerror"
)

func validConfig() Config {
	return Config{
		Name:        "orders",
		Connection:  Connection{Host: "db.example", User: "u", Password: "secret-pw", Database: "shop"},
		Publication: "pub",
		Tables:      []TableRef{{Schema: "public", Table: "orders"}, {Table: "lines", As: "order_lines"}},
	}
}

func TestConfigValidate(t *testing.T) {
	if err := func() *Config { c := validConfig(); return &c }().Validate(); err != nil {
		t.Fatalf("a valid configuration: %v", err)
	}
	cases := []struct {
		name string
		edit func(*Config)
		code string
		want string
	}{
		{"no host", func(c *Config) { c.Connection.Host = "" }, pgerror.InvalidParameterValue, "HOST"},
		{"bad port", func(c *Config) { c.Connection.Port = 70000 }, pgerror.InvalidParameterValue, "PORT 70000"},
		{"no user", func(c *Config) { c.Connection.User = "" }, pgerror.InvalidParameterValue, "USER"},
		{"no database", func(c *Config) { c.Connection.Database = "" }, pgerror.InvalidParameterValue, "DATABASE"},
		{"bad SSL mode", func(c *Config) { c.Connection.SSLMode = "maybe" }, pgerror.InvalidParameterValue, `invalid SSL MODE "maybe"`},
		{"no publication", func(c *Config) { c.Publication = "" }, pgerror.InvalidParameterValue, "PUBLICATION"},
		{"slot with capitals", func(c *Config) { c.Slot = "MySlot" }, pgerror.InvalidName, "contains invalid character"},
		{"slot with a quote", func(c *Config) { c.Slot = `x" TEMPORARY` }, pgerror.InvalidName, "contains invalid character"},
		{"slot too long", func(c *Config) { c.Slot = strings.Repeat("s", 64) }, pgerror.NameTooLong, "too long"},
		{"no tables", func(c *Config) { c.Tables = nil }, pgerror.InvalidParameterValue, "at least one table"},
		{"same name twice", func(c *Config) { c.Tables = append(c.Tables, TableRef{Schema: "archive", Table: "orders"}) }, pgerror.DuplicateTable, `"orders" is named twice`},
		{"same upstream twice", func(c *Config) { c.Tables = append(c.Tables, TableRef{Table: "orders", As: "again"}) }, pgerror.DuplicateTable, `"public"."orders" is listed twice`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := validConfig()
			c.edit(&cfg)
			err := cfg.Validate()
			if pgerror.CodeOf(err) != c.code || err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v (SQLSTATE %s), want %s saying %q", err, pgerror.CodeOf(err), c.code, c.want)
			}
			if _, err := New(cfg, newModelSink()); err == nil {
				t.Errorf("New accepted it")
			}
		})
	}
}

func TestParseSSLMode(t *testing.T) {
	for _, s := range []string{"disable", "allow", "prefer", "require", "verify-ca", "verify-full", "REQUIRE"} {
		if m, err := ParseSSLMode(s); err != nil || !strings.EqualFold(string(m), s) {
			t.Errorf("%q: %q, %v", s, m, err)
		}
	}
	if _, err := ParseSSLMode("on"); pgerror.CodeOf(err) != pgerror.InvalidParameterValue {
		t.Errorf("\"on\": %v", err)
	}
}

func TestGeneratedSlotName(t *testing.T) {
	for _, source := range []string{"orders", "Orders-EU.2024", strings.Repeat("long name ", 20), ""} {
		name := generatedSlotName(source)
		if err := validateSlotName(name); err != nil {
			t.Errorf("%q gives %q: %v", source, name, err)
		}
		if !strings.HasPrefix(name, "cdcdb_") {
			t.Errorf("%q gives %q", source, name)
		}
	}
	if a, b := generatedSlotName("x"), generatedSlotName("x"); a == b {
		t.Errorf("two slot names for one source name are the same")
	}
}

// TestConnectionHidesPassword: printing or logging a Connection never
// shows its password, and errors that hold it are redacted.
func TestConnectionHidesPassword(t *testing.T) {
	c := validConfig().Connection
	for _, s := range []string{fmt.Sprint(c), fmt.Sprintf("%v %+v %#v %s", c, c, c, c), c.LogValue().String(), c.String()} {
		if strings.Contains(s, c.Password) {
			t.Errorf("%q shows the password", s)
		}
	}
	r := redactor{c.Password}
	err := r.error(Permanent(errors.New(`database "secret-pw" does not exist`)))
	if strings.Contains(err.Error(), "secret-pw") || !IsPermanent(err) {
		t.Errorf("redacted: %v (permanent %v)", err, IsPermanent(err))
	}
	plain := errors.New("no password here")
	if r.error(plain) != plain {
		t.Errorf("an error without the password was changed")
	}
	if (redactor{}).text("x") != "x" {
		t.Errorf("an empty password redacts")
	}
}

// TestConnectionSettings: the password goes in the parsed configuration,
// no environment or ~/.pgpass can change where or how the Follower
// connects, and both connections fix how values are written as text.
func TestConnectionSettings(t *testing.T) {
	t.Setenv("PGPASSWORD", "from-environment")
	t.Setenv("PGOPTIONS", "-c DateStyle=German")
	t.Setenv("PGSSLMODE", "disable")
	c := Connection{Host: "127.0.0.1", Port: 6543, User: "u o'k", Database: `d\b`, SSLMode: SSLVerifyFull}
	for _, replication := range []bool{false, true} {
		cfg, err := c.pgconnConfig(replication)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Password != "" || cfg.User != c.User || cfg.Database != c.Database || cfg.Port != 6543 || cfg.TLSConfig == nil || cfg.TLSConfig.InsecureSkipVerify {
			t.Errorf("replication %v: %+v", replication, cfg)
		}
		if cfg.RuntimeParams["DateStyle"] != "ISO, MDY" || cfg.RuntimeParams["TimeZone"] != "UTC" || cfg.RuntimeParams["options"] != "" {
			t.Errorf("replication %v: runtime parameters %v", replication, cfg.RuntimeParams)
		}
		if got := cfg.RuntimeParams["replication"]; (got == "database") != replication {
			t.Errorf("replication %v: replication=%q", replication, got)
		}
	}
}

func TestCheckpointRoundTrip(t *testing.T) {
	cp := Checkpoint{
		Phase: PhaseStreaming, Slot: "s", SlotCreated: true, Position: 0x1_0000_0010, LastSeq: 77,
		Tables: []Table{*accountsTable()},
	}
	b, err := cp.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Checkpoint
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, cp) {
		t.Errorf("round trip:\n%+v\n%+v", back, cp)
	}
	if !strings.Contains(string(b), `"Phase":"streaming"`) {
		t.Errorf("encoding %s", b)
	}
	if err := back.UnmarshalBinary([]byte(`{"Format":2}`)); err == nil {
		t.Errorf("an unknown format decoded")
	}
}

func TestLSN(t *testing.T) {
	for _, s := range []string{"0/0", "0/16B3748", "16/B374D848", "FFFFFFFF/FFFFFFFF"} {
		l, err := ParseLSN(s)
		if err != nil || l.String() != s {
			t.Errorf("%q: %v, %v", s, l, err)
		}
	}
	for _, s := range []string{"", "16B3748", "0/xyz", "1/2/3"} {
		if _, err := ParseLSN(s); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
}

func TestStateNames(t *testing.T) {
	want := map[State]string{StateStarting: "starting", StateSnapshotting: "snapshotting", StateStreaming: "streaming",
		StateRetrying: "retrying", StateFailed: "failed", StateStopped: "stopped"}
	for s, name := range want {
		if s.String() != name {
			t.Errorf("%d: %q", s, s)
		}
	}
	if OpSnapshot.String() != "r" || OpInsert.String() != "c" || OpUpdate.String() != "u" || OpDelete.String() != "d" {
		t.Errorf("ops spell %s %s %s %s", OpSnapshot, OpInsert, OpUpdate, OpDelete)
	}
}

// TestRetriesBackOff: waits between failed attempts double up to the cap,
// with jitter, and a Follower whose Sink always fails keeps retrying.
func TestRetriesBackOff(t *testing.T) {
	for _, d := range []time.Duration{time.Millisecond, time.Second} {
		for range 100 {
			if j := jitter(d); j < d*8/10 || j > d*12/10 {
				t.Fatalf("jitter(%v) = %v", d, j)
			}
		}
	}
	cfg := validConfig()
	cfg.Connection.Host, cfg.Connection.Port = "127.0.0.1", 1 // nothing listens
	cfg.RetryMin, cfg.RetryMax = 10*time.Millisecond, 40*time.Millisecond
	logs := &logBuffer{}
	cfg.Logger = slog.New(slog.NewTextHandler(logs, nil))
	f, err := New(cfg, newModelSink())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "five retries", 30*time.Second, func() bool { return strings.Count(logs.String(), "retrying") >= 5 })
	_ = f.Close()
	st := f.Status()
	if st.State != StateStopped || !strings.Contains(st.LastError, "connect to 127.0.0.1:1") {
		t.Errorf("status %+v", st)
	}
	waits := []string{}
	for _, line := range strings.Split(logs.String(), "\n") {
		if i := strings.Index(line, "after="); i >= 0 {
			waits = append(waits, line[i+len("after="):])
		}
	}
	if len(waits) < 5 || waits[0] != "10ms" || waits[1] != "20ms" || waits[2] != "40ms" || waits[3] != "40ms" {
		t.Errorf("waits %v, want 10ms 20ms 40ms 40ms ...", waits)
	}
}
