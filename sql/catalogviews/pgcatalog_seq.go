package catalogviews

import (
	"math"

	"cdcdb/catalog"
	"cdcdb/types"
)

// The sequences of serial columns. cdcdb keeps a serial column's counter
// with its table (the column names its sequence), not as a relation of its
// own; PostgreSQL shows each as a relation of kind 'S' with a pg_sequence
// row, owned by its column through pg_depend. So they are listed here, so
// that psql's \d lists them, 'items_id_seq'::regclass (in the column's
// default, nextval('items_id_seq'::regclass)) names one, and tools that
// read pg_sequence see the serial's bounds.

// SerialSequence is one serial column's sequence.
type SerialSequence struct {
	OID    uint32
	Name   string
	Schema uint32
	Table  *catalog.Table
	Column *catalog.Column
}

// SequenceOID gives a serial column's sequence its OID. The catalog has
// none for it; this one is derived from the table and column, so it is
// stable, and lies in the top quarter of the OID space, above column
// defaults' (see attrdefOID) and above anything the catalog allocates.
func SequenceOID(table uint32, attnum int16) uint32 {
	return 0xC0000000 | (table<<11|uint32(attnum)&0x7ff)&0x3fffffff
}

// SerialSequences lists the sequences of every serial column.
func SerialSequences(cat *catalog.Snapshot) []SerialSequence {
	var out []SerialSequence
	for _, t := range cat.Tables() {
		for i := range t.Columns {
			c := &t.Columns[i]
			if c.Dropped || c.Sequence == "" {
				continue
			}
			out = append(out, SerialSequence{OID: SequenceOID(t.OID, c.Attnum), Name: c.Sequence, Schema: t.Schema, Table: t, Column: c})
		}
	}
	return out
}

// SequenceByOID finds a serial column's sequence.
func SequenceByOID(cat *catalog.Snapshot, oid uint32) (SerialSequence, bool) {
	if oid&0xC0000000 != 0xC0000000 {
		return SerialSequence{}, false
	}
	for _, s := range SerialSequences(cat) {
		if s.OID == oid {
			return s, true
		}
	}
	return SerialSequence{}, false
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

// SequenceColumns are the columns of a sequence relation.
var SequenceColumns = []Column{{Name: "last_value", Type: types.Of(types.Int8)}, {Name: "log_cnt", Type: types.Of(types.Int8)}, {Name: "is_called", Type: types.Of(types.Bool)}}

func init() {
	liveCatalogs["pg_sequence"] = livePgSequence
	liveCatalogs["pg_depend"] = livePgDepend
}

func livePgSequence(sess Session, _ []Row) ([]Row, error) {
	b := CatalogRowBuilder("pg_sequence")
	var rows []Row
	for _, s := range SerialSequences(sess.Catalog()) {
		rows = append(rows, b.Make("seqrelid", s.OID, "seqtypid", uint32(s.Column.Type.OID), "seqstart", int64(1),
			"seqincrement", int64(1), "seqmax", sequenceMax(s.Column.Type.OID), "seqmin", int64(1), "seqcache", int64(1),
			"seqcycle", false))
	}
	return rows, nil
}

// livePgDepend records what PostgreSQL records for a serial column's
// sequence: it lives in its schema (normal) and is owned by the column
// (auto), which is what psql's "Owned by" reads; the column's default
// belongs to the column (auto) and uses the sequence (normal), which is
// how pg_dump knows to create the sequence before it sets the default.
func livePgDepend(sess Session, _ []Row) ([]Row, error) {
	b := CatalogRowBuilder("pg_depend")
	rows := cdcdbExtensionMembers(b) // pgcatalog_extension.go
	for _, s := range SerialSequences(sess.Catalog()) {
		rows = append(rows,
			b.Make("classid", pgClassOID, "objid", s.OID, "objsubid", 0, "refclassid", pgNamespaceOID,
				"refobjid", s.Schema, "refobjsubid", 0, "deptype", "n"),
			b.Make("classid", pgClassOID, "objid", s.OID, "objsubid", 0, "refclassid", pgClassOID,
				"refobjid", s.Table.OID, "refobjsubid", s.Column.Attnum, "deptype", "a"),
			b.Make("classid", pgAttrdefOID, "objid", attrdefOID(s.Table.OID, s.Column.Attnum), "objsubid", 0, "refclassid", pgClassOID,
				"refobjid", s.Table.OID, "refobjsubid", s.Column.Attnum, "deptype", "a"),
			b.Make("classid", pgAttrdefOID, "objid", attrdefOID(s.Table.OID, s.Column.Attnum), "objsubid", 0, "refclassid", pgClassOID,
				"refobjid", s.OID, "refobjsubid", 0, "deptype", "n"))
	}
	return rows, nil
}
