package source

import (
	"fmt"
	"slices"

	"github.com/jackc/pglogrepl"
)

// replicaIdentityFull is pgoutput's Relation.ReplicaIdentity for REPLICA
// IDENTITY FULL, where every column is flagged as key.
const replicaIdentityFull = 'f'

// relationKeyFlag marks a key column in a Relation message.
const relationKeyFlag = 1

// reconcile compares a Relation message, which pgoutput sends before a
// table's first change in a session and again after its definition
// changed, with the table as the source holds it. Columns appended
// upstream (ALTER TABLE ... ADD COLUMN) come back in added, with the
// table as it is with them in next; a change of replica identity key also
// gives a next. Anything else (a column dropped, renamed, retyped,
// reordered, the table renamed) cannot be followed without writing wrong
// rows, and is a permanent error. next is nil when nothing changed.
func reconcile(t *Table, rel *pglogrepl.RelationMessage) (next *Table, added []Column, err error) {
	unfollowable := func(format string, args ...any) error { return unfollowable(t, format, args...) }
	if rel.Namespace != t.Upstream.Schema || rel.RelationName != t.Upstream.Name {
		return nil, nil, unfollowable("it was renamed to %s", TableName{rel.Namespace, rel.RelationName})
	}
	for i, c := range t.Columns {
		if i >= len(rel.Columns) {
			return nil, nil, unfollowable("column %q was dropped (or left out of the publication)", c.Name)
		}
		rc := rel.Columns[i]
		if rc.Name != c.Name {
			if !slices.ContainsFunc(rel.Columns, func(x *pglogrepl.RelationMessageColumn) bool { return x.Name == c.Name }) {
				return nil, nil, unfollowable("column %q was dropped or renamed", c.Name)
			}
			return nil, nil, unfollowable("column %q moved (a column before it was dropped)", c.Name)
		}
		if rc.DataType != c.TypeOID || rc.TypeModifier != c.TypeMod {
			return nil, nil, unfollowable("column %q changed type (it was %s)", c.Name, c.TypeName)
		}
	}
	changed := false
	cols := slices.Clone(t.Columns)
	// With REPLICA IDENTITY FULL pgoutput flags every column; the key is
	// then the primary key read from the catalog, kept as it is.
	if rel.ReplicaIdentity != replicaIdentityFull {
		for i := range cols {
			if key := rel.Columns[i].Flags&relationKeyFlag != 0; key != cols[i].Key {
				cols[i].Key = key
				changed = true
			}
		}
	}
	for _, rc := range rel.Columns[len(t.Columns):] {
		c := Column{Name: rc.Name, TypeOID: rc.DataType, TypeMod: rc.TypeModifier}
		if rel.ReplicaIdentity != replicaIdentityFull {
			c.Key = rc.Flags&relationKeyFlag != 0
		}
		added = append(added, c)
		cols = append(cols, c)
		changed = true
	}
	if !changed {
		return nil, nil, nil
	}
	n := *t
	n.Columns = cols
	return &n, added, nil
}

// unfollowable is the error of a change to table t that the source cannot
// follow without writing wrong rows.
func unfollowable(t *Table, format string, args ...any) error {
	return Permanent(fmt.Errorf("upstream table %s: %s; cdcdb cannot follow this change (drop the source and create it again to take a new snapshot)",
		t.Upstream, fmt.Sprintf(format, args...)))
}

// tupleValues reads a pgoutput tuple of table t.
func tupleValues(t *Table, td *pglogrepl.TupleData) ([]Value, error) {
	if td == nil {
		return nil, fmt.Errorf("upstream table %s: change without a tuple", t.Upstream)
	}
	if len(td.Columns) != len(t.Columns) {
		return nil, Permanent(fmt.Errorf("upstream table %s: a change has %d columns where the table has %d", t.Upstream, len(td.Columns), len(t.Columns)))
	}
	values := make([]Value, len(td.Columns))
	for i, c := range td.Columns {
		switch c.DataType {
		case pglogrepl.TupleDataTypeNull:
			values[i] = Null()
		case pglogrepl.TupleDataTypeText:
			values[i] = Text(string(c.Data))
		case pglogrepl.TupleDataTypeToast:
			values[i] = Unchanged()
		default:
			return nil, Permanent(fmt.Errorf("upstream table %s: column %q came in format %q, not text", t.Upstream, t.Columns[i].Name, rune(c.DataType)))
		}
	}
	return values, nil
}

// keyValues returns values' key columns, in column order.
func keyValues(t *Table, values []Value) []Value {
	var key []Value
	for i, c := range t.Columns {
		if c.Key {
			key = append(key, values[i])
		}
	}
	return key
}

func hasUnchanged(values []Value) bool {
	return slices.ContainsFunc(values, func(v Value) bool { return v.Kind == ValueUnchanged })
}

// insertChange turns an Insert into a 'c' change.
func insertChange(t *Table, m *pglogrepl.InsertMessage) (Change, error) {
	values, err := tupleValues(t, m.Tuple)
	if err != nil {
		return Change{}, err
	}
	if hasUnchanged(values) {
		return Change{}, Permanent(fmt.Errorf("upstream table %s: an insert with an unchanged TOAST value", t.Upstream))
	}
	return Change{Table: t.Name, Op: OpInsert, Values: values}, nil
}

// updateChanges turns an Update into a 'u' change, or, when it changed the
// row's key, a 'd' of the old key and a 'c' of the new row.
//
// An unchanged TOASTed value (which pgoutput does not send) is taken from
// the old row when upstream sent it whole (REPLICA IDENTITY FULL makes
// PostgreSQL write the old row with its TOASTed values inline); otherwise
// it stays ValueUnchanged, with the row's previous key in Identity for the
// Sink to find the value by.
func updateChanges(t *Table, m *pglogrepl.UpdateMessage) ([]Change, error) {
	values, err := tupleValues(t, m.NewTuple)
	if err != nil {
		return nil, err
	}
	var old []Value
	oldIsWholeRow := m.OldTupleType == pglogrepl.UpdateMessageTupleTypeOld
	if m.OldTuple != nil {
		if old, err = tupleValues(t, m.OldTuple); err != nil {
			return nil, err
		}
		for i, v := range values {
			if v.Kind == ValueUnchanged && old[i].Kind != ValueUnchanged && (oldIsWholeRow || t.Columns[i].Key) {
				values[i] = old[i]
			}
		}
	}
	newKey := keyValues(t, values)
	if hasUnchanged(newKey) {
		return nil, Permanent(fmt.Errorf("upstream table %s: an update left a TOASTed key column unsent", t.Upstream))
	}
	if old == nil || slices.Equal(keyValues(t, old), newKey) {
		u := Change{Table: t.Name, Op: OpUpdate, Values: values}
		if hasUnchanged(values) {
			u.Identity = newKey
		}
		return []Change{u}, nil
	}
	d := Change{Table: t.Name, Op: OpDelete, Values: old, KeyOnly: !oldIsWholeRow}
	c := Change{Table: t.Name, Op: OpInsert, Values: values}
	if hasUnchanged(values) {
		c.Identity = keyValues(t, old)
	}
	return []Change{d, c}, nil
}

// deleteChange turns a Delete into a 'd' change.
func deleteChange(t *Table, m *pglogrepl.DeleteMessage) (Change, error) {
	values, err := tupleValues(t, m.OldTuple)
	if err != nil {
		return Change{}, err
	}
	if hasUnchanged(values) {
		return Change{}, Permanent(fmt.Errorf("upstream table %s: a delete with an unchanged TOAST value", t.Upstream))
	}
	return Change{Table: t.Name, Op: OpDelete, Values: values, KeyOnly: m.OldTupleType != pglogrepl.DeleteMessageTupleTypeOld}, nil
}

// parseMessage decodes one pgoutput message. pglogrepl indexes into the
// message without checking its length everywhere; a malformed message
// must fail the Follower, not the server.
func parseMessage(data []byte) (m pglogrepl.Message, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, Permanent(fmt.Errorf("malformed pgoutput message (type %q, %d bytes): %v", firstByte(data), len(data), r))
		}
	}()
	m, err = pglogrepl.Parse(data)
	if err != nil {
		return nil, Permanent(fmt.Errorf("decode pgoutput message: %w", err))
	}
	return m, nil
}

func firstByte(b []byte) rune {
	if len(b) == 0 {
		return 0
	}
	return rune(b[0])
}
