package temporal

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Errors for events no history can hold. The executor refuses NULL sequence
// values before they get here; these catch the bug if it does not.
var (
	ErrNullSequence       = errors.New("temporal: event has a NULL sequence value")
	ErrNullSystemSequence = errors.New("temporal: BITEMPORAL event has a NULL system sequence value")
	ErrUnexpectedSystem   = errors.New("temporal: system sequence value on an event of a flow that is not BITEMPORAL")
	ErrUnknownKind        = errors.New("temporal: unknown event kind")
	// ErrUnsortedContinuation: a continuation's events must be sorted and
	// distinct, as Merge leaves them.
	ErrUnsortedContinuation = errors.New("temporal: continuation events are not sorted and distinct")
)

// ConflictError refuses two different events for one key with one sequence
// value (for BITEMPORAL: one business and one system sequence value): the
// target would depend on which one arrived last, which the spec forbids.
type ConflictError struct {
	Key    []any // the KEYS values (Rules.KeyColumns) of the events
	Seq    Seq   // the sequence value (business time for BITEMPORAL)
	SysSeq Seq   // the system sequence value; nil unless BITEMPORAL
	// Existing is the event already in the history (or, for two events in
	// one batch, the one earlier in the batch); Incoming is the one refused.
	Existing, Incoming Event
}

func (e *ConflictError) Error() string {
	var b strings.Builder
	b.WriteString("temporal: two different events for key ")
	b.WriteString(formatKey(e.Key))
	b.WriteString(" have ")
	if e.SysSeq == nil {
		fmt.Fprintf(&b, "sequence value %s", e.Seq)
	} else {
		fmt.Fprintf(&b, "business sequence value %s and system sequence value %s", e.Seq, e.SysSeq)
	}
	return b.String()
}

// Merge folds a batch of events for one key into that key's history and
// returns the new history: sorted by sequence value (for BITEMPORAL, by
// business and then system sequence value), each sequence value once.
//
// An incoming event with the sequence value of an event already present (in
// the history or earlier in the batch) is dropped when it has the same effect
// (see below) — a retry changes nothing — and refused with a *ConflictError
// otherwise; nothing is merged then. Two events have the same effect when
// they are the same kind and, for upserts, write the same columns with equal
// values (Rules.Equal); a delete's values never reach the target, so two
// deletes at one sequence value are always the same.
//
// history need not come from Merge, but is treated as a history: sorted
// (sorting a copy if it is not) and free of conflicts. Neither input is
// modified, but the result may be incoming itself (an empty history, an
// incoming batch already in order): a caller that changes the result must
// not count on incoming staying as it was. The batch brought something new
// exactly when the result is longer than the (deduplicated) history.
func (r Rules) Merge(history, incoming []Event) ([]Event, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	old, err := r.sortedHistory(history)
	if err != nil {
		return nil, err
	}
	batch, err := r.sortedHistory(incoming)
	if err != nil {
		return nil, err
	}
	if len(old) == 0 {
		return batch, nil // may be incoming itself, when it was in order
	}
	merged := make([]Event, 0, len(old)+len(batch))
	i, j := 0, 0
	for i < len(old) && j < len(batch) {
		switch c := r.compareIdentity(old[i], batch[j]); {
		case c < 0:
			merged = append(merged, old[i])
			i++
		case c > 0:
			merged = append(merged, batch[j])
			j++
		default:
			if !r.sameEffect(old[i], batch[j]) {
				return nil, r.conflict(old[i], batch[j])
			}
			merged = append(merged, old[i])
			i++
			j++
		}
	}
	merged = append(merged, old[i:]...)
	merged = append(merged, batch[j:]...)
	return merged, nil
}

// compareIdentity orders events by what identifies them within one key:
// the sequence value, then the system sequence value (nil first, which only
// a history mixing BITEMPORAL and other events would need).
func (r Rules) compareIdentity(a, b Event) int {
	if c := r.Compare(a.Seq, b.Seq); c != 0 {
		return c
	}
	switch {
	case a.SysSeq == nil && b.SysSeq == nil:
		return 0
	case a.SysSeq == nil:
		return -1
	case b.SysSeq == nil:
		return 1
	}
	return r.compareSystem(a.SysSeq, b.SysSeq)
}

func (r Rules) conflict(existing, incoming Event) *ConflictError {
	return &ConflictError{
		Key:      r.keyOf(existing),
		Seq:      existing.Seq,
		SysSeq:   existing.SysSeq,
		Existing: existing,
		Incoming: incoming,
	}
}

// sortedHistory returns events sorted by identity with retries dropped,
// refusing conflicts. Events already in that shape, as Merge leaves them,
// come back as they are after one linear check, which keeps replay O(n).
func (r Rules) sortedHistory(events []Event) ([]Event, error) {
	sorted := true
	for i, e := range events {
		if err := r.validate(e); err != nil {
			return nil, err
		}
		if i > 0 && r.compareIdentity(events[i-1], e) >= 0 {
			sorted = false
		}
	}
	if sorted {
		return events, nil
	}
	// A stable sort keeps the arrival order among events of one sequence
	// value, so Existing in a ConflictError is the one that came first.
	work := slices.Clone(events)
	slices.SortStableFunc(work, r.compareIdentity)
	out := work[:0]
	for _, e := range work {
		if n := len(out); n > 0 && r.compareIdentity(out[n-1], e) == 0 {
			if !r.sameEffect(out[n-1], e) {
				return nil, r.conflict(out[n-1], e)
			}
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

func (r Rules) validate(e Event) error {
	if e.Seq == nil {
		return fmt.Errorf("%w (key %s)", ErrNullSequence, formatKey(r.keyOf(e)))
	}
	if e.Kind != Upsert && e.Kind != Delete {
		return fmt.Errorf("%w %d (key %s, sequence value %s)", ErrUnknownKind, uint8(e.Kind), formatKey(r.keyOf(e)), e.Seq)
	}
	return nil
}

// historyFor is sortedHistory plus the check that every event has a system
// sequence value when, and only when, the flow is BITEMPORAL: an SCD event
// with one would let two events share a sequence value.
func (r Rules) historyFor(events []Event, bitemporal bool) ([]Event, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	for _, e := range events {
		switch {
		case bitemporal && e.SysSeq == nil:
			return nil, fmt.Errorf("%w (key %s, sequence value %s)", ErrNullSystemSequence, formatKey(r.keyOf(e)), e.Seq)
		case !bitemporal && e.SysSeq != nil:
			return nil, fmt.Errorf("%w (key %s, sequence value %s)", ErrUnexpectedSystem, formatKey(r.keyOf(e)), e.Seq)
		}
	}
	return r.sortedHistory(events)
}

// formatKey writes KEYS values as a parenthesized list, as PostgreSQL's
// unique-violation details do: (1, abc).
func formatKey(key []any) string {
	parts := make([]string, len(key))
	for i, v := range key {
		parts[i] = formatValue(v)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
