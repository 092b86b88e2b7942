package sql_test

import (
	"strconv"
	"strings"
	"testing"

	"cdcdb/sql/sqltest"
)

// TestStorageView: cdcdb.storage counts this server's commits and shows the
// memtable holding them until a checkpoint.
func TestStorageView(t *testing.T) {
	c := sqltest.Open(t).Conn()
	count := func() (commits, memtable int64) {
		t.Helper()
		res := c.MustExec("SELECT commits, memtable_bytes, memtable_layers >= 1 FROM cdcdb.storage")
		if len(res.Rows) != 1 || res.Rows[0][2] != "t" {
			t.Fatalf("cdcdb.storage: %v", res.Rows)
		}
		commits, _ = strconv.ParseInt(res.Rows[0][0], 10, 64)
		memtable, _ = strconv.ParseInt(res.Rows[0][1], 10, 64)
		return commits, memtable
	}
	before, _ := count()
	c.MustExec("CREATE TABLE t (id int PRIMARY KEY, v text)")
	c.MustExec("INSERT INTO t VALUES (1, '" + strings.Repeat("x", 1000) + "')")
	c.MustExec("INSERT INTO t VALUES (2, 'y')")
	after, memtable := count()
	if after != before+3 {
		t.Errorf("commits went from %d to %d over three writing statements", before, after)
	}
	if memtable < 1000 {
		t.Errorf("memtable holds %d bytes after a 1000-byte row", memtable)
	}
	if got := c.MustExec("SELECT count(*) FROM cdcdb.storage WHERE checkpoints >= 0 AND flushes >= 1 AND checkpoint_seconds >= 0 AND commit_wait_seconds >= 0").String(); got != "1\n" {
		t.Errorf("counters: %q", got)
	}
	// The commits went through the log ring, which the file reserved.
	if got := c.MustExec("SELECT log_ring_flushes >= 3, log_ring_bytes >= 1048576, compactions >= 0, file_releases >= 0, covered_commits = 0 FROM cdcdb.storage").String(); got != "t|t|t|t|t\n" {
		t.Errorf("log ring and compaction counters: %q", got)
	}
}
