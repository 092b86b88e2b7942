package temporal

import (
	"fmt"
	"slices"
	"testing"
)

// These tests check the worked examples of docs/autocdc.md, the AUTO CDC
// contract, reading the events and the expected tables from it (specdoc_test.go).

// usersCDF are the source events of spec §3 and §4 (userId, name, city), in
// the order the spec lists them.
func usersCDF(t *testing.T) []Event {
	t.Helper()
	return specEvents(t, readSpecTable(t, "users-events", "userId", "name", "city", "operation", "sequenceNum"))
}

// replaySCD1Table returns the SCD TYPE 1 target of events, as table lines.
func replaySCD1Table(t *testing.T, r Rules, events []Event, truncateMark Seq) []string {
	t.Helper()
	histories := keyedHistories(t, r, events)
	var table []string
	for _, key := range sortedKeys(histories) {
		row, exists, err := r.ReplaySCD1(histories[key], truncateMark)
		if err != nil {
			t.Fatalf("ReplaySCD1(key %v): %v", key, err)
		}
		if exists {
			table = append(table, formatRow(row...))
		}
	}
	return table
}

func replaySCD2Table(t *testing.T, r Rules, events []Event) []string {
	t.Helper()
	histories := keyedHistories(t, r, events)
	var table []string
	for _, key := range sortedKeys(histories) {
		versions, err := r.ReplaySCD2(histories[key])
		if err != nil {
			t.Fatalf("ReplaySCD2(key %v): %v", key, err)
		}
		table = append(table, formatVersions(versions)...)
	}
	return table
}

func TestSpecSCD1Users(t *testing.T) {
	r := testRules(0)
	got := replaySCD1Table(t, r, usersCDF(t), nil)
	want := readSpecTable(t, "scd1-users", "userId", "name", "city").lines()
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSpecSCD1UsersTruncate3(t *testing.T) {
	r := testRules(0)
	events := usersCDF(t)
	truncateAt := readSpecTable(t, "scd1-truncate-event", "userId", "name", "city", "operation", "sequenceNum").rows
	if len(truncateAt) != 1 || truncateAt[0][3] != "TRUNCATE" {
		t.Fatalf("the spec's truncate event: %q", truncateAt)
	}
	mark := seq(specValue(truncateAt[0][4]))
	want := readSpecTable(t, "scd1-users-after-truncate", "userId", "name", "city").lines()
	if got := replaySCD1Table(t, r, events, mark); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}

	// As an executor applies it: events one statement at a time, each
	// replaying its key; the truncate, wherever it arrives, removes the rows
	// whose latest event is older than its mark (SurvivesTruncate), and
	// events below the mark arriving after it are ignored.
	for arrivedAfter := 0; arrivedAfter <= len(events); arrivedAfter++ {
		var current Seq
		histories := map[any][]Event{}
		target := map[any][]any{}
		truncate := func() {
			current = r.LaterTruncateMark(current, mark)
			for key := range target {
				h := histories[key]
				if !r.SurvivesTruncate(h[len(h)-1].Seq, current) {
					delete(target, key)
				}
			}
		}
		for i, e := range events {
			if i == arrivedAfter {
				truncate()
			}
			key := e.Values[0]
			h, err := r.Merge(histories[key], []Event{e})
			if err != nil {
				t.Fatal(err)
			}
			histories[key] = h
			row, exists, err := r.ReplaySCD1(h, current)
			if err != nil {
				t.Fatal(err)
			}
			if exists {
				target[key] = row
			} else {
				delete(target, key)
			}
		}
		if arrivedAfter == len(events) {
			truncate()
		}
		var got []string
		for _, key := range sortedKeys(histories) {
			if row, ok := target[key]; ok {
				got = append(got, formatRow(row...))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("truncate arriving after %d events: got %q, want %q", arrivedAfter, got, want)
		}
	}
}

func TestSpecSCD1PartialUpdate(t *testing.T) {
	var events []Event
	for _, row := range readSpecTable(t, "partial-update-events", "id", "name", "qty", "sequence").rows {
		events = append(events, upsert(specValue(row[3]), specValue(row[0]), specValue(row[1]), specValue(row[2])))
	}

	r := testRules(0)
	want := readSpecTable(t, "partial-update-default", "id", "name", "qty").lines()
	if got := replaySCD1Table(t, r, events, nil); !slices.Equal(got, want) {
		t.Errorf("default: got %q, want %q", got, want)
	}

	r.IgnoreNullUpdates = ColumnsAt(1) // IGNORE NULL UPDATES ON (name)
	want = readSpecTable(t, "partial-update-ignore-null-name", "id", "name", "qty").lines()
	if got := replaySCD1Table(t, r, events, nil); !slices.Equal(got, want) {
		t.Errorf("IGNORE NULL UPDATES ON (name): got %q, want %q", got, want)
	}
}

func TestSpecSCD1StructSequence(t *testing.T) {
	// SEQUENCE BY STRUCT(ts, id) orders by ts, then by id on ties.
	r := testRules(0)
	events := []Event{
		{Seq: seq(10, 2), Values: []any{1, "ts 10 id 2"}},
		{Seq: seq(10, 1), Values: []any{1, "ts 10 id 1"}},
		{Seq: seq(9, 7), Values: []any{1, "ts 9 id 7"}},
	}
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}} {
		var arrived []Event
		for _, i := range order {
			arrived = append(arrived, events[i])
		}
		if got := replaySCD1Table(t, r, arrived, nil); !slices.Equal(got, []string{"1 ts 10 id 2"}) {
			t.Errorf("arrival %v: got %q, want [1 ts 10 id 2]", order, got)
		}
	}
	compare := Lexicographic(compareTestValue)
	if compare(seq(10, 1), seq(10, 2)) >= 0 || compare(seq(9, 7), seq(10, 1)) >= 0 || compare(seq(10, 2), seq(10, 2)) != 0 {
		t.Error("STRUCT(ts, id) does not order by ts, then id")
	}
}

func TestSpecSCD2Users(t *testing.T) {
	got := replaySCD2Table(t, testRules(0), usersCDF(t))
	want := readSpecTable(t, "scd2-users", "userId", "name", "city", "__START_AT", "__END_AT").lines()
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestSpecSCD2UsersTrackHistoryExceptCity(t *testing.T) {
	r := testRules(0)
	r.TrackHistory = ColumnsAt(0, 1) // TRACK HISTORY ON * EXCEPT (city)
	got := replaySCD2Table(t, r, usersCDF(t))
	want := readSpecTable(t, "scd2-users-track-history-except-city", "userId", "name", "city", "__START_AT", "__END_AT").lines()
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// bitemporalColumns are the columns of the §5 walk-through's target.
var bitemporalColumns = []string{"CompanyId", "DataPoint", "__START_AT", "__END_AT", "__SYSTEM_START_AT", "__SYSTEM_END_AT"}

// walkThroughEvents are the events of the §5 walk-through, (CompanyId,
// DataPoint) at a business and a system time, one per step.
func walkThroughEvents(t *testing.T) []Event {
	t.Helper()
	return specEvents(t, readSpecTable(t, "bitemporal-events", "CompanyId", "DataPoint", "business_time", "system_time", "operation"))
}

func TestSpecBitemporalWalkThrough(t *testing.T) {
	r := testRules(0)
	events := walkThroughEvents(t)
	var history []Event
	var final []string
	for i, e := range events {
		want := readSpecTable(t, fmt.Sprintf("bitemporal-step-%d", i+1), bitemporalColumns...).lines()
		var err error
		if history, err = r.Merge(history, []Event{e}); err != nil {
			t.Fatalf("step %d: Merge: %v", i+1, err)
		}
		rows, err := r.ReplayBitemporal(history)
		if err != nil {
			t.Fatalf("step %d: ReplayBitemporal: %v", i+1, err)
		}
		got := formatBiVersions(rows)
		sameLines(t, fmt.Sprintf("step %d", i+1), got, want)
		// The spec lists the rows in the order the result promises:
		// business start, then system start.
		if !slices.Equal(got, want) {
			t.Errorf("step %d: order\n%q\nwant\n%q", i+1, got, want)
		}
		final = want
	}

	// The same events arriving all at once, and in other orders, give the
	// final table: the result depends on the events, not their arrival.
	for _, arrival := range [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 0, 3, 1}} {
		var batch []Event
		for _, i := range arrival {
			batch = append(batch, events[i])
		}
		h, err := r.Merge(nil, batch)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := r.ReplayBitemporal(h)
		if err != nil {
			t.Fatal(err)
		}
		sameLines(t, fmt.Sprintf("all events in one batch, in the order %v", arrival), formatBiVersions(rows), final)
	}
}

// TestSpecBitemporalReadingHistory checks the closing sentences of spec §6
// with the period predicates: at system time 12:22 the value for business
// time 12:10 was XFv1; today it is XFv3; at 10:04:59 the table was empty.
func TestSpecBitemporalReadingHistory(t *testing.T) {
	r := testRules(0)
	history, err := r.Merge(nil, walkThroughEvents(t))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := r.ReplayBitemporal(history)
	if err != nil {
		t.Fatal(err)
	}
	// Period columns of a one-element sequence hold the element itself.
	column := func(s Seq) any {
		if s == nil {
			return nil
		}
		return s[0]
	}
	asOf := func(systemTime, businessTime any) []string {
		var values []string
		for _, v := range rows {
			if (systemTime == nil || AsOf(column(v.SysStart), column(v.SysEnd), systemTime, compareTestValue)) &&
				AsOf(column(v.Start), column(v.End), businessTime, compareTestValue) {
				values = append(values, v.Values[1].(string))
			}
		}
		return values
	}
	if got := asOf("12:22:00", "12:10:00"); !slices.Equal(got, []string{"XFv1"}) {
		t.Errorf("system 12:22, business 12:10: got %q, want [XFv1]", got)
	}
	current := func(v BiVersion) bool { return v.SysEnd == nil }
	var now []string
	for _, v := range rows {
		if current(v) && AsOf(column(v.Start), column(v.End), "12:10:00", compareTestValue) {
			now = append(now, v.Values[1].(string))
		}
	}
	if !slices.Equal(now, []string{"XFv3"}) {
		t.Errorf("today, business 12:10: got %q, want [XFv3]", now)
	}
	for _, v := range rows {
		if AsOf(column(v.SysStart), column(v.SysEnd), "10:04:59", compareTestValue) {
			t.Errorf("system 10:04:59 sees %v; the table was empty", formatBiVersions([]BiVersion{v}))
		}
	}
}

func TestSpecBitemporalSmallExample(t *testing.T) {
	r := testRules(0)
	events := specEvents(t, readSpecTable(t, "bitemporal-small-events", "id", "x", "y", "business_time", "system_time"))
	want := readSpecTable(t, "bitemporal-small", "id", "x", "y", "__START_AT", "__END_AT", "__SYSTEM_START_AT", "__SYSTEM_END_AT").lines()
	for _, arrival := range [][]Event{events, {events[1], events[0]}} {
		history, err := r.Merge(nil, arrival)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := r.ReplayBitemporal(history)
		if err != nil {
			t.Fatal(err)
		}
		sameLines(t, "small example", formatBiVersions(rows), want)
	}
}
