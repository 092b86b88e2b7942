package storage

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// fileMapping returns the address range of the memory map of path, from
// /proc/self/maps.
func fileMapping(t *testing.T, path string) (start, end uintptr) {
	t.Helper()
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasSuffix(line, " "+path) {
			continue
		}
		if _, err := fmt.Sscanf(line, "%x-%x", &start, &end); err != nil {
			t.Fatal(err)
		}
		return start, end
	}
	t.Fatalf("%s is not mapped", path)
	return 0, 0
}

// TestReleaseFilePagesStaysInsideTheMap: bbolt grows the file in steps of
// AllocSize beyond what its map covers, so the file can be longer than the
// map. releaseFilePages must not drop pages past the map's end: the memory
// mapped there is someone else's (when it advised the whole file, the Go
// runtime's own memory after the map was zeroed and the process crashed).
func TestReleaseFilePagesStaysInsideTheMap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	// The records (1 MiB) are larger than the log ring (its first segment,
	// which may not grow), so they go to the log bucket and grow the file.
	db, err := Open(path, Options{NoSync: true, MmapSize: 32 << 20, MemtableSize: 1 << 30, CheckpointAfterIdle: time.Hour, ringBytes: 4 << 10, ringMax: 4 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("s"); return err }); err != nil {
		t.Fatal(err)
	}
	// Write until the file is longer than its map: the log records alone
	// grow it (no checkpoint runs, so releaseFilePages runs only below).
	var fi os.FileInfo
	var start, end uintptr
	for round := 0; ; round++ {
		if round == 200 {
			t.Fatal("the file never outgrew its map")
		}
		err = db.Update(func(tx *Tx) error {
			for i := range 10 {
				if err := tx.Space("s").Put([]byte(fmt.Sprintf("k%03d-%d", round, i)), bytes.Repeat([]byte{byte(i)}, 100<<10)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if fi, err = os.Stat(path); err != nil {
			t.Fatal(err)
		}
		if start, end = fileMapping(t, path); fi.Size() > int64(end-start) {
			break
		}
	}
	t.Logf("file %d bytes, mapped %d bytes", fi.Size(), end-start)
	m := db.mappedFilePages()
	if p := uintptr(unsafe.Pointer(unsafe.SliceData(m))); p != start || uintptr(len(m)) > end-start {
		t.Fatalf("releaseFilePages would drop [%#x, %#x), the file's map is [%#x, %#x)", p, p+uintptr(len(m)), start, end)
	}
	db.releaseFilePages()
	err = db.View(func(tx *Tx) error {
		if n := tx.Space("s").Count(); n == 0 {
			return fmt.Errorf("no rows")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// fileMappingRSS returns how many bytes of path's memory map are resident
// in the process (mapped), from /proc/self/smaps.
func fileMappingRSS(t *testing.T, path string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, "-") && strings.Contains(line, " ") && !strings.Contains(line, ":") || strings.HasSuffix(line, " "+path) {
			in = strings.HasSuffix(line, " "+path)
			continue
		}
		var kb int64
		if in && strings.HasPrefix(line, "Rss:") {
			if _, err := fmt.Sscanf(line, "Rss: %d kB", &kb); err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("%s is not mapped", path)
	return 0
}

// settle waits until the flusher has checkpointed every frozen layer.
func settle(t *testing.T, db *DB) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); db.Stats().Layers > 1; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the flusher never checkpointed the frozen layers")
		}
	}
}

// mapAndCheckpoint fills db's keyspace "s" with commits large enough that
// each freezes a layer, reads it all (mapping the file's pages), then
// commits again so that the flusher checkpoints and compacts, and returns
// how much of the file was mapped after the read and half a second after
// the flusher had checkpointed those commits. Until it returns, commits
// keep coming (every few milliseconds, from busy), so the database is
// never idle, and the flusher takes a transaction every 100 ms or so.
func mapAndCheckpoint(t *testing.T, db *DB, path string) (afterRead, afterFlusher int64) {
	t.Helper()
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("s"); return err }); err != nil {
		t.Fatal(err)
	}
	write := func(round int) {
		err := db.Update(func(tx *Tx) error {
			for i := range 32 {
				if err := tx.Space("s").Put([]byte(fmt.Sprintf("k%03d-%03d", i, round)), bytes.Repeat([]byte{byte(round)}, 4<<10)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	}
	for round := range 40 {
		write(round)
	}
	stop := make(chan struct{})
	busy := make(chan struct{})
	go func() {
		defer close(busy)
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			if err := db.Update(func(tx *Tx) error { return tx.Space("s").Put([]byte("busy"), []byte("x")) }); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	defer func() {
		close(stop)
		<-busy
	}()
	settle(t, db)
	err := db.View(func(tx *Tx) error {
		if n := tx.Space("s").Count(); n < 40*32 {
			return fmt.Errorf("%d rows", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	afterRead = fileMappingRSS(t, path)
	for round := 40; round < 60; round++ {
		write(round)
	}
	settle(t, db)
	steps := db.Stats().CheckpointSteps
	time.Sleep(500 * time.Millisecond)
	if db.Stats().CheckpointSteps == steps {
		t.Fatal("the flusher took no transaction while the test waited")
	}
	return afterRead, fileMappingRSS(t, path)
}

// TestFlusherReleasesTheFileOverBudgetOrIdle: between its transactions,
// the flusher drops the file's mapped pages only when the process maps
// more of files than its budget (defaultMappedBudget); while writers keep
// committing, its timer does not drop them either. Pages dropped are
// faulted back in by the next read, which on the machines cdcdb is
// measured on was a tenth of a flow's ingest time. Once idle, it drops
// them.
func TestFlusherReleasesTheFileOverBudgetOrIdle(t *testing.T) {
	opts := Options{NoSync: true, MemtableSize: 64 << 10, CheckpointAfterIdle: 200 * time.Millisecond, checkpointChunk: 64 << 10}

	t.Run("under budget", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "under.db")
		o := opts
		o.mappedBudget = 1 << 40
		db, err := Open(path, o)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		afterRead, afterFlusher := mapAndCheckpoint(t, db, path)
		t.Logf("mapped %d KiB after the read, %d KiB after the flusher's checkpoints", afterRead>>10, afterFlusher>>10)
		if afterRead < 64<<10 {
			t.Fatalf("reading the keyspace mapped only %d bytes of the file", afterRead)
		}
		if afterFlusher < afterRead/2 {
			t.Fatalf("the flusher released the file's pages under budget while writers were busy: %d bytes mapped, %d before", afterFlusher, afterRead)
		}
		// Idle now: the timer releases them.
		for deadline := time.Now().Add(10 * time.Second); fileMappingRSS(t, path) >= afterRead/4; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("an idle flusher kept %d bytes of the file mapped", fileMappingRSS(t, path))
			}
		}
	})

	t.Run("over budget", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "over.db")
		o := opts
		o.mappedBudget = 1 // the program's own code is over it
		db, err := Open(path, o)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		afterRead, afterFlusher := mapAndCheckpoint(t, db, path)
		t.Logf("mapped %d KiB after the read, %d KiB after the flusher's checkpoints", afterRead>>10, afterFlusher>>10)
		if afterFlusher >= afterRead/4 {
			t.Fatalf("over budget, the flusher kept the file's pages mapped: %d bytes, %d before", afterFlusher, afterRead)
		}
	})
}
