package temporal

import (
	"slices"
	"testing"
)

// Columns of these tests: id (key), name, age.

func TestReplaySCD1(t *testing.T) {
	writes := func(e Event, cols ...int) Event {
		e.Writes = ColumnsAt(cols...)
		return e
	}
	tests := []struct {
		name   string
		ignore ColumnSet
		events []Event
		mark   Seq
		want   string // "" for no row
	}{
		{"latest sequence wins whatever the arrival",
			nil, []Event{upsert(2, 1, "B", 2), upsert(1, 1, "A", 1)}, nil, "1 B 2"},
		{"delete removes the row",
			nil, []Event{upsert(1, 1, "A", 1), del(2, 1)}, nil, ""},
		{"a late lower upsert does not bring a deleted key back",
			nil, []Event{upsert(1, 1, "A", 1), del(5, 1), upsert(3, 1, "C", 3)}, nil, ""},
		{"an upsert after a delete starts from NULLs",
			ColumnsAt(1, 2), []Event{upsert(1, 1, "A", 1), del(2, 1), upsert(3, 1, nil, 3)}, nil, "1 NULL 3"},
		{"COLUMNS TO UPDATE writes listed columns, NULLs included",
			nil, []Event{upsert(1, 1, "A", 1), writes(upsert(2, 1, nil, 99), 1)}, nil, "1 NULL 1"},
		{"COLUMNS TO UPDATE on a new key leaves the rest NULL, never the key",
			nil, []Event{writes(upsert(1, 1, "A", 7), 2)}, nil, "1 NULL 7"},
		{"an empty COLUMNS TO UPDATE list writes only the key",
			nil, []Event{upsert(1, 1, "A", 1), writes(upsert(2, 1, "B", 2))}, nil, "1 A 1"},
		{"IGNORE NULL UPDATES keeps a written column on NULL",
			ColumnsAt(1), []Event{upsert(1, 1, "A", 1), writes(upsert(2, 1, nil, 2), 1, 2)}, nil, "1 A 2"},
		{"truncate removes a row whose latest event is older",
			nil, []Event{upsert(1, 1, "A", 1), upsert(2, 1, "B", 2)}, seq(3), ""},
		{"truncate keeps an event of its own sequence value",
			nil, []Event{upsert(1, 1, "A", 1), upsert(3, 1, "C", 3)}, seq(3), "1 C 3"},
		{"after a truncate the row is rebuilt from NULLs",
			ColumnsAt(1), []Event{upsert(1, 1, "A", 1), upsert(4, 1, nil, 4)}, seq(3), "1 NULL 4"},
		{"truncate below every event changes nothing",
			nil, []Event{upsert(5, 1, "A", 5)}, seq(3), "1 A 5"},
		{"no events, no row", nil, nil, nil, ""},
	}
	for _, tt := range tests {
		r := testRules(0)
		r.IgnoreNullUpdates = tt.ignore
		row, exists, err := r.ReplaySCD1(tt.events, tt.mark)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got := ""
		if exists {
			got = formatRow(row...)
		}
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestTruncateMarks(t *testing.T) {
	r := testRules(0)
	if !r.SurvivesTruncate(seq(3), seq(3)) || r.SurvivesTruncate(seq(2), seq(3)) || !r.SurvivesTruncate(seq(1), nil) {
		t.Error("SurvivesTruncate is not seq >= mark with nil as no truncate")
	}
	mark := r.LaterTruncateMark(nil, seq(5))
	mark = r.LaterTruncateMark(mark, seq(3))
	mark = r.LaterTruncateMark(mark, nil)
	if mark.String() != "5" {
		t.Errorf("LaterTruncateMark kept %v, want 5", mark)
	}
	if r.LaterTruncateMark(nil, nil) != nil {
		t.Error("no truncate should stay nil")
	}
}

func TestReplaySCD2(t *testing.T) {
	tests := []struct {
		name    string
		tracked ColumnSet
		events  []Event
		want    []string
	}{
		{"a late event splits the version it lands in",
			nil,
			[]Event{upsert(1, 1, "A", 1), upsert(9, 1, "C", 1), upsert(5, 1, "B", 1)},
			[]string{"1 A 1 1 5", "1 B 1 5 9", "1 C 1 9 NULL"}},
		{"an event identical to the open version adds nothing",
			nil,
			[]Event{upsert(1, 1, "A", 1), upsert(2, 1, "A", 1)},
			[]string{"1 A 1 1 NULL"}},
		{"delete closes the open version; a delete with none does nothing",
			nil,
			[]Event{upsert(1, 1, "A", 1), del(3, 1), del(4, 1)},
			[]string{"1 A 1 1 3"}},
		{"an upsert after a delete opens a new version from NULLs",
			nil,
			[]Event{upsert(1, 1, "A", 1), del(3, 1), {Seq: seq(4), Values: []any{1, "D", 4}, Writes: ColumnsAt(1)}},
			[]string{"1 A 1 1 3", "1 D NULL 4 NULL"}},
		{"untracked changes update the open version in place",
			ColumnsAt(0, 1),
			[]Event{upsert(1, 1, "A", 1), upsert(2, 1, "A", 2), upsert(3, 1, "B", 3), upsert(4, 1, "B", 4)},
			[]string{"1 A 2 1 3", "1 B 4 3 NULL"}},
		{"a closed version keeps its values when a later untracked change arrives",
			ColumnsAt(0, 1),
			[]Event{upsert(1, 1, "A", 1), upsert(3, 1, "B", 3), upsert(2, 1, "A", 2)},
			[]string{"1 A 2 1 3", "1 B 3 3 NULL"}},
		{"nothing tracked: one version per existence",
			ColumnsAt(),
			[]Event{upsert(1, 1, "A", 1), upsert(2, 1, "B", 2), del(3, 1), upsert(4, 1, "C", 4)},
			[]string{"1 B 2 1 3", "1 C 4 4 NULL"}},
	}
	for _, tt := range tests {
		r := testRules(0)
		r.TrackHistory = tt.tracked
		versions, err := r.ReplaySCD2(tt.events)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := formatVersions(versions); !slices.Equal(got, tt.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// TestResultsDoNotAlias checks that a caller may append period columns to a
// result's values without writing into another row or an event.
func TestResultsDoNotAlias(t *testing.T) {
	r := testRules(0)
	r.TrackHistory = ColumnsAt(0, 1)
	events := []Event{upsert(1, 1, "A", 1), upsert(2, 1, "A", 2), upsert(3, 1, "B", 2)}
	versions, err := r.ReplaySCD2(events)
	if err != nil {
		t.Fatal(err)
	}
	for i := range versions {
		_ = append(versions[i].Values, "period", "columns")
		versions[i].Values[1] = "overwritten"
	}
	if formatRow(events[0].Values...) != "1 A 1" || formatRow(events[2].Values...) != "1 B 2" {
		t.Errorf("SCD2 result aliases events: %v", events)
	}

	bi := []Event{
		{Seq: seq(10), SysSeq: seq(100), Values: []any{1, "x"}},
		{Seq: seq(20), SysSeq: seq(200), Values: []any{1, "y"}},
	}
	rows, err := r.ReplayBitemporal(bi)
	if err != nil {
		t.Fatal(err)
	}
	rows[0].Values[1] = "overwritten"
	if rows[1].Values[1] != "x" || bi[0].Values[1] != "x" {
		t.Errorf("bitemporal rows share values: %v", formatBiVersions(rows))
	}
}
