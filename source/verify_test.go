package source

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// followedTable tells the verifier about one source table.
type followedTable struct {
	source   string   // the source table
	upstream string   // the upstream table, qualified
	audit    string   // its audit table upstream
	key      []string // its key columns
	// wholeOldRow: REPLICA IDENTITY FULL, deletes carry the whole row.
	wholeOldRow bool
}

// verifySource checks the model source against upstream:
//
//   - every rule of the Sink contract held (the model checks as it goes:
//     Seq strictly growing, each transaction once, in commit order, ...);
//   - every transaction upstream that committed after the snapshot is in
//     the source exactly once, with exactly its changes in order and
//     their values, as the audit triggers recorded them;
//   - replaying the source (snapshot rows, then changes, strictly: an
//     insert of a key that exists, or an update or delete of one that does
//     not, is an error) gives upstream's tables as they are.
func verifySource(t testing.TB, sink *modelSink, conn *pgconn.PgConn, tables []followedTable) {
	t.Helper()
	sink.checkNoViolations(t)
	st := sink.snapshot()
	if st.cp.Phase != PhaseStreaming {
		t.Fatalf("the source is in phase %s", st.cp.Phase)
	}
	verifyTransactions(t, st, conn, tables)
	for _, ft := range tables {
		verifyReplay(t, st, conn, ft)
	}
}

// verifyReplay replays one source table and compares it with upstream.
func verifyReplay(t testing.TB, st modelState, conn *pgconn.PgConn, ft followedTable) {
	t.Helper()
	cols := st.columns[ft.source]
	keyIdx := keyIndexes(t, cols, ft.key)
	state := map[string][]Value{}
	for i, r := range st.rows[ft.source] {
		values := st.padded(ft.source, r.values)
		k := keyOf(values, keyIdx)
		_, exists := state[k]
		switch r.op {
		case OpSnapshot, OpInsert:
			if exists {
				t.Errorf("%s row %d: %s of key %s, which the source holds already", ft.source, i, r, k)
			}
			state[k] = values
		case OpUpdate:
			if !exists {
				t.Errorf("%s row %d: %s of key %s, which the source does not hold", ft.source, i, r, k)
			}
			state[k] = values
		case OpDelete:
			if !exists {
				t.Errorf("%s row %d: %s of key %s, which the source does not hold", ft.source, i, r, k)
			} else if !r.keyOnly && !slices.Equal(state[k], values) {
				t.Errorf("%s row %d: delete of key %s carries %v, the source holds %v", ft.source, i, k, values, state[k])
			}
			delete(state, k)
		case OpTruncate:
			state = map[string][]Value{}
		}
	}

	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = quoteIdent(c.Name)
	}
	upstream := map[string][]Value{}
	for _, r := range mustQuery(t, conn, fmt.Sprintf("SELECT %s FROM %s", strings.Join(names, ", "), ft.upstream)) {
		values := make([]Value, len(r))
		for i, v := range r {
			values[i] = Null()
			if v != nil {
				values[i] = Text(*v)
			}
		}
		upstream[keyOf(values, keyIdx)] = values
	}
	diffs := 0
	report := func(format string, args ...any) {
		if diffs++; diffs <= 10 {
			t.Errorf(format, args...)
		}
	}
	for k, want := range upstream {
		got, ok := state[k]
		switch {
		case !ok:
			report("%s: key %s is upstream but not in the source", ft.source, k)
		case !slices.Equal(got, want):
			report("%s: key %s differs:\nsource   %v\nupstream %v", ft.source, k, abbreviated(got), abbreviated(want))
		}
	}
	for k := range state {
		if _, ok := upstream[k]; !ok {
			report("%s: key %s is in the source but no longer upstream", ft.source, k)
		}
	}
	if diffs > 10 {
		t.Errorf("%s: %d differences in all", ft.source, diffs)
	}
	t.Logf("%s: %d rows upstream, %d in the source's replay, %d events", ft.source, len(upstream), len(state), len(st.rows[ft.source]))
}

// auditEntry is one row of an audit table: one change upstream.
type auditEntry struct {
	table  *followedTable
	seq    int64
	op     string // I, UO, UN, D, T
	atLSN  LSN
	values []Value
}

// expectedChange is a change the source must hold, from the audit.
type expectedChange struct {
	table   *followedTable
	op      Op
	values  []Value
	keyOnly bool
}

// verifyTransactions compares the source's transactions with the audit.
func verifyTransactions(t testing.TB, st modelState, conn *pgconn.PgConn, tables []followedTable) {
	t.Helper()
	byXid := map[uint32][]auditEntry{}
	for i := range tables {
		ft := &tables[i]
		cols := st.columns[ft.source]
		names := make([]string, len(cols))
		for k, c := range cols {
			names[k] = quoteIdent(c.Name)
		}
		rows := mustQuery(t, conn, fmt.Sprintf("SELECT seq, xid %% 4294967296, op, at_lsn, %s FROM %s", strings.Join(names, ", "), ft.audit))
		for _, r := range rows {
			seq, _ := strconv.ParseInt(r.text(0), 10, 64)
			xid, _ := strconv.ParseUint(r.text(1), 10, 32)
			at, err := ParseLSN(r.text(3))
			if err != nil {
				t.Fatal(err)
			}
			e := auditEntry{table: ft, seq: seq, op: r.text(2), atLSN: at}
			for _, v := range r[4:] {
				if v == nil {
					e.values = append(e.values, Null())
				} else {
					e.values = append(e.values, Text(*v))
				}
			}
			byXid[uint32(xid)] = append(byXid[uint32(xid)], e)
		}
	}
	// A transaction that wrote an audit row at or after this position
	// committed after the snapshot: the source must have it.
	boundary := st.snapshotPosition
	inSource := map[uint32]modelTx{}
	for i, tx := range st.txs {
		inSource[tx.xid] = tx
		if i > 0 && tx.commitLSN <= st.txs[i-1].commitLSN {
			t.Errorf("transaction %d (commit %s) comes after %d (commit %s)", tx.xid, tx.commitLSN, st.txs[i-1].xid, st.txs[i-1].commitLSN)
		}
	}
	checked, skipped := 0, 0
	for xid, entries := range byXid {
		slices.SortFunc(entries, func(a, b auditEntry) int { return int(a.seq - b.seq) })
		tx, ok := inSource[xid]
		if !ok {
			if slices.ContainsFunc(entries, func(e auditEntry) bool { return e.atLSN >= boundary }) {
				t.Errorf("transaction %d committed after the snapshot (%s) but is not in the source (%d changes)", xid, boundary, len(entries))
			}
			skipped++
			continue
		}
		delete(inSource, xid)
		checked++
		want := expectedChanges(t, st, entries)
		if len(want) != len(tx.rows) {
			t.Errorf("transaction %d: %d changes in the source, %d upstream", xid, len(tx.rows), len(want))
			continue
		}
		for i, ref := range tx.rows {
			got := st.rows[ref.table][ref.index]
			w := want[i]
			if ref.table != w.table.source || got.op != w.op || got.keyOnly != w.keyOnly {
				t.Errorf("transaction %d change %d: %s %s, upstream %s %s (key only %v)", xid, i, ref.table, got, w.table.source, w.op, w.keyOnly)
				break
			}
			if w.op == OpTruncate {
				continue
			}
			if !sameValues(st, w, got.values) {
				t.Errorf("transaction %d change %d (%s %s):\nsource   %v\nupstream %v", xid, i, ref.table, w.op, abbreviated(got.values), abbreviated(w.values))
				break
			}
		}
	}
	for xid := range inSource {
		t.Errorf("transaction %d is in the source but not upstream", xid)
	}
	if checked == 0 {
		t.Errorf("no transaction was streamed")
	}
	t.Logf("%d transactions streamed and checked change by change, %d before the snapshot, %d snapshot rows", checked, skipped, st.snapshotRows)
}

// expectedChanges turns a transaction's audit rows into the changes the
// source must hold: an update of the key is a delete and an insert.
func expectedChanges(t testing.TB, st modelState, entries []auditEntry) []expectedChange {
	var out []expectedChange
	for i := 0; i < len(entries); i++ {
		e := entries[i]
		ft := e.table
		switch e.op {
		case "I":
			out = append(out, expectedChange{table: ft, op: OpInsert, values: e.values})
		case "D":
			out = append(out, expectedChange{table: ft, op: OpDelete, values: e.values, keyOnly: !ft.wholeOldRow})
		case "T":
			out = append(out, expectedChange{table: ft, op: OpTruncate})
		case "UO":
			if i+1 >= len(entries) || entries[i+1].op != "UN" {
				t.Fatalf("audit: an update's old row without its new row")
			}
			n := entries[i+1]
			i++
			keyIdx := keyIndexes(t, st.columns[ft.source], ft.key)
			if keyOf(e.values, keyIdx) != keyOf(n.values, keyIdx) {
				out = append(out,
					expectedChange{table: ft, op: OpDelete, values: e.values, keyOnly: !ft.wholeOldRow},
					expectedChange{table: ft, op: OpInsert, values: n.values})
			} else {
				out = append(out, expectedChange{table: ft, op: OpUpdate, values: n.values})
			}
		default:
			t.Fatalf("audit: unknown op %q", e.op)
		}
	}
	return out
}

// sameValues compares a source row with the audit's: a key-only delete on
// its key columns; any row on the columns it has (the audit table has
// those added later too, NULL in rows written before).
func sameValues(st modelState, w expectedChange, got []Value) bool {
	keyIdx := map[int]bool{}
	for _, i := range keyIndexesOf(st.columns[w.table.source], w.table.key) {
		keyIdx[i] = true
	}
	for i, want := range w.values {
		if i >= len(got) {
			if !want.IsNull() {
				return false
			}
			continue
		}
		if w.keyOnly && !keyIdx[i] {
			if !got[i].IsNull() {
				return false // upstream sent nothing: the source must hold NULL
			}
			continue
		}
		if got[i] != want {
			return false
		}
	}
	return true
}

func keyIndexes(t testing.TB, cols []Column, key []string) []int {
	idx := keyIndexesOf(cols, key)
	if len(idx) != len(key) {
		t.Fatalf("key %v not among columns %v", key, cols)
	}
	return idx
}

func keyIndexesOf(cols []Column, key []string) []int {
	var idx []int
	for _, k := range key {
		if i := slices.IndexFunc(cols, func(c Column) bool { return c.Name == k }); i >= 0 {
			idx = append(idx, i)
		}
	}
	return idx
}

func keyOf(values []Value, idx []int) string {
	parts := make([]string, len(idx))
	for i, k := range idx {
		parts[i] = values[k].String()
	}
	return strings.Join(parts, "|")
}

func abbreviated(values []Value) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = abbreviate(v.String())
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
