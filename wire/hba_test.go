package wire

import (
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

// TestParseConnectionRulesRefusesBadLines: every line the rules cannot take
// is refused with its number and PostgreSQL's wording where it has one.
func TestParseConnectionRulesRefusesBadLines(t *testing.T) {
	for _, c := range []struct {
		name, file string
		line       int
		msg        string
	}{
		{"unknown type", "hots all all all trust", 1, `invalid connection type "hots"`},
		{"local", "# unix sockets\nlocal all all trust", 2, `connection type "local" is not supported: cdcdb listens on TCP only`},
		{"gssenc", "hostgssenc all all 0.0.0.0/0 scram-sha-256", 1, `connection type "hostgssenc" is not supported: cdcdb has no GSSAPI encryption`},
		{"no database", "host", 1, "end-of-line before database specification"},
		{"no role", "host all", 1, "end-of-line before role specification"},
		{"no address", "host all all", 1, "end-of-line before IP address specification"},
		{"no method", "host all all 10.0.0.0/8", 1, "end-of-line before authentication method"},
		{"no netmask", "host all all 10.0.0.1", 1, "end-of-line before netmask specification"},
		{"bad method", "\n\nhost all all 10.0.0.0/8 scram", 3, `invalid authentication method "scram"`},
		{"md5", "host all all 10.0.0.0/8 md5", 1, `authentication method "md5" is not supported by cdcdb (scram-sha-256, trust and reject are)`},
		{"trust beyond loopback", "host all all 0.0.0.0/0 trust", 1, `authentication method "trust" is only allowed for loopback addresses (127.0.0.1/32, ::1/128): anyone who can reach the server would get in`},
		{"trust on all", "host all all all trust", 1, `authentication method "trust" is only allowed for loopback addresses (127.0.0.1/32, ::1/128): anyone who can reach the server would get in`},
		{"trust on a wider net", "host all all 126.0.0.0/7 trust", 1, `authentication method "trust" is only allowed for loopback addresses (127.0.0.1/32, ::1/128): anyone who can reach the server would get in`},
		{"bad address", "host all all 10.0.0.300/8 reject", 1, `invalid IP address "10.0.0.300"`},
		{"bad CIDR", "host all all 10.0.0.0/33 reject", 1, `invalid CIDR mask in address "10.0.0.0/33"`},
		{"empty CIDR", "host all all 10.0.0.0/ reject", 1, `invalid CIDR mask in address "10.0.0.0/"`},
		{"host name", "host all all db.example.com scram-sha-256", 1, `host names are not supported in address "db.example.com": give an IP address with a CIDR mask`},
		{"samenet", "host all all samenet scram-sha-256", 1, `address keyword "samenet" is not supported: give the network as a CIDR`},
		{"bad mask", "host all all 10.0.0.0 255.0.255.0 reject", 1, `invalid IP mask "255.0.255.0": its ones are not contiguous`},
		{"mask family", "host all all 10.0.0.0 ffff:: reject", 1, `IP address and mask do not match in address "10.0.0.0" "ffff::"`},
		{"option", "hostssl all all 0.0.0.0/0 scram-sha-256 clientcert=verify-full", 1, `authentication option "clientcert=verify-full" is not supported by cdcdb`},
		{"group", "host all +admins 0.0.0.0/0 scram-sha-256", 1, `group entry "+admins" is not supported: cdcdb has no role membership yet`},
		{"file", "host @dbs all 0.0.0.0/0 scram-sha-256", 1, `file inclusion "@dbs" is not supported`},
		{"samerole", "host samerole all 0.0.0.0/0 scram-sha-256", 1, `database keyword "samerole" is not supported: cdcdb has no role membership yet`},
		{"replication", "host replication all 0.0.0.0/0 scram-sha-256", 1, `database keyword "replication" is not supported: cdcdb serves no physical replication`},
		{"two types", "host,hostssl all all 0.0.0.0/0 reject", 1, "multiple values specified for connection type"},
		{"two methods", "host all all 0.0.0.0/0 reject,trust", 1, "multiple values specified for authentication type"},
		{"open quote", `host "main all 0.0.0.0/0 reject`, 1, "unterminated quoted string"},
		{"trailing comma", "host main, ", 1, "list ends with a comma"},
		{"empty name", `host "" all 0.0.0.0/0 reject`, 1, "empty name in list"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConnectionRules(c.file)
			var re *RuleFileError
			if !errors.As(err, &re) {
				t.Fatalf("got %v, want a RuleFileError", err)
			}
			if re.Line != c.line || re.Message != c.msg {
				t.Errorf("line %d: %s\nwant line %d: %s", re.Line, re.Message, c.line, c.msg)
			}
		})
	}
}

// TestConnectionRulesMatch: the first matching rule decides, by transport,
// address, user and database, with PostgreSQL's list, quoting and keyword
// rules.
func TestConnectionRulesMatch(t *testing.T) {
	const file = `
# TYPE     DATABASE        USER          ADDRESS              METHOD
host       all             cdcdb         127.0.0.1/32         trust
host       all             all           ::1/128              trust
hostnossl  all             all           10.1.0.0/16          reject
hostssl    main,"All"      bi, feeder    10.0.0.0/8           scram-sha-256
host       sameuser        all           192.168.1.0 255.255.255.0  scram-sha-256
host       all             "all"         0.0.0.0/0            scram-sha-256  # the role named all
hostssl    all             all           0.0.0.0/0            scram-sha-256
`
	rules, err := ParseConnectionRules(file)
	if err != nil {
		t.Fatal(err)
	}
	const noMatch = 0
	for _, c := range []struct {
		ssl            bool
		addr           string
		user, database string
		line           int // of the rule that matches; noMatch
	}{
		{false, "127.0.0.1", "cdcdb", "main", 3},
		{false, "127.0.0.1", "bi", "main", noMatch},
		{true, "127.0.0.1", "bi", "main", 9},
		{false, "::1", "bi", "x", 4},
		{false, "10.1.2.3", "bi", "main", 5},
		{true, "10.1.2.3", "bi", "main", 6},
		{true, "10.9.9.9", "feeder", "All", 6},
		{true, "10.9.9.9", "feeder", "all", 9},
		{true, "10.9.9.9", "mallory", "main", 9},
		{false, "10.9.9.9", "bi", "main", noMatch},
		{false, "192.168.1.77", "bi", "bi", 7},
		{false, "192.168.1.77", "bi", "main", noMatch},
		{false, "192.168.2.77", "bi", "bi", noMatch},
		{false, "8.8.8.8", "all", "main", 8},
		{false, "8.8.8.8", "alice", "main", noMatch},
		{true, "::ffff:8.8.8.8", "alice", "main", 9},
		{true, "2001:db8::1", "alice", "main", noMatch}, // 0.0.0.0/0 is IPv4 only, as in PostgreSQL
	} {
		r, ok := rules.match(connectionAttempt{ssl: c.ssl, addr: net.ParseIP(c.addr), user: c.user, database: c.database})
		got := noMatch
		if ok {
			got = r.line
		}
		if got != c.line {
			t.Errorf("ssl=%v %s user %s database %s: line %d matched, want %d", c.ssl, c.addr, c.user, c.database, got, c.line)
		}
	}

	empty, err := ParseConnectionRules("# nothing\n\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := empty.match(connectionAttempt{addr: net.ParseIP("127.0.0.1"), user: "cdcdb", database: "main"}); ok {
		t.Error("a file without rules matched a connection")
	}
}

// TestLoginDelaySchedule holds the schedule docs/security.md states, and
// the queueing of one address's failures.
func TestLoginDelaySchedule(t *testing.T) {
	var got []string
	for n := 1; n <= 11; n++ {
		got = append(got, loginDelay(n).String())
	}
	want := "0s 0s 0s 250ms 500ms 1s 2s 4s 8s 10s 10s"
	if strings.Join(got, " ") != want {
		t.Errorf("schedule %s, want %s", strings.Join(got, " "), want)
	}

	var f loginFailures
	now := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	for range freeLoginFailures {
		if at := f.failed("10.0.0.1", now); !at.Equal(now) {
			t.Fatalf("a free failure answered at %v, want at once", at)
		}
	}
	// Three failures at the same instant queue: 250ms, then 500ms after
	// that, then 1s after that.
	for _, want := range []string{"250ms", "750ms", "1.75s"} {
		if at := f.failed("10.0.0.1", now); at.Sub(now).String() != want {
			t.Errorf("queued failure answered after %v, want %s", at.Sub(now), want)
		}
	}
	if at := f.failed("10.0.0.2", now); !at.Equal(now) {
		t.Errorf("another address's first failure answered at %v, want at once", at)
	}
	later := now.Add(loginFailureMemory + 2*time.Second)
	if at := f.failed("10.0.0.1", later); !at.Equal(later) {
		t.Errorf("a failure after the memory ran out answered after %v, want at once", at.Sub(later))
	}
}

// FuzzParseConnectionRules: no file makes the parser panic, and a file it
// takes never trusts an address beyond loopback.
func FuzzParseConnectionRules(f *testing.F) {
	f.Add("hostssl all all 0.0.0.0/0 scram-sha-256\n")
	f.Add("host \"a,b\",c sameuser 127.0.0.1 255.255.255.255 trust # x\n")
	f.Add("host all all ::1/128 trust\nhostnossl all x 10.0.0.0/8 reject")
	f.Fuzz(func(t *testing.T, text string) {
		rules, err := ParseConnectionRules(text)
		if err != nil {
			return
		}
		for _, r := range rules.rules {
			if r.method == MethodTrust && !isLoopbackNetwork(r.network) {
				t.Fatalf("line %d trusts %v", r.line, r.network)
			}
		}
	})
}
