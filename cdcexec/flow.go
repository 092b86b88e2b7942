package cdcexec

import (
	"cdcdb/catalog"
	"cdcdb/temporal"
	"cdcdb/types"
)

// EventKind is what a source row asks for.
type EventKind uint8

// Event kinds: an upsert, a delete of its key, or a truncate of the target.
const (
	Upsert EventKind = iota
	Delete
	Truncate
)

// Event is one source row as the flow reads it.
type Event struct {
	Kind EventKind
	// Key holds the KEYS values; all NULL for a truncate.
	Key []types.Value
	// Seq is SEQUENCE BY (one value, or the STRUCT fields); SysSeq is
	// SYSTEM SEQUENCE BY for BITEMPORAL flows.
	Seq, SysSeq []types.Value
	// Values holds the target's data columns.
	Values []types.Value
	// Writes lists the data columns a COLUMNS TO UPDATE event writes (nil:
	// all).
	Writes temporal.ColumnSet
}

// Flow is a compiled flow: everything the executor needs to turn events
// into target rows. (The sql package turns source rows into Events.)
type Flow struct {
	OID      catalog.OID
	Name     string
	StoredAs catalog.StoredAs
	Target   *catalog.Table
	// Rules drive replay: comparators, partial updates, tracked columns.
	Rules temporal.Rules
	// DataAttnums are the target attnums of the data columns, in the order
	// of Event.Values; KeyPositions index Event.Values for the KEYS.
	DataAttnums  []int16
	KeyPositions []int
	KeyNames     []string
	// Period column attnums in the target (0 when the form has none).
	StartAttnum, EndAttnum, SysStartAttnum, SysEndAttnum int16
	// SeqType and SysSeqType are the period columns' types; FormatSeq
	// renders a sequence value for messages and statistics.
	SeqType, SysSeqType types.T
	FormatSeq           func(seq []types.Value) string
	// FastPathsOff runs the batch on the general paths where it says so
	// (docs/fast-paths.md); the zero value takes every fast path.
	FastPathsOff FastPathsOff

	// check is the target's row check for the Apply under way (see
	// RowCheck); Apply sets it on its own copy of the flow.
	check RowCheck
}

// FastPathsOff turns off the executor's fast paths, each of which writes
// byte for byte what the general path writes (a differential test holds
// each to it): a server runs on the general paths alone to measure what
// the fast ones buy, or to rule them out when a result looks wrong.
type FastPathsOff struct {
	// EncodedSCD2 continues SCD TYPE 2 keys through temporal's
	// ContinueSCD2 on decoded values instead of on stored encodings
	// (scd2enc.go).
	EncodedSCD2 bool
	// SharedApply applies every batch on the session's goroutine alone,
	// with no helper (parallel.go).
	SharedApply bool
}

// RowCheck validates a target row before it is written: every column of
// the target, by attnum, as the row will be stored. It enforces what the
// executor does not know of, the target's NOT NULL and CHECK constraints; an
// error fails the batch. It must not keep the tuple.
type RowCheck func(tuple []types.Value) error

// Stats counts what one Apply did.
type Stats struct {
	Events       uint64
	RowsUpserted uint64
	RowsDeleted  uint64
	// EncodedSCD2Keys counts the keys continued on stored encodings
	// (scd2enc.go), so that a test can tell the fast path ran.
	EncodedSCD2Keys uint64
	// SharedBatches is 1 when the batch was shared with a helper
	// goroutine (parallel.go), 0 otherwise.
	SharedBatches uint64
	// MaxSeq is the highest sequence value among the applied events, and
	// MaxSeqKey its order-preserving encoding (comparable bytewise).
	MaxSeq    []types.Value
	MaxSeqKey []byte
}
