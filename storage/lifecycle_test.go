package storage

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestMemtableBackpressure: while the checkpointer cannot keep up (here the
// flusher is held inside a flush), commits must wait once the active layer
// is full and maxFrozenLayers frozen layers wait for their checkpoint, so
// that memtables never hold much more than twice MemtableSize.
func TestMemtableBackpressure(t *testing.T) {
	const memtable = 16 << 10
	db, err := Open(filepath.Join(t.TempDir(), "bp.db"), Options{NoSync: true, MemtableSize: memtable, CheckpointAfterIdle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("s"); return err }); err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	var once sync.Once
	hold := func() error {
		once.Do(func() { <-gate })
		return nil
	}
	db.hookFlush.Store(&hold)
	const writers = 8
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := db.Update(func(tx *Tx) error {
				// Each commit alone fills a memtable.
				for i := range 40 {
					if err := tx.Space("s").Put([]byte(fmt.Sprintf("w%d-%03d", w, i)), bytes.Repeat([]byte{'v'}, 512)); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	// Let every writer that is not made to wait commit.
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) && db.queueLen() < writers-1 {
		time.Sleep(5 * time.Millisecond)
	}
	st := db.Stats()
	close(gate)
	wg.Wait()
	t.Logf("while the flusher was held: %d layers, %d bytes in memtables", st.Layers, st.MemtableBytes)
	if st.Layers > maxFrozenLayers+2 || st.MemtableBytes > 4*memtable {
		t.Errorf("%d layers holding %d bytes (MemtableSize %d): commits did not wait for the checkpointer", st.Layers, st.MemtableBytes, memtable)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestBeginWriteAfterClose: a write transaction asked for during or after
// Close is refused; it does not wait forever for a writer slot that Close
// keeps.
func TestBeginWriteAfterClose(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "c.db"), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	// One writer waits for the slot while Close waits for it too.
	waiting := make(chan error, 1)
	go func() {
		tx, err := db.Begin(true)
		if err == nil {
			tx.Rollback()
		}
		waiting <- err
	}()
	closed := make(chan error, 1)
	go func() { closed <- db.Close() }()
	time.Sleep(20 * time.Millisecond)
	tx.Rollback()
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	after := make(chan error, 1)
	go func() {
		_, err := db.Begin(true)
		after <- err
	}()
	for name, ch := range map[string]chan error{"waiting during Close": waiting, "after Close": after} {
		select {
		case err := <-ch:
			if name == "after Close" && err == nil {
				t.Errorf("Begin(true) %s succeeded", name)
			}
		case <-time.After(2 * time.Second):
			t.Errorf("Begin(true) %s never returned", name)
		}
	}
}

// TestCursorWritesDuringIteration moves cursors over a keyspace whose
// entries are spread over the file, frozen and active layers and the
// writer's own tree, while the writer changes it: each move must answer as
// if made on the keyspace as it is at that moment, from the key the cursor
// was on.
func TestCursorWritesDuringIteration(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	db, err := Open(filepath.Join(t.TempDir(), "cw.db"), Options{NoSync: true, MemtableSize: 4 << 10, CheckpointAfterIdle: time.Hour, checkpointChunk: 100, blockSize: 64})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	model := map[string]string{}
	key := func() string { return fmt.Sprintf("k%02d", rng.IntN(60)) }
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("s"); return err }); err != nil {
		t.Fatal(err)
	}
	for round := range 40 {
		// Some committed history first, in several layers and the file.
		err := db.Update(func(tx *Tx) error {
			for range 1 + rng.IntN(8) {
				k := key()
				if rng.IntN(3) == 0 {
					delete(model, k)
					if err := tx.Space("s").Delete([]byte(k)); err != nil {
						return err
					}
				} else {
					v := fmt.Sprintf("v%d", rng.IntN(1000))
					model[k] = v
					if err := tx.Space("s").Put([]byte(k), []byte(v)); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if round%7 == 6 {
			db.checkpointAll(t)
		}
		tx, err := db.Begin(true)
		if err != nil {
			t.Fatal(err)
		}
		local := maps.Clone(model)
		sp := tx.Space("s")
		c := sp.Cursor()
		var cur string // "" : not on a key
		sorted := func() []string { return slices.Sorted(maps.Keys(local)) }
		after := func(k string) string {
			for _, x := range sorted() {
				if x > k {
					return x
				}
			}
			return ""
		}
		before := func(k string) string {
			ks := sorted()
			for i := len(ks) - 1; i >= 0; i-- {
				if ks[i] < k {
					return ks[i]
				}
			}
			return ""
		}
		var trace []string
		for step := range 60 {
			var got []byte
			var want, op string
			switch r := rng.IntN(12); {
			case r == 0:
				op = "First"
				got, _ = c.First()
				want = after("")
			case r == 1:
				op = "Last"
				got, _ = c.Last()
				want = before("\xff")
			case r == 2:
				k := key()
				op = "Seek " + k
				got, _ = c.Seek([]byte(k))
				want = after(k)
				if _, ok := local[k]; ok {
					want = k
				}
			case r == 3:
				k := key()
				op = "SeekBefore " + k
				got, _ = c.SeekBefore([]byte(k))
				want = before(k)
			case r < 6 && cur != "":
				op = "Next"
				got, _ = c.Next()
				want = after(cur)
			case r < 8 && cur != "":
				op = "Prev"
				got, _ = c.Prev()
				want = before(cur)
			case r == 8 && cur != "":
				op = "Delete " + cur
				if err := c.Delete(); err != nil {
					t.Fatal(err)
				}
				delete(local, cur)
				trace = append(trace, op)
				continue
			case r < 11:
				k := key()
				if rng.IntN(3) == 0 {
					op = "Space.Delete " + k
					delete(local, k)
					if err := sp.Delete([]byte(k)); err != nil {
						t.Fatal(err)
					}
				} else {
					op = "Space.Put " + k
					local[k] = "w"
					if err := sp.Put([]byte(k), []byte("w")); err != nil {
						t.Fatal(err)
					}
				}
				trace = append(trace, op)
				continue
			default:
				continue
			}
			trace = append(trace, op)
			if string(got) != want {
				t.Fatalf("round %d step %d: %s = %q, want %q\ntrace: %q", round, step, op, got, want, trace)
			}
			cur = want
		}
		if rng.IntN(2) == 0 {
			tx.Rollback()
		} else {
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			model = local
		}
	}
}

// TestPanicInCommitFailsTheDatabase: a panic part-way through a commit (a
// bug; here in an OnPublish function) reaches the caller, and then the
// database refuses changes as after a failed write instead of leaving the
// writer slot taken and the flusher waiting: the next writer gets an error,
// readers still see every commit acknowledged before, and Close returns.
func TestPanicInCommitFailsTheDatabase(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "p.db"), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	put := func(k string, hook func(tx *Tx)) error {
		return db.Update(func(tx *Tx) error {
			if hook != nil {
				hook(tx)
			}
			return tx.Space("s").Put([]byte(k), []byte("v"))
		})
	}
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("s"); return err }); err != nil {
		t.Fatal(err)
	}
	if err := put("a", nil); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want the commit's panic", r)
			}
		}()
		_ = put("b", func(tx *Tx) { tx.OnPublish(func() { panic("boom") }) })
		t.Error("the panic did not reach the caller")
	}()
	done := make(chan error, 1)
	go func() { done <- put("c", nil) }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a commit after the broken one succeeded")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the next writer is still waiting for the slot")
	}
	err = db.View(func(tx *Tx) error {
		if v := tx.Space("s").Get([]byte("a")); string(v) != "v" {
			return fmt.Errorf("acknowledged key a reads %q", v)
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- db.Close() }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close hangs after a broken commit")
	}
}

// TestPanicInRollbackFreesTheWriterSlot: a panicking OnRollback function
// still gives the writer slot back.
func TestPanicInRollbackFreesTheWriterSlot(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "r.db"), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	func() {
		defer func() { _ = recover() }()
		tx, err := db.Begin(true)
		if err != nil {
			t.Fatal(err)
		}
		tx.OnRollback(func() { panic("boom") })
		_ = tx.Rollback()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	tx, err := db.BeginContext(ctx, true)
	if err != nil {
		t.Fatalf("the writer slot was not given back: %v", err)
	}
	_ = tx.Rollback()
}

// queueLen is how many commits wait for the log writer.
func (db *DB) queueLen() int {
	db.mu.Lock()
	defer db.mu.Unlock()
	return len(db.queue)
}

// TestCloseCheckpointsEverything: Close waits for the records still being
// written when it begins, and checkpoints their commits too: the file's
// keyspaces hold every commit, and the next Open replays nothing.
func TestCloseCheckpointsEverything(t *testing.T) {
	path := checkedPath(t, "close.db")
	db, err := Open(path, Options{NoSync: true, CheckpointAfterIdle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := putIn(db, "s", "first", "v"); err != nil {
		t.Fatal(err)
	}
	flushing := make(chan struct{}, 1)
	slow := func() error {
		select {
		case flushing <- struct{}{}:
		default:
		}
		time.Sleep(50 * time.Millisecond)
		return nil
	}
	db.hookFlush.Store(&slow)
	committed := make(chan error)
	go func() { committed <- putIn(db, "s", "last", "v") }()
	<-flushing
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-committed; err != nil {
		t.Fatal(err)
	}
	bdb, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	recs, _, err := readRing(bdb)
	if err != nil {
		t.Fatal(err)
	}
	err = bdb.View(func(btx *bolt.Tx) error {
		complete, err := stateVersion(btx, stateComplete)
		if err != nil {
			return err
		}
		if len(recs) == 0 || recs[len(recs)-1].version != complete {
			return fmt.Errorf("keyspaces complete through version %d, the log ring holds %v", complete, recs)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
