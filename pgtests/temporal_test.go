package pgtests

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The spec's §5 walk-through: company A, one event per statement, and the
// target after each step (times on 2025-07-18).
var walkThroughOverWire = []struct {
	event string
	rows  []string
}{
	{"('A', 'XFv1', '2025-07-18 10:01:00', '2025-07-18 10:05:00', 'INSERT')", []string{
		"A XFv1 10:01:00 NULL 10:05:00 NULL"}},
	{"('A', 'XFv2', '2025-07-18 12:15:43', '2025-07-18 12:20:00', 'UPDATE')", []string{
		"A XFv1 10:01:00 NULL 10:05:00 12:20:00",
		"A XFv1 10:01:00 12:15:43 12:20:00 NULL",
		"A XFv2 12:15:43 NULL 12:20:00 NULL"}},
	{"('A', 'XFv3', '2025-07-18 12:05:00', '2025-07-18 12:25:00', 'UPDATE')", []string{
		"A XFv1 10:01:00 NULL 10:05:00 12:20:00",
		"A XFv1 10:01:00 12:15:43 12:20:00 12:25:00",
		"A XFv1 10:01:00 12:05:00 12:25:00 NULL",
		"A XFv3 12:05:00 12:15:43 12:25:00 NULL",
		"A XFv2 12:15:43 NULL 12:20:00 NULL"}},
	{"('A', 'XFv2', '2025-07-18 12:30:00', '2025-07-18 12:30:00', 'DELETE')", []string{
		"A XFv1 10:01:00 NULL 10:05:00 12:20:00",
		"A XFv1 10:01:00 12:15:43 12:20:00 12:25:00",
		"A XFv1 10:01:00 12:05:00 12:25:00 NULL",
		"A XFv3 12:05:00 12:15:43 12:25:00 NULL",
		"A XFv2 12:15:43 NULL 12:20:00 12:30:00",
		"A XFv2 12:15:43 12:30:00 12:30:00 NULL"}},
}

// clockRows reads a bitemporal target as "key value start end sysstart
// sysend" with times shortened to the clock, in a stable order.
func clockRows(t *testing.T, conn *pgx.Conn, query string, args ...any) []string {
	t.Helper()
	out, err := rowLines(testContext(t), conn, " ", func(v any) string {
		switch v := v.(type) {
		case nil:
			return "NULL"
		case time.Time:
			return v.Format("15:04:05")
		}
		return fmt.Sprint(v)
	}, query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	sort.Strings(out)
	return out
}

// TestBitemporalWalkThroughOverTheWire replays the spec's four steps
// through pgx, checking the target after each, then asks the spec's
// questions with parameters in every query mode.
func TestBitemporalWalkThroughOverTheWire(t *testing.T) {
	s := startServer(t)
	conn := connect(t, s.URL())
	mustExec(t, conn, "CREATE TABLE ev (CompanyId text, DataPoint text, bt timestamp, st timestamp, op text)")
	mustExec(t, conn, "CREATE STREAMING TABLE h")
	mustExec(t, conn, `CREATE FLOW hf AS AUTO CDC INTO h FROM stream(ev) KEYS (CompanyId) APPLY AS DELETE WHEN op = "DELETE"
		SEQUENCE BY bt SYSTEM SEQUENCE BY st COLUMNS * EXCEPT (bt, st, op) STORED AS BITEMPORAL`)
	for i, step := range walkThroughOverWire {
		mustExec(t, conn, "INSERT INTO ev VALUES "+step.event)
		got := clockRows(t, conn, "SELECT * FROM h")
		want := append([]string(nil), step.rows...)
		sort.Strings(want)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("after step %d:\n%s\nwant\n%s", i+1, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	at := func(hhmm string) time.Time {
		v, err := time.Parse("2006-01-02 15:04:05", "2025-07-18 "+hhmm)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeDescribeExec, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		c := connectMode(t, s.URL(), mode)
		for _, q := range []struct {
			sql      string
			sys, biz string
			want     string
		}{
			// What did we believe at 12:22 about 12:10?
			{"SELECT DataPoint FROM h FOR SYSTEM_TIME AS OF $1 FOR BUSINESS_TIME AS OF $2 WHERE CompanyId = 'A'", "12:22:00", "12:10:00", "XFv1"},
			// What do we believe now? (other clause order, now())
			{"SELECT DataPoint FROM h FOR BUSINESS_TIME AS OF $2 FOR SYSTEM_TIME AS OF now() WHERE CompanyId = 'A' AND $1::timestamp IS NOT NULL", "12:22:00", "12:10:00", "XFv3"},
			// At system time 10:04:59 the table was empty.
			{"SELECT count(*)::text FROM h FOR SYSTEM_TIME AS OF $1 WHERE $2::timestamp IS NOT NULL", "10:04:59", "12:10:00", "0"},
		} {
			got := queryString(t, c, q.sql, at(q.sys), at(q.biz))
			if got != q.want {
				t.Errorf("mode %v: %s: got %s want %s", mode, q.sql, got, q.want)
			}
		}
	}
}

// TestBitemporalSmallExampleOverTheWire: the spec's two-event example,
// delivered in the reverse order.
func TestBitemporalSmallExampleOverTheWire(t *testing.T) {
	s := startServer(t)
	conn := connect(t, s.URL())
	mustExec(t, conn, "CREATE TABLE e (id int, x text, y text, bt int, st int)")
	mustExec(t, conn, "CREATE STREAMING TABLE b")
	mustExec(t, conn, "CREATE FLOW f AS AUTO CDC INTO b FROM e KEYS (id) SEQUENCE BY bt SYSTEM SEQUENCE BY st COLUMNS id, x, y STORED AS BITEMPORAL")
	mustExec(t, conn, "INSERT INTO e VALUES ($1, $2, $3, $4, $5)", 1, "x20", "y20", 20, 200)
	mustExec(t, conn, "INSERT INTO e VALUES ($1, $2, $3, $4, $5)", 1, "x10", "y10", 10, 100)
	got := clockRows(t, conn, "SELECT x, __start_at, __end_at, __system_start_at, __system_end_at FROM b")
	want := []string{"x10 10 20 200 NULL", "x10 10 NULL 100 200", "x20 20 NULL 200 NULL"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCommitTimeTravelOverTheWire reads a plain table and an SCD TYPE 1
// target as they were committed, with the moment as a parameter.
func TestCommitTimeTravelOverTheWire(t *testing.T) {
	s := startServer(t)
	conn := connect(t, s.URL())
	moment := func() time.Time {
		time.Sleep(5 * time.Millisecond)
		var ts time.Time
		if err := conn.QueryRow(testContext(t), "SELECT clock_timestamp()").Scan(&ts); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
		return ts
	}
	mustExec(t, conn, "CREATE TABLE acct (id int PRIMARY KEY, balance int)")
	mustExec(t, conn, "INSERT INTO acct VALUES (1, 100)")
	t1 := moment()
	mustExec(t, conn, "UPDATE acct SET balance = 150 WHERE id = 1")
	if got := queryString(t, conn, "SELECT balance::text FROM acct FOR SYSTEM_TIME AS OF $1 WHERE id = $2", t1, 1); got != "100" {
		t.Fatalf("plain table as of t1: %s", got)
	}
	if got := queryString(t, conn, "SELECT string_agg(balance::text, ',' ORDER BY balance) FROM acct FOR SYSTEM_TIME ALL"); got != "100,150" {
		t.Fatalf("all versions: %s", got)
	}
	mustExec(t, conn, specSource)
	for _, stmt := range strings.Split(specFlow("SCD TYPE 1", specTruncate), ";") {
		if strings.TrimSpace(stmt) != "" {
			mustExec(t, conn, stmt)
		}
	}
	mustExec(t, conn, "INSERT INTO users_cdf VALUES (1, 'Ana', 'Lima', 'INSERT', 1)")
	u1 := moment()
	mustExec(t, conn, "INSERT INTO users_cdf VALUES (1, 'Ana', 'Quito', 'UPDATE', 2)")
	if got := queryString(t, conn, "SELECT city FROM users_current FOR SYSTEM_TIME AS OF $1", u1); got != "Lima" {
		t.Fatalf("SCD1 target as of u1: %s", got)
	}
	if got := queryString(t, conn, "SELECT city FROM users_current"); got != "Quito" {
		t.Fatalf("SCD1 target now: %s", got)
	}
}
