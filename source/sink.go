package source

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Sink is where a Follower writes: the SQL layer implements it over one
// source's tables. Exactly once rests on Commit being atomic and on
// Checkpoint telling the truth about it.
//
// A Follower calls the Sink from one goroutine at a time.
type Sink interface {
	// Checkpoint returns the Checkpoint of the last batch committed, or
	// the zero Checkpoint (PhaseNew) when none was. The Follower calls it
	// every time it (re)starts, and after any failed Commit, and resumes
	// from what it says.
	Checkpoint(ctx context.Context) (Checkpoint, error)

	// Commit applies b in one atomic transaction: the Reset, the
	// tables and columns, the changes in their order, and b.Checkpoint.
	// When it returns nil the whole batch is durable; when it fails,
	// either none of it is, or (a commit whose outcome the Sink cannot
	// know) Checkpoint must then say whether it is. The Follower confirms a
	// position upstream only after Commit returned nil for it.
	//
	// An error wrapped with Permanent stops the Follower in state failed;
	// any other error makes it retry from Checkpoint. Commit may keep b
	// and what it refers to: the Follower never changes a Batch it handed
	// over. ctx ends when the Follower is closed: a commit not yet
	// durable then may roll back, as after any failure.
	Commit(ctx context.Context, b *Batch) error
}

// Batch is one atomic unit of work for the Sink: a whole upstream
// transaction, a part of the initial snapshot, or only a new position.
type Batch struct {
	// Reset asks the Sink to discard, first, every table and row this
	// source holds: a snapshot that did not finish is starting over.
	Reset bool

	// NewTables are the upstream tables to create source tables for,
	// before the rows (the snapshot's first rows come with them).
	NewTables []Table

	// AddedColumns are columns added upstream (ALTER TABLE ... ADD
	// COLUMN), to append to their tables before the rows.
	AddedColumns []AddedColumns

	// Changes are the rows to append, in order. Their Seq grow strictly
	// from one change to the next and from one batch to the next.
	Changes []Change

	// Xid and CommitLSN identify the upstream transaction; both are zero
	// for snapshot and position-only batches.
	Xid       uint32
	CommitLSN LSN

	// CommitTime is the _commit_ts of every change of the batch: the
	// upstream commit time, or for snapshot rows the time the snapshot
	// was taken upstream.
	CommitTime time.Time

	// Checkpoint is the state to commit with the batch; the Sink stores
	// it whole and returns it from Checkpoint.
	Checkpoint Checkpoint
}

// AddedColumns are columns added to one table, in upstream order, after its
// existing ones.
type AddedColumns struct {
	Table   string // Table.Name
	Columns []Column
	// ExistingValues has, for each column, the value the rows the source
	// table holds already take in it: the value the rows upstream took
	// (the ADD COLUMN's DEFAULT, which PostgreSQL 11 and newer keep
	// without writing the rows), else NULL.
	ExistingValues []Value
}

// Op is a change's kind, the _op column's value (Debezium's letters).
type Op byte

const (
	OpSnapshot Op = 'r' // a row of the initial snapshot
	OpInsert   Op = 'c'
	OpUpdate   Op = 'u'
	OpDelete   Op = 'd'
	// OpTruncate is not a row: the table was truncated upstream at this
	// point of the transaction, and the Sink writes a delete ('d') of
	// every key the table holds then, each with this change's Seq (they
	// are all different keys, so a SEQUENCE BY _lsn stays strict per
	// key).
	OpTruncate Op = 't'
)

func (o Op) String() string { return string(rune(o)) }

// Change is one row to append to a source table (or, OpTruncate, one
// truncate to expand).
type Change struct {
	Table string // Table.Name
	Op    Op
	// Seq is the _lsn column; see doc.go for how it is made.
	Seq int64
	// Values has one value per column of the table, as it is once the
	// batch's AddedColumns are applied; nil for OpTruncate.
	Values []Value
	// KeyOnly marks an OpDelete that carries only the key columns (the
	// upstream table's REPLICA IDENTITY is not FULL): its other values
	// are NULL because upstream did not send them, not because they were.
	KeyOnly bool
	// Identity is set when some Values are ValueUnchanged: the values of
	// the table's key columns (in column order) that the upstream row had
	// before this change. Each unchanged value is that column's value in
	// the latest 'r', 'c' or 'u' row of this table whose key is Identity,
	// this batch's earlier changes included.
	Identity []Value
}

// ValueKind tells what a Value holds.
type ValueKind uint8

const (
	// ValueNull is SQL NULL.
	ValueNull ValueKind = iota
	// ValueText holds the upstream text representation of the value, as
	// PostgreSQL's output function wrote it under DateStyle ISO,
	// IntervalStyle postgres, TimeZone UTC, bytea_output hex and
	// extra_float_digits 3.
	ValueText
	// ValueUnchanged is a TOASTed value an update did not change, which
	// PostgreSQL does not send; see Change.Identity.
	ValueUnchanged
)

// Value is one column's value in a Change.
type Value struct {
	Kind ValueKind
	Text string
}

// Null, Text and Unchanged build Values.
func Null() Value            { return Value{Kind: ValueNull} }
func Text(s string) Value    { return Value{Kind: ValueText, Text: s} }
func Unchanged() Value       { return Value{Kind: ValueUnchanged} }
func (v Value) IsNull() bool { return v.Kind == ValueNull }
func (v Value) String() string {
	switch v.Kind {
	case ValueNull:
		return "NULL"
	case ValueUnchanged:
		return "(unchanged TOAST)"
	}
	return strconv.Quote(v.Text)
}

// TableName is a schema-qualified upstream table name.
type TableName struct {
	Schema string
	Name   string
}

func (n TableName) String() string { return quoteIdent(n.Schema) + "." + quoteIdent(n.Name) }

// Table is an upstream table as its source table mirrors it.
type Table struct {
	Upstream TableName
	// Name is the source table's name in cdcdb: the AS name, or the
	// upstream table's.
	Name string
	// RelationID is the upstream table's OID, which pgoutput names it by.
	RelationID uint32
	Columns    []Column
}

// Column is one upstream column. The source table has these columns in
// this order, then _op text, _lsn bigint and _commit_ts timestamptz.
type Column struct {
	Name string
	// TypeOID and TypeMod are the upstream type (pg_attribute's atttypid
	// and atttypmod); TypeName is how upstream spells it, with its
	// modifier (format_type: "character varying(20)", "integer[]").
	TypeOID  uint32
	TypeMod  int32
	TypeName string
	// Key marks the columns of the row's identity: the replica identity
	// index's (the primary key by default), or with REPLICA IDENTITY FULL
	// the primary key's.
	Key bool
	// AttNum is the column's number upstream (pg_attribute.attnum): a
	// column dropped and added again under its name and type looks the
	// same in the stream, but has a new number.
	AttNum int
}

// Phase is how far a source has come.
type Phase uint8

const (
	// PhaseNew: nothing committed yet.
	PhaseNew Phase = iota
	// PhaseSnapshotting: a snapshot is under way; the rows committed so
	// far are not all of it, and a restart discards them.
	PhaseSnapshotting
	// PhaseStreaming: the snapshot is complete; changes follow from
	// Checkpoint.Position.
	PhaseStreaming
)

var phaseNames = [...]string{PhaseNew: "new", PhaseSnapshotting: "snapshotting", PhaseStreaming: "streaming"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase(" + strconv.Itoa(int(p)) + ")"
}

// MarshalText and UnmarshalText spell a Phase by name in an encoded
// Checkpoint.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

func (p *Phase) UnmarshalText(b []byte) error {
	for i, name := range phaseNames {
		if name == string(b) {
			*p = Phase(i)
			return nil
		}
	}
	return fmt.Errorf("unknown source phase %q", b)
}

// Checkpoint is a source's committed state: the Follower writes it with
// every batch and resumes from it.
type Checkpoint struct {
	Phase Phase
	// Slot is the replication slot's name, set from the moment the
	// Follower decides to use it (before it creates it).
	Slot string
	// SlotCreated says the Follower created the slot, so Drop drops it and
	// a restarted snapshot may drop and recreate it. A slot the user made
	// is never dropped.
	SlotCreated bool
	// Position: every upstream transaction that committed before it is in
	// the source and none after it is. It is a WAL position where a
	// record ends (a commit's end, the snapshot's consistent point, or a
	// point the server said it had decoded up to).
	Position LSN
	// LastSeq is the Seq of the last change committed.
	LastSeq int64
	// Tables are the upstream tables as the source tables mirror them now.
	Tables []Table
}

// checkpointFormat versions MarshalBinary's encoding.
const checkpointFormat = 1

// MarshalBinary encodes c for a Sink to store (JSON, versioned).
func (c Checkpoint) MarshalBinary() ([]byte, error) {
	return json.Marshal(struct {
		Format int
		Checkpoint
	}{checkpointFormat, c})
}

// UnmarshalBinary decodes what MarshalBinary encoded.
func (c *Checkpoint) UnmarshalBinary(b []byte) error {
	var v struct {
		Format int
		Checkpoint
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("decode source checkpoint: %w", err)
	}
	if v.Format != checkpointFormat {
		return fmt.Errorf("decode source checkpoint: format %d, this cdcdb reads %d", v.Format, checkpointFormat)
	}
	*c = v.Checkpoint
	return nil
}

// LSN is a position in PostgreSQL's write-ahead log.
type LSN uint64

// String spells l as PostgreSQL does (pg_lsn): two hex halves.
func (l LSN) String() string { return fmt.Sprintf("%X/%X", uint32(l>>32), uint32(l)) }

// ParseLSN reads PostgreSQL's spelling of an LSN.
func ParseLSN(s string) (LSN, error) {
	hi, lo, ok := strings.Cut(s, "/")
	if ok {
		h, err1 := strconv.ParseUint(hi, 16, 32)
		l, err2 := strconv.ParseUint(lo, 16, 32)
		if err1 == nil && err2 == nil {
			return LSN(h<<32 | l), nil
		}
	}
	return 0, fmt.Errorf("invalid LSN %q", s)
}

// quoteIdent quotes a SQL identifier always, doubling inner quotes.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// quoteLiteral quotes a SQL string literal. Every connection of a Follower
// sets standard_conforming_strings on, so a backslash in it is an ordinary
// character.
func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
