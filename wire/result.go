package wire

import (
	"github.com/jackc/pgx/v5/pgproto3"

	"cdcdb/pgerror"
)

// resultWriter is the ResultWriter a Portal writes to during Execute. Rows,
// notices and parameter changes are queued on the connection in the order the
// portal produced them, so a client sees a NOTICE between the rows it
// happened between. One lives in each conn and is reset per Execute: a
// connection runs one Execute at a time.
type resultWriter struct {
	c       *conn
	copyIn  *copyReader // set once the portal started COPY FROM STDIN
	copyOut bool        // set once the portal started COPY TO STDOUT
}

var _ ResultWriter = (*resultWriter)(nil)

func (w *resultWriter) reset() {
	w.copyIn = nil
	w.copyOut = false
}

func (w *resultWriter) WriteRow(values [][]byte) error {
	c := w.c
	if ok, err := c.sendDataRow(values); ok {
		return err
	}
	c.dataRow.Values = values
	err := c.send(&c.dataRow)
	c.dataRow.Values = nil
	return err
}

func (w *resultWriter) Notice(n *NoticeInfo) {
	if f, ok := w.c.sess.(NoticeFilter); ok && !f.SendsNotice(n.Severity) {
		return
	}
	w.c.send(noticeResponse(n))
}

// Deallocate drops a prepared statement of this connection by name, all of
// them for "": SQL DEALLOCATE reaches the statements the protocol's Parse
// made (psqlODBC parses "_PLAN0x..." statements and drops them so). It
// reports whether the statement existed.
func (w *resultWriter) Deallocate(name string) bool {
	c := w.c
	if name == "" {
		for n := range c.stmts {
			if n != "" {
				c.closeStatement(n)
			}
		}
		return true
	}
	if _, ok := c.stmts[name]; !ok {
		return false
	}
	c.closeStatement(name)
	return true
}

// finish completes the output of an Execute that returned err: on success a
// COPY TO ends with CopyDone, and a COPY FROM whose portal stopped reading
// early has the rest of the client's data consumed, so the stream is back at a
// message boundary. On failure nothing is consumed: PostgreSQL reports the
// error at once and drops whatever COPY messages the client still sends.
func (w *resultWriter) finish(err error) error {
	if err != nil {
		return err
	}
	if w.copyIn != nil {
		if err := w.copyIn.drain(); err != nil {
			return err
		}
	}
	if w.copyOut {
		return w.c.send(&pgproto3.CopyDone{})
	}
	return nil
}

func (w *resultWriter) startCopy() error {
	if w.copyIn != nil || w.copyOut {
		return pgerror.New(pgerror.InternalError, "a statement can start COPY only once")
	}
	return nil
}
