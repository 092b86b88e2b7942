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
	tx, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	return db, tx
}

// gatedFlushes makes every flush after the first n wait until release
// is called with the error the flush should end with.
type gatedFlushes struct {
	calls   atomic.Int64
	n       int64
	entered chan struct{}
	gate    chan error
}

func gateFlushes(db *DB, n int64) *gatedFlushes {
	g := &gatedFlushes{n: n, entered: make(chan struct{}, 16), gate: make(chan error)}
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
	if err := tx.Space("data").Put([]byte("row"), []byte("1")); err != nil {
		t.Fatal(err)
	}
	// Only the put ahead's own flush goes through; the covered commit's
	// waits at the gate.
	g := gateFlushes(db, 1)
	if err := tx.PutAhead("pending", []byte("job"), []byte("redo me")); err != nil {
		t.Fatal(err)
	}
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
	db.hookFlush.Store(nil)
	_ = db.Close()
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
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
	g := gateFlushes(db, 0) // the put ahead's flush waits too
	if err := tx.PutAhead("pending", []byte("job"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	<-g.entered
	if err := tx.Space("data").Put([]byte("row"), []byte("1")); err != nil {
		t.Fatal(err)
	}
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
	if err := tx.PutAhead("pending", []byte("failed job"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Space("data").Put([]byte("lost"), []byte("1")); err != nil {
		t.Fatal(err)
	}
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
	if err := tx.Space("data").Put([]byte("row"), []byte("1")); err != nil {
		t.Fatal(err)
	}
	if err := tx.PutAhead("pending", []byte("job"), []byte("v")); err != nil {
		t.Fatal(err)
	}
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
