package sql

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/parse"
	"cdcdb/sql/spill"
	"cdcdb/storage"
	"cdcdb/wire"
)

// Options configure an Engine.
type Options struct {
	Logger *slog.Logger
	// Dialect is the default SQL dialect of new sessions (the zero value:
	// PostgreSQL's).
	Dialect parse.Dialect
	// Settings are server-wide defaults of run-time parameters, by name,
	// as postgres -c gives them: every session starts with them, and RESET
	// returns to them. NewEngine refuses an unknown parameter or a bad
	// value.
	Settings map[string]string
	// FastPathsOff runs the engine on general paths in place of the fast
	// ones it names (fastpaths.go); the zero value takes every fast path.
	FastPathsOff FastPathsOff
	// Clock, when set, is read in place of the wall clock for what the
	// engine stores of the time: each write transaction's commit time
	// (which still rises by at least a microsecond from one commit to the
	// next) and a flow's last-applied time. A test that runs one workload
	// twice sets it to a constant, and the two files then hold the same
	// history, byte for byte.
	Clock func() time.Time
	// SnapshotMemory is how many bytes of a snapshot flow's snapshot are
	// kept in memory before sorted runs spill to temporary files next to
	// the data file (0: cdcexec.DefaultSnapshotMemory).
	SnapshotMemory int
	// MemoryBudget is the bytes every statement's accounted memory may
	// hold at once (memory.go): past it a statement fails with 53200 (0:
	// no budget, memory is only counted).
	MemoryBudget int64
}

// Engine is the SQL side of one database file, shared by every session.
type Engine struct {
	db   *storage.DB
	log  *slog.Logger
	opts Options

	mu  sync.Mutex
	cat *catalog.Snapshot
	// catSeen is the catalog a read transaction last found current, with
	// the storage version it read: a read at the same version needs no
	// look at the stored catalog version (a bucket open and a copy of the
	// catalog's inline bucket, a third of a point read's allocation).
	catSeen atomic.Pointer[catalogAt]

	// settingDefaults are Options.Settings, validated, in canonical form, by
	// lower-case name.
	settingDefaults map[string]string
	// writerPID is the pid of the session holding storage's writer slot,
	// 0 when none does (backends.go).
	writerPID atomic.Int32
	// locks are the row locks of detached write transactions
	// (concurrent.go).
	locks rowLocks

	parsed  parseCache
	flows   flowCache
	notify  notifyHub // LISTEN/NOTIFY (notify.go)
	started time.Time
	// pendingCopies says the file has the keyspace COPYs write their rows
	// ahead into (copyahead.go).
	pendingCopies bool
	// sources runs the followers of the sources (sourcerun.go).
	sources *sourceRunner
	// memory is the server-wide memory budget (memory.go).
	memory *spill.Budget
}

// storedNow is the time the engine stores: Options.Clock's, or the wall
// clock's.
func (e *Engine) storedNow() time.Time {
	if e.opts.Clock != nil {
		return e.opts.Clock()
	}
	return time.Now()
}

// NewEngine opens the SQL engine over an open storage file.
func NewEngine(db *storage.DB, opts Options) (*Engine, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	e := &Engine{db: db, log: opts.Logger, opts: opts, started: time.Now(), memory: spill.NewBudget(opts.MemoryBudget)}
	if err := e.setDefaults(opts.Settings); err != nil {
		return nil, err
	}
	e.sources = newSourceRunner(e)
	err := db.View(func(tx *storage.Tx) error {
		snap, err := catalog.Load(tx)
		e.cat = snap
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := e.dropLeftoverTempSchemas(); err != nil {
		return nil, fmt.Errorf("dropping the temporary tables of sessions gone with the last server: %w", err)
	}
	if err := e.preparePendingCopies(); err != nil {
		return nil, fmt.Errorf("redoing the COPYs whose commits had not reached the disk: %w", err)
	}
	return e, nil
}

// NewSession implements wire.SessionFactory.
func (e *Engine) NewSession(ctx context.Context, info wire.StartupInfo) (wire.Session, error) {
	return newSession(e, info)
}

// catalogFor returns the catalog matching what tx sees: the shared snapshot
// when its version matches, else one loaded from tx itself. Only a catalog
// read by a read transaction is shared: a writer may see commits that are
// not durable yet, and sessions must not plan against those.
func (e *Engine) catalogFor(tx *storage.Tx, share bool) (*catalog.Snapshot, error) {
	if share {
		if seen := e.catSeen.Load(); seen != nil && seen.storage == tx.Version() {
			return seen.cat, nil
		}
	}
	v := catalog.StoredVersion(tx)
	e.mu.Lock()
	c := e.cat
	e.mu.Unlock()
	if c.Version != v {
		snap, err := catalog.Load(tx)
		if err != nil {
			return nil, err
		}
		if share {
			e.installCatalog(snap)
		}
		c = snap
	}
	if share {
		e.catSeen.Store(&catalogAt{storage: tx.Version(), cat: c})
	}
	return c, nil
}

// catalogAt is the catalog of one committed storage state.
type catalogAt struct {
	storage uint64
	cat     *catalog.Snapshot
}

// installCatalog makes snap the shared catalog if it is newer.
func (e *Engine) installCatalog(snap *catalog.Snapshot) {
	e.mu.Lock()
	if snap.Version > e.cat.Version {
		e.cat = snap
	}
	e.mu.Unlock()
}

// cancelError turns a context's end into PostgreSQL's error for it.
func cancelError(ctx context.Context) error {
	if ctx.Err() == context.DeadlineExceeded {
		return pgerror.New(pgerror.QueryCanceled, "canceling statement due to statement timeout")
	}
	return pgerror.New(pgerror.QueryCanceled, "canceling statement due to user request")
}
