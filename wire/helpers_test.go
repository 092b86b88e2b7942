package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// testServer is a Server on 127.0.0.1:0 with a fakeFactory behind it.
type testServer struct {
	srv  *Server
	fake *fakeFactory
	addr string
	logs *logBuffer
}

// logBuffer collects the server's log; it is shown when a test fails, and
// tests that expect a log line (a panic's stack) search it.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func startServer(t testing.TB, cfg Config) *testServer {
	t.Helper()
	ts := &testServer{fake: newFakeFactory(), logs: &logBuffer{}}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(ts.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	ts.srv = NewServer(cfg, ts.fake)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts.addr = ln.Addr().String()
	served := make(chan error, 1)
	go func() { served <- ts.srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := ts.srv.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-served; err != nil {
			t.Errorf("Serve returned %v after Shutdown, want nil", err)
		}
		if t.Failed() {
			t.Logf("server log:\n%s", ts.logs)
		}
	})
	return ts
}

func (ts *testServer) connString(params string) string {
	s := "postgres://alice@" + ts.addr + "/db?sslmode=disable"
	if params != "" {
		s += "&" + params
	}
	return s
}

func (ts *testServer) connect(t testing.TB, params string) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(ts.connString(params))
	if err != nil {
		t.Fatal(err)
	}
	return ts.connectConfig(t, cfg)
}

func (ts *testServer) connectConfig(t testing.TB, cfg *pgx.ConnConfig) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// waitFor polls cond, for state that settles on the server after the client
// has already moved on (a session closing after the socket did).
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func pgErrorOf(t testing.TB, err error) *pgconn.PgError {
	t.Helper()
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Fatalf("got error %v (%T), want a *pgconn.PgError", err, err)
	}
	return pe
}

// rawClient speaks the protocol message by message, for what pgx will not
// do on purpose: row-limited Execute, malformed input, exact message order.
type rawClient struct {
	t    testing.TB
	conn net.Conn
	fe   *pgproto3.Frontend
}

func dialRaw(t testing.TB, addr string) *rawClient {
	t.Helper()
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	return &rawClient{t: t, conn: nc, fe: pgproto3.NewFrontend(nc, nc)}
}

// startRaw connects and completes a trust-auth startup.
func startRaw(t testing.TB, addr string) *rawClient {
	t.Helper()
	c := dialRaw(t, addr)
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "alice", "database": "db"}})
	c.untilReady()
	return c
}

func (c *rawClient) send(msgs ...pgproto3.FrontendMessage) {
	c.t.Helper()
	for _, m := range msgs {
		c.fe.Send(m)
	}
	if err := c.fe.Flush(); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

func (c *rawClient) receive() pgproto3.BackendMessage {
	c.t.Helper()
	msg, err := c.fe.Receive()
	if err != nil {
		c.t.Fatalf("receive: %v", err)
	}
	return msg
}

// untilReady collects messages up to and including ReadyForQuery, each
// described by describeMsg.
func (c *rawClient) untilReady() []string {
	c.t.Helper()
	var got []string
	for {
		msg := c.receive()
		got = append(got, describeMsg(msg))
		if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
			return got
		}
	}
}

// expectClosed reads until the server closes, returning what it said first.
func (c *rawClient) expectClosed() []string {
	c.t.Helper()
	var got []string
	for {
		msg, err := c.fe.Receive()
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) || strings.Contains(err.Error(), "reset") {
				return got
			}
			c.t.Fatalf("waiting for close: %v (after %v)", err, got)
		}
		got = append(got, describeMsg(msg))
	}
}

// describeMsg renders a backend message compactly for comparisons.
func describeMsg(msg pgproto3.BackendMessage) string {
	switch m := msg.(type) {
	case *pgproto3.ReadyForQuery:
		return "Ready " + string(m.TxStatus)
	case *pgproto3.DataRow:
		var vals []string
		for _, v := range m.Values {
			vals = append(vals, string(v))
		}
		return "Row " + strings.Join(vals, ",")
	case *pgproto3.CommandComplete:
		return "Complete " + string(m.CommandTag)
	case *pgproto3.ErrorResponse:
		return fmt.Sprintf("Error %s %s %s", m.Severity, m.Code, m.Message)
	case *pgproto3.NoticeResponse:
		return fmt.Sprintf("Notice %s %s", m.Severity, m.Message)
	case *pgproto3.ParameterStatus:
		return "Param " + m.Name + "=" + m.Value
	case *pgproto3.RowDescription:
		var names []string
		for _, f := range m.Fields {
			names = append(names, fmt.Sprintf("%s:%d:%d", f.Name, f.DataTypeOID, f.Format))
		}
		return "Fields " + strings.Join(names, ",")
	case *pgproto3.ParameterDescription:
		return fmt.Sprintf("Params %v", m.ParameterOIDs)
	case *pgproto3.CopyData:
		return "CopyData " + string(m.Data)
	default:
		return strings.TrimPrefix(fmt.Sprintf("%T", msg), "*pgproto3.")
	}
}

// query builds a simple Query message.
func query(text string) *pgproto3.Query { return &pgproto3.Query{String: text} }
