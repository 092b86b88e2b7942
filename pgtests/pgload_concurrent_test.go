package pgtests

import (
	"context"
	"testing"
	"time"
)

// TestFreeSequenceDrawsAreDistinctUnderConcurrentWriters: two
// transactions inserting rows whose values come from a free-standing
// sequence (nextval in the VALUES, and an identity column's default) never
// get the same value, though inserts into an ordinary table may otherwise
// run side by side: the second waits for the first to end, then draws the
// next value.
func TestFreeSequenceDrawsAreDistinctUnderConcurrentWriters(t *testing.T) {
	url := startServer(t).URL()
	setup := connect(t, url)
	mustExec(t, setup, "CREATE SEQUENCE draws")
	mustExec(t, setup, "CREATE TABLE drawn (id int GENERATED ALWAYS AS IDENTITY, n bigint)")
	ctx := testContext(t)
	first, second := connect(t, url), connect(t, url)
	tx, err := first.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var id1, n1 int64
	if err := tx.QueryRow(ctx, "INSERT INTO drawn (n) VALUES (nextval('draws')) RETURNING id, n").Scan(&id1, &n1); err != nil {
		t.Fatal(err)
	}
	type drawnRow struct {
		id, n int64
		err   error
	}
	done := make(chan drawnRow, 1)
	go func() {
		var r drawnRow
		r.err = second.QueryRow(ctx, "INSERT INTO drawn (n) VALUES (nextval('draws')) RETURNING id, n").Scan(&r.id, &r.n)
		done <- r
	}()
	select {
	case r := <-done:
		t.Fatalf("the second insert ended (%+v) while the first transaction still held its draws", r)
	case <-time.After(500 * time.Millisecond):
	}
	if err := tx.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if id1 != 1 || n1 != 1 || r.id != 2 || r.n != 2 {
		t.Errorf("draws: first (id %d, n %d), second (id %d, n %d); want (1, 1) and (2, 2)", id1, n1, r.id, r.n)
	}
}
