package pgtests

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cdcdb/pgerror"
)

// feedLines runs a query and returns its rows as "a|b|c" lines, NULL for a
// null, in the query's order.
func feedLines(t *testing.T, conn *pgx.Conn, query string, args ...any) []string {
	t.Helper()
	out, err := rowLines(testContext(t), conn, "|", func(v any) string {
		if v == nil {
			return "NULL"
		}
		return fmt.Sprint(v)
	}, query, args...)
	if err != nil {
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

// TestChangeFeedChainRandomized drives a plain table with random
// transactions (inserts, updates, deletes in random order, several to one
// key, some rolled back) through a chain of two change feed flows, src ->
// mirror (SCD TYPE 1) -> hist (SCD TYPE 2), across a server restart and
// REFRESHes of both targets, and checks both targets against a plain model:
// mirror is src, and hist holds every version src's rows had, from the
// commit that made it to the one that ended it.
func TestChangeFeedChainRandomized(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 47))
	s := startServer(t)
	conn := connect(t, s.URL())

	type version struct {
		v          int
		start, end int64 // end 0: open
	}
	current := map[int]int{}       // src (and mirror) now
	history := map[int][]version{} // hist's expected rows
	next := 0
	// The first rows are there before the flows: backfilled.
	mustExec(t, conn, "CREATE TABLE src (id int PRIMARY KEY, v int)")
	for id := 1; id <= 5; id++ {
		next++
		current[id] = next
		mustExec(t, conn, "INSERT INTO src VALUES ($1, $2)", id, next)
	}
	mustExec(t, conn, "CREATE STREAMING TABLE mirror")
	mustExec(t, conn, `CREATE FLOW mirror AS AUTO CDC INTO mirror FROM stream(cdcdb.table_changes('src', 0))
		KEYS (id) APPLY AS DELETE WHEN _change_type = 'delete' SEQUENCE BY _commit_version`)
	mustExec(t, conn, "CREATE STREAMING TABLE hist")
	mustExec(t, conn, `CREATE FLOW hist AS AUTO CDC INTO hist FROM stream(cdcdb.table_changes('mirror', 0))
		KEYS (id) APPLY AS DELETE WHEN _change_type = 'delete' SEQUENCE BY _commit_version STORED AS SCD TYPE 2`)
	if got := queryString(t, conn, "SELECT string_agg(name || ':' || kind || ':' || source, ',' ORDER BY name) FROM cdcdb.flows"); got != "hist:change feed:mirror,mirror:change feed:src" {
		t.Fatalf("cdcdb.flows lists the feed flows as %q", got)
	}
	// mirror's rows were made by its flow's backfill, in one commit.
	made := queryInt64s(t, conn, "SELECT max(_commit_version) FROM cdcdb.table_changes('mirror', 0)")[0]
	for id, v := range current {
		history[id] = []version{{v: v, start: made}}
	}
	last := made

	check := func(when string) {
		t.Helper()
		var want []string
		for id, v := range current {
			want = append(want, fmt.Sprintf("%d|%d", id, v))
		}
		sort.Strings(want)
		got := feedLines(t, conn, "SELECT id, v FROM mirror")
		sort.Strings(got)
		expectLines(t, when+": mirror (seed "+fmt.Sprint(seed)+")", got, want...)
		want = want[:0]
		for id, vs := range history {
			for _, ver := range vs {
				end := "NULL"
				if ver.end != 0 {
					end = fmt.Sprint(ver.end)
				}
				want = append(want, fmt.Sprintf("%d|%d|%d|%s", id, ver.v, ver.start, end))
			}
		}
		sort.Strings(want)
		got = feedLines(t, conn, "SELECT id, v, __start_at, __end_at FROM hist")
		sort.Strings(got)
		expectLines(t, when+": hist (seed "+fmt.Sprint(seed)+")", got, want...)
	}
	check("after the backfill")

	const rounds = 120
	for round := 0; round < rounds; round++ {
		switch round {
		case rounds / 3:
			s.Restart()
			conn = connect(t, s.URL())
			check("after the restart")
		case rounds / 2:
			mustExec(t, conn, "REFRESH STREAMING TABLE hist")
			check("after REFRESH hist")
		}
		// One transaction of 1..4 writes to random keys.
		state := map[int]int{}
		for id, v := range current {
			state[id] = v
		}
		mustExec(t, conn, "BEGIN")
		for n := 1 + rng.IntN(4); n > 0; n-- {
			id := 1 + rng.IntN(12)
			_, present := state[id]
			next++
			switch {
			case !present:
				mustExec(t, conn, "INSERT INTO src VALUES ($1, $2)", id, next)
				state[id] = next
			case rng.IntN(3) == 0:
				mustExec(t, conn, "DELETE FROM src WHERE id = $1", id)
				delete(state, id)
			default:
				mustExec(t, conn, "UPDATE src SET v = $2 WHERE id = $1", id, next)
				state[id] = next
			}
		}
		if rng.IntN(10) == 0 {
			mustExec(t, conn, "ROLLBACK")
			continue
		}
		mustExec(t, conn, "COMMIT")
		changed := queryInt64s(t, conn, "SELECT coalesce(max(_commit_version), 0) FROM cdcdb.table_changes('src', $1::bigint)", last+1)[0]
		for id := 1; id <= 12; id++ {
			before, had := current[id]
			after, has := state[id]
			if had == has && before == after {
				continue
			}
			if changed == 0 {
				t.Fatalf("round %d: key %d changed but src's feed has no new commit (seed %d)", round, id, seed)
			}
			vs := history[id]
			if had {
				vs[len(vs)-1].end = changed
			}
			if has {
				vs = append(vs, version{v: after, start: changed})
			}
			history[id] = vs
		}
		if changed != 0 {
			last = changed
		}
		current = state
		if round%20 == 19 {
			check(fmt.Sprintf("round %d", round))
		}
	}
	check("at the end")
	// A REFRESH of the middle of the chain rebuilds mirror as it was.
	mustExec(t, conn, "REFRESH STREAMING TABLE mirror")
	mustExec(t, conn, "REFRESH STREAMING TABLE hist")
	check("after REFRESH mirror, hist")
}

// TestBeliefChangesOverTheWire asks the spec's §5 walk-through, over the
// wire with the system times as parameters, which business-time rows the
// system's belief changed between 12:22 and 12:31.
func TestBeliefChangesOverTheWire(t *testing.T) {
	s := startServer(t)
	conn := connect(t, s.URL())
	mustExec(t, conn, "CREATE TABLE ev (CompanyId text, DataPoint text, bt timestamp, st timestamp, op text)")
	mustExec(t, conn, "CREATE STREAMING TABLE h")
	mustExec(t, conn, `CREATE FLOW hf AS AUTO CDC INTO h FROM stream(ev) KEYS (CompanyId) APPLY AS DELETE WHEN op = "DELETE"
		SEQUENCE BY bt SYSTEM SEQUENCE BY st COLUMNS * EXCEPT (bt, st, op) STORED AS BITEMPORAL`)
	for _, step := range walkThroughOverWire {
		mustExec(t, conn, "INSERT INTO ev VALUES "+step.event)
	}
	at := func(hhmm string) time.Time {
		v, err := time.Parse("2006-01-02 15:04:05", "2025-07-18 "+hhmm)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		c := connectMode(t, s.URL(), mode)
		got := clockRows(t, c, "SELECT DataPoint, __start_at, __end_at, _belief FROM cdcdb.belief_changes('h', $1, $2)", at("12:22:00"), at("12:31:00"))
		expectLines(t, fmt.Sprintf("mode %v", mode), got,
			"XFv1 10:01:00 12:05:00 added", "XFv1 10:01:00 12:15:43 withdrawn",
			"XFv2 12:15:43 12:30:00 added", "XFv2 12:15:43 NULL withdrawn",
			"XFv3 12:05:00 12:15:43 added")
	}
}
