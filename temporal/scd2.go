package temporal

// Version is one row of an SCD TYPE 2 target: the values a key held over the
// closed-open business period [Start, End). A nil End is open: the version is
// current.
type Version struct {
	Values     []any
	Start, End Seq
}

// ReplaySCD2 returns the SCD TYPE 2 history of a key: its versions in
// business order, non-overlapping, at most the last one open.
//
// The events are applied one at a time in sequence order (spec §4):
//
//   - an upsert computes the key's new values as SCD TYPE 1 does, from the
//     open version's values (from NULLs when no version is open);
//   - if that changes a tracked column (Rules.TrackHistory), the open version
//     is closed at the event's sequence value and a new one opens there;
//   - if it changes only untracked columns, the open version takes the new
//     values in place, keeping its start;
//   - if it changes nothing, nothing happens;
//   - a delete closes the open version at its sequence value and opens none;
//     a delete with no open version does nothing.
//
// A late event is simply replayed where its sequence value puts it, which
// splits the version it lands in. Sequence values are distinct within a
// history, so no version is empty. TRUNCATE does not apply to SCD TYPE 2
// (refused at CREATE FLOW), so there is no truncate mark.
//
// history is a key's history as Merge returns it; anything else is sorted and
// checked first. Cost: O(len(history)).
func (r Rules) ReplaySCD2(history []Event) ([]Version, error) {
	events, err := r.historyFor(history, false)
	if err != nil {
		return nil, err
	}
	versions, open := r.continueSCD2(nil, events)
	if open != nil {
		versions = append(versions, *open)
	}
	return versions, nil
}

// versionState is where an SCD TYPE 2 replay stands between two events: the
// open version, if any. It is all the replay remembers, so two replays in the
// same state produce the same versions from the same later events — which is
// what lets the bitemporal replay stop re-deriving a timeline early.
type versionState struct {
	open   bool
	values []any // never modified once in a state: versions share it
	start  Seq
}

func (s versionState) openVersion() Version {
	return Version{Values: s.values, Start: s.start}
}

func (r Rules) sameState(a, b versionState) bool {
	if a.open != b.open {
		return false
	}
	return !a.open || (r.Compare(a.start, b.start) == 0 && r.sameRow(a.values, b.values))
}

// stepSCD2 applies one event to a replay state, returning the next state and
// the version the event closed, if it closed one.
func (r Rules) stepSCD2(state versionState, e Event) (next versionState, closed Version, didClose bool) {
	if e.Kind == Delete {
		if !state.open {
			return state, Version{}, false
		}
		return versionState{}, Version{Values: state.values, Start: state.start, End: e.Seq}, true
	}
	if !state.open {
		return versionState{open: true, values: r.applyUpsert(nil, e), start: e.Seq}, Version{}, false
	}
	values := r.applyUpsert(state.values, e)
	switch {
	case r.changesTrackedColumn(state.values, values):
		return versionState{open: true, values: values, start: e.Seq},
			Version{Values: state.values, Start: state.start, End: e.Seq}, true
	case r.sameRow(state.values, values):
		return state, Version{}, false
	default: // only untracked columns changed: update the open version in place
		return versionState{open: true, values: values, start: state.start}, Version{}, false
	}
}
