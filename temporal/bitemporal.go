package temporal

import (
	"slices"
	"sort"
)

// BiVersion is one row of a BITEMPORAL target: values that held over the
// business period [Start, End) according to what the source knew over the
// system period [SysStart, SysEnd). A nil End or SysEnd is open.
type BiVersion struct {
	Values           []any
	Start, End       Seq // business time: SEQUENCE BY
	SysStart, SysEnd Seq // system time: SYSTEM SEQUENCE BY
}

// ReplayBitemporal returns the BITEMPORAL rows of a key (spec §5), sorted by
// business start and then system start.
//
// Definition. For each system sequence value s at which the key has events,
// the business timeline B(s) is the SCD TYPE 2 history (ReplaySCD2, with the
// flow's partial-update and TRACK HISTORY rules) of the key's events whose
// system time is <= s, where of several events with one business time only
// the one with the latest system time counts: it supersedes the others
// outright, as a correction of what happened at that business time, rather
// than being applied on top of them. (Applying both would open a version at
// that business time and close it at the same instant, an empty period, and
// would let a superseded event's columns leak through a partial update.)
// A row of B(s) — values plus business period — has the system period
// [first s at which it is in B, first later s at which it is not); a row
// that leaves B and comes back later gets one row per stay. Rows still in
// the latest B(s) keep their system period open.
//
// A delete closes the open version of B(s) at its business time, so on the
// walk-through of the spec a DELETE at 12:30 makes the version that opened at
// 12:15:43 end at 12:30 from system time 12:30 on, while the open-ended one
// it replaces gets system end 12:30.
//
// How it is computed. System times are taken in order. At each, the new
// events replace or join the effective events (one per business time, in
// business order), and the timeline is re-derived from the first changed
// business time onwards, stopping at the first unchanged event after the
// last changed one where the replay state is the same as before: everything
// later is the same as well. Rows of the re-derived stretch that were in
// B before keep their system start; the others are closed or opened at s.
//
// history is a key's history as Merge returns it (every event with a system
// sequence value); anything else is sorted and checked first.
func (r Rules) ReplayBitemporal(history []Event) ([]BiVersion, error) {
	events, err := r.historyFor(history, true)
	if err != nil {
		return nil, err
	}
	// Stable: events of one system time stay in business order.
	bySystem := slices.Clone(events)
	slices.SortStableFunc(bySystem, func(a, b Event) int { return r.compareSystem(a.SysSeq, b.SysSeq) })

	var t timeline
	for len(bySystem) > 0 {
		n := 1
		for n < len(bySystem) && r.compareSystem(bySystem[n].SysSeq, bySystem[0].SysSeq) == 0 {
			n++
		}
		t.learn(r, bySystem[:n])
		bySystem = bySystem[n:]
	}

	out := t.retired
	for _, row := range t.rows {
		out = append(out, BiVersion{Values: row.Values, Start: row.Start, End: row.End, SysStart: row.since})
	}
	// Rows of different system times may share values slices (a version
	// that outlived a change); give each its own, so a caller may append.
	for i := range out {
		out[i].Values = slices.Clip(slices.Clone(out[i].Values))
	}
	slices.SortFunc(out, func(a, b BiVersion) int {
		if c := r.Compare(a.Start, b.Start); c != 0 {
			return c
		}
		return r.compareSystem(a.SysStart, b.SysStart)
	})
	return out, nil
}

// timeline is a bitemporal replay between two system times.
type timeline struct {
	// effective holds, in business order, the event that counts at each
	// business time so far, with the SCD TYPE 2 replay state after it.
	// Pointers, so that inserting into the middle moves words, not structs.
	effective []*effectiveEvent
	// rows is the current business timeline B(s), in business order, each
	// row with the system time it entered B.
	rows []*currentRow
	// retired are the rows that have left B, their system period closed.
	retired []BiVersion
}

type effectiveEvent struct {
	event Event
	after versionState
}

type currentRow struct {
	Version
	since Seq
}

// learn moves the timeline to the system time of batch: the key's events of
// that one system time, in business order.
func (t *timeline) learn(r Rules, batch []Event) {
	now := batch[0].SysSeq
	first, last := t.supersede(r, batch)

	var state versionState
	if first > 0 {
		state = t.effective[first-1].after
	}
	var fresh []Version
	converged := false
	var convergedAt Seq
	for q := first; q < len(t.effective); q++ {
		var closed Version
		var didClose bool
		state, closed, didClose = r.stepSCD2(state, t.effective[q].event)
		if didClose {
			fresh = append(fresh, closed)
		}
		if q > last && r.sameState(state, t.effective[q].after) {
			converged, convergedAt = true, t.effective[q].event.Seq
			break
		}
		t.effective[q].after = state
	}
	if !converged && state.open {
		fresh = append(fresh, state.openVersion())
	}

	// The rows the re-derived events made before are those they closed — the
	// ones ending at a business time in [from, convergedAt] — and, when the
	// re-derivation ran to the end, the open one. Rows are in business order
	// and do not overlap, so their ends ascend (open last) and both bounds
	// are binary searches.
	from := t.effective[first].event.Seq
	i := sort.Search(len(t.rows), func(k int) bool {
		end := t.rows[k].End
		return end == nil || r.Compare(end, from) >= 0
	})
	j := len(t.rows)
	if converged {
		j = sort.Search(len(t.rows), func(k int) bool {
			end := t.rows[k].End
			return end == nil || r.Compare(end, convergedAt) > 0
		})
	}
	t.rows = slices.Replace(t.rows, i, j, t.reconcile(r, t.rows[i:j], fresh, now)...)
}

// supersede puts the batch's events into the effective events, each
// replacing the event at its business time if there is one (that one's system
// time is earlier: system times are taken in order). It returns the positions
// of the first and last batch events. Effective events before the first keep
// their place and replay state, which is what makes appending O(batch); the
// events after it move by one memmove of pointers per batch event.
func (t *timeline) supersede(r Rules, batch []Event) (first, last int) {
	find := func(events []*effectiveEvent, s Seq) (int, bool) {
		return slices.BinarySearchFunc(events, s, func(x *effectiveEvent, s Seq) int {
			return r.Compare(x.event.Seq, s)
		})
	}
	added := 0
	for _, e := range batch {
		if _, found := find(t.effective, e.Seq); !found {
			added++
		}
	}
	// Merge from the back, in place: unplaced old events are [0, unplaced),
	// the placed tail is [w, len).
	unplaced := len(t.effective)
	t.effective = slices.Grow(t.effective, added)[:unplaced+added]
	w := len(t.effective)
	for k := len(batch) - 1; k >= 0; k-- {
		pos, found := find(t.effective[:unplaced], batch[k].Seq)
		later := pos
		if found {
			later = pos + 1 // the event at pos is superseded: dropped
		}
		w -= unplaced - later
		copy(t.effective[w:], t.effective[later:unplaced])
		w--
		t.effective[w] = &effectiveEvent{event: batch[k]}
		if k == len(batch)-1 {
			last = w
		}
		first = w
		unplaced = pos
	}
	return first, last
}

// reconcile compares the rows a stretch of the timeline held before (old)
// with the ones it holds now (fresh), both in business order: a row in both
// keeps its system start, an old row not in fresh is retired at now, a fresh
// row not in old enters at now. It returns the stretch's new rows.
func (t *timeline) reconcile(r Rules, old []*currentRow, fresh []Version, now Seq) []*currentRow {
	kept := make([]*currentRow, 0, len(fresh))
	a, b := 0, 0
	for a < len(old) || b < len(fresh) {
		var c int
		switch {
		case a == len(old):
			c = 1
		case b == len(fresh):
			c = -1
		default:
			// Rows of one timeline do not overlap, so a start names a row.
			c = r.Compare(old[a].Start, fresh[b].Start)
		}
		if c == 0 && r.sameVersion(old[a].Version, fresh[b]) {
			kept = append(kept, old[a])
			a++
			b++
			continue
		}
		if c <= 0 {
			row := old[a]
			t.retired = append(t.retired, BiVersion{
				Values: row.Values, Start: row.Start, End: row.End, SysStart: row.since, SysEnd: now,
			})
			a++
		}
		if c >= 0 {
			kept = append(kept, &currentRow{Version: fresh[b], since: now})
			b++
		}
	}
	return kept
}

func (r Rules) sameVersion(a, b Version) bool {
	if r.Compare(a.Start, b.Start) != 0 {
		return false
	}
	if (a.End == nil) != (b.End == nil) || (a.End != nil && r.Compare(a.End, b.End) != 0) {
		return false
	}
	return r.sameRow(a.Values, b.Values)
}
