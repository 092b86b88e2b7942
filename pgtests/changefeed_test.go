package pgtests

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cdcdb/pgerror"
)

// feedLines runs a query and returns its rows as "a|b|c" lines, in the
// query's order.
func feedLines(t *testing.T, conn *pgx.Conn, query string, args ...any) []string {
	t.Helper()
	rows, err := conn.Query(testContext(t), query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	var out []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			if v == nil {
				parts[i] = "NULL"
			} else {
				parts[i] = fmt.Sprint(v)
			}
		}
		out = append(out, strings.Join(parts, "|"))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return out
}

func expectLines(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s:\n%s\nwant\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestChangeFeedOverTheWire: every change type, windows on and around
// commit boundaries (as versions and as times, as parameters in every
// query mode), joins, WHERE, ORDER BY, COPY (SELECT ...) TO STDOUT, the
// Databricks spelling, and the errors.
func TestChangeFeedOverTheWire(t *testing.T) {
	s := startServer(t)
	conn := connect(t, s.URL())
	mustExec(t, conn, "CREATE TABLE acct (id int PRIMARY KEY, bal int, note text)")
	mustExec(t, conn, "INSERT INTO acct VALUES (1, 10, 'a'), (2, 20, 'b')") // v1
	mustExec(t, conn, "UPDATE acct SET bal = 11 WHERE id = 1")              // v2
	mustExec(t, conn, "DELETE FROM acct WHERE id = 2")                      // v3
	mustExec(t, conn, "BEGIN")                                              // v4:
	mustExec(t, conn, "INSERT INTO acct VALUES (3, 30, 'c')")               //  an insert,
	mustExec(t, conn, "UPDATE acct SET bal = 31 WHERE id = 3")              //  as committed
	mustExec(t, conn, "INSERT INTO acct VALUES (4, 40, 'd')")               //  and a row
	mustExec(t, conn, "DELETE FROM acct WHERE id = 4")                      //  no one saw
	mustExec(t, conn, "COMMIT")                                             //
	mustExec(t, conn, "ALTER TABLE acct SET (fillfactor = 90)")             // no change
	v := queryInt64s(t, conn, "SELECT DISTINCT _commit_version FROM cdcdb.table_changes('acct', 0) ORDER BY 1")
	if len(v) != 4 {
		t.Fatalf("commit versions %v, want 4", v)
	}
	const q = "SELECT id, bal, note, _change_type FROM cdcdb.table_changes('acct', $1::bigint, $2::bigint) ORDER BY _commit_version, id, _change_type DESC"
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeDescribeExec, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		c := connectMode(t, s.URL(), mode)
		expectLines(t, "the whole feed", feedLines(t, c, q, 0, v[3]),
			"1|10|a|insert", "2|20|b|insert",
			"1|10|a|update_preimage", "1|11|a|update_postimage",
			"2|20|b|delete",
			"3|31|c|insert")
		expectLines(t, "[v2, v3]", feedLines(t, c, q, v[1], v[2]), "1|10|a|update_preimage", "1|11|a|update_postimage", "2|20|b|delete")
		expectLines(t, "(v1, v3)", feedLines(t, c, q, v[0]+1, v[2]-1), "1|10|a|update_preimage", "1|11|a|update_postimage")
		expectLines(t, "[v4, v4]", feedLines(t, c, q, v[3], v[3]), "3|31|c|insert")
		expectLines(t, "after v4", feedLines(t, c, q, v[3]+1, v[3]+1_000_000_000))
		// Times: the commit's own timestamp, inclusive at both ends.
		at := time.UnixMicro(v[2])
		expectLines(t, "[t3, t3]", feedLines(t, c, "SELECT id, _change_type FROM cdcdb.table_changes('acct', $1::timestamptz, $2::timestamptz)", at, at), "2|delete")
		expectLines(t, "from t3 (no end)", feedLines(t, c, "SELECT id, _change_type FROM cdcdb.table_changes('acct', $1::timestamptz) ORDER BY id", at), "2|delete", "3|insert")
		// Untyped parameters are read as versions or times by their text.
		expectLines(t, "untyped", feedLines(t, c, "SELECT id, _change_type FROM cdcdb.table_changes('acct', $1, $2) ORDER BY id", fmt.Sprint(v[2]), at.UTC().Format(time.RFC3339Nano)), "2|delete")
		// Joins, WHERE, ORDER BY, aggregates.
		expectLines(t, "join", feedLines(t, c, `SELECT f.id, f._change_type, a.bal FROM cdcdb.table_changes('acct', $1::bigint) AS f
			JOIN acct a ON a.id = f.id WHERE f._change_type <> 'update_preimage' ORDER BY f._commit_version DESC, f.id`, v[0]),
			"3|insert|31", "1|update_postimage|11", "1|insert|11")
		expectLines(t, "counts", feedLines(t, c, "SELECT _change_type, count(*) FROM cdcdb.table_changes('acct', 0) GROUP BY 1 ORDER BY 1"),
			"delete|1", "insert|3", "update_postimage|1", "update_preimage|1")
	}
	// _commit_timestamp is the commit's time, _commit_version its microseconds.
	if got := queryString(t, conn, "SELECT bool_and(extract(epoch FROM _commit_timestamp) * 1000000 = _commit_version)::text FROM cdcdb.table_changes('acct', 0)"); got != "true" {
		t.Fatalf("timestamps and versions disagree")
	}
	var out bytes.Buffer
	if _, err := conn.PgConn().CopyTo(testContext(t), &out, "COPY (SELECT id, bal, _change_type FROM cdcdb.table_changes('acct', 0) WHERE id = 1 ORDER BY _commit_version, _change_type DESC) TO STDOUT WITH (FORMAT csv)"); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "1,10,insert\n1,10,update_preimage\n1,11,update_postimage\n" {
		t.Fatalf("COPY:\n%s", got)
	}
	// Columns as psql and drivers see them.
	rows, err := conn.Query(testContext(t), "SELECT * FROM cdcdb.table_changes('acct', 0) LIMIT 0")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range rows.FieldDescriptions() {
		names = append(names, fmt.Sprintf("%s:%d", f.Name, f.DataTypeOID))
	}
	rows.Close()
	if got := strings.Join(names, " "); got != "id:23 bal:23 note:25 _change_type:25 _commit_version:20 _commit_timestamp:1184" {
		t.Fatalf("columns %s", got)
	}
	// The Databricks dialect knows the function unqualified.
	dbx := connect(t, s.URL())
	mustExec(t, dbx, "SET cdcdb.dialect = 'databricks'")
	if got := queryString(t, dbx, "SELECT count(*)::text FROM table_changes('acct', 0)"); got != "6" {
		t.Fatalf("databricks table_changes: %s rows", got)
	}
	// Errors.
	mustExec(t, conn, "CREATE VIEW acct_view AS SELECT * FROM acct")
	for _, e := range []struct {
		sql  string
		args []any
		code string
	}{
		{"SELECT * FROM cdcdb.table_changes('acct', $1::bigint)", []any{nil}, pgerror.NullValueNotAllowed},
		{"SELECT * FROM cdcdb.table_changes('acct', 0, NULL)", nil, pgerror.NullValueNotAllowed},
		{"SELECT * FROM cdcdb.table_changes('missing', 0)", nil, pgerror.UndefinedTable},
		{"SELECT * FROM cdcdb.table_changes('acct_view', 0)", nil, pgerror.WrongObjectType},
		{"SELECT * FROM cdcdb.table_changes('acct', 1.5)", nil, pgerror.UndefinedFunction},
		{"SELECT * FROM cdcdb.table_changes('acct')", nil, pgerror.UndefinedFunction},
		{"SELECT * FROM table_changes('acct', 0)", nil, pgerror.UndefinedFunction},
		{"SELECT * FROM cdcdb.table_changes($1, 0)", []any{"acct"}, pgerror.FeatureNotSupported},
		{"SELECT * FROM cdcdb.table_changes('acct', 'yesterday-ish')", nil, pgerror.InvalidParameterValue},
	} {
		_, err := conn.Exec(testContext(t), e.sql, e.args...)
		requireSQLState(t, err, e.code)
	}
}

// TestChangeFeedRetentionOverTheWire: a table's history_retention, given at
// CREATE TABLE, bounds how far back its feed goes, and a start before that
// is refused with how far back it does go.
func TestChangeFeedRetentionOverTheWire(t *testing.T) {
	s := startServer(t)
	conn := connect(t, s.URL())
	mustExec(t, conn, "CREATE TABLE r (id int PRIMARY KEY, v int) WITH (history_retention = '1 second')")
	mustExec(t, conn, "INSERT INTO r VALUES (1, 1)")
	first := queryInt64s(t, conn, "SELECT _commit_version FROM cdcdb.table_changes('r', 0)")[0]
	if n := len(feedLines(t, conn, "SELECT * FROM cdcdb.table_changes('r', $1::bigint)", first)); n != 1 {
		t.Fatalf("%d changes, want 1", n)
	}
	time.Sleep(1200 * time.Millisecond)
	mustExec(t, conn, "UPDATE r SET v = 2") // the insert's commit is now over a second old
	_, err := conn.Exec(testContext(t), "SELECT * FROM cdcdb.table_changes('r', $1::bigint)", first)
	pe := requireSQLState(t, err, pgerror.InvalidParameterValue)
	if !strings.Contains(pe.Detail, "kept from commit version") {
		t.Fatalf("detail %q", pe.Detail)
	}
	var kept int64
	if _, err := fmt.Sscanf(pe.Detail, "Its changes are kept from commit version %d", &kept); err != nil {
		t.Fatalf("detail %q: %v", pe.Detail, err)
	}
	expectLines(t, "from the cut-off", feedLines(t, conn, "SELECT v, _change_type FROM cdcdb.table_changes('r', $1::bigint) ORDER BY _commit_version, _change_type DESC", kept),
		"1|update_preimage", "2|update_postimage")
}

// TestChangeFeedOfStreamingTable: the feed of an SCD TYPE 2 target shows
// what its flow wrote, a late event's rewrite of history included.
func TestChangeFeedOfStreamingTable(t *testing.T) {
	s := startServer(t)
	conn := connect(t, s.URL())
	mustExec(t, conn, "CREATE TABLE ev (id int, v text, seq int)")
	mustExec(t, conn, "CREATE STREAMING TABLE h")
	mustExec(t, conn, "CREATE FLOW hf AS AUTO CDC INTO h FROM ev KEYS (id) SEQUENCE BY seq COLUMNS id, v STORED AS SCD TYPE 2")
	mustExec(t, conn, "INSERT INTO ev VALUES (1, 'a', 10)")
	mustExec(t, conn, "INSERT INTO ev VALUES (1, 'c', 30)")
	mark := queryInt64s(t, conn, "SELECT max(_commit_version) FROM cdcdb.table_changes('h', 0)")[0]
	mustExec(t, conn, "INSERT INTO ev VALUES (1, 'b', 20)") // late: splits [10, 30)
	expectLines(t, "the late event's commit", feedLines(t, conn, `SELECT v, __start_at, coalesce(__end_at::text, '-'), _change_type
		FROM cdcdb.table_changes('h', $1::bigint + 1) ORDER BY _change_type DESC, __start_at`, mark),
		"a|10|30|update_preimage", "a|10|20|update_postimage", "b|20|30|insert")
}
