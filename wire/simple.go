package wire

import (
	"context"

	"github.com/jackc/pgx/v5/pgproto3"
)

// simpleQuery serves a Query message: every statement of the text in turn,
// each with its RowDescription, rows and CommandComplete; the first error
// stops the rest; ReadyForQuery ends it all. Whether the statements share an
// implicit transaction is the Session's business.
func (c *conn) simpleQuery(text string) {
	// PostgreSQL defines the simple protocol as using the unnamed statement
	// and portal, so a Query replaces them.
	c.closePortal("")
	c.closeStatement("")

	if err := c.runSimpleQuery(text); err != nil {
		c.sendError(err)
	}
	if c.closing {
		return
	}
	c.endImplicitTransaction()
	if c.closing {
		return
	}
	c.readyForQuery()
}

func (c *conn) runSimpleQuery(text string) error {
	// One context for the whole text: a cancel stops the statement running
	// and, since an error ends the text, the ones after it.
	ctx, done := c.callContext()
	defer done()

	stmts, err := c.sess.Parse(ctx, text, nil)
	if err != nil {
		return err
	}
	if len(stmts) == 0 {
		return c.send(&pgproto3.EmptyQueryResponse{})
	}
	for i, ps := range stmts {
		err := c.runSimpleStatement(ctx, ps, len(stmts) == 1)
		ps.Close()
		if err != nil {
			for _, rest := range stmts[i+1:] {
				rest.Close()
			}
			return err
		}
	}
	return nil
}

func (c *conn) runSimpleStatement(ctx context.Context, ps PreparedStatement, sole bool) error {
	p, err := ps.Bind(ctx, nil, nil, nil)
	if err != nil {
		return err
	}
	defer p.Close()
	if fields := p.Fields(); fields != nil {
		if err := c.sendRowDescription(fields, nil); err != nil {
			return err
		}
	}
	if sp, ok := p.(SolePortal); ok && sole {
		sp.Sole()
	}
	c.result.reset()
	tag, _, err := p.Execute(ctx, 0, &c.result)
	if err := c.result.finish(err); err != nil {
		return err
	}
	return c.commandComplete(tag)
}
