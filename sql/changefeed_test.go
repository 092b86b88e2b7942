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
