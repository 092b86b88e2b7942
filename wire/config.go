package wire

import (
	"crypto/tls"
	"log/slog"
	"time"
)

// Config is what a Server needs to know beyond its SessionFactory. The zero
// value is a usable trust-auth, clear-text server.
type Config struct {
	// Password, when set, makes every connection authenticate with
	// SCRAM-SHA-256 against it, whatever user name the client gives. Empty
	// means trust: any client is let in without a password.
	Password string

	// Roles, when set, is asked about each user name at login: it must be
	// a role that may log in, and with Password set it authenticates
	// against the role's own verifiers (Password then only says that
	// passwords are required). Nil lets any user name in.
	Roles RoleDirectory

	// ConnectionRules, when set, decide per connection (transport, client
	// address, user, database) whether it is refused, trusted or must
	// prove its password, as pg_hba.conf does; Password then only gives
	// the password of a server without a RoleDirectory. Nil: Password
	// decides for every connection.
	ConnectionRules *ConnectionRules

	// SuperuserReservedConnections of the MaxConnections slots are kept
	// for superusers, as PostgreSQL's superuser_reserved_connections:
	// another role finding only these free is refused with 53300. It
	// needs Roles to tell superusers; zero reserves none.
	SuperuserReservedConnections int

	// AuthenticationTimeout bounds everything from accept to the first
	// ReadyForQuery (PostgreSQL's authentication_timeout), so that a
	// client that connects and never finishes the SCRAM exchange frees
	// its place. Zero means DefaultAuthenticationTimeout.
	AuthenticationTimeout time.Duration

	// TLSConfig, when set, lets clients upgrade with SSLRequest. Without it
	// the server answers SSLRequest with 'N' and the client goes on in clear
	// text (or gives up, if it insists on TLS).
	TLSConfig *tls.Config

	// MaxMessageSize is the largest frontend message body accepted, in bytes;
	// a bigger one ends the connection with FATAL 08P01. Zero means
	// DefaultMaxMessageSize.
	MaxMessageSize int

	// MaxPreparedStatements and MaxPortals cap the named prepared
	// statements and portals one connection may hold at once (the unnamed
	// ones do not count): each holds a parsed, planned statement, and a
	// client that prepares without closing would otherwise grow the server
	// without bound. A Parse or Bind past the cap fails with 53400. Zero
	// means the defaults below.
	MaxPreparedStatements int
	MaxPortals            int

	// MaxConnections caps concurrent sessions; the next client is refused
	// with FATAL 53300 once it has authenticated. Clients not yet logged
	// in (silent ones included) hold no session slot, so that unfinished
	// logins cannot lock out the administrator, but are capped at twice
	// MaxConnections, as PostgreSQL caps its postmaster's children.
	// Cancel requests do not count. Zero means DefaultMaxConnections.
	MaxConnections int

	// IdleInTransactionTimeout ends a session that waits this long for the
	// client while a transaction is open (status 'T' or 'E'), as PostgreSQL's
	// idle_in_transaction_session_timeout does. Zero disables it.
	IdleInTransactionTimeout time.Duration

	// CopyIdleTimeout ends a session whose COPY FROM STDIN waits this long
	// for the client's next message. A COPY holds the database's one writer
	// slot, so a client that starts one and goes quiet would otherwise stop
	// every writer. Zero disables it.
	CopyIdleTimeout time.Duration

	// PlainSocketIO reads and writes every connection's socket through
	// net.Conn's Read and Write, turning off the fast path of raw system
	// calls and the yield after a quick reply (sockio_linux.go), which a
	// differential test holds to net.Conn's bytes
	// (TestRawSocketIOMatchesNetConn). docs/fast-paths.md says what the
	// fast path buys.
	PlainSocketIO bool

	// Logger receives connection-level events: protocol violations, panics,
	// shutdown. Nil means slog.Default().
	Logger *slog.Logger
}

const (
	// DefaultMaxMessageSize is a quarter of PostgreSQL's own 1 GiB limit:
	// large enough for any realistic Bind or CopyData, small enough that one
	// client cannot make the server allocate a gigabyte on a whim.
	DefaultMaxMessageSize = 256 << 20

	// DefaultMaxConnections is PostgreSQL's max_connections default.
	DefaultMaxConnections = 100

	// DefaultAuthenticationTimeout is PostgreSQL's authentication_timeout
	// default.
	DefaultAuthenticationTimeout = time.Minute

	// DefaultMaxPreparedStatements is well above what drivers keep (pgx
	// caches 512 statements, pgjdbc 256) and bounds what a connection's
	// statements hold to tens of megabytes.
	DefaultMaxPreparedStatements = 5000
	// DefaultMaxPortals is well above the cursors an application keeps
	// open at once.
	DefaultMaxPortals = 1000
)

const (
	// maxAuthMessageSize caps messages before the client has proven who it
	// is: SASL tokens are tiny, and an unauthenticated peer should not be
	// able to make us allocate MaxMessageSize bytes.
	maxAuthMessageSize = 64 << 10

	// farewellTimeout bounds the write of a final FATAL message to a client
	// that may have stopped reading.
	farewellTimeout = 2 * time.Second
)

// withDefaults fills the zero fields of c.
func (c Config) withDefaults() Config {
	if c.MaxMessageSize <= 0 {
		c.MaxMessageSize = DefaultMaxMessageSize
	}
	if c.MaxConnections <= 0 {
		c.MaxConnections = DefaultMaxConnections
	}
	if c.MaxPreparedStatements <= 0 {
		c.MaxPreparedStatements = DefaultMaxPreparedStatements
	}
	if c.MaxPortals <= 0 {
		c.MaxPortals = DefaultMaxPortals
	}
	if c.AuthenticationTimeout <= 0 {
		c.AuthenticationTimeout = DefaultAuthenticationTimeout
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}
