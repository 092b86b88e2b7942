package temporal

// Continuing a replay. When every new event of a key comes after all the
// events it already has (the common case: change events mostly arrive in
// order), replaying the whole history again would only recompute what is
// already in the target. The state a replay stands in after a history is
// small and can be read back from the target itself: for SCD TYPE 1 the
// key's row, for SCD TYPE 2 its open version. ContinueSCD1 and
// ContinueSCD2 take that state and the new events and finish the replay;
// the result is exactly that of replaying the history and the new events
// together (TestContinueEqualsReplay checks it).

// ContinueSCD1 returns the SCD TYPE 1 row of a key whose history left row
// (exists false: no row) after it has also received events, every one with
// a sequence value after the history's last, under the flow's truncate mark.
// events must be sorted and distinct, as Merge leaves a history.
func (r Rules) ContinueSCD1(row []any, exists bool, events []Event, truncateMark Seq) ([]any, bool, error) {
	if err := r.checkContinuation(events, false); err != nil {
		return nil, false, err
	}
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
	return row, exists, nil
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
	return closed, next, nil
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
