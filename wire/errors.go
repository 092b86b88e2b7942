package wire

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"cdcdb/pgerror"
)

// SQLSTATEs wire raises that pgerror does not name.
const (
	duplicateCursor  = "42P03"
	cannotConnectNow = "57P03"
)

// statementError turns what a Session call returned into the error the
// client gets: ClientError's, except that a statement cancelled because
// the server is shutting down, or because pg_terminate_backend ended the
// connection, ends the connection with 57P01.
func (c *conn) statementError(err error) *pgerror.Error {
	pe := ClientError(err)
	if pe.Code == pgerror.QueryCanceled && (c.srv.stopCtx.Err() != nil || c.shuttingDown()) {
		return &pgerror.Error{Severity: pgerror.SeverityFatal, Code: pgerror.AdminShutdown,
			Message: "terminating connection due to administrator command"}
	}
	return pe
}

// ClientError is the error a client is sent when a Session call fails
// with err. A *pgerror.Error passes through untouched. Cancellation is
// recognised even when the session returned the bare context error, so a
// CancelRequest always produces PostgreSQL's 57014. Anything else is
// XX000. It is exported for callers that drive a Session without a
// connection (sql/sqltest), so that they report errors as a client would
// see them.
func ClientError(err error) *pgerror.Error {
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		return pe
	}
	switch {
	case errors.Is(err, context.Canceled):
		return pgerror.New(pgerror.QueryCanceled, "canceling statement due to user request")
	case errors.Is(err, context.DeadlineExceeded):
		return pgerror.New(pgerror.QueryCanceled, "canceling statement due to statement timeout")
	}
	return pgerror.As(err)
}

// sendError reports err to the client as an ErrorResponse. A FATAL (or
// PANIC) one also ends the connection, as in PostgreSQL, so it is pushed out
// at once, with a deadline: a client that stopped reading must not hold us.
func (c *conn) sendError(err error) {
	pe := c.statementError(err)
	sev := pe.Severity
	if sev == "" {
		sev = pgerror.SeverityError
	}
	fatal := sev == pgerror.SeverityFatal || sev == "PANIC"
	if fatal {
		c.closing = true
		c.raw.SetWriteDeadline(time.Now().Add(farewellTimeout))
	}
	c.aborted = true
	c.send(&pgproto3.ErrorResponse{
		Severity:            sev,
		SeverityUnlocalized: sev,
		Code:                pe.Code,
		Message:             pe.Message,
		Detail:              pe.Detail,
		Hint:                pe.Hint,
		Position:            int32(pe.Position),
		Where:               pe.Where,
		SchemaName:          pe.Schema,
		TableName:           pe.Table,
		ColumnName:          pe.Column,
		ConstraintName:      pe.Constraint,
	})
	if fatal {
		c.tr.Flush()
	}
}

// sendFatal reports e with severity FATAL; the connection then ends.
func (c *conn) sendFatal(e *pgerror.Error) {
	if c.be == nil || c.tr.writeErr != nil {
		return
	}
	f := *e
	f.Severity = pgerror.SeverityFatal
	c.sendError(&f)
}

// protocolError describes a message pgproto3 could not decode.
func protocolError(err error) *pgerror.Error {
	var tooBig *pgproto3.ExceededMaxBodyLenErr
	if errors.As(err, &tooBig) {
		return pgerror.New(pgerror.ProtocolViolation, "invalid message length: %d bytes exceeds the limit of %d", tooBig.ActualBodyLen, tooBig.MaxExpectedBodyLen)
	}
	return pgerror.New(pgerror.ProtocolViolation, "invalid frontend message: %v", err)
}

// noticeResponse converts what the session sends into the wire message.
func noticeResponse(n *NoticeInfo) *pgproto3.NoticeResponse {
	sev := n.Severity
	if sev == "" {
		sev = pgerror.SeverityNotice
	}
	code := n.Code
	if code == "" {
		code = pgerror.SuccessfulCompletion
	}
	return &pgproto3.NoticeResponse{
		Severity:            sev,
		SeverityUnlocalized: sev,
		Code:                code,
		Message:             n.Message,
		Detail:              n.Detail,
		Hint:                n.Hint,
	}
}

// messageType is the type byte of a frontend message, as the client sent it
// ('Q', 'P', ...), for error messages in PostgreSQL's wording. pgproto3 does
// not expose the byte, but re-encoding the message starts with it; only error
// paths use this.
func messageType(msg pgproto3.FrontendMessage) byte {
	if b, err := msg.Encode(nil); err == nil && len(b) > 0 {
		return b[0]
	}
	return 0
}
