package pgtests

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestKill9WhileCommitsStreamKeepsEveryAcknowledgedOne(t *testing.T) {
	srv := startServer(t)
	mustExec(t, connect(t, srv.URL()), "CREATE TABLE acked (id int8 PRIMARY KEY, writer int4 NOT NULL, payload text)")

	const writers = 4
	type writer struct {
		conn     *pgx.Conn
		acked    []int64
		inFlight int64 // sent, not yet acknowledged: may or may not survive
		err      error // why it stopped
	}
	ws := make([]*writer, writers)
	for i := range ws {
		ws[i] = &writer{conn: connect(t, srv.URL())}
	}
	ctx := testContext(t)
	var ackCount, stopped atomic.Int64
	var wg sync.WaitGroup
	for i, w := range ws {
		wg.Go(func() {
			for n := int64(1); ; n++ {
				id := int64(i)*1_000_000_000 + n
				w.inFlight = id
				_, err := w.conn.Exec(ctx, "INSERT INTO acked VALUES ($1, $2, $3)", id, int32(i), fmt.Sprintf("payload %d", id))
				if err != nil {
					w.err = err // the server is gone, or failed the INSERT
					stopped.Add(1)
					return
				}
				w.acked = append(w.acked, id)
				w.inFlight = 0
				ackCount.Add(1)
			}
		})
	}
	waitFor(t, 2*time.Minute, "400 acknowledged commits", func() bool { return ackCount.Load() >= 400 || stopped.Load() > 0 })
	failedBeforeKill := stopped.Load() > 0
	srv.Kill()
	wg.Wait()
	if failedBeforeKill {
		for i, w := range ws {
			if w.err != nil {
				t.Errorf("writer %d failed before the kill: %v", i, w.err)
			}
		}
		t.FailNow()
	}

	srv.StartAgain()
	present := map[int64]bool{}
	for _, id := range queryInt64s(t, connect(t, srv.URL()), "SELECT id FROM acked") {
		present[id] = true
	}
	acked := 0
	for i, w := range ws {
		for _, id := range w.acked {
			if !present[id] {
				t.Errorf("writer %d: acknowledged commit of id %d is lost", i, id)
			}
			delete(present, id)
		}
		acked += len(w.acked)
		delete(present, w.inFlight)
	}
	for id := range present {
		t.Errorf("id %d is present but was never sent as the last statement of its writer", id)
	}
	t.Logf("%d commits acknowledged before kill -9, all present after restart", acked)
}

func TestKill9DuringLargeCopyIsAllOrNothing(t *testing.T) {
	srv := startServer(t)
	setup := connect(t, srv.URL())
	mustExec(t, setup, "CREATE TABLE bulk (id int8 PRIMARY KEY, payload text NOT NULL)")
	mustExec(t, setup, "CREATE TABLE witness (id int8 PRIMARY KEY)")
	mustExec(t, setup, "INSERT INTO witness VALUES (1)")

	const total = 2_000_000
	const killAt = 200_000 // rows handed to pgx before the kill: the COPY is well under way
	conn := connect(t, srv.URL())
	ctx := testContext(t)
	var generated atomic.Int64
	underWay := make(chan struct{})
	copyDone := make(chan error, 1)
	go func() {
		_, err := conn.CopyFrom(ctx, pgx.Identifier{"bulk"}, []string{"id", "payload"},
			pgx.CopyFromFunc(func() ([]any, error) {
				n := generated.Add(1)
				if n == killAt {
					close(underWay)
				}
				if n > total {
					return nil, nil
				}
				return []any{n, "row payload that is not tiny, to make the COPY weigh something"}, nil
			}))
		copyDone <- err
	}()
	select {
	case <-underWay:
	case err := <-copyDone:
		t.Fatalf("COPY ended before %d rows were sent: %v", killAt, err)
	case <-time.After(3 * time.Minute):
		t.Fatalf("COPY did not reach %d rows in 3 minutes (at %d)", killAt, generated.Load())
	}
	srv.Kill()
	copyErr := <-copyDone
	t.Logf("killed after %d rows were generated; CopyFrom returned %v", generated.Load(), copyErr)

	srv.StartAgain()
	conn = connect(t, srv.URL())
	count := queryInt64s(t, conn, "SELECT count(*) FROM bulk")[0]
	switch {
	case count == 0:
	case count == total && copyErr == nil:
	default:
		t.Errorf("after kill -9 during COPY of %d rows, the table has %d rows (CopyFrom: %v); want 0 or all", total, count, copyErr)
	}
	if got := queryInt64s(t, conn, "SELECT id FROM witness"); !slices.Equal(got, []int64{1}) {
		t.Errorf("a row committed before the COPY: witness ids %v, want [1]", got)
	}
	// The table is usable: the interrupted COPY left no half-written keys.
	if tag := mustExec(t, conn, "INSERT INTO bulk VALUES (1, 'after the crash'), (2, 'x')"); tag.RowsAffected() != 2 {
		t.Errorf("INSERT after the crash: %q", tag)
	}
}

func TestKill9RightAfterAcknowledgedCopyKeepsAllRows(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.URL())
	mustExec(t, conn, "CREATE TABLE copied_then_killed (id int8 PRIMARY KEY, payload text)")
	const n = 100_000
	copied, err := conn.CopyFrom(testContext(t), pgx.Identifier{"copied_then_killed"}, []string{"id", "payload"},
		pgx.CopyFromFunc(func() func() ([]any, error) {
			i := int64(0)
			return func() ([]any, error) {
				if i == n {
					return nil, nil
				}
				i++
				return []any{i, "p"}, nil
			}
		}()))
	if err != nil || copied != n {
		t.Fatalf("CopyFrom: %d rows, %v", copied, err)
	}
	srv.Kill()
	srv.StartAgain()
	got := queryInt64s(t, connect(t, srv.URL()), "SELECT count(*) FROM copied_then_killed")
	if !slices.Equal(got, []int64{n}) {
		t.Errorf("after an acknowledged COPY and kill -9: count %v, want %d", got, n)
	}
}
