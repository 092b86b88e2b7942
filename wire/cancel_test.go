package wire

import (
	"context"
	"encoding/binary"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
)

// cancellingConfig makes pgx answer a cancelled context with a CancelRequest
// on a second connection (its default just breaks the socket).
func cancellingConfig(t *testing.T, connString string) *pgx.ConnConfig {
	t.Helper()
	cfg, err := pgx.ParseConfig(connString)
	if err != nil {
		t.Fatal(err)
	}
	cfg.BuildContextWatcherHandler = func(pc *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: pc, DeadlineDelay: 5 * time.Second}
	}
	return cfg
}

// TestCancelRequest cancels a running statement through pgx's context: pgx
// sends CancelRequest with the pid and key from BackendKeyData, the session's
// context is cancelled, its bare context.Canceled becomes 57014, and the
// connection stays usable.
func TestCancelRequest(t *testing.T) {
	ts := startServer(t, Config{})
	conn := ts.connectConfig(t, cancellingConfig(t, ts.connString("")))

	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
		before := ts.fake.cancelled.Load()
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start := time.Now()
		_, err := conn.Exec(ctx, "sleep", mode)
		cancel()
		if time.Since(start) > 4*time.Second {
			t.Fatalf("%v: the statement was not cancelled (took %v)", mode, time.Since(start))
		}
		pe := pgErrorOf(t, err)
		if pe.Code != "57014" || pe.Message != "canceling statement due to user request" {
			t.Fatalf("%v: got %s %q", mode, pe.Code, pe.Message)
		}
		if ts.fake.cancelled.Load() != before+1 {
			t.Fatalf("%v: the session never saw its context cancelled", mode)
		}
		var n int32
		if err := conn.QueryRow(context.Background(), "select 1").Scan(&n); err != nil || n != 1 {
			t.Fatalf("%v: after cancel: %v", mode, err)
		}
	}
}

// TestCancelRequestWrongKey checks that a CancelRequest with the right pid but
// a wrong key is ignored, and that a cancel for an idle backend does nothing.
func TestCancelRequestWrongKey(t *testing.T) {
	ts := startServer(t, Config{})
	conn := ts.connect(t, "")
	pid := conn.PgConn().PID()

	sendCancel := func(key []byte) {
		c := dialRaw(t, ts.addr)
		pkt := binary.BigEndian.AppendUint32(nil, uint32(12+len(key)))
		pkt = binary.BigEndian.AppendUint32(pkt, cancelRequestCode)
		pkt = binary.BigEndian.AppendUint32(pkt, pid)
		pkt = append(pkt, key...)
		c.conn.Write(pkt)
		if got := c.expectClosed(); len(got) != 0 {
			t.Fatalf("cancel connection got %q, want nothing", got)
		}
	}

	// Idle: nothing to cancel, and the next statement is not affected.
	sendCancel(conn.PgConn().SecretKey())

	wrong := append([]byte(nil), conn.PgConn().SecretKey()...)
	wrong[0] ^= 0xff
	done := make(chan error, 1)
	go func() {
		_, err := conn.Exec(context.Background(), "sleep 300ms")
		done <- err
	}()
	waitFor(t, "the statement to start", func() bool { return ts.fake.executed.Load() == 1 })
	sendCancel(wrong)
	if err := <-done; err != nil {
		t.Fatalf("statement failed after a cancel with the wrong key: %v", err)
	}
}
