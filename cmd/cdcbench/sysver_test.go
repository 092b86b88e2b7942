package main

import (
	"strings"
	"testing"
)

// TestSysverModelRounds: a round's UPDATEs number exactly its ops, each
// client touches only its own rows (so the outcome does not depend on how
// clients interleave), values are unique, and the state recorded is the
// one the UPDATEs leave.
func TestSysverModelRounds(t *testing.T) {
	for _, tc := range []struct {
		rows  int
		shape sysverRoundShape
	}{
		{rows: 1000, shape: sysverRoundShape{batch: 1, clients: 1, ops: 200}},
		{rows: 1000, shape: sysverRoundShape{batch: 100, clients: 8, ops: 203}},
		{rows: 13, shape: sysverRoundShape{batch: 100, clients: 8, ops: 50}}, // rows not a multiple of clients
	} {
		m := newSysverModel(tc.rows)
		m.nextRound(sysverRoundShape{batch: 1, clients: 3, ops: 10})
		before := m.states[len(m.states)-1]
		plan := m.nextRound(tc.shape)
		after := m.states[len(m.states)-1]
		want := append([]int64(nil), before...)
		seen := map[int64]bool{}
		n := 0
		for c, ops := range plan {
			for _, op := range ops {
				n++
				if op.id < 1 || op.id > int64(tc.rows) || int((op.id-1)%int64(tc.shape.clients)) != c {
					t.Errorf("%d rows, %+v: client %d updates id %d", tc.rows, tc.shape, c, op.id)
				}
				if seen[op.v] {
					t.Errorf("%d rows, %+v: value %d twice", tc.rows, tc.shape, op.v)
				}
				seen[op.v] = true
				want[op.id-1] = op.v
			}
		}
		if n != tc.shape.ops || len(plan) != tc.shape.clients {
			t.Errorf("%d rows, %+v: %d UPDATEs from %d clients", tc.rows, tc.shape, n, len(plan))
		}
		for i := range want {
			if after[i] != want[i] {
				t.Fatalf("%d rows, %+v: state of id %d is %d, the UPDATEs left %d", tc.rows, tc.shape, i+1, after[i], want[i])
			}
		}
	}
}

// TestSysverModelCheck: check accepts the state's rows in any order and
// names the first row that differs, a missing one or an extra one.
func TestSysverModelCheck(t *testing.T) {
	m := newSysverModel(3)
	m.nextRound(sysverRoundShape{batch: 1, clients: 1, ops: 5})
	rows := func(i int) []sysverRow {
		var out []sysverRow
		for j := len(m.states[i]) - 1; j >= 0; j-- { // reversed: order must not matter
			v := m.states[i][j]
			out = append(out, sysverRow{id: int64(j + 1), v: v, note: sysverNote(v)})
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		rows    []sysverRow
		state   int
		wantErr string
	}{
		{"initial state", rows(0), 0, ""},
		{"after the round", rows(1), 1, ""},
		{"the initial rows as of the round", rows(0), 1, "want"},
		{"a row missing", rows(1)[1:], 1, "2 rows, want 3"},
		{"a wrong note", append(rows(1)[:2], sysverRow{id: rows(1)[2].id, v: rows(1)[2].v, note: "x"}), 1, "want"},
	} {
		err := m.check(tc.rows, tc.state)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.wantErr)
		}
	}
}
