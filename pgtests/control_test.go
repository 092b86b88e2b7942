package pgtests

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"cdcdb/pgtests/pgserver"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// One session acting on another, as an administrator does when a client
// hangs: lock_timeout, pg_stat_activity's wait events, pg_blocking_pids,
// pg_cancel_backend and pg_terminate_backend, each checked on PostgreSQL 15
// first. In cdcdb a writer waits for the transaction that holds the writer
// slot; in PostgreSQL, for the one holding the row's lock: the test makes
// the two the same transaction, so both show the same thing.

func TestBackendControlAsPostgres(t *testing.T) {
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			holder, waiter, admin := connect(t, tg.URL), connect(t, tg.URL), connect(t, tg.URL)
			mustExec(t, admin, "CREATE TABLE acct (id int PRIMARY KEY, bal int)")
			mustExec(t, admin, "INSERT INTO acct VALUES (1, 100)")

			// pg_backend_pid() is the pid the client was given at startup,
			// so a CancelRequest and the SQL functions name one backend.
			if got := queryInt64s(t, holder, "SELECT pg_backend_pid()")[0]; uint32(got) != holder.PgConn().PID() {
				t.Fatalf("pg_backend_pid() = %d, BackendKeyData said %d", got, holder.PgConn().PID())
			}
			holderPID, waiterPID := int64(holder.PgConn().PID()), int64(waiter.PgConn().PID())

			mustExec(t, holder, "BEGIN")
			mustExec(t, holder, "UPDATE acct SET bal = bal + 1 WHERE id = 1")

			// lock_timeout bounds the wait, with PostgreSQL's error.
			mustExec(t, waiter, "SET lock_timeout = '300ms'")
			start := time.Now()
			_, err := waiter.Exec(ctx, "UPDATE acct SET bal = bal + 10 WHERE id = 1")
			pe := requireSQLState(t, err, "55P03")
			if pe.Message != "canceling statement due to lock timeout" {
				t.Fatalf("lock timeout message %q", pe.Message)
			}
			if waited := time.Since(start); waited < 300*time.Millisecond {
				t.Fatalf("lock_timeout of 300ms gave up after %v", waited)
			}
			mustExec(t, waiter, "SET lock_timeout = 0")

			// A waiter without a limit shows what it waits for, and whom.
			waitErr := make(chan error, 1)
			go func() {
				_, err := waiter.Exec(ctx, "UPDATE acct SET bal = bal + 10 WHERE id = 1")
				waitErr <- err
			}()
			waitFor(t, 10*time.Second, "the waiter to show a Lock wait", func() bool {
				var typ, ev *string
				if err := admin.QueryRow(ctx, "SELECT wait_event_type, wait_event FROM pg_stat_activity WHERE pid = $1", waiterPID).Scan(&typ, &ev); err != nil {
					t.Fatal(err)
				}
				return typ != nil && *typ == "Lock" && ev != nil && *ev == "transactionid"
			})
			if got := queryInt64s(t, admin, "SELECT unnest(pg_blocking_pids($1))", waiterPID); len(got) != 1 || got[0] != holderPID {
				t.Fatalf("pg_blocking_pids(waiter) = %v, want [%d]", got, holderPID)
			}
			if got := queryInt64s(t, admin, "SELECT count(*) FROM unnest(pg_blocking_pids($1))", holderPID); got[0] != 0 {
				t.Fatalf("the holder is blocked by %d sessions", got[0])
			}

			// pg_cancel_backend cancels the waiter's statement, not its session.
			if got := queryString(t, admin, "SELECT pg_cancel_backend($1)::text", waiterPID); got != "true" {
				t.Fatalf("pg_cancel_backend = %s", got)
			}
			select {
			case err := <-waitErr:
				pe := requireSQLState(t, err, "57014")
				if pe.Message != "canceling statement due to user request" {
					t.Fatalf("cancel message %q", pe.Message)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the cancelled statement did not end")
			}
			if got := queryInt64s(t, waiter, "SELECT 7"); got[0] != 7 {
				t.Fatal("the cancelled session does not work on")
			}

			// pg_terminate_backend ends the holder's connection; its
			// transaction is rolled back and the slot freed.
			if got := queryString(t, admin, "SELECT pg_terminate_backend($1, 5000)::text", holderPID); got != "true" {
				t.Fatalf("pg_terminate_backend = %s", got)
			}
			_, err = holder.Exec(ctx, "SELECT 1")
			if err == nil {
				t.Fatal("the terminated session still answers")
			}
			var hpe *pgconn.PgError
			if errors.As(err, &hpe) && hpe.Code != "57P01" {
				t.Fatalf("the terminated session got %s: %s", hpe.Code, hpe.Message)
			}
			waitFor(t, 10*time.Second, "the holder to leave pg_stat_activity", func() bool {
				return queryInt64s(t, admin, "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", holderPID)[0] == 0
			})
			mustExec(t, waiter, "UPDATE acct SET bal = bal + 10 WHERE id = 1")
			if got := queryInt64s(t, admin, "SELECT bal FROM acct"); got[0] != 110 {
				t.Fatalf("balance %d: the terminated transaction's update was kept, or the waiter's lost", got[0])
			}

			// A pid that is no backend: false, with PostgreSQL's warning.
			var warnings []string
			cfg, err := pgx.ParseConfig(tg.URL)
			if err != nil {
				t.Fatal(err)
			}
			cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { warnings = append(warnings, n.Severity+" "+n.Message) }
			noticed := connectConfig(t, cfg)
			if got := queryString(t, noticed, "SELECT pg_cancel_backend(2000000000)::text"); got != "false" {
				t.Fatalf("pg_cancel_backend(no such pid) = %s", got)
			}
			if got := queryString(t, noticed, "SELECT pg_terminate_backend(2000000000)::text"); got != "false" {
				t.Fatalf("pg_terminate_backend(no such pid) = %s", got)
			}
			want := "WARNING PID 2000000000 is not a PostgreSQL backend process"
			if len(warnings) != 2 || warnings[0] != want || warnings[1] != want {
				t.Fatalf("warnings %q, want twice %q", warnings, want)
			}
			_, err = admin.Exec(ctx, "SELECT pg_terminate_backend($1, -1)", waiterPID)
			if pe := requireSQLState(t, err, "22003"); pe.Message != `"timeout" must not be negative` {
				t.Fatalf("negative timeout message %q", pe.Message)
			}
		})
	}
}

// A session's own statement can be cancelled from SQL too, and an idle
// session is terminated at once (FATAL 57P01 on its next read).
func TestTerminateIdleAndCancelOwnStatement(t *testing.T) {
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			idle, admin := connect(t, tg.URL), connect(t, tg.URL)
			_, err := admin.Exec(ctx, "SELECT pg_cancel_backend(pg_backend_pid()), pg_sleep(5)")
			requireSQLState(t, err, "57014")

			idlePID := int64(idle.PgConn().PID())
			if got := queryString(t, admin, "SELECT pg_terminate_backend($1, 5000)::text", idlePID); got != "true" {
				t.Fatalf("pg_terminate_backend(idle) = %s", got)
			}
			if _, err := idle.Exec(ctx, "SELECT 1"); err == nil {
				t.Fatal("the terminated idle session still answers")
			}
		})
	}
}

// -c name=value sets a parameter's default for every session, as postgres
// -c does: SHOW and RESET see it, pg_settings says where it came from, and
// a name or value the server does not take stops it at start.
func TestServerWideSettingDefaults(t *testing.T) {
	s := startServer(t, pgserver.WithArgs("-c", "statement_timeout=5s", "-c", "extra_float_digits=3"))
	conn := connect(t, s.URL())
	if got := queryString(t, conn, "SHOW statement_timeout"); got != "5s" {
		t.Fatalf("SHOW statement_timeout = %q", got)
	}
	if got := queryString(t, conn, "SHOW extra_float_digits"); got != "3" {
		t.Fatalf("SHOW extra_float_digits = %q", got)
	}
	mustExec(t, conn, "SET statement_timeout = '1min'")
	mustExec(t, conn, "RESET statement_timeout")
	if got := queryString(t, conn, "SHOW statement_timeout"); got != "5s" {
		t.Fatalf("after RESET, statement_timeout = %q", got)
	}
	var setting, reset, boot, source string
	if err := conn.QueryRow(testContext(t), "SELECT setting, reset_val, boot_val, source FROM pg_settings WHERE name = 'statement_timeout'").Scan(&setting, &reset, &boot, &source); err != nil {
		t.Fatal(err)
	}
	if setting != "5000" || reset != "5000" || boot != "0" || source != "command line" {
		t.Fatalf("pg_settings: setting %s reset_val %s boot_val %s source %s", setting, reset, boot, source)
	}
	// The default is in force: a long statement is stopped by it.
	_, err := conn.Exec(testContext(t), "SELECT pg_sleep(10)")
	if pe := requireSQLState(t, err, "57014"); pe.Message != "canceling statement due to statement timeout" {
		t.Fatalf("timeout message %q", pe.Message)
	}

	for _, c := range []struct{ arg, want string }{
		{"no_such_parameter=1", `unrecognized configuration parameter "no_such_parameter"`},
		{"statement_timeout=soon", `"soon"`},
		{"server_version=16", `cannot have a server-wide default`},
		{"statement_timeout", `want name=value`},
	} {
		code, out := pgserver.RunUntilExit(t, cdcdbBin, pgserver.WithArgs("-c", c.arg))
		if code == 0 || !strings.Contains(out, c.want) {
			t.Errorf("-c %s: exit %d, output %q; want a failure saying %q", c.arg, code, out, c.want)
		}
	}
}

// statement_timeout stops a statement within 100 ms of its deadline,
// whatever the statement is doing: scanning, sorting, aggregating, joining,
// writing, or generating rows.
func TestStatementTimeoutIsPrompt(t *testing.T) {
	s := startServer(t)
	conn := connect(t, s.URL())
	mustExec(t, conn, "CREATE TABLE big (id int PRIMARY KEY, v text)")
	mustExec(t, conn, "INSERT INTO big SELECT g, md5(g::text) FROM generate_series(1, 200000) g")
	mustExec(t, conn, "CREATE TABLE events (id int, v int, seq int)")
	mustExec(t, conn, "CREATE STREAMING TABLE events_now (id int, v int, seq int)")
	mustExec(t, conn, "CREATE FLOW f AS AUTO CDC INTO events_now FROM events KEYS (id) SEQUENCE BY seq")

	const timeout = time.Second
	const slack = 100 * time.Millisecond
	statements := []string{
		"SELECT count(*) FROM big a, big b WHERE a.v < b.v",
		"SELECT g FROM generate_series(1, 1e9) g ORDER BY g DESC LIMIT 1",
		"SELECT count(*) FROM generate_series(1, 1e9)",
		"SELECT v, count(*) FROM big a, generate_series(1, 1000) GROUP BY v ORDER BY 2 LIMIT 1",
		"SELECT string_agg(v, ',') FROM big a, generate_series(1, 1000)",
		"SELECT max(r) FROM (SELECT row_number() OVER (ORDER BY a.v DESC) r FROM big a, generate_series(1, 100)) s",
		"INSERT INTO events SELECT g % 100000, g, g FROM generate_series(1, 50000000) g",
		"INSERT INTO events SELECT g % 100000, g, g FROM generate_series(1, 2000000) g, generate_series(1, 5)",
		"SELECT g FROM generate_series(1, 50000000) g ORDER BY md5(g::text) LIMIT 1", // a top-N heap: long only when the input is
		"SELECT md5(g::text) FROM generate_series(1, 1500000) g ORDER BY 1",
		"SELECT DISTINCT md5(g::text) FROM generate_series(1, 20000000) g",
		"SELECT count(*) FROM big a JOIN big b ON a.v = b.v JOIN generate_series(1, 100) g ON true",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
	}
	mustExec(t, conn, "SET statement_timeout = '1s'")
	for _, q := range statements {
		// The best of three runs: what is measured is where the server
		// looks at the clock, not a scheduler's hiccup on a busy machine.
		best := time.Hour
		for range 3 {
			start := time.Now()
			_, err := conn.Exec(context.Background(), q)
			took := time.Since(start)
			pe := requireSQLState(t, err, "57014")
			if pe.Message != "canceling statement due to statement timeout" {
				t.Fatalf("%s: %s", q, pe.Message)
			}
			best = min(best, took)
		}
		t.Logf("%-90s stopped after %v", q, best.Round(time.Millisecond))
		if best > timeout+slack {
			t.Errorf("%s: statement_timeout of %v stopped it after %v", q, timeout, best.Round(time.Millisecond))
		}
	}
	if got := queryInt64s(t, conn, "SELECT count(*) FROM events"); got[0] != 0 {
		t.Fatalf("a timed-out INSERT left %d rows", got[0])
	}
}

// blockedReader is COPY data that never comes: a client that started a
// COPY FROM STDIN and went quiet.
type blockedReader struct{ release chan struct{} }

func (r blockedReader) Read([]byte) (int, error) {
	<-r.release
	return 0, io.EOF
}

// A COPY FROM STDIN whose client goes quiet holds the writer slot: it must
// not hold it for ever. A cancel and pg_terminate_backend reach it as they
// reach any statement (checked on PostgreSQL 15 too), and without either
// -copy-idle-timeout ends it, so other writers go on.
func TestStalledCopyIsCancelledTerminatedOrTimedOut(t *testing.T) {
	stalledCopy := func(t *testing.T, ctx context.Context, conn *pgx.Conn) (chan error, func()) {
		release := make(chan struct{})
		done := make(chan error, 1)
		go func() {
			_, err := conn.PgConn().CopyFrom(ctx, blockedReader{release}, "COPY loaded FROM STDIN")
			done <- err
		}()
		var once sync.Once
		return done, func() { once.Do(func() { close(release) }) }
	}
	waitErr := func(t *testing.T, done chan error, what string) error {
		select {
		case err := <-done:
			return err
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: the COPY did not end", what)
			return nil
		}
	}
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			admin := connect(t, tg.URL)
			mustExec(t, admin, "CREATE TABLE loaded (id int)")
			mustExec(t, admin, "CREATE TABLE other (id int)")

			// Cancelled: PostgreSQL leaves a COPY that waits for its client
			// to that client; cdcdb's COPY holds the one writer slot, so a
			// cancel ends it at once: the writers behind it go on, and the
			// client hears 57014 when it next speaks.
			if tg.Name == "cdcdb" {
				copier := connect(t, tg.URL)
				done, release := stalledCopy(t, ctx, copier)
				defer release()
				waitFor(t, 10*time.Second, "the COPY to start", func() bool {
					return queryInt64s(t, admin, "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND query LIKE 'COPY%' AND state = 'active'", int64(copier.PgConn().PID()))[0] == 1
				})
				if got := queryString(t, admin, "SELECT pg_cancel_backend($1)::text", int64(copier.PgConn().PID())); got != "true" {
					t.Fatalf("pg_cancel_backend = %s", got)
				}
				mustExec(t, admin, "INSERT INTO other VALUES (1)")
				release()
				requireSQLState(t, waitErr(t, done, "cancel"), "57014")
				if got := queryInt64s(t, copier, "SELECT 5"); got[0] != 5 {
					t.Fatal("the session whose COPY was cancelled does not go on")
				}
			}

			// Terminated: the connection ends, the writer slot is free.
			copier := connect(t, tg.URL)
			done, release := stalledCopy(t, ctx, copier)
			defer release()
			waitFor(t, 10*time.Second, "the COPY to start", func() bool {
				return queryInt64s(t, admin, "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND query LIKE 'COPY%' AND state = 'active'", int64(copier.PgConn().PID()))[0] == 1
			})
			if got := queryString(t, admin, "SELECT pg_terminate_backend($1, 10000)::text", int64(copier.PgConn().PID())); got != "true" {
				t.Fatalf("pg_terminate_backend = %s", got)
			}
			if err := waitErr(t, done, "terminate"); err == nil {
				t.Fatal("the terminated COPY succeeded")
			}
			mustExec(t, admin, "INSERT INTO other VALUES (2)")
			if got := queryInt64s(t, admin, "SELECT count(*) FROM loaded"); got[0] != 0 {
				t.Fatalf("%d rows of the ended COPYs were kept", got[0])
			}
		})
	}

	t.Run("idle timeout", func(t *testing.T) {
		s := startServer(t, pgserver.WithArgs("-copy-idle-timeout", "1s"))
		ctx := testContext(t)
		admin, copier := connect(t, s.URL()), connect(t, s.URL())
		mustExec(t, admin, "CREATE TABLE loaded (id int)")
		mustExec(t, admin, "CREATE TABLE other (id int)")
		done, release := stalledCopy(t, ctx, copier)
		defer release()
		time.Sleep(200 * time.Millisecond)
		// This writer waits for the stalled COPY, which the timeout ends.
		start := time.Now()
		mustExec(t, admin, "INSERT INTO other VALUES (1)")
		if waited := time.Since(start); waited > 10*time.Second {
			t.Fatalf("a writer waited %v behind a stalled COPY", waited)
		}
		err := waitErr(t, done, "idle timeout")
		pe := requireSQLState(t, err, "25P03")
		if !strings.Contains(pe.Message, "COPY FROM STDIN received nothing for 1s") {
			t.Fatalf("idle COPY message %q", pe.Message)
		}
	})
}

// A connection's named prepared statements and portals are capped
// (-max-prepared-statements, -max-portals): past the cap a Parse or Bind
// fails with 53400 and the connection goes on; closing some makes room.
// Messages are capped too (-max-message-size): a bigger one ends the
// connection with 08P01, and the server goes on.
func TestPerConnectionLimits(t *testing.T) {
	s := startServer(t, pgserver.WithArgs("-max-prepared-statements", "20", "-max-portals", "5", "-max-message-size", "1MiB"))
	ctx := testContext(t)
	conn := connect(t, s.URL())
	pc := conn.PgConn()
	for i := range 20 {
		if _, err := pc.Prepare(ctx, fmt.Sprintf("s%d", i), "SELECT $1::int + 1", nil); err != nil {
			t.Fatalf("prepare %d: %v", i, err)
		}
	}
	_, err := pc.Prepare(ctx, "s20", "SELECT 1", nil)
	if pe := requireSQLState(t, err, "53400"); pe.Message != "too many prepared statements: this connection holds 20" {
		t.Fatalf("message %q", pe.Message)
	}
	// The connection goes on (over the simple protocol: pgx's default mode
	// would prepare one more named statement).
	if _, err := pc.Exec(ctx, "SELECT 41 + 1").ReadAll(); err != nil {
		t.Fatalf("the connection does not go on: %v", err)
	}
	if err := pc.Deallocate(ctx, "s0"); err != nil {
		t.Fatal(err)
	}
	if _, err := pc.Prepare(ctx, "s20", "SELECT 1", nil); err != nil {
		t.Fatalf("after a close, prepare: %v", err)
	}

	// Portals: in a transaction (portals end with it), five named portals
	// bound, the sixth refused.
	if _, err := pc.Exec(ctx, "BEGIN").ReadAll(); err != nil {
		t.Fatal(err)
	}
	fe := pc.Frontend()
	for i := range 6 {
		fe.Send(&pgproto3.Bind{DestinationPortal: fmt.Sprintf("p%d", i), PreparedStatement: "s1", Parameters: [][]byte{[]byte("1")}})
	}
	fe.Send(&pgproto3.Sync{})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	var bound int
	var refused *pgproto3.ErrorResponse
	for {
		msg, err := fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		switch m := msg.(type) {
		case *pgproto3.BindComplete:
			bound++
		case *pgproto3.ErrorResponse:
			refused = m
		}
		if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
			break
		}
	}
	if bound != 5 || refused == nil || refused.Code != "53400" || refused.Message != "too many portals: this connection holds 5" {
		t.Fatalf("bound %d portals, then %+v", bound, refused)
	}
	if _, err := pc.Exec(ctx, "ROLLBACK").ReadAll(); err != nil {
		t.Fatal(err)
	}

	// A message past the cap ends that connection only.
	big := connect(t, s.URL())
	_, err = big.Exec(ctx, "SELECT length($1)", strings.Repeat("x", 2<<20))
	if err == nil {
		t.Fatal("a 2 MiB Bind passed a 1 MiB cap")
	}
	if _, err := pc.Exec(ctx, "SELECT 7").ReadAll(); err != nil {
		t.Fatalf("another connection was hurt by the big message: %v", err)
	}
}
