// Package wire speaks the PostgreSQL frontend/backend protocol, version 3.0,
// on behalf of a SQL Session it knows only through the interfaces in
// session.go.
//
// # What it owns
//
// Everything between the socket and a Session call: the startup packets
// (SSLRequest with the TLS upgrade, GSSENCRequest refused, CancelRequest,
// protocol-version negotiation), authentication (trust, or SCRAM-SHA-256
// against each role's verifiers or one configured password), who may come
// in at all (admission.go: connection rules in pg_hba.conf's format parsed
// by hba.go, session slots with some reserved for superusers, the
// authentication timeout, the growing delay after failed logins of
// logindelay.go), the simple and extended query protocols
// (named and unnamed statements and portals, row-limited Execute,
// skip-until-Sync after an error, pipelining), COPY IN and OUT framing,
// NoticeResponse and ParameterStatus, turning errors into ErrorResponse with
// all of PostgreSQL's fields, and the connection-level limits: maximum
// message size, maximum connections, idle-in-transaction timeout, graceful
// shutdown. It is the only package that imports pgproto3.
//
// # What it must not do
//
// It never looks inside SQL: no parsing, no AST, no transaction semantics
// (BEGIN/COMMIT, the implicit transaction of a multi-statement Query) and no
// value encoding -- rows arrive already encoded in the format the client
// asked for. It reads the transaction status only to fill ReadyForQuery, to
// arm the idle-in-transaction timer and to drop portals when no transaction
// is open. It imports nothing of cdcdb but pgerror.
//
// # How data flows
//
// Server.Serve accepts a socket and gives it a conn, whose one goroutine owns
// the connection: handshake (startup.go, auth.go, scram.go, roles.go, which
// asks a RoleDirectory who may log in and with which SCRAM verifiers) builds a
// StartupInfo and asks the SessionFactory for a Session, then serve (conn.go)
// reads one message at a time through pgproto3.Backend and dispatches it to
// simple.go or extended.go, which call Session.Parse, PreparedStatement.Bind
// and Portal.Execute. Execute writes rows, notices and COPY data to a
// ResultWriter (result.go, copy.go), which queues protocol messages in the
// connection's output buffer (transport.go). Just before each ReadyForQuery a
// Session that implements SyncSession hears that PostgreSQL's implicit
// transaction ends there, and whether an error aborted it. The output buffer
// reaches the socket when it fills, at Sync or Flush, and before any read
// that would block, so a pipelining client gets many replies per write and a
// waiting one is never kept waiting.
//
// Other goroutines reach into a live connection, always under conn.mu: a
// CancelRequest (another connection's handshake) cancels the context of the
// Session call in progress; Shutdown wakes connections idling between
// statements with a past read deadline so they can say FATAL 57P01 and go;
// another session does either through the connection's Backend
// (pg_cancel_backend, pg_terminate_backend), which StartupInfo hands to the
// Session with the connection's process id; and a NotifyingSession's waker
// (another session's commit of a NOTIFY) wakes a connection idling outside a
// transaction block the same way, so it sends the NotificationResponses and
// waits on (a passed deadline is not a failed socket: pgproto3 keeps what it
// had read of a message).
//
// Every Session call is made from the connection's goroutine, which recovers
// from a panic in any of them: the client gets FATAL XX000, the log gets the
// stack, the connection closes and the server carries on.
//
// On Linux a connection reads and writes its socket with raw system calls
// (sockio_linux.go), a fast path for short queries that yields the
// processor before the read after a quick reply; Config.PlainSocketIO
// turns it off for net.Conn's Read and Write, and
// TestRawSocketIOMatchesNetConn holds the two to the same bytes on random
// conversations (docs/fast-paths.md).
package wire
