package pgtests

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// LISTEN / NOTIFY / UNLISTEN / pg_notify as PostgreSQL's: a notification
// reaches the sessions listening on its channel when its transaction
// commits (a listener waiting idle hears of it at once), never when it
// rolls back or is rolled back to a savepoint; identical notifications of
// one transaction are folded; LISTEN and UNLISTEN take effect at commit;
// payloads over 7999 bytes and empty channels fail with 22023. Each
// expectation is PostgreSQL 15's too.

// nextNotification waits up to wait for the listener's next notification;
// "" when none came.
func nextNotification(t *testing.T, conn *pgx.Conn, wait time.Duration) (string, uint32) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	n, err := conn.WaitForNotification(ctx)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			return "", 0
		}
		t.Fatalf("WaitForNotification: %v", err)
	}
	return n.Channel + ":" + n.Payload, n.PID
}

func TestListenNotify(t *testing.T) {
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			listener := connect(t, tg.URL)
			sender := connect(t, tg.URL)
			expectNone := func(when string) {
				t.Helper()
				if got, _ := nextNotification(t, listener, 150*time.Millisecond); got != "" {
					t.Errorf("%s: the listener heard %q", when, got)
				}
			}
			expect := func(when string, want ...string) {
				t.Helper()
				for _, w := range want {
					got, pid := nextNotification(t, listener, 5*time.Second)
					if got != w {
						t.Fatalf("%s: the listener heard %q, want %q", when, got, w)
					}
					if senderPID := sender.PgConn().PID(); pid != senderPID {
						t.Errorf("%s: notification from PID %d, want the sender's %d", when, pid, senderPID)
					}
				}
				expectNone(when + ", after the expected ones")
			}
			mustExec(t, listener, "LISTEN events")
			mustExec(t, listener, "BEGIN")
			mustExec(t, listener, "LISTEN zzz")
			mustExec(t, listener, "LISTEN aaa")
			if got := queryString(t, listener, "SELECT string_agg(c, ',' ORDER BY c) FROM pg_listening_channels() c"); got != "events" {
				t.Errorf("pg_listening_channels() before COMMIT: %q", got)
			}
			mustExec(t, listener, "COMMIT")
			if got := queryString(t, listener, "SELECT string_agg(c, ',' ORDER BY c) FROM pg_listening_channels() c"); got != "aaa,events,zzz" {
				t.Errorf("pg_listening_channels(): %q", got)
			}
			mustExec(t, listener, "UNLISTEN aaa")
			mustExec(t, listener, "UNLISTEN zzz")

			// Outside a block: delivered at once, to an idle listener.
			mustExec(t, sender, "NOTIFY events, 'one'")
			expect("NOTIFY outside a block", "events:one")
			mustExec(t, sender, "SELECT pg_notify('events', 'two')")
			expect("pg_notify", "events:two")
			for i := 0; i < 2; i++ { // a prepared statement, executed again
				mustExec(t, sender, "SELECT pg_notify('events', 'again') FROM generate_series(1, 3)")
				expect("pg_notify again", "events:again")
			}
			mustExec(t, sender, "NOTIFY other, 'nobody listens'")
			expectNone("NOTIFY on another channel")

			// In a block: at commit, duplicates folded, order kept.
			mustExec(t, sender, "BEGIN")
			mustExec(t, sender, "NOTIFY events, 'a'")
			mustExec(t, sender, "NOTIFY events, 'b'")
			mustExec(t, sender, "NOTIFY events, 'a'")
			mustExec(t, sender, "SELECT pg_notify('events', 'c')")
			mustExec(t, sender, "NOTIFY events")
			expectNone("before COMMIT")
			mustExec(t, sender, "COMMIT")
			expect("at COMMIT", "events:a", "events:b", "events:c", "events:")

			// Rolled back: nothing; rolled back to a savepoint: what came
			// after it goes.
			mustExec(t, sender, "BEGIN")
			mustExec(t, sender, "NOTIFY events, 'lost'")
			mustExec(t, sender, "ROLLBACK")
			expectNone("after ROLLBACK")
			mustExec(t, sender, "BEGIN")
			mustExec(t, sender, "NOTIFY events, 'kept'")
			mustExec(t, sender, "SAVEPOINT s")
			mustExec(t, sender, "NOTIFY events, 'taken back'")
			mustExec(t, sender, "ROLLBACK TO s")
			mustExec(t, sender, "COMMIT")
			expect("after ROLLBACK TO", "events:kept")

			// Errors.
			if _, err := sender.Exec(ctx, "SELECT pg_notify('events', repeat('x', 8000))"); err == nil || !strings.Contains(err.Error(), "22023") {
				t.Errorf("an 8000-byte payload: %v, want 22023", err)
			}
			mustExec(t, sender, "SELECT pg_notify('events', repeat('x', 7999))")
			if got, _ := nextNotification(t, listener, 5*time.Second); got != "events:"+strings.Repeat("x", 7999) {
				t.Errorf("a 7999-byte payload arrived as %d bytes", len(got))
			}
			if _, err := sender.Exec(ctx, "SELECT pg_notify('', 'x')"); err == nil || !strings.Contains(err.Error(), "22023") {
				t.Errorf("an empty channel: %v, want 22023", err)
			}

			// LISTEN and UNLISTEN take effect at commit.
			mustExec(t, listener, "BEGIN")
			mustExec(t, listener, "UNLISTEN events")
			mustExec(t, listener, "ROLLBACK")
			mustExec(t, sender, "NOTIFY events, 'still listening'")
			expect("after a rolled-back UNLISTEN", "events:still listening")
			mustExec(t, listener, "UNLISTEN *")
			mustExec(t, sender, "NOTIFY events, 'unheard'")
			expectNone("after UNLISTEN *")

			// DISCARD ALL unlistens; a closed session hears nothing more.
			mustExec(t, listener, "LISTEN events")
			mustExec(t, listener, "DISCARD ALL")
			mustExec(t, sender, "NOTIFY events, 'after DISCARD ALL'")
			expectNone("after DISCARD ALL")
			gone := connect(t, tg.URL)
			mustExec(t, gone, "LISTEN events")
			if err := gone.Close(ctx); err != nil {
				t.Fatal(err)
			}
			mustExec(t, sender, "NOTIFY events, 'to a closed session'")

			// A session hears its own notifications, before its
			// ReadyForQuery.
			var own []string
			cfg := sender.Config().Copy()
			cfg.OnNotification = func(_ *pgconn.PgConn, n *pgconn.Notification) { own = append(own, n.Channel+":"+n.Payload) }
			self := connectConfig(t, cfg)
			mustExec(t, self, "LISTEN mine")
			mustExec(t, self, "NOTIFY mine, 'hello'")
			if fmt.Sprint(own) != "[mine:hello]" {
				t.Errorf("own notifications: %q", own)
			}
		})
	}
}
