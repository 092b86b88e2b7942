package wire

import (
	"context"
	"crypto/subtle"
	"errors"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Server accepts PostgreSQL protocol connections and runs one Session per
// connection. It is safe for concurrent use; Serve may be called on several
// listeners.
type Server struct {
	cfg      Config
	factory  SessionFactory
	log      *slog.Logger
	verifier *scramVerifier // nil when no password is configured (trust)
	// mockSecret seeds the salts of mock exchanges (mockVerifier).
	mockSecret [32]byte

	lastPID atomic.Uint32

	// stopCtx is the parent of every context wire hands to a Session. Shutdown
	// cancels it once its caller's patience runs out, so statements still
	// running at that point see cancellation rather than a dead socket only.
	stopCtx context.Context
	stop    context.CancelFunc

	mu        sync.Mutex
	closing   bool
	listeners map[net.Listener]struct{}
	conns     map[*conn]struct{} // every accepted connection, for Shutdown
	byPID     map[uint32]*conn   // connections that were given BackendKeyData, for CancelRequest
	slots     int                // sessions counted against MaxConnections
	pending   int                // connections authenticating, capped at 2*MaxConnections
	running   sync.WaitGroup     // one per accepted connection
	// closed is closed when Shutdown begins: it wakes connections sleeping
	// out a failed login's delay.
	closed chan struct{}

	// failures delays the answers to failed logins (logindelay.go).
	failures loginFailures
}

// NewServer returns a server that makes sessions with factory. It does not
// listen; call Serve.
func NewServer(cfg Config, factory SessionFactory) *Server {
	cfg = cfg.withDefaults()
	s := &Server{
		cfg:        cfg,
		factory:    factory,
		log:        cfg.Logger,
		listeners:  make(map[net.Listener]struct{}),
		conns:      make(map[*conn]struct{}),
		byPID:      make(map[uint32]*conn),
		mockSecret: newMockSecret(),
		closed:     make(chan struct{}),
	}
	if cfg.Password != "" {
		// Derive the keys once, as PostgreSQL stores a SCRAM verifier rather
		// than the password: each login then costs a few HMACs, not 4096
		// PBKDF2 rounds.
		s.verifier = newSCRAMVerifier(cfg.Password)
	}
	s.stopCtx, s.stop = context.WithCancel(context.Background())
	return s
}

// Serve accepts connections on ln until Shutdown is called (then it returns
// nil) or ln fails. It closes ln before returning.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		ln.Close()
		return nil
	}
	s.listeners[ln] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.listeners, ln)
		s.mu.Unlock()
		ln.Close()
	}()

	var backoff time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.isClosing() {
				return nil
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			// Running out of file descriptors and the like pass; wait a
			// little rather than spin, as net/http does.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			s.log.Warn("accept failed; retrying", "err", err, "delay", backoff)
			time.Sleep(backoff)
			continue
		}
		backoff = 0
		c := s.track(nc)
		if c == nil {
			nc.Close()
			return nil
		}
		go c.run()
	}
}

// Shutdown stops accepting, ends idle sessions at once with FATAL 57P01, and
// waits for sessions that are running a statement to finish it and end the
// same way. When ctx is done first it cancels the remaining statements, closes
// their sockets and returns ctx.Err() without waiting further. It returns nil
// once every connection has ended.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	if !s.closing {
		close(s.closed)
	}
	s.closing = true
	for ln := range s.listeners {
		ln.Close()
	}
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()

	for _, c := range conns {
		c.requestShutdown()
	}

	done := make(chan struct{})
	go func() {
		s.running.Wait()
		close(done)
	}()
	select {
	case <-done:
		s.stop()
		return nil
	case <-ctx.Done():
	}

	s.stop()
	s.mu.Lock()
	for c := range s.conns {
		c.raw.Close()
	}
	s.mu.Unlock()
	return ctx.Err()
}

func (s *Server) isClosing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

// track registers a freshly accepted socket, or returns nil when the server
// is shutting down. Registering under the same lock that Shutdown takes
// guarantees running.Add never races with running.Wait.
func (s *Server) track(nc net.Conn) *conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return nil
	}
	c := newConn(s, nc)
	s.conns[c] = struct{}{}
	s.running.Add(1)
	return c
}

// forget undoes track and everything registered since: the pid, the slot.
func (s *Server) forget(c *conn) {
	s.mu.Lock()
	delete(s.conns, c)
	if s.byPID[c.pid] == c {
		delete(s.byPID, c.pid)
	}
	if c.holdsSlot {
		s.slots--
	}
	if c.holdsPending {
		s.pending--
	}
	s.mu.Unlock()
	s.running.Done()
}

// nextPID hands out process ids. They only need to be unique among live
// connections, which a 32-bit counter is for any realistic uptime; zero is
// skipped because some clients treat it as "no key data".
func (s *Server) nextPID() uint32 {
	for {
		if pid := s.lastPID.Add(1); pid != 0 {
			return pid
		}
	}
}

// register makes c reachable by CancelRequest.
func (s *Server) register(c *conn) {
	s.mu.Lock()
	s.byPID[c.pid] = c
	s.mu.Unlock()
}

// cancel serves a CancelRequest: if pid and key name a live session, its
// running statement (if any) is cancelled. As in PostgreSQL, a wrong key is
// silently ignored, so a cancel connection learns nothing.
func (s *Server) cancel(pid uint32, key []byte) {
	s.mu.Lock()
	c := s.byPID[pid]
	s.mu.Unlock()
	if c == nil || subtle.ConstantTimeCompare(c.secretKey[:], key) != 1 {
		s.log.Debug("cancel request for unknown backend ignored", "pid", pid)
		return
	}
	c.cancelRunning()
}
