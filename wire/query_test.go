package wire

import (
	"context"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

var allExecModes = []pgx.QueryExecMode{
	pgx.QueryExecModeCacheStatement,
	pgx.QueryExecModeCacheDescribe,
	pgx.QueryExecModeDescribeExec,
	pgx.QueryExecModeExec,
	pgx.QueryExecModeSimpleProtocol,
}

// TestQueryExecModes runs rows, parameters and errors through each of pgx's
// five ways of sending a query: named prepared statements, cached or fresh
// descriptions on the unnamed statement, parameter-typed Exec, and the simple
// protocol with client-side interpolation.
func TestQueryExecModes(t *testing.T) {
	ts := startServer(t, Config{})
	for _, mode := range allExecModes {
		t.Run(mode.String(), func(t *testing.T) {
			ctx := context.Background()
			conn := ts.connect(t, "default_query_exec_mode="+execModeParam(mode))

			// Twice, so the caching modes also run from their caches.
			for range 2 {
				rows, err := conn.Query(ctx, "select 3")
				if err != nil {
					t.Fatal(err)
				}
				got, err := pgx.CollectRows(rows, pgx.RowTo[int32])
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, []int32{1, 2, 3}) {
					t.Fatalf("select 3 = %v", got)
				}
			}

			var a, b string
			if err := conn.QueryRow(ctx, "echo $1 $2", "hello", "wörld").Scan(&a, &b); err != nil {
				t.Fatal(err)
			}
			if a != "hello" || b != "wörld" {
				t.Fatalf("echo = %q, %q", a, b)
			}

			tag, err := conn.Exec(ctx, "insert")
			if err != nil || tag.String() != "INSERT 0 1" {
				t.Fatalf("insert: tag %q, err %v", tag, err)
			}

			_, err = conn.Exec(ctx, "fail")
			pe := pgErrorOf(t, err)
			want := pgconn.PgError{Severity: "ERROR", SeverityUnlocalized: "ERROR", Code: "22012", Message: "division by zero",
				Detail: "the detail", Hint: "the hint", Position: 3, SchemaName: "public", TableName: "t", ColumnName: "c", ConstraintName: "k"}
			if *pe != want {
				t.Fatalf("error fields:\n got %+v\nwant %+v", *pe, want)
			}

			// The connection is fine after the error.
			var n int32
			if err := conn.QueryRow(ctx, "select 1").Scan(&n); err != nil || n != 1 {
				t.Fatalf("after error: %v, %d", err, n)
			}
		})
	}
	waitFor(t, "sessions and statements to close", func() bool { return ts.fake.live.Load() == 0 && ts.fake.sessions.Load() == 0 })
}

func execModeParam(m pgx.QueryExecMode) string {
	switch m {
	case pgx.QueryExecModeCacheStatement:
		return "cache_statement"
	case pgx.QueryExecModeCacheDescribe:
		return "cache_describe"
	case pgx.QueryExecModeDescribeExec:
		return "describe_exec"
	case pgx.QueryExecModeExec:
		return "exec"
	default:
		return "simple_protocol"
	}
}

// TestSimpleQuery checks a multi-statement Query: every statement's results
// in order, the first error ending the text, and an empty query.
func TestSimpleQuery(t *testing.T) {
	ts := startServer(t, Config{})
	c := startRaw(t, ts.addr)

	c.send(query("select 2; insert; echo 'x'"))
	got := c.untilReady()
	want := []string{"Fields n:23:0", "Row 1", "Row 2", "Complete SELECT 2", "Complete INSERT 0 1",
		"Fields p1:25:0", "Row x", "Complete SELECT 1", "Ready I"}
	if !slices.Equal(got, want) {
		t.Fatalf("multi-statement:\n got %q\nwant %q", got, want)
	}

	before := ts.fake.executed.Load()
	c.send(query("insert; fail; select 1"))
	got = c.untilReady()
	want = []string{"Complete INSERT 0 1", "Error ERROR 22012 division by zero", "Ready I"}
	if !slices.Equal(got, want) {
		t.Fatalf("error mid-text:\n got %q\nwant %q", got, want)
	}
	if n := ts.fake.executed.Load() - before; n != 2 {
		t.Fatalf("executed %d statements, want 2: nothing after the error", n)
	}

	c.send(query("  ;  "))
	if got := c.untilReady(); !slices.Equal(got, []string{"EmptyQueryResponse", "Ready I"}) {
		t.Fatalf("empty query: %q", got)
	}

	c.send(query("select 1; parsefail"))
	if got := c.untilReady(); !slices.Equal(got, []string{"Error ERROR 42601 syntax error at or near \"parsefail\"", "Ready I"}) {
		t.Fatalf("syntax error: %q", got)
	}

	c.send(query("begin"))
	if got := c.untilReady(); !slices.Equal(got, []string{"Complete BEGIN", "Ready T"}) {
		t.Fatalf("begin: %q", got)
	}
	c.send(query("fail"))
	if got := c.untilReady(); got[len(got)-1] != "Ready E" {
		t.Fatalf("error in transaction: %q", got)
	}
	c.send(query("rollback"))
	if got := c.untilReady(); !slices.Equal(got, []string{"Complete ROLLBACK", "Ready I"}) {
		t.Fatalf("rollback: %q", got)
	}
}

// TestNoticesAndParameterStatus checks that a NOTICE raised mid-statement
// reaches the client in order with the rows, that a parameter the statement
// changed is reported just before ReadyForQuery (as PostgreSQL 15 does), and
// that pgx sees both.
func TestNoticesAndParameterStatus(t *testing.T) {
	ts := startServer(t, Config{})
	c := startRaw(t, ts.addr)
	c.send(query("notice"))
	got := c.untilReady()
	want := []string{"Fields v:25:0", "Notice NOTICE hello from notice", "Row 1", "Row 2", "Complete SELECT 2", "Param application_name=changed", "Ready I"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}

	cfg, err := pgx.ParseConfig(ts.connString(""))
	if err != nil {
		t.Fatal(err)
	}
	var notices []*pgconn.Notice
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { notices = append(notices, n) }
	conn := ts.connectConfig(t, cfg)
	if _, err := conn.Exec(context.Background(), "notice"); err != nil {
		t.Fatal(err)
	}
	if len(notices) != 1 || notices[0].Message != "hello from notice" || notices[0].Detail != "nd" || notices[0].Hint != "nh" || notices[0].Code != "00000" {
		t.Fatalf("notices: %+v", notices)
	}
	if v := conn.PgConn().ParameterStatus("application_name"); v != "changed" {
		t.Fatalf("application_name = %q after ParameterStatus", v)
	}
}

// TestStartupParametersReachSession checks the StartupInfo the factory gets,
// and that every ParameterStatus the session lists reaches the client.
func TestStartupParametersReachSession(t *testing.T) {
	ts := startServer(t, Config{})
	conn := ts.connect(t, "application_name=app1&search_path=s1")
	if v := conn.PgConn().ParameterStatus("server_version"); v != "15.0 (cdcdb fake)" {
		t.Fatalf("server_version = %q", v)
	}
	if v := conn.PgConn().ParameterStatus("standard_conforming_strings"); v != "on" {
		t.Fatalf("standard_conforming_strings = %q", v)
	}
	if conn.PgConn().PID() == 0 || len(conn.PgConn().SecretKey()) != 4 {
		t.Fatalf("BackendKeyData: pid %d key %x", conn.PgConn().PID(), conn.PgConn().SecretKey())
	}
	ts.fake.mu.Lock()
	info := ts.fake.infos[len(ts.fake.infos)-1]
	ts.fake.mu.Unlock()
	if info.User != "alice" || info.Database != "db" || info.ApplicationName != "app1" || info.Options["search_path"] != "s1" || info.RemoteAddr == "" {
		t.Fatalf("StartupInfo = %+v", info)
	}
}
