package builtins

import (
	"time"

	"cdcdb/sql/eval"
	"cdcdb/types"
)

// The clock of a statement: now() and its aliases are the transaction's
// start, statement_timestamp() the statement's, clock_timestamp() the
// time it is called; the local forms are in the session's time zone.

func init() {
	Register("now", &Func{Resolve: Signature(types.Timestamptz), Call: func(ec eval.Context, _ []types.Value) (types.Value, error) {
		return ec.TransactionStart(), nil
	}})
	Register("transaction_timestamp", Funcs["now"])
	Register("statement_timestamp", &Func{Resolve: Signature(types.Timestamptz), Call: func(ec eval.Context, _ []types.Value) (types.Value, error) {
		return ec.StatementStart(), nil
	}})
	Register("clock_timestamp", &Func{Resolve: Signature(types.Timestamptz), Call: func(eval.Context, []types.Value) (types.Value, error) {
		return time.Now().UTC().Truncate(time.Microsecond), nil
	}})
	Register("localtimestamp", &Func{Resolve: Signature(types.Timestamp), Call: func(ec eval.Context, _ []types.Value) (types.Value, error) {
		return eval.WallClockUTC(ec.TransactionStart().In(ec.Location())), nil
	}})
	Register("current_date", &Func{Resolve: Signature(types.Date), Call: func(ec eval.Context, _ []types.Value) (types.Value, error) {
		t := ec.TransactionStart().In(ec.Location())
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), nil
	}})
}
