package wire

import (
	"context"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
)

// TestMaxConnections fills the server and checks that the next client gets
// FATAL 53300, that cancel requests still get through, and that a slot frees
// up when a client leaves.
func TestMaxConnections(t *testing.T) {
	ts := startServer(t, Config{MaxConnections: 2})
	ctx := context.Background()
	a := ts.connect(t, "")
	ts.connect(t, "")

	_, err := pgx.Connect(ctx, ts.connString(""))
	if pe := pgErrorOf(t, err); pe.Severity != "FATAL" || pe.Code != "53300" || pe.Message != "sorry, too many clients already" {
		t.Fatalf("third client: %s %s %q", pe.Severity, pe.Code, pe.Message)
	}
	if err := a.PgConn().CancelRequest(ctx); err != nil {
		t.Fatalf("cancel request while full: %v", err)
	}

	a.Close(ctx)
	waitFor(t, "the slot to free", func() bool {
		c, err := pgx.Connect(ctx, ts.connString(""))
		if err == nil {
			c.Close(ctx)
		}
		return err == nil
	})
}

// TestMaxMessageSize sends a message over the limit: FATAL 08P01, the
// connection closes, the server goes on.
func TestMaxMessageSize(t *testing.T) {
	ts := startServer(t, Config{MaxMessageSize: 1024})
	c := startRaw(t, ts.addr)
	c.send(query("echo " + strings.Repeat("x", 600)))
	c.untilReady()
	c.send(query("echo " + strings.Repeat("x", 2000)))
	got := c.expectClosed()
	if len(got) != 1 || !strings.HasPrefix(got[0], "Error FATAL 08P01 invalid message length") {
		t.Fatalf("got %q", got)
	}
	startRaw(t, ts.addr).send(query("select 1"))
}

// TestIdleInTransactionTimeout checks that a client idling inside a
// transaction block is cut off with FATAL 25P03 and its session rolled back
// (closed), while one idling outside a transaction, or pausing in the middle
// of a batch, is left alone.
func TestIdleInTransactionTimeout(t *testing.T) {
	// Long enough that the 50 ms pauses between statements below stay
	// far from it on a loaded machine under the race detector.
	const idleTimeout = 300 * time.Millisecond
	ts := startServer(t, Config{IdleInTransactionTimeout: idleTimeout})

	idle := startRaw(t, ts.addr)
	c := startRaw(t, ts.addr)
	c.send(query("begin"))
	if got := c.untilReady(); got[len(got)-1] != "Ready T" {
		t.Fatalf("begin: %q", got)
	}
	start := time.Now()
	got := c.expectClosed()
	want := []string{"Error FATAL 25P03 terminating connection due to idle-in-transaction timeout"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q", got)
	}
	if waited := time.Since(start); waited < idleTimeout*4/5 {
		t.Fatalf("cut off after %v", waited)
	}
	waitFor(t, "the session to close", func() bool { return ts.fake.sessions.Load() == 1 })

	// Statements in between reset the clock; the idle one is still fine.
	c = startRaw(t, ts.addr)
	c.send(query("begin"))
	c.untilReady()
	for range 3 {
		time.Sleep(50 * time.Millisecond)
		c.send(query("select 1"))
		c.untilReady()
	}
	// A pause inside a batch, before ReadyForQuery, is not idling: the
	// client is not done talking.
	c.send(&pgproto3.Parse{Query: "select 1"})
	time.Sleep(idleTimeout * 3 / 2)
	c.send(&pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{})
	if got := c.untilReady(); got[len(got)-1] != "Ready T" {
		t.Fatalf("batch with a pause: %q", got)
	}
	c.send(query("commit"))
	c.untilReady()
	time.Sleep(idleTimeout * 3 / 2)
	for _, cl := range []*rawClient{idle, c} {
		cl.send(query("select 1"))
		if got := cl.untilReady(); got[len(got)-1] != "Ready I" {
			t.Fatalf("idle outside a transaction: %q", got)
		}
	}
}

// TestShutdown checks the graceful path: idle clients get FATAL 57P01 at
// once, a running statement finishes and its client gets its result before
// the same FATAL, Serve returns nil, and new connections are refused.
func TestShutdown(t *testing.T) {
	ts := startServer(t, Config{})
	idle := startRaw(t, ts.addr)
	busy := startRaw(t, ts.addr)
	busy.send(query("sleep 300ms"))
	waitFor(t, "the statement to start", func() bool { return ts.fake.executed.Load() == 1 })

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- ts.srv.Shutdown(ctx) }()

	farewell := "Error FATAL 57P01 terminating connection due to administrator command"
	if got := idle.expectClosed(); !slices.Equal(got, []string{farewell}) {
		t.Fatalf("idle client got %q", got)
	}
	want := []string{"Complete SLEEP", "Ready I", farewell}
	if got := busy.expectClosed(); !slices.Equal(got, want) {
		t.Fatalf("busy client got %q\nwant %q", got, want)
	}
	if err := <-done; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if ts.fake.sessions.Load() != 0 {
		t.Fatal("sessions left open after Shutdown")
	}
	if nc, err := net.DialTimeout("tcp", ts.addr, time.Second); err == nil {
		nc.Close()
		t.Fatal("still accepting after Shutdown")
	}
}

// TestShutdownTimeout checks the impatient path: when ctx ends first, running
// statements are cancelled, sockets closed, and Shutdown reports ctx's error.
func TestShutdownTimeout(t *testing.T) {
	ts := startServer(t, Config{})
	busy := startRaw(t, ts.addr)
	busy.send(query("sleep"))
	waitFor(t, "the statement to start", func() bool { return ts.fake.executed.Load() == 1 })

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := ts.srv.Shutdown(ctx); err != context.DeadlineExceeded {
		t.Fatalf("Shutdown = %v, want DeadlineExceeded", err)
	}
	busy.expectClosed()
	waitFor(t, "the statement to see cancellation", func() bool { return ts.fake.cancelled.Load() == 1 })
	waitFor(t, "the session to close", func() bool { return ts.fake.sessions.Load() == 0 })
}

// TestPanicInSession checks that a panic inside a session call reaches the
// client as FATAL XX000, is logged with its stack, closes only that
// connection, and leaves the server and other clients working.
func TestPanicInSession(t *testing.T) {
	ts := startServer(t, Config{})
	other := startRaw(t, ts.addr)
	c := startRaw(t, ts.addr)
	c.send(query("panic"))
	got := c.expectClosed()
	if len(got) != 1 || !strings.HasPrefix(got[0], "Error FATAL XX000 ") {
		t.Fatalf("got %q", got)
	}
	logs := ts.logs.String()
	if !strings.Contains(logs, "boom from the fake session") || !strings.Contains(logs, "fake_test.go") {
		t.Fatalf("panic not logged with its stack:\n%s", logs)
	}
	waitFor(t, "the session to close", func() bool { return ts.fake.sessions.Load() == 1 })
	other.send(query("select 1"))
	other.untilReady()
	startRaw(t, ts.addr).send(query("select 1"))
}

// TestConnectionEnds checks the ways a connection ends without a protocol
// error: Terminate, a client that vanishes mid-statement, and a FATAL error
// from the session. Each closes its session and nothing else.
func TestConnectionEnds(t *testing.T) {
	ts := startServer(t, Config{})
	other := startRaw(t, ts.addr)

	c := startRaw(t, ts.addr)
	c.send(&pgproto3.Terminate{})
	if got := c.expectClosed(); len(got) != 0 {
		t.Fatalf("after Terminate: %q", got)
	}

	c = startRaw(t, ts.addr)
	c.send(query("select 100000"))
	c.conn.Close()

	c = startRaw(t, ts.addr)
	c.send(query("fatal"))
	if got := c.expectClosed(); !slices.Equal(got, []string{"Error FATAL 57P01 fatal from session"}) {
		t.Fatalf("session FATAL: %q", got)
	}

	waitFor(t, "three sessions to close", func() bool { return ts.fake.sessions.Load() == 1 })
	other.send(query("select 2"))
	if got := other.untilReady(); !slices.Equal(got, []string{"Fields n:23:0", "Row 1", "Row 2", "Complete SELECT 2", "Ready I"}) {
		t.Fatalf("other client: %q", got)
	}
	if ts.fake.live.Load() != 0 {
		t.Fatalf("%d statements or portals left open", ts.fake.live.Load())
	}
}
