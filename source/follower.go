package source

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// closeTimeout bounds how long closing an upstream connection waits for a
// server that may be gone.
const closeTimeout = 5 * time.Second

// Follower follows one source: it snapshots the upstream tables, then
// streams their changes into the Sink, retrying after errors, until Close,
// Drop or an error retrying cannot cure.
type Follower struct {
	cfg    Config
	sink   Sink
	log    *slog.Logger
	redact redactor

	mu      sync.Mutex
	status  Status
	cancel  context.CancelFunc
	done    chan struct{}
	started bool
}

// New checks cfg and returns a Follower that writes into sink. It connects
// to nothing until Start.
func New(cfg Config, sink Sink) (*Follower, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if sink == nil {
		return nil, errors.New("source: nil Sink")
	}
	cfg.setDefaults()
	f := &Follower{
		cfg:    cfg,
		sink:   sink,
		redact: redactor{cfg.Connection.Password},
		done:   make(chan struct{}),
	}
	f.log = cfg.Logger.With(slog.String("source", cfg.Name))
	f.status.State = StateStarting
	return f, nil
}

// Start starts following in a goroutine of its own, until ctx ends or
// Close or Drop is called. A Follower starts once.
func (f *Follower) Start(ctx context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.started {
		return errors.New("source: Follower already started")
	}
	f.started = true
	ctx, f.cancel = context.WithCancel(ctx)
	go f.run(ctx)
	return nil
}

// Done is closed when the Follower has stopped: closed, dropped, failed,
// or its context ended.
func (f *Follower) Done() <-chan struct{} { return f.done }

// Status returns the Follower's state now.
func (f *Follower) Status() Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.status
	if s.ServerWALEnd > s.Position {
		s.LagBytes = int64(s.ServerWALEnd - s.Position)
	}
	return s
}

// Close stops following, waits for the Follower's goroutine to end and
// leaves the slot upstream for a later Follower of the same Sink to
// resume from. Closing twice is fine.
func (f *Follower) Close() error {
	f.mu.Lock()
	if !f.started {
		f.started = true // a Follower closed before Start never starts
		f.status.State = StateStopped
		close(f.done)
		f.mu.Unlock()
		return nil
	}
	cancel := f.cancel
	f.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	<-f.done
	return nil
}

// Drop stops following and drops the replication slot if this source
// created it (a slot the user made is left alone). It fails when the
// slot cannot be dropped (upstream unreachable): it then still holds WAL
// upstream, and Drop may be called again.
func (f *Follower) Drop(ctx context.Context) error {
	_ = f.Close()
	cp, err := f.sink.Checkpoint(ctx)
	if err != nil {
		return f.redact.error(err)
	}
	if !cp.SlotCreated || cp.Slot == "" {
		return nil
	}
	repl, err := connect(ctx, f.cfg.Connection, true)
	if err != nil {
		return f.redact.error(err)
	}
	defer closeConn(repl)
	if err := dropSlot(ctx, repl, cp.Slot); err != nil {
		return f.redact.error(err)
	}
	f.log.Info("dropped replication slot", slog.String("slot", cp.Slot))
	return nil
}

// run is the Follower's goroutine: sessions, and waits between them.
func (f *Follower) run(ctx context.Context) {
	defer close(f.done)
	wait := f.cfg.RetryMin
	for {
		began := time.Now()
		s := &session{f: f}
		err := s.run(ctx)
		s.close()
		if ctx.Err() != nil {
			f.setState(StateStopped)
			f.log.Info("stopped")
			return
		}
		err = f.redact.error(err)
		if err == nil {
			err = errors.New("the session ended without an error") // run returns only on errors
		}
		if IsPermanent(err) {
			f.noteError(err, StateFailed)
			f.log.Error("failed", slog.String("error", err.Error()))
			return
		}
		// A session that got somewhere, or lasted, starts the waits over:
		// only failures in a row back off.
		if s.progressed || time.Since(began) > f.cfg.RetryMax {
			wait = f.cfg.RetryMin
		}
		f.noteError(err, StateRetrying)
		f.log.Warn("retrying", slog.String("error", err.Error()), slog.Duration("after", wait))
		if !sleep(ctx, jitter(wait)) {
			f.setState(StateStopped)
			return
		}
		wait = min(2*wait, f.cfg.RetryMax)
	}
}

// jitter spreads d by ±20% so that many sources do not retry in step.
func jitter(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}

// sleep waits d, or until ctx ends (false).
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func (f *Follower) setState(s State) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.status.State != s {
		f.log.Debug("state", slog.String("state", s.String()))
	}
	f.status.State = s
}

func (f *Follower) noteError(err error, s State) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.State = s
	f.status.LastError = f.redact.text(err.Error())
	f.status.LastErrorTime = time.Now()
}

// committed records a batch the Sink committed.
func (f *Follower) committed(b *Batch) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.Slot = b.Checkpoint.Slot
	f.status.Position = b.Checkpoint.Position
	f.status.Rows += int64(len(b.Changes))
	if b.Xid != 0 {
		f.status.Transactions++
		f.status.LastCommitTime = b.CommitTime
	}
}

// resumed records the checkpoint a session starts from.
func (f *Follower) resumed(cp Checkpoint) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.Slot = cp.Slot
	f.status.Position = cp.Position
}

// serverAt records upstream's WAL end as last heard.
func (f *Follower) serverAt(end LSN) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.ServerWALEnd = max(f.status.ServerWALEnd, end)
}

// session is one connection's worth of following: from reading the Sink's
// checkpoint to the error that ends it.
type session struct {
	f     *Follower
	repl  *pgconn.PgConn // replication connection
	plain *pgconn.PgConn // plain connection: catalog, snapshot, WAL position

	cp         Checkpoint // as last committed
	progressed bool       // the Sink committed something
	lastCommit time.Time
	stream     streamState
}

// run is one session. The state changes only once a phase is under way,
// so that a Follower that cannot reach upstream stays retrying.
func (s *session) run(ctx context.Context) error {
	cp, err := s.f.sink.Checkpoint(ctx)
	if err != nil {
		return err
	}
	s.cp = cp
	s.f.resumed(cp)
	if cp.Phase != PhaseStreaming {
		if err := s.snapshot(ctx); err != nil {
			return err
		}
	}
	return s.follow(ctx)
}

func (s *session) close() {
	closeConn(s.repl)
	closeConn(s.plain)
	s.repl, s.plain = nil, nil
}

// commit hands b to the Sink and, once it is committed, makes it the
// session's checkpoint.
func (s *session) commit(ctx context.Context, b *Batch) error {
	if err := s.f.sink.Commit(ctx, b); err != nil {
		if IsPermanent(err) {
			return err
		}
		return fmt.Errorf("commit to the source tables: %w", err)
	}
	s.cp = b.Checkpoint
	s.progressed = true
	s.lastCommit = time.Now()
	s.f.committed(b)
	return nil
}

// plainConn returns the session's plain connection, opening it first.
func (s *session) plainConn(ctx context.Context) (*pgconn.PgConn, error) {
	if s.plain != nil && !s.plain.IsClosed() {
		return s.plain, nil
	}
	conn, err := connect(ctx, s.f.cfg.Connection, false)
	if err != nil {
		return nil, err
	}
	s.plain = conn
	return conn, nil
}
