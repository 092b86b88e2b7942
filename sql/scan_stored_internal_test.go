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
		p := executeOneRow(t, s, q)
		r := p.running
		if got := r != nil && r.stored != nil; got != want {
			t.Errorf("%s: stored rows %v, want %v", q, got, want)
		}
		closeAndSync(t, s, p)
	}
}

// executeOneRow runs q up to its first row and returns its portal, still
// open for a look at the running query; closeAndSync ends it.
func executeOneRow(t *testing.T, s *Session, q string) *portal {
	t.Helper()
	return executePortal(t, s, q, 1)
}

// executePortal parses, binds and executes q for up to maxRows rows (0:
// all) and returns the portal.
func executePortal(t *testing.T, s *Session, q string, maxRows int) *portal {
	t.Helper()
	ctx := context.Background()
	sts, err := s.Parse(ctx, q, nil)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	p, err := sts[0].Bind(ctx, nil, nil, nil)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if _, _, err := p.Execute(ctx, maxRows, discardWriter{}); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return p.(*portal)
}

func closeAndSync(t *testing.T, s *Session, p *portal) {
	t.Helper()
	p.Close()
	if err := s.Sync(context.Background(), false); err != nil {
		t.Fatal(err)
	}
}

// TestKeyDecidedFiltersAreNotEvaluated checks that a point read by primary
// key, and an AS OF read under a flow key, need no filter on the row they
// find when the key and the period decide the whole WHERE clause (what
// lets pgbench's select and the point AS OF send the stored row), and
// still filter when something else is left.
func TestKeyDecidedFiltersAreNotEvaluated(t *testing.T) {
	s := newInternalSession(t)
	runText(t, s, "CREATE TABLE pk (a int PRIMARY KEY, b text)")
	runText(t, s, "INSERT INTO pk VALUES (3, 'x')")
	runText(t, s, "CREATE TABLE ev (id int, v text, seq bigint)")
	runText(t, s, "CREATE STREAMING TABLE tgt")
	runText(t, s, "CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (id) SEQUENCE BY seq COLUMNS * EXCEPT (seq) STORED AS SCD TYPE 2")
	runText(t, s, "INSERT INTO ev VALUES (1, 'a', 1), (1, 'b', 5)")
	for q, want := range map[string]bool{
		"SELECT a, b FROM pk WHERE a = 3":                                           true,
		"SELECT a, b FROM pk WHERE a = 3 AND b = 'x'":                               false,
		"SELECT a, b FROM pk WHERE a = 3.0":                                         false,
		"SELECT id, v FROM tgt FOR BUSINESS_TIME AS OF 6 WHERE id = 1":              true,
		"SELECT id, v FROM tgt FOR BUSINESS_TIME AS OF 6 WHERE id = 1.0":            false,
		"SELECT id, v FROM tgt FOR BUSINESS_TIME AS OF 6 WHERE id = 1 AND id = 1.0": false,
	} {
		p := executeOneRow(t, s, q)
		var scan *scanIter
		if r := p.running; r != nil {
			if proj, ok := r.it.(*projectIter); ok {
				scan, _ = proj.in.(*scanIter)
			}
		}
		if scan == nil {
			t.Errorf("%s: no scan is running", q)
		} else if scan.testsCoverFilter != want {
			t.Errorf("%s: filter decided without evaluating %v, want %v", q, scan.testsCoverFilter, want)
		}
		closeAndSync(t, s, p)
	}
}
