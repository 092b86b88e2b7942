package wire

import (
	"errors"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5/pgproto3"

	"cdcdb/pgerror"
)

// COPY moves data in CopyData messages instead of rows. For COPY FROM STDIN
// the portal pulls the client's messages through a CopyReader while Execute
// runs; for COPY TO STDOUT it pushes them through a CopyWriter, and wire adds
// CopyDone when Execute succeeds.

func copyFormats(binary bool, columns int) (overall byte, perColumn []uint16) {
	var f uint16
	if binary {
		f = 1
	}
	perColumn = make([]uint16, max(columns, 0))
	for i := range perColumn {
		perColumn[i] = f
	}
	return byte(f), perColumn
}

func (w *resultWriter) CopyIn(binary bool, columns int) (CopyReader, error) {
	if err := w.startCopy(); err != nil {
		return nil, err
	}
	overall, perColumn := copyFormats(binary, columns)
	if err := w.c.send(&pgproto3.CopyInResponse{OverallFormat: overall, ColumnFormatCodes: perColumn}); err != nil {
		return nil, err
	}
	// Nothing is flushed here on purpose: the first Next blocks on the
	// socket, and the transport flushes before any blocking read.
	w.copyIn = &copyReader{c: w.c}
	return w.copyIn, nil
}

func (w *resultWriter) CopyOut(binary bool, columns int) (CopyWriter, error) {
	if err := w.startCopy(); err != nil {
		return nil, err
	}
	overall, perColumn := copyFormats(binary, columns)
	if err := w.c.send(&pgproto3.CopyOutResponse{OverallFormat: overall, ColumnFormatCodes: perColumn}); err != nil {
		return nil, err
	}
	w.copyOut = true
	return copyWriter{w.c}, nil
}

// copyReader hands the portal the payloads of the client's CopyData messages.
type copyReader struct {
	c    *conn
	done bool
	err  error // what Next returns once done: io.EOF, or why the copy failed
	// cancelled is set once a cancel has been reported: the client still
	// sends its data to CopyDone or CopyFail, which drain then reads
	// without looking at the (cancelled) call again.
	cancelled bool
}

func (r *copyReader) Next() ([]byte, error) {
	for !r.done {
		msg, err := r.c.receiveCopy(!r.cancelled)
		if err != nil {
			switch {
			case errors.Is(err, errCopyCancelled):
				r.cancelled = true
				return nil, pgerror.New(pgerror.QueryCanceled, "canceling statement due to user request")
			case errors.Is(err, errShuttingDown):
				r.done = true
				r.err = &pgerror.Error{Severity: pgerror.SeverityFatal, Code: pgerror.AdminShutdown,
					Message: "terminating connection due to administrator command"}
				continue
			case errors.Is(err, errCopyIdle):
				r.done = true
				r.err = &pgerror.Error{Severity: pgerror.SeverityFatal, Code: pgerror.IdleInTransactionSessionTimeout,
					Message: fmt.Sprintf("terminating connection: COPY FROM STDIN received nothing for %v", r.c.srv.cfg.CopyIdleTimeout)}
				continue
			}
			r.done = true
			if r.c.tr.failed() {
				r.err = err
			} else {
				// The stream can no longer be trusted: report and hang up.
				fatal := *protocolError(err)
				fatal.Severity = pgerror.SeverityFatal
				r.err = &fatal
			}
			break
		}
		switch m := msg.(type) {
		case *pgproto3.CopyData:
			return m.Data, nil
		case *pgproto3.CopyDone:
			r.done, r.err = true, io.EOF
		case *pgproto3.CopyFail:
			r.done = true
			r.err = pgerror.New(pgerror.QueryCanceled, "COPY from stdin failed: %s", m.Message)
		case *pgproto3.Flush, *pgproto3.Sync:
			// Clients that pipeline send these during copy-in; PostgreSQL
			// ignores them here.
		default:
			// PostgreSQL gives up on the connection here ("protocol
			// synchronization was lost"): a client that sends queries in
			// the middle of its COPY data cannot be trusted to be where it
			// thinks it is.
			r.done = true
			r.err = &pgerror.Error{Severity: pgerror.SeverityFatal, Code: pgerror.ProtocolViolation,
				Message: fmt.Sprintf("unexpected message type 0x%02X during COPY from stdin", messageType(msg))}
		}
	}
	return nil, r.err
}

// drain reads to the end of the client's data after a portal that returned
// without doing so, and reports how the client ended it.
func (r *copyReader) drain() error {
	for {
		if _, err := r.Next(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// copyWriter sends each Write as one CopyData message.
type copyWriter struct{ c *conn }

func (w copyWriter) Write(p []byte) (int, error) {
	c := w.c
	c.copyData.Data = p
	err := c.send(&c.copyData)
	c.copyData.Data = nil
	if err != nil {
		return 0, err
	}
	return len(p), nil
}
