package wire

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// fakeRoles is a RoleDirectory over a map.
type fakeRoles map[string]LoginRole

func (f fakeRoles) LoginRole(name string) (LoginRole, error) { return f[name], nil }

// TestRoleLogin: with a RoleDirectory, each role logs in with its own
// password (stored as verifiers, whatever its spelling), and a role that
// does not exist, may not log in or has no password is refused as
// PostgreSQL refuses it.
func TestRoleLogin(t *testing.T) {
	roles := fakeRoles{
		"alice":   {Exists: true, CanLogin: true, Verifiers: SCRAMVerifiers("alice-pw")},
		"bob":     {Exists: true, CanLogin: true, Verifiers: SCRAMVerifiers("pässwörd ﬁ")},
		"group":   {Exists: true, CanLogin: false, Verifiers: SCRAMVerifiers("group-pw")},
		"nopass":  {Exists: true, CanLogin: true},
		"garbled": {Exists: true, CanLogin: true, Verifiers: []string{"SCRAM-SHA-256$x"}},
	}
	login := func(ts *testServer, user, password string) error {
		u := url.URL{Scheme: "postgres", User: url.UserPassword(user, password), Host: ts.addr, Path: "/db", RawQuery: "sslmode=disable"}
		conn, err := pgx.Connect(context.Background(), u.String())
		if err == nil {
			conn.Close(context.Background())
		}
		return err
	}

	t.Run("Password", func(t *testing.T) {
		ts := startServer(t, Config{Password: "server-pw", Roles: roles})
		for _, ok := range []struct{ user, password string }{{"alice", "alice-pw"}, {"bob", "pässwörd ﬁ"}} {
			if err := login(ts, ok.user, ok.password); err != nil {
				t.Errorf("%s with its password: %v", ok.user, err)
			}
		}
		for _, c := range []struct{ user, password, code, msg string }{
			{"alice", "server-pw", "28P01", `password authentication failed for user "alice"`},
			{"alice", "bob-pw", "28P01", `password authentication failed for user "alice"`},
			{"mallory", "server-pw", "28P01", `password authentication failed for user "mallory"`},
			{"nopass", "", "28P01", `password authentication failed for user "nopass"`},
			{"nopass", "x", "28P01", `password authentication failed for user "nopass"`},
			{"garbled", "x", "28P01", `password authentication failed for user "garbled"`},
			{"group", "group-pw", "28000", `role "group" is not permitted to log in`},
		} {
			pe := pgErrorOf(t, login(ts, c.user, c.password))
			if pe.Severity != "FATAL" || pe.Code != c.code || pe.Message != c.msg {
				t.Errorf("%s/%q: %s %s %q, want FATAL %s %q", c.user, c.password, pe.Severity, pe.Code, pe.Message, c.code, c.msg)
			}
		}
	})
	t.Run("Trust", func(t *testing.T) {
		ts := startServer(t, Config{Roles: roles})
		if err := login(ts, "nopass", ""); err != nil {
			t.Errorf("trust login: %v", err)
		}
		for _, c := range []struct{ user, msg string }{
			{"mallory", `role "mallory" does not exist`},
			{"group", `role "group" is not permitted to log in`},
		} {
			pe := pgErrorOf(t, login(ts, c.user, ""))
			if pe.Severity != "FATAL" || pe.Code != "28000" || pe.Message != c.msg {
				t.Errorf("%s: %s %s %q, want FATAL 28000 %q", c.user, pe.Severity, pe.Code, pe.Message, c.msg)
			}
		}
	})
}

// TestSCRAMVerifierText: verifiers are PostgreSQL's text form, read back
// as they were written, and malformed ones are not verifiers.
func TestSCRAMVerifierText(t *testing.T) {
	vs := SCRAMVerifiers("pencil")
	if len(vs) != 1 || !strings.HasPrefix(vs[0], "SCRAM-SHA-256$4096:") || strings.Count(vs[0], "$") != 2 {
		t.Fatalf("SCRAMVerifiers(ASCII) = %q", vs)
	}
	if !IsSCRAMVerifier(vs[0]) {
		t.Errorf("%q is not read back as a verifier", vs[0])
	}
	if got := len(SCRAMVerifiers("ﬁ\u00a0x")); got < 2 {
		t.Errorf("a password whose spellings differ got %d verifiers", got)
	}
	for _, bad := range []string{"", "pencil", "SCRAM-SHA-256$", "SCRAM-SHA-256$4096:c2FsdA==$AAAA:AAAA", "SCRAM-SHA-256$0:c2FsdA==$" + strings.Repeat("A", 43) + "=:" + strings.Repeat("A", 43) + "=", "md5abcdef"} {
		if IsSCRAMVerifier(bad) {
			t.Errorf("%q taken for a verifier", bad)
		}
	}
}
