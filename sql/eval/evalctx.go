package eval

import (
	"context"
	"time"

	"cdcdb/types"
)

// Context is what evaluating a bound expression may ask of the
// statement that runs it: cancellation, the session's time zone and clock,
// the bound parameters, and the text forms that need the session (reg*
// types name catalog objects). Scalar functions and operators see only
// this, never the session or the transaction.
type Context interface {
	// GoContext is the statement's context, for waits that must end when
	// it is cancelled.
	GoContext() context.Context
	// CheckCancel is called once per row by loops that may run long.
	CheckCancel() error
	// Location is the session's TimeZone.
	Location() *time.Location
	// TransactionStart is now() and CURRENT_TIMESTAMP.
	TransactionStart() time.Time
	// StatementStart is statement_timestamp().
	StatementStart() time.Time
	// Params are the statement's bound parameters ($1 is Params()[0]).
	Params() []types.Value
	// FormatValue is a value's text output as the session prints it.
	FormatValue(t types.T, v types.Value) string
	// ParseRegValue resolves a name to an OID for a reg* cast.
	ParseRegValue(oid types.OID, text string) (types.Value, error)
	// FormatRegValue prints an OID as its reg* type shows it.
	FormatRegValue(oid types.OID, v int64) string
}

// Binder is what a function's resolver may ask of the binder: to coerce
// an argument to a parameter's type, and to give an untyped literal or
// parameter a type. Resolvers see only this, never the binder's scopes.
type Binder interface {
	Coerce(x Expr, t types.T) (Expr, error)
	ResolveUnknown(x Expr) Expr
	ResolveUnknownAs(x Expr, t types.T) (Expr, error)
	// Arithmetic binds l op r as the operator would be (mod() is %).
	Arithmetic(op string, l, r Expr) (Expr, error)
}
