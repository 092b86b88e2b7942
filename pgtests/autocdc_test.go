package pgtests

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"cdcdb/pgtests/pgserver"
)

// The spec's §3 example, as typed by a user.
const specSource = `CREATE TABLE users_cdf (userId int, name text, city text, operation text, sequenceNum int);`

var specEvents = [][]any{
	{124, "Raul", "Oaxaca", "INSERT", 1},
	{123, "Isabel", "Monterrey", "INSERT", 1},
	{125, "Mercedes", "Tijuana", "INSERT", 2},
	{126, "Lily", "Cancun", "INSERT", 2},
	{123, nil, nil, "DELETE", 6},
	{125, "Mercedes", "Guadalajara", "UPDATE", 6},
	{125, "Mercedes", "Mexicali", "UPDATE", 5},
	{123, "Isabel", "Chihuahua", "UPDATE", 5},
}

func specFlow(storedAs, extra string) string {
	return `CREATE OR REFRESH STREAMING TABLE users_current;
CREATE FLOW apply_cdc AS AUTO CDC INTO users_current
FROM stream(users_cdf) KEYS (userId)
APPLY AS DELETE WHEN operation = "DELETE"
` + extra + `
SEQUENCE BY sequenceNum
COLUMNS * EXCEPT (operation, sequenceNum)
STORED AS ` + storedAs + `;`
}

const specTruncate = `APPLY AS TRUNCATE WHEN operation = "TRUNCATE"`

// TestAutoCDCSpecExamplesOverPgx runs the spec's SCD TYPE 1 and 2 examples
// through pgx with parameterized inserts, delivering the events in several
// orders and batchings, some before CREATE FLOW.
func TestAutoCDCSpecExamplesOverPgx(t *testing.T) {
	s := startServer(t)
	ctx := testContext(t)
	cases := []struct {
		name, flow, query string
		events            [][]any
		want              []string
	}{
		{"scd1", specFlow("SCD TYPE 1", specTruncate), "SELECT userid, name, city FROM users_current ORDER BY 1", specEvents,
			[]string{"124 Raul Oaxaca", "125 Mercedes Guadalajara", "126 Lily Cancun"}},
		{"scd1 truncate", specFlow("SCD TYPE 1", specTruncate), "SELECT userid, name, city FROM users_current ORDER BY 1",
			append(append([][]any(nil), specEvents...), []any{nil, nil, nil, "TRUNCATE", 3}),
			[]string{"125 Mercedes Guadalajara"}},
		{"scd2", specFlow("SCD TYPE 2", ""), "SELECT userid, name, city, __start_at, __end_at FROM users_current ORDER BY 1, 4", specEvents,
			[]string{"123 Isabel Monterrey 1 5", "123 Isabel Chihuahua 5 6", "124 Raul Oaxaca 1 <nil>", "125 Mercedes Tijuana 2 5",
				"125 Mercedes Mexicali 5 6", "125 Mercedes Guadalajara 6 <nil>", "126 Lily Cancun 2 <nil>"}},
		{"scd2 track", specFlow("SCD TYPE 2", "") + "", "SELECT userid, name, city, __start_at, __end_at FROM users_current ORDER BY 1, 4", specEvents,
			[]string{"123 Isabel Chihuahua 1 6", "124 Raul Oaxaca 1 <nil>", "125 Mercedes Guadalajara 2 <nil>", "126 Lily Cancun 2 <nil>"}},
	}
	cases[3].flow = strings.TrimSuffix(cases[3].flow, ";") + " TRACK HISTORY ON * EXCEPT (city);"
	rng := rand.New(rand.NewPCG(42, 1))
	for _, tc := range cases {
		for round := 0; round < 4; round++ {
			mode := []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeDescribeExec}[round]
			conn := connectMode(t, s.URL(), mode)
			schema := fmt.Sprintf("s_%d", rng.IntN(1_000_000))
			mustExec(t, conn, "CREATE SCHEMA "+schema)
			mustExec(t, conn, "SET search_path = "+schema)
			mustExec(t, conn, specSource)
			order := rng.Perm(len(tc.events))
			if round == 0 {
				for i := range order {
					order[i] = i
				}
			}
			before := rng.IntN(len(order) + 1)
			insert := func(idx []int) {
				if len(idx) == 0 {
					return
				}
				var ph []string
				var args []any
				for _, i := range idx {
					n := len(args)
					ph = append(ph, fmt.Sprintf("($%d::int, $%d::text, $%d::text, $%d::text, $%d::int)", n+1, n+2, n+3, n+4, n+5))
					args = append(args, tc.events[i]...)
				}
				mustExec(t, conn, "INSERT INTO users_cdf VALUES "+strings.Join(ph, ", "), args...)
			}
			// Rows before the flow exist in two statements, the rest one by one.
			insert(order[:before/2])
			insert(order[before/2 : before])
			for _, stmt := range strings.Split(tc.flow, ";") {
				if strings.TrimSpace(stmt) != "" {
					mustExec(t, conn, stmt)
				}
			}
			for _, i := range order[before:] {
				insert([]int{i})
			}
			rows, err := conn.Query(ctx, tc.query)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			var got []string
			for rows.Next() {
				vals, err := rows.Values()
				if err != nil {
					t.Fatal(err)
				}
				parts := make([]string, len(vals))
				for i, v := range vals {
					parts[i] = fmt.Sprint(v)
				}
				got = append(got, strings.Join(parts, " "))
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("%s (mode %v, order %v, %d before the flow):\ngot\n%s\nwant\n%s", tc.name, mode, order, before, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		}
	}
}

// TestAutoCDCSpecExampleOverPsql types the spec's SCD TYPE 2 example into
// psql and checks what psql prints, exactly.
func TestAutoCDCSpecExampleOverPsql(t *testing.T) {
	s := startServer(t)
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString(specSource + "\n")
	sb.WriteString("INSERT INTO users_cdf VALUES (124, 'Raul', 'Oaxaca', 'INSERT', 1), (123, 'Isabel', 'Monterrey', 'INSERT', 1);\n")
	sb.WriteString(specFlow("SCD TYPE 2", "") + "\n")
	sb.WriteString("INSERT INTO users_cdf VALUES (125, 'Mercedes', 'Tijuana', 'INSERT', 2), (126, 'Lily', 'Cancun', 'INSERT', 2);\n")
	sb.WriteString("INSERT INTO users_cdf VALUES (123, NULL, NULL, 'DELETE', 6), (125, 'Mercedes', 'Guadalajara', 'UPDATE', 6);\n")
	sb.WriteString("INSERT INTO users_cdf VALUES (125, 'Mercedes', 'Mexicali', 'UPDATE', 5);\n")
	sb.WriteString("INSERT INTO users_cdf VALUES (123, 'Isabel', 'Chihuahua', 'UPDATE', 5);\n")
	sb.WriteString("SELECT * FROM users_current ORDER BY userId, __START_AT;\n")
	sb.WriteString("SELECT name, source, target, stored_as, keys, events_applied, last_sequence FROM cdcdb.flows;\n")
	if err := os.WriteFile(filepath.Join(dir, "spec.sql"), []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	to := psqlTarget{"cdcdb", s.Host(), s.Port(), pgserver.Database}
	res := runPsql(t, to, dir, "-f", "spec.sql")
	if res.exitCode != 0 {
		t.Fatalf("psql failed: %s\n%s", res.stderr, res.stdout)
	}
	want := ` userid |   name   |    city     | __start_at | __end_at 
--------+----------+-------------+------------+----------
    123 | Isabel   | Monterrey   |          1 |        5
    123 | Isabel   | Chihuahua   |          5 |        6
    124 | Raul     | Oaxaca      |          1 |         
    125 | Mercedes | Tijuana     |          2 |        5
    125 | Mercedes | Mexicali    |          5 |        6
    125 | Mercedes | Guadalajara |          6 |         
    126 | Lily     | Cancun      |          2 |         
(7 rows)
`
	if !strings.Contains(res.stdout, want) {
		t.Errorf("psql output lacks the spec's table.\ngot:\n%s\nwant it to contain:\n%s", res.stdout, want)
	}
	wantFlows := `   name    |  source   |    target     | stored_as  |   keys   | events_applied | last_sequence 
-----------+-----------+---------------+------------+----------+----------------+---------------
 apply_cdc | users_cdf | users_current | SCD TYPE 2 | {userid} |              8 | 6
(1 row)
`
	if !strings.Contains(res.stdout, wantFlows) {
		t.Errorf("psql output lacks cdcdb.flows.\ngot:\n%s\nwant it to contain:\n%s", res.stdout, wantFlows)
	}
}

// TestAutoCDCRefusalsOverTheWire checks that refused events reach the
// client as PostgreSQL errors and leave nothing behind, and that an
// identical retry is accepted.
func TestAutoCDCRefusalsOverTheWire(t *testing.T) {
	s := startServer(t)
	conn := connect(t, s.URL())
	ctx := testContext(t)
	mustExec(t, conn, specSource)
	for _, stmt := range strings.Split(specFlow("SCD TYPE 1", specTruncate), ";") {
		if strings.TrimSpace(stmt) != "" {
			mustExec(t, conn, stmt)
		}
	}
	mustExec(t, conn, "INSERT INTO users_cdf VALUES (1, 'a', 'x', 'INSERT', 1)")
	snapshot := func() string {
		return queryString(t, conn, "SELECT coalesce(string_agg(userid || ':' || city, ',' ORDER BY userid), '') || '/' || (SELECT count(*) FROM users_cdf) FROM users_current")
	}
	before := snapshot()
	for _, tc := range []struct {
		code, sql string
		args      []any
	}{
		{"23502", "INSERT INTO users_cdf VALUES ($1, 'b', 'y', 'INSERT', NULL)", []any{2}},
		{"23502", "INSERT INTO users_cdf VALUES (3, 'c', 'z', 'INSERT', 7), (NULL, 'b', 'y', 'INSERT', 3)", nil},
		{"21000", "INSERT INTO users_cdf VALUES (4, 'd', 'w', 'INSERT', 2), (1, 'changed', 'x', 'INSERT', 1)", nil},
		{"42809", "UPDATE users_cdf SET city = 'q'", nil},
		{"42809", "DELETE FROM users_current", nil},
		{"2BP01", "DROP TABLE users_cdf", nil},
	} {
		_, err := conn.Exec(ctx, tc.sql, tc.args...)
		requireSQLState(t, err, tc.code)
		if after := snapshot(); after != before {
			t.Fatalf("%s changed data: %s -> %s", tc.sql, before, after)
		}
	}
	// COPY is refused as a whole on a bad event.
	_, err := conn.PgConn().CopyFrom(ctx, strings.NewReader("5\te\tv\tINSERT\t9\n6\tf\tu\tINSERT\t\\N\n"), "COPY users_cdf FROM STDIN")
	requireSQLState(t, err, "23502")
	if after := snapshot(); after != before {
		t.Fatalf("refused COPY changed data: %s -> %s", before, after)
	}
	mustExec(t, conn, "INSERT INTO users_cdf VALUES (1, 'a', 'x', 'INSERT', 1)")
	if got := queryString(t, conn, "SELECT string_agg(userid || ':' || city, ',') FROM users_current"); got != "1:x" {
		t.Fatalf("after retry: %s", got)
	}
}

// TestAutoCDCCopyBackfillOnceAndRefresh covers COPY into a source, the
// backfill of CREATE FLOW (with its progress notices), ONCE flows and
// REFRESH STREAMING TABLE.
func TestAutoCDCCopyBackfillOnceAndRefresh(t *testing.T) {
	s := startServer(t)
	ctx := testContext(t)
	var notices []string
	cfg, err := pgx.ParseConfig(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { notices = append(notices, n.Message) }
	conn := connectConfig(t, cfg)
	mustExec(t, conn, "CREATE TABLE ev (id bigint, v text, seq bigint)")
	// 120,000 events over 1,000 keys; the last event per key wins.
	rows := make([][]any, 0, 120_000)
	for i := 0; i < 120_000; i++ {
		rows = append(rows, []any{int64(i % 1000), fmt.Sprintf("v%d", i), int64(i)})
	}
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"ev"}, []string{"id", "v", "seq"}, pgx.CopyFromRows(rows))
	if err != nil || n != int64(len(rows)) {
		t.Fatalf("copy: %d %v", n, err)
	}
	mustExec(t, conn, "CREATE STREAMING TABLE latest")
	mustExec(t, conn, "CREATE FLOW f AS AUTO CDC INTO latest FROM stream(ev) KEYS (id) SEQUENCE BY seq")
	if got := queryString(t, conn, "SELECT count(*) || ' ' || max(v) FROM latest WHERE id = 7"); got != "1 v119007" {
		t.Fatalf("backfill: %s", got)
	}
	progress := false
	for _, m := range notices {
		if strings.Contains(m, "applied") && strings.Contains(m, "source rows") {
			progress = true
		}
	}
	if !progress {
		t.Fatalf("no backfill progress notice among %q", notices)
	}
	// A ONCE flow applies only the rows present when it is created.
	mustExec(t, conn, "CREATE STREAMING TABLE snapshot")
	mustExec(t, conn, "CREATE FLOW once_f AS AUTO CDC ONCE INTO snapshot FROM ev KEYS (id) SEQUENCE BY seq")
	mustExec(t, conn, "INSERT INTO ev VALUES (7, 'later', 999999)")
	if got := queryString(t, conn, "SELECT (SELECT v FROM latest WHERE id = 7) || ' ' || (SELECT v FROM snapshot WHERE id = 7)"); got != "later v119007" {
		t.Fatalf("once: %s", got)
	}
	// REFRESH rebuilds a target from its source's full history.
	mustExec(t, conn, "REFRESH STREAMING TABLE snapshot FULL")
	if got := queryString(t, conn, "SELECT v FROM snapshot WHERE id = 7"); got != "later" {
		t.Fatalf("refresh: %s", got)
	}
	if got := queryString(t, conn, "SELECT events_applied::text FROM cdcdb.flows WHERE name = 'f'"); got != "120001" {
		t.Fatalf("events_applied: %s", got)
	}
}

// TestDatabricksDialectSampleVerbatim runs the documentation's sample-data
// SQL in the Databricks dialect.
func TestDatabricksDialectSampleVerbatim(t *testing.T) {
	s := startServer(t)
	conn := connect(t, s.URL())
	ctx := context.Background()
	mustExec(t, conn, "SET cdcdb.dialect = 'databricks'")
	for _, stmt := range []string{
		"CREATE TABLE IF NOT EXISTS main.default.users_cdf (userId INT, name STRING, city STRING, operation STRING, sequenceNum INT)",
		`INSERT INTO main.default.users_cdf VALUES
  -- Initial load.
  (124, "Raul",     "Oaxaca",      "INSERT", 1),
  (123, "Isabel",   "Monterrey",   "INSERT", 1),
  -- New users.
  (125, "Mercedes", "Tijuana",     "INSERT", 2),
  (126, "Lily",     "Cancun",      "INSERT", 2),
  -- Isabel is removed from the system and Mercedes moved to Guadalajara.
  (123, null,       null,          "DELETE", 6),
  (125, "Mercedes", "Guadalajara", "UPDATE", 6),
  -- This batch of updates arrived out of order. The above batch at sequenceNum 6 will be the final state.
  (125, "Mercedes", "Mexicali",    "UPDATE", 5),
  (123, "Isabel",   "Chihuahua",   "UPDATE", 5)`,
		"CREATE OR REFRESH STREAMING TABLE target",
		"CREATE FLOW flow AS AUTO CDC INTO target FROM stream(main.default.users_cdf) KEYS (userId) " +
			`APPLY AS DELETE WHEN operation = "DELETE" APPLY AS TRUNCATE WHEN operation = "TRUNCATE" ` +
			"SEQUENCE BY sequenceNum COLUMNS * EXCEPT (operation, sequenceNum) STORED AS SCD TYPE 1",
	} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if got := queryString(t, conn, "SELECT string_agg(`userId` || ' ' || city, ', ' ORDER BY userId) FROM main.default.target"); got != "124 Oaxaca, 125 Guadalajara, 126 Cancun" {
		t.Fatalf("target: %s", got)
	}
	if got := queryString(t, conn, "SELECT col1 || col2 FROM (VALUES (\"a\", \"b\"))"); got != "ab" {
		t.Fatalf("VALUES columns: %s", got)
	}
	// The PostgreSQL dialect stays the default for other sessions.
	other := connect(t, s.URL())
	if got := queryString(t, other, `SELECT current_setting('cdcdb.dialect')`); got != "postgres" {
		t.Fatalf("default dialect: %s", got)
	}
}
