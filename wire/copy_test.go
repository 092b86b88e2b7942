package wire

import (
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
)

// TestCopyFrom runs pgx's CopyFrom (binary COPY, sent without waiting for
// CopyInResponse) and pgconn's text CopyFrom, and checks the session got
// every byte.
func TestCopyFrom(t *testing.T) {
	ts := startServer(t, Config{})
	ctx := context.Background()
	conn := ts.connect(t, "")

	src := pgx.CopyFromRows([][]any{{int32(1), int32(10)}, {int32(2), int32(20)}, {int32(3), nil}})
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"t"}, []string{"a", "b"}, src)
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Fatalf("CopyFrom copied %d rows, want 3", n)
	}
	if data := ts.fake.lastCopy(); !bytes.HasPrefix(data, []byte("PGCOPY\n\xff\r\n\x00")) {
		t.Fatalf("session got %q, want binary COPY data", data)
	}

	// Big enough to span many CopyData messages and socket reads.
	text := strings.Repeat("some,row,data\n", 20000)
	tag, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(text), "copy t from stdin")
	if err != nil {
		t.Fatal(err)
	}
	if tag.String() != "COPY 20000" {
		t.Fatalf("tag %q", tag)
	}
	if got := ts.fake.lastCopy(); string(got) != text {
		t.Fatalf("session got %d bytes, want %d", len(got), len(text))
	}
}

// TestCopyFail checks that a client's CopyFail becomes 57014 "COPY from stdin
// failed", and that the connection carries on.
func TestCopyFail(t *testing.T) {
	ts := startServer(t, Config{})
	ctx := context.Background()
	conn := ts.connect(t, "")

	r := io.MultiReader(strings.NewReader("1\n2\n"), errReader{errors.New("client gave up")})
	_, err := conn.PgConn().CopyFrom(ctx, r, "copy t from stdin")
	pe := pgErrorOf(t, err)
	if pe.Code != "57014" || pe.Message != "COPY from stdin failed: client gave up" {
		t.Fatalf("got %s %q", pe.Code, pe.Message)
	}
	var v int32
	if err := conn.QueryRow(ctx, "select 1").Scan(&v); err != nil {
		t.Fatal(err)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// TestCopyTo checks COPY TO STDOUT through pgconn: CopyOutResponse, one
// CopyData per write, CopyDone, CommandComplete.
func TestCopyTo(t *testing.T) {
	ts := startServer(t, Config{})
	conn := ts.connect(t, "")
	var buf bytes.Buffer
	tag, err := conn.PgConn().CopyTo(context.Background(), &buf, "copy out 3")
	if err != nil {
		t.Fatal(err)
	}
	if tag.String() != "COPY 3" || buf.String() != "1\n2\n3\n" {
		t.Fatalf("tag %q, data %q", tag, buf.String())
	}

	c := startRaw(t, ts.addr)
	c.send(query("copy out 2"))
	got := c.untilReady()
	want := []string{"CopyOutResponse", "CopyData 1\n", "CopyData 2\n", "CopyDone", "Complete COPY 2", "Ready I"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

// TestCopyInExtendedProtocol runs COPY FROM through Parse/Bind/Execute with
// the Flush and Sync that PostgreSQL ignores during copy-in, and checks that
// COPY messages left over after a failed copy are dropped.
func TestCopyInExtendedProtocol(t *testing.T) {
	ts := startServer(t, Config{})
	c := startRaw(t, ts.addr)
	c.send(
		&pgproto3.Parse{Query: "copy t from stdin"}, &pgproto3.Bind{}, &pgproto3.Execute{},
		&pgproto3.Flush{},
		&pgproto3.CopyData{Data: []byte("a\n")}, &pgproto3.Sync{}, &pgproto3.CopyData{Data: []byte("b\n")}, &pgproto3.CopyDone{},
		&pgproto3.Sync{},
	)
	got := c.untilReady()
	want := []string{"ParseComplete", "BindComplete", "CopyInResponse", "Complete COPY 2", "Ready I"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}

	// A failed copy leaves the client's remaining CopyData and CopyDone to
	// be dropped rather than taken as errors.
	c.send(query("copy t from stdin"))
	if m := describeMsg(c.receive()); m != "CopyInResponse" {
		t.Fatalf("got %s", m)
	}
	c.send(&pgproto3.CopyFail{Message: "stop"}, &pgproto3.CopyData{Data: []byte("late\n")}, &pgproto3.CopyDone{})
	got = c.untilReady()
	want = []string{"Error ERROR 57014 COPY from stdin failed: stop", "Ready I"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	c.send(query("select 1"))
	if got := c.untilReady(); !slices.Equal(got, []string{"Fields n:23:0", "Row 1", "Complete SELECT 1", "Ready I"}) {
		t.Fatalf("after failed copy: %q", got)
	}
}

// TestCopyInUnexpectedMessage checks that a message other than CopyData,
// CopyDone, CopyFail, Flush or Sync in the middle of COPY data ends the
// connection with FATAL 08P01, as in PostgreSQL.
func TestCopyInUnexpectedMessage(t *testing.T) {
	ts := startServer(t, Config{})
	c := startRaw(t, ts.addr)
	c.send(query("copy t from stdin"))
	if m := describeMsg(c.receive()); m != "CopyInResponse" {
		t.Fatalf("got %s", m)
	}
	c.send(&pgproto3.CopyData{Data: []byte("a\n")}, &pgproto3.Describe{ObjectType: 'S'})
	want := []string{"Error FATAL 08P01 unexpected message type 0x44 during COPY from stdin"}
	if got := c.expectClosed(); !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
