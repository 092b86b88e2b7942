package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cdcdb/pgerror"
)

// TestAFailedLogWriteLeavesItsCommitsOutcomeUnknown: when the write of a
// flush's log records fails - with nothing written, or after the bytes
// reached the disk (a sync reporting an error) - each commit of that flush
// is answered 08007 (its outcome unknown), a commit queued behind it and
// every later one 58030 (refused, nothing written); the failed write is
// logged with the file, its offset, its length and the OS error; and after
// a restart each commit answered 08007 is wholly there (its record was
// written) or wholly absent (it was not), and no refused one is there.
func TestAFailedLogWriteLeavesItsCommitsOutcomeUnknown(t *testing.T) {
	for _, tc := range []struct {
		fault LogWriteFault
		there bool // the failed flush's commits after the restart
	}{
		{LogWriteFailsBefore, false},
		{LogWriteFailsAfter, true},
	} {
		t.Run(map[LogWriteFault]string{LogWriteFailsBefore: "before", LogWriteFailsAfter: "after"}[tc.fault], func(t *testing.T) {
			testFailedLogWrite(t, tc.fault, tc.there)
		})
	}
}

func testFailedLogWrite(t *testing.T, fault LogWriteFault, there bool) {
	path := checkedPath(t, "fail.db")
	var logged bytes.Buffer
	var logMu sync.Mutex
	opts := Options{CheckpointAfterIdle: time.Hour, Logger: slog.New(slog.NewJSONHandler(lockedWriter{&logged, &logMu}, nil))}
	// The fault: armed, it lets one more write go (the held commit's),
	// then holds the next until released and fails it.
	var armed atomic.Int32
	failing, release := make(chan [2]int64, 1), make(chan struct{})
	opts.InjectLogWriteFault = func(off int64, n int) LogWriteFault {
		switch armed.Add(-1) {
		case 0: // the write that fails
			failing <- [2]int64{off, int64(n)}
			<-release
			return fault
		}
		return LogWriteOK
	}
	armed.Store(-1 << 30)
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := putIn(db, "s", "before", "v"); err != nil {
		t.Fatal(err)
	}
	// A commit of five puts, each under its name.
	commit := func(name string) error {
		return db.Update(func(tx *Tx) error {
			for i := range 5 {
				if err := tx.Space("s").Put(fmt.Appendf(nil, "%s/%d", name, i), []byte(name)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	// Three commits share the flush that fails: they queue while the log
	// writer is held on the flush of another.
	entered, releaseHeld := holdNextFlush(db)
	results := map[string]error{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	run := func(name string) {
		defer wg.Done()
		err := commit(name)
		mu.Lock()
		results[name] = err
		mu.Unlock()
	}
	wg.Add(1)
	go run("held")
	<-entered
	failed := []string{"f1", "f2", "f3"}
	for _, name := range failed {
		wg.Add(1)
		go run(name)
	}
	awaitQueue(t, db, len(failed))
	armed.Store(2) // the held flush's write goes, the next fails
	releaseHeld()
	where := <-failing
	// Two more commits queue behind the failing write.
	queued := []string{"q1", "q2"}
	for _, name := range queued {
		wg.Add(1)
		go run(name)
	}
	awaitQueue(t, db, len(queued))
	close(release)
	wg.Wait()
	db.hookFlush.Store(nil)
	if results["held"] != nil {
		t.Fatalf("the commit before the failed flush: %v", results["held"])
	}
	for _, name := range failed {
		pe := pgerror.As(results[name])
		if results[name] == nil || pe.Code != pgerror.TransactionResolutionUnknown || !strings.Contains(pe.Message, "outcome of this commit is unknown") ||
			!strings.Contains(pe.Detail, "may or may not have reached the disk") || pe.Hint == "" {
			t.Errorf("commit %s of the failed flush: %#v, want 08007 saying the outcome is unknown", name, pe)
		}
	}
	for _, name := range queued {
		if code := pgerror.CodeOf(results[name]); code != pgerror.IOError {
			t.Errorf("commit %s queued behind the failed flush: %v, want 58030", name, results[name])
		}
	}
	err = commit("later")
	if pe := pgerror.As(err); err == nil || pe.Code != pgerror.IOError || !strings.Contains(pe.Detail, "not committed") {
		t.Errorf("a commit after the failure: %v, want 58030 saying it was not committed", err)
	}
	// The log line of the failed write.
	logMu.Lock()
	lines := strings.Split(strings.TrimSpace(logged.String()), "\n")
	logMu.Unlock()
	found := false
	for _, line := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if rec["msg"] != "writing commits' log records to the database file failed" {
			continue
		}
		found = true
		if rec["file"] != path || rec["offset"] != float64(where[0]) || rec["length"] != float64(where[1]) || !strings.Contains(fmt.Sprint(rec["err"]), "input/output error") {
			t.Errorf("the failed write's log line: %s, want file %s, offset %d, length %d and the OS error", line, path, where[0], where[1])
		}
	}
	if !found {
		t.Errorf("the failed write was not logged: %q", lines)
	}
	db = crashAndReopen(t, db, path, Options{NoSync: true})
	defer db.Close()
	err = db.View(func(tx *Tx) error {
		sp := tx.Space("s")
		wholly := func(name string) (bool, error) {
			n := 0
			for i := range 5 {
				if sp.Get(fmt.Appendf(nil, "%s/%d", name, i)) != nil {
					n++
				}
			}
			if n != 0 && n != 5 {
				return false, fmt.Errorf("commit %s is there in part: %d of its 5 puts", name, n)
			}
			return n == 5, nil
		}
		for _, name := range append([]string{"held"}, failed...) {
			got, err := wholly(name)
			if err != nil {
				return err
			}
			if want := name == "held" || there; got != want {
				return fmt.Errorf("commit %s there after the restart: %v, want %v", name, got, want)
			}
		}
		for _, name := range append(queued, "later") {
			if got, err := wholly(name); err != nil || got {
				return fmt.Errorf("refused commit %s is there after the restart (%v)", name, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// awaitQueue waits until n commits wait in the queue for the log writer.
func awaitQueue(t *testing.T, db *DB, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); db.queueLen() < n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d commits queued", db.queueLen(), n)
		}
	}
}

// lockedWriter serialises writes to w (the log writer's and the test's).
type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestAFailedCheckpointLeavesTheFlushUnderWayUnknown: when a checkpoint's
// file transaction fails while a flush is being written, the flush's
// records reach the disk, but the database threw its commits out of
// memory: they are answered 08007, not 58030, and a restart finds them.
// (This is how, on a full disk, a commit answered 58030 was found after
// the restart.)
func TestAFailedCheckpointLeavesTheFlushUnderWayUnknown(t *testing.T) {
	path := checkedPath(t, "ckpt.db")
	db, err := Open(path, Options{NoSync: true, CheckpointAfterIdle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := putIn(db, "s", "before", "v"); err != nil {
		t.Fatal(err)
	}
	// The flush of "during" waits in its hook while the database fails,
	// as a checkpoint's failed write fails it.
	entered, release := holdNextFlush(db)
	done := make(chan error, 1)
	go func() { done <- putIn(db, "s", "during", "v") }()
	<-entered
	db.fail(errors.New("injected: a checkpoint's write: no space left on device"))
	release()
	err = <-done
	if code := pgerror.CodeOf(err); code != pgerror.TransactionResolutionUnknown {
		t.Fatalf("the commit whose flush was under way: %v (%s), want 08007", err, code)
	}
	db = crashAndReopen(t, db, path, Options{NoSync: true})
	defer db.Close()
	err = db.View(func(tx *Tx) error {
		if tx.Space("s").Get([]byte("during")) == nil {
			return errors.New("the commit whose record reached the disk is not there after the restart")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
