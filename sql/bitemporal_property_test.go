package sql_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"cdcdb/sql/sqltest"
)

// biEvent is one event of a random bitemporal stream.
type biEvent struct {
	key    int
	val    string // "" with op D
	bt, st int
	op     string // "U" or "D"
}

// biRow is one row of a BITEMPORAL target.
type biRow struct {
	key                        int
	val                        string
	bstart, bend, sstart, send string // "NULL" for open
}

func (r biRow) String() string {
	return fmt.Sprintf("%d|%s|%s|%s|%s|%s", r.key, r.val, r.bstart, r.bend, r.sstart, r.send)
}

// biVersion is a row of a business timeline B(s).
type biVersion struct {
	val          string
	bstart, bend string
}

// timelineAt computes B(s) by brute force: the SCD TYPE 2 history of the
// key's events with system time <= s, in business order, where of several
// events at one business time the one with the latest system time counts.
func timelineAt(events []biEvent, s int) []biVersion {
	latest := map[int]biEvent{}
	for _, e := range events {
		if e.st > s {
			continue
		}
		if cur, ok := latest[e.bt]; !ok || e.st > cur.st {
			latest[e.bt] = e
		}
	}
	var bts []int
	for bt := range latest {
		bts = append(bts, bt)
	}
	sort.Ints(bts)
	var out []biVersion
	open := -1
	for _, bt := range bts {
		e := latest[bt]
		switch e.op {
		case "D":
			if open >= 0 {
				out[open].bend = strconv.Itoa(bt)
				open = -1
			}
		case "U":
			if open >= 0 && out[open].val == e.val {
				continue
			}
			if open >= 0 {
				out[open].bend = strconv.Itoa(bt)
			}
			out = append(out, biVersion{val: e.val, bstart: strconv.Itoa(bt), bend: "NULL"})
			open = len(out) - 1
		}
	}
	return out
}

// biReference derives the target rows: each row of some B(s) with the
// system period [first s it is in, first later s it is not).
func biReference(events []biEvent) []string {
	byKey := map[int][]biEvent{}
	for _, e := range events {
		byKey[e.key] = append(byKey[e.key], e)
	}
	var out []string
	for key, evs := range byKey {
		var systemTimes []int
		seen := map[int]bool{}
		for _, e := range evs {
			if !seen[e.st] {
				seen[e.st] = true
				systemTimes = append(systemTimes, e.st)
			}
		}
		sort.Ints(systemTimes)
		openSince := map[biVersion]int{}
		for _, s := range systemTimes {
			now := map[biVersion]bool{}
			for _, v := range timelineAt(evs, s) {
				now[v] = true
				if _, ok := openSince[v]; !ok {
					openSince[v] = s
				}
			}
			for v, since := range openSince {
				if !now[v] {
					out = append(out, biRow{key, v.val, v.bstart, v.bend, strconv.Itoa(since), strconv.Itoa(s)}.String())
					delete(openSince, v)
				}
			}
		}
		for v, since := range openSince {
			out = append(out, biRow{key, v.val, v.bstart, v.bend, strconv.Itoa(since), "NULL"}.String())
		}
	}
	sort.Strings(out)
	return out
}

func randomBiEvents(rng *rand.Rand) []biEvent {
	nkeys := 1 + rng.IntN(3)
	n := 1 + rng.IntN(10)
	used := map[string]bool{}
	var events []biEvent
	for len(events) < n {
		e := biEvent{key: rng.IntN(nkeys), bt: rng.IntN(8), st: 10 + rng.IntN(8), op: "U"}
		id := fmt.Sprintf("%d/%d/%d", e.key, e.bt, e.st)
		if used[id] {
			continue
		}
		used[id] = true
		if rng.IntN(5) == 0 {
			e.op = "D"
		} else {
			e.val = []string{"p", "q", "r"}[rng.IntN(3)]
		}
		events = append(events, e)
	}
	for i := rng.IntN(2); i > 0; i-- {
		events = append(events, events[rng.IntN(len(events))]) // identical retry
	}
	return events
}

// TestFlowPropertyBitemporal applies random bitemporal streams (equal
// business times, late system times, deletes, retries) in random order and
// batches, and compares the target with the brute-force definition.
func TestFlowPropertyBitemporal(t *testing.T) {
	seed := propertySeed(t)
	cases := 1500
	if *flowCases > 0 {
		cases = *flowCases
	}
	if testing.Short() {
		cases /= 10
	}
	t.Logf("seed %d (rerun with -flowseed=%d), %d cases", seed, seed, cases)
	rng := rand.New(rand.NewPCG(seed, 5))
	c := sqltest.Open(t).Conn()
	for i := 0; i < cases; i++ {
		events := randomBiEvents(rng)
		name := fmt.Sprintf("b%d", i)
		c.MustExec(fmt.Sprintf("CREATE TABLE %s_src (k int, v text, bt int, st int, op text)", name))
		c.MustExec("CREATE STREAMING TABLE " + name)
		perm := rng.Perm(len(events))
		if rng.IntN(2) == 0 {
			// Mostly in order on both axes, as change events usually come:
			// what the executor continues without replaying.
			slices.SortStableFunc(perm, func(a, b int) int {
				if c := cmp.Compare(events[a].st, events[b].st); c != 0 {
					return c
				}
				return cmp.Compare(events[a].bt, events[b].bt)
			})
		}
		before := rng.IntN(len(perm) + 1)
		stmt := func(idx []int) string {
			var vals []string
			for _, p := range idx {
				e := events[p]
				v := "NULL"
				if e.val != "" {
					v = "'" + e.val + "'"
				}
				vals = append(vals, fmt.Sprintf("(%d, %s, %d, %d, '%s')", e.key, v, e.bt, e.st, e.op))
			}
			return fmt.Sprintf("INSERT INTO %s_src VALUES %s", name, strings.Join(vals, ", "))
		}
		insert := func(idx []int) {
			if len(idx) > 0 {
				c.MustExec(stmt(idx))
			}
		}
		insert(perm[:before])
		c.MustExec(fmt.Sprintf("CREATE FLOW %s_f AS AUTO CDC INTO %s FROM %s_src KEYS (k) APPLY AS DELETE WHEN op = 'D' "+
			"SEQUENCE BY bt SYSTEM SEQUENCE BY st COLUMNS k, v STORED AS BITEMPORAL", name, name, name))
		// As in the SCD property tests, some batches first leave no trace
		// (a rolled-back block, a refused statement) and are then dropped
		// from the reference or sent again later, and some are split across
		// one block's statements.
		applied := slices.Clone(events)
		drop := func(idx []int) {
			for _, p := range idx {
				if j := slices.Index(applied, events[p]); j >= 0 {
					applied = slices.Delete(applied, j, j+1)
				}
			}
		}
		var batches [][]int
		for rest := perm[before:]; len(rest) > 0; {
			size := min(1+rng.IntN(3), len(rest))
			batches = append(batches, rest[:size])
			rest = rest[size:]
		}
		for tries := 0; len(batches) > 0; tries++ {
			b := batches[0]
			batches = batches[1:]
			switch r := rng.IntN(10); {
			case r == 0:
				c.MustExec("BEGIN")
				c.MustExec(stmt(b))
				c.MustExec("ROLLBACK")
			case r == 1:
				if _, err := c.Exec(stmt(b) + ", (NULL, 'x', 1, 10, 'U')"); err == nil {
					t.Fatalf("seed %d case %d: a change event with a NULL key was accepted", seed, i)
				}
			case r == 2 && len(b) > 1:
				c.MustExec("BEGIN")
				insert(b[:1])
				insert(b[1:])
				c.MustExec("COMMIT")
				continue
			default:
				insert(b)
				continue
			}
			if rng.IntN(2) == 0 && tries < 50 {
				batches = append(batches, b)
			} else {
				drop(b)
			}
		}
		res := c.MustExec("SELECT * FROM " + name)
		var got []string
		for _, r := range res.Rows {
			got = append(got, strings.Join(r, "|"))
		}
		sort.Strings(got)
		want := biReference(applied)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("seed %d case %d events %+v (%d before the flow)\ngot\n%s\nwant\n%s", seed, i, applied, before,
				strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		c.MustExec(fmt.Sprintf("DROP TABLE %s_src CASCADE; DROP TABLE %s", name, name))
	}
}
