package temporal

// Continuing a replay. When every new event of a key comes after all the
// events it already has (the common case: change events mostly arrive in
// order), replaying the whole history again would only recompute what is
// already in the target. The state a replay stands in after a history is
// small and can be read back from the target itself: for SCD TYPE 1 the
// key's row, for SCD TYPE 2 its open version, for BITEMPORAL the last row of
// its latest business timeline. ContinueSCD1, ContinueSCD2 and
// ContinueBitemporal take that state and the new events and finish the
// replay; the result is exactly that of replaying the history and the new
// events together (TestContinueEqualsReplay and
// TestContinueBitemporalEqualsReplay check it).

// ContinueSCD1 returns the SCD TYPE 1 row of a key whose history left row
// (exists false: no row) after it has also received events, every one with
// a sequence value after the history's last, under the flow's truncate mark.
// events must be sorted and distinct, as Merge leaves a history.
func (r Rules) ContinueSCD1(row []any, exists bool, events []Event, truncateMark Seq) ([]any, bool, error) {
	if err := r.checkContinuation(events, false); err != nil {
		return nil, false, err
	}
	row, exists = r.continueSCD1(row, exists, events, truncateMark)
	return row, exists, nil
}

// continueSCD1 applies sorted events to a row, as ReplaySCD1 does from none.
func (r Rules) continueSCD1(row []any, exists bool, events []Event, truncateMark Seq) ([]any, bool) {
	if !exists {
		row = nil
	}
	for _, e := range events {
		if !r.SurvivesTruncate(e.Seq, truncateMark) {
			continue
		}
		switch e.Kind {
		case Upsert:
			row = r.applyUpsert(row, e)
			exists = true
		case Delete:
			row, exists = nil, false
		}
	}
	return row, exists
}

// ContinueSCD2 finishes the SCD TYPE 2 replay of a key whose history left
// open (nil: no open version) once it has also received events, every one
// with a sequence value after the history's last. It returns the versions
// the events close, in business order (the first may be open with an end
// now), and the open version after them (nil: none). The history's other
// versions are unchanged. events must be sorted and distinct.
func (r Rules) ContinueSCD2(open *Version, events []Event) (closed []Version, next *Version, err error) {
	if err := r.checkContinuation(events, false); err != nil {
		return nil, nil, err
	}
	closed, next = r.continueSCD2(open, events)
	return closed, next, nil
}

func (r Rules) continueSCD2(open *Version, events []Event) (closed []Version, next *Version) {
	var state versionState
	if open != nil {
		state = versionState{open: true, values: open.Values, start: open.Start}
	}
	for _, e := range events {
		var v Version
		var didClose bool
		state, v, didClose = r.stepSCD2(state, e)
		if didClose {
			closed = append(closed, v)
		}
	}
	if state.open {
		v := state.openVersion()
		next = &v
	}
	return closed, next
}

// checkContinuation refuses what a continuation cannot take: events out of
// order, repeated, or of the wrong form.
func (r Rules) checkContinuation(events []Event, bitemporal bool) error {
	if err := r.check(); err != nil {
		return err
	}
	for i, e := range events {
		if err := r.validate(e); err != nil {
			return err
		}
		if (e.SysSeq != nil) != bitemporal {
			return ErrUnexpectedSystem
		}
		if i > 0 && r.compareIdentity(events[i-1], e) >= 0 {
			return ErrUnsortedContinuation
		}
	}
	return nil
}

// ContinueBitemporal finishes the BITEMPORAL replay of a key whose events
// so far leave, as the last row of its latest business timeline B, last
// (nil: B is empty), once it has also received events that all come after
// those on both axes: every business time after the history's, every system
// time after the history's, and system times not decreasing in business
// order. Then each new system time s only appends to the timeline: the
// events of s continue the SCD TYPE 2 replay from B's last row, which leaves
// B at s if they change it (it gets system end s) and the versions they
// close or open enter B at s; every other row keeps its system period.
// It returns the rows that leave B (with their system end) and the rows that
// enter (still in B, or in B only between two of the new system times). The
// result is that of ReplayBitemporal over the history and the events
// (TestContinueBitemporalEqualsReplay). events must be sorted as Merge
// sorts a history.
func (r Rules) ContinueBitemporal(last *BiVersion, events []Event) (retired, added []BiVersion, err error) {
	if err := r.checkContinuation(events, true); err != nil {
		return nil, nil, err
	}
	for i := 1; i < len(events); i++ {
		if r.compareSystem(events[i-1].SysSeq, events[i].SysSeq) > 0 {
			return nil, nil, ErrUnsortedContinuation
		}
	}
	var cur *BiVersion // B's last row, as it stands now
	if last != nil {
		c := *last
		cur = &c
	}
	// New rows stay in added until a later system time retires them.
	for len(events) > 0 {
		n := 1
		for n < len(events) && r.compareSystem(events[n].SysSeq, events[0].SysSeq) == 0 {
			n++
		}
		group, now := events[:n], events[0].SysSeq
		events = events[n:]
		var open *Version
		if cur != nil && cur.End == nil {
			open = &Version{Values: cur.Values, Start: cur.Start}
		}
		closed, next := r.continueSCD2(open, group)
		if open != nil && len(closed) == 0 && next != nil && r.sameVersion(*next, *open) {
			continue // nothing at this system time changes B
		}
		if open != nil {
			gone := *cur
			gone.SysEnd = now
			if k := len(added) - 1; k >= 0 && added[k].SysEnd == nil && r.sameBiRow(added[k], *cur) {
				added[k] = gone // entered at an earlier new system time
			} else {
				retired = append(retired, gone)
			}
		}
		for _, v := range closed {
			added = append(added, BiVersion{Values: v.Values, Start: v.Start, End: v.End, SysStart: now})
		}
		if next != nil {
			added = append(added, BiVersion{Values: next.Values, Start: next.Start, SysStart: now})
		}
		if k := len(added) - 1; k >= 0 && (len(closed) > 0 || next != nil) {
			c := added[k]
			cur = &c
		}
	}
	return retired, added, nil
}

// sameBiRow reports whether two rows are one row of the target: the same
// business period, system start and values.
func (r Rules) sameBiRow(a, b BiVersion) bool {
	if r.compareSystem(a.SysStart, b.SysStart) != 0 {
		return false
	}
	return r.sameVersion(Version{Values: a.Values, Start: a.Start, End: a.End}, Version{Values: b.Values, Start: b.Start, End: b.End})
}
