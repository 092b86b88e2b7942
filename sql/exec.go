package sql

import (
	"context"
	"time"

	"cdcdb/sql/eval"
	"cdcdb/types"
)

// execCtx is what one statement execution carries everywhere: the context
// (for cancellation), the session, its transaction, the bound parameters and
// the statement's notion of "now".
type execCtx struct {
	ctx    context.Context
	sess   *Session
	tx     *txn
	params []types.Value
	// now is the transaction's start time, as now() and CURRENT_TIMESTAMP
	// report it in PostgreSQL.
	now time.Time
	// stmtNow is this statement's start, for statement_timestamp().
	stmtNow time.Time
	// out is the statement's result writer, for notices.
	out *resultSink
	// ticks counts rows for periodic cancellation checks.
	ticks int
	// subqueryCache holds the rows of uncorrelated subqueries, which run
	// once per execution.
	subqueryCache map[*subqueryExpr][]eval.Row
	// cteRows holds each WITH query's rows, computed on first use.
	cteRows map[*cteDef][]eval.Row
	// recursiveRows is the working table of a recursive CTE being computed.
	recursiveRows map[*cteDef][]eval.Row
}

var _ eval.Context = (*execCtx)(nil)

func (x *execCtx) GoContext() context.Context  { return x.ctx }
func (x *execCtx) Location() *time.Location    { return x.sess.location() }
func (x *execCtx) TransactionStart() time.Time { return x.now }
func (x *execCtx) StatementStart() time.Time   { return x.stmtNow }
func (x *execCtx) Params() []types.Value       { return x.params }
func (x *execCtx) FormatValue(t types.T, v types.Value) string {
	return x.sess.formatValue(x, t, v)
}
func (x *execCtx) ParseRegValue(oid types.OID, text string) (types.Value, error) {
	return x.sess.parseRegValue(x, oid, text)
}
func (x *execCtx) FormatRegValue(oid types.OID, v int64) string {
	return x.sess.formatRegValue(x, oid, v)
}

// CheckCancel looks at the context every 256 calls, so cancellation is
// prompt and cheap.
func (x *execCtx) CheckCancel() error {
	x.ticks++
	if x.ticks&255 == 0 {
		if err := x.ctx.Err(); err != nil {
			return cancelError(x.ctx)
		}
	}
	return nil
}

// stmtOf is the statement behind an expression's context, for the
// expressions that belong to the executor (subqueries, set-returning
// functions) rather than to evaluation.
func stmtOf(c eval.Context) *execCtx { return c.(*execCtx) }

var _ eval.Binder = (*binder)(nil)

func (b *binder) Coerce(x eval.Expr, t types.T) (eval.Expr, error) { return b.coerce(x, t) }
func (b *binder) ResolveUnknown(x eval.Expr) eval.Expr             { return b.resolveUnknown(x) }
func (b *binder) ResolveUnknownAs(x eval.Expr, t types.T) (eval.Expr, error) {
	return b.resolveUnknownAs(x, t)
}
func (b *binder) Arithmetic(op string, l, r eval.Expr) (eval.Expr, error) {
	return bindArithmetic(b, op, l, r)
}
