package wire

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// frame builds a raw frontend message: type byte, length, body. The length
// is the real one unless claimed is non-zero, so seeds can lie about it.
func frame(typ byte, body string, claimed ...uint32) []byte {
	n := uint32(4 + len(body))
	if len(claimed) > 0 {
		n = claimed[0]
	}
	b := append([]byte{typ}, binary.BigEndian.AppendUint32(nil, n)...)
	return append(b, body...)
}

// encode concatenates well-formed messages.
func encode(msgs ...pgproto3.FrontendMessage) []byte {
	var b []byte
	for _, m := range msgs {
		var err error
		if b, err = m.Encode(b); err != nil {
			panic(err)
		}
	}
	return b
}

func concat(parts ...[]byte) []byte { return slices.Concat(parts...) }

// FuzzMessageLoop writes arbitrary bytes to the server, after a valid
// startup (afterStartup) or in place of one, then half-closes. Whatever the
// bytes, the server must answer and/or close the connection (never hang),
// must not panic (a recovered panic logs at ERROR level, which fails the
// test), and must keep serving: a well-behaved client runs a query after
// every input.
func FuzzMessageLoop(f *testing.F) {
	valid := encode(&pgproto3.Query{String: "select 2"})
	extended := encode(&pgproto3.Parse{Name: "s", Query: "echo $1"},
		&pgproto3.Bind{PreparedStatement: "s", DestinationPortal: "p", Parameters: [][]byte{[]byte("x")}},
		&pgproto3.Describe{ObjectType: 'P', Name: "p"}, &pgproto3.Execute{Portal: "p", MaxRows: 1}, &pgproto3.Sync{})
	startup := encode(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "fuzz"}})

	for _, seed := range [][]byte{
		nil,
		valid,
		extended,
		concat(valid, extended, valid),
		encode(&pgproto3.Bind{PreparedStatement: "nope"}, &pgproto3.Execute{}, &pgproto3.Sync{}, &pgproto3.Query{String: "select 1"}),
		encode(&pgproto3.Parse{Query: "select 3"}, &pgproto3.Bind{}, &pgproto3.Execute{MaxRows: 0xffffffff}, &pgproto3.Sync{}),
		encode(&pgproto3.Query{String: "begin"}, &pgproto3.Query{String: "fail"}, &pgproto3.Query{String: "select 1"}),
		encode(&pgproto3.Query{String: "copy t from stdin"}, &pgproto3.CopyData{Data: []byte("1\n")}, &pgproto3.CopyDone{}),
		encode(&pgproto3.Query{String: "copy t from stdin"}, &pgproto3.CopyData{Data: []byte("1\n")}, &pgproto3.Query{String: "x"}),
		encode(&pgproto3.Query{String: "copy t from stdin"}, &pgproto3.CopyFail{Message: "no"}, &pgproto3.CopyData{}),
		encode(&pgproto3.Query{String: "copy out 5"}, &pgproto3.Query{String: "sleep"}, &pgproto3.Query{String: "notice"}),
		encode(&pgproto3.CopyData{Data: []byte("stray")}, &pgproto3.CopyDone{}, &pgproto3.Flush{}),
		encode(&pgproto3.FunctionCall{Function: 1}, &pgproto3.Terminate{}, &pgproto3.Query{String: "select 1"}),
		concat(frame('Q', "select 1"), valid),                  // no NUL terminator
		frame('Q', "sel", 100),                                 // truncated
		frame('Q', "", 2),                                      // length below 4
		frame('Q', "", 0x7fffffff),                             // far over the limit
		frame('Q', strings.Repeat("x", 5000)+"\x00"),           // just over the limit
		frame('z', "what\x00"),                                 // unknown type
		frame('B', "\x00\x00\x00\x05\x00\x00"),                 // Bind whose counts overrun
		frame('B', "\x00\x00\x00\x00\x00\x01\xff\xff\xff\xf0"), // negative parameter length
		frame('P', "name-without-nul"),
		frame('D', "X\x00"), // bad Describe subtype
		frame('C', "Q\x00"), // bad Close subtype
		frame('E', "p"),     // Execute without row count
		frame('p', "password\x00"),
		frame('d', ""),
		[]byte("\x00\x01\x02\x03garbage\xff\xfe"),
	} {
		f.Add(true, seed)
	}
	for _, seed := range [][]byte{
		nil,
		concat(startup, valid),
		startupPacket(sslRequestCode, ""), // the server says 'S' and then the TLS handshake gets nothing
		concat(startupPacket(sslRequestCode, ""), []byte("not a TLS hello at all")),
		concat(startupPacket(gssEncRequestCode, ""), startup, extended),
		startupPacket(cancelRequestCode, "\x00\x00\x00\x01\x00\x00\x00\x00"),
		startupPacket(cancelRequestCode, "\x00"),
		startupPacket(2<<16, "user\x00fuzz\x00\x00"),
		startupPacket(3<<16|7, "user\x00fuzz\x00_pq_.x\x00y\x00\x00"),
		startupPacket(3<<16, "user\x00fuzz"),
		startupPacket(3<<16, ""),
		{0xff, 0xff, 0xff, 0xff},
		{0x00, 0x00, 0x27, 0x12, 0x00, 0x03}, // 10002 claimed
		{0x00, 0x00, 0x01, 0x00, 0x00, 0x03, 0x00, 0x00},
		[]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
	} {
		f.Add(false, seed)
	}

	ts := &testServer{fake: newFakeFactory(), logs: &logBuffer{}}
	ts.fake.maxSleep = 10 * time.Millisecond
	ts.fake.allowPanic = false
	cfg := Config{
		MaxMessageSize: 4096,
		TLSConfig:      selfSignedTLS(f),
		Logger:         slog.New(slog.NewTextHandler(ts.logs, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	ts.srv = NewServer(cfg, ts.fake)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	ts.addr = ln.Addr().String()
	go ts.srv.Serve(ln)
	f.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ts.srv.Shutdown(ctx)
	})

	f.Fuzz(func(t *testing.T, afterStartup bool, data []byte) {
		var c *rawClient
		if afterStartup {
			c = startRaw(t, ts.addr)
		} else {
			c = dialRaw(t, ts.addr)
		}
		c.conn.SetDeadline(time.Now().Add(10 * time.Second))
		c.conn.Write(data) // the server may hang up half-way: fine
		c.conn.(*net.TCPConn).CloseWrite()

		// The server must end the conversation. Its replies are not checked
		// message by message: after an input this arbitrary, "answered with
		// an error, or closed" is the contract, and closing with unread input
		// may reset the socket before every reply arrives.
		_, err := io.Copy(io.Discard, c.conn)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("server neither answered nor closed after %q", data)
		}
		if logs := ts.logs.String(); strings.Contains(logs, "level=ERROR") {
			t.Fatalf("server logged an error (a recovered panic?) for input %q:\n%s", data, logs)
		}

		good := startRaw(t, ts.addr)
		good.send(query("select 1"))
		if got := good.untilReady(); !slices.Equal(got, []string{"Fields n:23:0", "Row 1", "Complete SELECT 1", "Ready I"}) {
			t.Fatalf("a well-behaved client after input %q got %q", data, got)
		}
	})
}
