package temporal

import (
	"errors"
	"reflect"
)

// Rules are the settings of one flow that decide how its events combine.
// The zero value of every field but Compare is the flow without that clause.
type Rules struct {
	// Compare orders SEQUENCE BY values (business time for BITEMPORAL).
	// Required.
	Compare SeqCompare
	// CompareSystem orders SYSTEM SEQUENCE BY values of a BITEMPORAL flow,
	// whose type may differ from the business sequence's. nil: Compare.
	CompareSystem SeqCompare
	// Equal tells whether two column values are the same value, for change
	// detection and for telling a retry from a conflict. It is never called
	// with nil: NULL equals NULL and nothing else. nil: reflect.DeepEqual,
	// which is right only for values whose representation is canonical.
	Equal func(a, b any) bool

	// KeyColumns are the positions of the KEYS columns among the data
	// columns. Every event writes them whatever its COLUMNS TO UPDATE says,
	// so a key's row always holds its key, and a ConflictError reports them.
	// nil: no key column is known.
	KeyColumns ColumnSet
	// IgnoreNullUpdates are the IGNORE NULL UPDATES columns: a NULL written
	// to one of them keeps the current value. nil: none (the clause absent).
	IgnoreNullUpdates ColumnSet
	// TrackHistory are the TRACK HISTORY ON columns of SCD TYPE 2 and
	// BITEMPORAL flows: only a change to one of them opens a new version.
	// nil: every column (the clause absent).
	TrackHistory ColumnSet
}

// ErrNoCompare is returned when Rules.Compare is nil: no ordering, no history.
var ErrNoCompare = errors.New("temporal: Rules.Compare is nil")

func (r Rules) check() error {
	if r.Compare == nil {
		return ErrNoCompare
	}
	return nil
}

func (r Rules) compareSystem(a, b Seq) int {
	if r.CompareSystem != nil {
		return r.CompareSystem(a, b)
	}
	return r.Compare(a, b)
}

// SameValue is Equal with SQL's "is not distinct from" treatment of NULL,
// which is what change detection needs: NULL to NULL is no change.
func (r Rules) SameValue(a, b any) bool { return r.sameValue(a, b) }

func (r Rules) sameValue(a, b any) bool {
	switch {
	case a == nil && b == nil:
		return true
	case a == nil || b == nil:
		return false
	case r.Equal != nil:
		return r.Equal(a, b)
	}
	return reflect.DeepEqual(a, b)
}

func (r Rules) sameRow(a, b []any) bool {
	for i := range max(len(a), len(b)) {
		if !r.sameValue(valueAt(a, i), valueAt(b, i)) {
			return false
		}
	}
	return true
}

// changesTrackedColumn reports whether going from row a to row b changes a
// column whose history is kept, which is what opens a new SCD TYPE 2 version.
func (r Rules) changesTrackedColumn(a, b []any) bool {
	for i := range max(len(a), len(b)) {
		if r.TrackHistory != nil && !r.TrackHistory.Has(i) {
			continue
		}
		if !r.sameValue(valueAt(a, i), valueAt(b, i)) {
			return true
		}
	}
	return false
}

// writes reports whether e writes column i: keys always, the others as its
// COLUMNS TO UPDATE list says.
func (r Rules) writes(e Event, i int) bool { return r.KeyColumns.Has(i) || e.writes(i) }

// applyUpsert returns the row that upsert e leaves when the key's row is
// current (nil: the key has no row, so unwritten columns start NULL). The
// result is a new slice; current is not modified, so versions and states
// that share it stay intact.
func (r Rules) applyUpsert(current []any, e Event) []any {
	next := make([]any, max(len(current), len(e.Values)))
	for i := range next {
		v := valueAt(e.Values, i)
		keep := !r.writes(e, i) || (v == nil && r.IgnoreNullUpdates.Has(i) && !r.KeyColumns.Has(i))
		if keep {
			next[i] = valueAt(current, i)
		} else {
			next[i] = v
		}
	}
	return next
}

// sameEffect reports whether two events at one sequence value would leave
// the same target, so that one is a retry of the other. Deletes carry no
// value into the target, so any two deletes are the same; two upserts are
// the same when they write the same columns with the same values (what they
// carry in columns they do not write never reaches the target).
func (r Rules) sameEffect(a, b Event) bool {
	if a.Kind != b.Kind {
		return false
	}
	if a.Kind == Delete {
		return true
	}
	for i := range max(len(a.Values), len(b.Values), len(a.Writes), len(b.Writes)) {
		wa, wb := r.writes(a, i), r.writes(b, i)
		if wa != wb {
			return false
		}
		if wa && !r.sameValue(valueAt(a.Values, i), valueAt(b.Values, i)) {
			return false
		}
	}
	return true
}

// keyOf returns the KEYS columns of an event's values, for messages.
func (r Rules) keyOf(e Event) []any {
	var key []any
	for i := range len(e.Values) {
		if r.KeyColumns.Has(i) {
			key = append(key, e.Values[i])
		}
	}
	return key
}
