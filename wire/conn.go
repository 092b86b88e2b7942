package wire

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"cdcdb/pgerror"
)

// conn is one client connection, from accept to close. Everything except the
// fields under mu is owned by the connection's own goroutine (run), which is
// also the only goroutine that calls into its Session.
type conn struct {
	srv *Server
	log *slog.Logger
	raw net.Conn      // the accepted socket: deadlines and Close act here, TLS or not
	rw  io.ReadWriter // raw, or the TLS layer over it once SSLRequest succeeded
	tr  *transport
	be  *pgproto3.Backend
	// tagBuf is commandComplete's scratch space; completeMsg and readyMsg
	// are reused so that ending a statement does not allocate.
	tagBuf      []byte
	completeMsg pgproto3.CommandComplete
	readyMsg    pgproto3.ReadyForQuery

	pid          uint32
	secretKey    [4]byte
	holdsSlot    bool // guarded by srv.mu
	holdsPending bool // guarded by srv.mu

	info StartupInfo
	sess Session

	// Extended query protocol state: see extended.go.
	stmts    map[string]*statement
	portals  map[string]*portal
	skipping bool // an extended-protocol message failed: ignore all until Sync
	aborted  bool // an error was reported since the last ReadyForQuery
	ready    bool // ReadyForQuery was the last thing sent: the client has the turn

	// closing is set once a FATAL went out: the connection ends after the
	// message being handled.
	closing bool

	// result is handed to every Execute; reused, like the message values
	// below, so that sending a row does not allocate.
	result   resultWriter
	dataRow  pgproto3.DataRow
	copyData pgproto3.CopyData

	// mu guards what the Shutdown and CancelRequest goroutines touch.
	mu                sync.Mutex
	waiting           bool // blocked on the client with no statement running
	waitingIdle       bool // ... and outside a transaction block: notifications wake it
	deadlineSet       bool
	shutdownRequested bool
	// notifyPending: the session queued notifications (wakeForNotification)
	// that an idle connection is to send.
	notifyPending bool
	inCall        bool // a session call is running: a CancelRequest cancels callCtx

	// callCtx is the context of the connection's session calls (see
	// callContext), callCancel its cancel; endCallFunc is endCall, made once.
	callCtx     context.Context
	callCancel  context.CancelFunc
	endCallFunc func()
}

func newConn(s *Server, nc net.Conn) *conn {
	c := &conn{
		srv:     s,
		log:     s.log.With("remote", nc.RemoteAddr().String()),
		raw:     nc,
		rw:      socketIO(nc, s.cfg.PlainSocketIO),
		stmts:   make(map[string]*statement),
		portals: make(map[string]*portal),
	}
	c.result.c = c
	return c
}

// run serves the connection until it ends. The deferred calls run bottom-up:
// a panic is turned into a FATAL for the client first, then the session is
// closed (rolling back), then the socket, then the server forgets us.
func (c *conn) run() {
	defer c.srv.forget(c)
	defer c.releaseContext()
	defer c.raw.Close()
	defer c.closeSession()
	defer c.recoverPanic()

	if !c.handshake() {
		return
	}
	if ns, ok := c.sess.(NotifyingSession); ok {
		ns.SetNotificationWaker(c.wakeForNotification)
	}
	c.serve()
}

// serve is the message loop after startup.
func (c *conn) serve() {
	for !c.closing {
		msg, err := c.readMessage()
		if err != nil {
			c.endAfterReadError(err)
			return
		}
		if c.skipping {
			// After an extended-protocol error PostgreSQL discards everything
			// up to Sync, so the rest of a pipelined batch cannot run against
			// state the failed message was supposed to set up.
			switch msg.(type) {
			case *pgproto3.Sync, *pgproto3.Terminate:
			default:
				continue
			}
		}
		switch m := msg.(type) {
		case *pgproto3.Query:
			c.simpleQuery(m.String)
		case *pgproto3.Parse:
			c.extended(c.parse(m))
		case *pgproto3.Bind:
			c.extended(c.bind(m))
		case *pgproto3.Describe:
			c.extended(c.describe(m))
		case *pgproto3.Execute:
			c.extended(c.execute(m))
		case *pgproto3.Close:
			c.extended(c.closeObject(m))
		case *pgproto3.Sync:
			c.sync()
		case *pgproto3.Flush:
			c.tr.Flush()
		case *pgproto3.Terminate:
			return
		case *pgproto3.CopyData, *pgproto3.CopyDone, *pgproto3.CopyFail:
			// The tail of a COPY FROM STDIN that failed on our side: the
			// client kept sending until it saw the error. PostgreSQL drops
			// these, and so do we.
		case *pgproto3.FunctionCall:
			// The fastpath interface (libpq's PQfn, its large-object calls)
			// needs function OIDs we do not have; it is answered like a
			// failed simple query.
			c.sendError(pgerror.New(pgerror.FeatureNotSupported, "fastpath function calls are not supported"))
			c.readyForQuery()
		default:
			c.sendFatal(pgerror.New(pgerror.ProtocolViolation, "invalid frontend message type %d", messageType(msg)))
			return
		}
		if c.tr.failed() {
			c.log.Debug("connection lost", "err", errors.Join(c.tr.readErr, c.tr.writeErr))
			return
		}
	}
}

var (
	errShuttingDown      = errors.New("server shutting down")
	errIdleInTransaction = errors.New("idle-in-transaction timeout")
	errCopyIdle          = errors.New("COPY idle timeout")
	errCopyCancelled     = errors.New("COPY cancelled")
)

// readMessage waits for the next message between statements: the only wait
// that Shutdown may interrupt. The idle-in-transaction timeout applies, as in
// PostgreSQL, only once ReadyForQuery has told the client it is its turn, not
// between the messages of a batch.
func (c *conn) readMessage() (pgproto3.FrontendMessage, error) {
	var deadline time.Time
	if t := c.srv.cfg.IdleInTransactionTimeout; t > 0 && c.ready {
		if s := c.sess.TxStatus(); s == 'T' || s == 'E' {
			deadline = time.Now().Add(t)
		}
	}
	for {
		idle := c.ready && c.sess.TxStatus() == 'I'
		if idle {
			c.sendNotifications()
		}
		if !c.beginWait(deadline, idle) {
			return nil, errShuttingDown
		}
		msg, err := c.be.Receive()
		interrupted, notified := c.endWait()
		if err == nil {
			c.ready = false
		}
		if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
			switch {
			case interrupted:
				return nil, errShuttingDown
			case notified && (deadline.IsZero() || time.Now().Before(deadline)):
				// A notification woke the wait: send it, and wait on
				// (pgproto3 keeps what part of a message was read).
				continue
			case !deadline.IsZero():
				return nil, errIdleInTransaction
			}
		}
		return msg, err
	}
}

// wakeForNotification is the session's waker (NotifyingSession): an idle
// connection waiting outside a transaction block is woken at once, as
// requestShutdown wakes it, to send the notifications; any other finds
// them before its next ReadyForQuery.
func (c *conn) wakeForNotification() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.notifyPending = true
	if c.waiting && c.waitingIdle {
		c.raw.SetReadDeadline(time.Unix(1, 0))
		c.deadlineSet = true
	}
}

// endAfterReadError says goodbye in the way the read failure calls for.
func (c *conn) endAfterReadError(err error) {
	switch {
	case errors.Is(err, errShuttingDown):
		c.sendFatal(&pgerror.Error{Code: pgerror.AdminShutdown, Message: "terminating connection due to administrator command"})
	case errors.Is(err, errIdleInTransaction):
		c.sendFatal(&pgerror.Error{Code: pgerror.IdleInTransactionSessionTimeout, Message: "terminating connection due to idle-in-transaction timeout"})
	case c.tr.failed():
		c.log.Debug("connection closed by client", "err", err)
	default:
		c.log.Info("protocol violation; closing connection", "err", err)
		c.sendFatal(protocolError(err))
	}
}

// beginWait marks the connection as idle, so Shutdown may interrupt it, and
// arms the read deadline. It reports false when Shutdown already asked us to
// stop. Taking mu here and in requestShutdown orders the two deadline writes:
// whichever comes second wins, and both sides check the flag under the lock.
func (c *conn) beginWait(deadline time.Time, idle bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.shutdownRequested {
		return false
	}
	c.waiting, c.waitingIdle = true, idle
	switch {
	case idle && c.notifyPending:
		// Notifications queued since they were last sent: wake at once.
		c.raw.SetReadDeadline(time.Unix(1, 0))
		c.deadlineSet = true
	case !deadline.IsZero():
		c.raw.SetReadDeadline(deadline)
		c.deadlineSet = true
	}
	return true
}

// endWait undoes beginWait and reports whether Shutdown came meanwhile,
// and whether notifications are pending for an idle wait.
func (c *conn) endWait() (shutdownRequested, notified bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	notified = c.waitingIdle && c.notifyPending
	c.waiting, c.waitingIdle = false, false
	if c.deadlineSet {
		c.raw.SetReadDeadline(time.Time{})
		c.deadlineSet = false
	}
	return c.shutdownRequested, notified
}

// requestShutdown is Shutdown's first, gentle step: an idle connection is
// woken at once (its read fails on a past deadline); a busy one finds the flag
// when it next waits for the client.
func (c *conn) requestShutdown() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.shutdownRequested = true
	if c.waiting {
		c.raw.SetReadDeadline(time.Unix(1, 0))
		c.deadlineSet = true
	}
}

// callContext returns the context for one call into the Session, and done,
// which ends the call. A CancelRequest arriving meanwhile cancels this call;
// one arriving between calls cancels nothing (as in PostgreSQL, where a
// cancel for an idle backend is a no-op).
//
// Calls share one context until a cancel ends it, and only then does the
// next call get a new one: a context per call cost a point query two
// allocations and lock traffic on the parent, a few percent of its CPU.
// Nothing the Session starts outlives its call waiting on the context, so
// one left uncancelled after a call holds nothing.
func (c *conn) callContext() (ctx context.Context, done func()) {
	if c.callCtx == nil || c.callCtx.Err() != nil {
		if c.callCancel != nil {
			c.callCancel()
		}
		c.callCtx, c.callCancel = context.WithCancel(c.srv.stopCtx)
		c.endCallFunc = c.endCall
	}
	c.mu.Lock()
	c.inCall = true
	c.mu.Unlock()
	return c.callCtx, c.endCallFunc
}

func (c *conn) endCall() {
	c.mu.Lock()
	c.inCall = false
	c.mu.Unlock()
}

// releaseContext lets the connection's call context go, once it has ended.
func (c *conn) releaseContext() {
	if c.callCancel != nil {
		c.callCancel()
	}
}

// quickCallContext is the context for the calls that do not run a
// statement (Parse, Bind, Sync): only Shutdown's final step cancels it.
// Cancellation is promised to Execute (see Session), the only call that
// runs or waits; making and registering a cancellable context for each of
// the others cost a few percent of a short query's CPU, in lock traffic on
// the shared parent.
func (c *conn) quickCallContext() context.Context { return c.srv.stopCtx }

func (c *conn) cancelRunning() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inCall {
		// callCtx and callCancel change only while no call runs.
		c.callCancel()
		if c.waiting {
			// A COPY FROM STDIN waiting for the client (receiveCopy):
			// wake its read, which sees the cancel.
			c.raw.SetReadDeadline(time.Unix(1, 0))
			c.deadlineSet = true
		}
	}
}

// receiveCopy reads the next message of a COPY FROM STDIN. Unlike the
// reads between statements it happens inside a Session call, so the wait
// must end on what ends a call: a cancel (CancelRequest or
// pg_cancel_backend) when watchCancel is set, pg_terminate_backend or
// Shutdown, and CopyIdleTimeout.
func (c *conn) receiveCopy(watchCancel bool) (pgproto3.FrontendMessage, error) {
	timeout := c.srv.cfg.CopyIdleTimeout
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	for {
		c.mu.Lock()
		switch {
		case c.shutdownRequested:
			c.mu.Unlock()
			return nil, errShuttingDown
		case watchCancel && c.callCtx.Err() != nil:
			c.mu.Unlock()
			return nil, errCopyCancelled
		}
		c.waiting, c.waitingIdle = true, false
		if timeout > 0 {
			c.raw.SetReadDeadline(deadline)
			c.deadlineSet = true
		}
		c.mu.Unlock()
		msg, err := c.be.Receive()
		c.mu.Lock()
		c.waiting = false
		if c.deadlineSet {
			c.raw.SetReadDeadline(time.Time{})
			c.deadlineSet = false
		}
		c.mu.Unlock()
		if err == nil || !errors.Is(err, os.ErrDeadlineExceeded) {
			return msg, err
		}
		if timeout > 0 && !time.Now().Before(deadline) {
			return nil, errCopyIdle
		}
		// Woken early by a cancel or a shutdown: the loop's checks say
		// which, or (a cancel already reported) read on.
	}
}

// commandComplete sends a CommandComplete for tag. The tag's bytes go
// through a buffer the connection keeps, as send encodes the message
// before it returns.
func (c *conn) commandComplete(tag string) error {
	c.tagBuf = append(c.tagBuf[:0], tag...)
	c.completeMsg = pgproto3.CommandComplete{CommandTag: c.tagBuf}
	return c.send(&c.completeMsg)
}

// send queues one message. pgproto3's Backend encodes into its own buffer;
// moving that into the transport right away keeps the Backend's buffer small
// and reused, and leaves the transport as the one place that decides when
// bytes hit the socket. An error is either a dead socket (the loop notices via
// tr.failed) or a message that cannot be encoded (too many columns, say),
// which fails the statement.
func (c *conn) send(msg pgproto3.BackendMessage) error {
	c.be.Send(msg)
	if err := c.be.Flush(); err != nil {
		if c.tr.failed() {
			return err
		}
		return pgerror.New(pgerror.ProgramLimitExceeded, "cannot send %T to the client: %v", msg, err)
	}
	return nil
}

func (c *conn) readyForQuery() {
	if pr, ok := c.sess.(ParameterReporter); ok {
		for _, p := range pr.ParameterChanges() {
			c.send(&pgproto3.ParameterStatus{Name: p.Name, Value: p.Value})
		}
	}
	c.readyMsg = pgproto3.ReadyForQuery{TxStatus: c.sess.TxStatus()}
	if c.readyMsg.TxStatus == 'I' {
		c.sendNotifications()
	}
	c.send(&c.readyMsg)
	c.aborted = false
	c.ready = true
}

// sendNotifications queues the notifications the session has for its
// client (sent with what follows, or before the connection next blocks
// reading: see transport).
func (c *conn) sendNotifications() {
	ns, ok := c.sess.(NotifyingSession)
	if !ok {
		return
	}
	c.mu.Lock()
	c.notifyPending = false
	c.mu.Unlock()
	list := ns.Notifications()
	for i := range list {
		n := &list[i]
		c.send(&pgproto3.NotificationResponse{PID: n.PID, Channel: n.Channel, Payload: n.Payload})
	}
}

// recoverPanic keeps a bug in one session from taking the server down: the
// client is told (XX000), the stack is logged, and the connection ends.
func (c *conn) recoverPanic() {
	r := recover()
	if r == nil {
		return
	}
	c.log.Error("panic while serving connection; closing it", "pid", c.pid, "panic", r, "stack", string(debug.Stack()))
	if c.be != nil {
		c.sendFatal(&pgerror.Error{
			Code:    pgerror.InternalError,
			Message: "terminating connection because of an internal error",
			Hint:    "The server log has the details.",
		})
	}
}

// closeSession releases everything the session holds. It also runs after a
// panic, when the session may be in a bad state, so each call is guarded on
// its own: one failing Close must not keep the others, least of all
// Session.Close and its rollback, from running.
func (c *conn) closeSession() {
	if c.sess == nil {
		return
	}
	c.cancelRunning()
	for name := range c.portals {
		c.guard("closing a portal", func() { c.closePortal(name) })
	}
	for name := range c.stmts {
		c.guard("closing a statement", func() { c.closeStatement(name) })
	}
	c.guard("closing the session", c.sess.Close)
	c.log.Debug("session ended")
}

func (c *conn) guard(what string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("panic while "+what, "pid", c.pid, "panic", r, "stack", string(debug.Stack()))
		}
	}()
	f()
}
