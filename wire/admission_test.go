package wire

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
)

// tryLogin connects as user with password and sslmode, and closes at once.
func tryLogin(ts *testServer, user, password, sslmode string) error {
	u := url.URL{Scheme: "postgres", User: url.UserPassword(user, password), Host: ts.addr, Path: "/db", RawQuery: "sslmode=" + sslmode}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, u.String())
	if err == nil {
		conn.Close(context.Background())
	}
	return err
}

func mustRules(t *testing.T, text string) *ConnectionRules {
	t.Helper()
	rules, err := ParseConnectionRules(text)
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

// TestConnectionRulesAtLogin: hostssl refuses clear text with PostgreSQL's
// "no pg_hba.conf entry" and lets TLS through to SCRAM; a reject rule
// refuses with its own message; trust on loopback needs no password.
func TestConnectionRulesAtLogin(t *testing.T) {
	roles := fakeRoles{
		"alice": {Exists: true, CanLogin: true, Verifiers: SCRAMVerifiers("alice-pw")},
		"eve":   {Exists: true, CanLogin: true, Verifiers: SCRAMVerifiers("eve-pw")},
		"ops":   {Exists: true, CanLogin: true, Superuser: true},
	}
	ts := startServer(t, Config{TLSConfig: selfSignedTLS(t), Roles: roles, ConnectionRules: mustRules(t, `
host     all  eve  0.0.0.0/0     reject
host     all  ops  127.0.0.1/32  trust
hostssl  all  all  0.0.0.0/0     scram-sha-256
`)})
	if err := tryLogin(ts, "alice", "alice-pw", "require"); err != nil {
		t.Errorf("alice over TLS: %v", err)
	}
	if err := tryLogin(ts, "ops", "", "disable"); err != nil {
		t.Errorf("ops trusted on loopback: %v", err)
	}
	for _, c := range []struct{ user, password, sslmode, code, msg string }{
		{"alice", "alice-pw", "disable", "28000", `no pg_hba.conf entry for host "127.0.0.1", user "alice", database "db", no encryption`},
		{"eve", "eve-pw", "require", "28000", `pg_hba.conf rejects connection for host "127.0.0.1", user "eve", database "db", SSL encryption`},
		{"alice", "wrong", "require", "28P01", `password authentication failed for user "alice"`},
	} {
		pe := pgErrorOf(t, tryLogin(ts, c.user, c.password, c.sslmode))
		if pe.Severity != "FATAL" || pe.Code != c.code || pe.Message != c.msg {
			t.Errorf("%s sslmode=%s: %s %s %q, want FATAL %s %q", c.user, c.sslmode, pe.Severity, pe.Code, pe.Message, c.code, c.msg)
		}
	}
}

// TestSuperuserReservedConnections: the last reserved slots take only
// superusers, with PostgreSQL 15's refusal for others.
func TestSuperuserReservedConnections(t *testing.T) {
	roles := fakeRoles{
		"alice": {Exists: true, CanLogin: true},
		"ops":   {Exists: true, CanLogin: true, Superuser: true},
	}
	ts := startServer(t, Config{Roles: roles, MaxConnections: 3, SuperuserReservedConnections: 1})
	connectAs := func(user string) (*pgx.Conn, error) {
		return pgx.Connect(context.Background(), "postgres://"+user+"@"+ts.addr+"/db?sslmode=disable")
	}
	for range 2 {
		c, err := connectAs("alice")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
	}
	pe := pgErrorOf(t, tryLogin(ts, "alice", "", "disable"))
	if pe.Code != "53300" || pe.Message != "remaining connection slots are reserved for non-replication superuser connections" {
		t.Errorf("alice into a reserved slot: %s %q", pe.Code, pe.Message)
	}
	c, err := connectAs("ops")
	if err != nil {
		t.Fatalf("superuser into the reserved slot: %v", err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	pe = pgErrorOf(t, tryLogin(ts, "ops", "", "disable"))
	if pe.Code != "53300" || pe.Message != "sorry, too many clients already" {
		t.Errorf("superuser with every slot taken: %s %q", pe.Code, pe.Message)
	}
}

// TestAuthenticationTimeoutFreesUnfinishedLogins: clients that stop in the
// middle of SCRAM hold no session slot, so the administrator still gets
// in, and they are closed at the authentication timeout.
func TestAuthenticationTimeoutFreesUnfinishedLogins(t *testing.T) {
	ts := startServer(t, Config{Password: "pw", MaxConnections: 2, AuthenticationTimeout: 500 * time.Millisecond})
	var stalled []*rawClient
	for range 3 {
		c := dialRaw(t, ts.addr)
		c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
			Parameters: map[string]string{"user": "alice", "database": "db"}})
		if _, ok := c.receive().(*pgproto3.AuthenticationSASL); !ok {
			t.Fatal("no SASL request")
		}
		stalled = append(stalled, c)
	}
	if err := tryLogin(ts, "alice", "pw", "disable"); err != nil {
		t.Errorf("a login beside three unfinished ones: %v", err)
	}
	start := time.Now()
	for _, c := range stalled {
		if got := c.expectClosed(); len(got) != 0 {
			t.Errorf("an unfinished login was told %v, want a silent close as PostgreSQL's", got)
		}
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("unfinished logins closed after %v, want about the 500ms timeout", waited)
	}
	waitFor(t, "the pending count to drop", func() bool {
		ts.srv.mu.Lock()
		defer ts.srv.mu.Unlock()
		return ts.srv.pending == 0
	})
}

// TestFailedLoginsAreDelayed: after the free failures, an address's next
// wrong password is answered only after the schedule's delay, and a right
// password is still answered at once.
func TestFailedLoginsAreDelayed(t *testing.T) {
	ts := startServer(t, Config{Password: "pw"})
	for range freeLoginFailures {
		if pe := pgErrorOf(t, tryLogin(ts, "alice", "guess", "disable")); pe.Code != "28P01" {
			t.Fatalf("wrong password: %s %s", pe.Code, pe.Message)
		}
	}
	start := time.Now()
	if pe := pgErrorOf(t, tryLogin(ts, "alice", "guess", "disable")); pe.Code != "28P01" {
		t.Fatalf("wrong password: %s %s", pe.Code, pe.Message)
	}
	if waited := time.Since(start); waited < firstLoginDelay {
		t.Errorf("the failure after the free ones was answered after %v, want at least %v", waited, firstLoginDelay)
	}
	if err := tryLogin(ts, "alice", "pw", "disable"); err != nil {
		t.Errorf("the right password after failures: %v", err)
	}
}

// TestPendingConnectionsAreCapped: connections that have not logged in,
// silent ones included, are capped at twice MaxConnections; past the cap
// a client is refused as PostgreSQL refuses it, and once the
// authentication timeout has closed the silent ones it gets in.
func TestPendingConnectionsAreCapped(t *testing.T) {
	ts := startServer(t, Config{MaxConnections: 1, AuthenticationTimeout: 500 * time.Millisecond})
	var silent []*rawClient
	for range 2 {
		silent = append(silent, dialRaw(t, ts.addr))
	}
	waitFor(t, "the silent connections to count", func() bool {
		ts.srv.mu.Lock()
		defer ts.srv.mu.Unlock()
		return ts.srv.pending == 2
	})
	pe := pgErrorOf(t, tryLogin(ts, "alice", "", "disable"))
	if pe.Code != "53300" || pe.Message != "sorry, too many clients already" {
		t.Errorf("a login past the cap: %s %q", pe.Code, pe.Message)
	}
	for _, c := range silent {
		c.expectClosed()
	}
	waitFor(t, "the silent connections to go", func() bool {
		ts.srv.mu.Lock()
		defer ts.srv.mu.Unlock()
		return ts.srv.pending == 0
	})
	if err := tryLogin(ts, "alice", "", "disable"); err != nil {
		t.Errorf("a login once the silent ones went: %v", err)
	}
}
