package storage

import (
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// readKeys returns, as a reader sees them now, whether each of keys
// (space/key pairs) is there.
func readKeys(t *testing.T, db *DB, keys ...[2]string) []bool {
	t.Helper()
	out := make([]bool, len(keys))
	err := db.View(func(tx *Tx) error {
		for i, k := range keys {
			if sp := tx.Space(k[0]); sp != nil {
				out[i] = sp.Get([]byte(k[1])) != nil
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// openWithWriter opens the file at path with keyspaces "pending" and
// "data" and begins a write transaction.
func openWithWriter(t *testing.T, path string, opts Options) (*DB, *Tx) {
	t.Helper()
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range []string{"pending", "data"} {
		if err := putIn(db, sp, "seed", "x"); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { _ = db.Close() }) // after a gate's cleanup (gateFlushes)
	tx, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	return db, tx
}

// putAhead puts job ahead of tx, failing the test on error.
func putAhead(t *testing.T, tx *Tx, job string) {
	t.Helper()
	if err := tx.PutAhead("pending", []byte(job), []byte("v")); err != nil {
		t.Fatal(err)
	}
}

// putRow puts row into tx's keyspace "data", failing the test on error.
func putRow(t *testing.T, tx *Tx, row string) {
	t.Helper()
	if err := tx.Space("data").Put([]byte(row), []byte("1")); err != nil {
		t.Fatal(err)
	}
}

// gatedFlushes makes every flush after the first n wait until release
// is called with the error the flush should end with.
type gatedFlushes struct {
	calls   atomic.Int64
	n       int64
	entered chan struct{}
	gate    chan error
}

// reopenAfterFailedFlush closes db, whose last flush failed as a crash
// would leave it (gateFlushes), and opens path again, as a restart.
func reopenAfterFailedFlush(t *testing.T, db *DB, path string, opts Options) *DB {
	t.Helper()
	db.hookFlush.Store(nil)
	_ = db.Close()
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// A test that ends early (failing) opens the gate for good, so that the
// database can close.
func gateFlushes(t *testing.T, db *DB, n int64) *gatedFlushes {
	g := &gatedFlushes{n: n, entered: make(chan struct{}, 16), gate: make(chan error)}
	t.Cleanup(func() { close(g.gate) })
	hook := func() error {
		if g.calls.Add(1) <= g.n {
			return nil
		}
		g.entered <- struct{}{}
		return <-g.gate
	}
	db.hookFlush.Store(&hook)
	return g
}

// TestCoveredCommitIsDurableWithThePutAheadOfIt: a transaction puts a
// description of itself ahead, and its covered commit returns, visible to
// readers, while its own record has not been written; a crash then leaves
// the put, from which the caller would redo it, and nothing of the
// transaction. No reader sees the put before the crash.
func TestCoveredCommitIsDurableWithThePutAheadOfIt(t *testing.T) {
	path := checkedPath(t, "ahead.db")
	opts := Options{NoSync: true}
	db, tx := openWithWriter(t, path, opts)
	putRow(t, tx, "row")
	// Only the put ahead's own flush goes through; the covered commit's
	// waits at the gate.
	g := gateFlushes(t, db, 1)
	putAhead(t, tx, "job")
	if err := tx.PutAhead("pending", []byte("job2"), nil); !errors.Is(err, errAheadTwice) {
		t.Errorf("a second PutAhead: %v, want errAheadTwice", err)
	}
	waitFor(t, "the put ahead's flush", func() bool { return g.calls.Load() >= 1 && db.durable.Load().version == tx.ahead.version })
	if got := readKeys(t, db, [2]string{"data", "row"}, [2]string{"pending", "job"}); got[0] || got[1] {
		t.Fatalf("before the commit a reader sees row %v, put ahead %v; want neither", got[0], got[1])
	}
	if err := tx.CommitCovered(); err != nil {
		t.Fatal(err)
	}
	<-g.entered // the covered commit's flush is under way, and stays so
	if got := readKeys(t, db, [2]string{"data", "row"}, [2]string{"pending", "job"}); !got[0] || got[1] {
		t.Fatalf("after the covered commit returned, a reader sees row %v and the put ahead %v; want the row alone", got[0], got[1])
	}
	// The covered commit's record never reaches the disk.
	g.gate <- errors.New("injected: the process died")
	db = reopenAfterFailedFlush(t, db, path, opts)
	defer db.Close()
	if got := readKeys(t, db, [2]string{"data", "row"}, [2]string{"pending", "job"}); got[0] || !got[1] {
		t.Fatalf("after the crash: row %v, put ahead %v; want the put alone, to redo the transaction from", got[0], got[1])
	}
}

// TestCoveredCommitWaitsForThePutAhead: a covered commit whose put ahead is
// not durable yet neither returns nor shows its changes to readers until
// that put is, and then is there after a crash, without the put; a
// transaction rolled back after its put ahead deletes it.
func TestCoveredCommitWaitsForThePutAhead(t *testing.T) {
	path := checkedPath(t, "ahead-wait.db")
	opts := Options{NoSync: true}
	db, tx := openWithWriter(t, path, opts)
	g := gateFlushes(t, db, 0) // the put ahead's flush waits too
	putAhead(t, tx, "job")
	<-g.entered
	putRow(t, tx, "row")
	committed := make(chan error, 1)
	go func() { committed <- tx.CommitCovered() }()
	time.Sleep(20 * time.Millisecond)
	select {
	case err := <-committed:
		t.Fatalf("the covered commit returned (%v) before its put ahead was durable", err)
	default:
	}
	if got := readKeys(t, db, [2]string{"data", "row"}); got[0] {
		t.Fatal("a reader sees the covered commit before its put ahead is durable")
	}
	g.gate <- nil // the put ahead is on disk now
	if err := <-committed; err != nil {
		t.Fatal(err)
	}
	if got := readKeys(t, db, [2]string{"data", "row"}); !got[0] {
		t.Fatal("after the covered commit returned a reader does not see it")
	}
	<-g.entered
	g.gate <- nil // and so is the covered commit's record

	// A transaction rolled back after its put ahead deletes the put.
	db.hookFlush.Store(nil)
	tx, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	putAhead(t, tx, "failed job")
	putRow(t, tx, "lost")
	// The put is on disk before the rollback, so that only its delete
	// keeps a restart from finding it.
	waitFor(t, "the put's flush", func() bool { return db.durable.Load().version == tx.ahead.version })
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	db = crashAndReopen(t, db, path, opts)
	defer db.Close()
	got := readKeys(t, db, [2]string{"data", "row"}, [2]string{"pending", "job"}, [2]string{"pending", "failed job"}, [2]string{"data", "lost"})
	if want := []bool{true, false, false, false}; !slices.Equal(got, want) {
		t.Fatalf("after a crash: row, job, failed job, lost = %v, want %v", got, want)
	}
}

// TestPutAheadAndCoveredCommitShareALayer: a covered commit never starts a
// memtable layer of its own, so no checkpoint can cover its put ahead (which
// the file never gets) without covering it. The put adds nothing to its
// layer, so only a layer that grew otherwise in between (made so here)
// could be full when the covered commit comes; it still joins the put's
// layer, and its changes survive the checkpoints and a crash.
func TestPutAheadAndCoveredCommitShareALayer(t *testing.T) {
	path := checkedPath(t, "ahead-layer.db")
	opts := Options{NoSync: true}
	db, tx := openWithWriter(t, path, opts)
	putRow(t, tx, "row")
	putAhead(t, tx, "job")
	db.mu.Lock()
	aheadLayer := db.head.layers[0]
	db.mu.Unlock()
	aheadLayer.size.Add(db.memtable) // full now
	if err := tx.CommitCovered(); err != nil {
		t.Fatal(err)
	}
	db.mu.Lock()
	covered := db.head.layers[0]
	db.mu.Unlock()
	if covered.size != aheadLayer.size {
		t.Fatal("the covered commit started a memtable layer of its own")
	}
	if err := putIn(db, "data", "after", "1"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the checkpoints", func() bool { return db.Stats().Layers == 1 })
	db = crashAndReopen(t, db, path, opts)
	defer db.Close()
	got := readKeys(t, db, [2]string{"data", "row"}, [2]string{"pending", "job"}, [2]string{"data", "after"})
	if want := []bool{true, false, true}; !slices.Equal(got, want) {
		t.Fatalf("after checkpoints and a crash: row, job, after = %v, want %v", got, want)
	}
}

// TestPutAheadRefusals: only the writer puts ahead, once, into a keyspace
// that exists and that it has not changed; CommitCovered needs a put.
func TestPutAheadRefusals(t *testing.T) {
	db, err := Open(checkedPath(t, "refusals.db"), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := putIn(db, "pending", "seed", "x"); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if err := tx.PutAhead("missing", []byte("k"), nil); !errors.Is(err, ErrSpaceNotFound) {
		t.Errorf("into a missing keyspace: %v", err)
	}
	if err := tx.PutAhead("pending", nil, nil); !errors.Is(err, ErrKeyRequired) {
		t.Errorf("with an empty key: %v", err)
	}
	fork, err := tx.Fork()
	if err != nil {
		t.Fatal(err)
	}
	if err := fork.PutAhead("pending", []byte("k"), nil); !errors.Is(err, ErrForkChange) {
		t.Errorf("from a fork: %v", err)
	}
	_ = fork.Rollback()
	if err := tx.Space("pending").Put([]byte("mine"), nil); err != nil {
		t.Fatal(err)
	}
	if err := tx.PutAhead("pending", []byte("k"), nil); err == nil {
		t.Error("into a keyspace the transaction changed: no error")
	}
	if err := tx.CommitCovered(); err == nil {
		t.Error("CommitCovered without a put ahead: no error")
	}
	r, err := db.Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Rollback()
	if err := r.PutAhead("pending", []byte("k"), nil); !errors.Is(err, ErrTxNotWritable) {
		t.Errorf("from a read transaction: %v", err)
	}
}

// waitFor polls cond until it holds, failing the test after ten seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestEachCoveredCommitIsVisibleOnceItsPutIsDurable: a second covered
// commit made while the first one's put ahead is still being written does
// not take the first one's place: once that put is durable, the first
// commit returns and readers see it, as after any commit, while the second
// waits for its own put.
func TestEachCoveredCommitIsVisibleOnceItsPutIsDurable(t *testing.T) {
	db, tx1 := openWithWriter(t, checkedPath(t, "ahead-two.db"), Options{NoSync: true})
	g := gateFlushes(t, db, 0)
	putAhead(t, tx1, "job1")
	<-g.entered // the first put's flush waits at the gate
	putRow(t, tx1, "r1")
	done1 := make(chan error, 1)
	go func() { done1 <- tx1.CommitCovered() }()
	tx2, err := db.Begin(true) // once the first has published
	if err != nil {
		t.Fatal(err)
	}
	putAhead(t, tx2, "job2")
	putRow(t, tx2, "r2")
	done2 := make(chan error, 1)
	go func() { done2 <- tx2.CommitCovered() }()
	p2 := tx2.ahead.version
	waitFor(t, "the second covered commit's publish", func() bool {
		db.mu.Lock()
		defer db.mu.Unlock()
		return db.head.version == p2+1
	})
	g.gate <- nil // the first put is on disk
	if err := <-done1; err != nil {
		t.Fatal(err)
	}
	if got := readKeys(t, db, [2]string{"data", "r1"}, [2]string{"data", "r2"}); !got[0] || got[1] {
		t.Fatalf("after the first covered commit returned a reader sees r1 %v, r2 %v; want r1 alone", got[0], got[1])
	}
	<-g.entered // the first commit's record, the second put and commit
	g.gate <- nil
	if err := <-done2; err != nil {
		t.Fatal(err)
	}
	if got := readKeys(t, db, [2]string{"data", "r1"}, [2]string{"data", "r2"}); !got[0] || !got[1] {
		t.Fatalf("after both covered commits returned a reader sees r1 %v, r2 %v; want both", got[0], got[1])
	}
	db.hookFlush.Store(nil)
}

// TestNoCheckpointBeforeACoveredCommitsRecordIsOnDisk: a layer holding a
// covered commit whose own record is not on disk yet is not checkpointed,
// though readers see the commit: a file holding part of its changes would
// leave the redo from its put ahead a state it was not made for. A crash
// in that moment leaves the put and nothing of the commit.
func TestNoCheckpointBeforeACoveredCommitsRecordIsOnDisk(t *testing.T) {
	path := checkedPath(t, "ahead-ckpt.db")
	// The flusher looks for work every 10 ms.
	opts := Options{NoSync: true, CheckpointAfterIdle: 40 * time.Millisecond}
	db, tx := openWithWriter(t, path, opts)
	g := gateFlushes(t, db, 1) // the put's flush goes through, no later one
	putAhead(t, tx, "job")
	for _, k := range []string{"a", "b", "c"} {
		putRow(t, tx, k)
	}
	db.mu.Lock()
	db.head.layers[0].size.Add(db.memtable) // full: the next commit freezes it
	db.mu.Unlock()
	waitFor(t, "the put's flush", func() bool { return db.durable.Load().version == tx.ahead.version })
	if err := tx.CommitCovered(); err != nil {
		t.Fatal(err)
	}
	<-g.entered // the covered commit's record waits at the gate
	steps := db.checkpointSteps.Load()
	after := make(chan error, 1)
	go func() { after <- putIn(db, "data", "after", "1") }() // freezes the layer
	waitFor(t, "the layer's freeze", func() bool { return db.Stats().Layers >= 2 })
	time.Sleep(200 * time.Millisecond)
	if n := db.checkpointSteps.Load() - steps; n != 0 {
		t.Fatalf("%d checkpoint steps ran while the covered commit's record was not on disk", n)
	}
	g.gate <- errors.New("injected: the process died")
	if err := <-after; err == nil {
		t.Error("the commit after a failed flush succeeded")
	}
	db = reopenAfterFailedFlush(t, db, path, opts)
	defer db.Close()
	got := readKeys(t, db, [2]string{"pending", "job"}, [2]string{"data", "a"}, [2]string{"data", "b"}, [2]string{"data", "c"})
	if want := []bool{true, false, false, false}; !slices.Equal(got, want) {
		t.Fatalf("after the crash: job, a, b, c = %v, want %v (the put alone)", got, want)
	}
}
