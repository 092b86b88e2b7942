package sql

import (
	"context"
	"log/slog"
	"sync"

	"cdcdb/catalog"
	"cdcdb/source"
	"cdcdb/wire"
)

// sourceRunner keeps one follower running per source: started by CREATE
// SOURCE, and for every source when the server starts (StartSources);
// stopped by DROP SOURCE and when the server stops (StopSources).
type sourceRunner struct {
	e      *Engine
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	running map[catalog.OID]*runningSource
	stopped bool
}

type runningSource struct {
	follower *source.Follower
	sink     *sourceSink
}

func newSourceRunner(e *Engine) *sourceRunner {
	ctx, cancel := context.WithCancel(context.Background())
	return &sourceRunner{e: e, ctx: ctx, cancel: cancel, running: map[catalog.OID]*runningSource{}}
}

// StartSources starts following every source of the database. The server
// calls it once it is ready for clients; a source that cannot reach its
// upstream retries on its own.
func (e *Engine) StartSources() {
	for _, src := range e.catalogSnapshot().Sources() {
		e.sources.start(src.OID)
	}
}

// StopSources stops every follower, waiting for their goroutines, and
// starts none after. Their slots stay upstream, for the next start to
// resume from.
func (e *Engine) StopSources() { e.sources.stop() }

// start starts the follower of a source unless it runs already.
func (r *sourceRunner) start(oid catalog.OID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped || r.running[oid] != nil {
		return
	}
	rs, err := r.newFollower(oid)
	if err != nil {
		r.e.log.Error("cannot follow source", slog.Uint64("source", uint64(oid)), slog.String("error", err.Error()))
		return
	}
	if err := rs.follower.Start(r.ctx); err != nil {
		r.e.log.Error("cannot follow source", slog.String("source", rs.sink.name), slog.String("error", err.Error()))
		return
	}
	r.running[oid] = rs
}

// newFollower makes the follower of a source, from the catalog.
func (r *sourceRunner) newFollower(oid catalog.OID) (*runningSource, error) {
	cat := r.e.catalogSnapshot()
	src, ok := cat.SourceByOID(oid)
	if !ok {
		return nil, errSourceDropped
	}
	conn, ok := cat.ConnectionByOID(src.Connection)
	if !ok {
		return nil, errSourceDropped
	}
	cfg := source.Config{Name: src.Name, Connection: sourceConnection(conn), Publication: src.Publication, Slot: src.Slot,
		Logger: r.e.log.With(slog.String("component", "source"))}
	for _, st := range src.Tables {
		ref := source.TableRef{Schema: st.UpstreamSchema, Table: st.UpstreamName}
		if t, ok := cat.TableByOID(st.Table); ok && t.Name != st.UpstreamName {
			ref.As = t.Name
		}
		cfg.Tables = append(cfg.Tables, ref)
	}
	sess, err := newSession(r.e, wire.StartupInfo{User: "cdcdb", ApplicationName: "cdcdb source " + src.Name})
	if err != nil {
		return nil, err
	}
	sink := &sourceSink{e: r.e, oid: oid, name: src.Name, sess: sess}
	f, err := source.New(cfg, sink)
	if err != nil {
		sess.Close()
		return nil, err
	}
	return &runningSource{follower: f, sink: sink}, nil
}

// status is the follower's Status, false when none runs for the source.
func (r *sourceRunner) status(oid catalog.OID) (source.Status, bool) {
	r.mu.Lock()
	rs := r.running[oid]
	r.mu.Unlock()
	if rs == nil {
		return source.Status{}, false
	}
	return rs.follower.Status(), true
}

// drop stops the source's follower and drops the slot the source made.
// On error the follower is stopped, and start makes a new one.
func (r *sourceRunner) drop(ctx context.Context, oid catalog.OID) error {
	r.mu.Lock()
	rs := r.running[oid]
	delete(r.running, oid)
	r.mu.Unlock()
	if rs == nil {
		var err error
		if rs, err = r.newFollower(oid); err != nil {
			return err
		}
	}
	defer rs.sink.sess.Close()
	// The checkpoint, read before the follower stops, names the slot.
	_ = rs.follower.Close()
	cp, err := rs.sink.Checkpoint(ctx)
	if err != nil {
		return err
	}
	rs.sink.final = &cp
	return rs.follower.Drop(ctx)
}

// stop stops every follower.
func (r *sourceRunner) stop() {
	r.mu.Lock()
	r.stopped = true
	running := r.running
	r.running = map[catalog.OID]*runningSource{}
	r.mu.Unlock()
	r.cancel()
	for _, rs := range running {
		_ = rs.follower.Close()
		rs.sink.sess.Close()
	}
}
