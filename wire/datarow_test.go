package wire

import (
	"bytes"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
)

// readWriteBuffer is a socket that only records what is written.
type readWriteBuffer struct{ bytes.Buffer }

// TestSendDataRowMatchesPgproto3 checks the DataRow encoded in place
// against pgproto3's encoding of the same row, for rows that fit the
// output buffer, rows that need it flushed first, and rows larger than it.
func TestSendDataRowMatchesPgproto3(t *testing.T) {
	rows := [][][]byte{
		{},
		{nil},
		{{}},
		{[]byte("1"), nil, {}, []byte("héllo")},
		{bytes.Repeat([]byte("x"), outputBufferSize-100)},
		{bytes.Repeat([]byte("y"), 3*outputBufferSize)},
		make([][]byte, 1000),
	}
	var sock readWriteBuffer
	c := &conn{tr: newTransport(&sock)}
	var want []byte
	for _, row := range rows {
		// Something queued before each row, as a RowDescription would be.
		c.tr.Write([]byte("Q"))
		want = append(want, 'Q')
		ok, err := c.sendDataRow(row)
		if !ok || err != nil {
			t.Fatalf("row of %d values: ok %v, err %v", len(row), ok, err)
		}
		enc, err := (&pgproto3.DataRow{Values: row}).Encode(nil)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, enc...)
	}
	if err := c.tr.Flush(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sock.Bytes(), want) {
		t.Errorf("encoded rows differ from pgproto3's (%d bytes, want %d)", sock.Len(), len(want))
	}
	// Rows beyond what is encoded in place are left to pgproto3.
	for _, row := range [][][]byte{make([][]byte, 70000), {[]byte(strings.Repeat("z", dataRowDirectMax))}} {
		if ok, _ := c.sendDataRow(row); ok {
			t.Errorf("a row of %d values was encoded in place", len(row))
		}
	}
}
