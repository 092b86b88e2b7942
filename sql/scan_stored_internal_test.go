package sql

import (
	"context"
	"testing"
)

// TestPlainColumnQueriesReadStoredRows checks which running queries the
// portal reads in their stored encoding: projections of a table scan's own
// columns, and nothing that computes.
func TestPlainColumnQueriesReadStoredRows(t *testing.T) {
	s := newInternalSession(t)
	runText(t, s, "CREATE TABLE t (a int, b text, c int)")
	runText(t, s, "INSERT INTO t SELECT g, 'x', g FROM generate_series(1, 10) g")
	for q, want := range map[string]bool{
		"SELECT a, b FROM t":                  true,
		"SELECT c, a, c FROM t":               true,
		"SELECT * FROM t WHERE a > 3":         true, // the filter is evaluated on the rows it needs
		"SELECT a + 1 FROM t":                 false,
		"SELECT a FROM t ORDER BY b":          false,
		"SELECT t1.a FROM t t1, t t2":         false,
		"SELECT a FROM t FOR SYSTEM_TIME ALL": false,
	} {
		ctx := context.Background()
		sts, err := s.Parse(ctx, q, nil)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		p, err := sts[0].Bind(ctx, nil, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if _, _, err := p.Execute(ctx, 1, discardWriter{}); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		r := p.(*portal).running
		if got := r != nil && r.stored != nil; got != want {
			t.Errorf("%s: stored rows %v, want %v", q, got, want)
		}
		p.Close()
		if err := s.Sync(ctx, false); err != nil {
			t.Fatal(err)
		}
	}
}
