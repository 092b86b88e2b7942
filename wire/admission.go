package wire

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"time"

	"cdcdb/pgerror"
)

// This file owns who gets in, around the authentication exchange itself
// (auth.go): the cap on connections still authenticating, the connection
// rules (hba.go) that pick the method, the session slots with the ones
// reserved for superusers, and the wait after a failed login
// (logindelay.go).

// errLoginAbandoned ends a handshake without a word to the client, as
// PostgreSQL ends one at authentication_timeout: its failed login's answer
// would come after the timeout, or the server shuts down meanwhile.
var errLoginAbandoned = errors.New("failed login abandoned")

// isTimeout reports whether err is a read that hit its deadline.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// enterPending counts c among the connections not yet logged in, from
// its first byte. They hold no session slot, but are capped at twice
// MaxConnections (pendingWithinCap), as PostgreSQL caps its children, so
// that connecting without logging in cannot grow the server without
// bound; the authentication timeout ends each.
func (s *Server) enterPending(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending++
	c.holdsPending = true
}

// pendingWithinCap reports whether the connections not yet logged in,
// the asking one included, are within the cap. It is asked once the
// client's startup packet is in, so that the refusal reaches it as
// PostgreSQL's does.
func (s *Server) pendingWithinCap() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pending <= 2*s.cfg.MaxConnections
}

func (s *Server) releasePending(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.holdsPending {
		s.pending--
		c.holdsPending = false
	}
}

// acquireSlot counts an authenticated c against MaxConnections, keeping
// the last SuperuserReservedConnections slots for superusers, with
// PostgreSQL 15's refusals.
func (s *Server) acquireSlot(c *conn, superuser bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !superuser && s.cfg.SuperuserReservedConnections > 0 && s.slots >= s.cfg.MaxConnections-s.cfg.SuperuserReservedConnections && s.slots < s.cfg.MaxConnections {
		return &pgerror.Error{Code: pgerror.TooManyConnections, Message: "remaining connection slots are reserved for non-replication superuser connections"}
	}
	if s.slots >= s.cfg.MaxConnections {
		return &pgerror.Error{Code: pgerror.TooManyConnections, Message: "sorry, too many clients already"}
	}
	s.slots++
	c.holdsSlot = true
	return nil
}

// attempt describes c's connection for the rules.
func (c *conn) attempt(user, database string) connectionAttempt {
	a := connectionAttempt{user: user, database: database}
	_, a.ssl = c.rw.(*tls.Conn)
	if tcp, ok := c.raw.RemoteAddr().(*net.TCPAddr); ok {
		a.addr = tcp.IP
	}
	return a
}

// clientAddress is the key of c's failed logins: the client's IP address.
func (c *conn) clientAddress() string {
	if tcp, ok := c.raw.RemoteAddr().(*net.TCPAddr); ok {
		return tcp.IP.String()
	}
	return c.raw.RemoteAddr().String()
}

// loginMethod is how a connection is to authenticate: the first matching
// rule's method, or without rules a password when one is configured and
// trust otherwise. A rule that rejects, or no rule at all, refuses the
// connection as PostgreSQL does.
func (s *Server) loginMethod(a connectionAttempt) (AuthMethod, error) {
	if s.cfg.ConnectionRules == nil {
		if s.cfg.Password != "" {
			return MethodSCRAM, nil
		}
		return MethodTrust, nil
	}
	host := "[unknown]"
	if a.addr != nil {
		host = a.addr.String()
	}
	r, ok := s.cfg.ConnectionRules.match(a)
	if !ok {
		return 0, &pgerror.Error{Code: pgerror.InvalidAuthorizationSpecification, Message: fmt.Sprintf(
			"no pg_hba.conf entry for host \"%s\", user \"%s\", database \"%s\", %s", host, a.user, a.database, a.encryptionState())}
	}
	if r.method == MethodReject {
		return 0, &pgerror.Error{Code: pgerror.InvalidAuthorizationSpecification, Message: fmt.Sprintf(
			"pg_hba.conf rejects connection for host \"%s\", user \"%s\", database \"%s\", %s", host, a.user, a.database, a.encryptionState())}
	}
	return r.method, nil
}

// delayFailedLogin records a failed login and waits until it may be
// answered (logindelay.go). When that would be after deadline (the
// handshake's end) it waits until then, and returns errLoginAbandoned, as
// when the server shuts down meanwhile.
func (c *conn) delayFailedLogin(deadline time.Time) error {
	now := time.Now()
	answer := c.srv.failures.failed(c.clientAddress(), now)
	wait, abandon := answer.Sub(now), false
	if answer.After(deadline) {
		wait, abandon = deadline.Sub(now), true
	}
	if wait > 0 {
		c.log.Info("delaying the answer to a failed login", "delay", wait.Round(time.Millisecond))
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-c.srv.closed:
			return errLoginAbandoned
		}
	}
	if abandon {
		return errLoginAbandoned
	}
	return nil
}
