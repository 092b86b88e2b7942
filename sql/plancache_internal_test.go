package sql

import (
	"context"
	"fmt"
	"testing"

	"cdcdb/sql/eval"
	"cdcdb/storage/storagetest"
	"cdcdb/types"
	"cdcdb/wire"
)

func newInternalSession(t *testing.T) *Session {
	t.Helper()
	e, err := NewEngine(storagetest.Open(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := e.NewSession(context.Background(), wire.StartupInfo{User: "cdcdb"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ws.Close)
	return ws.(*Session)
}

// plannedOnce parses a text and returns the plan its statement got.
func plannedOnce(t *testing.T, s *Session, query string) *compiled {
	t.Helper()
	sts, err := s.Parse(context.Background(), query, nil)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	if err := s.Sync(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	return sts[0].(*preparedStatement).c
}

func runText(t *testing.T, s *Session, query string) {
	t.Helper()
	closeAndSync(t, s, executePortal(t, s, query, 0))
}

// TestPlanCacheReusesPlans checks that the cache is used at all: the
// behavioural tests in plancache_test.go pass just as well without it.
func TestPlanCacheReusesPlans(t *testing.T) {
	s := newInternalSession(t)
	runText(t, s, "CREATE TABLE t (a int)")
	const q = "SELECT a FROM t WHERE a = 1"
	first := plannedOnce(t, s, q)
	if again := plannedOnce(t, s, q); again != first {
		t.Error("the same text was planned twice")
	}
	if other := plannedOnce(t, s, q+" "); other == first {
		t.Error("a different text got the same plan")
	}
	// Statements other than queries are planned each time.
	runText(t, s, "SET search_path = public")
	ins := plannedOnce(t, s, "INSERT INTO t VALUES (1)")
	if plannedOnce(t, s, "INSERT INTO t VALUES (1)") == ins {
		t.Error("an INSERT plan was cached")
	}
	if plannedOnce(t, s, q) == first {
		t.Error("the plan survived a SET search_path")
	}
	first = plannedOnce(t, s, q)
	runText(t, s, "DISCARD PLANS")
	if plannedOnce(t, s, q) == first {
		t.Error("the plan survived DISCARD PLANS")
	}
}

// TestPlanCacheKeepsNoPlanThatReadTheClock checks the plans themselves
// (plancache_test.go has the behaviour): a literal read as the current
// time keeps its plan out of the cache, by text and as a generic plan; any
// other literal of a date/time type does not.
func TestPlanCacheKeepsNoPlanThatReadTheClock(t *testing.T) {
	s := newInternalSession(t)
	runText(t, s, "CREATE TABLE t (a int, d date, ts timestamp, tz timestamptz)")
	for _, c := range []struct {
		query string
		clock bool
	}{
		{"SELECT 'now'::timestamptz", true},
		{"SELECT CAST('today' AS date)", true},
		{"SELECT 'now'::time", true},
		{"SELECT date 'yesterday'", true},
		{"SELECT '{epoch,tomorrow}'::timestamp[]", true},
		{"SELECT a FROM t WHERE d = 'tomorrow'", true},
		{"SELECT a FROM t WHERE ts < 'now' AND a > 0", true},
		{"SELECT a FROM t WHERE tz BETWEEN 'yesterday' AND 'tomorrow'", true},
		{"SELECT a FROM t FOR SYSTEM_TIME AS OF 'now'", true},
		{"SELECT 'now'", false},
		{"SELECT 'now'::text", false},
		{"SELECT 'epoch'::timestamptz, 'infinity'::date, '-infinity'::timestamp", false},
		{"SELECT '{epoch,2024-01-01}'::timestamp[]", false},
		{"SELECT 'allballs'::time", false},
		{"SELECT a FROM t WHERE d > '2024-01-01' AND tz < '2024-01-01 12:00+02'", false},
		{"SELECT a FROM t FOR SYSTEM_TIME AS OF '2024-01-01'", false},
		{"SELECT now(), current_date", false},
	} {
		first := plannedOnce(t, s, c.query)
		if first.readsClock != c.clock {
			t.Errorf("%s: readsClock %v, want %v", c.query, first.readsClock, c.clock)
		}
		if cached := plannedOnce(t, s, c.query) == first; cached == c.clock {
			t.Errorf("%s: cached %v, want %v", c.query, cached, !c.clock)
		}
	}
	// Numbered texts: seen once, twice (the generic plan is made, or not),
	// then served by it or planned as themselves.
	for _, c := range []struct {
		format string
		clock  bool
	}{
		{"SELECT a FROM t WHERE d > 'today'::date - %d", true},
		{"SELECT 'now'::timestamptz, %d", true},
		{"SELECT a FROM t WHERE d > '2024-06-01'::date - %d", false},
	} {
		var third *preparedStatement
		for _, n := range []int{1, 2, 3} {
			sts, err := s.Parse(context.Background(), fmt.Sprintf(c.format, n), nil)
			if err != nil {
				t.Fatalf("%s: %v", c.format, err)
			}
			third = sts[0].(*preparedStatement)
		}
		if generic := third.constants != nil; generic == c.clock {
			t.Errorf("%s: served by a generic plan: %v, want %v", c.format, generic, !c.clock)
		}
	}
	for _, e := range s.plans.entries {
		if e.c != nil && e.c.readsClock {
			t.Errorf("%q: a plan that read the clock is cached", e.key.text)
		}
	}
}

func TestPlanCacheEvictsLeastRecentlyUsed(t *testing.T) {
	var pc planCache
	key := func(i int) planKey { return planKey{text: fmt.Sprint(i)} }
	for i := range planCacheSize {
		pc.put(key(i), planEnv{}, parsedStmt{}, nil, &compiled{})
	}
	if _, ok := pc.get(key(0), planEnv{}); !ok { // now the newest
		t.Fatal("entry 0 missing before the cache was full")
	}
	pc.put(key(planCacheSize), planEnv{}, parsedStmt{}, nil, &compiled{})
	if _, ok := pc.get(key(1), planEnv{}); ok {
		t.Error("the least recently used entry was kept")
	}
	for _, i := range []int{0, 2, planCacheSize - 1, planCacheSize} {
		if _, ok := pc.get(key(i), planEnv{}); !ok {
			t.Errorf("entry %d was evicted", i)
		}
	}
	if len(pc.entries) != planCacheSize {
		t.Errorf("%d entries, want %d", len(pc.entries), planCacheSize)
	}
	// A hit in another environment drops the entry.
	if _, ok := pc.get(key(0), planEnv{catGen: 1}); ok {
		t.Error("entry 0 served in another environment")
	}
	if _, ok := pc.get(key(0), planEnv{}); ok {
		t.Error("entry 0 kept after a stale hit")
	}
	// The ring stays consistent through all of that.
	n := 0
	for e := pc.newest; n == 0 || e != pc.newest; e = e.older {
		if e.older.newer != e {
			t.Fatal("broken ring")
		}
		n++
	}
	if n != len(pc.entries) {
		t.Errorf("ring of %d entries, map of %d", n, len(pc.entries))
	}
}

// TestNumberedTextsShareAGenericPlan checks that the generic plan is used
// at all (the behavioural test compares answers, which it would pass
// without one), and not where it would change the meaning.
func TestNumberedTextsShareAGenericPlan(t *testing.T) {
	s := newInternalSession(t)
	runText(t, s, "CREATE TABLE t (a int, b int)")
	parsed := func(q string) *preparedStatement {
		t.Helper()
		sts, err := s.Parse(context.Background(), q, nil)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return sts[0].(*preparedStatement)
	}
	for _, c := range []struct {
		format  string
		generic bool
	}{
		{"SELECT a FROM t WHERE a = %d", true},
		{"SELECT a FROM t WHERE b < %d LIMIT 5", true},
		{"SELECT a, b, a FROM t ORDER BY %d", false},
		{"SELECT a, b, count(*) FROM t GROUP BY a, b ORDER BY %d", false},
		{"SELECT sum(a) OVER (ORDER BY a ROWS %d PRECEDING) FROM t", false},
		{"SELECT a FROM t WHERE a IN (SELECT b FROM (SELECT b, a, b AS c FROM t ORDER BY %d LIMIT 3) s)", false},
		{"SELECT a::varchar(%d) FROM t", false},
	} {
		// Seen once, then twice (the generic plan is made), then served.
		var third *preparedStatement
		for _, n := range []int{1, 2, 3} {
			third = parsed(fmt.Sprintf(c.format, n))
		}
		if got := third.constants != nil; got != c.generic {
			t.Errorf("%s: served by a generic plan: %v, want %v", c.format, got, c.generic)
		}
		if c.generic && (third.constants[0] != int64(3) || len(third.ParamTypes()) != 0) {
			t.Errorf("%s: constants %v, client parameters %v", c.format, third.constants, third.ParamTypes())
		}
	}
}

func TestSameMeaning(t *testing.T) {
	lit := &compiled{access: accessRead, fields: []outCol{{name: "a", t: eval.Int4T()}}}
	declared := []types.T{eval.Int4T()}
	same := func() *compiled {
		return &compiled{access: accessRead, fields: []outCol{{name: "a", t: eval.Int4T()}}, params: []types.T{eval.Int4T()}}
	}
	if !sameMeaning(same(), lit, declared) {
		t.Fatal("identical plans differ")
	}
	for what, change := range map[string]func(*compiled){
		"column type":    func(c *compiled) { c.fields[0].t = eval.Int8T() },
		"column name":    func(c *compiled) { c.fields[0].name = "?column?" },
		"column count":   func(c *compiled) { c.fields = append(c.fields, outCol{name: "b", t: eval.Int4T()}) },
		"table column":   func(c *compiled) { c.fields[0].tableOID = 1 },
		"notices":        func(c *compiled) { c.notices = []string{"x"} },
		"access":         func(c *compiled) { c.access = accessWrite },
		"parameter type": func(c *compiled) { c.params[0] = eval.TextT() },
		"extra parameter": func(c *compiled) {
			c.params = append(c.params, eval.TextT())
		},
	} {
		c := same()
		change(c)
		if sameMeaning(c, lit, declared) {
			t.Errorf("plans with a different %s are the same", what)
		}
	}
}
