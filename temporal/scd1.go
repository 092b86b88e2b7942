package temporal

// SCD TYPE 1 keeps one row per key: the state after applying the key's
// events one at a time in sequence order.
//
// TRUNCATE at sequence value s removes every row whose latest event is older
// than s, and events older than s that arrive later are ignored. Put in
// sequence order, a truncate at s is placed before any event whose sequence
// value equals s (a tie is not a conflict: a truncate has no key), so:
//
//   - an event with sequence value < s is as if it never happened;
//   - an event with sequence value == s survives the truncate;
//   - a row whose latest event is older than s is gone, and the next event
//     after the truncate builds the row from NULLs, not from the old values.
//
// A later truncate erases all an earlier one could, so a flow needs only its
// latest (highest) truncate mark, which LaterTruncateMark keeps.

// ReplaySCD1 returns the SCD TYPE 1 row of a key with the given history
// (nil row and exists == false when the key has none), given the flow's
// latest truncate mark (nil: the flow was never truncated).
//
// Each upsert starts from the key's current row, or from NULLs if the key has
// none (first event, after a delete, after the truncate mark) and writes its
// columns (Event.Writes; the keys always), except that a NULL in an IGNORE
// NULL UPDATES column keeps the current value. A delete removes the row; a
// later-arriving event with a lower sequence value cannot bring it back,
// because it is replayed before the delete: the delete events of a history
// are its tombstones, and the executor must keep them as long as the key's
// history (the spec forbids them to expire).
//
// history is a key's history as Merge returns it; anything else is sorted and
// checked first. Cost: O(len(history)).
func (r Rules) ReplaySCD1(history []Event, truncateMark Seq) (row []any, exists bool, err error) {
	events, err := r.historyFor(history, false)
	if err != nil {
		return nil, false, err
	}
	row, exists = r.continueSCD1(nil, false, events, truncateMark)
	return row, exists, nil
}

// SurvivesTruncate reports whether an event with sequence value seq (for a
// row: its key's latest event) outlives a truncate at mark: seq >= mark. A
// nil mark is no truncate. When a truncate arrives, the executor can use it on
// each key's latest event to find the rows to remove without replaying them.
func (r Rules) SurvivesTruncate(seq, mark Seq) bool {
	return mark == nil || r.Compare(seq, mark) >= 0
}

// LaterTruncateMark returns the truncate mark a flow keeps after one more
// truncate: the later of current and incoming (nil: none yet).
func (r Rules) LaterTruncateMark(current, incoming Seq) Seq {
	switch {
	case current == nil:
		return incoming
	case incoming == nil:
		return current
	case r.Compare(incoming, current) > 0:
		return incoming
	}
	return current
}
