package temporal

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Property tests: random flows and events, given to Merge in random arrival
// order and batches, replayed, and compared with reference models written
// here from the spec's definitions, independently of the implementation:
//
//   - SCD TYPE 1: every event of every key and every truncate, applied one at
//     a time in sequence order to a map (a truncate empties it);
//   - SCD TYPE 2: the SCD TYPE 1 row after each event of the key, cut into
//     runs where the row exists and its tracked columns do not change;
//   - BITEMPORAL: B(s) computed from scratch for every system time s, and
//     system periods read off the sequence of B(s).
//
// Each case has its own seed. To rerun a failing case:
//
//	go test ./temporal -run TestPropertyX -seed=<case seed> -cases=1
//
// (or TEMPORAL_SEED / TEMPORAL_CASES in the environment).

var (
	seedFlag  = flag.Int64("seed", 0, "first case seed of the property tests (0: from the clock; env TEMPORAL_SEED)")
	casesFlag = flag.Int("cases", 0, "cases per property test (0: the default; env TEMPORAL_CASES)")
)

const defaultCases = 10000

func propertyCases(t *testing.T) (firstSeed int64, cases int) {
	firstSeed, cases = *seedFlag, *casesFlag
	if v := os.Getenv("TEMPORAL_SEED"); firstSeed == 0 && v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("TEMPORAL_SEED=%q: %v", v, err)
		}
		firstSeed = n
	}
	if v := os.Getenv("TEMPORAL_CASES"); cases == 0 && v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("TEMPORAL_CASES=%q: %v", v, err)
		}
		cases = n
	}
	if firstSeed == 0 {
		firstSeed = time.Now().UnixNano() & 0x7fff_ffff_ffff
	}
	if cases == 0 {
		cases = defaultCases
		if testing.Short() {
			cases /= 10
		}
	}
	t.Logf("seeds %d..%d (rerun one case: -seed=<seed> -cases=1)", firstSeed, firstSeed+int64(cases)-1)
	return firstSeed, cases
}

type flowKind int

const (
	scd1 flowKind = iota
	scd2
	bitemporal
)

// flowCase is one random flow with its events.
type flowCase struct {
	kind      flowKind
	width     int    // data columns, keys first
	keyWidth  int    // KEYS columns: 0..keyWidth-1
	ignore    []bool // IGNORE NULL UPDATES, per column
	tracked   []bool // TRACK HISTORY ON, per column
	systemRev bool   // system sequence values order backwards
	rules     Rules

	keys      [][]any             // the key tuples
	events    map[int][]Event     // per key: the distinct events, the truth
	arrivals  map[int][][]arrival // per key: the batches Merge receives
	truncates []Seq               // SCD TYPE 1 truncate marks, in arrival order
	conflict  map[int]Event       // per key: the event injected to conflict with one of events
}

type arrival struct {
	event       Event
	conflicting bool // the injected conflicting event
}

// reference comparators, written out here rather than built with
// Lexicographic, so the reference does not share the code under test.
func referenceCompare(a, b Seq) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := cmp.Compare(a[i].(int64), b[i].(int64)); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

func (c *flowCase) referenceSystemCompare(a, b Seq) int {
	if c.systemRev {
		return -cmp.Compare(a[0].(int64), b[0].(int64))
	}
	return cmp.Compare(a[0].(int64), b[0].(int64))
}

var valueDomain = []any{nil, "a", "b", "c"}

func newFlowCase(rng *rand.Rand, kind flowKind) *flowCase {
	c := &flowCase{kind: kind, keyWidth: 1 + rng.IntN(2)}
	c.width = c.keyWidth + 1 + rng.IntN(3)
	structSeq := rng.IntN(3) == 0
	c.systemRev = kind == bitemporal && rng.IntN(2) == 0

	c.rules = Rules{Compare: Lexicographic(compareTestValue), Equal: equalTestValue}
	var keyCols []int
	for i := range c.keyWidth {
		keyCols = append(keyCols, i)
	}
	c.rules.KeyColumns = ColumnsAt(keyCols...)
	c.ignore = make([]bool, c.width)
	if rng.IntN(5) < 2 {
		var cols []int
		for i := c.keyWidth; i < c.width; i++ {
			if rng.IntN(2) == 0 {
				c.ignore[i] = true
				cols = append(cols, i)
			}
		}
		c.rules.IgnoreNullUpdates = ColumnsAt(cols...)
	}
	c.tracked = make([]bool, c.width)
	if kind != scd1 && rng.IntN(5) < 2 {
		var cols []int
		for i := range c.width {
			if rng.IntN(2) == 0 {
				c.tracked[i] = true
				cols = append(cols, i)
			}
		}
		c.rules.TrackHistory = ColumnsAt(cols...)
	} else {
		for i := range c.tracked {
			c.tracked[i] = true
		}
	}
	if c.systemRev {
		c.rules.CompareSystem = func(a, b Seq) int { return -Lexicographic(compareTestValue)(a, b) }
	}
	partialUpdates := rng.IntN(5) < 2
	// Mostly small histories, where ties and collisions are frequent;
	// sometimes long ones, where a change ripples far along the timeline.
	maxEvents, seqRange, systemRange := 10, 12, 8
	if rng.IntN(10) == 0 {
		maxEvents, seqRange, systemRange = 40, 40, 20
	}

	newSeq := func() Seq {
		if structSeq {
			return Seq{int64(rng.IntN(seqRange / 2)), int64(rng.IntN(3))}
		}
		return Seq{int64(rng.IntN(seqRange))}
	}
	randomValues := func(key []any) []any {
		values := make([]any, c.width)
		copy(values, key)
		for i := c.keyWidth; i < c.width; i++ {
			values[i] = valueDomain[rng.IntN(len(valueDomain))]
		}
		return values
	}

	c.events = map[int][]Event{}
	c.arrivals = map[int][][]arrival{}
	c.conflict = map[int]Event{}
	nkeys := 1 + rng.IntN(4)
	for k := range nkeys {
		key := []any{int64(k)}
		if c.keyWidth == 2 {
			key = []any{int64(k / 2), []string{"a", "b"}[k%2]}
		}
		c.keys = append(c.keys, key)

		seen := map[string]bool{}
		var events []Event
		for range rng.IntN(maxEvents + 1) {
			e := Event{Seq: newSeq(), Values: randomValues(key)}
			if kind == bitemporal {
				e.SysSeq = Seq{int64(rng.IntN(systemRange))}
			}
			id := fmt.Sprint(e.Seq, e.SysSeq)
			if seen[id] {
				continue
			}
			seen[id] = true
			if rng.IntN(4) == 0 {
				e.Kind = Delete
			}
			if partialUpdates && rng.IntN(2) == 0 {
				e.Writes = make(ColumnSet, c.width)
				for i := range e.Writes {
					e.Writes[i] = rng.IntN(2) == 0
				}
			}
			events = append(events, e)
		}
		c.events[k] = events

		// Arrivals: every event, some several times (a retry may differ
		// where it cannot reach the target: a delete's values, an upsert's
		// unwritten columns), maybe one conflicting event.
		var arriving []arrival
		for _, e := range events {
			arriving = append(arriving, arrival{event: e})
			for rng.IntN(4) == 0 {
				arriving = append(arriving, arrival{event: c.retryOf(rng, e)})
			}
		}
		if len(events) > 0 && rng.IntN(12) == 0 {
			other := c.conflictingWith(rng, events[rng.IntN(len(events))])
			c.conflict[k] = other
			arriving = append(arriving, arrival{event: other, conflicting: true})
		}
		rng.Shuffle(len(arriving), func(i, j int) { arriving[i], arriving[j] = arriving[j], arriving[i] })
		var batches [][]arrival
		for len(arriving) > 0 {
			n := min(len(arriving), 1+rng.IntN(4))
			batches = append(batches, arriving[:n])
			arriving = arriving[n:]
		}
		c.arrivals[k] = batches
	}
	if kind == scd1 && rng.IntN(5) < 2 {
		for range 1 + rng.IntN(2) {
			c.truncates = append(c.truncates, newSeq())
		}
	}
	return c
}

// retryOf returns an event with the same effect as e.
func (c *flowCase) retryOf(rng *rand.Rand, e Event) Event {
	retry := e
	retry.Values = slices.Clone(e.Values)
	for i := c.keyWidth; i < c.width; i++ {
		if e.Kind == Delete || (e.Writes != nil && !e.Writes[i]) {
			retry.Values[i] = valueDomain[rng.IntN(len(valueDomain))]
		}
	}
	return retry
}

// conflictingWith returns an event with e's sequence values and another
// effect: another kind, or another value in a column it writes.
func (c *flowCase) conflictingWith(rng *rand.Rand, e Event) Event {
	other := e
	other.Values = slices.Clone(e.Values)
	var written []int
	for i := c.keyWidth; i < c.width; i++ {
		if e.Writes == nil || e.Writes[i] {
			written = append(written, i)
		}
	}
	if e.Kind == Delete || len(written) == 0 || rng.IntN(3) == 0 {
		other.Kind = 1 - e.Kind
		return other
	}
	col := written[rng.IntN(len(written))]
	for other.Values[col] == e.Values[col] {
		other.Values[col] = valueDomain[rng.IntN(len(valueDomain))]
	}
	return other
}

// mergeArrivals builds a key's history from its batches, checking Merge's
// guarantees after each: sorted, one event per sequence value, nothing lost,
// a conflict refused exactly when both of its events have arrived.
func (c *flowCase) mergeArrivals(t *testing.T, k int) (history []Event, refused bool) {
	t.Helper()
	other, hasConflict := c.conflict[k]
	distinct := map[string]bool{}
	var originalArrived, otherArrived bool
	for _, batch := range c.arrivals[k] {
		var events []Event
		for _, a := range batch {
			events = append(events, a.event)
			distinct[c.identity(a.event)] = true
			switch {
			case a.conflicting:
				otherArrived = true
			case hasConflict && c.identity(a.event) == c.identity(other):
				originalArrived = true
			}
		}
		next, err := c.rules.Merge(history, events)
		if originalArrived && otherArrived {
			var ce *ConflictError
			if !errors.As(err, &ce) {
				t.Fatalf("key %v: conflicting events at %v/%v merged without error (err %v)", c.keys[k], other.Seq, other.SysSeq, err)
			}
			if c.identity(ce.Existing) != c.identity(other) || c.identity(ce.Incoming) != c.identity(other) ||
				fmt.Sprint(ce.Seq, ce.SysSeq) != c.identity(other) ||
				!slices.Equal(formatValues(ce.Key), formatValues(c.keys[k])) {
				t.Fatalf("key %v: ConflictError names key %v at %v/%v, want %v/%v",
					c.keys[k], ce.Key, ce.Seq, ce.SysSeq, other.Seq, other.SysSeq)
			}
			if !strings.Contains(ce.Error(), other.Seq.String()) {
				t.Fatalf("ConflictError message %q does not name sequence value %v", ce.Error(), other.Seq)
			}
			return nil, true
		}
		if err != nil {
			t.Fatalf("key %v: Merge: %v", c.keys[k], err)
		}
		for i := 1; i < len(next); i++ {
			if c.compareIdentity(next[i-1], next[i]) >= 0 {
				t.Fatalf("key %v: Merge result not strictly sorted at %d: %v", c.keys[k], i, next)
			}
		}
		if len(next) != len(distinct) {
			t.Fatalf("key %v: Merge kept %d events, %d distinct ones arrived", c.keys[k], len(next), len(distinct))
		}
		history = next
	}
	if hasConflict {
		t.Fatalf("key %v: conflict at %v never refused", c.keys[k], other.Seq)
	}
	// Every event again: all retries, nothing changes.
	var all []Event
	for _, batch := range c.arrivals[k] {
		for _, a := range batch {
			all = append(all, a.event)
		}
	}
	again, err := c.rules.Merge(history, all)
	if err != nil || len(again) != len(history) {
		t.Fatalf("key %v: merging the history's own events again: %d events, err %v", c.keys[k], len(again), err)
	}
	return history, false
}

func (c *flowCase) identity(e Event) string { return fmt.Sprint(e.Seq, e.SysSeq) }

func (c *flowCase) compareIdentity(a, b Event) int {
	if x := referenceCompare(a.Seq, b.Seq); x != 0 || a.SysSeq == nil {
		return x
	}
	return c.referenceSystemCompare(a.SysSeq, b.SysSeq)
}

func formatValues(values []any) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = fmt.Sprintf("%#v", v)
	}
	return out
}

// referenceUpsert is the spec's partial update, one column at a time.
func (c *flowCase) referenceUpsert(row []any, e Event) []any {
	next := make([]any, c.width)
	copy(next, row) // nil row: every column starts NULL
	for col := range c.width {
		isKey := col < c.keyWidth
		written := isKey || e.Writes == nil || e.Writes[col]
		if !written {
			continue
		}
		if e.Values[col] == nil && !isKey && c.ignore[col] {
			continue
		}
		next[col] = e.Values[col]
	}
	return next
}

func runProperty(t *testing.T, kind flowKind, check func(t *testing.T, c *flowCase)) {
	firstSeed, cases := propertyCases(t)
	for i := range cases {
		caseSeed := firstSeed + int64(i)
		rng := rand.New(rand.NewPCG(uint64(caseSeed), 0x7e3a))
		c := newFlowCase(rng, kind)
		ok := t.Run(strconv.FormatInt(caseSeed, 10), func(t *testing.T) { check(t, c) })
		if !ok {
			t.Fatalf("case seed %d failed; rerun: go test ./temporal -run '%s' -seed=%d -cases=1",
				caseSeed, t.Name(), caseSeed)
		}
	}
}

func TestPropertySCD1(t *testing.T) {
	runProperty(t, scd1, func(t *testing.T, c *flowCase) {
		// Reference: the whole flow, one event at a time in sequence order;
		// a truncate comes before events of its own sequence value and
		// empties the table.
		type step struct {
			seq      Seq
			truncate bool
			key      int
			event    Event
		}
		var steps []step
		for k := range c.keys {
			for _, e := range c.events[k] {
				steps = append(steps, step{seq: e.Seq, key: k, event: e})
			}
		}
		for _, s := range c.truncates {
			steps = append(steps, step{seq: s, truncate: true})
		}
		slices.SortStableFunc(steps, func(a, b step) int {
			if x := referenceCompare(a.seq, b.seq); x != 0 {
				return x
			}
			switch {
			case a.truncate && !b.truncate:
				return -1
			case b.truncate && !a.truncate:
				return 1
			}
			return 0
		})
		table := map[int][]any{}
		for _, s := range steps {
			switch {
			case s.truncate:
				clear(table)
			case s.event.Kind == Delete:
				delete(table, s.key)
			default:
				table[s.key] = c.referenceUpsert(table[s.key], s.event)
			}
		}

		var mark Seq
		for _, s := range c.truncates {
			mark = c.rules.LaterTruncateMark(mark, s)
		}
		for k := range c.keys {
			history, refused := c.mergeArrivals(t, k)
			if refused {
				continue
			}
			row, exists, err := c.rules.ReplaySCD1(history, mark)
			if err != nil {
				t.Fatal(err)
			}
			want, wantExists := table[k]
			if exists != wantExists || !slices.Equal(formatValues(row), formatValues(want)) {
				t.Fatalf("key %v (truncate mark %v): got %v (exists %v), want %v (exists %v)\nevents %v",
					c.keys[k], mark, row, exists, want, wantExists, c.events[k])
			}
			if exists && !c.rules.SurvivesTruncate(history[len(history)-1].Seq, mark) {
				t.Fatalf("key %v has a row but its latest event %v does not survive mark %v",
					c.keys[k], history[len(history)-1].Seq, mark)
			}
		}
	})
}

// referenceSCD2 cuts the key's SCD TYPE 1 timeline — the row after each
// event, nil when the key has none — into versions: maximal runs of events
// after which the row exists with the same tracked columns. A version starts
// at its run's first event, ends at the event after the run, and holds the
// row after its run's last event (changes to untracked columns land in place).
func (c *flowCase) referenceSCD2(events []Event) []Version {
	sorted := slices.Clone(events)
	slices.SortFunc(sorted, func(a, b Event) int { return referenceCompare(a.Seq, b.Seq) })
	rows := make([][]any, len(sorted))
	var row []any
	for i, e := range sorted {
		if e.Kind == Delete {
			row = nil
		} else {
			row = c.referenceUpsert(row, e)
		}
		rows[i] = row
	}
	sameTracked := func(a, b []any) bool {
		for col := range c.width {
			if c.tracked[col] && fmt.Sprintf("%#v", a[col]) != fmt.Sprintf("%#v", b[col]) {
				return false
			}
		}
		return true
	}
	var versions []Version
	for i := 0; i < len(sorted); {
		if rows[i] == nil {
			i++
			continue
		}
		j := i + 1
		for j < len(sorted) && rows[j] != nil && sameTracked(rows[i], rows[j]) {
			j++
		}
		v := Version{Values: rows[j-1], Start: sorted[i].Seq}
		if j < len(sorted) {
			v.End = sorted[j].Seq
		}
		versions = append(versions, v)
		i = j
	}
	return versions
}

func TestPropertySCD2(t *testing.T) {
	runProperty(t, scd2, func(t *testing.T, c *flowCase) {
		for k := range c.keys {
			history, refused := c.mergeArrivals(t, k)
			if refused {
				continue
			}
			got, err := c.rules.ReplaySCD2(history)
			if err != nil {
				t.Fatal(err)
			}
			want := c.referenceSCD2(c.events[k])
			if g, w := formatVersions(got), formatVersions(want); !slices.Equal(g, w) {
				t.Fatalf("key %v:\ngot  %q\nwant %q\nevents %v", c.keys[k], g, w, c.events[k])
			}
		}
	})
}

// referenceBitemporal computes B(s) from scratch for every system time s at
// which the key has events, and gives each row of B one system period per
// run of consecutive system times it is in B.
func (c *flowCase) referenceBitemporal(events []Event) []BiVersion {
	var systemTimes []Seq
	for _, e := range events {
		if !slices.ContainsFunc(systemTimes, func(s Seq) bool { return c.referenceSystemCompare(s, e.SysSeq) == 0 }) {
			systemTimes = append(systemTimes, e.SysSeq)
		}
	}
	slices.SortFunc(systemTimes, c.referenceSystemCompare)

	rowID := func(v Version) string { return strings.Join(formatVersions([]Version{v}), "") }
	var done []BiVersion
	open := map[string]BiVersion{} // rows of the previous B(s), by identity
	for _, s := range systemTimes {
		// Of the events known at s, the latest-known one per business time.
		var effective []Event
		for _, e := range events {
			if c.referenceSystemCompare(e.SysSeq, s) > 0 {
				continue
			}
			i := slices.IndexFunc(effective, func(x Event) bool { return referenceCompare(x.Seq, e.Seq) == 0 })
			switch {
			case i < 0:
				effective = append(effective, e)
			case c.referenceSystemCompare(e.SysSeq, effective[i].SysSeq) > 0:
				effective[i] = e
			}
		}
		next := map[string]BiVersion{}
		for _, v := range c.referenceSCD2(effective) {
			id := rowID(v)
			if prev, ok := open[id]; ok {
				next[id] = prev
			} else {
				next[id] = BiVersion{Values: v.Values, Start: v.Start, End: v.End, SysStart: s}
			}
		}
		for id, prev := range open {
			if _, ok := next[id]; !ok {
				prev.SysEnd = s
				done = append(done, prev)
			}
		}
		open = next
	}
	for _, v := range open {
		done = append(done, v)
	}
	return done
}

func TestPropertyBitemporal(t *testing.T) {
	runProperty(t, bitemporal, func(t *testing.T, c *flowCase) {
		for k := range c.keys {
			history, refused := c.mergeArrivals(t, k)
			if refused {
				continue
			}
			got, err := c.rules.ReplayBitemporal(history)
			if err != nil {
				t.Fatal(err)
			}
			want := c.referenceBitemporal(c.events[k])
			g, w := formatBiVersions(got), formatBiVersions(want)
			slices.Sort(w)
			sortedGot := slices.Clone(g)
			slices.Sort(sortedGot)
			if !slices.Equal(sortedGot, w) {
				t.Fatalf("key %v (system order reversed: %v):\ngot\n  %s\nwant\n  %s\nevents %v",
					c.keys[k], c.systemRev, strings.Join(g, "\n  "), strings.Join(w, "\n  "), c.events[k])
			}
			for i := 1; i < len(got); i++ {
				a, b := got[i-1], got[i]
				order := referenceCompare(a.Start, b.Start)
				if order == 0 {
					order = c.referenceSystemCompare(a.SysStart, b.SysStart)
				}
				if order >= 0 {
					t.Fatalf("key %v: rows %d and %d not in (business start, system start) order:\n  %s", c.keys[k], i-1, i, strings.Join(g, "\n  "))
				}
			}
		}
	})
}
