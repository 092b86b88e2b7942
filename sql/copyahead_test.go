package sql_test

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdcdb/pgerror"
	"cdcdb/sql"
	"cdcdb/sql/sqltest"
	"cdcdb/storage"
	"cdcdb/types"
)

// coveredCommits reads cdcdb.storage's count of covered commits.
func coveredCommits(t *testing.T, c *sqltest.Conn) int64 {
	t.Helper()
	n, err := strconv.ParseInt(strings.TrimSpace(c.MustExec("SELECT covered_commits FROM cdcdb.storage").String()), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// eventRows is COPY text for events first..first+n-1 over keys, every
// seventh a delete, in an order that sends some late.
func eventRows(first, n, keys int) string {
	var b strings.Builder
	for i := range n {
		seq := first + (i*37)%n // a permutation of the batch: late arrivals
		op := "UPSERT"
		if seq%7 == 0 {
			op = "DELETE"
		}
		fmt.Fprintf(&b, "%d\tname%d\tcity%d\t%s\t%d\t%d\n", seq%keys, seq, seq%5, op, seq, seq)
	}
	return b.String()
}

func makeFlow(c *sqltest.Conn, storedAs string) {
	c.MustExec("CREATE TABLE ev (id bigint, name text, city text, op text, seq bigint, st bigint)")
	c.MustExec("CREATE STREAMING TABLE tgt")
	sys := ""
	if storedAs == "BITEMPORAL" {
		sys = " SYSTEM SEQUENCE BY st"
	}
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (id)
		APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq` + sys + `
		COLUMNS * EXCEPT (op, seq, st) STORED AS ` + storedAs)
}

func mustCopy(t *testing.T, c *sqltest.Conn, data string) {
	t.Helper()
	if _, err := c.Copy("COPY ev FROM STDIN", data); err != nil {
		t.Fatalf("COPY: %v", err)
	}
}

// TestAPendingCopyIsRedoneAtStart: a COPY whose rows were written ahead
// and whose own commit never reached the disk (its put is all a crash left
// of it) is redone when the engine starts, before any session: the source
// and the target, with its history, end as the COPY left them where it
// did commit, at the commit time it had; and the pending copy is gone.
func TestAPendingCopyIsRedoneAtStart(t *testing.T) {
	for _, storedAs := range []string{"SCD TYPE 2", "BITEMPORAL"} {
		t.Run(storedAs, func(t *testing.T) {
			// Two databases take the same first batch; the second batch
			// commits in the first, and reaches the second only as the
			// put ahead it wrote, as after a crash. The second database's
			// commits all come before that batch's, as they would have.
			done, crashed := sqltest.Open(t), sqltest.Open(t)
			a, b := done.Conn(), crashed.Conn()
			for _, c := range []*sqltest.Conn{a, b} {
				makeFlow(c, storedAs)
				c.MustExec("SET TimeZone = 'America/Mexico_City'")
				mustCopy(t, c, eventRows(1, 300, 40))
			}
			var key, value []byte
			sql.SetRowsWrittenAhead(func(k, v []byte) { key, value = k, v })
			before := coveredCommits(t, a)
			mustCopy(t, a, eventRows(301, 300, 40))
			sql.SetRowsWrittenAhead(nil)
			if value == nil || coveredCommits(t, a) != before+1 {
				t.Fatalf("the second batch did not write its rows ahead (covered commits %d -> %d)", before, coveredCommits(t, a))
			}
			err := crashed.Store.Update(func(tx *storage.Tx) error {
				return tx.Space(sql.PendingCopiesSpace).Put(key, value)
			})
			if err != nil {
				t.Fatal(err)
			}
			e, err := sql.NewEngine(crashed.Store, sql.Options{})
			if err != nil {
				t.Fatal(err)
			}
			restarted := &sqltest.DB{T: t, Engine: e, Store: crashed.Store}
			r := restarted.Conn()
			for _, q := range []string{
				"SELECT * FROM ev ORDER BY seq",
				"SELECT * FROM tgt ORDER BY 1, 2, 3, 4, 5",
				"SELECT events_applied, rows_upserted, rows_deleted, last_sequence FROM cdcdb.flows",
			} {
				if got, want := r.MustExec(q).String(), a.MustExec(q).String(); got != want {
					t.Errorf("%s\nafter the redo:\n%s\nwhere the COPY committed:\n%s", q, got, want)
				}
			}
			// At the commit time the COPY had, and not before it.
			ts := time.UnixMicro(int64(binary.BigEndian.Uint64(key))).UTC()
			asOf := func(at time.Time) string {
				return r.MustExec("SELECT count(*) FROM ev FOR SYSTEM_TIME AS OF '" + at.Format("2006-01-02 15:04:05.999999Z07:00") + "'").String()
			}
			if got, want := asOf(ts.Add(-time.Microsecond))+asOf(ts), "300\n600\n"; got != want {
				t.Errorf("source rows just before and at the COPY's commit time: %q, want %q", got, want)
			}
			if n := pendingCopies(t, crashed.Store); n != 0 {
				t.Errorf("%d pending copies after the redo", n)
			}
		})
	}
}

// TestAPendingCopyThatFailsAgainIsDropped: a pending copy whose rows break
// a constraint when redone (its COPY failed too, after writing them
// ahead, and the crash came before it deleted them) is dropped at start,
// leaving nothing.
func TestAPendingCopyThatFailsAgainIsDropped(t *testing.T) {
	db := sqltest.Open(t)
	c := db.Conn()
	makeFlow(c, "SCD TYPE 2")
	mustCopy(t, c, eventRows(1, 10, 5))
	c.MustExec("ALTER TABLE tgt ALTER COLUMN name SET NOT NULL")
	state := func(c *sqltest.Conn) string {
		return c.MustExec("SELECT * FROM ev ORDER BY seq").String() + c.MustExec("SELECT * FROM tgt ORDER BY 1, 2, 3, 4").String()
	}
	before := state(c)
	key, value, err := sql.EncodePendingCopy(tableOID(t, c, "ev"), time.Now().UnixMicro(),
		[][]types.Value{{int64(1), nil, "Leon", "UPSERT", int64(99), int64(99)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Store.Update(func(tx *storage.Tx) error { return tx.Space(sql.PendingCopiesSpace).Put(key, value) }); err != nil {
		t.Fatal(err)
	}
	e, err := sql.NewEngine(db.Store, sql.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := (&sqltest.DB{T: t, Engine: e, Store: db.Store}).Conn()
	if got := state(r); got != before {
		t.Errorf("after dropping the failing pending copy:\n%s\nwant\n%s", got, before)
	}
	if n := pendingCopies(t, db.Store); n != 0 {
		t.Errorf("%d pending copies left", n)
	}
}

// pendingCopies counts the COPYs written ahead that a reader of the file
// sees: those a restart found, not yet redone or dropped.
func pendingCopies(t *testing.T, st *storage.DB) int {
	t.Helper()
	n := 0
	err := st.View(func(tx *storage.Tx) error {
		n = tx.Space(sql.PendingCopiesSpace).Count()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func tableOID(t *testing.T, c *sqltest.Conn, name string) uint32 {
	t.Helper()
	n, err := strconv.ParseUint(strings.TrimSpace(c.MustExec("SELECT oid FROM pg_class WHERE relname = '"+name+"'").String()), 10, 32)
	if err != nil {
		t.Fatal(err)
	}
	return uint32(n)
}

// TestCopyWritesItsRowsAheadOnlyAsItsWholeTransaction: a COPY into a
// flow's source writes its rows ahead, and commits covered by them, only
// when it can be redone from them: the only statement of its implicit
// transaction, all its rows still to apply, nothing but its rows coming of
// it. Every other COPY commits as before, and each stores what it should.
func TestCopyWritesItsRowsAheadOnlyAsItsWholeTransaction(t *testing.T) {
	c := sqltest.Open(t).Conn()
	makeFlow(c, "SCD TYPE 2")
	c.MustExec("CREATE TABLE plain (id bigint, name text, city text, op text, seq bigint, st bigint)")
	c.MustExec("CREATE TABLE serial_ev (n serial, id bigint, name text, city text, op text, seq bigint, st bigint)")
	c.MustExec("CREATE STREAMING TABLE tgt2")
	c.MustExec(`CREATE FLOW f2 AS AUTO CDC INTO tgt2 FROM stream(serial_ev) KEYS (id) SEQUENCE BY seq
		COLUMNS * EXCEPT (n, op, seq, st) STORED AS SCD TYPE 1`)
	type step struct {
		name    string
		run     func()
		covered int64
		check   string // a query and the answer it must give after the step
		want    string
	}
	copyInto := func(table string, first, n int) func() {
		return func() {
			cols := ""
			if table == "serial_ev" {
				cols = " (id, name, city, op, seq, st)"
			}
			if _, err := c.Copy("COPY "+table+cols+" FROM STDIN", eventRows(first, n, 40)); err != nil {
				t.Fatalf("COPY into %s: %v", table, err)
			}
		}
	}
	steps := []step{
		{"the only statement", copyInto("ev", 1, 100), 1, "SELECT count(*) FROM ev", "100\n"},
		{"inside a transaction block", func() {
			c.MustExec("BEGIN")
			copyInto("ev", 101, 100)()
			c.MustExec("COMMIT")
		}, 0, "SELECT count(*) FROM ev", "200\n"},
		{"into a table no flow reads", copyInto("plain", 1, 100), 0, "SELECT count(*) FROM plain", "100\n"},
		{"defaulting a serial column", copyInto("serial_ev", 1, 100), 0, "SELECT count(*), max(n) FROM serial_ev", "100|100\n"},
		{"with more rows than the flows take at once", copyInto("ev", 201, sql.FlowBatchSize+100), 0,
			"SELECT count(*) FROM ev", fmt.Sprint(200+sql.FlowBatchSize+100) + "\n"},
		{"an INSERT", func() { c.MustExec("INSERT INTO ev VALUES (1, 'x', 'y', 'UPSERT', 100000, 1)") }, 0,
			"SELECT count(*) FROM ev", fmt.Sprint(201+sql.FlowBatchSize+100) + "\n"},
		{"the only statement again", copyInto("ev", 200000, 50), 1, "SELECT count(*) FROM ev", fmt.Sprint(251+sql.FlowBatchSize+100) + "\n"},
	}
	for _, s := range steps {
		before := coveredCommits(t, c)
		s.run()
		if got := coveredCommits(t, c) - before; got != s.covered {
			t.Errorf("%s: %d covered commits, want %d", s.name, got, s.covered)
		}
		if got := c.MustExec(s.check).String(); got != s.want {
			t.Errorf("%s: %s = %q, want %q", s.name, s.check, got, s.want)
		}
	}
	// A COPY with more bytes of rows than it writes ahead commits as before.
	before := coveredCommits(t, c)
	var big strings.Builder
	for i := range 50 {
		fmt.Fprintf(&big, "%d\t%s\tc\tUPSERT\t%d\t1\n", i, strings.Repeat("x", 100<<10), 300000+i)
	}
	c.CopyChunk = 1 << 20
	if _, err := c.Copy("COPY ev FROM STDIN", big.String()); err != nil {
		t.Fatal(err)
	}
	if got := coveredCommits(t, c) - before; got != 0 {
		t.Errorf("a COPY of 5 MB of rows made %d covered commits, want 0", got)
	}
	if got := c.MustExec("SELECT count(*) FROM ev WHERE length(name) = 102400").String(); got != "50\n" {
		t.Errorf("rows of the 5 MB COPY: %q, want 50", got)
	}
	// The target took every event the flow was given.
	if got := c.MustExec("SELECT events_applied FROM cdcdb.flows WHERE name = 'f'").String(); got != fmt.Sprint(301+sql.FlowBatchSize+100)+"\n" {
		t.Errorf("events applied by f: %q", got)
	}
}

// TestAFailedCopyAfterWritingAheadLeavesNothing: a COPY whose flow refuses
// its rows after they were written ahead fails with the flow's error and
// leaves nothing; the next COPY writes ahead as before.
func TestAFailedCopyAfterWritingAheadLeavesNothing(t *testing.T) {
	c := sqltest.Open(t).Conn()
	makeFlow(c, "SCD TYPE 2")
	mustCopy(t, c, eventRows(1, 10, 5))
	c.MustExec("ALTER TABLE tgt ALTER COLUMN name SET NOT NULL")
	before := c.MustExec("SELECT * FROM ev ORDER BY seq").String() + c.MustExec("SELECT * FROM tgt ORDER BY 1, 2, 3, 4").String()
	wrote := 0
	sql.SetRowsWrittenAhead(func(k, v []byte) { wrote++ })
	defer sql.SetRowsWrittenAhead(nil)
	_, err := c.Copy("COPY ev FROM STDIN", "3\tcy\tLeon\tUPSERT\t13\t13\n1\t\\N\tLeon\tUPSERT\t14\t14\n")
	if pgerror.CodeOf(err) != pgerror.NotNullViolation {
		t.Fatalf("COPY of a NULL name: %v, want 23502", err)
	}
	if wrote != 1 {
		t.Fatalf("the failing COPY wrote ahead %d times, want once", wrote)
	}
	after := c.MustExec("SELECT * FROM ev ORDER BY seq").String() + c.MustExec("SELECT * FROM tgt ORDER BY 1, 2, 3, 4").String()
	if after != before {
		t.Errorf("after the failed COPY:\n%s\nwant\n%s", after, before)
	}
	covered := coveredCommits(t, c)
	mustCopy(t, c, "3\tcy\tLeon\tUPSERT\t15\t15\n")
	if got := coveredCommits(t, c); got != covered+1 {
		t.Errorf("the next COPY made %d covered commits, want 1", got-covered)
	}
}
