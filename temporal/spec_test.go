package temporal

import (
	"slices"
	"testing"
)

// The worked examples of /work/shared/spec/autocdc.md, verbatim.

// usersCDF are the source events of spec §3 and §4 (userId, name, city),
// in the order the spec lists them.
var usersCDF = []Event{
	upsert(1, 124, "Raul", "Oaxaca"),
	upsert(1, 123, "Isabel", "Monterrey"),
	upsert(2, 125, "Mercedes", "Tijuana"),
	upsert(2, 126, "Lily", "Cancun"),
	del(6, 123, nil, nil),
	upsert(6, 125, "Mercedes", "Guadalajara"),
	upsert(5, 125, "Mercedes", "Mexicali"),
	upsert(5, 123, "Isabel", "Chihuahua"),
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
	got := replaySCD1Table(t, r, usersCDF, nil)
	want := []string{
		"124 Raul Oaxaca",
		"125 Mercedes Guadalajara",
		"126 Lily Cancun",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSpecSCD1UsersTruncate3(t *testing.T) {
	r := testRules(0)
	want := []string{"125 Mercedes Guadalajara"}
	if got := replaySCD1Table(t, r, usersCDF, seq(3)); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}

	// As an executor applies it: events one statement at a time, each
	// replaying its key; the truncate, wherever it arrives, removes the rows
	// whose latest event is older than 3 (SurvivesTruncate), and events below
	// 3 arriving after it are ignored.
	for arrivedAfter := 0; arrivedAfter <= len(usersCDF); arrivedAfter++ {
		var mark Seq
		histories := map[any][]Event{}
		target := map[any][]any{}
		truncate := func() {
			mark = r.LaterTruncateMark(mark, seq(3))
			for key := range target {
				h := histories[key]
				if !r.SurvivesTruncate(h[len(h)-1].Seq, mark) {
					delete(target, key)
				}
			}
		}
		for i, e := range usersCDF {
			if i == arrivedAfter {
				truncate()
			}
			key := e.Values[0]
			h, err := r.Merge(histories[key], []Event{e})
			if err != nil {
				t.Fatal(err)
			}
			histories[key] = h
			row, exists, err := r.ReplaySCD1(h, mark)
			if err != nil {
				t.Fatal(err)
			}
			if exists {
				target[key] = row
			} else {
				delete(target, key)
			}
		}
		if arrivedAfter == len(usersCDF) {
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
	events := []Event{upsert(1, 1, "A", 20), upsert(2, 1, nil, 30)}

	r := testRules(0)
	if got := replaySCD1Table(t, r, events, nil); !slices.Equal(got, []string{"1 NULL 30"}) {
		t.Errorf("default: got %q, want [1 NULL 30]", got)
	}

	r.IgnoreNullUpdates = ColumnsAt(1) // IGNORE NULL UPDATES ON (name)
	if got := replaySCD1Table(t, r, events, nil); !slices.Equal(got, []string{"1 A 30"}) {
		t.Errorf("IGNORE NULL UPDATES ON (name): got %q, want [1 A 30]", got)
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
	got := replaySCD2Table(t, testRules(0), usersCDF)
	want := []string{
		"123 Isabel Monterrey 1 5",
		"123 Isabel Chihuahua 5 6",
		"124 Raul Oaxaca 1 NULL",
		"125 Mercedes Tijuana 2 5",
		"125 Mercedes Mexicali 5 6",
		"125 Mercedes Guadalajara 6 NULL",
		"126 Lily Cancun 2 NULL",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestSpecSCD2UsersTrackHistoryExceptCity(t *testing.T) {
	r := testRules(0)
	r.TrackHistory = ColumnsAt(0, 1) // TRACK HISTORY ON * EXCEPT (city)
	got := replaySCD2Table(t, r, usersCDF)
	want := []string{
		"123 Isabel Chihuahua 1 6",
		"124 Raul Oaxaca 1 NULL",
		"125 Mercedes Guadalajara 2 NULL",
		"126 Lily Cancun 2 NULL",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// bitemporalEvent is an event of the §5 walk-through: (CompanyId, DataPoint)
// at business time bt and system time st.
func bitemporalEvent(kind Kind, company, dataPoint string, bt, st string) Event {
	return Event{Seq: seq(bt), SysSeq: seq(st), Kind: kind, Values: []any{company, dataPoint}}
}

func TestSpecBitemporalWalkThrough(t *testing.T) {
	r := testRules(0)
	steps := []struct {
		event Event
		want  []string
	}{
		{
			bitemporalEvent(Upsert, "A", "XFv1", "10:01:00", "10:05:00"),
			[]string{
				"A XFv1 10:01:00 NULL 10:05:00 NULL",
			},
		},
		{
			bitemporalEvent(Upsert, "A", "XFv2", "12:15:43", "12:20:00"),
			[]string{
				"A XFv1 10:01:00 NULL 10:05:00 12:20:00",
				"A XFv1 10:01:00 12:15:43 12:20:00 NULL",
				"A XFv2 12:15:43 NULL 12:20:00 NULL",
			},
		},
		{
			bitemporalEvent(Upsert, "A", "XFv3", "12:05:00", "12:25:00"),
			[]string{
				"A XFv1 10:01:00 NULL 10:05:00 12:20:00",
				"A XFv1 10:01:00 12:15:43 12:20:00 12:25:00",
				"A XFv1 10:01:00 12:05:00 12:25:00 NULL",
				"A XFv3 12:05:00 12:15:43 12:25:00 NULL",
				"A XFv2 12:15:43 NULL 12:20:00 NULL",
			},
		},
		{
			bitemporalEvent(Delete, "A", "XFv2", "12:30:00", "12:30:00"),
			[]string{
				"A XFv1 10:01:00 NULL 10:05:00 12:20:00",
				"A XFv1 10:01:00 12:15:43 12:20:00 12:25:00",
				"A XFv1 10:01:00 12:05:00 12:25:00 NULL",
				"A XFv3 12:05:00 12:15:43 12:25:00 NULL",
				"A XFv2 12:15:43 NULL 12:20:00 12:30:00",
				"A XFv2 12:15:43 12:30:00 12:30:00 NULL",
			},
		},
	}
	var history []Event
	for i, step := range steps {
		var err error
		if history, err = r.Merge(history, []Event{step.event}); err != nil {
			t.Fatalf("step %d: Merge: %v", i+1, err)
		}
		rows, err := r.ReplayBitemporal(history)
		if err != nil {
			t.Fatalf("step %d: ReplayBitemporal: %v", i+1, err)
		}
		got := formatBiVersions(rows)
		sameLines(t, "step "+string(rune('1'+i)), got, step.want)
		// The spec lists the rows in the order the result promises:
		// business start, then system start.
		if !slices.Equal(got, step.want) {
			t.Errorf("step %d: order\n%q\nwant\n%q", i+1, got, step.want)
		}
	}

	// The same four events arriving all at once, and in reverse, give the
	// final table: the result depends on the events, not their arrival.
	final := steps[len(steps)-1].want
	for _, arrival := range [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 0, 3, 1}} {
		var batch []Event
		for _, i := range arrival {
			batch = append(batch, steps[i].event)
		}
		h, err := r.Merge(nil, batch)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := r.ReplayBitemporal(h)
		if err != nil {
			t.Fatal(err)
		}
		sameLines(t, "all events in one batch", formatBiVersions(rows), final)
	}
}

// TestSpecBitemporalReadingHistory checks the closing sentences of spec §6
// with the period predicates: at system time 12:22 the value for business
// time 12:10 was XFv1; today it is XFv3; at 10:04:59 the table was empty.
func TestSpecBitemporalReadingHistory(t *testing.T) {
	r := testRules(0)
	history, err := r.Merge(nil, []Event{
		bitemporalEvent(Upsert, "A", "XFv1", "10:01:00", "10:05:00"),
		bitemporalEvent(Upsert, "A", "XFv2", "12:15:43", "12:20:00"),
		bitemporalEvent(Upsert, "A", "XFv3", "12:05:00", "12:25:00"),
		bitemporalEvent(Delete, "A", "XFv2", "12:30:00", "12:30:00"),
	})
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
	events := []Event{
		{Seq: seq(10), SysSeq: seq(100), Values: []any{1, "x10", "y10"}},
		{Seq: seq(20), SysSeq: seq(200), Values: []any{1, "x20", "y20"}},
	}
	want := []string{
		"1 x10 y10 10 NULL 100 200",
		"1 x10 y10 10 20 200 NULL",
		"1 x20 y20 20 NULL 200 NULL",
	}
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
