package sql_test

import (
	"fmt"
	"strings"
	"testing"

	"cdcdb/pgerror"
	"cdcdb/sql"
	"cdcdb/sql/sqltest"
)

// copyEvents is COPY text for n events from the first sequence number on,
// over 50 keys.
func copyEvents(first, n int) string {
	var b strings.Builder
	for i := first; i < first+n; i++ {
		fmt.Fprintf(&b, "%d\tname%d\tcity%d\tUPSERT\t%d\n", i%50, i, i%7, i)
	}
	return b.String()
}

// TestCopyIntoAFlowSourceThroughTheSpool: a COPY into a flow's source
// stores its rows on another goroutine (sourceSpool), and the result is
// what storing them on the session would give: every row, in the order
// sent, with the row ids the table's sequence hands out; a COPY that fails
// part-way leaves nothing, inside a transaction too; a COPY after the
// transaction wrote the table stores the rows itself, after the rows the
// transaction had.
func TestCopyIntoAFlowSourceThroughTheSpool(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE ev (id bigint, name text, city text, op text, seq bigint)")
	c.MustExec("CREATE STREAMING TABLE tgt")
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (id)
		APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq
		COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2`)
	// The source's rows in scan order (row id order) are the events in the
	// order sent: seq 1..n.
	inOrder := func(when string, n int) {
		t.Helper()
		res := c.MustExec("SELECT count(*), sum(CASE WHEN seq = rn THEN 1 ELSE 0 END) FROM (SELECT seq, row_number() OVER () AS rn FROM ev) s")
		if got, want := res.String(), fmt.Sprintf("%d|%d\n", n, n); got != want {
			t.Errorf("%s: rows, rows in order: %q, want %q", when, got, want)
		}
		res = c.MustExec("SELECT count(*) FROM tgt WHERE __end_at IS NULL")
		if got := res.String(); got != "50\n" {
			t.Errorf("%s: current target rows %q, want 50", when, got)
		}
	}
	spooled := sql.SpoolsJoined()
	copyOK := func(data string, rows int) {
		t.Helper()
		res, err := c.Copy("COPY ev FROM STDIN", data)
		if err != nil {
			t.Fatalf("COPY: %v", err)
		}
		if want := fmt.Sprintf("COPY %d", rows); res.Tag != want {
			t.Fatalf("COPY tag %q, want %q", res.Tag, want)
		}
	}

	// Fewer rows than a flow batch, and more (the flows take them in
	// batches while the spool stores them).
	copyOK(copyEvents(1, 3000), 3000)
	copyOK(copyEvents(3001, 9000), 9000)
	inOrder("after two COPYs", 12000)
	if got := sql.SpoolsJoined() - spooled; got != 2 {
		t.Fatalf("%d COPYs went through the spool, want 2", got)
	}

	// A bad value on line 2000: nothing of the COPY stays, and the error
	// names the line.
	bad := copyEvents(12001, 3000)
	lines := strings.SplitAfter(bad, "\n")
	lines[1999] = "7\tx\ty\tUPSERT\tnot-a-number\n"
	_, err := c.Copy("COPY ev FROM STDIN", strings.Join(lines, ""))
	if e := pgerror.As(err); e.Code != pgerror.InvalidTextRepresentation || !strings.Contains(e.Where, "COPY ev, line 2000") {
		t.Fatalf("COPY with a bad line: %v (where %q), want %s at line 2000", err, e.Where, pgerror.InvalidTextRepresentation)
	}
	inOrder("after a failed COPY", 12000)

	// In a transaction: the COPY's rows are the transaction's, read back
	// before the commit; a rollback takes them.
	c.MustExec("BEGIN")
	copyOK(copyEvents(12001, 1000), 1000)
	inOrder("inside the transaction", 13000)
	c.MustExec("ROLLBACK")
	inOrder("after the rollback", 12000)

	// A transaction that wrote the table first: the COPY stores its rows
	// itself, after the transaction's.
	spooled = sql.SpoolsJoined()
	c.MustExec("BEGIN")
	c.MustExec("INSERT INTO ev VALUES (1, 'n', 'c', 'UPSERT', 12001)")
	copyOK(copyEvents(12002, 1000), 1000)
	c.MustExec("COMMIT")
	inOrder("after a COPY following an INSERT", 13001)
	if got := sql.SpoolsJoined() - spooled; got != 0 {
		t.Errorf("a COPY after the transaction wrote the table went through the spool (%d)", got)
	}
	// Then again through the spool, in a transaction of its own.
	copyOK(copyEvents(13002, 500), 500)
	inOrder("after the last COPY", 13501)
}
