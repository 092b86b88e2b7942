package storage

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	bolt "go.etcd.io/bbolt"
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

// openWithRecordsPastTheRing opens a file whose log ring is smaller than
// a putRound of 100 KiB values (its first segment, 4 KiB, may not grow),
// so that the commits' records go to the log bucket and grow the file,
// mapped mmapSize bytes at first, and creates keyspace "s". No
// checkpoint runs.
func openWithRecordsPastTheRing(t *testing.T, path string, mmapSize int) *DB {
	t.Helper()
	db, err := Open(path, Options{NoSync: true, MmapSize: mmapSize, MemtableSize: 1 << 30, CheckpointAfterIdle: time.Hour, ringBytes: 4 << 10, ringMax: 4 << 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("s"); return err }); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestReleaseFilePagesStaysInsideTheMap: bbolt grows the file in steps of
// AllocSize beyond what its map covers, so the file can be longer than the
// map. releaseFilePages must not drop pages past the map's end: the memory
// mapped there is someone else's (when it advised the whole file, the Go
// runtime's own memory after the map was zeroed and the process crashed).
func TestReleaseFilePagesStaysInsideTheMap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	db := openWithRecordsPastTheRing(t, path, 32<<20)
	// Write until the file is longer than its map: the log records alone
	// grow it (no checkpoint runs, so releaseFilePages runs only below).
	var fi os.FileInfo
	var start, end uintptr
	var err error
	for round := 0; ; round++ {
		if round == 200 {
			t.Fatal("the file never outgrew its map")
		}
		if err := putRound(db, round, 10, 100<<10); err != nil {
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
	err = db.bolt.View(func(btx *bolt.Tx) error {
		m := db.mappedFilePages(btx)
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(m))); p != start || uintptr(len(m)) > end-start {
			return fmt.Errorf("releaseFilePages would drop [%#x, %#x), the file's map is [%#x, %#x)", p, p+uintptr(len(m)), start, end)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
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

// TestReleasingTheFilesPagesHoldsTheMapInPlace: a write transaction that
// grows the file past bbolt's map remaps it, possibly elsewhere, and
// releaseFilePages must not advise an address that is no longer the
// file's. The log writer remaps when it stores a record too large for the
// ring, whatever the flusher is doing; the release's read transaction
// makes such a remap wait until the release is done.
func TestReleasingTheFilesPagesHoldsTheMapInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "remap.db")
	// The map starts small, so a few records outgrow it.
	db := openWithRecordsPastTheRing(t, path, 4<<20)
	start, end := fileMapping(t, path)
	wrote := make(chan error, 1)
	var once sync.Once
	hook := func() {
		once.Do(func() {
			// Commit until the file outgrows the map, while the release
			// holds the map's address.
			go func() {
				for round := range 40 {
					if err := putRound(db, round, 10, 100<<10); err != nil {
						wrote <- err
						return
					}
				}
				wrote <- nil
			}()
			time.Sleep(300 * time.Millisecond)
			if s, e := fileMapping(t, path); s != start || e != end {
				t.Errorf("bbolt remapped the file from [%#x, %#x) to [%#x, %#x) while a release held the map's address", start, end, s, e)
			}
		})
	}
	db.hookRelease.Store(&hook)
	db.releaseFilePages()
	select {
	case err := <-wrote:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the commits never finished")
	}
	if s, e := fileMapping(t, path); s == start && e == end {
		t.Fatalf("the file's map never grew from %d bytes: not the case this test is for", end-start)
	}
}

// putRound commits n values of size bytes into keyspace "s", under keys
// of their round and index.
func putRound(db *DB, round, n, size int) error {
	return db.Update(func(tx *Tx) error {
		for i := range n {
			if err := tx.Space("s").Put([]byte(fmt.Sprintf("k%03d-%03d", round, i)), bytes.Repeat([]byte{byte(round + i)}, size)); err != nil {
				return err
			}
		}
		return nil
	})
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
		// A mapping's lines start with its address range, its fields'
		// lines with "Name:".
		if f := strings.Fields(line); len(f) > 0 && !strings.HasSuffix(f[0], ":") {
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

// readAll reads every value of keyspace "s", which must hold at least n,
// mapping the file's pages that hold them.
func readAll(t *testing.T, db *DB, n int) {
	t.Helper()
	err := db.View(func(tx *Tx) error {
		rows, sum := 0, 0
		c := tx.Space("s").Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			rows++
			for i := 0; i < len(v); i += 1024 {
				sum += int(v[i])
			}
		}
		if rows < n {
			return fmt.Errorf("%d rows, want %d (sum %d)", rows, n, sum)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// keepCommitting commits a put into keyspace "s" every 5 ms, so that db is
// never idle, until the function it returns is called.
func keepCommitting(t *testing.T, db *DB) (stop func()) {
	done := make(chan struct{})
	busy := make(chan struct{})
	go func() {
		defer close(busy)
		for {
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
			if err := db.Update(func(tx *Tx) error { return tx.Space("s").Put([]byte("busy"), []byte("x")) }); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	return func() {
		close(done)
		<-busy
	}
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
// commits again so that the flusher checkpoints and compacts; once the
// flusher has checkpointed those commits and taken a few transactions
// more, it calls check with how much of the file the read had mapped.
// Until check returns, commits keep coming (keepCommitting), so the
// database is never idle, and the flusher takes a transaction every 100 ms
// or so.
func mapAndCheckpoint(t *testing.T, db *DB, path string, check func(afterRead int64)) {
	t.Helper()
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("s"); return err }); err != nil {
		t.Fatal(err)
	}
	for round := range 40 {
		if err := putRound(db, round, 32, 4<<10); err != nil {
			t.Fatal(err)
		}
	}
	defer keepCommitting(t, db)()
	settle(t, db)
	readAll(t, db, 40*32)
	afterRead := fileMappingRSS(t, path)
	for round := 40; round < 60; round++ {
		if err := putRound(db, round, 32, 4<<10); err != nil {
			t.Fatal(err)
		}
	}
	// A layer freezes at the first commit after it grew past the
	// memtable's size: this one freezes the last rounds' if they did.
	if err := db.Update(func(tx *Tx) error { return tx.Space("s").Put([]byte("last"), []byte("x")) }); err != nil {
		t.Fatal(err)
	}
	settle(t, db)
	// Counted in the flusher's transactions, not in time: under the race
	// detector on a loaded 2-core machine, half a second once held none.
	const stepsToWait = 4
	steps := db.Stats().CheckpointSteps
	for deadline := time.Now().Add(30 * time.Second); db.Stats().CheckpointSteps < steps+stepsToWait; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the flusher took %d transactions in 30 s while writers were busy", db.Stats().CheckpointSteps-steps)
		}
	}
	check(afterRead)
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
		var afterRead int64
		mapAndCheckpoint(t, db, path, func(read int64) {
			afterRead = read
			if read < 1<<20 {
				t.Fatalf("reading the keyspace mapped only %d bytes of the file", read)
			}
			now := fileMappingRSS(t, path)
			t.Logf("mapped %d KiB after the read, %d KiB after the flusher's checkpoints", read>>10, now>>10)
			if now < read/2 {
				t.Fatalf("the flusher released the file's pages under budget while writers were busy: %d bytes mapped, %d before", now, read)
			}
		})
		// Idle now: the timer releases them. The wait is as long as the
		// one above: under the race detector on a loaded 2-core machine
		// the flusher's idle ticks once came later than 10 s.
		for deadline := time.Now().Add(30 * time.Second); fileMappingRSS(t, path) >= afterRead/4; time.Sleep(50 * time.Millisecond) {
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
		mapAndCheckpoint(t, db, path, func(int64) {
			// Map the file's pages again: the flusher, taking a
			// transaction every 100 ms or so, drops them after the next.
			readAll(t, db, 60*32)
			const floor = 1 << 20
			for deadline := time.Now().Add(5 * time.Second); fileMappingRSS(t, path) >= floor; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("over budget, the flusher kept %d bytes of the file mapped", fileMappingRSS(t, path))
				}
			}
		})
	})
}

// TestFlusherReleasesTheFileOverBudgetBetweenCheckpoints: while writers
// keep committing and the flusher has nothing to checkpoint or compact,
// what readers map of the file still goes back once it is over budget,
// soon (mappedBudgetCheckEvery), not at the flusher's idle timer. Before,
// it stayed until the next checkpoint: in the benchmark's BITEMPORAL feed
// the file's mapped pages went 100 MiB past the budget, and the server's
// peak RSS past 512 MiB; looking at the idle timer's 250 ms tick, 50 MiB.
func TestFlusherReleasesTheFileOverBudgetBetweenCheckpoints(t *testing.T) {
	path := filepath.Join(t.TempDir(), "between.db")
	// No block cache: each read of the keyspace maps the file again. The
	// idle timer ticks every 15 minutes: only the budget's own look can
	// release the pages within the test's deadline. So layers freeze by
	// size, not when idle: the rounds fill one, and the writers' small
	// commits below (each takes a few KiB of a layer) do not fill the
	// next within the test.
	const memtable = 8 << 20
	db, err := Open(path, Options{NoSync: true, MemtableSize: memtable, CheckpointAfterIdle: time.Hour, BlockCacheSize: NoBlockCache, mappedBudget: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("s"); return err }); err != nil {
		t.Fatal(err)
	}
	const rounds = 80 // of 128 KiB: the first 64 or so are checkpointed
	for round := range rounds {
		if err := putRound(db, round, 32, 4<<10); err != nil {
			t.Fatal(err)
		}
	}
	settle(t, db)
	awaitNoFileTransactions(t, db)
	defer keepCommitting(t, db)()
	before := db.Stats()
	readThenAwaitRelease(t, db, path, rounds*32, "over budget between checkpoints")
	if after := db.Stats(); after.CheckpointSteps != before.CheckpointSteps || after.CompactionSteps != before.CompactionSteps {
		t.Fatalf("the flusher took file transactions meanwhile (checkpoints %d to %d, compactions %d to %d): not the case this test is for",
			before.CheckpointSteps, after.CheckpointSteps, before.CompactionSteps, after.CompactionSteps)
	}
}

// TestIdleFlusherReleasesWhatReadersMapOverBudget: with no writer for a
// while, an idle flusher releases the file's pages once after the last
// commit or checkpoint, then only every idleReleaseEvery (30 s) for what
// readers map; but what readers map past the budget goes back at its next
// tick, not half a minute later.
func TestIdleFlusherReleasesWhatReadersMapOverBudget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "idle.db")
	opts := idleCheckpointOptions()
	opts.mappedBudget = 1
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const rounds = 40 // of 128 KiB
	fillAndCheckpoint(t, db, rounds)
	before := db.Stats()
	readThenAwaitRelease(t, db, path, rounds*32, "idle and over budget")
	if after := db.Stats(); after.Commits != before.Commits || after.CheckpointSteps != before.CheckpointSteps || after.CompactionSteps != before.CompactionSteps {
		t.Fatalf("the database was written meanwhile (%+v, before %+v): not the case this test is for", after, before)
	}
}

// fillAndCheckpoint creates keyspace "s" in db, opened with a short
// CheckpointAfterIdle and a memtable larger than what it puts, commits
// rounds rounds of 128 KiB into it, and waits until the idle flusher has
// checkpointed them and stopped writing the file.
func fillAndCheckpoint(t *testing.T, db *DB, rounds int) {
	t.Helper()
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("s"); return err }); err != nil {
		t.Fatal(err)
	}
	for round := range rounds {
		if err := putRound(db, round, 32, 4<<10); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(30 * time.Second); db.Stats().MemtableBytes > 0 || db.Stats().Layers > 1; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the idle flusher never checkpointed the rows: %+v", db.Stats())
		}
	}
	awaitNoFileTransactions(t, db)
}

// awaitNoFileTransactions waits for half a second in which the flusher
// took no checkpoint or compaction transaction: after a checkpoint, it may
// merge runs.
func awaitNoFileTransactions(t *testing.T, db *DB) {
	t.Helper()
	for deadline, quietSince, last := time.Now().Add(20*time.Second), time.Now(), db.Stats(); time.Since(quietSince) < 500*time.Millisecond; time.Sleep(20 * time.Millisecond) {
		if now := db.Stats(); now.CheckpointSteps != last.CheckpointSteps || now.CompactionSteps != last.CompactionSteps {
			quietSince, last = time.Now(), now
		}
		if time.Now().After(deadline) {
			t.Fatal("the flusher never stopped writing the file")
		}
	}
}

// readThenAwaitRelease reads db's keyspace "s" (rows rows) with the
// mapped-file budget out of reach, checks that the read mapped 4 MiB of
// the file or more, then puts the budget back and fails unless the flusher
// releases the file's pages within 5 s. With the budget in reach, the
// flusher's look every 20 ms released the pages part-way through a read
// slowed by the race detector.
func readThenAwaitRelease(t *testing.T, db *DB, path string, rows int, situation string) {
	t.Helper()
	const floor = 1 << 20
	budget := db.mappedBudget.Load()
	db.mappedBudget.Store(1 << 50)
	releases := db.Stats().FileReleases
	readAll(t, db, rows)
	if read := fileMappingRSS(t, path); read < 4*floor {
		t.Fatalf("reading the keyspace mapped only %d bytes of the file (%+v)", read, db.Stats())
	}
	if db.Stats().FileReleases != releases {
		t.Fatalf("the flusher released the file's pages over a budget out of reach (%+v)", db.Stats())
	}
	db.mappedBudget.Store(budget)
	for deadline := time.Now().Add(5 * time.Second); fileMappingRSS(t, path) >= floor; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s, the flusher kept %d bytes of the file mapped", situation, fileMappingRSS(t, path))
		}
	}
	if db.Stats().FileReleases == releases {
		t.Fatal("the mapped pages went without a release: the test measures something else")
	}
}

// TestDroppingALargeKeyspaceKeepsTheFileMappedWithinBudget: deleting a
// block maps its page of the file (and the kernel, the pages around it),
// and so does the commit that frees it. The checkpoint of a dropped
// keyspace only unlists its runs; their blocks go a chunk per transaction
// after (collectGarbageStep), with the flusher's look at the budget
// between, so no transaction ends having mapped the whole keyspace. When
// the checkpoint deleted them all, the benchmark's drop of its BITEMPORAL
// warm-up's tables took the file's mapped pages 117 MiB past the budget,
// and this test failed with 35 MiB mapped.
func TestDroppingALargeKeyspaceKeepsTheFileMappedWithinBudget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "drop.db")
	db := openWithTightBudget(t, path)
	fillAndCheckpoint(t, db, 240) // 30 MiB

	// Every transaction from here on is the drop's: the most of the file
	// mapped at the end of one, before the flusher's own look.
	before := db.Stats().CompactionSteps
	var most atomic.Int64
	measure := func() {
		if m := fileMappingRSS(t, path); m > most.Load() {
			most.Store(m)
		}
	}
	db.hookFileStep.Store(&measure)
	defer db.hookFileStep.Store(nil)
	dropAndAwaitCheckpoint(t, db)
	t.Logf("at most %d KiB of the file mapped at the end of the drop's transactions, %d of them deleting blocks",
		most.Load()>>10, db.Stats().CompactionSteps-before)
	if db.Stats().CompactionSteps-before < 2 {
		t.Fatalf("the drop's blocks went in %d transactions: not the case this test is for", db.Stats().CompactionSteps-before)
	}
	if limit := int64(mostMappedAfterAStep); most.Load() > limit {
		t.Fatalf("the drop's transaction ended with %d KiB of the file mapped, more than %d KiB: it mapped the keyspace", most.Load()>>10, limit>>10)
	}
	// And every block went: the keyspace was the file's only one.
	if n := blockCount(t, db); n != 0 {
		t.Fatalf("%d blocks left after the drop", n)
	}
}

// dropAndAwaitCheckpoint drops keyspace "s" and waits for the idle
// flusher to checkpoint the drop and then take no transaction for a while
// (awaitNoFileTransactions): the drop's blocks are deleted by then.
func dropAndAwaitCheckpoint(t *testing.T, db *DB) {
	t.Helper()
	steps := db.Stats().CheckpointSteps
	if err := db.Update(func(tx *Tx) error { return tx.DropSpace("s") }); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); db.Stats().CheckpointSteps == steps || db.Stats().Layers > 1 || db.Stats().MemtableBytes > 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the idle flusher never checkpointed the drop: %+v", db.Stats())
		}
	}
	awaitNoFileTransactions(t, db)
}

// idleCheckpointOptions are those of most tests here: a memtable that never
// fills, so the flusher checkpoints a layer only once commits stop for
// 200 ms, and no block cache, so that reads map the file.
func idleCheckpointOptions() Options {
	return Options{NoSync: true, MemtableSize: 1 << 30, CheckpointAfterIdle: 200 * time.Millisecond, BlockCacheSize: NoBlockCache}
}

// tightBudgetMargin is how far over what the process maps when it starts
// (this test binary included: the budget counts every file mapped)
// openWithTightBudget sets the mapped-file budget; mostMappedAfterAStep is
// what such a test lets the file's mapped pages reach at the end of one of
// the flusher's transactions: the margin, a chunk of deletes past it
// (db.chunk, 4 MiB), and what the transaction reads besides.
const (
	tightBudgetMargin    = 4 << 20
	mostMappedAfterAStep = tightBudgetMargin + 8<<20
)

// openWithTightBudget opens path with idleCheckpointOptions and a
// mapped-file budget tightBudgetMargin over what the process maps now.
func openWithTightBudget(t *testing.T, path string) *DB {
	t.Helper()
	opts := idleCheckpointOptions()
	opts.mappedBudget = mappedFileBytes() + tightBudgetMargin
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// blockCount returns how many run blocks db's file holds.
func blockCount(t *testing.T, db *DB) int {
	t.Helper()
	var n int
	if err := db.bolt.View(func(btx *bolt.Tx) error { n = btx.Bucket(blocksBucket).Stats().KeyN; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestACrashBeforeADroppedKeyspacesBlocksAreGoneLeavesNone: the blocks of
// unlisted runs are deleted after the checkpoint that unlisted them; a
// crash in between leaves blocks with no meta, which the next Open deletes
// (tidyRuns).
func TestACrashBeforeADroppedKeyspacesBlocksAreGoneLeavesNone(t *testing.T) {
	path := checkedPath(t, "crash.db")
	opts := idleCheckpointOptions()
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	fillAndCheckpoint(t, db, 120) // 15 MiB: four chunks of blocks
	// Stop the flusher after the first transaction that deletes blocks.
	before := db.Stats().CompactionSteps
	stop := func() {
		if db.Stats().CompactionSteps > before {
			db.crashed.Store(true)
		}
	}
	db.hookFileStep.Store(&stop)
	if err := db.Update(func(tx *Tx) error { return tx.DropSpace("s") }); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); !db.crashed.Load(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the flusher never deleted the dropped keyspace's blocks: %+v", db.Stats())
		}
	}
	db.crash()
	// Read the file as the crash left it.
	raw, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var left int
	_ = raw.View(func(btx *bolt.Tx) error { left = btx.Bucket(blocksBucket).Stats().KeyN; return nil })
	raw.Close()
	if left == 0 {
		t.Fatal("the crash left no blocks to delete: not the case this test is for")
	}
	db, err = Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n := blockCount(t, db); n != 0 {
		t.Fatalf("%d blocks of the dropped keyspace left after the restart (%d after the crash)", n, left)
	}
	if err := db.View(func(tx *Tx) error {
		if tx.Space("s") != nil {
			return fmt.Errorf("the dropped keyspace is back")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestDroppingAKeyspaceMidCompactionKeepsTheFileMappedWithinBudget: a
// compaction whose keyspace is dropped part-way leaves what it wrote, a run
// without a meta. Deleting it in one transaction mapped all of it, as the
// drop's checkpoint did before it only unlisted the runs
// (TestDroppingALargeKeyspaceKeepsTheFileMappedWithinBudget); it goes a
// chunk per transaction now, with the inputs' blocks.
func TestDroppingAKeyspaceMidCompactionKeepsTheFileMappedWithinBudget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dropmid.db")
	db := openWithTightBudget(t, path)
	fillAndCheckpoint(t, db, 160) // 20 MiB, one run
	// A second run as large: the flusher merges the two, about 40 MiB in
	// ten transactions. After the fourth, the hook drops the keyspace and
	// freezes the drop's layer, which the flusher checkpoints next; the
	// compaction's next step finds its inputs gone.
	base := db.Stats()
	var dropped atomic.Bool
	var most atomic.Int64
	hook := func() {
		if dropped.Load() {
			if m := fileMappingRSS(t, path); m > most.Load() {
				most.Store(m)
			}
			return
		}
		if db.Stats().CompactionSteps-base.CompactionSteps < 4 {
			return
		}
		if err := db.Update(func(tx *Tx) error { return tx.DropSpace("s") }); err != nil {
			t.Error(err)
		}
		db.freeze(true)
		if n := db.Stats().Compactions - base.Compactions; n != 0 {
			t.Errorf("%d compactions finished before the drop: not the case this test is for", n)
		}
		dropped.Store(true)
	}
	db.hookFileStep.Store(&hook)
	defer db.hookFileStep.Store(nil)
	for round := 160; round < 320; round++ {
		// On a loaded machine the compaction may reach its fourth step,
		// and the hook drop the keyspace, before the last rounds are
		// written: those rounds have nowhere to go and are skipped.
		err := db.Update(func(tx *Tx) error {
			sp := tx.Space("s")
			if sp == nil {
				return nil
			}
			for i := range 32 {
				if err := sp.Put([]byte(fmt.Sprintf("k%03d-%03d", round, i)), bytes.Repeat([]byte{byte(round + i)}, 4<<10)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(30 * time.Second); !dropped.Load() || db.Stats().Layers > 1 || db.Stats().MemtableBytes > 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the keyspace was never dropped mid-compaction and checkpointed: %+v", db.Stats())
		}
	}
	awaitNoFileTransactions(t, db)
	t.Logf("at most %d KiB of the file mapped at the end of a transaction after the drop", most.Load()>>10)
	if limit := int64(mostMappedAfterAStep); most.Load() > limit {
		t.Fatalf("a transaction after the drop ended with %d KiB of the file mapped, more than %d KiB", most.Load()>>10, limit>>10)
	}
	if n := blockCount(t, db); n != 0 {
		t.Fatalf("%d blocks left after the drop", n)
	}
}

// TestClosingMidCompactionLeavesNoBlockWithoutAMeta: Close does not wait
// for a compaction; what it wrote is garbage, which the flusher deletes
// before it stops, so the closed file holds no block without a meta.
func TestClosingMidCompactionLeavesNoBlockWithoutAMeta(t *testing.T) {
	path := checkedPath(t, "closemid.db")
	db, err := Open(path, idleCheckpointOptions())
	if err != nil {
		t.Fatal(err)
	}
	fillAndCheckpoint(t, db, 80) // 10 MiB, one run
	// A second run as large, which the flusher merges with the first in
	// five transactions or so. After the second, the hook holds the
	// flusher until Close has begun.
	base := db.Stats()
	closing := make(chan struct{})
	var once sync.Once
	hook := func() {
		if db.Stats().CompactionSteps-base.CompactionSteps < 2 {
			return
		}
		once.Do(func() {
			close(closing)
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
				db.mu.Lock()
				c := db.closing
				db.mu.Unlock()
				if c || time.Now().After(deadline) {
					return
				}
			}
		})
	}
	db.hookFileStep.Store(&hook)
	for round := 80; round < 160; round++ {
		if err := putRound(db, round, 32, 4<<10); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-closing:
	case <-time.After(30 * time.Second):
		t.Fatalf("the flusher never began merging the runs: %+v", db.Stats())
	}
	if n := db.Stats().Compactions - base.Compactions; n != 0 {
		t.Fatalf("%d compactions finished before the close: not the case this test is for", n)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := Open(path, Options{ReadOnly: true, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if err := ro.Check(); err != nil {
		t.Fatal(err)
	}
	readAll(t, ro, 160*32)
}

// TestGarbageDoesNotWaitBehindCompactionsPastItsLimit: garbage is
// collected when no compaction is due, but not only then: past maxGarbage
// bytes it goes before the next compaction's steps, or compactions that
// follow one another would keep the file from reusing its pages.
func TestGarbageDoesNotWaitBehindCompactionsPastItsLimit(t *testing.T) {
	path := checkedPath(t, "garbage.db")
	opts := idleCheckpointOptions()
	opts.maxGarbage = 1 << 20
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Keyspace "b", 10 MiB, to be dropped; then "s", 20 MiB.
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("b"); return err }); err != nil {
		t.Fatal(err)
	}
	for round := range 80 {
		err := db.Update(func(tx *Tx) error {
			for i := range 32 {
				if err := tx.Space("b").Put([]byte(fmt.Sprintf("b%03d-%03d", round, i)), bytes.Repeat([]byte{byte(i)}, 4<<10)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	fillAndCheckpoint(t, db, 160)
	var dropped []uint64
	err = db.bolt.View(func(btx *bolt.Tx) error {
		runs, err := db.fileRuns(btx, "b")
		for _, r := range runs {
			dropped = append(dropped, r.id)
		}
		return err
	})
	if err != nil || len(dropped) == 0 {
		t.Fatalf("keyspace b has %d runs (%v)", len(dropped), err)
	}
	// Once a compaction finishes, none of b's blocks may be left: the drop
	// and a second run of "s" share a checkpoint, after which a
	// compaction of "s" (about 40 MiB) is due, with b's 10 MiB of garbage.
	base := db.Stats()
	var left atomic.Int64
	left.Store(-1)
	hook := func() {
		if left.Load() >= 0 || db.Stats().Compactions == base.Compactions {
			return
		}
		n := 0
		_ = db.bolt.View(func(btx *bolt.Tx) error {
			c := btx.Bucket(blocksBucket).Cursor()
			for _, id := range dropped {
				prefix := runMetaKey(id)
				for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
					n++
				}
			}
			return nil
		})
		left.Store(int64(n))
	}
	db.hookFileStep.Store(&hook)
	defer db.hookFileStep.Store(nil)
	if err := db.Update(func(tx *Tx) error { return tx.DropSpace("b") }); err != nil {
		t.Fatal(err)
	}
	for round := 160; round < 320; round++ {
		if err := putRound(db, round, 32, 4<<10); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(30 * time.Second); left.Load() < 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no compaction finished: %+v", db.Stats())
		}
	}
	if n := left.Load(); n > 0 {
		t.Fatalf("%d blocks of the dropped keyspace were left when the compaction after the drop finished", n)
	}
	awaitNoFileTransactions(t, db)
	readAll(t, db, 320*32)
}

// TestDroppingAKeyspaceWhoseRunMetaIsCorruptSucceeds: the checkpoint that
// drops a keyspace reads its runs' metas for the size of their blocks
// (garbage), and a meta that does not decode counts for nothing: dropping
// a table is the way out of its corruption, and must not fail on it.
func TestDroppingAKeyspaceWhoseRunMetaIsCorruptSucceeds(t *testing.T) {
	path := checkedPath(t, "corruptdrop.db")
	db, err := Open(path, idleCheckpointOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fillAndCheckpoint(t, db, 8)
	err = db.bolt.Update(func(btx *bolt.Tx) error {
		rb := btx.Bucket(runsBucket).Bucket([]byte("s"))
		var keys [][]byte
		_ = rb.ForEach(func(k, _ []byte) error { keys = append(keys, bytes.Clone(k)); return nil })
		for _, k := range keys {
			if err := rb.Put(k, []byte{0xff}); err != nil { // a version no reader knows
				return err
			}
		}
		if len(keys) == 0 {
			return fmt.Errorf("no run metas to corrupt")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	dropAndAwaitCheckpoint(t, db)
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("after"); return err }); err != nil {
		t.Fatalf("the database refuses commits after the drop: %v", err)
	}
	if n := blockCount(t, db); n != 0 {
		t.Fatalf("%d blocks left after the drop", n)
	}
}

// TestOpenKeepsTheRunsOfAKeyspaceWhoseBucketIsGone: no crash leaves a
// keyspace's runs without its bucket (a drop removes both in one
// transaction), so a file that has them is damaged - a damaged bucket
// name looks just so - and Open deletes nothing of them: it logs the
// damage, a read of the keyspace reports it rather than find no keyspace,
// and a check of the file reports it.
func TestOpenKeepsTheRunsOfAKeyspaceWhoseBucketIsGone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gone.db")
	opts := idleCheckpointOptions()
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	fillAndCheckpoint(t, db, 16)
	blocks := blockCount(t, db)
	if blocks == 0 {
		t.Fatal("the keyspace has no blocks: not the case this test is for")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = raw.Update(func(btx *bolt.Tx) error { return btx.Bucket(rootBucket).DeleteBucket([]byte("s")) })
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	opts.Logger = slog.New(slog.NewTextHandler(&logged, nil))
	db, err = Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if n := blockCount(t, db); n != blocks {
		t.Fatalf("%d blocks left after Open, of %d", n, blocks)
	}
	// The keyspace the directory lists is not read as absent.
	err = db.View(func(tx *Tx) error {
		if tx.Space("s") != nil {
			return fmt.Errorf("keyspace s is there")
		}
		return nil
	})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "its bucket is missing") {
		t.Fatalf("read of the keyspace whose bucket is gone: %v", err)
	}
	if !strings.Contains(logged.String(), `keyspace \"s\": it has runs but no bucket`) {
		t.Fatalf("Open logged %q, not the damage", logged.String())
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	report, err := CheckFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if found := fmt.Sprint(report.Problems); len(report.Problems) != 2 || !strings.Contains(found, `keyspace "s": it has runs but no bucket`) ||
		!strings.Contains(found, `keyspace "s": its bucket is missing (the file's directory of keyspaces lists it)`) {
		t.Fatalf("the check found %v", report.Problems)
	}
}
