package sql_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"cdcdb/source"
	"cdcdb/sql"
	"cdcdb/sql/sqltest"
)

// TestSourceSink feeds a source's Sink the batches a Follower would, one
// step at a time, and holds the source table and the checkpoint to what
// each step must leave: every batch lands whole with its checkpoint, or
// not at all.
func TestSourceSink(t *testing.T) {
	db := sqltest.Open(t)
	c := db.Conn()
	upstream := source.Table{Upstream: source.TableName{Schema: "public", Name: "items"}, Name: "items", RelationID: 1,
		Columns: []source.Column{
			{Name: "id", TypeOID: 23, TypeMod: -1, TypeName: "integer", Key: true, AttNum: 1},
			{Name: "price", TypeOID: 1700, TypeMod: (10<<16 | 2) + 4, TypeName: "numeric(10,2)", AttNum: 2},
			{Name: "doc", TypeOID: 25, TypeMod: -1, TypeName: "text", AttNum: 3},
		}}
	sink, err := sql.CreateSourceForTest(db.Engine, "src", []source.Table{upstream})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	at := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	row := func(op source.Op, seq int64, vals ...source.Value) source.Change {
		return source.Change{Table: "items", Op: op, Seq: seq, Values: vals}
	}
	txt, null := source.Text, source.Null
	big := strings.Repeat("toast ", 1000)
	withTable := func(cp source.Checkpoint) source.Checkpoint {
		cp.Tables = []source.Table{upstream}
		return cp
	}
	const rowsQuery = `SELECT id, price, left(doc, 12), _op, _lsn FROM items ORDER BY _lsn, id`

	steps := []struct {
		name    string
		batch   source.Batch
		wantErr string // a substring of the error; "" for none
		want    string // the rows after the step
		wantCP  source.Checkpoint
	}{
		{name: "the slot's name, before the slot", batch: source.Batch{Checkpoint: source.Checkpoint{Phase: source.PhaseSnapshotting, Slot: "s1", SlotCreated: true}},
			want: "", wantCP: source.Checkpoint{Phase: source.PhaseSnapshotting, Slot: "s1", SlotCreated: true}},
		{name: "a first part of the snapshot", batch: source.Batch{NewTables: []source.Table{upstream}, CommitTime: at,
			Changes:    []source.Change{row('r', 1, txt("1"), txt("9.99"), txt(big)), row('r', 2, txt("2"), null(), null())},
			Checkpoint: withTable(source.Checkpoint{Phase: source.PhaseSnapshotting, Slot: "s1", SlotCreated: true, LastSeq: 2})},
			want:   "1|9.99|toast toast |r|1\n2|NULL|NULL|r|2\n",
			wantCP: withTable(source.Checkpoint{Phase: source.PhaseSnapshotting, Slot: "s1", SlotCreated: true, LastSeq: 2})},
		{name: "the snapshot starts over", batch: source.Batch{Reset: true, Checkpoint: source.Checkpoint{Phase: source.PhaseSnapshotting, Slot: "s2", SlotCreated: true}},
			want: "", wantCP: source.Checkpoint{Phase: source.PhaseSnapshotting, Slot: "s2", SlotCreated: true}},
		{name: "the whole snapshot", batch: source.Batch{NewTables: []source.Table{upstream}, CommitTime: at,
			Changes:    []source.Change{row('r', 1, txt("1"), txt("9.99"), txt(big)), row('r', 2, txt("2"), txt("1"), null())},
			Checkpoint: withTable(source.Checkpoint{Phase: source.PhaseStreaming, Slot: "s2", SlotCreated: true, Position: 100, LastSeq: 2})},
			want:   "1|9.99|toast toast |r|1\n2|1.00|NULL|r|2\n",
			wantCP: withTable(source.Checkpoint{Phase: source.PhaseStreaming, Slot: "s2", SlotCreated: true, Position: 100, LastSeq: 2})},
		{name: "a value that does not parse: nothing of the batch lands", batch: source.Batch{Xid: 7, CommitLSN: 150, CommitTime: at,
			Changes:    []source.Change{row('c', 150, txt("3"), txt("1"), null()), row('c', 151, txt("four"), null(), null())},
			Checkpoint: withTable(source.Checkpoint{Phase: source.PhaseStreaming, Slot: "s2", SlotCreated: true, Position: 160, LastSeq: 151})},
			wantErr: `invalid input syntax for type integer: "four"`,
			want:    "1|9.99|toast toast |r|1\n2|1.00|NULL|r|2\n",
			wantCP:  withTable(source.Checkpoint{Phase: source.PhaseStreaming, Slot: "s2", SlotCreated: true, Position: 100, LastSeq: 2})},
		{name: "an update leaving a TOAST value unsent, an insert, a key-only delete", batch: source.Batch{Xid: 8, CommitLSN: 200, CommitTime: at,
			Changes: []source.Change{
				{Table: "items", Op: 'u', Seq: 200, Values: []source.Value{txt("1"), txt("5"), source.Unchanged()}, Identity: []source.Value{txt("1")}},
				row('c', 201, txt("3"), txt("3.5"), txt("three")),
				{Table: "items", Op: 'd', Seq: 202, Values: []source.Value{txt("2"), null(), null()}, KeyOnly: true},
			},
			Checkpoint: withTable(source.Checkpoint{Phase: source.PhaseStreaming, Slot: "s2", SlotCreated: true, Position: 210, LastSeq: 202})},
			want:   "1|9.99|toast toast |r|1\n2|1.00|NULL|r|2\n1|5.00|toast toast |u|200\n3|3.50|three|c|201\n2|NULL|NULL|d|202\n",
			wantCP: withTable(source.Checkpoint{Phase: source.PhaseStreaming, Slot: "s2", SlotCreated: true, Position: 210, LastSeq: 202})},
		{name: "a truncate: a delete of every live key", batch: source.Batch{Xid: 9, CommitLSN: 300, CommitTime: at,
			Changes:    []source.Change{{Table: "items", Op: source.OpTruncate, Seq: 300}, row('c', 301, txt("9"), null(), null())},
			Checkpoint: withTable(source.Checkpoint{Phase: source.PhaseStreaming, Slot: "s2", SlotCreated: true, Position: 310, LastSeq: 301})},
			want: "1|9.99|toast toast |r|1\n2|1.00|NULL|r|2\n1|5.00|toast toast |u|200\n3|3.50|three|c|201\n2|NULL|NULL|d|202\n" +
				"1|NULL|NULL|d|300\n3|NULL|NULL|d|300\n9|NULL|NULL|c|301\n",
			wantCP: withTable(source.Checkpoint{Phase: source.PhaseStreaming, Slot: "s2", SlotCreated: true, Position: 310, LastSeq: 301})},
	}
	for _, st := range steps {
		err := sink.Commit(ctx, &st.batch)
		switch {
		case st.wantErr == "" && err != nil:
			t.Fatalf("%s: %v", st.name, err)
		case st.wantErr != "" && (err == nil || !strings.Contains(err.Error(), st.wantErr)):
			t.Fatalf("%s: error %v, want one with %q", st.name, err, st.wantErr)
		case st.wantErr != "" && !source.IsPermanent(err):
			t.Fatalf("%s: error %v is not permanent: the follower would retry it for ever", st.name, err)
		}
		if got := c.MustExec(rowsQuery).String(); got != st.want {
			t.Fatalf("%s: rows\n%s\nwant\n%s", st.name, got, st.want)
		}
		cp, err := sink.Checkpoint(ctx)
		if err != nil {
			t.Fatal(err)
		}
		gotCP, _ := cp.MarshalBinary()
		wantCP, _ := st.wantCP.MarshalBinary()
		if string(gotCP) != string(wantCP) {
			t.Fatalf("%s: checkpoint\n%s\nwant\n%s", st.name, gotCP, wantCP)
		}
	}
	// A key-changing update of a row whose TOASTed value it did not send:
	// a delete of the old key, then the new key's row, whose value comes
	// from the old key's latest row, past the delete.
	err = sink.Commit(ctx, &source.Batch{Xid: 11, CommitLSN: 320, CommitTime: at,
		Changes: []source.Change{
			row('c', 320, txt("20"), null(), txt("twenty "+big)),
			{Table: "items", Op: 'd', Seq: 321, Values: []source.Value{txt("20"), null(), null()}, KeyOnly: true},
			{Table: "items", Op: 'c', Seq: 322, Values: []source.Value{txt("21"), txt("1"), source.Unchanged()}, Identity: []source.Value{txt("20")}},
		},
		Checkpoint: withTable(source.Checkpoint{Phase: source.PhaseStreaming, Slot: "s2", SlotCreated: true, Position: 330, LastSeq: 322})})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.MustExec(`SELECT id, left(doc, 12), _op FROM items WHERE _lsn >= 320 ORDER BY _lsn`).String(); got != "20|twenty toast|c\n20|NULL|d\n21|twenty toast|c\n" {
		t.Fatalf("key change with an unsent TOAST value: %q", got)
	}
	if got := c.MustExec(`SELECT DISTINCT _commit_ts FROM items`).String(); got != "2026-12-07 10:00:00+00\n" {
		t.Errorf("_commit_ts: %q", got)
	}

	// A column added upstream: the rows there take its default.
	added := upstream
	added.Columns = append(append([]source.Column(nil), upstream.Columns...), source.Column{Name: "qty", TypeOID: 23, TypeMod: -1, TypeName: "integer", AttNum: 4})
	err = sink.Commit(ctx, &source.Batch{Xid: 10, CommitLSN: 400, CommitTime: at,
		AddedColumns: []source.AddedColumns{{Table: "items", Columns: added.Columns[3:], ExistingValues: []source.Value{txt("7")}}},
		Changes:      []source.Change{row('c', 400, txt("10"), null(), null(), txt("8"))},
		Checkpoint:   source.Checkpoint{Phase: source.PhaseStreaming, Position: 410, LastSeq: 400, Tables: []source.Table{added}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.MustExec(`SELECT qty, count(*) FROM items GROUP BY qty ORDER BY qty`).String(); got != "7|11\n8|1\n" {
		t.Errorf("qty after ADD COLUMN: %q", got)
	}

	// Users may not write a source table.
	c.ExpectError("42809", `INSERT INTO items (id) VALUES (1)`)
	c.ExpectError("42809", `DELETE FROM items`)

	// A snapshot starting over after a flow applied some of its rows: the
	// flow starts over with it.
	c.MustExec(`CREATE STREAMING TABLE items_now`)
	c.MustExec(`CREATE FLOW items_scd1 AS AUTO CDC INTO items_now FROM items KEYS (id) APPLY AS DELETE WHEN _op = 'd' SEQUENCE BY _lsn COLUMNS * EXCEPT (_op, _lsn, _commit_ts)`)
	if got := c.MustExec(`SELECT id, qty FROM items_now ORDER BY id`).String(); got != "9|7\n10|8\n21|7\n" {
		t.Fatalf("flow target before the reset: %q", got)
	}
	err = sink.Commit(ctx, &source.Batch{Reset: true, Checkpoint: source.Checkpoint{Phase: source.PhaseSnapshotting}})
	if err != nil {
		t.Fatalf("reset under a flow: %v", err)
	}
	if got := c.MustExec(`SELECT count(*) FROM items_now`).String() + c.MustExec(`SELECT count(*) FROM items`).String(); got != "0\n0\n" {
		t.Fatalf("after the reset, the target and the source hold %q rows", got)
	}
	err = sink.Commit(ctx, &source.Batch{NewTables: []source.Table{added}, CommitTime: at,
		Changes:    []source.Change{row('r', 1, txt("1"), txt("2"), null(), txt("3"))},
		Checkpoint: source.Checkpoint{Phase: source.PhaseStreaming, Position: 500, LastSeq: 1, Tables: []source.Table{added}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.MustExec(`SELECT id, price, qty FROM items_now`).String(); got != "1|2.00|3\n" {
		t.Fatalf("flow target after the new snapshot: %q", got)
	}
}
