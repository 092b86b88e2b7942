package wire

import (
	"encoding/binary"
	"io"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
)

// startupPacket builds a length-prefixed startup packet with code and the
// given NUL-separated body.
func startupPacket(code uint32, body string) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(8+len(body)))
	b = binary.BigEndian.AppendUint32(b, code)
	return append(b, body...)
}

func (c *rawClient) write(b []byte) {
	c.t.Helper()
	if _, err := c.conn.Write(b); err != nil {
		c.t.Fatal(err)
	}
}

func (c *rawClient) readByte() byte {
	c.t.Helper()
	var b [1]byte
	if _, err := io.ReadFull(c.conn, b[:]); err != nil {
		c.t.Fatal(err)
	}
	return b[0]
}

// TestStartupNegotiation covers what may come before a StartupMessage and how
// each is answered, following PostgreSQL's ProcessStartupPacket.
func TestStartupNegotiation(t *testing.T) {
	ts := startServer(t, Config{})
	const user = "user\x00alice\x00\x00"

	t.Run("GSSENCRequest then SSLRequest refused, then startup in clear", func(t *testing.T) {
		c := dialRaw(t, ts.addr)
		c.write(startupPacket(gssEncRequestCode, ""))
		if b := c.readByte(); b != 'N' {
			t.Fatalf("GSSENCRequest answered %q", b)
		}
		c.write(startupPacket(sslRequestCode, ""))
		if b := c.readByte(); b != 'N' {
			t.Fatalf("SSLRequest answered %q", b)
		}
		c.write(startupPacket(3<<16, user))
		if got := c.untilReady(); got[0] != "AuthenticationOk" || got[len(got)-1] != "Ready I" {
			t.Fatalf("startup: %q", got)
		}
	})

	t.Run("second SSLRequest is an unsupported protocol", func(t *testing.T) {
		c := dialRaw(t, ts.addr)
		c.write(startupPacket(sslRequestCode, ""))
		c.readByte()
		c.write(startupPacket(sslRequestCode, ""))
		want := []string{"Error FATAL 0A000 unsupported frontend protocol 1234.5679: server supports 3.0 to 3.0"}
		if got := c.expectClosed(); !slices.Equal(got, want) {
			t.Fatalf("got %q", got)
		}
	})

	t.Run("protocol 2.0", func(t *testing.T) {
		c := dialRaw(t, ts.addr)
		c.write(startupPacket(2<<16, user))
		want := []string{"Error FATAL 0A000 unsupported frontend protocol 2.0: server supports 3.0 to 3.0"}
		if got := c.expectClosed(); !slices.Equal(got, want) {
			t.Fatalf("got %q", got)
		}
	})

	t.Run("protocol 3.2 and _pq_ options are negotiated down", func(t *testing.T) {
		c := dialRaw(t, ts.addr)
		c.write(startupPacket(3<<16|2, "user\x00alice\x00_pq_.b\x00x\x00_pq_.a\x00y\x00\x00"))
		msg := c.receive()
		npv, ok := msg.(*pgproto3.NegotiateProtocolVersion)
		if !ok || npv.NewestMinorProtocol != 0 || !slices.Equal(npv.UnrecognizedOptions, []string{"_pq_.a", "_pq_.b"}) {
			t.Fatalf("got %#v", msg)
		}
		if got := c.untilReady(); got[0] != "AuthenticationOk" {
			t.Fatalf("after negotiation: %q", got)
		}
		c.send(query("select 1"))
		if got := c.untilReady(); got[1] != "Row 1" {
			t.Fatalf("query after negotiation: %q", got)
		}
	})

	t.Run("no user", func(t *testing.T) {
		c := dialRaw(t, ts.addr)
		c.write(startupPacket(3<<16, "database\x00db\x00\x00"))
		want := []string{"Error FATAL 28000 no PostgreSQL user name specified in startup packet"}
		if got := c.expectClosed(); !slices.Equal(got, want) {
			t.Fatalf("got %q", got)
		}
	})

	t.Run("bad layout", func(t *testing.T) {
		c := dialRaw(t, ts.addr)
		c.write(startupPacket(3<<16, "user\x00alice"))
		want := []string{"Error FATAL 08P01 invalid startup packet layout: expected terminator as last byte"}
		if got := c.expectClosed(); !slices.Equal(got, want) {
			t.Fatalf("got %q", got)
		}
	})

	t.Run("bad length gets no answer", func(t *testing.T) {
		c := dialRaw(t, ts.addr)
		c.write([]byte{0, 0, 0, 2})
		if got := c.expectClosed(); len(got) != 0 {
			t.Fatalf("got %q", got)
		}
	})

	t.Run("session factory refuses", func(t *testing.T) {
		c := dialRaw(t, ts.addr)
		c.write(startupPacket(3<<16, "user\x00alice\x00database\x00nodb\x00\x00"))
		want := []string{"AuthenticationOk", "Error FATAL 3D000 database \"nodb\" does not exist"}
		if got := c.expectClosed(); !slices.Equal(got, want) {
			t.Fatalf("got %q", got)
		}
	})
}
