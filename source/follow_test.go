package source

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"cdcdb/pgtests/pgserver"
)

// runner keeps one source followed: when its Follower is killed (a crash
// of cdcdb, simulated), it starts a new one on the same Sink, as cdcdb
// does when it starts again.
type runner struct {
	t    testing.TB
	cfg  Config
	sink Sink

	mu       sync.Mutex
	cur      *Follower
	kill     context.CancelFunc
	starts   int
	failed   *Status // the status of a Follower that stopped in state failed
	stopping bool
	done     chan struct{}
}

func startRunner(t testing.TB, cfg Config, sink Sink) *runner {
	t.Helper()
	r := &runner{t: t, cfg: cfg, sink: sink, done: make(chan struct{})}
	r.mu.Lock()
	err := r.startLocked()
	r.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	go r.watch()
	t.Cleanup(r.close)
	return r
}

func (r *runner) startLocked() error {
	f, err := New(r.cfg, r.sink)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cur, r.kill = f, cancel
	r.starts++
	return f.Start(ctx)
}

// watch starts a new Follower each time the current one stops, until
// close, or until one fails (which these tests treat as a bug).
func (r *runner) watch() {
	defer close(r.done)
	for {
		r.mu.Lock()
		f := r.cur
		r.mu.Unlock()
		<-f.Done()
		r.mu.Lock()
		if r.stopping {
			r.mu.Unlock()
			return
		}
		if st := f.Status(); st.State == StateFailed {
			r.failed = &st
			r.mu.Unlock()
			return
		}
		err := r.startLocked()
		r.mu.Unlock()
		if err != nil {
			panic(err) // New accepted this configuration before
		}
	}
}

// crash kills the current Follower at once, without waiting for it.
func (r *runner) crash() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.kill()
}

func (r *runner) status() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cur.Status()
}

func (r *runner) failure() *Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

func (r *runner) close() {
	r.mu.Lock()
	if r.stopping {
		r.mu.Unlock()
		return
	}
	r.stopping = true
	f := r.cur
	r.mu.Unlock()
	_ = f.Close()
	<-r.done
}

// hasXid reports whether the source holds upstream transaction xid.
func (m *modelSink) hasXid(xid uint32) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.ContainsFunc(m.state.txs, func(tx modelTx) bool { return tx.xid == xid })
}

// workloadCase is one way of running the workload against a source.
type workloadCase struct {
	name string
	// upstream gives the test its upstream; nil: the shared one.
	ownUpstream bool
	// transactions after the initial load, and the load's rows.
	transactions, loadItems, loadAccounts int
	// faults picks the Sink's fault for each commit (nil: none).
	faults func(rng *rand.Rand) func(b *Batch) fault
	// killEvery, when set, kills the Follower at random intervals up to
	// this long, for the whole run.
	killEvery time.Duration
	// chaos runs between workload transactions (upstream restarts).
	chaos func(t *testing.T, h *workloadHarness, step int)
	// userSlot: the user makes the slot, before the load, and names it.
	userSlot bool
}

// workloadHarness is what a workload test's chaos can reach.
type workloadHarness struct {
	pg     *pgserver.Postgres
	db     string
	w      *workload
	runner *runner
	sink   *modelSink
}

func TestFollowWorkload(t *testing.T) {
	cases := []workloadCase{
		{name: "clean", transactions: 300, loadItems: 600, loadAccounts: 200},
		{
			// cdcdb crashes: the Follower is killed at random moments, in
			// the snapshot and in the stream, and some Sink commits crash
			// before or after they are durable.
			name: "follower crashes", transactions: 250, loadItems: 1500, loadAccounts: 200,
			killEvery: 400 * time.Millisecond,
			faults: func(rng *rand.Rand) func(b *Batch) fault {
				return func(b *Batch) fault {
					switch rng.IntN(40) {
					case 0:
						return crashBefore
					case 1:
						return crashAfter
					}
					return noFault
				}
			},
		},
		{
			// The Sink fails commits: the Follower retries from its
			// checkpoint, without dying.
			name: "sink failures", transactions: 250, loadItems: 800, loadAccounts: 200,
			faults: func(rng *rand.Rand) func(b *Batch) fault {
				return func(b *Batch) fault {
					switch rng.IntN(20) {
					case 0:
						return failBefore
					case 1:
						return failAfter
					}
					return noFault
				}
			},
		},
		{
			// Upstream goes away: its walsender is killed, it is restarted
			// cleanly, and it crashes (immediate shutdown).
			name: "upstream restarts", ownUpstream: true, transactions: 240, loadItems: 600, loadAccounts: 200,
			chaos: restartUpstream,
		},
		{
			// The user made and named the slot, and committed transactions
			// after it: the snapshot comes from a temporary slot beside it,
			// and streaming from the user's slot starts where it did.
			name: "user slot", transactions: 200, loadItems: 600, loadAccounts: 200, userSlot: true,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runWorkloadCase(t, c) })
	}
}

func runWorkloadCase(t *testing.T, c workloadCase) {
	rng := seeded(t)
	var pg *pgserver.Postgres
	if c.ownUpstream {
		pg = ownUpstream(t)
	} else {
		pg = sharedUpstream(t)
	}
	db := newDatabase(t, pg)
	conn := dial(t, pg, db)
	mustExec(t, conn, workloadSchema)
	cfg := testConfig(t, connectionTo(pg, db), "pub", workloadTables...)
	if c.userSlot {
		cfg.Slot = "users_own_slot"
		mustQuery(t, conn, "SELECT pg_create_logical_replication_slot('users_own_slot', 'pgoutput')")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := newWorkload(ctx, rng, conn, c.transactions)
	if err := w.load(c.loadItems/2, c.loadAccounts); err != nil {
		t.Fatal(err)
	}
	if c.userSlot {
		// Committed after the user's slot, before the snapshot: the
		// snapshot holds them, the stream must not send them again.
		for range 20 {
			if err := w.step(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.load(c.loadItems/2, 0); err != nil {
		t.Fatal(err)
	}

	sink := newModelSink()
	if c.faults != nil {
		sink.decide = c.faults(rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())))
	}
	r := startRunner(t, cfg, sink)
	sink.crash = r.crash
	h := &workloadHarness{pg: pg, db: db, w: w, runner: r, sink: sink}

	stopKills := make(chan struct{})
	killsDone := make(chan struct{})
	kills := 0
	killRng := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
	go func() {
		defer close(killsDone)
		if c.killEvery == 0 {
			return
		}
		for {
			select {
			case <-stopKills:
				return
			case <-time.After(time.Duration(killRng.Int64N(int64(c.killEvery)))):
				r.crash()
				kills++
			}
		}
	}()

	// The workload runs while the Follower snapshots and streams.
	began := time.Now()
	for i := range c.transactions {
		if err := w.step(); err != nil {
			t.Fatalf("workload transaction %d: %v", i, err)
		}
		if c.chaos != nil {
			c.chaos(t, h, i)
		}
		if f := r.failure(); f != nil {
			t.Fatalf("the Follower failed: %s", f.LastError)
		}
	}
	xid, err := h.w.marker()
	if err != nil {
		t.Fatal(err)
	}
	close(stopKills)
	<-killsDone
	workloadTime := time.Since(began)
	waitFor(t, "the source to hold the last transaction", 3*time.Minute, func() bool {
		if f := r.failure(); f != nil {
			t.Fatalf("the Follower failed: %s", f.LastError)
		}
		return sink.hasXid(xid)
	})
	// With the faults over, the Follower's status comes to say what the
	// Sink holds (a commit that failed after it was durable leaves the
	// status behind until the next start or commit).
	sink.mu.Lock()
	sink.decide = nil
	sink.mu.Unlock()
	waitFor(t, "the status to agree with the Sink", time.Minute, func() bool {
		st := r.status()
		return st.State == StateStreaming && st.Position == sink.snapshot().cp.Position
	})
	status := r.status()
	r.close()
	t.Logf("workload %v, caught up %v after", workloadTime.Round(time.Millisecond), (time.Since(began) - workloadTime).Round(time.Millisecond))
	t.Logf("workload: %v; %d Followers started, %d killed, %d commits, %d snapshot resets; last status %+v",
		w.stats, r.starts, kills, sink.commits, sink.resets, status)
	verifySource(t, sink, h.w.conn, workloadFollowed)

	st := sink.snapshot()
	if c.killEvery == 0 && c.faults == nil && !c.ownUpstream {
		// One Follower did all of it: its counts are the source's.
		rows := 0
		for _, rs := range st.rows {
			rows += len(rs)
		}
		if status.Rows != int64(rows) || status.Transactions != int64(len(st.txs)) {
			t.Errorf("status counts %d rows and %d transactions, the source holds %d and %d", status.Rows, status.Transactions, rows, len(st.txs))
		}
	}
	if status.Position != st.cp.Position || status.Slot != st.cp.Slot {
		t.Errorf("status at %s on slot %q, the source at %s on %q", status.Position, status.Slot, st.cp.Position, st.cp.Slot)
	}
	if c.name == "clean" {
		checkCoverage(t, st)
	}
	if c.userSlot && st.cp.SlotCreated {
		t.Errorf("the user's slot is recorded as made by the source")
	}
	if slots := slotsOf(t, h.w.conn, db); len(slots) != 1 || slots[0] != st.cp.Slot {
		t.Errorf("upstream holds slots %v; want only the source's %q", slots, st.cp.Slot)
	}
}

// restartUpstream is the chaos of the "upstream restarts" case: a killed
// walsender, a clean restart and a crash of upstream, each while the
// workload runs.
func restartUpstream(t *testing.T, h *workloadHarness, step int) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	n := h.w.total
	switch step {
	case n / 4:
		mustQuery(t, h.w.conn, "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE active_pid IS NOT NULL")
	case n / 2, 3 * n / 4:
		mode := pgserver.ShutdownFast
		if step == 3*n/4 {
			mode = pgserver.ShutdownImmediate
		}
		if err := h.pg.Halt(ctx, mode); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the Follower to retry", time.Minute, func() bool {
			st := h.runner.status()
			return st.State == StateRetrying && st.LastError != ""
		})
		if err := h.pg.StartAgain(ctx); err != nil {
			t.Fatal(err)
		}
		h.w.conn = dial(t, h.pg, h.db)
		waitFor(t, "the Follower to stream again", time.Minute, func() bool {
			return h.runner.status().State == StateStreaming
		})
	}
}

// checkCoverage makes sure the clean run met what the workload is there to
// bring: unchanged TOAST values of both kinds, key-only and whole-row
// deletes, truncates of both tables, both added columns (one with a
// default for the rows there were), and changes sharing a WAL position.
func checkCoverage(t *testing.T, st modelState) {
	t.Helper()
	if st.unchanged == 0 {
		t.Errorf("no unchanged TOAST value reached the Sink")
	}
	count := func(table string, keep func(r modelRow) bool) int {
		n := 0
		for _, r := range st.rows[table] {
			if keep(r) {
				n++
			}
		}
		return n
	}
	for table, wholeOldRow := range map[string]bool{"items": false, "accounts_src": true} {
		if count(table, func(r modelRow) bool { return r.op == OpTruncate }) == 0 {
			t.Errorf("%s: no truncate reached the Sink", table)
		}
		if count(table, func(r modelRow) bool { return r.op == OpDelete && r.keyOnly != wholeOldRow }) == 0 {
			t.Errorf("%s: no delete (whole old row %v) reached the Sink", table, wholeOldRow)
		}
		if count(table, func(r modelRow) bool { return r.op == OpUpdate }) == 0 || count(table, func(r modelRow) bool { return r.op == OpInsert }) == 0 {
			t.Errorf("%s: no update or no insert reached the Sink", table)
		}
	}
	if len(st.added) != 2 || st.added[1].Columns[0].Name != "flag" || st.added[1].ExistingValues[0] != Text("7") ||
		st.added[0].ExistingValues[0] != Null() || st.added[1].Columns[0].TypeName != "integer" {
		t.Errorf("added columns %+v", st.added)
	}
	// COPY writes many rows in one WAL record: their Seq count up from it.
	shared := 0
	rows := st.rows["items"]
	for i := 1; i < len(rows); i++ {
		if rows[i].op == OpInsert && rows[i-1].op == OpInsert && rows[i].seq == rows[i-1].seq+1 && rows[i].xid == rows[i-1].xid {
			shared++
		}
	}
	if shared == 0 {
		t.Errorf("no two inserts of one transaction have consecutive Seq")
	}
}
