package sql_test

import (
	"strings"
	"testing"

	"cdcdb/pgerror"
	"cdcdb/sql/sqltest"
)

// feedRows reads a change feed query as "id|v|_change_type" lines, leaving
// the commit columns out, and the distinct commit versions in order.
func feedRows(t *testing.T, c *sqltest.Conn, query string, params ...string) (rows []string, versions []string) {
	t.Helper()
	r := c.MustExec(query, params...)
	for _, row := range r.Rows {
		n := len(row)
		rows = append(rows, strings.Join(row[:n-2], "|"))
		if len(versions) == 0 || versions[len(versions)-1] != row[n-2] {
			versions = append(versions, row[n-2])
		}
	}
	return rows, versions
}

func TestTableChangesKindsAndWindows(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE acct (id int PRIMARY KEY, bal int)")
	c.MustExec("INSERT INTO acct VALUES (1, 10), (2, 20)")
	c.MustExec("UPDATE acct SET bal = 11 WHERE id = 1")
	c.MustExec("DELETE FROM acct WHERE id = 2")
	c.MustExec("BEGIN")
	c.MustExec("INSERT INTO acct VALUES (3, 30)")
	c.MustExec("UPDATE acct SET bal = 31 WHERE id = 3") // one commit: an insert
	c.MustExec("INSERT INTO acct VALUES (4, 40)")
	c.MustExec("DELETE FROM acct WHERE id = 4") // never seen: nothing
	c.MustExec("COMMIT")
	all, versions := feedRows(t, c, "SELECT * FROM cdcdb.table_changes('acct', 0) ORDER BY _commit_version, id, _change_type")
	want := []string{
		"1|10|insert", "2|20|insert",
		"1|11|update_postimage", "1|10|update_preimage", // (sorted by _change_type)
		"2|20|delete",
		"3|31|insert",
	}
	if strings.Join(all, ",") != strings.Join(want, ",") {
		t.Fatalf("feed = %v\nwant %v", all, want)
	}
	if len(versions) != 4 {
		t.Fatalf("versions %v, want 4", versions)
	}
	// Bounds are inclusive, as versions and as times.
	got, _ := feedRows(t, c, "SELECT * FROM cdcdb.table_changes('acct', $1, $2) ORDER BY id, _change_type", versions[1], versions[2])
	if strings.Join(got, ",") != "1|11|update_postimage,1|10|update_preimage,2|20|delete" {
		t.Fatalf("window [v1, v2] = %v", got)
	}
	got, _ = feedRows(t, c, "SELECT * FROM cdcdb.table_changes('acct', "+versions[1]+"+1, "+versions[3]+"-1)")
	if strings.Join(got, ",") != "2|20|delete" {
		t.Fatalf("window (v1, v3) = %v", got)
	}
	ts := c.MustExec("SELECT DISTINCT _commit_timestamp::text FROM cdcdb.table_changes('acct', 0) WHERE _commit_version = " + versions[2]).Rows[0][0]
	got, _ = feedRows(t, c, "SELECT * FROM cdcdb.table_changes('acct', '"+ts+"', '"+ts+"'::timestamptz)")
	if strings.Join(got, ",") != "2|20|delete" {
		t.Fatalf("window [t2, t2] = %v", got)
	}
	// Time expressions and dates as bounds.
	if got, _ := feedRows(t, c, "SELECT * FROM cdcdb.table_changes('acct', now() - interval '1 hour')"); len(got) != len(want) {
		t.Fatalf("the last hour: %v", got)
	}
	if got, _ := feedRows(t, c, "SELECT * FROM cdcdb.table_changes('acct', DATE '2000-01-01', DATE '2001-01-01')"); len(got) != 0 {
		t.Fatalf("2000: %v", got)
	}
	// A transaction sees its own changes, at the version it will commit at.
	c.MustExec("BEGIN")
	c.MustExec("UPDATE acct SET bal = 12 WHERE id = 1")
	own, ownVersions := feedRows(t, c, "SELECT * FROM cdcdb.table_changes('acct', $1::bigint + 1) ORDER BY _change_type", versions[3])
	c.MustExec("COMMIT")
	after, afterVersions := feedRows(t, c, "SELECT * FROM cdcdb.table_changes('acct', $1::bigint + 1) ORDER BY _change_type", versions[3])
	if strings.Join(own, ",") != "1|12|update_postimage,1|11|update_preimage" || strings.Join(own, ",") != strings.Join(after, ",") ||
		strings.Join(ownVersions, ",") != strings.Join(afterVersions, ",") {
		t.Fatalf("own changes %v %v, committed %v %v", own, ownVersions, after, afterVersions)
	}
	c.ExpectError(pgerror.NullValueNotAllowed, "SELECT * FROM cdcdb.table_changes('acct', NULL)")
	c.ExpectError(pgerror.UndefinedTable, "SELECT * FROM cdcdb.table_changes('nope', 0)")
	c.MustExec("CREATE VIEW av AS SELECT * FROM acct")
	c.ExpectError(pgerror.WrongObjectType, "SELECT * FROM cdcdb.table_changes('av', 0)")
	c.ExpectError(pgerror.UndefinedFunction, "SELECT * FROM cdcdb.table_changes('acct', true)")
	c.ExpectError(pgerror.UndefinedFunction, "SELECT * FROM cdcdb.table_changes('acct')")
	c.ExpectError(pgerror.UndefinedFunction, "SELECT * FROM table_changes('acct', 0)")
}

// TestTableChangesRetention: CREATE TABLE ... WITH (history_retention) is
// kept, and a start before what retention keeps is refused with how far
// back the table goes.
func TestTableChangesRetention(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.ExpectError(pgerror.InvalidParameterValue, "CREATE TABLE bad (id int) WITH (history_retention = 'soon')")
	c.MustExec("CREATE TABLE r (id int PRIMARY KEY, v int) WITH (history_retention = '0 seconds')")
	if got := c.MustExec("SELECT reloptions::text FROM pg_class WHERE relname = 'r'").Rows[0][0]; !strings.Contains(got, "history_retention=0 seconds") {
		t.Fatalf("reloptions %q", got)
	}
	c.MustExec("INSERT INTO r VALUES (1, 1)")
	c.MustExec("UPDATE r SET v = 2")
	e := c.ExpectError(pgerror.InvalidParameterValue, "SELECT * FROM cdcdb.table_changes('r', 0)")
	// "Its changes are kept from commit version N (time) on."
	var kept string
	if f := strings.Fields(e.Detail); len(f) > 7 {
		kept = f[7]
	}
	rows, _ := feedRows(t, c, "SELECT id, v, _change_type, _commit_version, _commit_timestamp FROM cdcdb.table_changes('r', $1) ORDER BY _change_type", kept)
	if strings.Join(rows, ",") != "1|2|update_postimage,1|1|update_preimage" {
		t.Fatalf("from the retention cut-off %s (%s): %v", kept, e.Detail, rows)
	}
	c.ExpectError(pgerror.InvalidParameterValue, "SELECT * FROM cdcdb.table_changes('r', $1::bigint - 1)", kept)
}

// TestChangeFeedFlow: a plain table's inserts, updates and deletes feed an
// SCD TYPE 2 history through its change feed, backfilled at CREATE FLOW and
// then applied in each writing transaction.
func TestChangeFeedFlow(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE acct (id int PRIMARY KEY, bal int)")
	c.MustExec("INSERT INTO acct VALUES (1, 10), (2, 20)")
	c.MustExec("UPDATE acct SET bal = 11 WHERE id = 1")
	c.MustExec("CREATE STREAMING TABLE acct_hist")
	c.MustExec(`CREATE FLOW acct_history AS AUTO CDC INTO acct_hist
		FROM stream(cdcdb.table_changes('acct', 0))
		KEYS (id) APPLY AS DELETE WHEN _change_type = 'delete' SEQUENCE BY _commit_version
		STORED AS SCD TYPE 2`)
	cols := c.MustExec("SELECT column_name FROM information_schema.columns WHERE table_name = 'acct_hist' ORDER BY ordinal_position")
	if got := cols.String(); !strings.Contains(got, "id") || strings.Contains(got, "_change_type") {
		t.Fatalf("target columns %s", got)
	}
	hist := func() string {
		return c.MustExec("SELECT id, bal, __end_at IS NULL FROM acct_hist ORDER BY id, __start_at").String()
	}
	want := c.MustExec("SELECT * FROM (VALUES (1, 10, false), (1, 11, true), (2, 20, true)) v").String()
	if got := hist(); got != want {
		t.Fatalf("after backfill:\n%s\nwant\n%s", got, want)
	}
	c.MustExec("DELETE FROM acct WHERE id = 2")
	c.MustExec("BEGIN")
	c.MustExec("UPDATE acct SET bal = 12 WHERE id = 1")
	c.MustExec("INSERT INTO acct VALUES (3, 30)")
	if got := c.MustExec("SELECT count(*) FROM acct_hist WHERE id = 3").String(); !strings.Contains(got, "0") {
		t.Fatalf("applied before commit: %s", got)
	}
	c.MustExec("COMMIT")
	want = c.MustExec("SELECT * FROM (VALUES (1, 10, false), (1, 11, false), (1, 12, true), (2, 20, false), (3, 30, true)) v").String()
	if got := hist(); got != want {
		t.Fatalf("after writes:\n%s\nwant\n%s", got, want)
	}
	c.MustExec("ROLLBACK")
	c.MustExec("CREATE STREAMING TABLE other")
	c.ExpectError(pgerror.InvalidObjectDefinition, `CREATE FLOW bad AS AUTO CDC INTO other FROM stream(cdcdb.table_changes('acct', 0)) KEYS (id) SEQUENCE BY bal`)
	c.ExpectError(pgerror.InvalidObjectDefinition, `CREATE FLOW bad AS AUTO CDC INTO other FROM stream(cdcdb.table_changes('acct', 0, 5)) KEYS (id) SEQUENCE BY _commit_version`)
	c.ExpectError(pgerror.UndefinedTable, `CREATE FLOW bad AS AUTO CDC INTO other FROM stream(cdcdb.table_changes('nope', 0)) KEYS (id) SEQUENCE BY _commit_version`)
	c.ExpectError(pgerror.NullValueNotAllowed, `CREATE FLOW bad AS AUTO CDC INTO other FROM stream(cdcdb.table_changes('acct', NULL)) KEYS (id) SEQUENCE BY _commit_version`)
	// A chain acct -> mirror (SCD TYPE 1) -> mirror_hist (SCD TYPE 2),
	// applied in that order in each commit.
	c.MustExec("CREATE STREAMING TABLE mirror")
	c.MustExec(`CREATE FLOW mirror AS AUTO CDC INTO mirror FROM stream(cdcdb.table_changes('acct', 0))
		KEYS (id) APPLY AS DELETE WHEN _change_type = 'delete' SEQUENCE BY _commit_version`)
	c.MustExec("CREATE STREAMING TABLE mirror_hist")
	c.MustExec(`CREATE FLOW mirror_hist AS AUTO CDC INTO mirror_hist FROM stream(cdcdb.table_changes('mirror', 0))
		KEYS (id) APPLY AS DELETE WHEN _change_type = 'delete' SEQUENCE BY _commit_timestamp STORED AS SCD TYPE 2`)
	c.MustExec("UPDATE acct SET bal = 13 WHERE id = 3")
	c.MustExec("DELETE FROM acct WHERE id = 1")
	if got, want := c.MustExec("SELECT id, bal FROM mirror ORDER BY id").String(), c.MustExec("SELECT * FROM (VALUES (3, 13)) v").String(); got != want {
		t.Fatalf("mirror:\n%s\nwant\n%s", got, want)
	}
	// mirror's backfill made its rows in one commit, so its history starts there.
	want = c.MustExec("SELECT * FROM (VALUES (1, 12, false), (3, 30, false), (3, 13, true)) v").String()
	if got := c.MustExec("SELECT id, bal, __end_at IS NULL FROM mirror_hist ORDER BY id, __start_at").String(); got != want {
		t.Fatalf("mirror_hist:\n%s\nwant\n%s", got, want)
	}
	// A cycle of change feeds is refused.
	c.MustExec("CREATE STREAMING TABLE s1 (id int, bal int)")
	c.MustExec("CREATE STREAMING TABLE s2")
	c.MustExec(`CREATE FLOW f1 AS AUTO CDC INTO s2 FROM stream(cdcdb.table_changes('s1', 0)) KEYS (id) SEQUENCE BY _commit_version`)
	c.ExpectError(pgerror.InvalidObjectDefinition, `CREATE FLOW f2 AS AUTO CDC INTO s1 FROM stream(cdcdb.table_changes('s2', 0)) KEYS (id) SEQUENCE BY _commit_version`)
}

// TestBeliefChangesWalkThrough asks the spec's §5 walk-through what the
// system's belief changed between system times 12:22 and 12:31.
func TestBeliefChangesWalkThrough(t *testing.T) {
	c := bitemporalSetup(t)
	for _, ev := range walkThrough {
		c.MustExec("INSERT INTO ev VALUES " + ev)
	}
	got := timesOnly(c.MustExec(`SELECT DataPoint, __start_at, __end_at, _belief FROM cdcdb.belief_changes('h', '2025-07-18 12:22:00', '2025-07-18 12:31:00')
		ORDER BY _belief, __start_at`))
	want := []string{
		"XFv1|10:01:00|12:05:00|added", "XFv3|12:05:00|12:15:43|added", "XFv2|12:15:43|12:30:00|added",
		"XFv1|10:01:00|12:15:43|withdrawn", "XFv2|12:15:43|NULL|withdrawn",
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("belief changes:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Nothing changed between 10:05 and 12:19:59; the table was empty before 10:05.
	if got := c.MustExec("SELECT count(*) FROM cdcdb.belief_changes('h', '2025-07-18 10:05:00', '2025-07-18 12:19:59')").String(); !strings.Contains(got, "0") {
		t.Fatalf("quiet window: %s", got)
	}
	c.ExpectError(pgerror.NullValueNotAllowed, "SELECT * FROM cdcdb.belief_changes('h', NULL, '2025-07-18 12:31:00')")
	c.ExpectError(pgerror.WrongObjectType, "SELECT * FROM cdcdb.belief_changes('ev', '2025-07-18 12:22:00', '2025-07-18 12:31:00')")
	c.ExpectError(pgerror.FeatureNotSupported, "SELECT * FROM cdcdb.table_changes('h', 0)")
}
