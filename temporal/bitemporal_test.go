package temporal

import (
	"testing"
)

// at is an event of key 1 at business time bt and system time st, with
// columns (id, name, age).
func at(kind Kind, bt, st int, name, age any) Event {
	return Event{Seq: seq(bt), SysSeq: seq(st), Kind: kind, Values: []any{1, name, age}}
}

func replayBitemporalTable(t *testing.T, r Rules, events ...Event) []string {
	t.Helper()
	history, err := r.Merge(nil, events)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := r.ReplayBitemporal(history)
	if err != nil {
		t.Fatal(err)
	}
	return formatBiVersions(rows)
}

func TestReplayBitemporal(t *testing.T) {
	partial := at(Upsert, 10, 200, nil, 2)
	partial.Writes = ColumnsAt(2)
	tests := []struct {
		name    string
		tracked ColumnSet
		events  []Event
		want    []string
	}{
		{
			// A later system time at an equal business time replaces the
			// earlier event: it is not applied on top of it, so the earlier
			// event's name does not survive a correction that writes only age.
			"a correction supersedes, it does not merge",
			nil,
			[]Event{at(Upsert, 10, 100, "A", 1), partial},
			[]string{
				"1 A 1 10 NULL 100 200",
				"1 NULL 2 10 NULL 200 NULL",
			},
		},
		{
			"a correction can be a delete",
			nil,
			[]Event{at(Upsert, 10, 100, "A", 1), at(Delete, 10, 200, nil, nil), at(Upsert, 20, 300, "B", 2)},
			[]string{
				"1 A 1 10 NULL 100 200",
				"1 B 2 20 NULL 300 NULL",
			},
		},
		{
			"a correction equal to the version before leaves no trace of the one it replaces",
			nil,
			[]Event{at(Upsert, 10, 100, "A", 1), at(Upsert, 20, 200, "B", 2), at(Upsert, 20, 300, "A", 1)},
			[]string{
				// A row that leaves the timeline and comes back has one
				// system period per stay.
				"1 A 1 10 NULL 100 200",
				"1 A 1 10 NULL 300 NULL",
				"1 A 1 10 20 200 300",
				"1 B 2 20 NULL 200 300",
			},
		},
		{
			"events of one system time arrive together",
			nil,
			[]Event{at(Upsert, 10, 100, "A", 1), at(Upsert, 20, 100, "B", 2)},
			[]string{
				"1 A 1 10 20 100 NULL",
				"1 B 2 20 NULL 100 NULL",
			},
		},
		{
			"an untracked change updates the open version in a new system version",
			ColumnsAt(0, 1),
			[]Event{at(Upsert, 10, 100, "A", 1), at(Upsert, 20, 200, "A", 2)},
			[]string{
				"1 A 1 10 NULL 100 200",
				"1 A 2 10 NULL 200 NULL",
			},
		},
		{
			"a delete before any upsert in business time",
			nil,
			[]Event{at(Delete, 5, 100, nil, nil), at(Upsert, 10, 200, "A", 1)},
			[]string{
				"1 A 1 10 NULL 200 NULL",
			},
		},
	}
	for _, tt := range tests {
		r := testRules(0)
		r.TrackHistory = tt.tracked
		sameLines(t, tt.name, replayBitemporalTable(t, r, tt.events...), tt.want)
	}
}

// TestBitemporalLateSystemTime: an event whose system time is earlier than
// the ones already applied rewrites the system history from its system time.
func TestBitemporalLateSystemTime(t *testing.T) {
	r := testRules(0)
	x, y := at(Upsert, 10, 100, "X", 1), at(Upsert, 20, 200, "Y", 2)
	sameLines(t, "before", replayBitemporalTable(t, r, x, y), []string{
		"1 X 1 10 NULL 100 200",
		"1 X 1 10 20 200 NULL",
		"1 Y 2 20 NULL 200 NULL",
	})
	z := at(Upsert, 15, 50, "Z", 3) // known at 50, before everything else
	sameLines(t, "after the late event", replayBitemporalTable(t, r, x, y, z), []string{
		"1 Z 3 15 NULL 50 200",
		"1 X 1 10 15 100 NULL",
		"1 Z 3 15 20 200 NULL",
		"1 Y 2 20 NULL 200 NULL",
	})
}

// TestBitemporalSystemComparator: system time is ordered by CompareSystem,
// not by the business comparator.
func TestBitemporalSystemComparator(t *testing.T) {
	r := testRules(0)
	r.CompareSystem = func(a, b Seq) int { return -r.Compare(a, b) } // system time runs backwards
	sameLines(t, "reversed system order",
		replayBitemporalTable(t, r, at(Upsert, 10, 200, "A", 1), at(Upsert, 20, 100, "B", 2)),
		[]string{
			"1 A 1 10 NULL 200 100",
			"1 A 1 10 20 100 NULL",
			"1 B 2 20 NULL 100 NULL",
		})
}
