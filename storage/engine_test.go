package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cdcdb/pgerror"
)

// crash stops db as a crash would: the flusher stops between two file
// transactions (a checkpoint may be half done) and the file is closed
// without the final checkpoint Close does. Every commit that returned is
// in the log.
func (db *DB) crash() {
	db.closeOnce.Do(func() {
		db.crashed.Store(true)
		db.signal()
		db.signalLog()
		<-db.loggerDone
		<-db.flusherDone
		db.merger.close()
		db.closeErr = db.bolt.Close()
	})
}

// crashAndReopen crashes db and opens its file again with opts, as a
// process restarted after a crash would.
func crashAndReopen(t *testing.T, db *DB, path string, opts Options) *DB {
	t.Helper()
	db.crash()
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// checkedPath is a database path in t's temporary directory whose file gets
// bbolt's consistency check when the test ends (storagetest does this for
// other packages; it cannot be imported here).
func checkedPath(t *testing.T, name string) string {
	path := filepath.Join(t.TempDir(), name)
	t.Cleanup(func() {
		if _, err := os.Stat(path); err != nil {
			return
		}
		db, err := Open(path, Options{ReadOnly: true, Timeout: 10 * time.Second})
		if err != nil {
			t.Errorf("reopen %s for the consistency check: %v", path, err)
			return
		}
		defer db.Close()
		if err := db.Check(); err != nil {
			t.Error(err)
		}
	})
	return path
}

// putIn commits one put into keyspace space, creating it if need be.
func putIn(db *DB, space, k, v string) error {
	return db.Update(func(tx *Tx) error {
		sp, err := spaceOrCreate(tx, space)
		if err != nil {
			return err
		}
		return sp.Put([]byte(k), []byte(v))
	})
}

// spaceOrCreate is the keyspace name, created if it is not there yet.
func spaceOrCreate(tx *Tx, name string) (*Space, error) {
	if sp := tx.Space(name); sp != nil {
		return sp, nil
	}
	return tx.CreateSpace(name)
}

// state is the model of a database: keyspaces with their entries and
// sequence counters.
type state struct {
	spaces map[string]map[string]string
	seqs   map[string]uint64
}

func (s state) clone() state {
	c := state{spaces: map[string]map[string]string{}, seqs: map[string]uint64{}}
	for name, kv := range s.spaces {
		m := make(map[string]string, len(kv))
		for k, v := range kv {
			m[k] = v
		}
		c.spaces[name] = m
	}
	for name, v := range s.seqs {
		c.seqs[name] = v
	}
	return c
}

var modelSpaces = []string{"a", "b", "c", "d"}

// checkState compares everything tx reads with the model.
func checkState(t *testing.T, tx *Tx, want state, rng *rand.Rand) error {
	for _, name := range modelSpaces {
		kv, exists := want.spaces[name]
		sp := tx.Space(name)
		if (sp != nil) != exists {
			return fmt.Errorf("keyspace %s exists=%v, want %v", name, sp != nil, exists)
		}
		if !exists {
			continue
		}
		if got := sp.Sequence(); got != want.seqs[name] {
			return fmt.Errorf("keyspace %s sequence %d, want %d", name, got, want.seqs[name])
		}
		keys := make([]string, 0, len(kv))
		for k := range kv {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var got []string
		c := sp.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if want, ok := kv[string(k)]; !ok || want != string(v) {
				return fmt.Errorf("keyspace %s: cursor at %q=%.20q, model has %.20q (present %v)", name, k, v, want, ok)
			}
			got = append(got, string(k))
		}
		if !slices.Equal(got, keys) {
			return fmt.Errorf("keyspace %s: forward keys %q, want %q", name, got, keys)
		}
		got = got[:0]
		for k, _ := c.Last(); k != nil; k, _ = c.Prev() {
			got = append(got, string(k))
		}
		slices.Reverse(got)
		if !slices.Equal(got, keys) {
			return fmt.Errorf("keyspace %s: backward keys %q, want %q", name, got, keys)
		}
		if n := sp.Count(); n != len(keys) {
			return fmt.Errorf("keyspace %s: Count %d, want %d", name, n, len(keys))
		}
		for range 20 {
			probe := modelKey(rng)
			v := sp.Get([]byte(probe))
			if w, ok := kv[probe]; ok != (v != nil) || string(v) != w {
				return fmt.Errorf("keyspace %s: Get %q = %.20q, want %.20q (present %v)", name, probe, v, w, ok)
			}
			i, _ := slices.BinarySearch(keys, probe)
			k, _ := c.Seek([]byte(probe))
			if (i == len(keys)) != (k == nil) || (k != nil && string(k) != keys[i]) {
				return fmt.Errorf("keyspace %s: Seek %q = %q", name, probe, k)
			}
			if bk, _ := c.SeekBefore([]byte(probe)); (i == 0) != (bk == nil) || (bk != nil && string(bk) != keys[i-1]) {
				return fmt.Errorf("keyspace %s: SeekBefore %q = %q", name, probe, bk)
			} else if bk != nil {
				if nk, _ := c.Next(); (i == len(keys)) != (nk == nil) || (nk != nil && string(nk) != keys[i]) {
					return fmt.Errorf("keyspace %s: Next after SeekBefore %q = %q", name, probe, nk)
				}
			}
			k, _ = c.Seek([]byte(probe))
			if k != nil {
				// A change of direction right after a seek.
				pk, _ := c.Prev()
				if (i == 0) != (pk == nil) || (pk != nil && string(pk) != keys[i-1]) {
					return fmt.Errorf("keyspace %s: Prev after Seek %q = %q", name, probe, pk)
				}
				if pk != nil {
					// And back again.
					if nk, _ := c.Next(); string(nk) != keys[i] {
						return fmt.Errorf("keyspace %s: Next after Prev after Seek %q = %q, want %q", name, probe, nk, keys[i])
					}
				}
			}
		}
	}
	return nil
}

func modelKey(rng *rand.Rand) string { return fmt.Sprintf("k%03d", rng.IntN(150)) }

func modelValue(rng *rand.Rand) string {
	switch rng.IntN(400) {
	case 0, 1, 2, 3, 4, 5, 6, 7, 8, 9:
		return ""
	case 10, 11, 12, 13, 14, 15, 16, 17, 18:
		return string(bytes.Repeat([]byte{byte('A' + rng.IntN(26))}, largeEntry+rng.IntN(1000)))
	case 19:
		return string(bytes.Repeat([]byte{byte('a' + rng.IntN(26))}, slabSize+rng.IntN(1000)))
	}
	return "v" + strconv.Itoa(rng.IntN(1_000_000))
}

// TestEngineMatchesModel runs random write transactions (puts, deletes,
// keyspace creation and drops, sequences, deletes through a cursor, reads
// of the transaction's own writes, rollbacks) with a memtable so small that
// layers freeze and checkpoint all the time in tiny chunks, while readers
// check that every snapshot is exactly some committed state, and reopens
// the file now and then, cleanly or after a simulated crash (which may
// land in the middle of a checkpoint). After each reopen the state must be
// every committed transaction's and nothing else.
func TestEngineMatchesModel(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 11))
	path := checkedPath(t, "engine.db")
	opts := Options{NoSync: true, MemtableSize: 32 << 10, CheckpointAfterIdle: 20 * time.Millisecond, checkpointChunk: 40, blockSize: 48}
	open := func() *DB {
		db, err := Open(path, opts)
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	var flushes, checkpoints, steps, ringFlushes, compactions int64
	db := open()
	count := func(db *DB) {
		compactions += db.compactionsDone.Load()
		ringFlushes += db.ringFlushes.Load()
		flushes += db.flushes.Load()
		checkpoints += db.checkpoints.Load()
		steps += db.checkpointSteps.Load()
	}
	committed := state{spaces: map[string]map[string]string{}, seqs: map[string]uint64{}}
	// Every commit writes its number under "n" in keyspace "ver", so a
	// reader knows which committed state its snapshot must be.
	var hmu sync.Mutex
	history := map[uint64]state{0: committed.clone()}
	err := db.Update(func(tx *Tx) error {
		_, err := tx.CreateSpace("ver")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	version := uint64(0)

	startReaders := func(db *DB) (stop func() error) {
		rngs := []*rand.Rand{rand.New(rand.NewPCG(seed, 0)), rand.New(rand.NewPCG(seed, 1))}
		return readUntilStopped(db, len(rngs), func(r int, tx *Tx) error {
			var n uint64
			if v := tx.Space("ver").Get([]byte("n")); v != nil {
				n, _ = strconv.ParseUint(string(v), 10, 64)
			}
			hmu.Lock()
			want, ok := history[n]
			hmu.Unlock()
			var err error
			if !ok {
				err = fmt.Errorf("snapshot of version %d, which never committed", n)
			} else {
				err = checkState(t, tx, want, rngs[r])
			}
			if err != nil {
				return fmt.Errorf("reader at version %d: %w", n, err)
			}
			return nil
		})
	}
	stopReaders := startReaders(db)

	for step := range 1200 {
		tx, err := db.Begin(true)
		if err != nil {
			t.Fatal(err)
		}
		local := committed.clone()
		for range 1 + rng.IntN(12) {
			name := modelSpaces[rng.IntN(len(modelSpaces))]
			kv, exists := local.spaces[name]
			switch op := rng.IntN(20); {
			case !exists && op < 2:
				if _, err := tx.CreateSpace(name); err != nil {
					t.Fatalf("step %d: create %s: %v", step, name, err)
				}
				local.spaces[name] = map[string]string{}
				local.seqs[name] = 0
			case !exists:
				if tx.Space(name) != nil {
					t.Fatalf("step %d: dropped keyspace %s visible", step, name)
				}
			case op == 0:
				if err := tx.DropSpace(name); err != nil {
					t.Fatalf("step %d: drop %s: %v", step, name, err)
				}
				delete(local.spaces, name)
				delete(local.seqs, name)
			case op < 4:
				k := modelKey(rng)
				if err := tx.Space(name).Delete([]byte(k)); err != nil {
					t.Fatal(err)
				}
				delete(kv, k)
			case op == 4:
				n, err := tx.Space(name).NextSequence()
				if err != nil || n != local.seqs[name]+1 {
					t.Fatalf("step %d: NextSequence = %d, %v; want %d", step, n, err, local.seqs[name]+1)
				}
				local.seqs[name] = n
			case op == 5:
				// Delete through a cursor, then move on from there.
				c := tx.Space(name).Cursor()
				k, _ := c.Seek([]byte(modelKey(rng)))
				if k == nil {
					break
				}
				key := string(k)
				if err := c.Delete(); err != nil {
					t.Fatal(err)
				}
				delete(kv, key)
				next, _ := c.Next()
				var want string
				for mk := range kv {
					if mk > key && (want == "" || mk < want) {
						want = mk
					}
				}
				if string(next) != want {
					t.Fatalf("step %d: Next after cursor delete of %q = %q, want %q", step, key, next, want)
				}
			case op == 6:
				if err := checkState(t, tx, local, rng); err != nil {
					t.Fatalf("step %d: own writes: %v", step, err)
				}
			default:
				k, v := modelKey(rng), modelValue(rng)
				if err := tx.Space(name).Put([]byte(k), []byte(v)); err != nil {
					t.Fatal(err)
				}
				kv[k] = v
			}
		}
		if rng.IntN(8) == 0 {
			if err := tx.Rollback(); err != nil {
				t.Fatal(err)
			}
		} else {
			next := version + 1
			if err := tx.Space("ver").Put([]byte("n"), []byte(strconv.FormatUint(next, 10))); err != nil {
				t.Fatal(err)
			}
			hmu.Lock()
			history[next] = local.clone()
			hmu.Unlock()
			if err := tx.Commit(); err != nil {
				t.Fatalf("step %d: commit: %v", step, err)
			}
			version, committed = next, local
		}
		if step%150 == 149 {
			if err := stopReaders(); err != nil {
				t.Fatal(err)
			}
			if rng.IntN(2) == 0 {
				db.crash()
			} else if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			count(db)
			db = open()
			err := db.View(func(tx *Tx) error {
				if v := tx.Space("ver").Get([]byte("n")); string(v) != strconv.FormatUint(version, 10) {
					return fmt.Errorf("after reopen at version %s, want %d", v, version)
				}
				return checkState(t, tx, committed, rng)
			})
			if err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			stopReaders = startReaders(db)
		}
	}
	if err := stopReaders(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	count(db)
	t.Logf("%d flushes (%d through the log ring), %d checkpoints in %d transactions, %d compactions", flushes, ringFlushes, checkpoints, steps, compactions)
	if checkpoints < 20 || steps < 3*checkpoints {
		t.Fatalf("only %d checkpoints in %d steps: the test does not exercise them", checkpoints, steps)
	}
	if compactions < 10 {
		t.Fatalf("only %d compactions: the test does not exercise them", compactions)
	}
	check, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	if err := check.Check(); err != nil {
		t.Fatal(err)
	}
	// Close checkpointed everything: nothing is left to replay.
	if h := check.durable.Load(); len(h.layers) != 1 || !h.layers[0].empty() {
		t.Fatalf("after Close, %d layers to replay", len(h.layers))
	}
}

// checkpointAll freezes the active layer and waits until every layer is in
// the file.
func (db *DB) checkpointAll(t testing.TB) {
	t.Helper()
	db.writeSlot <- struct{}{}
	db.freeze(true)
	db.releaseWriter()
	db.signal()
	deadline := time.Now().Add(10 * time.Second)
	for {
		db.mu.Lock()
		n := len(db.head.layers)
		db.mu.Unlock()
		if n == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("checkpoint did not finish")
		}
		time.Sleep(time.Millisecond)
	}
}

// readUntilStopped starts n readers, reader r checking one read transaction
// after another with check(r, tx), until the returned stop is called; stop
// waits for them and returns the first error any of them met (each stops at
// its first).
func readUntilStopped(db *DB, n int, check func(r int, tx *Tx) error) (stop func() error) {
	done := make(chan struct{})
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for r := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				tx, err := db.Begin(false)
				if err != nil {
					errs <- err
					return
				}
				err = check(r, tx)
				tx.Rollback()
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	return func() error {
		close(done)
		wg.Wait()
		select {
		case err := <-errs:
			return err
		default:
			return nil
		}
	}
}

// TestReadSnapshotNeverNewerThanView lands a checkpoint of a newer commit
// between a reader's taking the durable view and its opening the file's
// snapshot: the reader must not see that commit's changes through the file
// while its view's memtable says an older state.
func TestReadSnapshotNeverNewerThanView(t *testing.T) {
	db, err := Open(checkedPath(t, "x.db"), Options{NoSync: true, CheckpointAfterIdle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	put := func(k, v string) {
		t.Helper()
		if err := putIn(db, "s", k, v); err != nil {
			t.Fatal(err)
		}
	}
	put("w", "0")
	db.checkpointAll(t) // keyspace s is in the file
	put("x", "1")       // in the active layer of the view the reader takes
	fired := false
	hook := func() {
		if fired {
			return
		}
		fired = true
		put("x", "3")
		put("y", "2")
		db.checkpointAll(t) // the file now holds x=3 and y
	}
	db.hookBeginRead.Store(&hook)
	err = db.View(func(tx *Tx) error {
		// Either state before the hook's commits or after them, not the
		// old view's x over the new file's y.
		x, y := tx.Space("s").Get([]byte("x")), tx.Space("s").Get([]byte("y"))
		if !(string(x) == "1" && y == nil) && !(string(x) == "3" && string(y) == "2") {
			return fmt.Errorf("x=%q y=%q: a snapshot of the file newer than the view", x, y)
		}
		return nil
	})
	db.hookBeginRead.Store(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !fired {
		t.Fatal("hook did not run")
	}
}

// TestGroupCommit: concurrent writers' commits share flushes, and every
// commit that returned is there after a crash.
func TestGroupCommit(t *testing.T) {
	path := checkedPath(t, "g.db")
	db, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("s"); return err }); err != nil {
		t.Fatal(err)
	}
	// Each flush takes a moment, as an fsync would, so commits queue up.
	slow := func() error { time.Sleep(200 * time.Microsecond); return nil }
	db.hookFlush.Store(&slow)
	before := db.flushes.Load()
	const writers, each = 8, 100
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				err := db.Update(func(tx *Tx) error {
					return tx.Space("s").Put([]byte(fmt.Sprintf("w%d-%03d", w, i)), nil)
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	flushes := db.flushes.Load() - before
	t.Logf("%d commits in %d flushes", writers*each, flushes)
	if flushes >= writers*each*3/4 {
		t.Errorf("%d commits took %d flushes: concurrent commits did not share them", writers*each, flushes)
	}
	db = crashAndReopen(t, db, path, Options{NoSync: true})
	defer db.Close()
	err = db.View(func(tx *Tx) error {
		if n := tx.Space("s").Count(); n != writers*each {
			return fmt.Errorf("%d rows after crash, want %d", n, writers*each)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestFailedFlush: a commit whose log record could not be written is told
// its outcome is unknown (its record might have reached the disk), no
// later write is accepted (after a failed fsync the file on disk cannot be
// trusted until a restart replays the log); reads go on. Nothing of it
// was written here, so after a restart it is not there.
func TestFailedFlush(t *testing.T) {
	path := checkedPath(t, "f.db")
	db, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	put := func(db *DB, k string) error { return putIn(db, "s", k, k) }
	if err := put(db, "a"); err != nil {
		t.Fatal(err)
	}
	broken := func() error { return errors.New("injected: no space left on device") }
	db.hookFlush.Store(&broken)
	err = put(db, "b")
	if pgerror.CodeOf(err) != pgerror.TransactionResolutionUnknown {
		db.Close()
		t.Fatalf("commit with a failed flush: %v (%s), want 08007", err, pgerror.CodeOf(err))
	}
	if _, err := db.Begin(true); pgerror.CodeOf(err) != pgerror.IOError {
		t.Fatalf("Begin(true) after a failed flush: %v", err)
	}
	err = db.View(func(tx *Tx) error {
		if tx.Space("s").Get([]byte("a")) == nil || tx.Space("s").Get([]byte("b")) != nil {
			return errors.New("reads after a failed flush do not show exactly the durable state")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err == nil {
		t.Fatal("Close after a failed flush reported no error")
	}
	db, err = Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx *Tx) error {
		if tx.Space("s").Get([]byte("a")) == nil || tx.Space("s").Get([]byte("b")) != nil {
			return errors.New("after restart: want a, not b")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := put(db, "c"); err != nil {
		t.Fatalf("write after restart: %v", err)
	}
}

// TestLargeValueSurvivesReplay: a value bigger than a log part is cut into
// several parts and put together again by the replay.
func TestLargeValueSurvivesReplay(t *testing.T) {
	path := checkedPath(t, "l.db")
	db, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), (2*walPartSize+12345)/16)
	err = db.Update(func(tx *Tx) error {
		sp, err := tx.CreateSpace("s")
		if err != nil {
			return err
		}
		if err := sp.Put([]byte("small"), []byte("x")); err != nil {
			return err
		}
		return sp.Put([]byte("big"), big)
	})
	if err != nil {
		t.Fatal(err)
	}
	db = crashAndReopen(t, db, path, Options{NoSync: true})
	defer db.Close()
	err = db.View(func(tx *Tx) error {
		if got := tx.Space("s").Get([]byte("big")); !bytes.Equal(got, big) {
			return fmt.Errorf("big value after replay: %d bytes, want %d", len(got), len(big))
		}
		if got := tx.Space("s").Get([]byte("small")); string(got) != "x" {
			return fmt.Errorf("small = %q", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCommitsDuringCheckpoints: commits keep being made durable (through
// the log ring) while checkpoints and compactions run, none is lost across
// a crash, and checkpoints keep up with steady commits rather than running
// only once the full memtables stalled every writer.
func TestCommitsDuringCheckpoints(t *testing.T) {
	testCommitsDuringCheckpoints(t, Options{NoSync: true, MemtableSize: 64 << 10, blockSize: 1 << 10}, false)
}

// TestCheckpointsUnderSteadyCommits: the same with fsync on and writers
// committing back to back, faster than checkpoints can keep up: commits
// then wait for room, but never longer than for a checkpoint to finish.
func TestCheckpointsUnderSteadyCommits(t *testing.T) {
	testCommitsDuringCheckpoints(t, Options{MemtableSize: 64 << 10, blockSize: 4 << 10}, true)
}

func testCommitsDuringCheckpoints(t *testing.T, opts Options, steady bool) {
	path := checkedPath(t, "r.db")
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("s"); return err }); err != nil {
		t.Fatal(err)
	}
	const writers, each = 4, 300
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				err := db.Update(func(tx *Tx) error {
					// Enough per commit that layers freeze and checkpoint often.
					for j := range 20 {
						if err := tx.Space("s").Put([]byte(fmt.Sprintf("w%d-%03d-%02d", w, i, j)), bytes.Repeat([]byte{'v'}, 40)); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	ring := db.ringFlushes.Load()
	t.Logf("%d checkpoints; %d flushes, %d of them through the log ring; %d commits waited for room", db.checkpoints.Load(), db.flushes.Load(), ring, db.fullWaits.Load())
	if ring == 0 {
		t.Error("no commit went through the log ring")
	}
	if waits, cps := db.fullWaits.Load(), db.checkpoints.Load(); steady && waits > cps {
		// Commits that waited for room more often than checkpoints made
		// some: checkpoints that stalled.
		t.Errorf("commits waited for room %d times in %d checkpoints", waits, cps)
	}
	db = crashAndReopen(t, db, path, opts)
	defer db.Close()
	err = db.View(func(tx *Tx) error {
		if n := tx.Space("s").Count(); n != writers*each*20 {
			return fmt.Errorf("%d entries after crash, want %d", n, writers*each*20)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestFailedFlushDuringCheckpoints: when a flush fails part-way through a
// checkpoint (not its first transaction, after several checkpoints), the
// commits it carried fail (their outcome unknown: nothing of them was
// written here, so they are not there), no later write is accepted,
// and reads show exactly the commits that were acknowledged - before a
// restart and after it, when the log's replay puts back the layer the file
// holds only part of.
func TestFailedFlushDuringCheckpoints(t *testing.T) {
	path := checkedPath(t, "fr.db")
	opts := Options{NoSync: true, MemtableSize: 64 << 10, checkpointChunk: 8 << 10, blockSize: 1 << 10}
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("s"); return err }); err != nil {
		t.Fatal(err)
	}
	// The hook runs on the log writer, which alone keeps these: the step
	// count when the checkpoints count last changed (at or after that
	// checkpoint's last step), so steps beyond it belong to the current one.
	var injected atomic.Bool
	var seenCheckpoints, stepsBefore int64
	inject := func() error {
		if cps := db.checkpoints.Load(); cps != seenCheckpoints {
			seenCheckpoints, stepsBefore = cps, db.checkpointSteps.Load()
		}
		// During a checkpoint that has committed a step already.
		if seenCheckpoints >= 3 && db.checkpointSteps.Load()-stepsBefore >= 2 && injected.CompareAndSwap(false, true) {
			return errors.New("injected: input/output error")
		}
		return nil
	}
	db.hookFlush.Store(&inject)
	const writers, entries, most = 4, 20, 20_000
	acked := make([][]string, writers)
	refused := make([]string, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range most {
				commit := fmt.Sprintf("w%d-%05d", w, i)
				err := db.Update(func(tx *Tx) error {
					for j := range entries {
						if err := tx.Space("s").Put([]byte(fmt.Sprintf("%s-%02d", commit, j)), bytes.Repeat([]byte{'v'}, 40)); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					// The commits of the failed flush do not know their
					// outcome; those after it were refused.
					if code := pgerror.CodeOf(err); code != pgerror.IOError && code != pgerror.TransactionResolutionUnknown {
						t.Errorf("commit %s: %v (%s), want 08007 or 58030", commit, err, code)
					}
					refused[w] = commit
					return
				}
				acked[w] = append(acked[w], commit)
			}
		}()
	}
	wg.Wait()
	if !injected.Load() {
		t.Fatalf("no flush came during a checkpoint in %d commits", writers*most)
	}
	var want, gone []string
	for w := range writers {
		want = append(want, acked[w]...)
		if refused[w] == "" {
			t.Errorf("writer %d committed all its %d commits after the failure", w, most)
		} else {
			gone = append(gone, refused[w])
		}
	}
	t.Logf("%d commits acknowledged, %d refused; %d checkpoints before the failure", len(want), len(gone), db.checkpoints.Load())
	if _, err := db.Begin(true); pgerror.CodeOf(err) != pgerror.IOError {
		t.Fatalf("Begin(true) after a failed checkpoint: %v", err)
	}
	holdsExactly := func(db *DB, when string) {
		t.Helper()
		err := db.View(func(tx *Tx) error {
			sp := tx.Space("s")
			for _, c := range want {
				for j := range entries {
					if sp.Get([]byte(fmt.Sprintf("%s-%02d", c, j))) == nil {
						return fmt.Errorf("acknowledged commit %s is missing entry %d", c, j)
					}
				}
			}
			for _, c := range gone {
				for j := range entries {
					if sp.Get([]byte(fmt.Sprintf("%s-%02d", c, j))) != nil {
						return fmt.Errorf("refused commit %s left entry %d behind", c, j)
					}
				}
			}
			if n := sp.Count(); n != len(want)*entries {
				return fmt.Errorf("%d entries, want %d", n, len(want)*entries)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
	}
	holdsExactly(db, "after the failure")
	db = crashAndReopen(t, db, path, opts)
	defer db.Close()
	holdsExactly(db, "after a restart")
	if err := putIn(db, "s", "after", "restart"); err != nil {
		t.Fatalf("write after restart: %v", err)
	}
}

// BenchmarkCursorScanFile walks a keyspace that is all in the file (the
// memtable checkpointed), as a whole-table query does once a database is
// idle: the merged cursor's cost on top of bbolt's own.
func BenchmarkCursorScanFile(b *testing.B) {
	db, err := Open(filepath.Join(b.TempDir(), "x.db"), Options{NoSync: true, CheckpointAfterIdle: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	const rows = 100_000
	err = db.Update(func(tx *Tx) error {
		sp, err := tx.CreateSpace("t")
		if err != nil {
			return err
		}
		for i := range rows {
			if err := sp.Put(binary.BigEndian.AppendUint64(nil, uint64(i)), []byte("a row's value, about forty bytes long..")); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	db.checkpointAll(b)
	b.ResetTimer()
	for range b.N {
		err := db.View(func(tx *Tx) error {
			n := 0
			c := tx.Space("t").Cursor()
			for k, _ := c.First(); k != nil; k, _ = c.Next() {
				n++
			}
			if n != rows {
				return fmt.Errorf("%d rows, want %d", n, rows)
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// TestNewFilesGetLargePages: a new file is made with filePageSize pages; a
// file made with bbolt's default pages keeps them when opened, and goes on
// working through checkpoints and reopens (the page size is the file's).
func TestNewFilesGetLargePages(t *testing.T) {
	pageSize := func(db *DB) int { return db.bolt.Info().PageSize }
	fresh, err := Open(checkedPath(t, "new.db"), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := pageSize(fresh); got != filePageSize {
		t.Errorf("new file has %d-byte pages, want %d", got, filePageSize)
	}
	fresh.Close()

	path := checkedPath(t, "old.db")
	put := func(db *DB, from, to int) {
		t.Helper()
		err := db.Update(func(tx *Tx) error {
			sp, err := spaceOrCreate(tx, "s")
			if err != nil {
				return err
			}
			for i := from; i < to; i++ {
				if err := sp.Put(binary.BigEndian.AppendUint64(nil, uint64(i*7919%10007)), []byte(fmt.Sprint(i))); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		db.checkpointAll(t)
	}
	old, err := Open(path, Options{NoSync: true, pageSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	put(old, 0, 5000)
	old.Close()
	for round := 1; round <= 2; round++ {
		db, err := Open(path, Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := pageSize(db); got != 4096 {
			t.Errorf("reopened 4 KiB-page file has %d-byte pages", got)
		}
		put(db, round*5000, round*5000+5000)
		err = db.View(func(tx *Tx) error {
			n := 0
			c := tx.Space("s").Cursor()
			for k, _ := c.First(); k != nil; k, _ = c.Next() {
				n++
			}
			if want := min((round+1)*5000, 10007); n != want {
				t.Errorf("round %d: %d keys, want %d", round, n, want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
}

// TestMergesKeepSnapshots: many commits to the same keys pile runs up in
// the active layer, the merger merges them and later commits put the merged
// runs in place, while readers check that every snapshot reads all of one
// commit's values and nothing else; the keyspaces end with a few runs each.
func TestMergesKeepSnapshots(t *testing.T) {
	db, err := Open(checkedPath(t, "x.db"), Options{NoSync: true, CheckpointAfterIdle: time.Hour, MemtableSize: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	spaces := []string{"a", "b", "c"}
	const perSpace = 500
	key := func(i int) []byte { return binary.BigEndian.AppendUint64(nil, uint64(i*7919%perSpace)) }
	commit := func(round int) {
		t.Helper()
		err := db.Update(func(tx *Tx) error {
			for si, name := range spaces {
				sp, err := spaceOrCreate(tx, name)
				if err != nil {
					return err
				}
				// Keyspaces written more or less fully, so that some
				// commits' runs hold only part of what the older ones do.
				for i := range perSpace * (si + 1) / len(spaces) {
					if err := sp.Put(key(i), []byte(fmt.Sprintf("%s%d", name, round))); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// check reads every keyspace as one snapshot: the keys each round
	// writes hold that round's value.
	check := func(tx *Tx, round int) error {
		for si, name := range spaces {
			want := fmt.Sprintf("%s%d", name, round)
			sp := tx.Space(name)
			for i := range perSpace * (si + 1) / len(spaces) {
				if v := sp.Get(key(i)); string(v) != want {
					return fmt.Errorf("%s: key %d is %q, want %q", name, i, v, want)
				}
			}
			n := 0
			c := sp.Cursor()
			for k, _ := c.First(); k != nil; k, _ = c.Next() {
				n++
			}
			if want := perSpace * (si + 1) / len(spaces); n != want {
				return fmt.Errorf("%s: %d keys, want %d", name, n, want)
			}
		}
		return nil
	}
	commit(0)
	stopReader := readUntilStopped(db, 2, func(_ int, tx *Tx) error {
		round, _ := strconv.Atoi(string(tx.Space("a").Get(key(0))[1:]))
		return check(tx, round)
	})
	const rounds = 300
	for round := 1; round <= rounds; round++ {
		commit(round)
	}
	if err := stopReader(); err != nil {
		t.Fatal(err)
	}
	if err := db.View(func(tx *Tx) error { return check(tx, rounds) }); err != nil {
		t.Fatal(err)
	}
	if db.merges.Load() == 0 {
		t.Fatal("no merge was put in place")
	}
	db.mu.Lock()
	active := db.head.layers[0]
	db.mu.Unlock()
	for _, name := range spaces {
		t.Logf("keyspace %s: %d runs, %d merges in all", name, len(active.spaces.get(name).runs), db.merges.Load())
		if n := len(active.spaces.get(name).runs); n > maxRuns {
			t.Errorf("keyspace %s has %d runs after %d commits", name, n, rounds)
		}
	}
}

// TestPutsThroughAHeldSpace: puts through Space values held across a
// transaction (the first write to each keyspace, writes to another
// between, a drop and a re-create of one) land where fresh lookups would
// put them, and a crash's replay of the log rebuilds the same.
func TestPutsThroughAHeldSpace(t *testing.T) {
	path := checkedPath(t, "held.db")
	opts := Options{NoSync: true, CheckpointAfterIdle: time.Hour}
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *Tx) error {
		for _, name := range []string{"a", "b"} {
			sp, err := tx.CreateSpace(name)
			if err != nil {
				return err
			}
			if err := sp.Put([]byte("old"), []byte(name)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *Tx) error {
		a, b := tx.Space("a"), tx.Space("b")
		for _, p := range []struct {
			sp   *Space
			k, v string
		}{{a, "k1", "a1"}, {b, "k1", "b1"}, {a, "k2", "a2"}, {b, "k2", "b2"}} {
			if err := p.sp.Put([]byte(p.k), []byte(p.v)); err != nil {
				return err
			}
		}
		if err := tx.DropSpace("a"); err != nil {
			return err
		}
		if err := a.Put([]byte("k3"), []byte("a3")); !errors.Is(err, ErrSpaceNotFound) {
			t.Errorf("put into a dropped keyspace: %v, want ErrSpaceNotFound", err)
		}
		if _, err := tx.CreateSpace("a"); err != nil {
			return err
		}
		for _, p := range []struct {
			sp   *Space
			k, v string
		}{{a, "k4", "a4"}, {b, "k3", "b3"}, {a, "k5", "a5"}} {
			if err := p.sp.Put([]byte(p.k), []byte(p.v)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "a: k4=a4 k5=a5; b: k1=b1 k2=b2 k3=b3 old=b"
	checkContents(t, db, "committed", want, "a", "b")
	db = crashAndReopen(t, db, path, opts)
	checkContents(t, db, "after a crash", want, "a", "b")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}
