package sqltest

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"cdcdb/pgerror"
	"cdcdb/wire"
)

// SimpleQueryResult is what a client receives for one simple Query
// message, as the wire server would send it.
type SimpleQueryResult struct {
	// Statements holds the statements of the text that completed, in order.
	Statements []StatementResult
	// Errors holds the ErrorResponses, in the order they were sent: the
	// one that ended the text early, then one from the end of its implicit
	// transaction (a commit that failed), each as wire.ClientError words
	// it.
	Errors []*pgerror.Error
}

// StatementResult is one completed statement of a simple Query.
type StatementResult struct {
	// Fields is the RowDescription sent before the rows, nil when the
	// statement sent none (a plain INSERT, DDL).
	Fields []wire.FieldDescription
	// Rows holds the DataRows' values in text format, nil for NULL.
	Rows [][][]byte
	// Tag is the CommandComplete tag; "" for an empty query text, which
	// the server answers with EmptyQueryResponse instead.
	Tag string
	// Empty is set for the EmptyQueryResponse of a text without statements.
	Empty   bool
	Notices []string
}

// ErrConnClosed is what SimpleQuery returns once the session has failed
// with a FATAL error: the wire server would have closed the connection.
var ErrConnClosed = errors.New("sqltest: the connection was closed by a FATAL error")

var errNoCopy = pgerror.New(pgerror.FeatureNotSupported, "sqltest: SimpleQuery sends no COPY data; use Conn.Copy")

// SimpleQuery runs text as the wire server runs a Query message (wire's
// simple.go): each statement in turn, bound with no parameters and text
// results, told it is the text's only statement when it is; the first
// error ends the text; then the implicit transaction ends (Sync), aborted
// if an error was sent. Statements and portals are closed as the server
// closes them. COPY is refused: use Copy.
//
// Errors come back as the client would receive them (wire.ClientError); a
// FATAL one closes the connection, after which SimpleQuery returns
// ErrConnClosed. A panic in the session fails the test with its stack and
// closes the connection too, as the server would, which answers it with a
// FATAL XX000 of its own wording.
func (c *Conn) SimpleQuery(ctx context.Context, text string) (out SimpleQueryResult, err error) {
	if c.closed {
		return SimpleQueryResult{}, ErrConnClosed
	}
	defer func() {
		if r := recover(); r != nil {
			c.db.T.Errorf("panic in the session running %q: %v\n%s", text, r, debug.Stack())
			c.closed = true
			out.Errors = append(out.Errors, &pgerror.Error{Severity: pgerror.SeverityFatal, Code: pgerror.InternalError,
				Message: fmt.Sprintf("panic in the session: %v", r)})
		}
	}()
	fail := func(err error) {
		pe := wire.ClientError(err)
		out.Errors = append(out.Errors, pe)
		if pe.Severity == pgerror.SeverityFatal || pe.Severity == "PANIC" {
			c.closed = true
		}
	}
	if err := c.runSimpleQuery(ctx, text, &out); err != nil {
		fail(err)
	}
	if c.closed {
		return out, nil
	}
	if s, ok := c.sess.(wire.SyncSession); ok {
		// The server ends the implicit transaction under a context that
		// only its shutdown cancels, so a rollback after a cancelled
		// statement still runs.
		if err := s.Sync(context.WithoutCancel(ctx), len(out.Errors) > 0); err != nil {
			fail(err)
		}
	}
	return out, nil
}

func (c *Conn) runSimpleQuery(ctx context.Context, text string, out *SimpleQueryResult) error {
	stmts, err := c.sess.Parse(ctx, text, nil)
	if err != nil {
		return err
	}
	if len(stmts) == 0 {
		out.Statements = append(out.Statements, StatementResult{Empty: true})
		return nil
	}
	for i, ps := range stmts {
		r, err := runSimpleStatement(ctx, ps, len(stmts) == 1)
		ps.Close()
		if err != nil {
			for _, rest := range stmts[i+1:] {
				rest.Close()
			}
			return err
		}
		out.Statements = append(out.Statements, r)
	}
	return nil
}

func runSimpleStatement(ctx context.Context, ps wire.PreparedStatement, sole bool) (StatementResult, error) {
	p, err := ps.Bind(ctx, nil, nil, nil)
	if err != nil {
		return StatementResult{}, err
	}
	defer p.Close()
	r := StatementResult{Fields: p.Fields()}
	if sp, ok := p.(wire.SolePortal); ok && sole {
		sp.Sole()
	}
	w := &writer{noCopy: true}
	tag, _, err := p.Execute(ctx, 0, w)
	if err != nil {
		return StatementResult{}, err
	}
	r.Rows, r.Tag, r.Notices = w.rows, tag, w.notices
	return r, nil
}
