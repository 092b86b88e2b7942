package pgtests

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// rawSession is an authenticated connection driven message by message, for
// what no client library exposes: row-limited portals, pipelines, bytes
// that are not messages at all.
type rawSession struct {
	t    testing.TB
	conn net.Conn
	fe   *pgproto3.Frontend
	// errors are the "code: message" of every ErrorResponse received.
	errors []string
}

// openRaw connects and authenticates with pgconn, then takes the socket
// over.
func openRaw(t testing.TB, url string) *rawSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pc, err := pgconn.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	hj, err := pc.Hijack()
	if err != nil {
		t.Fatalf("hijack: %v", err)
	}
	t.Cleanup(func() { _ = hj.Conn.Close() })
	return &rawSession{t: t, conn: hj.Conn, fe: hj.Frontend}
}

func (r *rawSession) send(msgs ...pgproto3.FrontendMessage) {
	r.t.Helper()
	for _, m := range msgs {
		r.fe.Send(m)
	}
	if err := r.fe.Flush(); err != nil {
		r.t.Fatalf("send: %v", err)
	}
}

// transcript reads messages up to and including the n-th ReadyForQuery and
// returns them in a readable form.
func (r *rawSession) transcript(n int) []string {
	r.t.Helper()
	_ = r.conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	defer r.conn.SetReadDeadline(time.Time{})
	var out []string
	for n > 0 {
		m, err := r.fe.Receive()
		if err != nil {
			r.t.Fatalf("receive after %q: %v", out, err)
		}
		out = append(out, describeMessage(m))
		switch m := m.(type) {
		case *pgproto3.ReadyForQuery:
			n--
		case *pgproto3.ErrorResponse:
			r.errors = append(r.errors, m.Code+": "+m.Message)
		}
	}
	return out
}

func describeMessage(m pgproto3.BackendMessage) string {
	switch m := m.(type) {
	case *pgproto3.RowDescription:
		var names []string
		for _, f := range m.Fields {
			names = append(names, string(f.Name))
		}
		return "RowDescription " + strings.Join(names, ",")
	case *pgproto3.DataRow:
		var vals []string
		for _, v := range m.Values {
			if v == nil {
				vals = append(vals, "NULL")
			} else {
				vals = append(vals, string(v))
			}
		}
		return "DataRow " + strings.Join(vals, ",")
	case *pgproto3.CommandComplete:
		return "CommandComplete " + string(m.CommandTag)
	case *pgproto3.ReadyForQuery:
		return "ReadyForQuery " + string(m.TxStatus)
	case *pgproto3.ErrorResponse:
		return "ErrorResponse " + m.Code
	case *pgproto3.NoticeResponse:
		return "NoticeResponse " + m.Code
	default:
		return strings.TrimPrefix(fmt.Sprintf("%T", m), "*pgproto3.")
	}
}

func requireTranscript(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("messages:\n  got  %q\n  want %q", got, want)
	}
}

func TestProtocolPortalRowLimitSuspends(t *testing.T) {
	srv := startTarget(t)
	conn := connect(t, srv.URL)
	mustExec(t, conn, "CREATE TABLE nums (id int4 PRIMARY KEY)")
	mustExec(t, conn, "INSERT INTO nums VALUES (1), (2), (3), (4), (5)")

	r := openRaw(t, srv.URL)
	r.send(
		&pgproto3.Parse{Query: "SELECT id FROM nums WHERE id > $1 ORDER BY id"},
		&pgproto3.Bind{DestinationPortal: "p", Parameters: [][]byte{[]byte("0")}},
		&pgproto3.Describe{ObjectType: 'P', Name: "p"},
		&pgproto3.Execute{Portal: "p", MaxRows: 2},
		&pgproto3.Execute{Portal: "p", MaxRows: 2},
		&pgproto3.Execute{Portal: "p", MaxRows: 2},
		&pgproto3.Sync{},
	)
	requireTranscript(t, r.transcript(1), []string{
		"ParseComplete", "BindComplete", "RowDescription id",
		"DataRow 1", "DataRow 2", "PortalSuspended",
		"DataRow 3", "DataRow 4", "PortalSuspended",
		"DataRow 5", "CommandComplete SELECT 1",
		"ReadyForQuery I",
	})
}

// TestProtocolSuspendedScanResumes reads a scan (no sort to materialize
// it first) in chunks, each Execute a call of its own: the server cancels
// a call's context when it returns, and a resumed portal used to read on
// under its first Execute's, failing with 57014 at its first cancellation
// check.
func TestProtocolSuspendedScanResumes(t *testing.T) {
	srv := startTarget(t)
	conn := connect(t, srv.URL)
	mustExec(t, conn, "CREATE TABLE nums (id int4 PRIMARY KEY)")
	mustExec(t, conn, "INSERT INTO nums SELECT generate_series(1, 1000)")

	r := openRaw(t, srv.URL)
	r.send(
		&pgproto3.Parse{Query: "SELECT id FROM nums"},
		&pgproto3.Bind{DestinationPortal: "p"},
		&pgproto3.Execute{Portal: "p", MaxRows: 100},
		&pgproto3.Flush{},
	)
	for range 2 {
		r.send(&pgproto3.Execute{Portal: "p", MaxRows: 300}, &pgproto3.Flush{})
	}
	r.send(&pgproto3.Execute{Portal: "p"}, &pgproto3.Sync{})
	var got []string
	rows := 0
	for _, m := range r.transcript(1) {
		if strings.HasPrefix(m, "DataRow") {
			rows++
			continue
		}
		got = append(got, m)
	}
	requireTranscript(t, got, []string{
		"ParseComplete", "BindComplete", "PortalSuspended", "PortalSuspended",
		"PortalSuspended", "CommandComplete SELECT 300", "ReadyForQuery I",
	})
	if rows != 1000 {
		t.Errorf("%d rows, want 1000", rows)
	}
}

func TestProtocolErrorSkipsUntilSync(t *testing.T) {
	srv := startTarget(t)
	r := openRaw(t, srv.URL)
	// Two pipelined batches: the first fails at Parse, so its Bind and
	// Execute are skipped until Sync; the second runs normally.
	r.send(
		&pgproto3.Parse{Query: "SELECT * FROM nope"},
		&pgproto3.Bind{},
		&pgproto3.Execute{},
		&pgproto3.Sync{},
		&pgproto3.Parse{Name: "s", Query: "SELECT $1::int4 + 1"},
		&pgproto3.Describe{ObjectType: 'S', Name: "s"},
		&pgproto3.Bind{PreparedStatement: "s", Parameters: [][]byte{[]byte("41")}},
		&pgproto3.Execute{},
		&pgproto3.Close{ObjectType: 'S', Name: "s"},
		&pgproto3.Sync{},
	)
	requireTranscript(t, r.transcript(2), []string{
		"ErrorResponse 42P01", "ReadyForQuery I",
		"ParseComplete", "ParameterDescription", "RowDescription ?column?",
		"BindComplete", "DataRow 42", "CommandComplete SELECT 1", "CloseComplete",
		"ReadyForQuery I",
	})
}

func TestProtocolSimpleQueryRunsSeveralStatementsAtomically(t *testing.T) {
	srv := startTarget(t)
	r := openRaw(t, srv.URL)
	r.send(&pgproto3.Query{String: "CREATE TABLE multi (id int4 PRIMARY KEY); INSERT INTO multi VALUES (1), (2); SELECT count(*) FROM multi"})
	requireTranscript(t, r.transcript(1), []string{
		"CommandComplete CREATE TABLE", "CommandComplete INSERT 0 2",
		"RowDescription count", "DataRow 2", "CommandComplete SELECT 1",
		"ReadyForQuery I",
	})
	// Without BEGIN, the statements of one Query message form one implicit
	// transaction: an error undoes the INSERT before it.
	r.send(&pgproto3.Query{String: "INSERT INTO multi VALUES (3); SELECT * FROM nope; INSERT INTO multi VALUES (4)"})
	requireTranscript(t, r.transcript(1), []string{"CommandComplete INSERT 0 1", "ErrorResponse 42P01", "ReadyForQuery I"})
	r.send(&pgproto3.Query{String: "SELECT id FROM multi ORDER BY id"})
	requireTranscript(t, r.transcript(1), []string{
		"RowDescription id", "DataRow 1", "DataRow 2", "CommandComplete SELECT 2", "ReadyForQuery I",
	})
	r.send(&pgproto3.Query{String: ""})
	requireTranscript(t, r.transcript(1), []string{"EmptyQueryResponse", "ReadyForQuery I"})
}

func TestProtocolGarbageFromOneClientDoesNotDisturbAnother(t *testing.T) {
	srv := startTarget(t)
	victim := connect(t, srv.URL)
	mustExec(t, victim, "CREATE TABLE calm (id int4 PRIMARY KEY)")
	mustExec(t, victim, "BEGIN")
	mustExec(t, victim, "INSERT INTO calm VALUES (1)")

	addr := net.JoinHostPort(srv.Host, strconv.Itoa(srv.Port))
	beforeStartup := map[string][]byte{
		"HTTPRequest":          []byte("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"),
		"UnknownProtocol":      {0, 0, 0, 8, 0, 9, 0, 9},
		"StartupLengthTooBig":  {0x7f, 0xff, 0xff, 0xff, 0, 3, 0, 0},
		"StartupLengthTooTiny": {0, 0, 0, 2},
	}
	for name, data := range beforeStartup {
		t.Run(name, func(t *testing.T) {
			c, err := net.DialTimeout("tcp", addr, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if _, err := c.Write(data); err != nil {
				t.Fatal(err)
			}
			requireHangUp(t, c)
		})
	}
	afterStartup := map[string][]byte{
		"UnknownMessageType": {'z', 0, 0, 0, 4},
		"OversizedMessage":   {'Q', 0x7f, 0xff, 0xff, 0xf0, 'S', 'E', 'L'},
		"LengthBelowFour":    {'Q', 0, 0, 0, 1},
	}
	for name, data := range afterStartup {
		t.Run(name, func(t *testing.T) {
			r := openRaw(t, srv.URL)
			if _, err := r.conn.Write(data); err != nil {
				t.Fatal(err)
			}
			requireHangUp(t, r.conn)
		})
	}
	t.Run("TruncatedMessageThenGone", func(t *testing.T) {
		r := openRaw(t, srv.URL)
		if _, err := r.conn.Write([]byte{'Q', 0, 0, 0, 100, 'S', 'E', 'L'}); err != nil {
			t.Fatal(err)
		}
		_ = r.conn.(*net.TCPConn).CloseWrite()
		requireHangUp(t, r.conn)
	})

	mustExec(t, victim, "INSERT INTO calm VALUES (2)")
	mustExec(t, victim, "COMMIT")
	if got := queryInt64s(t, connect(t, srv.URL), "SELECT id::int8 FROM calm ORDER BY id"); !slices.Equal(got, []int64{1, 2}) {
		t.Errorf("the well-behaved client's transaction: ids %v, want [1 2]", got)
	}
}

// requireHangUp reads from c until the server closes it, allowing an error
// message first, and fails if it stays open.
func requireHangUp(t testing.TB, c net.Conn) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(15 * time.Second))
	_, err := io.Copy(io.Discard, c)
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		t.Fatal("the server kept the connection open 15s after bad input")
	}
	if err != nil && !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Logf("connection ended with %v", err)
	}
}

// FuzzMessageAfterStartup sends arbitrary bytes on an authenticated
// connection, then hangs up its sending side. The server must answer with an
// error or close the connection, and go on serving another client.
func FuzzMessageAfterStartup(f *testing.F) {
	seeds := [][]byte{
		{},
		[]byte("Q\x00\x00\x00\x0dSELECT 1\x00"),
		[]byte("Q\x00\x00\x00\x0dSELECT 1"), // truncated
		[]byte("Q\x00\x00\x00\x04"),         // empty body, no terminator
		[]byte("P\x00\x00\x00\x08\x00\x00\x00\x00"),     // Parse without query text
		[]byte("B\x00\x00\x00\x0cno\x00st\x00\xff\xff"), // Bind with negative counts
		[]byte("E\x00\x00\x00\x09nope\x00"),             // Execute of a missing portal, no Sync
		[]byte("D\x00\x00\x00\x06Zx"),                   // Describe of an unknown kind
		[]byte("d\x00\x00\x00\x08data"),                 // CopyData outside COPY
		[]byte("c\x00\x00\x00\x04S\x00\x00\x00\x04"),    // CopyDone outside COPY, then Sync
		[]byte("S\x00\x00\x00\x04X\x00\x00\x00\x04"),    // Sync, Terminate
		[]byte("p\x00\x00\x00\x0bSCRAM\x00"),            // SASL response after auth
		{'Q', 0xff, 0xff, 0xff, 0xff},
		[]byte("\x00\x00\x00\x08\x04\xd2\x16\x2f"), // SSLRequest mid-session
	}
	for _, s := range seeds {
		f.Add(s)
	}
	srv := startTarget(f)
	control := connect(f, srv.URL)
	f.Fuzz(func(t *testing.T, data []byte) {
		r := openRaw(t, srv.URL)
		if _, err := r.conn.Write(data); err != nil {
			t.Skipf("server closed before all input was written: %v", err)
		}
		_ = r.conn.(*net.TCPConn).CloseWrite()
		requireHangUp(t, r.conn)
		if got := queryString(t, control, "SELECT 'alive'"); got != "alive" {
			t.Fatalf("control connection: %q", got)
		}
	})
}
