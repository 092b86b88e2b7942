package wire

import (
	"bufio"
	"errors"
	"io"
	"os"
)

// transport is the socket as pgproto3.Backend sees it. It does two things the
// raw socket cannot:
//
//   - Output is buffered and written only when the buffer fills, when the
//     protocol says so (Sync, Flush, ReadyForQuery-then-wait), or when the
//     connection is about to block reading. The last rule is what lets a
//     pipelining client get many responses in one write while a client
//     waiting for an answer never waits on us: we cannot block on a read
//     while holding output the client might be waiting for.
//   - It remembers socket errors, so a failed Receive can be told apart:
//     an I/O error means the client is gone (end quietly), anything else is
//     a malformed message (FATAL 08P01).
type transport struct {
	rw  io.ReadWriter // net.Conn or *tls.Conn
	out *bufio.Writer

	readErr  error
	writeErr error
}

// outputBufferSize is what we accumulate before writing: large enough for a
// pgbench transaction's replies or a few hundred small rows, small enough to
// stream big results without holding them.
const outputBufferSize = 32 << 10

func newTransport(rw io.ReadWriter) *transport {
	t := &transport{rw: rw}
	t.out = bufio.NewWriterSize(socketWriter{t}, outputBufferSize)
	return t
}

// Read is called by pgproto3's chunk reader only when it has no buffered
// input left, i.e. exactly when the connection is about to block.
func (t *transport) Read(p []byte) (int, error) {
	if t.out.Buffered() > 0 {
		if err := t.out.Flush(); err != nil {
			return 0, err
		}
	}
	n, err := t.rw.Read(p)
	if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		// A passed deadline is a wake-up (shutdown, a notification, the
		// idle-in-transaction timeout), which the reader decides about;
		// the socket itself is fine.
		t.readErr = err
	}
	return n, err
}

// Write buffers p for the socket.
func (t *transport) Write(p []byte) (int, error) { return t.out.Write(p) }

// Flush writes buffered output to the socket now.
func (t *transport) Flush() error { return t.out.Flush() }

// failed reports whether the socket itself has failed in either direction.
func (t *transport) failed() bool { return t.readErr != nil || t.writeErr != nil }

type socketWriter struct{ t *transport }

func (w socketWriter) Write(p []byte) (int, error) {
	n, err := w.t.rw.Write(p)
	if err != nil {
		w.t.writeErr = err
	}
	return n, err
}
