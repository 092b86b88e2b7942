package pgtests

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cdcdb/pgerror"
)

// The spec's FROM SNAPSHOT example (spec §7, from Lakeflow's documentation):
// snapshot 1 and snapshot 2 of (userId, city).
var (
	snapshotOne = [][]any{{1, "Oaxaca"}, {2, "Monterrey"}, {3, "Tijuana"}}
	snapshotTwo = [][]any{{2, "Carmel"}, {3, "Los Angeles"}, {4, "Death Valley"}}
)

var (
	snapshotSCD1 = []string{"2 Carmel", "3 Los Angeles", "4 Death Valley"}
	snapshotSCD2 = []string{"1 Oaxaca 1 2", "2 Monterrey 1 2", "2 Carmel 2 <nil>", "3 Tijuana 1 2",
		"3 Los Angeles 2 <nil>", "4 Death Valley 2 <nil>"}
)

// snapshotRows runs a query and prints each row as its values joined by
// spaces.
func snapshotRows(t *testing.T, conn *pgx.Conn, sql string) []string {
	t.Helper()
	got, err := rowLines(testContext(t), conn, " ", func(v any) string { return fmt.Sprint(v) }, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return got
}

func insertSnapshot(t *testing.T, conn *pgx.Conn, table string, version any, rows [][]any) {
	t.Helper()
	var ph []string
	var args []any
	for _, r := range rows {
		n := len(args)
		if version != nil {
			ph = append(ph, fmt.Sprintf("($%d::int, $%d::int, $%d::text)", n+1, n+2, n+3))
			args = append(args, version)
		} else {
			ph = append(ph, fmt.Sprintf("($%d::int, $%d::text)", n+1, n+2))
		}
		args = append(args, r...)
	}
	mustExec(t, conn, "INSERT INTO "+table+" VALUES "+strings.Join(ph, ", "), args...)
}

// TestSnapshotFlowsSpecExampleOverPgx runs the spec's example through the
// three forms (VERSION BY in both arrival orders, WITH VERSION with
// Lakeflow's functions, no version with REFRESH), for both SCD types, with
// every pgx execution mode, and restarts the server before checking.
func TestSnapshotFlowsSpecExampleOverPgx(t *testing.T) {
	s := startServer(t)
	type form struct {
		name  string
		setup func(conn *pgx.Conn, storedAs string)
	}
	withVersion := `CREATE FLOW f AS AUTO CDC INTO users
FROM SNAPSHOT (SELECT userId, city FROM snaps WHERE v = (SELECT version FROM current_snapshot_version()))
WITH VERSION (SELECT v AS version FROM snaps
  WHERE NOT EXISTS (SELECT 1 FROM last_snapshot_version()) OR v > (SELECT version FROM last_snapshot_version())
  ORDER BY v LIMIT 1)
KEYS (userId) STORED AS `
	forms := []form{
		{"version by, in order", func(conn *pgx.Conn, storedAs string) {
			mustExec(t, conn, "CREATE FLOW f AS AUTO CDC INTO users FROM SNAPSHOT snaps VERSION BY v KEYS (userId) STORED AS "+storedAs)
			insertSnapshot(t, conn, "snaps", 1, snapshotOne)
			insertSnapshot(t, conn, "snaps", 2, snapshotTwo)
		}},
		{"version by, late", func(conn *pgx.Conn, storedAs string) {
			mustExec(t, conn, "CREATE FLOW f AS AUTO CDC INTO users FROM SNAPSHOT snaps VERSION BY v KEYS (userId) STORED AS "+storedAs)
			insertSnapshot(t, conn, "snaps", 2, snapshotTwo)
			insertSnapshot(t, conn, "snaps", 1, snapshotOne)
		}},
		{"with version", func(conn *pgx.Conn, storedAs string) {
			insertSnapshot(t, conn, "snaps", 1, snapshotOne)
			mustExec(t, conn, withVersion+storedAs)
			insertSnapshot(t, conn, "snaps", 2, snapshotTwo)
			mustExec(t, conn, "REFRESH STREAMING TABLE users")
		}},
	}
	modes := []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeDescribeExec}
	n := 0
	for _, storedAs := range []string{"SCD TYPE 1", "SCD TYPE 2"} {
		for _, fm := range forms {
			n++
			conn := connectMode(t, s.URL(), modes[n%len(modes)])
			schema := fmt.Sprintf("snap_%d", n)
			mustExec(t, conn, "CREATE SCHEMA "+schema)
			mustExec(t, conn, "SET search_path = "+schema)
			mustExec(t, conn, "CREATE TABLE snaps (v int, userId int, city text)")
			mustExec(t, conn, "CREATE STREAMING TABLE users")
			fm.setup(conn, storedAs)
			conn.Close(context.Background())
		}
	}
	s.Restart()
	conn := connect(t, s.URL())
	n = 0
	for _, storedAs := range []string{"SCD TYPE 1", "SCD TYPE 2"} {
		for _, fm := range forms {
			n++
			query, want := fmt.Sprintf("SELECT userId, city FROM snap_%d.users ORDER BY 1", n), snapshotSCD1
			if storedAs == "SCD TYPE 2" {
				query, want = fmt.Sprintf("SELECT userId, city, __START_AT, __END_AT FROM snap_%d.users ORDER BY 1, 3", n), snapshotSCD2
			}
			if got := snapshotRows(t, conn, query); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s, %s:\ngot\n%s\nwant\n%s", storedAs, fm.name, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
	got := snapshotRows(t, conn, "SELECT kind, last_version, snapshot_inserted, snapshot_updated, snapshot_deleted FROM cdcdb.flows ORDER BY created_at")
	if len(got) != 6 || got[2] != "snapshot 2 1 2 1" {
		t.Errorf("cdcdb.flows:\n%s", strings.Join(got, "\n"))
	}
}

// TestSnapshotFlowWithoutVersionOverPgx is the spec's no-version example: a
// table emptied and refilled in one transaction, then REFRESH; the versions
// are commit times, and FULL starts again from a snapshot taken now.
func TestSnapshotFlowWithoutVersionOverPgx(t *testing.T) {
	s := startServer(t)
	conn := connect(t, s.URL())
	mustExec(t, conn, "CREATE TABLE src (userId int, city text)")
	insertSnapshot(t, conn, "src", nil, snapshotOne)
	mustExec(t, conn, "CREATE STREAMING TABLE users")
	mustExec(t, conn, "CREATE FLOW f AS AUTO CDC INTO users FROM SNAPSHOT src KEYS (userId) STORED AS SCD TYPE 2")
	tx, err := conn.Begin(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{"TRUNCATE src", "INSERT INTO src VALUES (2, 'Carmel'), (3, 'Los Angeles'), (4, 'Death Valley'), (6, 'Kings Canyon')"} {
		if _, err := tx.Exec(testContext(t), stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if err := tx.Commit(testContext(t)); err != nil {
		t.Fatal(err)
	}
	mustExec(t, conn, "REFRESH STREAMING TABLE users")
	// The two snapshot times, numbered 0 and 1 as in Lakeflow's table.
	number := `WITH times AS (SELECT DISTINCT __START_AT AS ts FROM users),
  r AS (SELECT ts, row_number() OVER (ORDER BY ts) - 1 AS n FROM times)
SELECT u.userId, u.city, s.n, e.n FROM users u JOIN r s ON s.ts = u.__START_AT LEFT JOIN r e ON e.ts = u.__END_AT ORDER BY 1, 3`
	want := []string{"1 Oaxaca 0 1", "2 Monterrey 0 1", "2 Carmel 1 <nil>", "3 Tijuana 0 1", "3 Los Angeles 1 <nil>",
		"4 Death Valley 1 <nil>", "6 Kings Canyon 1 <nil>"}
	if got := snapshotRows(t, conn, number); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := queryString(t, conn, "SELECT pg_typeof(__START_AT)::text FROM users LIMIT 1"); got != "timestamp with time zone" {
		t.Errorf("__START_AT is %s", got)
	}
	mustExec(t, conn, "REFRESH STREAMING TABLE users FULL")
	if got := snapshotRows(t, conn, "SELECT userId, city, __END_AT FROM users ORDER BY 1"); strings.Join(got, ",") != "2 Carmel <nil>,3 Los Angeles <nil>,4 Death Valley <nil>,6 Kings Canyon <nil>" {
		t.Errorf("after FULL: %v", got)
	}
}

// TestSnapshotFlowRefusalsOverPgx checks Lakeflow's error cases statement
// by statement, with their SQLSTATEs, and that a refused statement leaves
// nothing behind.
func TestSnapshotFlowRefusalsOverPgx(t *testing.T) {
	s := startServer(t)
	conn := connect(t, s.URL())
	ctx := testContext(t)
	mustExec(t, conn, "CREATE TABLE snaps (v int, userId int, city text)")
	mustExec(t, conn, "CREATE STREAMING TABLE users")
	mustExec(t, conn, "CREATE FLOW f AS AUTO CDC INTO users FROM SNAPSHOT snaps VERSION BY v KEYS (userId) STORED AS SCD TYPE 2")
	insertSnapshot(t, conn, "snaps", 1, snapshotOne)
	for _, tc := range []struct{ sql, code, msg string }{
		{"INSERT INTO snaps VALUES (2, 1, 'a'), (2, 1, 'b')", pgerror.UniqueViolation, `found 2 rows for key (userid)=(1) in snapshot 2 of flow "f"`},
		{"INSERT INTO snaps VALUES (2, NULL, 'a')", pgerror.NotNullViolation, `key column "userid" is NULL in snapshot 2 of flow "f"`},
		{"INSERT INTO snaps VALUES (NULL, 7, 'a')", pgerror.NotNullViolation, `VERSION BY value is NULL`},
		{"INSERT INTO snaps VALUES (1, 9, 'Nowhere')", pgerror.CardinalityViolation, `snapshot 1 of flow "f" was already applied with different rows`},
		{"SELECT * FROM last_snapshot_version()", pgerror.UndefinedFunction, "function last_snapshot_version() does not exist"},
		{"SELECT * FROM current_snapshot_version()", pgerror.UndefinedFunction, "function current_snapshot_version() does not exist"},
		{"CREATE FLOW g AS AUTO CDC INTO users FROM SNAPSHOT snaps VERSION BY v KEYS (userId) VERSION BY v", pgerror.SyntaxError, "clause VERSION BY specified more than once"},
		{"CREATE FLOW g AS AUTO CDC INTO users FROM SNAPSHOT (SELECT 1 AS id) WITH VERSION (SELECT 1) VERSION BY v KEYS (id)", pgerror.SyntaxError, "WITH VERSION and VERSION BY cannot be combined"},
	} {
		_, err := conn.Exec(ctx, tc.sql)
		pe := requireSQLState(t, err, tc.code)
		if !strings.Contains(pe.Message, tc.msg) {
			t.Errorf("%s: message %q, want %q", tc.sql, pe.Message, tc.msg)
		}
	}
	if got := queryInt64s(t, conn, "SELECT count(*) FROM snaps"); got[0] != 3 {
		t.Errorf("snaps holds %d rows", got[0])
	}
	if got := snapshotRows(t, conn, "SELECT userId, city, __END_AT FROM users ORDER BY 1"); strings.Join(got, ",") != "1 Oaxaca <nil>,2 Monterrey <nil>,3 Tijuana <nil>" {
		t.Errorf("users: %v", got)
	}
	// WITH VERSION: a version not after the last one (Lakeflow's
	// OUT_OF_ORDER_SNAPSHOT_VERSION) or NULL is refused.
	mustExec(t, conn, "CREATE TABLE vs (v int)")
	mustExec(t, conn, "CREATE STREAMING TABLE u2")
	mustExec(t, conn, `CREATE FLOW g AS AUTO CDC INTO u2
FROM SNAPSHOT (SELECT userId, city FROM snaps WHERE v = (SELECT version FROM current_snapshot_version()))
WITH VERSION (SELECT v AS version FROM vs WHERE NOT EXISTS (SELECT 1 FROM last_snapshot_version() l WHERE l.version IS NOT DISTINCT FROM vs.v))
KEYS (userId)`)
	mustExec(t, conn, "INSERT INTO vs VALUES (1)")
	mustExec(t, conn, "REFRESH STREAMING TABLE u2")
	mustExec(t, conn, "UPDATE vs SET v = 0")
	_, err := conn.Exec(ctx, "REFRESH STREAMING TABLE u2")
	requireSQLState(t, err, pgerror.DataException)
	mustExec(t, conn, "UPDATE vs SET v = NULL")
	_, err = conn.Exec(ctx, "REFRESH STREAMING TABLE u2")
	requireSQLState(t, err, pgerror.NotNullViolation)
	if got := queryString(t, conn, "SELECT last_version FROM cdcdb.flows WHERE name = 'g'"); got != "1" {
		t.Errorf("last_version %s", got)
	}
}

// TestSnapshotFlowCrashDuringApply kills the server while REFRESH applies a
// large snapshot: after the restart the target is as before the snapshot or
// as after it, never between.
func TestSnapshotFlowCrashDuringApply(t *testing.T) {
	s := startServer(t)
	conn := connect(t, s.URL())
	mustExec(t, conn, "CREATE TABLE src (id int PRIMARY KEY, v int)")
	mustExec(t, conn, "INSERT INTO src SELECT g, 0 FROM generate_series(1, 100000) g")
	mustExec(t, conn, "CREATE STREAMING TABLE dim")
	mustExec(t, conn, "CREATE FLOW f AS AUTO CDC INTO dim FROM SNAPSHOT src KEYS (id) STORED AS SCD TYPE 2")
	mustExec(t, conn, "UPDATE src SET v = 1")
	done := make(chan error, 1)
	go func() {
		_, err := conn.Exec(context.Background(), "REFRESH STREAMING TABLE dim")
		done <- err
	}()
	select {
	case err := <-done:
		t.Logf("the refresh finished before the kill (%v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	s.Kill()
	s.StartAgain()
	conn = connect(t, s.URL())
	got := snapshotRows(t, conn, "SELECT count(*), count(*) FILTER (WHERE __END_AT IS NULL), count(*) FILTER (WHERE v = 1) FROM dim")
	if got[0] != "100000 100000 0" && got[0] != "200000 100000 100000" {
		t.Errorf("target after the crash: %s", got[0])
	}
	// The flow goes on from whichever state it is in.
	mustExec(t, conn, "REFRESH STREAMING TABLE dim")
	if got := snapshotRows(t, conn, "SELECT count(*), count(*) FILTER (WHERE __END_AT IS NULL AND v = 1) FROM dim"); got[0] != "200000 100000" {
		t.Errorf("target after the next refresh: %s", got[0])
	}
}
