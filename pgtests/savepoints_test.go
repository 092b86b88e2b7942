package pgtests

import (
	"context"
	"fmt"
	"math/rand"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Savepoints behave as PostgreSQL's: SAVEPOINT, RELEASE and ROLLBACK TO,
// nested and with shadowed names, their errors (3B001, 25P01, 25P02), and
// what a rollback to a savepoint takes back (rows, catalog changes,
// parameters, cursors), over the simple and the extended protocol. Each
// expectation is PostgreSQL 15's too.

var savepointSteps = []struct{ sql, want string }{
	{"CREATE TABLE sp (id int PRIMARY KEY, v text)", ""},
	{"SAVEPOINT outside", "ERROR 25P01"},
	{"RELEASE outside", "ERROR 25P01"},
	{"ROLLBACK TO outside", "ERROR 25P01"},

	{"BEGIN", ""},
	{"INSERT INTO sp VALUES (1, 'a')", ""},
	{"SAVEPOINT s1", ""},
	{"INSERT INTO sp VALUES (2, 'b')", ""},
	{"SAVEPOINT s2", ""},
	{"UPDATE sp SET v = 'changed' WHERE id = 1", ""},
	{"DELETE FROM sp WHERE id = 2", ""},
	{"ROLLBACK TO SAVEPOINT s2", ""},
	{"SELECT string_agg(id || v, ',' ORDER BY id) FROM sp", "1a,2b"},
	{"INSERT INTO sp VALUES (3, 'c')", ""},
	{"ROLLBACK TO s2", ""}, // s2 stays, and can be rolled back to again
	{"SELECT count(*) FROM sp", "2"},
	{"RELEASE s2", ""},
	{"ROLLBACK TO s2", "ERROR 3B001"},
	{"SELECT 1", "ERROR 25P02"},
	{"RELEASE s1", "ERROR 25P02"}, // only ROLLBACK [TO] in an aborted block
	{"ROLLBACK TO nothere", "ERROR 3B001"},
	{"ROLLBACK TO s1", ""},
	{"SELECT string_agg(id || v, ',' ORDER BY id) FROM sp", "1a"},

	// An error after a savepoint: ROLLBACK TO brings the block back.
	{"SAVEPOINT s3", ""},
	{"INSERT INTO sp VALUES (4, 'd')", ""},
	{"INSERT INTO sp VALUES (1, 'dup')", "ERROR 23505"},
	{"SELECT count(*) FROM sp", "ERROR 25P02"},
	{"ROLLBACK TO SAVEPOINT s3", ""},
	{"SELECT string_agg(id || v, ',' ORDER BY id) FROM sp", "1a"},

	// Same names: the newer hides the older until released.
	{"SAVEPOINT dup", ""},
	{"INSERT INTO sp VALUES (5, 'e')", ""},
	{"SAVEPOINT dup", ""},
	{"INSERT INTO sp VALUES (6, 'f')", ""},
	{"ROLLBACK TO dup", ""},
	{"SELECT count(*) FROM sp", "2"},
	{"RELEASE dup", ""},
	{"ROLLBACK TO dup", ""},
	{"SELECT count(*) FROM sp", "1"},
	{"RELEASE dup", ""},
	{"RELEASE dup", "ERROR 3B001"},
	{"ROLLBACK", ""},

	// Catalog changes, parameters and cursors after a savepoint go back.
	{"BEGIN", ""},
	{"INSERT INTO sp VALUES (10, 'x')", ""},
	{"SAVEPOINT ddl", ""},
	{"CREATE TABLE sp_new (a int)", ""},
	{"INSERT INTO sp_new VALUES (1)", ""},
	{"ALTER TABLE sp ADD COLUMN extra int", ""},
	{"SET search_path = nowhere, public", ""},
	{"SET LOCAL TimeZone = 'Asia/Tokyo'", ""},
	{"DECLARE c CURSOR FOR SELECT id FROM sp", ""},
	{"ROLLBACK TO ddl", ""},
	{"SELECT count(*) FROM sp_new", "ERROR 42P01"},
	{"ROLLBACK TO ddl", ""},
	{"SELECT count(*) FROM information_schema.columns WHERE table_name = 'sp'", "2"},
	{"SHOW search_path", `"$user", public`},
	{"SHOW TimeZone", "UTC"},
	{"FETCH c", "ERROR 34000"},
	{"ROLLBACK TO ddl", ""},
	{"CREATE TABLE sp_new (b text)", ""}, // the name is free again
	{"SET search_path = kept, public", ""},
	{"RELEASE ddl", ""},
	{"COMMIT", ""},
	{"SELECT string_agg(id || v, ',' ORDER BY id) FROM sp", "10x"},
	{"SELECT count(*) FROM sp_new", "0"},
	{"SHOW search_path", "kept, public"},
	{"RESET search_path", ""},

	// A cursor WITH HOLD goes with the block that declared it if that
	// block rolls back.
	{"BEGIN", ""},
	{"DECLARE held CURSOR WITH HOLD FOR SELECT 1", ""},
	{"ROLLBACK", ""},
	{"FETCH held", "ERROR 34000"},
	{"BEGIN", ""},
	{"DECLARE held CURSOR WITH HOLD FOR SELECT 2", ""},
	{"COMMIT", ""},
	{"FETCH held", "2"},
	{"CLOSE held", ""},

	// A savepoint set before the block's first write.
	{"BEGIN", ""},
	{"SAVEPOINT first", ""},
	{"INSERT INTO sp VALUES (11, 'y')", ""},
	{"ROLLBACK TO first", ""},
	{"INSERT INTO sp VALUES (12, 'z')", ""},
	{"COMMIT", ""},
	{"SELECT string_agg(id::text, ',' ORDER BY id) FROM sp", "10,12"},

	// Sequences keep what was drawn after a savepoint, as PostgreSQL never
	// takes back a nextval; a failed insert used its number too.
	{"CREATE TABLE sq (id serial PRIMARY KEY, v text CHECK (v <> 'bad'))", ""},
	{"BEGIN", ""},
	{"SAVEPOINT before_any_write", ""},
	{"INSERT INTO sq (v) VALUES ('a') RETURNING id", "1"},
	{"ROLLBACK TO before_any_write", ""},
	{"INSERT INTO sq (v) VALUES ('b') RETURNING id", "2"},
	{"SAVEPOINT s", ""},
	{"INSERT INTO sq (v) VALUES ('c') RETURNING id", "3"},
	{"SELECT nextval('sq_id_seq')", "4"},
	{"ROLLBACK TO s", ""},
	{"INSERT INTO sq (v) VALUES ('bad')", "ERROR 23514"},
	{"ROLLBACK TO s", ""},
	{"INSERT INTO sq (v) VALUES ('d') RETURNING id", "6"},
	{"COMMIT", ""},
	{"SELECT string_agg(id || v, ',' ORDER BY id) FROM sq", "2b,6d"},
	{"DROP TABLE sq", ""},

	// COMMIT of an aborted block with savepoints rolls it all back.
	{"BEGIN", ""},
	{"INSERT INTO sp VALUES (13, 'w')", ""},
	{"SAVEPOINT a", ""},
	{"SELECT 1/0", "ERROR 22012"},
	{"COMMIT", ""},
	{"SELECT count(*) FROM sp", "2"},
}

func TestSavepointsAsPostgres(t *testing.T) {
	modes := []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeExec, pgx.QueryExecModeCacheStatement}
	for _, tg := range bothTargets(t) {
		for _, mode := range modes {
			t.Run(fmt.Sprintf("%s/%v", tg.Name, mode), func(t *testing.T) {
				ctx := testContext(t)
				conn := connectMode(t, tg.URL, mode)
				mustExec(t, conn, "DROP TABLE IF EXISTS sp_new")
				mustExec(t, conn, "DROP TABLE IF EXISTS sp")
				mustExec(t, conn, "SET TimeZone = 'UTC'")
				for _, st := range savepointSteps {
					if got := oneValue(ctx, conn, st.sql); got != st.want {
						t.Errorf("%s: got %q, want %q", st.sql, got, st.want)
					}
				}
			})
		}
	}
}

// TestSavepointsRandomAgainstPostgres runs the same random sequences of
// writes, failing writes, DDL, SET, cursors, savepoints, releases,
// rollbacks to savepoints, commits and rollbacks on cdcdb and on
// PostgreSQL 15, and requires every
// statement to answer alike (its error's SQLSTATE, or the rows it
// returned) and the table to hold the same rows after each transaction.
func TestSavepointsRandomAgainstPostgres(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	targets := bothTargets(t)
	if len(targets) < 2 {
		t.Skip("needs cdcdb and PostgreSQL side by side")
	}
	ctx := testContext(t)
	conns := make([]*pgx.Conn, len(targets))
	for i, tg := range targets {
		conns[i] = connectMode(t, tg.URL, pgx.QueryExecModeExec)
		mustExec(t, conns[i], "CREATE TABLE r (k int PRIMARY KEY, v int NOT NULL CHECK (v >= 0))")
	}
	names := []string{"a", "b", "c"}
	// The generator follows the savepoints that exist and whether the
	// block is aborted (from the answers), so that most releases and
	// rollbacks name a savepoint there is, and an aborted block is mostly
	// brought back rather than left to its end.
	var stack []string
	aborted := false
	existing := func() string {
		if len(stack) == 0 || rng.Intn(10) == 0 {
			return names[rng.Intn(len(names))]
		}
		return stack[rng.Intn(len(stack))]
	}
	statement := func() string {
		if aborted && rng.Intn(10) < 7 {
			return "ROLLBACK TO " + existing()
		}
		k, v := rng.Intn(12), rng.Intn(30)
		if rng.Intn(20) == 0 {
			v = -1 // fails its CHECK
		}
		switch rng.Intn(24) {
		case 16:
			return []string{"SET search_path = other, public", "SET LOCAL search_path = local_one, public", "RESET search_path"}[rng.Intn(3)]
		case 17:
			return "SHOW search_path"
		case 18:
			return []string{"CREATE TABLE IF NOT EXISTS side (x int)", "DROP TABLE IF EXISTS side", "ALTER TABLE side ADD COLUMN y int"}[rng.Intn(3)]
		case 19:
			return fmt.Sprintf("INSERT INTO side VALUES (%d)", k)
		case 20:
			return "SELECT count(*) FROM side"
		case 21:
			return "DECLARE cur CURSOR FOR SELECT k FROM r ORDER BY k"
		case 22:
			return []string{"FETCH cur", "CLOSE cur", "FETCH ABSOLUTE 2 FROM cur"}[rng.Intn(3)]
		case 0, 1, 2:
			return fmt.Sprintf("INSERT INTO r VALUES (%d, %d)", k, v) // may fail 23505
		case 3, 4:
			// (v >= 0: cdcdb checks a proposed row's CHECK only when it
			// is inserted, PostgreSQL before it looks for a conflict.)
			return fmt.Sprintf("INSERT INTO r VALUES (%d, %d) ON CONFLICT (k) DO UPDATE SET v = r.v + 1", k, max(v, 0))
		case 5:
			return fmt.Sprintf("UPDATE r SET v = %d WHERE k = %d", v, k)
		case 6:
			return fmt.Sprintf("DELETE FROM r WHERE k = %d", k)
		case 7:
			return "SELECT string_agg(k || ':' || v, ',' ORDER BY k) FROM r"
		case 8, 9, 10:
			return "SAVEPOINT " + names[rng.Intn(len(names))]
		case 11:
			return "RELEASE " + existing()
		case 12, 13:
			return "ROLLBACK TO " + existing()
		case 14:
			if rng.Intn(3) == 0 {
				return "SELECT 1/0"
			}
		}
		return fmt.Sprintf("SELECT v FROM r WHERE k = %d", k)
	}
	follow := func(sql, answer string) {
		failed := strings.HasPrefix(answer, "ERROR")
		if failed {
			aborted = true
			return
		}
		verb, name, _ := strings.Cut(sql, " ")
		switch {
		case verb == "SAVEPOINT":
			stack = append(stack, name)
		case verb == "RELEASE" || strings.HasPrefix(sql, "ROLLBACK TO "):
			name = strings.TrimPrefix(sql, "ROLLBACK TO ")
			name = strings.TrimPrefix(name, "RELEASE ")
			i := len(stack) - 1
			for i >= 0 && stack[i] != name {
				i--
			}
			if verb == "RELEASE" {
				stack = stack[:max(i, 0)]
			} else {
				stack = stack[:i+1]
				aborted = false
			}
		}
	}
	rolledBackTo := 0
	for round := 0; round < 200; round++ {
		stack, aborted = nil, false
		var answered []string
		run := func(sql string) {
			var answers []string
			for _, conn := range conns {
				answers = append(answers, oneValue(ctx, conn, sql))
			}
			answered = append(answered, sql+" -> "+answers[0])
			if answers[0] != answers[1] {
				t.Fatalf("round %d: %s: cdcdb %q, PostgreSQL %q\nscript:\n%s", round, sql, answers[0], answers[1], strings.Join(answered, "\n"))
			}
			if strings.HasPrefix(sql, "ROLLBACK TO") && answers[0] == "" {
				rolledBackTo++
			}
			follow(sql, answers[0])
		}
		run("BEGIN")
		for n := rng.Intn(30); n > 0; n-- {
			run(statement())
		}
		if rng.Intn(4) == 0 {
			run("ROLLBACK")
		} else {
			run("COMMIT")
		}
		run("SELECT coalesce(string_agg(k || ':' || v, ',' ORDER BY k), '') FROM r")
		run("SELECT count(*) FROM side")
		run("SELECT count(*) FROM information_schema.columns WHERE table_name = 'side'")
		run("SHOW search_path")
	}
	t.Logf("%d rollbacks to a savepoint", rolledBackTo)
	if rolledBackTo < 50 {
		t.Errorf("only %d rollbacks to a savepoint: the test does not exercise them", rolledBackTo)
	}
}

// TestSavepointsTakeBackFlows: a flow applied after a savepoint is rolled
// back exactly: its target, its progress and its caches, so that what the
// flow applies after the rollback, and what a later transaction applies,
// is what it would have been had the rolled-back rows never been written.
func TestSavepointsTakeBackFlows(t *testing.T) {
	s := startServer(t)
	ctx := testContext(t)
	conn := connect(t, s.URL())
	for _, table := range []string{"ev", "ref"} {
		mustExec(t, conn, "CREATE TABLE "+table+" (id bigint, v text, seq bigint)")
	}
	mustExec(t, conn, "CREATE STREAMING TABLE latest")
	mustExec(t, conn, "CREATE FLOW f AS AUTO CDC INTO latest FROM stream(ev) KEYS (id) SEQUENCE BY seq")
	mustExec(t, conn, "CREATE STREAMING TABLE hist")
	mustExec(t, conn, "CREATE FLOW fh AS AUTO CDC INTO hist FROM stream(ev) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2")
	mustExec(t, conn, "CREATE STREAMING TABLE ref_latest")
	mustExec(t, conn, "CREATE FLOW rf AS AUTO CDC INTO ref_latest FROM stream(ref) KEYS (id) SEQUENCE BY seq")
	mustExec(t, conn, "CREATE STREAMING TABLE ref_hist")
	mustExec(t, conn, "CREATE FLOW rfh AS AUTO CDC INTO ref_hist FROM stream(ref) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2")

	// A table with a history retention made and written after a
	// savepoint, then rolled back: the commit has nothing of it to prune.
	mustExec(t, conn, "BEGIN")
	mustExec(t, conn, "CREATE TABLE plain_kept (id int)")
	mustExec(t, conn, "SAVEPOINT ret")
	mustExec(t, conn, "CREATE TABLE sp_ret (id int PRIMARY KEY, v int) WITH (history_retention = '1 day')")
	mustExec(t, conn, "INSERT INTO sp_ret VALUES (1, 1)")
	mustExec(t, conn, "UPDATE sp_ret SET v = 2")
	mustExec(t, conn, "ROLLBACK TO ret")
	mustExec(t, conn, "COMMIT")

	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	seq := 0
	batch := func() string {
		var vals []string
		for n := 1 + rng.Intn(5); n > 0; n-- {
			seq++
			vals = append(vals, fmt.Sprintf("(%d, 'v%d', %d)", rng.Intn(8), seq, seq))
		}
		return strings.Join(vals, ", ")
	}
	// ev gets every batch, some of them rolled back to a savepoint; ref
	// only those kept.
	for round := 0; round < 30; round++ {
		mustExec(t, conn, "BEGIN")
		kept := batch()
		mustExec(t, conn, "INSERT INTO ev VALUES "+kept)
		mustExec(t, conn, "INSERT INTO ref VALUES "+kept)
		mustExec(t, conn, "SAVEPOINT s")
		mustExec(t, conn, "INSERT INTO ev VALUES "+batch())
		if rng.Intn(2) == 0 {
			mustExec(t, conn, "SAVEPOINT inner_s")
			mustExec(t, conn, "INSERT INTO ev VALUES "+batch())
		}
		mustExec(t, conn, "ROLLBACK TO SAVEPOINT s")
		after := batch()
		mustExec(t, conn, "INSERT INTO ev VALUES "+after)
		mustExec(t, conn, "INSERT INTO ref VALUES "+after)
		mustExec(t, conn, "COMMIT")
		compareFlowTargets(t, conn, fmt.Sprintf("round %d", round))
	}
	// Batches of thousands of events, which flows apply with several
	// goroutines (storage forks), rolled back to a savepoint.
	mustExec(t, conn, "BEGIN")
	big := "INSERT INTO %s SELECT i %% %d, '%s' || i, i FROM generate_series(%d, %d) i"
	for _, table := range []string{"ev", "ref"} {
		mustExec(t, conn, fmt.Sprintf(big, table, 3000, "a", 100000, 120000))
	}
	mustExec(t, conn, "SAVEPOINT big")
	mustExec(t, conn, fmt.Sprintf(big, "ev", 5000, "b", 120001, 160000))
	mustExec(t, conn, "ROLLBACK TO big")
	for _, table := range []string{"ev", "ref"} {
		mustExec(t, conn, fmt.Sprintf(big, table, 4000, "c", 160001, 190000))
	}
	mustExec(t, conn, "COMMIT")
	compareFlowTargets(t, conn, "after big batches")
	for _, table := range []string{"ev", "ref"} {
		mustExec(t, conn, fmt.Sprintf(big, table, 6000, "d", 190001, 200000))
	}
	compareFlowTargets(t, conn, "after a big batch following them")

	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM hist WHERE __END_AT IS NULL").Scan(&n); err != nil || n == 0 {
		t.Fatalf("hist has %d open versions (%v)", n, err)
	}
	_ = conn.Close(ctx)
	// What a restart replays from the log holds the same.
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	checkDataFile(t, s)
	s.StartAgain()
	conn = connect(t, s.URL())
	compareFlowTargets(t, conn, "after a restart")
}

// compareFlowTargets requires the flows of ev to hold what those of ref
// hold.
func compareFlowTargets(t *testing.T, conn *pgx.Conn, when string) {
	t.Helper()
	for _, pair := range [][2]string{{"latest", "ref_latest"}, {"hist", "ref_hist"}} {
		q := "SELECT coalesce(string_agg(t::text, ';' ORDER BY t::text), '') FROM (SELECT * FROM %s) t"
		got, want := queryString(t, conn, fmt.Sprintf(q, pair[0])), queryString(t, conn, fmt.Sprintf(q, pair[1]))
		if got != want {
			t.Fatalf("%s: %s holds\n%s\nwant (as %s)\n%s", when, pair[0], got, pair[1], want)
		}
	}
}

// TestPsqlOnErrorRollback: psql's ON_ERROR_ROLLBACK sets a savepoint
// before each statement of a block and rolls back to it when the statement
// fails, so a script's failing statement leaves the rest of its block.
func TestPsqlOnErrorRollback(t *testing.T) {
	psql := psqlPath(t)
	script := `\set ON_ERROR_ROLLBACK on
CREATE TABLE oer (id int PRIMARY KEY);
BEGIN;
INSERT INTO oer VALUES (1);
INSERT INTO oer VALUES (1);
INSERT INTO oer VALUES (2);
SELECT 1/0;
INSERT INTO oer VALUES (3);
COMMIT;
SELECT string_agg(id::text, ',' ORDER BY id) FROM oer;
`
	var outs []string
	for _, tg := range bothTargets(t) {
		cmd := exec.Command(psql, "-X", "-q", "-At", "-d", tg.URL)
		cmd.Stdin = strings.NewReader(script)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: psql: %v\n%s", tg.Name, err, out)
		}
		got := string(out)
		if !strings.HasSuffix(got, "1,2,3\n") {
			t.Errorf("%s: psql printed\n%s\nwant the rows 1,2,3 committed", tg.Name, got)
		}
		outs = append(outs, got)
	}
	if len(outs) == 2 && outs[0] != outs[1] {
		t.Errorf("psql printed on cdcdb\n%s\nand on PostgreSQL\n%s", outs[0], outs[1])
	}
}

// TestSavepointsReplanPreparedStatements: statements prepared (protocol
// Parse) against a table made after a savepoint are planned again after
// ROLLBACK TO, failing as the table is gone, and serve the table made
// again under the same name, as in PostgreSQL.
func TestSavepointsReplanPreparedStatements(t *testing.T) {
	var answers [][]string
	for _, tg := range bothTargets(t) {
		ctx := testContext(t)
		conn := connect(t, tg.URL)
		var got []string
		note := func(what string, err error) {
			if err != nil {
				got = append(got, what+": "+errorCode(err))
			} else {
				got = append(got, what+": ok")
			}
		}
		mustExec(t, conn, "BEGIN")
		mustExec(t, conn, "SAVEPOINT a")
		mustExec(t, conn, "CREATE TABLE pn (x int)")
		mustExec(t, conn, "INSERT INTO pn VALUES (1)")
		for name, sql := range map[string]string{"q": "SELECT count(*) FROM pn", "ins": "INSERT INTO pn VALUES ($1)"} {
			if _, err := conn.Prepare(ctx, name, sql); err != nil {
				t.Fatal(err)
			}
		}
		got = append(got, "count: "+oneValue(ctx, conn, "q"))
		mustExec(t, conn, "ROLLBACK TO a")
		got = append(got, "count after: "+oneValue(ctx, conn, "q"))
		mustExec(t, conn, "ROLLBACK TO a")
		_, err := conn.Exec(ctx, "ins", 5)
		note("insert after", err)
		mustExec(t, conn, "ROLLBACK TO a")
		mustExec(t, conn, "CREATE TABLE pn (x int, y int)")
		got = append(got, "count made again: "+oneValue(ctx, conn, "q"))
		_, err = conn.Exec(ctx, "ins", 5)
		note("insert made again", err)
		got = append(got, "count: "+oneValue(ctx, conn, "q"))
		mustExec(t, conn, "ROLLBACK")
		answers = append(answers, got)
	}
	want := "[count: 1 count after: ERROR 42P01 insert after: ERROR 42P01 count made again: 0 insert made again: ok count: 1]"
	for i, got := range answers {
		if fmt.Sprint(got) != want {
			t.Errorf("target %d: %v\nwant %s", i, got, want)
		}
	}
}

// TestSavepointsTakeBackSnapshotFlows: a snapshot flow (VERSION BY) whose
// rows are written after a savepoint and rolled back applies, at commit,
// only the versions kept: the same target as a flow fed only those.
func TestSavepointsTakeBackSnapshotFlows(t *testing.T) {
	s := startServer(t)
	conn := connect(t, s.URL())
	for _, name := range []string{"snaps", "ref_snaps"} {
		mustExec(t, conn, "CREATE TABLE "+name+" (v int, id int, city text)")
	}
	mustExec(t, conn, "CREATE STREAMING TABLE users")
	mustExec(t, conn, "CREATE FLOW f AS AUTO CDC INTO users FROM SNAPSHOT snaps VERSION BY v KEYS (id) STORED AS SCD TYPE 2")
	mustExec(t, conn, "CREATE STREAMING TABLE ref_users")
	mustExec(t, conn, "CREATE FLOW rf AS AUTO CDC INTO ref_users FROM SNAPSHOT ref_snaps VERSION BY v KEYS (id) STORED AS SCD TYPE 2")
	both := func(sql string) {
		mustExec(t, conn, fmt.Sprintf(sql, "snaps"))
		mustExec(t, conn, fmt.Sprintf(sql, "ref_snaps"))
	}
	mustExec(t, conn, "BEGIN")
	both("INSERT INTO %s VALUES (1, 1, 'Oaxaca'), (1, 2, 'Tijuana')")
	mustExec(t, conn, "SAVEPOINT s")
	mustExec(t, conn, "INSERT INTO snaps VALUES (2, 1, 'lost'), (2, 3, 'lost')")
	mustExec(t, conn, "ROLLBACK TO s")
	both("INSERT INTO %s VALUES (3, 2, 'Cancun')")
	mustExec(t, conn, "SAVEPOINT s2")
	mustExec(t, conn, "INSERT INTO snaps VALUES (4, 9, 'lost too')")
	if _, err := conn.Exec(context.Background(), "SELECT 1/0 FROM snaps"); err == nil {
		t.Fatal("1/0 did not fail")
	}
	mustExec(t, conn, "ROLLBACK TO s2")
	mustExec(t, conn, "COMMIT")
	q := "SELECT coalesce(string_agg(t::text, ';' ORDER BY t::text), '') FROM (SELECT * FROM %s) t"
	got, want := queryString(t, conn, fmt.Sprintf(q, "users")), queryString(t, conn, fmt.Sprintf(q, "ref_users"))
	if got != want || want == "" {
		t.Errorf("users holds\n%s\nwant (as ref_users)\n%s", got, want)
	}
}
