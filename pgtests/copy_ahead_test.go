package pgtests

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
)

const copyAheadFlow = `CREATE TABLE ev (id bigint, name text, op text, seq bigint);
CREATE STREAMING TABLE tgt;
CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (id)
  APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq
  COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2`

func coveredCommits(t testing.TB, conn *pgx.Conn) int64 {
	t.Helper()
	return queryInt64s(t, conn, "SELECT covered_commits FROM cdcdb.storage")[0]
}

// readUntilCopyIn reads a raw session's messages up to CopyInResponse.
func (r *rawSession) readUntilCopyIn() {
	r.t.Helper()
	for {
		m, err := r.fe.Receive()
		if err != nil {
			r.t.Fatalf("waiting for CopyInResponse: %v", err)
		}
		switch m := m.(type) {
		case *pgproto3.CopyInResponse:
			return
		case *pgproto3.ErrorResponse:
			r.t.Fatalf("waiting for CopyInResponse: %s %s", m.Code, m.Message)
		}
	}
}

// TestCopyWritesAheadOnlyAsTheOnlyStatementOfASimpleQuery: a COPY into a
// flow's source commits covered by its rows written ahead (and so waits
// for their write, not its own) only when the wire says it is the whole of
// its transaction: the only statement of a simple Query. Through the
// extended protocol, or beside another statement in one Query, it commits
// as before; every COPY stores its rows.
func TestCopyWritesAheadOnlyAsTheOnlyStatementOfASimpleQuery(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.URL())
	ctx := testContext(t)
	for _, q := range strings.Split(copyAheadFlow, ";") {
		mustExec(t, conn, q)
	}
	rows := func(first int) string {
		var b strings.Builder
		for i := first; i < first+10; i++ {
			fmt.Fprintf(&b, "%d\tn%d\tUPSERT\t%d\n", i%4, i, i)
		}
		return b.String()
	}
	before := coveredCommits(t, conn)
	if _, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(rows(0)), "COPY ev FROM STDIN"); err != nil {
		t.Fatal(err)
	}
	if got := coveredCommits(t, conn) - before; got != 1 {
		t.Errorf("a simple Query's only COPY made %d covered commits, want 1", got)
	}

	r := openRaw(t, srv.URL())
	before = coveredCommits(t, conn)
	r.send(&pgproto3.Parse{Query: "COPY ev FROM STDIN"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Flush{})
	r.readUntilCopyIn()
	r.send(&pgproto3.CopyData{Data: []byte(rows(10))}, &pgproto3.CopyDone{}, &pgproto3.Sync{})
	requireTranscript(t, r.transcript(1), []string{"CommandComplete COPY 10", "ReadyForQuery I"})
	if got := coveredCommits(t, conn) - before; got != 0 {
		t.Errorf("an extended-protocol COPY made %d covered commits, want 0", got)
	}

	before = coveredCommits(t, conn)
	r.send(&pgproto3.Query{String: "COPY ev FROM STDIN; SELECT count(*) FROM ev"})
	r.readUntilCopyIn()
	r.send(&pgproto3.CopyData{Data: []byte(rows(20))}, &pgproto3.CopyDone{})
	requireTranscript(t, r.transcript(1), []string{
		"CommandComplete COPY 10", "RowDescription count", "DataRow 30", "CommandComplete SELECT 1", "ReadyForQuery I",
	})
	if got := coveredCommits(t, conn) - before; got != 0 {
		t.Errorf("a COPY beside another statement made %d covered commits, want 0", got)
	}
	if got := queryInt64s(t, conn, "SELECT count(*) FROM tgt WHERE __END_AT IS NULL"); got[0] != 4 {
		t.Errorf("current target rows: %v, want 4", got)
	}
}

// TestKill9JustAfterACopyIsAcknowledgedKeepsIt: COPYs of change events
// into an SCD TYPE 2 flow's source stream in; the server is killed just
// after one is acknowledged, typically before that COPY's own log record
// is written (it waits for the next commit to share its flush), so that
// the restart must redo it from its rows written ahead. Every acknowledged
// COPY is there after the restart, whole, in the source and in the
// target, as if it had committed as usual. Rounds repeat until a restart
// has redone a COPY (the kill may come late, on a loaded machine).
func TestKill9JustAfterACopyIsAcknowledgedKeepsIt(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.URL())
	for _, q := range strings.Split(copyAheadFlow, ";") {
		mustExec(t, conn, q)
	}
	const keys, batch = 300, 200
	type event struct {
		id, seq int64
		name    string
		del     bool
	}
	var acked []event
	seq := int64(0)
	redone := 0
	for round := 1; round <= 12 && redone == 0; round++ {
		ctx := testContext(t)
		w := connect(t, srv.URL())
		for b := 0; b < 30; b++ {
			var evs []event
			var data strings.Builder
			for range batch {
				seq++
				// Each batch's events arrive out of order, some late.
				s := seq
				if seq%5 == 0 && b > 0 {
					s = seq - batch - 3
				}
				e := event{id: (s * 7919) % keys, seq: s, name: fmt.Sprintf("n%d", s), del: s%10 == 0}
				op := "UPSERT"
				if e.del {
					op = "DELETE"
				}
				fmt.Fprintf(&data, "%d\t%s\t%s\t%d\n", e.id, e.name, op, e.seq)
				evs = append(evs, e)
			}
			if _, err := w.PgConn().CopyFrom(ctx, strings.NewReader(data.String()), "COPY ev FROM STDIN"); err != nil {
				t.Fatalf("round %d, batch %d: %v", round, b, err)
			}
			acked = append(acked, evs...)
		}
		srv.Kill()
		srv.StartAgain()
		redone = strings.Count(srv.Output(), "redid a COPY whose commit had not reached the disk")
		t.Logf("round %d: %d COPYs redone so far", round, redone)
		conn = connect(t, srv.URL())

		// The source holds exactly the acknowledged events.
		if got := queryInt64s(t, conn, "SELECT count(*) FROM ev"); got[0] != int64(len(acked)) {
			t.Fatalf("round %d: %d source rows, want the %d acknowledged", round, got[0], len(acked))
		}
		// The target's current rows are each key's latest event that is
		// not a delete, whatever order the events came in.
		latest := map[int64]event{}
		for _, e := range acked {
			if cur, ok := latest[e.id]; !ok || e.seq > cur.seq {
				latest[e.id] = e
			}
		}
		var want []string
		for id := range int64(keys) {
			if e, ok := latest[id]; ok && !e.del {
				want = append(want, fmt.Sprintf("%d %s", id, e.name))
			}
		}
		var got []string
		rows, err := conn.Query(testContext(t), "SELECT id, name FROM tgt WHERE __END_AT IS NULL ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id int64
			var name string
			if err := rows.Scan(&id, &name); err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%d %s", id, name))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("round %d: current target rows\n%v\nwant\n%v", round, got, want)
		}
		if got := queryInt64s(t, conn, "SELECT events_applied FROM cdcdb.flows"); got[0] != int64(len(acked)) {
			t.Fatalf("round %d: the flow applied %d events, want %d", round, got[0], len(acked))
		}
	}
	if redone == 0 {
		t.Errorf("no restart redid a COPY: the kill never came before an acknowledged COPY's own record was written")
	}
}
