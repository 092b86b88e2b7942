package sql_test

import (
	"strconv"
	"testing"

	"cdcdb/pgerror"
	"cdcdb/sql/sqltest"
)

// TestDetachedCommitTimesFollowCommitOrder interleaves two transactions on
// one table: the one that began writing first commits last. Commit times
// and versions must still rise in commit order (a detached transaction
// learns its commit time only at COMMIT), each commit's rows carry its own
// time in the change feed and in AS OF reads, and a row the later commit
// updated after the earlier one inserted it keeps both versions.
func TestDetachedCommitTimesFollowCommitOrder(t *testing.T) {
	db := sqltest.Open(t)
	a, b := db.Conn(), db.Conn()
	a.MustExec("CREATE TABLE t (id int PRIMARY KEY, v int)")
	a.MustExec("BEGIN")
	a.MustExec("INSERT INTO t VALUES (1, 10)")
	b.MustExec("INSERT INTO t VALUES (2, 20)") // commits first
	a.MustExec("UPDATE t SET v = 21 WHERE id = 2")
	a.MustExec("COMMIT")

	rows := a.MustExec("SELECT id, v, _change_type, _commit_version, _commit_timestamp::text FROM cdcdb.table_changes('t', 0) ORDER BY _commit_version, id, _change_type").Rows
	want := [][]string{{"2", "20", "insert"}, {"1", "10", "insert"}, {"2", "21", "update_postimage"}, {"2", "20", "update_preimage"}}
	if len(rows) != len(want) {
		t.Fatalf("change feed %v, want %v", rows, want)
	}
	for i, w := range want {
		if rows[i][0] != w[0] || rows[i][1] != w[1] || rows[i][2] != w[2] {
			t.Fatalf("change %d is %v, want %v (all: %v)", i, rows[i], w, rows)
		}
	}
	first, second := rows[0][4], rows[1][4]
	if rows[0][3] == rows[1][3] || first >= second {
		t.Fatalf("the commit that came first has version %s at %s, the later one %s at %s", rows[0][3], first, rows[1][3], second)
	}
	for i := 2; i < 4; i++ {
		if rows[i][3] != rows[1][3] || rows[i][4] != second {
			t.Fatalf("change %v is not of the later commit (%s at %s)", rows[i], rows[1][3], second)
		}
	}
	asOf := func(ts string) string {
		r := a.MustExec("SELECT string_agg(id || ':' || v, ' ' ORDER BY id) FROM t FOR SYSTEM_TIME AS OF '" + ts + "'::timestamptz")
		return r.Rows[0][0]
	}
	if got := asOf(first); got != "2:20" {
		t.Errorf("AS OF the first commit: %s, want 2:20", got)
	}
	if got := asOf(second); got != "1:10 2:21" {
		t.Errorf("AS OF the second commit: %s, want 1:10 2:21", got)
	}
}

// TestBulkReadCommittedWriteEscalates writes more rows in one READ
// COMMITTED transaction than it takes row locks for: past the limit it
// takes the writer slot, and every row, written before or after, commits
// at the transaction's one commit time.
func TestBulkReadCommittedWriteEscalates(t *testing.T) {
	db := sqltest.Open(t)
	c := db.Conn()
	c.MustExec("CREATE TABLE big (id int PRIMARY KEY, v int)")
	c.MustExec("BEGIN")
	c.MustExec("INSERT INTO big SELECT g, g FROM generate_series(1, 6000) g")
	c.MustExec("INSERT INTO big SELECT g, g FROM generate_series(6001, 15000) g")
	c.MustExec("UPDATE big SET v = -v WHERE id % 1000 = 0")
	c.MustExec("COMMIT")
	r := c.MustExec("SELECT count(*), count(DISTINCT _commit_version), sum(v) FROM cdcdb.table_changes('big', 0)")
	n := 15000
	sum := n*(n+1)/2 - 2*(1000*15*16/2)
	if r.Rows[0][0] != "15000" || r.Rows[0][1] != "1" || r.Rows[0][2] != strconv.Itoa(sum) {
		t.Fatalf("change feed of the bulk transaction: %v, want 15000 changes of one commit summing to %d", r.Rows[0], sum)
	}
	r = c.MustExec("SELECT count(*) FROM big FOR SYSTEM_TIME AS OF now()")
	if r.Rows[0][0] != "15000" {
		t.Fatalf("AS OF now: %v rows", r.Rows[0])
	}
	// A duplicate past the limit is still refused.
	c.MustExec("BEGIN")
	c.MustExec("INSERT INTO big SELECT g, g FROM generate_series(20001, 31000) g")
	c.ExpectError(pgerror.UniqueViolation, "INSERT INTO big VALUES (1, 1)")
	c.MustExec("ROLLBACK")
	if got := c.MustExec("SELECT count(*) FROM big").Rows[0][0]; got != "15000" {
		t.Fatalf("%s rows after the rolled back bulk insert", got)
	}
}
