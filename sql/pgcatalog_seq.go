package sql

import (
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

// serialSequence is one serial column's sequence.
type serialSequence struct {
	oid    uint32
	name   string
	schema uint32
	table  *catalog.Table
	column *catalog.Column
	// free is set for a free-standing sequence (ddl_sequence.go); table
	// and column then name the column that owns it, if one does.
	free *catalog.Sequence
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
	return append(out, freeSequences(cat)...)
}

// sequenceByOID finds a serial column's sequence.
func sequenceByOID(cat *catalog.Snapshot, oid uint32) (serialSequence, bool) {
	if _, ok := cat.SequenceByOID(oid); ok {
		for _, s := range freeSequences(cat) {
			if s.oid == oid {
				return s, true
			}
		}
	}
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

// sequenceColumns are the columns of a sequence relation.
var sequenceColumns = []outCol{{name: "last_value", t: int8T()}, {name: "log_cnt", t: int8T()}, {name: "is_called", t: boolT()}}

func init() {
	liveCatalogs["pg_sequence"] = livePgSequence
	liveCatalogs["pg_depend"] = livePgDepend
}

func livePgSequence(x *execCtx, _ []Row) ([]Row, error) {
	b := rowBuilder("pg_sequence")
	var rows []Row
	for _, s := range serialSequences(x.catalogOf()) {
		p := s.params()
		rows = append(rows, b.make("seqrelid", s.oid, "seqtypid", uint32(p.typ), "seqstart", p.start,
			"seqincrement", p.inc, "seqmax", p.max, "seqmin", p.min, "seqcache", p.cache,
			"seqcycle", p.cycle))
	}
	return rows, nil
}

// livePgDepend records what PostgreSQL records for a serial column's
// sequence: it lives in its schema (normal) and is owned by the column
// (auto), which is what psql's "Owned by" reads; the column's default
// belongs to the column (auto) and uses the sequence (normal), which is
// how pg_dump knows to create the sequence before it sets the default.
func livePgDepend(x *execCtx, _ []Row) ([]Row, error) {
	b := rowBuilder("pg_depend")
	rows := cdcdbExtensionMembers(b)                     // pgcatalog_extension.go
	rows = append(rows, viewRuleDepends(x, b)...)        // viewdeps.go
	rows = append(rows, sequenceDefaultDepends(x, b)...) // ddl_sequence.go
	for _, s := range serialSequences(x.catalogOf()) {
		if s.free != nil {
			rows = append(rows, freeSequenceDepends(b, s)...)
			continue
		}
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
	last, called, err := s.position(x)
	if err != nil || !called {
		return nil
	}
	return last
}
