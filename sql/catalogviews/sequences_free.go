package catalogviews

import (
	"regexp"
	"strconv"
	"strings"

	"cdcdb/catalog"
	"cdcdb/types"
)

// Free-standing sequences (catalog.Sequence: CREATE SEQUENCE, an identity
// column's) as the catalogs show them, beside the serial columns'
// (pgcatalog_seq.go): a SerialSequence with Free set, its definition in
// pg_sequence, its dependencies in pg_depend, an identity column's facts
// in information_schema.columns. Package sql's ddl_sequence.go creates
// them and keeps their position.

// freeSequences lists the free-standing sequences.
func freeSequences(cat *catalog.Snapshot) []SerialSequence {
	var out []SerialSequence
	for _, q := range cat.Sequences() {
		out = append(out, freeSequence(cat, q))
	}
	return out
}

func freeSequence(cat *catalog.Snapshot, q *catalog.Sequence) SerialSequence {
	s := SerialSequence{OID: q.OID, Name: q.Name, Schema: q.Schema, Free: q}
	if t, ok := cat.TableByOID(q.OwnedByTable); ok {
		s.Table, s.Column = t, t.ColumnByAttnum(q.OwnedByColumn)
	}
	return s
}

// OwnedSequences are the free-standing sequences a table's columns own
// (attnum 0: any column), which go when it goes.
func OwnedSequences(cat *catalog.Snapshot, table catalog.OID, attnum int16) []*catalog.Sequence {
	var out []*catalog.Sequence
	for _, q := range cat.Sequences() {
		if q.OwnedByTable == table && (attnum == 0 || q.OwnedByColumn == attnum) {
			out = append(out, q)
		}
	}
	return out
}

// SequenceParams is a sequence's definition, whichever kind it is.
type SequenceParams struct {
	Type                              types.OID
	Start, Increment, Min, Max, Cache int64
	Cycle                             bool
}

// Params is s's definition: a serial column's counts 1, 2, ... up to its
// type's maximum.
func (s SerialSequence) Params() SequenceParams {
	if q := s.Free; q != nil {
		return SequenceParams{Type: q.Type, Start: q.Start, Increment: q.Increment, Min: q.Min, Max: q.Max, Cache: q.Cache, Cycle: q.Cycle}
	}
	t := s.Column.Type.OID
	return SequenceParams{Type: t, Start: 1, Increment: 1, Min: 1, Max: sequenceMax(t), Cache: 1}
}

// SequenceOwner is the role that owns a free-standing sequence (0, in a
// catalog written before owners, is the bootstrap superuser).
func SequenceOwner(q *catalog.Sequence) catalog.OID {
	if q.Owner == 0 {
		return catalog.BootstrapRoleOID
	}
	return q.Owner
}

// owner is the role that owns s: a serial column's is its table's owner.
func (s SerialSequence) owner(sess Session) catalog.OID {
	if s.Free != nil {
		return SequenceOwner(s.Free)
	}
	return sess.TableOwner(s.Table)
}

// freeSequenceDepends are a free-standing sequence's pg_depend rows: it
// lives in its schema (normal) and, with OWNED BY, belongs to its column
// (auto), which psql's "Owned by" and pg_dump's ALTER SEQUENCE ... OWNED
// BY read.
func freeSequenceDepends(b *RowBuilder, s SerialSequence) []Row {
	rows := []Row{b.Make("classid", pgClassOID, "objid", s.OID, "objsubid", 0, "refclassid", pgNamespaceOID,
		"refobjid", s.Schema, "refobjsubid", 0, "deptype", "n")}
	if s.Table != nil && s.Column != nil {
		deptype := "a"
		if s.Column.Identity != "" {
			deptype = "i" // an identity column's own sequence
		}
		rows = append(rows, b.Make("classid", pgClassOID, "objid", s.OID, "objsubid", 0, "refclassid", pgClassOID,
			"refobjid", s.Table.OID, "refobjsubid", s.Column.Attnum, "deptype", deptype))
	}
	return rows
}

// nextvalOf finds the sequence a default draws from: the name in
// nextval('name'), nextval('name'::regclass) or nextval(CAST('name' AS
// regclass)), as the text of a default keeps it.
var nextvalOf = regexp.MustCompile(`^nextval\((?:CAST\()?'((?:[^']|'')+)'(?:::regclass| AS regclass\))?\)$`)

// DefaultSequenceName is the name, split into its parts, of the sequence
// a column default draws from; ok is false for a default that is not
// nextval of a sequence's name.
func DefaultSequenceName(def string) (parts []string, ok bool) {
	m := nextvalOf.FindStringSubmatch(def)
	if m == nil {
		return nil, false
	}
	return SplitQualifiedName(strings.ReplaceAll(m[1], "''", "'")), true
}

// sequenceDefaultDepends are the pg_depend rows of column defaults that
// draw from a free-standing sequence: the default uses it (normal), which
// is how pg_dump knows to create the sequence before it sets the default.
func sequenceDefaultDepends(sess Session, b *RowBuilder) []Row {
	cat := sess.Catalog()
	if len(cat.Sequences()) == 0 {
		return nil
	}
	var rows []Row
	for _, t := range cat.Tables() {
		for _, c := range t.Columns {
			if c.Dropped || c.Identity != "" {
				continue
			}
			parts, ok := DefaultSequenceName(c.Default)
			if !ok {
				continue
			}
			seq, ok := lookupFreeSequence(sess, cat, parts)
			if !ok {
				continue
			}
			rows = append(rows, b.Make("classid", pgAttrdefOID, "objid", attrdefOID(t.OID, c.Attnum), "objsubid", 0,
				"refclassid", pgClassOID, "refobjid", seq.OID, "refobjsubid", 0, "deptype", "n"))
		}
	}
	return rows
}

// lookupFreeSequence finds a free-standing sequence by its (possibly
// qualified) name as the session's search_path resolves it.
func lookupFreeSequence(names Names, cat *catalog.Snapshot, parts []string) (*catalog.Sequence, bool) {
	if len(parts) == 0 {
		return nil, false
	}
	schemas := names.SearchPath()
	if len(parts) > 1 {
		schemas = []string{names.OwnTempSchema(parts[len(parts)-2])}
	}
	for _, sname := range schemas {
		if sc, ok := cat.Schema(sname); ok {
			if q, ok := cat.Sequence(sc.OID, parts[len(parts)-1]); ok {
				return q, true
			}
		}
	}
	return nil, false
}

// identityColumnFacts are information_schema.columns' identity columns of
// an identity column (nil for another): is_identity, identity_generation
// and its sequence's start, increment, bounds and cycle, as text.
func identityColumnFacts(cat *catalog.Snapshot, t *catalog.Table, c catalog.Column) []any {
	if c.Identity == "" {
		return nil
	}
	owned := OwnedSequences(cat, t.OID, c.Attnum)
	if len(owned) == 0 {
		return nil
	}
	q := owned[0]
	generation := "BY DEFAULT"
	if c.Identity == catalog.IdentityAlways {
		generation = "ALWAYS"
	}
	cycle := "NO"
	if q.Cycle {
		cycle = "YES"
	}
	return []any{"is_identity", "YES", "identity_generation", generation,
		"identity_start", strconv.FormatInt(q.Start, 10), "identity_increment", strconv.FormatInt(q.Increment, 10),
		"identity_maximum", strconv.FormatInt(q.Max, 10), "identity_minimum", strconv.FormatInt(q.Min, 10),
		"identity_cycle", cycle}
}
