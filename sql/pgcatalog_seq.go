package sql

import (
	"math"

	"cdcdb/catalog"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// The sequences of serial columns. cdcdb keeps a serial column's counter
// with its table (the column names its sequence), not as a relation of its
// own; PostgreSQL shows each as a relation of kind 'S' with a pg_sequence
// row, owned by its column through pg_depend. So they are listed here, so
// that psql's \d lists them, 'items_id_seq'::regclass (in the column's
// default, nextval('items_id_seq'::regclass)) names one, and tools that
// read pg_sequence see the serial's bounds.

// serialSequence is one serial column's sequence.
type serialSequence struct {
	oid    uint32
	name   string
	schema uint32
	table  *catalog.Table
	column *catalog.Column
}

// sequenceOID gives a serial column's sequence its OID. The catalog has
// none for it; this one is derived from the table and column, so it is
// stable, and lies in the top quarter of the OID space, above column
// defaults' (see attrdefOID) and above anything the catalog allocates.
func sequenceOID(table uint32, attnum int16) uint32 {
	return 0xC0000000 | (table<<11|uint32(attnum)&0x7ff)&0x3fffffff
}

// serialSequences lists the sequences of every serial column.
func serialSequences(cat *catalog.Snapshot) []serialSequence {
	var out []serialSequence
	for _, t := range cat.Tables() {
		for i := range t.Columns {
			c := &t.Columns[i]
			if c.Dropped || c.Sequence == "" {
				continue
			}
			out = append(out, serialSequence{oid: sequenceOID(t.OID, c.Attnum), name: c.Sequence, schema: t.Schema, table: t, column: c})
		}
	}
	return out
}

// sequenceByOID finds a serial column's sequence.
func sequenceByOID(cat *catalog.Snapshot, oid uint32) (serialSequence, bool) {
	if oid&0xC0000000 != 0xC0000000 {
		return serialSequence{}, false
	}
	for _, s := range serialSequences(cat) {
		if s.oid == oid {
			return s, true
		}
	}
	return serialSequence{}, false
}

// sequenceBounds are a serial type's sequence maximum.
func sequenceMax(t types.OID) int64 {
	switch t {
	case types.Int2:
		return math.MaxInt16
	case types.Int4:
		return math.MaxInt32
	}
	return math.MaxInt64
}

// sequenceColumns are the columns of a sequence relation.
var sequenceColumns = []outCol{{name: "last_value", t: eval.Int8T()}, {name: "log_cnt", t: eval.Int8T()}, {name: "is_called", t: eval.BoolT()}}

func init() {
	liveCatalogs["pg_sequence"] = livePgSequence
	liveCatalogs["pg_depend"] = livePgDepend
}

func livePgSequence(x *execCtx, _ []eval.Row) ([]eval.Row, error) {
	b := rowBuilder("pg_sequence")
	var rows []eval.Row
	for _, s := range serialSequences(x.catalogOf()) {
		rows = append(rows, b.make("seqrelid", s.oid, "seqtypid", uint32(s.column.Type.OID), "seqstart", int64(1),
			"seqincrement", int64(1), "seqmax", sequenceMax(s.column.Type.OID), "seqmin", int64(1), "seqcache", int64(1),
			"seqcycle", false))
	}
	return rows, nil
}

// livePgDepend records what PostgreSQL records for a serial column's
// sequence: it lives in its schema (normal) and is owned by the column
// (auto), which is what psql's "Owned by" reads; the column's default
// belongs to the column (auto) and uses the sequence (normal), which is
// how pg_dump knows to create the sequence before it sets the default.
func livePgDepend(x *execCtx, _ []eval.Row) ([]eval.Row, error) {
	b := rowBuilder("pg_depend")
	rows := cdcdbExtensionMembers(b) // pgcatalog_extension.go
	for _, s := range serialSequences(x.catalogOf()) {
		rows = append(rows,
			b.make("classid", pgClassOID, "objid", s.oid, "objsubid", 0, "refclassid", pgNamespaceOID,
				"refobjid", s.schema, "refobjsubid", 0, "deptype", "n"),
			b.make("classid", pgClassOID, "objid", s.oid, "objsubid", 0, "refclassid", pgClassOID,
				"refobjid", s.table.OID, "refobjsubid", s.column.Attnum, "deptype", "a"),
			b.make("classid", pgAttrdefOID, "objid", attrdefOID(s.table.OID, s.column.Attnum), "objsubid", 0, "refclassid", pgClassOID,
				"refobjid", s.table.OID, "refobjsubid", s.column.Attnum, "deptype", "a"),
			b.make("classid", pgAttrdefOID, "objid", attrdefOID(s.table.OID, s.column.Attnum), "objsubid", 0, "refclassid", pgClassOID,
				"refobjid", s.oid, "refobjsubid", 0, "deptype", "n"))
	}
	return rows, nil
}

// sequenceLastValue is pg_sequence_last_value: the last value drawn, or
// NULL before the first.
func sequenceLastValue(x *execCtx, s serialSequence) types.Value {
	sp := x.tx.st.Space(sequenceSpace(s.table.OID, s.column.Attnum))
	if sp == nil || sp.Sequence() == 0 {
		return nil
	}
	return int64(sp.Sequence())
}
