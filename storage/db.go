package storage

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

// rootBucket holds every keyspace as a nested bucket, so the top level of the
// file stays free for the write-ahead log and whatever a later format
// version needs.
var rootBucket = []byte("spaces")

// Options configure Open.
type Options struct {
	// NoSync skips fsync on commit. A crash may then lose committed
	// transactions or corrupt the file: for tests and bulk loads only.
	NoSync bool
	// Timeout bounds the wait for the file lock another process holds; zero
	// waits forever.
	Timeout time.Duration
	// ReadOnly opens the file shared and refuses write transactions. The file
	// must exist and have been initialised by a writable Open.
	ReadOnly bool
	// MmapSize is the initial size of the file's memory map. A commit that
	// outgrows the map must remap, and remapping waits for every open read
	// transaction; a map larger than the file avoids that wait. It reserves
	// address space, not memory.
	MmapSize int
	// MemtableSize is how many bytes of changes the active memtable layer
	// collects before it is frozen and checkpointed into the file's
	// keyspaces.
	MemtableSize int64
	// CheckpointAfterIdle freezes and checkpoints the active layer once no
	// write transaction has committed for this long, so that an idle
	// database has its changes in its keyspaces and little in memory.
	CheckpointAfterIdle time.Duration
	// BlockCacheSize is how many bytes of the file's blocks read
	// transactions keep in memory (blockCache); NoBlockCache keeps none.
	BlockCacheSize int64
	// Logger takes what the database reports on its own: every failed
	// write or sync of the file (failures.go) and damage found in it. Nil
	// means slog.Default().
	Logger *slog.Logger
	// InjectLogWriteFault, when set, is asked before each write of
	// commits' log records into the file (its offset and length) and may
	// fail it as a failing disk would: for tests of what a failed write
	// does, never for use (cmd/cdcdb sets it only from a variable of its
	// environment that tests set).
	InjectLogWriteFault func(off int64, n int) LogWriteFault

	// MmapSize, MemtableSize, CheckpointAfterIdle and BlockCacheSize follow
	// one rule: zero, the field left out, means the Default of its name
	// below (the zero Options is the configuration cdcdb runs with), and
	// none may be negative, except BlockCacheSize as NoBlockCache.
	// cmd/cdcdb's flags take their defaults from these constants, so each
	// knob has one default.

	// checkpointChunk overrides defaultCheckpointChunk, and blockSize the
	// size of file runs' blocks (tests).
	checkpointChunk int
	blockSize       int
	// ringBytes overrides firstRingBytes, the log ring's first segment,
	// and ringMax maxRingBytes (tests).
	ringBytes, ringMax int
	// pageSize overrides filePageSize for a new file (tests).
	pageSize int
	// mappedBudget overrides defaultMappedBudget, and maxGarbage
	// defaultMaxGarbage (tests).
	mappedBudget, maxGarbage int64
}

// Defaults of Options, taken where a field is zero.
const (
	// 4 GiB of address space on 64-bit machines, 1 GiB on 32-bit ones.
	DefaultMmapSize = 1 << (30 + 2*(^uint(0)>>63))
	// DefaultMemtableSize is what every benchmark run measured: in A/B runs
	// of the SCD TYPE 2 feed 64, 80 and 96 MiB took fewer checkpoints and
	// compactions but were no faster, and held 13 to 60 MiB more heap
	// (docs/findings.md, "What moved the figures").
	DefaultMemtableSize        = 48 << 20
	DefaultCheckpointAfterIdle = time.Second
	DefaultBlockCacheSize      = 64 << 20
)

// validate refuses what Options cannot mean: a negative size or duration
// (the block cache's NoBlockCache aside). Zero is never refused: it is the
// default.
func (o Options) validate() error {
	switch {
	case o.MmapSize < 0:
		return fmt.Errorf("storage: MmapSize %d is negative; 0 is DefaultMmapSize", o.MmapSize)
	case o.MemtableSize < 0:
		return fmt.Errorf("storage: MemtableSize %d is negative; 0 is DefaultMemtableSize", o.MemtableSize)
	case o.CheckpointAfterIdle < 0:
		return fmt.Errorf("storage: CheckpointAfterIdle %v is negative; 0 is DefaultCheckpointAfterIdle", o.CheckpointAfterIdle)
	case o.BlockCacheSize < 0 && o.BlockCacheSize != NoBlockCache:
		return fmt.Errorf("storage: BlockCacheSize %d: 0 is DefaultBlockCacheSize, NoBlockCache keeps none", o.BlockCacheSize)
	}
	return nil
}

// NoBlockCache, as Options.BlockCacheSize, keeps no blocks in memory: every
// read of a block looks it up in the file.
const NoBlockCache = -1

// filePageSize is the page size of a new file, four times bbolt's default
// of the OS page. A checkpoint rewrites every page its layer's entries land
// on, and entries of randomly keyed keyspaces (a flow's log, a target's rows
// and their history) land on nearly every leaf: with larger pages a
// checkpoint has fewer, fuller pages to split, allocate and write, and a
// commit's log record spans fewer overflow pages. In A/B runs of cdcbench's
// SCD TYPE 2 ingest, 16 KiB pages wrote 11% less, used 8-15% less CPU and
// took half the time waiting for fsyncs; 32 and 64 KiB were no better.
const filePageSize = 16 << 10

// maxFrozenLayers is how many frozen layers may wait for their checkpoint
// before commits wait for the checkpointer to catch up: one, so memtables
// hold little more than twice MemtableSize (the commit that fills a layer
// may overshoot it), while the next layer fills as the previous one is
// written.
const maxFrozenLayers = 1

// defaultMappedBudget is how many bytes of files the process may have
// mapped (its own count, mappedFileBytes) before the flusher releases the
// file's pages (releaseFilePages), between two of its transactions or, with
// none to take, at its timer; an idle flusher releases them whatever the
// count.
//
// Why a budget: a released page that is read again is mapped again by a
// page fault, on the path of the session applying a flow's batch, and on
// the virtual machines cdcdb is measured on a fault costs about 19 µs (for
// the 16 pages the kernel maps around it). Releasing after every eighth
// transaction and at every tick of the flusher's timer, as before, the SCD
// TYPE 2 feed of the benchmark faulted the same pages of the file in again
// 3.5 times on average (perf: 6,628 faults on 1,868 pages in 2 s); with
// no releases at all it ran 10% faster and BITEMPORAL 24%, with peak RSS
// 420 and 448 MiB. 192 MiB keeps most of that (+7% and +15% against the
// old rule, peak RSS 385 to 426 MiB in the benchmark) and bounds what a
// long ingest over a large file maps.
const defaultMappedBudget = 192 << 20

// mappedBudgetCheckEvery is how often a flusher with no checkpoint or
// compaction to write (it looks after each of their transactions) looks
// whether the process maps more of the file than mappedBudget, while the
// database is not idle. A look is a read of /proc/self/statm, a few
// microseconds.
const mappedBudgetCheckEvery = 20 * time.Millisecond

// idleReleaseEvery is how often an idle flusher releases the file's pages
// when nothing was committed or checkpointed since the last release.
const idleReleaseEvery = 30 * time.Second

// defaultCheckpointChunk is how many bytes of run blocks one checkpoint or
// compaction transaction writes at most: large enough that a checkpoint is
// not mostly fsyncs, small enough that a commit whose record does not fit
// the log ring, and so waits for the file's transaction under way, does
// not wait long.
const defaultCheckpointChunk = 4 << 20

// DB is an open database file. It is safe for concurrent use.
type DB struct {
	bolt      *bolt.DB
	path      string
	log       *slog.Logger
	readOnly  bool
	memtable  int64
	idleAfter time.Duration
	chunk     int
	// mappedBudget is defaultMappedBudget or what Options gave instead
	// (atomic: tests change it while the flusher runs).
	mappedBudget atomic.Int64
	// blockSize is what a file run's blocks are cut at: a little under two
	// of the file's pages, so that a block and bbolt's headers fill them.
	blockSize int
	// blockCache is the cache of blocks read transactions read (nil: none).
	blockCache *blockCache

	// writeSlot is the single writer's semaphore.
	writeSlot chan struct{}

	mu sync.Mutex
	// changed is broadcast when the commit queue drains or a checkpoint
	// finishes, for commits waiting on a full memtable and for Close.
	changed *sync.Cond
	// head is the newest committed state, durable or not: where the next
	// write transaction starts.
	head  *view
	queue []*pendingCommit
	// failed is the error that stopped the file being written. Once set,
	// write transactions are refused: after a failed fsync the state of the
	// file on disk is unknown, so only a restart (and the log's replay) can
	// be trusted.
	failed     error
	closing    bool
	lastCommit time.Time
	// changes is the version of the last commit that changed each
	// keyspace (changes.go).
	changes spaceChanges
	// handedOut is, per keyspace, the highest number NextSequence drew
	// from its counter in any transaction, committed or not (detached.go).
	handedOut map[string]uint64

	// durable is the newest state whose commits are all on disk: what read
	// transactions see. A covered commit (Tx.CommitCovered) counts as on
	// disk once the put ahead of it is; covered are the views of such
	// commits whose puts are not yet, oldest first (guarded by mu).
	durable atomic.Pointer[view]
	covered []*view
	// logged is the newest version whose log record, and every one
	// before it, is on disk (guarded by mu): a checkpoint may write a
	// layer into the file only up to it, as a covered commit's changes are
	// durable only with its record or through its redo, which a file
	// holding part of them would confuse.
	logged uint64
	// fileStateAt caches the file's state as of the last bbolt
	// transaction a reader asked about (runlist.go).
	fileStateAt atomic.Pointer[fileState]
	runLists    runLists
	fileSpaces  fileSpaces
	// compactions notes the keyspaces whose runs changed, pointReads
	// which are point-read.
	compactions compactions
	pointReads  pointReads

	// wake wakes the flusher, logWake the log writer; each closes its
	// done channel when it stops.
	wake, logWake           chan struct{}
	flusherDone, loggerDone chan struct{}
	// merger merges the active layer's runs, and ring takes the log
	// records (both nil in a read-only DB).
	merger *merger
	ring   *ring
	// hookBeginRead runs between the two halves of beginRead,
	// hookFlush before a batch of commits is written, in place of the write
	// when it returns an error, and hookFileStep after each of the
	// flusher's file transactions, before it looks at the mapped-file
	// budget (tests).
	hookBeginRead atomic.Pointer[func()]
	hookFlush     atomic.Pointer[func() error]
	hookFileStep  atomic.Pointer[func()]
	// hookRelease runs in releaseFilePages between taking the map's
	// address and advising it (tests).
	hookRelease atomic.Pointer[func()]
	// garbage waits for the flusher to delete its blocks, which only the
	// flusher touches; maxGarbage is how much may wait while compactions
	// are due (garbage.go).
	garbage    garbage
	maxGarbage int64
	// crashed makes the flusher stop where it is (tests: a crash).
	crashed atomic.Bool
	// replayed counts the log records Open replayed.
	replayed int
	// lostSpaces are the keyspaces the file's directory lists and its
	// buckets do not (spacerec.go), each with the damage a read of it
	// reports; set by Open.
	lostSpaces map[string]error
	// Counters, for tests and Stats.
	flushes, checkpoints, checkpointSteps, commits, merges       atomic.Int64
	ringFlushes                                                  atomic.Int64
	compactionsDone, compactionSteps                             atomic.Int64
	checkpointNanos, fullWaitNanos, flushNanos, durableWaitNanos atomic.Int64
	compactionNanos, fileReleases, coveredCommits                atomic.Int64
	// fullWaits counts commits that waited for room (tests).
	fullWaits atomic.Int64
	closeOnce sync.Once
	closeErr  error
}

// pendingCommit is a commit in the queue, waiting for its log record to
// reach the disk.
type pendingCommit struct {
	version uint64
	record  [][]byte // its parts
	// covered marks a covered commit (Tx.CommitCovered), whose writer
	// does not wait for its record.
	covered bool
	// view is the head the commit published, set before ready is closed.
	view  *view
	ready chan struct{}
	done  chan error
}

// Open opens the database file at path, creating and initialising it when it
// does not exist (unless opts.ReadOnly), and replays its write-ahead log.
func Open(path string, opts Options) (*DB, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	mmapSize := opts.MmapSize
	if mmapSize == 0 {
		mmapSize = DefaultMmapSize
	}
	pageSize := opts.pageSize
	if pageSize == 0 {
		pageSize = filePageSize
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.Default()
	}
	// bbolt trusts its pages: a damaged one makes it panic, some of the
	// time in a goroutine of its own that no caller can recover, or read
	// outside its map. So an existing file's pages are checked first.
	if err := checkFileStructure(path, !opts.ReadOnly, opts.Timeout); err != nil {
		return nil, openErr(path, err)
	}
	var file boltFile
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{
		OpenFile: file.open,
		Logger:   boltLogger{log: logger, path: path},
		Timeout:  opts.Timeout,
		NoSync:   opts.NoSync,
		ReadOnly: opts.ReadOnly,
		// The free list is rebuilt from the pages in use at open rather than
		// written at every commit: the log makes commits frequent and small,
		// and a large free list would be most of what each one writes.
		NoFreelistSync:  true,
		FreelistType:    bolt.FreelistMapType,
		InitialMmapSize: mmapSize,
		// Only a new file takes it; an existing one keeps the page size it
		// was made with.
		PageSize: pageSize,
	})
	if err != nil {
		return nil, mapErr(fmt.Sprintf("open %s", path), err)
	}
	db := &DB{
		bolt: bdb, path: path, log: logger, readOnly: opts.ReadOnly,
		memtable: opts.MemtableSize, idleAfter: opts.CheckpointAfterIdle, chunk: opts.checkpointChunk,
		writeSlot: make(chan struct{}, 1),
		wake:      make(chan struct{}, 1), logWake: make(chan struct{}, 1),
		flusherDone: make(chan struct{}), loggerDone: make(chan struct{}),
	}
	if db.memtable == 0 {
		db.memtable = DefaultMemtableSize
	}
	if db.idleAfter == 0 {
		db.idleAfter = DefaultCheckpointAfterIdle
	}
	if db.chunk <= 0 {
		db.chunk = defaultCheckpointChunk
	}
	switch {
	case opts.BlockCacheSize == 0:
		db.blockCache = newBlockCache(DefaultBlockCacheSize)
	case opts.BlockCacheSize > 0:
		db.blockCache = newBlockCache(int(opts.BlockCacheSize))
	}
	// NoBlockCache leaves db.blockCache nil.
	db.mappedBudget.Store(opts.mappedBudget)
	if opts.mappedBudget <= 0 {
		db.mappedBudget.Store(defaultMappedBudget)
	}
	db.maxGarbage = opts.maxGarbage
	if db.maxGarbage <= 0 {
		db.maxGarbage = defaultMaxGarbage
	}
	db.blockSize = opts.blockSize
	if db.blockSize <= 0 {
		db.blockSize = 2*bdb.Info().PageSize - 256
	}
	db.changed = sync.NewCond(&db.mu)
	if err := db.prepare(&file, opts); err != nil {
		_ = bdb.Close()
		return nil, openErr(path, err)
	}
	if opts.ReadOnly {
		close(db.flusherDone)
		close(db.loggerDone)
	} else {
		db.merger = newMerger()
		go db.flusher()
		go db.logWriter()
	}
	return db, nil
}

// openErr is Open's error for err: the damage, naming the file, as it is;
// any other error with what was being done.
func openErr(path string, err error) error {
	if errors.Is(err, ErrCorrupt) {
		return inFile(err, path)
	}
	return mapErr(fmt.Sprintf("open %s", path), err)
}

// prepare makes an opened file ready for use: converted to the sealed
// format and tidied (a writable open), its log replayed, the log ring set
// up for writing. A panic of bbolt's on a page damaged past what Open
// checks (pagewalk.go) is an error too.
func (db *DB) prepare(file *boltFile, opts Options) (err error) {
	defer boltPanicAsError("opening the file", &err)
	if opts.ReadOnly {
		err = db.checkReadable()
	} else {
		err = db.prepareFile()
	}
	var live, dead []ringRecord
	if err == nil {
		live, dead, err = db.recover()
	}
	if err == nil && !opts.ReadOnly {
		var f *os.File
		if f, err = file.get(); err == nil {
			first := opts.ringBytes
			if first <= 0 {
				first = firstRingBytes
			}
			db.ring, err = openRing(db.bolt, f, !opts.NoSync, live, dead, first, db.log)
			if err == nil {
				db.ring.fault = opts.InjectLogWriteFault
				if opts.ringMax > 0 {
					db.ring.max = int64(opts.ringMax)
				}
			}
		}
	}
	return err
}

// recover rebuilds the memtable from the log records the file's keyspaces
// do not hold yet, in the log ring and the log bucket, and returns the
// ring's records it used (ring.go: they stay live until checkpointed) and
// those after the first version missing, which were never acknowledged.
func (db *DB) recover() (live, dead []ringRecord, err error) {
	ringRecs, ringBodies, err := readRing(db.bolt)
	if err != nil {
		return nil, nil, err
	}
	err = db.bolt.View(func(btx *bolt.Tx) error {
		complete, err := stateVersion(btx, stateComplete)
		if err != nil {
			return err
		}
		high, err := stateVersion(btx, stateFileHigh)
		if err != nil {
			return err
		}
		version := max(complete, high)
		base := &view{version: complete, layers: []*layer{newLayer(complete)}}
		ws := newWriteSet(base)
		// The records after complete, by version, from the bucket and
		// then the ring.
		records, err := readLogBucket(btx.Bucket(walBucket), complete)
		if err != nil {
			return err
		}
		inRing := map[uint64]ringRecord{}
		for _, r := range ringRecs {
			if r.version > complete {
				if _, dup := records[r.version]; dup {
					return corrupt("log record %d is in the ring and the bucket", r.version)
				}
				records[r.version] = ringBodies[r.version]
				inRing[r.version] = r
			}
		}
		// Versions follow each other from complete on; the first missing
		// one ends what was acknowledged (ring.go).
		last := complete
		for v := complete + 1; ; v++ {
			rec, ok := records[v]
			if !ok {
				break
			}
			if err := replayRecord(ws, rec); err != nil {
				return fmt.Errorf("replaying log record %d: %w", v, err)
			}
			version, last = max(version, v), v
			db.replayed++
			if r, ok := inRing[v]; ok {
				live = append(live, r)
			}
		}
		missing := last + 1
		for v := range records {
			if v <= missing {
				continue
			}
			r, ok := inRing[v]
			if !ok || r.flushFirst > missing {
				// Written by a later flush than the missing record's,
				// which was on disk then (ring.go).
				return corrupt("log record %d is missing or damaged, but record %d, of a later flush, was written after it", missing, v)
			}
			dead = append(dead, r)
		}
		layers := []*layer{newLayer(version)}
		if len(ws.touched) > 0 {
			// What the log held is frozen at once, to be checkpointed.
			l, _, _ := ws.publish(base.layers[0], version, nil)
			layers = append(layers, l)
		}
		v := &view{version: version, layers: layers}
		db.head = v
		db.durable.Store(v)
		db.logged = version
		return nil
	})
	return live, dead, err
}

// stateVersion reads one of the state bucket's numbers, which every file
// in the sealed format has (Open writes them all when it makes the file).
func stateVersion(btx *bolt.Tx, key []byte) (uint64, error) {
	b := btx.Bucket(stateBucket)
	if b == nil {
		return 0, corrupt("the file's state bucket is missing")
	}
	v := b.Get(key)
	if v == nil {
		return 0, corrupt("the file's %s number is missing", key)
	}
	payload, ok := unseal(v, stateScope, key)
	if !ok || len(payload) != 8 {
		return 0, corrupt("the file's %s number fails its checksum", key)
	}
	return binary.BigEndian.Uint64(payload), nil
}

func putStateVersion(b *bolt.Bucket, key []byte, v uint64) error {
	return b.Put(key, sealed(binary.BigEndian.AppendUint64(nil, v), stateScope, key))
}

// Close makes every committed change part of the file's keyspaces (so the
// next Open replays nothing) and closes the file. It waits for the open write
// transaction and for read transactions to end; calling it again is
// harmless.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		if !db.readOnly {
			db.writeSlot <- struct{}{} // no writer from now on
			db.mu.Lock()
			db.closing = true
			db.mu.Unlock()
			db.signal()
			db.signalLog()
			<-db.loggerDone
			<-db.flusherDone
			db.merger.close()
		}
		db.closeErr = mapErr("close", db.bolt.Close())
		if !db.readOnly {
			db.mu.Lock()
			if db.closeErr == nil {
				db.closeErr = db.failed
			}
			db.mu.Unlock()
			// Writers waiting for the slot, now or later, get it, see
			// closing and give it back with an error.
			db.releaseWriter()
		}
	})
	return db.closeErr
}

// Path returns the file's path as given to Open.
func (db *DB) Path() string { return db.path }

// ReadOnly reports whether the file was opened read-only.
func (db *DB) ReadOnly() bool { return db.readOnly }

// Begin starts a transaction; see BeginContext.
func (db *DB) Begin(writable bool) (*Tx, error) {
	return db.BeginContext(context.Background(), writable)
}

// BeginContext starts a transaction. A read transaction is a consistent
// snapshot of the last durable state. Only one write transaction exists at a
// time: a writable BeginContext waits until the current writer commits or
// rolls back, or until ctx ends (its error is then returned). Every Tx must
// end with Commit or Rollback.
func (db *DB) BeginContext(ctx context.Context, writable bool) (*Tx, error) {
	if !writable {
		return db.beginRead()
	}
	if db.readOnly {
		return nil, fmt.Errorf("storage: begin: %w", ErrDatabaseReadOnly)
	}
	select {
	case db.writeSlot <- struct{}{}:
	default:
		select {
		case db.writeSlot <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	db.mu.Lock()
	v, failed, closing := db.head, db.failed, db.closing
	db.mu.Unlock()
	if failed != nil || closing {
		db.releaseWriter()
		if failed != nil {
			return nil, failedError(failed)
		}
		return nil, fmt.Errorf("storage: begin: database is closed: %w", ErrTxClosed)
	}
	btx, err := db.bolt.Begin(false)
	if err != nil {
		db.releaseWriter()
		return nil, mapErr("begin", err)
	}
	tx := newTx(db, v, btx, true)
	tx.ws = newWriteSet(v)
	return tx, nil
}

// beginRead pairs the durable view with a snapshot of the file that holds
// nothing newer than it. A checkpoint writes a layer into the file only once
// the layer is durable, so the pair fails to match only when a checkpoint
// (or flush) landed between reading the view and opening the snapshot; the
// next attempt then sees the newer view.
func (db *DB) beginRead() (*Tx, error) {
	for {
		v := db.durable.Load()
		if hook := db.hookBeginRead.Load(); hook != nil {
			(*hook)()
		}
		btx, err := db.bolt.Begin(false)
		if err != nil {
			return nil, mapErr("begin", err)
		}
		state, err := db.fileState(btx)
		if err != nil {
			_ = btx.Rollback()
			return nil, err
		}
		if state.high <= v.version {
			return newTx(db, v, btx, false), nil
		}
		_ = btx.Rollback()
		runtime.Gosched()
	}
}

func (db *DB) releaseWriter() { <-db.writeSlot }

func (db *DB) signal() {
	select {
	case db.wake <- struct{}{}:
	default:
	}
}

func (db *DB) signalLog() {
	select {
	case db.logWake <- struct{}{}:
	default:
	}
}

// commit publishes tx's changes as the new head, queues its log record and
// lets the next writer start; it returns once the record is on disk. Commits
// queued while the flusher writes the previous batch share the next flush
// (group commit).
func (db *DB) commit(tx *Tx) error {
	// A panic from here on (a bug, in the publish or in a function run on
	// it) must not leave every later writer waiting for the slot. The
	// memtable, or a cache built on it, may hold part of this commit, so
	// the database fails as after a failed write, and the panic goes on to
	// the caller.
	ended := false
	defer func() {
		if !ended {
			db.fail(errCommitBrokenOff)
			db.releaseWriter()
		}
	}()
	var ahead *pendingCommit
	if tx.covered {
		ahead = tx.ahead
	}
	// A keyspace made or dropped starts its counter again: forget what
	// was drawn from the one before (detached.go).
	var reset []string
	for name, st := range tx.ws.touched {
		if st.reset {
			reset = append(reset, name)
		}
	}
	pc, published, err := db.publishCommit(tx.ws, tx.rec.parts(), ahead)
	if published {
		for _, name := range reset {
			db.forgetSequence(name)
		}
	}
	if err != nil {
		ended = true
		db.releaseWriter()
		tx.rolledBack()
		return err
	}
	if published {
		for _, fn := range tx.onPublish {
			fn()
		}
	} else {
		tx.rolledBack()
	}
	ended = true
	db.releaseWriter()
	// A covered commit is as durable as the put ahead of it: it waits for
	// that put's write, not for its own.
	wait := pc
	if ahead != nil && published {
		wait = ahead
		db.coveredCommits.Add(1)
	}
	return db.awaitDurable(wait)
}

// awaitDurable waits for a queued commit's record to be on disk.
func (db *DB) awaitDurable(pc *pendingCommit) error {
	t0 := time.Now()
	err := <-pc.done
	db.durableWaitNanos.Add(int64(time.Since(t0)))
	if err != nil {
		return commitError(err)
	}
	return nil
}

// publishCommit queues a commit of the changes ws holds, whose log record is
// record, and makes them the head; the caller holds the writer slot. The
// record is queued before the changes are published, so the log writer
// writes and fsyncs it while they go into the memtable; it does not make
// the commit durable (visible to readers) before the publish is done.
// published is false when a failed flush threw the commit away meanwhile:
// then nothing changed, and pc.done will carry the database's error. An
// error means the commit was refused before it was queued.
//
// coveredBy, when not nil, is the commit PutAhead made just before this one:
// this commit becomes durable for readers once that one is (CommitCovered).
func (db *DB) publishCommit(ws *writeSet, record [][]byte, coveredBy *pendingCommit) (pc *pendingCommit, published bool, err error) {
	db.mu.Lock()
	if db.memtableFull() {
		t0 := time.Now()
		for db.failed == nil && db.memtableFull() {
			db.changed.Wait()
		}
		db.fullWaitNanos.Add(int64(time.Since(t0)))
		db.fullWaits.Add(1)
	}
	if db.failed != nil {
		// A flush failed since the writer began: the commits it built on,
		// not yet durable then, were thrown away, and the database takes
		// no more.
		err := db.failed
		db.mu.Unlock()
		return nil, false, failedError(err)
	}
	h := db.head
	version := h.version + 1
	active, fresh := h.layers[0], false
	if active.size.Load() >= db.memtable && coveredBy == nil {
		// The active layer is full (and, as memtableFull made sure, the
		// frozen ones leave room for it): freeze it, and this commit starts
		// the next. Freezing here rather than in the commit that filled it
		// lets memtableFull see a full active layer, so commits wait for the
		// checkpointer instead of freezing layer after layer. A covered
		// commit stays in its put ahead's layer (ahead.go).
		active, fresh = newLayer(h.version), true
	}
	pc = &pendingCommit{version: version, record: record, covered: coveredBy != nil, done: make(chan error, 1), ready: make(chan struct{})}
	db.queue = append(db.queue, pc)
	db.mu.Unlock()
	db.signalLog()
	db.commits.Add(1)
	// A panic in the publish must not leave the log writer waiting for
	// ready; the caller fails the database.
	readyClosed := false
	defer func() {
		if !readyClosed {
			db.fail(errCommitBrokenOff)
			close(pc.ready)
		}
	}()
	active, changed, merged := ws.publish(active, version, db.merger.take())
	db.merges.Add(int64(merged))
	active = db.merger.plan(active, changed)
	db.mu.Lock()
	published = db.failed == nil // else a failed flush threw it away meanwhile
	if published {
		// Only this writer changes the active layer; the flusher may have
		// dropped checkpointed frozen layers meanwhile, so the rest comes
		// from the head as it is now.
		rest := db.head.layers[1:]
		if fresh {
			rest = db.head.layers
		}
		layers := make([]*layer, 0, len(rest)+1)
		layers = append(layers, active)
		layers = append(layers, rest...)
		pc.view = &view{version: version, layers: layers}
		db.head = pc.view
		db.changes.note(ws, version)
		db.lastCommit = time.Now()
		if coveredBy != nil {
			db.cover(pc.view)
		}
	}
	db.mu.Unlock()
	readyClosed = true
	close(pc.ready)
	return pc, published, nil
}

// cover makes v, a covered commit's view, what readers see as soon as the
// put ahead of it (the version before it) is durable: now, if it is
// already, or else when its flush completes (flushed). The caller holds
// db.mu.
func (db *DB) cover(v *view) {
	db.covered = append(db.covered, v)
	db.advanceCovered()
}

// advanceCovered moves the durable view over the covered commits whose
// puts ahead are durable, in version order, and forgets those it has
// passed. The caller holds db.mu.
func (db *DB) advanceCovered() {
	d := db.durable.Load()
	moved := false
	for len(db.covered) > 0 {
		c := db.covered[0]
		if c.version == d.version+1 {
			d, moved = c.without(), true
		} else if c.version > d.version {
			break // its put ahead is not durable yet
		}
		db.covered = db.covered[1:]
	}
	if moved {
		db.durable.Store(d)
		db.changed.Broadcast()
	}
}

// errCommitBrokenOff fails the database when a commit panics part-way.
var errCommitBrokenOff = errors.New("a commit broke off part-way with an internal error")

// memtableFull reports whether the active layer is due to be frozen while as
// many frozen layers as allowed are still waiting for their checkpoint.
func (db *DB) memtableFull() bool {
	h := db.head
	return h.layers[0].size.Load() >= db.memtable && len(h.layers)-1 >= maxFrozenLayers
}

// flusher checkpoints frozen layers into the keyspaces and compacts their
// runs, one bounded transaction at a time, and grows the log ring when the
// log writer asks; the log writer makes commits durable meanwhile (through
// the ring, which bbolt's transactions do not touch). It and the log
// writer are the only goroutines that write the file.
func (db *DB) flusher() {
	defer close(db.flusherDone)
	tick := time.NewTicker(db.idleAfter / 4)
	defer tick.Stop()
	budgetTick := time.NewTicker(mappedBudgetCheckEvery)
	defer budgetTick.Stop()
	var run *checkpointRun
	var comp *compaction
	// What the last release of the file's pages had seen: an idle flusher
	// releases them again only once the file was written or a writer (whose
	// reads during an ingest map much of it) committed since, or now and
	// then for what readers mapped, not on every tick: a read-only load
	// would fault its working set back in four times a second.
	releasedSteps, releasedCommits, releasedAt := db.checkpointSteps.Load(), db.commits.Load(), time.Now()
	release := func() {
		db.fileReleases.Add(1) // first: a count unchanged says none began
		db.releaseFilePages()
		releasedSteps, releasedCommits, releasedAt = db.checkpointSteps.Load(), db.commits.Load(), time.Now()
	}
	releaseDue := func() bool {
		return db.checkpointSteps.Load() != releasedSteps || db.commits.Load() != releasedCommits || time.Since(releasedAt) >= idleReleaseEvery
	}
	// afterFileStep follows each of the flusher's file transactions
	// (checkpoint, compaction or garbage): the tests' hook, then a look at
	// the mapped-file budget.
	afterFileStep := func() {
		if hook := db.hookFileStep.Load(); hook != nil {
			(*hook)()
		}
		if mappedFileBytes() > db.mappedBudget.Load() {
			release()
		}
	}
	for {
		if db.crashed.Load() {
			// As if the process had died: nothing more is written. (The
			// log writer answers whoever waits.)
			return
		}
		db.mu.Lock()
		closing, failed := db.closing, db.failed
		db.mu.Unlock()
		if failed != nil {
			if closing {
				return
			}
			select {
			case <-db.wake:
			case <-tick.C:
			}
			continue
		}
		if !closing && db.ring != nil && db.ring.wantsToGrow() {
			if err := db.growRing(); err != nil {
				db.fail(err)
			}
			continue
		}
		if run == nil {
			if l := db.nextCheckpoint(); l != nil {
				run = newCheckpointRun(l)
			}
		}
		if closing && comp != nil {
			// Closing does not wait for a compaction: what it wrote goes.
			db.abandonCompaction(comp)
			comp = nil
		}
		if run == nil && comp == nil && !closing {
			comp = db.nextCompaction()
		}
		if db.garbageDue(run != nil, comp != nil) {
			t0 := time.Now()
			err := db.collectGarbageStep()
			db.compactionNanos.Add(int64(time.Since(t0)))
			db.compactionSteps.Add(1)
			if err != nil {
				db.fail(err)
				continue
			}
			afterFileStep()
			continue
		}
		if run != nil || comp != nil {
			// A checkpoint goes before a compaction, which waits part-way
			// for it if need be.
			t0 := time.Now()
			var finished bool
			var err error
			if run != nil {
				finished, err = db.checkpointStep(run)
				db.checkpointNanos.Add(int64(time.Since(t0)))
			} else {
				finished, err = db.compactionStep(comp)
				db.compactionNanos.Add(int64(time.Since(t0)))
				db.compactionSteps.Add(1)
			}
			if err != nil && run == nil && errors.Is(err, ErrCorrupt) {
				// The compaction read a damaged run: the keyspace is left
				// as it is (its reads report the damage), and the
				// database goes on.
				db.log.Error("a compaction found the database file damaged; the keyspace will not be compacted", "file", db.path, "damage", inFile(err, db.path).Error())
				db.compactions.damaged(comp.name)
				db.abandonCompaction(comp)
				comp = nil
				continue
			}
			if err != nil {
				db.fail(err)
				run, comp = nil, nil
				continue
			}
			afterFileStep()
			switch {
			case finished && run != nil:
				db.finishCheckpoint(run.l)
				run = nil
			case finished:
				db.compactionsDone.Add(1)
				comp = nil
			}
			continue
		}
		if closing {
			// The last commits' records may still be being written: once
			// they are durable, their layer can be checkpointed too, and
			// the next Open has nothing to replay.
			<-db.loggerDone
			if db.freeze(true) {
				continue // checkpoint what was left, then stop
			}
			if db.nextCheckpoint() != nil {
				continue
			}
			return
		}
		// Between checkpoints the sessions' reads go on mapping the file;
		// without a look at the budget they did until the next one. The
		// look comes often while writers are busy (a 250 ms tick let an
		// ingest map 50 MiB past the budget); an idle database, which
		// only readers map, has it at the tick.
		var budgetCheck <-chan time.Time
		if !db.idle() {
			budgetCheck = budgetTick.C
		}
		select {
		case <-db.wake:
		case <-budgetCheck:
			if mappedFileBytes() > db.mappedBudget.Load() {
				release()
			}
		case <-tick.C:
			switch {
			case db.freeze(false):
				// Idle long enough to freeze the active layer: the loop
				// checkpoints it next.
			case db.idle() && releaseDue():
				// Idle: what readers mapped of the file goes back too.
				release()
			case mappedFileBytes() > db.mappedBudget.Load():
				release()
			}
		}
	}
}

// idle reports whether no write transaction has committed for idleAfter.
func (db *DB) idle() bool {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.idleLocked()
}

// idleLocked is idle for a caller holding db.mu.
func (db *DB) idleLocked() bool { return time.Since(db.lastCommit) >= db.idleAfter }

// logWriter makes queued commits durable, in the order they were queued,
// each batch of commits queued meanwhile in one flush (group commit). When
// closing, it stops once the queue is empty (Close holds the writer slot,
// so no commit comes after).
func (db *DB) logWriter() {
	defer close(db.loggerDone)
	linger := time.NewTimer(time.Hour)
	linger.Stop()
	lingered := false
	for {
		if db.crashed.Load() {
			// As if the process had died: nothing more is written, and
			// whoever waits (in the queue, or for room) is answered. A
			// failed database can crash too.
			db.fail(errors.New("crashed"))
			return
		}
		db.mu.Lock()
		batch := db.queue
		db.queue = nil
		closing, failed := db.closing, db.failed
		db.mu.Unlock()
		switch {
		case failed != nil:
			db.failQueued(failed)
		case len(batch) > 0:
			if !closing && !lingered && allCovered(batch) {
				// Nobody waits for these records: they wait, at most
				// coveredLinger, to share the flush of the next commit
				// (a COPY's put ahead, typically), which saves the disk
				// a flush, and that commit's wait the queue behind it.
				db.mu.Lock()
				db.queue = append(batch, db.queue...)
				db.mu.Unlock()
				lingered = true
				linger.Reset(coveredLinger)
				select {
				case <-db.logWake:
					linger.Stop()
				case <-linger.C:
				}
				continue
			}
			lingered = false
			db.flush(batch)
			db.signal() // a frozen layer's records may be durable now
			continue
		}
		if closing {
			return
		}
		<-db.logWake
	}
}

// coveredLinger is how long a batch of covered commits' records waits for
// another commit to share its flush with.
const coveredLinger = 5 * time.Millisecond

func allCovered(batch []*pendingCommit) bool {
	for _, pc := range batch {
		if !pc.covered {
			return false
		}
	}
	return true
}

// flush makes a batch of commits durable and answers their writers: in
// the log ring, or when they do not fit there, in a bbolt transaction
// (which waits for a checkpoint's or compaction's under way).
func (db *DB) flush(batch []*pendingCommit) {
	var err error
	t0 := time.Now()
	if hook := db.hookFlush.Load(); hook != nil {
		err = (*hook)()
	}
	if err == nil {
		written := false
		if db.ring != nil {
			written, err = db.ring.write(batch)
			if written {
				db.ringFlushes.Add(1)
			}
		}
		if err == nil && !written {
			err = db.bolt.Update(func(btx *bolt.Tx) error { return writeRecords(btx, batch) })
		}
	}
	db.flushNanos.Add(int64(time.Since(t0)))
	db.flushed(batch, err)
}

// flushed answers the writers of a batch whose file transaction ended with
// err, after making the batch the durable state if it committed. A batch
// answered with an error may still be on disk (its write and fsync
// succeeded but the database failed meanwhile, or the error came after
// them): its commits' outcome is unknown (failures.go), and the next Open
// replays them if their records are whole.
func (db *DB) flushed(batch []*pendingCommit, err error) {
	for _, pc := range batch {
		<-pc.ready
	}
	db.flushes.Add(1)
	db.mu.Lock()
	if err == nil && db.failed != nil {
		// A commit broke off while the batch was written (it may be one
		// of the batch, with nothing published): the batch is not
		// answered as durable, though the log may hold it.
		err = db.failed
	}
	if err == nil {
		last := batch[len(batch)-1].view
		db.logged = last.version
		if last.version > db.durable.Load().version {
			db.durable.Store(last.without())
		}
		db.advanceCovered() // over those whose puts ahead are durable now
		db.changed.Broadcast()
	}
	db.mu.Unlock()
	if err != nil {
		db.fail(err)
		err = &unknownOutcome{err: err}
	}
	for _, pc := range batch {
		pc.done <- err
	}
}

// writeRecords stores a batch's log records, and with them its commits, in
// a file transaction (bbolt fsyncs it before Commit returns).
func writeRecords(btx *bolt.Tx, batch []*pendingCommit) error {
	wal := btx.Bucket(walBucket)
	for _, pc := range batch {
		rk := walKey(pc.version)
		rb, err := wal.CreateBucket(rk)
		if err != nil {
			return err
		}
		for part, v := range pc.record {
			pk := walPartKey(uint32(part))
			if err := rb.Put(pk, sealed(v, rk, pk)); err != nil {
				return err
			}
		}
	}
	return nil
}

// fail records a write error of the file: commits not yet durable are
// thrown away (their writers get the error) and no more are accepted.
func (db *DB) fail(err error) {
	db.mu.Lock()
	if db.failed == nil {
		db.failed = fmt.Errorf("storage: %w", err)
		db.log.Error("writing the database file failed, or found it damaged: it accepts no further changes until the server restarts", "file", db.path, "err", err)
	}
	db.head = db.durable.Load()
	db.covered = nil
	db.changed.Broadcast()
	db.mu.Unlock()
	db.failQueued(err)
}

func (db *DB) failQueued(err error) {
	db.mu.Lock()
	q := db.queue
	db.queue = nil
	db.mu.Unlock()
	for _, pc := range q {
		pc.done <- err
	}
}

// freeze moves a non-empty active layer to the frozen ones, to be
// checkpointed. Unless the caller has excluded writers (force, from Close),
// it only does so when no write transaction is open and none committed
// for a while: a writer's changes are built on the active layer.
func (db *DB) freeze(force bool) bool {
	if !force {
		select {
		case db.writeSlot <- struct{}{}:
			defer db.releaseWriter()
		default:
			return false
		}
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	h := db.head
	if h.layers[0].empty() || (!force && !db.idleLocked()) {
		return false
	}
	layers := append([]*layer{newLayer(h.version)}, h.layers...)
	db.head = &view{version: h.version, layers: layers}
	return true
}

// nextCheckpoint returns the oldest frozen layer once it is durable.
func (db *DB) nextCheckpoint() *layer {
	db.mu.Lock()
	defer db.mu.Unlock()
	h := db.head
	if len(h.layers) < 2 {
		return nil
	}
	l := h.layers[len(h.layers)-1]
	if l.hi > db.logged {
		return nil // its records are not all on disk yet
	}
	return l
}

// finishCheckpoint drops a layer the file now holds from the views, and
// its records from the log ring.
func (db *DB) finishCheckpoint(l *layer) {
	db.checkpoints.Add(1)
	if db.ring != nil {
		db.ring.release(l.hi)
	}
	l.done.Store(true)
	db.mu.Lock()
	db.head = db.head.without()
	db.durable.Store(db.durable.Load().without())
	db.changed.Broadcast()
	db.mu.Unlock()
}

// Stats are counters since Open, for operators and benchmarks.
type Stats struct {
	Commits int64 // write transactions committed (with changes)
	// Flushes counts the writes that made commits durable, RingFlushes
	// those of them that went to the log ring (the rest were file
	// transactions); RingBytes is the ring's size.
	Flushes, RingFlushes, RingBytes int64
	// Checkpoints counts layers written into the keyspaces, in
	// CheckpointSteps file transactions taking CheckpointTime.
	Checkpoints, CheckpointSteps int64
	CheckpointTime               time.Duration
	// Compactions counts keyspaces' runs merged, in CompactionSteps file
	// transactions taking CompactionTime.
	Compactions, CompactionSteps int64
	CompactionTime               time.Duration
	// FullWait is how long commits waited for a checkpoint to make room.
	FullWait time.Duration
	// FlushTime is what the flushes took; DurableWait what commits
	// waited, queued, for theirs.
	FlushTime, DurableWait time.Duration
	// MemtableBytes is what the memtable layers (Layers of them) hold now.
	MemtableBytes int64
	Layers        int
	// The block cache: lookups that found their block and that did not,
	// and the bytes it holds.
	BlockCacheHits, BlockCacheMisses uint64
	BlockCacheBytes                  int64
	// FileReleases counts the times the flusher gave back the file's
	// mapped pages (releaseFilePages).
	FileReleases int64
	// CoveredCommits counts the commits that waited for a put ahead of
	// them rather than for their own log record (Tx.CommitCovered).
	CoveredCommits int64
}

// Stats returns the counters.
func (db *DB) Stats() Stats {
	db.mu.Lock()
	h := db.head
	db.mu.Unlock()
	var bytes int64
	for _, l := range h.layers {
		bytes += l.size.Load()
	}
	var ringBytes int64
	if db.ring != nil {
		db.ring.mu.Lock()
		ringBytes = db.ring.size
		db.ring.mu.Unlock()
	}
	hits, misses, cached := db.blockCache.stats()
	return Stats{
		BlockCacheHits: hits, BlockCacheMisses: misses, BlockCacheBytes: cached,
		MemtableBytes: bytes, Layers: len(h.layers),
		Commits: db.commits.Load(), Flushes: db.flushes.Load(), RingFlushes: db.ringFlushes.Load(), RingBytes: ringBytes,
		Checkpoints: db.checkpoints.Load(), CheckpointSteps: db.checkpointSteps.Load(),
		CheckpointTime: time.Duration(db.checkpointNanos.Load()),
		Compactions:    db.compactionsDone.Load(), CompactionSteps: db.compactionSteps.Load(),
		CompactionTime: time.Duration(db.compactionNanos.Load()),
		FullWait:       time.Duration(db.fullWaitNanos.Load()),
		FlushTime:      time.Duration(db.flushNanos.Load()), DurableWait: time.Duration(db.durableWaitNanos.Load()),
		FileReleases:   db.fileReleases.Load(),
		CoveredCommits: db.coveredCommits.Load(),
	}
}

// View runs fn in a read transaction and rolls it back afterwards. A read
// in fn that finds the file damaged (which panics, having no error to
// return) ends it with that error.
func (db *DB) View(fn func(*Tx) error) (err error) {
	tx, err := db.Begin(false)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	defer catchCorrupt(&err)
	return fn(tx)
}

// Update runs fn in a write transaction and commits it if fn returns nil; an
// error or a panic from fn rolls it back, leaving nothing of it behind. A
// read in fn that finds the file damaged ends it with that error.
func (db *DB) Update(fn func(*Tx) error) (err error) {
	tx, err := db.Begin(true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := runCatchingCorrupt(fn, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// runCatchingCorrupt runs fn, turning a read's panic on a damaged file
// into its error.
func runCatchingCorrupt(fn func(*Tx) error, tx *Tx) (err error) {
	defer catchCorrupt(&err)
	return fn(tx)
}
