package catalog

import (
	"sort"

	"cdcdb/types"
)

// prefSequence keys free-standing sequences in the catalog space.
const prefSequence = "seq/"

// Sequence is a free-standing sequence (CREATE SEQUENCE, or the one behind
// an identity column's ALTER ... ADD GENERATED). A serial column's
// sequence is not one: it lives with its column (Column.Sequence). The
// sequence's position is data, not metadata: its last value and whether it
// was drawn are kept in its storage spaces (the sql package names them),
// so nextval does not edit the catalog.
type Sequence struct {
	OID    OID    `json:"oid"`
	Schema OID    `json:"schema"`
	Name   string `json:"name"`
	// Type is int2, int4 or int8: AS type, which bounds Min and Max.
	Type      types.OID `json:"type"`
	Start     int64     `json:"start"`
	Increment int64     `json:"increment"`
	Min       int64     `json:"min"`
	Max       int64     `json:"max"`
	Cache     int64     `json:"cache"`
	Cycle     bool      `json:"cycle,omitempty"`
	// OwnedByTable and OwnedByColumn name the column that owns the
	// sequence (OWNED BY): dropping the column or its table drops it.
	// Zero when none does.
	OwnedByTable  OID   `json:"owned_by_table,omitempty"`
	OwnedByColumn int16 `json:"owned_by_column,omitempty"`
	// Owner is the role that owns it; 0 means the bootstrap superuser.
	Owner   OID    `json:"owner,omitempty"`
	Comment string `json:"comment,omitempty"`
}

// Sequence finds a free-standing sequence by schema OID and name.
func (s *Snapshot) Sequence(schema OID, name string) (*Sequence, bool) {
	for _, q := range s.sequences {
		if q.Schema == schema && q.Name == name {
			return q, true
		}
	}
	return nil, false
}

// SequenceByOID finds a free-standing sequence by OID.
func (s *Snapshot) SequenceByOID(oid OID) (*Sequence, bool) {
	q, ok := s.sequences[oid]
	return q, ok
}

// Sequences lists the free-standing sequences in OID order.
func (s *Snapshot) Sequences() []*Sequence {
	out := make([]*Sequence, 0, len(s.sequences))
	for _, q := range s.sequences {
		out = append(out, q)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].OID < out[j].OID })
	return out
}

// PutSequence adds or replaces a sequence. Callers pass a new *Sequence,
// never one that a Snapshot already holds.
func (e *Editor) PutSequence(q *Sequence) error {
	e.snap.gen = generations.Add(1)
	e.snap.sequences[q.OID] = q
	return e.put(prefSequence, q.OID, q)
}

// DropSequence removes a sequence from the catalog (its spaces are the
// caller's to drop).
func (e *Editor) DropSequence(oid OID) error {
	e.snap.gen = generations.Add(1)
	delete(e.snap.sequences, oid)
	return e.del(prefSequence, oid)
}

// Identity kinds of a column (Column.Identity), the letters of
// pg_attribute.attidentity.
const (
	IdentityAlways    = "a"
	IdentityByDefault = "d"
)
