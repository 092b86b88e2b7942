package sql

import (
	"context"
	"fmt"
	"testing"

	"cdcdb/storage/storagetest"
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
	ctx := context.Background()
	sts, err := s.Parse(ctx, query, nil)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	p, err := sts[0].Bind(ctx, nil, nil, nil)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	if _, _, err := p.Execute(ctx, 0, discardWriter{}); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	p.Close()
	if err := s.Sync(ctx, false); err != nil {
		t.Fatal(err)
	}
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
