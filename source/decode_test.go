package source

import (
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pglogrepl"
)

// accountsTable is app.accounts: key (region, id), then balance and note.
func accountsTable() *Table {
	return &Table{
		Upstream: TableName{"app", "accounts"}, Name: "accounts", RelationID: 42,
		Columns: []Column{
			{Name: "region", TypeOID: 25, TypeMod: -1, TypeName: "text", Key: true, AttNum: 1},
			{Name: "id", TypeOID: 23, TypeMod: -1, TypeName: "integer", Key: true, AttNum: 2},
			{Name: "balance", TypeOID: 1700, TypeMod: 786438, TypeName: "numeric(12,2)", AttNum: 3},
			{Name: "note", TypeOID: 25, TypeMod: -1, TypeName: "text", AttNum: 4},
		},
	}
}

func relationOf(t *Table, identity uint8) *pglogrepl.RelationMessage {
	rel := &pglogrepl.RelationMessage{RelationID: t.RelationID, Namespace: t.Upstream.Schema, RelationName: t.Upstream.Name, ReplicaIdentity: identity}
	for _, c := range t.Columns {
		var flags uint8
		if c.Key || identity == replicaIdentityFull {
			flags = relationKeyFlag
		}
		rel.Columns = append(rel.Columns, &pglogrepl.RelationMessageColumn{Flags: flags, Name: c.Name, DataType: c.TypeOID, TypeModifier: c.TypeMod})
	}
	rel.ColumnNum = uint16(len(rel.Columns))
	return rel
}

func TestReconcile(t *testing.T) {
	base := accountsTable()
	edit := func(f func(rel *pglogrepl.RelationMessage)) *pglogrepl.RelationMessage {
		rel := relationOf(base, 'd')
		f(rel)
		return rel
	}
	t.Run("unchanged", func(t *testing.T) {
		for _, identity := range []uint8{'d', replicaIdentityFull} {
			next, added, err := reconcile(base, relationOf(base, identity))
			if next != nil || added != nil || err != nil {
				t.Errorf("identity %c: %v %v %v", identity, next, added, err)
			}
		}
	})
	t.Run("added columns", func(t *testing.T) {
		rel := edit(func(rel *pglogrepl.RelationMessage) {
			rel.Columns = append(rel.Columns,
				&pglogrepl.RelationMessageColumn{Name: "extra", DataType: 1043, TypeModifier: 24},
				&pglogrepl.RelationMessageColumn{Name: "flag", DataType: 16, TypeModifier: -1})
		})
		next, added, err := reconcile(base, rel)
		if err != nil {
			t.Fatal(err)
		}
		if len(added) != 2 || added[0].Name != "extra" || added[0].TypeMod != 24 || added[1].Name != "flag" {
			t.Errorf("added %+v", added)
		}
		if len(next.Columns) != 6 || len(base.Columns) != 4 {
			t.Errorf("next has %d columns, the table %d", len(next.Columns), len(base.Columns))
		}
	})
	t.Run("new key", func(t *testing.T) {
		rel := edit(func(rel *pglogrepl.RelationMessage) { rel.Columns[0].Flags = 0 })
		next, _, err := reconcile(base, rel)
		if err != nil || next == nil || next.Columns[0].Key || !next.Columns[1].Key || !base.Columns[0].Key {
			t.Errorf("key change: %+v, %v", next, err)
		}
	})
	for _, c := range []struct {
		name string
		edit func(rel *pglogrepl.RelationMessage)
		want string
	}{
		{"renamed table", func(rel *pglogrepl.RelationMessage) { rel.RelationName = "accounts_old" }, `renamed to "app"."accounts_old"`},
		{"moved schema", func(rel *pglogrepl.RelationMessage) { rel.Namespace = "archive" }, `renamed to "archive"."accounts"`},
		{"dropped last column", func(rel *pglogrepl.RelationMessage) { rel.Columns = rel.Columns[:3] }, `column "note" was dropped`},
		{"dropped middle column", func(rel *pglogrepl.RelationMessage) {
			rel.Columns = slices.Delete(rel.Columns, 2, 3)
		}, `column "balance" was dropped or renamed`},
		{"renamed column", func(rel *pglogrepl.RelationMessage) { rel.Columns[3].Name = "remark" }, `column "note" was dropped or renamed`},
		{"retyped column", func(rel *pglogrepl.RelationMessage) { rel.Columns[2].DataType = 701 }, `column "balance" changed type (it was numeric(12,2))`},
		{"new typmod", func(rel *pglogrepl.RelationMessage) { rel.Columns[2].TypeModifier = 917510 }, `column "balance" changed type`},
		{"reordered", func(rel *pglogrepl.RelationMessage) {
			rel.Columns[2], rel.Columns[3] = rel.Columns[3], rel.Columns[2]
		}, `column "balance" moved`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := reconcile(base, edit(c.edit))
			if err == nil || !strings.Contains(err.Error(), c.want) || !IsPermanent(err) {
				t.Errorf("error %v, want a permanent one saying %q", err, c.want)
			}
		})
	}
}

func tuple(values ...any) *pglogrepl.TupleData {
	td := &pglogrepl.TupleData{}
	for _, v := range values {
		switch v := v.(type) {
		case nil:
			td.Columns = append(td.Columns, &pglogrepl.TupleDataColumn{DataType: pglogrepl.TupleDataTypeNull})
		case string:
			td.Columns = append(td.Columns, &pglogrepl.TupleDataColumn{DataType: pglogrepl.TupleDataTypeText, Data: []byte(v)})
		case unchangedToast:
			td.Columns = append(td.Columns, &pglogrepl.TupleDataColumn{DataType: pglogrepl.TupleDataTypeToast})
		}
	}
	td.ColumnNum = uint16(len(td.Columns))
	return td
}

type unchangedToast struct{}

var toast = unchangedToast{}

func values(vs ...any) []Value {
	var out []Value
	for _, v := range tuple(vs...).Columns {
		switch v.DataType {
		case pglogrepl.TupleDataTypeNull:
			out = append(out, Null())
		case pglogrepl.TupleDataTypeToast:
			out = append(out, Unchanged())
		default:
			out = append(out, Text(string(v.Data)))
		}
	}
	return out
}

func TestUpdateChanges(t *testing.T) {
	tbl := accountsTable()
	cases := []struct {
		name    string
		msg     *pglogrepl.UpdateMessage
		want    []Change
		wantErr string
	}{
		{
			name: "same key, no old row",
			msg:  &pglogrepl.UpdateMessage{NewTuple: tuple("eu", "1", "10.00", "n")},
			want: []Change{{Op: OpUpdate, Values: values("eu", "1", "10.00", "n")}},
		},
		{
			name: "unchanged TOAST, no old row: left for the Sink by key",
			msg:  &pglogrepl.UpdateMessage{NewTuple: tuple("eu", "1", "10.00", toast)},
			want: []Change{{Op: OpUpdate, Values: values("eu", "1", "10.00", toast), Identity: values("eu", "1")}},
		},
		{
			name: "unchanged TOAST, whole old row: taken from it",
			msg: &pglogrepl.UpdateMessage{OldTupleType: pglogrepl.UpdateMessageTupleTypeOld,
				OldTuple: tuple("eu", "1", "9.00", "long note"), NewTuple: tuple("eu", "1", "10.00", toast)},
			want: []Change{{Op: OpUpdate, Values: values("eu", "1", "10.00", "long note")}},
		},
		{
			name: "key changed, whole old row",
			msg: &pglogrepl.UpdateMessage{OldTupleType: pglogrepl.UpdateMessageTupleTypeOld,
				OldTuple: tuple("eu", "1", "9.00", "long note"), NewTuple: tuple("us", "1", "9.00", toast)},
			want: []Change{
				{Op: OpDelete, Values: values("eu", "1", "9.00", "long note")},
				{Op: OpInsert, Values: values("us", "1", "9.00", "long note")},
			},
		},
		{
			name: "key changed, old key only, unchanged TOAST: by the old key",
			msg: &pglogrepl.UpdateMessage{OldTupleType: pglogrepl.UpdateMessageTupleTypeKey,
				OldTuple: tuple("eu", "1", nil, nil), NewTuple: tuple("eu", "2", "9.00", toast)},
			want: []Change{
				{Op: OpDelete, Values: values("eu", "1", nil, nil), KeyOnly: true},
				{Op: OpInsert, Values: values("eu", "2", "9.00", toast), Identity: values("eu", "1")},
			},
		},
		{
			name: "old key sent though unchanged (TOASTed key)",
			msg: &pglogrepl.UpdateMessage{OldTupleType: pglogrepl.UpdateMessageTupleTypeKey,
				OldTuple: tuple("eu", "1", nil, nil), NewTuple: tuple(toast, "1", "3.00", "n")},
			want: []Change{{Op: OpUpdate, Values: values("eu", "1", "3.00", "n")}},
		},
		{
			name:    "TOASTed key unsent",
			msg:     &pglogrepl.UpdateMessage{NewTuple: tuple(toast, "1", "3.00", "n")},
			wantErr: "TOASTed key column unsent",
		},
		{
			name:    "wrong column count",
			msg:     &pglogrepl.UpdateMessage{NewTuple: tuple("eu", "1", "3.00")},
			wantErr: "3 columns where the table has 4",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := updateChanges(tbl, c.msg)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Errorf("error %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.want {
				c.want[i].Table = tbl.Name
			}
			if len(got) != len(c.want) {
				t.Fatalf("%d changes, want %d: %+v", len(got), len(c.want), got)
			}
			for i := range got {
				g, w := got[i], c.want[i]
				if g.Table != w.Table || g.Op != w.Op || g.KeyOnly != w.KeyOnly || !slices.Equal(g.Values, w.Values) || !slices.Equal(g.Identity, w.Identity) {
					t.Errorf("change %d: %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

func TestDeleteAndInsertChanges(t *testing.T) {
	tbl := accountsTable()
	d, err := deleteChange(tbl, &pglogrepl.DeleteMessage{OldTupleType: pglogrepl.DeleteMessageTupleTypeKey, OldTuple: tuple("eu", "1", nil, nil)})
	if err != nil || d.Op != OpDelete || !d.KeyOnly || !slices.Equal(d.Values, values("eu", "1", nil, nil)) {
		t.Errorf("key delete: %+v, %v", d, err)
	}
	d, err = deleteChange(tbl, &pglogrepl.DeleteMessage{OldTupleType: pglogrepl.DeleteMessageTupleTypeOld, OldTuple: tuple("eu", "1", "2.00", nil)})
	if err != nil || d.KeyOnly || !slices.Equal(d.Values, values("eu", "1", "2.00", nil)) {
		t.Errorf("whole-row delete: %+v, %v", d, err)
	}
	c, err := insertChange(tbl, &pglogrepl.InsertMessage{Tuple: tuple("eu", "1", nil, "")})
	if err != nil || c.Op != OpInsert || !slices.Equal(c.Values, values("eu", "1", nil, "")) {
		t.Errorf("insert: %+v, %v", c, err)
	}
	if _, err := insertChange(tbl, &pglogrepl.InsertMessage{Tuple: tuple("eu", "1", nil, toast)}); err == nil {
		t.Errorf("an insert with an unchanged TOAST value went through")
	}
	binary := tuple("eu", "1", nil, nil)
	binary.Columns[2].DataType = pglogrepl.TupleDataTypeBinary
	if _, err := insertChange(tbl, &pglogrepl.InsertMessage{Tuple: binary}); err == nil || !strings.Contains(err.Error(), "not text") {
		t.Errorf("a binary value: %v", err)
	}
}

// TestParseMessageNeverPanics: pglogrepl indexes into messages without
// checking their length; a truncated message is an error, not a crash.
func TestParseMessageNeverPanics(t *testing.T) {
	full := []byte{'U', 0, 0, 0, 42, 'N', 0, 2, 't', 0, 0, 0, 2, 'e', 'u', 't', 0, 0, 0, 1, '1'}
	if m, err := parseMessage(full); err != nil || m.(*pglogrepl.UpdateMessage).NewTuple.ColumnNum != 2 {
		t.Fatalf("the whole message: %v, %v", m, err)
	}
	for n := range full {
		if _, err := parseMessage(full[:n]); err == nil && n > 0 && n < len(full) {
			t.Errorf("%d of %d bytes parsed without an error", n, len(full))
		}
	}
}

func TestSeqGrowsWithEveryChange(t *testing.T) {
	s := &session{}
	s.stream.tx = &txBuffer{lastSeq: 100}
	s.appendChanges(50, Change{}, Change{})   // before the last Seq: counts on
	s.appendChanges(500, Change{})            // its own position
	s.appendChanges(500, Change{}, Change{})  // several at one position
	s.appendChanges(1<<63+5, Change{Op: 'x'}) // beyond int64: clamped, still growing
	var got []int64
	for _, c := range s.stream.tx.changes {
		got = append(got, c.Seq)
	}
	if want := []int64{101, 102, 500, 501, 502, 1<<63 - 1}; !slices.Equal(got, want) {
		t.Errorf("Seq %v, want %v", got, want)
	}
}
