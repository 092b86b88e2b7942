package wire

import (
	"crypto/rand"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"cdcdb/pgerror"
)

// Request codes of the packets a client may send before its StartupMessage.
// They sit in the protocol-version slot, as major 1234 with minors no real
// protocol will use.
const (
	cancelRequestCode = 1234<<16 | 5678
	sslRequestCode    = 1234<<16 | 5679
	gssEncRequestCode = 1234<<16 | 5680

	// maxStartupPacketLen is PostgreSQL's MAX_STARTUP_PACKET_LENGTH.
	maxStartupPacketLen = 10000
)

var errCancelServed = errors.New("cancel request served")

// handshake takes the connection from its first byte to the first
// ReadyForQuery. It reports whether the connection should go on to serve
// queries; when not, whatever the client needed to hear has been sent.
func (c *conn) handshake() bool {
	deadline := time.Now().Add(c.srv.cfg.AuthenticationTimeout)
	if !c.beginWait(deadline, false) {
		return false
	}
	defer c.endWait()
	c.srv.enterPending(c)
	defer c.srv.releasePending(c)

	err := c.startup(deadline)
	if err == nil {
		return true
	}
	var pe *pgerror.Error
	switch {
	case errors.Is(err, errCancelServed):
	case isTimeout(err) || errors.Is(err, errLoginAbandoned):
		// PostgreSQL closes without a word at authentication_timeout.
		c.log.Info("authentication not finished in time", "err", err)
	case errors.As(err, &pe) && c.be != nil:
		c.log.Debug("connection refused", "code", pe.Code, "err", pe.Message)
		c.sendFatal(pe)
	default:
		c.log.Debug("startup failed", "err", err)
	}
	return false
}

func (c *conn) startup(deadline time.Time) error {
	req, err := c.negotiate()
	if c.be == nil {
		// From here on everything goes through pgproto3, over TLS if the
		// client asked for it. The startup packets were read unbuffered on
		// purpose: bytes a client pipelined behind SSLRequest must reach the
		// TLS handshake (and fail it), never be taken as clear-text protocol.
		c.tr = newTransport(c.rw)
		c.be = pgproto3.NewBackend(c.tr, c.tr)
		c.be.SetMaxBodyLen(maxAuthMessageSize)
	}
	if err != nil {
		return err
	}

	req.info.RemoteAddr = c.raw.RemoteAddr().String()
	c.pid = c.srv.nextPID()
	req.info.ProcessID = c.pid
	req.info.Backend = (*connBackend)(c)
	rand.Read(c.secretKey[:])
	c.log = c.log.With("pid", c.pid, "user", req.info.User)

	if req.minor > 0 || len(req.unknownOptions) > 0 {
		// A 3.x client newer than us, or one asking for protocol options we
		// do not know: tell it what we speak and carry on, as PostgreSQL does.
		c.send(&pgproto3.NegotiateProtocolVersion{NewestMinorProtocol: 0, UnrecognizedOptions: req.unknownOptions})
	}
	if c.shuttingDown() {
		return &pgerror.Error{Code: cannotConnectNow, Message: "the database system is shutting down"}
	}
	if !c.srv.pendingWithinCap() {
		return &pgerror.Error{Code: pgerror.TooManyConnections, Message: "sorry, too many clients already"}
	}
	method, err := c.srv.loginMethod(c.attempt(req.info.User, req.info.Database))
	if err != nil {
		return err
	}
	superuser, err := c.authenticate(req.info.User, method, deadline)
	if err != nil {
		return err
	}
	if err := c.srv.acquireSlot(c, superuser); err != nil {
		return err
	}
	c.be.SetMaxBodyLen(c.srv.cfg.MaxMessageSize)

	ctx, done := c.callContext()
	sess, err := c.srv.factory.NewSession(ctx, req.info)
	done()
	if err != nil {
		return c.statementError(err)
	}
	c.sess = sess
	c.info = req.info
	c.srv.register(c)

	status := sess.ParameterStatus()
	for _, name := range slices.Sorted(maps.Keys(status)) {
		c.send(&pgproto3.ParameterStatus{Name: name, Value: status[name]})
	}
	c.send(&pgproto3.BackendKeyData{ProcessID: c.pid, SecretKey: c.secretKey[:]})
	c.readyForQuery()
	c.log.Debug("session started", "database", req.info.Database, "application", req.info.ApplicationName)
	return nil
}

func (c *conn) shuttingDown() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.shutdownRequested
}

// startupRequest is a StartupMessage, understood.
type startupRequest struct {
	minor          uint32
	info           StartupInfo
	unknownOptions []string // "_pq_." protocol options, which we support none of
}

// negotiate reads startup packets until a StartupMessage arrives, answering
// SSLRequest and GSSENCRequest on the way and serving a CancelRequest (which
// ends the connection: errCancelServed). The order of the checks follows
// PostgreSQL's ProcessStartupPacket, including that a second SSLRequest is
// taken for an unsupported protocol version.
func (c *conn) negotiate() (*startupRequest, error) {
	sslDone, gssDone := false, false
	for {
		code, body, err := readStartupPacket(c.rw)
		if err != nil {
			return nil, err
		}
		switch {
		case code == cancelRequestCode:
			if len(body) >= 8 {
				c.srv.cancel(binary.BigEndian.Uint32(body), body[4:])
			}
			return nil, errCancelServed
		case code == sslRequestCode && !sslDone:
			sslDone = true
			if c.srv.cfg.TLSConfig == nil {
				if _, err := c.rw.Write([]byte{'N'}); err != nil {
					return nil, err
				}
				continue
			}
			if _, err := c.rw.Write([]byte{'S'}); err != nil {
				return nil, err
			}
			tc := tls.Server(c.raw, c.srv.cfg.TLSConfig)
			if err := tc.Handshake(); err != nil {
				return nil, fmt.Errorf("TLS handshake: %w", err)
			}
			c.rw = tc
			continue
		case code == gssEncRequestCode && !gssDone:
			gssDone = true
			if _, err := c.rw.Write([]byte{'N'}); err != nil {
				return nil, err
			}
			continue
		}

		major, minor := code>>16, code&0xffff
		if major != 3 {
			return nil, pgerror.New(pgerror.FeatureNotSupported,
				"unsupported frontend protocol %d.%d: server supports 3.0 to 3.0", major, minor)
		}
		return parseStartupMessage(minor, body)
	}
}

// readStartupPacket reads one length-prefixed packet without a type byte and
// returns its leading code and the rest. It reads exactly the packet, no
// further (see startup). A bad length gets no reply, as in PostgreSQL: the
// peer is likely not speaking our protocol at all.
func readStartupPacket(r io.Reader) (code uint32, body []byte, err error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := int32(binary.BigEndian.Uint32(hdr[:]))
	if n < 8 || n > maxStartupPacketLen {
		return 0, nil, fmt.Errorf("invalid length of startup packet: %d", n)
	}
	buf := make([]byte, n-4)
	if _, err := io.ReadFull(r, buf); err != nil {
		return 0, nil, err
	}
	return binary.BigEndian.Uint32(buf), buf[4:], nil
}

// parseStartupMessage decodes the name/value pairs of a StartupMessage. It is
// written here rather than taken from pgproto3, whose decoder rejects every
// 3.x minor version it does not know, where PostgreSQL negotiates.
func parseStartupMessage(minor uint32, b []byte) (*startupRequest, error) {
	badLayout := pgerror.New(pgerror.ProtocolViolation, "invalid startup packet layout: expected terminator as last byte")
	params := make(map[string]string)
	rest := string(b)
	for {
		if rest == "" {
			return nil, badLayout
		}
		if rest[0] == 0 {
			if len(rest) != 1 {
				return nil, badLayout
			}
			break
		}
		name, after, ok := strings.Cut(rest, "\x00")
		if !ok {
			return nil, badLayout
		}
		value, after, ok := strings.Cut(after, "\x00")
		if !ok {
			return nil, badLayout
		}
		params[name] = value
		rest = after
	}

	req := &startupRequest{minor: minor}
	req.info.User = params["user"]
	if req.info.User == "" {
		return nil, pgerror.New(pgerror.InvalidAuthorizationSpecification, "no PostgreSQL user name specified in startup packet")
	}
	req.info.Database = params["database"]
	if req.info.Database == "" {
		req.info.Database = req.info.User
	}
	req.info.ApplicationName = params["application_name"]
	req.info.Options = make(map[string]string)
	for name, value := range params {
		switch {
		case name == "user", name == "database", name == "application_name":
		case strings.HasPrefix(name, "_pq_."):
			req.unknownOptions = append(req.unknownOptions, name)
		default:
			req.info.Options[name] = value
		}
	}
	slices.Sort(req.unknownOptions)
	return req, nil
}
