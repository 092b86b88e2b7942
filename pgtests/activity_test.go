package pgtests

import (
	"context"
	"net/netip"
	"testing"
	"time"
)

// pg_stat_activity lists the server's sessions with what each is doing, as
// monitoring dashboards and GUI clients read it: a session idle inside a
// transaction, one running a statement, the reader itself, the client's
// address, and a closed session gone.
func TestPgStatActivityShowsSessions(t *testing.T) {
	s := startServer(t)
	ctx := testContext(t)

	idleInTx := connect(t, s.URL())
	mustExec(t, idleInTx, "BEGIN")
	mustExec(t, idleInTx, "SELECT 41 + 1")
	var idlePid int32
	if err := idleInTx.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&idlePid); err != nil {
		t.Fatal(err)
	}

	sleeper := connect(t, s.URL())
	var sleeperPid int32
	if err := sleeper.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&sleeperPid); err != nil {
		t.Fatal(err)
	}
	sleepDone := make(chan error, 1)
	go func() {
		_, err := sleeper.Exec(context.Background(), "SELECT pg_sleep(1)")
		sleepDone <- err
	}()

	reader := connect(t, s.URL())
	type row struct {
		state, query, addr string
	}
	read := func() map[int32]row {
		rows, err := reader.Query(ctx, "SELECT pid, state, query, client_addr FROM pg_stat_activity WHERE datname = current_database()")
		if err != nil {
			t.Fatal(err)
		}
		out := map[int32]row{}
		for rows.Next() {
			var pid int32
			var r row
			var addr netip.Prefix // inet, in pgx's binary format
			if err := rows.Scan(&pid, &r.state, &r.query, &addr); err != nil {
				t.Fatal(err)
			}
			r.addr = addr.Addr().String()
			out[pid] = r
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	waitFor(t, 10*time.Second, "the sleeping session to show as active", func() bool {
		r, ok := read()[sleeperPid]
		return ok && r.state == "active" && r.query == "SELECT pg_sleep(1)"
	})
	got := read()
	if r := got[idlePid]; r.state != "idle in transaction" || r.query != "SELECT pg_backend_pid()" || r.addr != "127.0.0.1" {
		t.Errorf("session idle in a transaction: %+v", r)
	}
	var me int32
	if err := reader.QueryRow(ctx, "SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%pg_stat_activity%'").Scan(&me); err != nil {
		t.Fatalf("the reading session: %v", err)
	}
	if len(got) != 3 {
		t.Errorf("want 3 sessions, got %v", got)
	}
	if err := <-sleepDone; err != nil {
		t.Fatal(err)
	}
	if err := idleInTx.Close(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "the closed session to leave pg_stat_activity", func() bool {
		_, ok := read()[idlePid]
		return !ok
	})
}
