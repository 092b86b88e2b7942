package wire

import (
	"context"
)

// The interfaces in this file are what wire needs from the SQL layer. They are
// declared here, by their user; sql.Session implements them and cmd/cdcdb
// connects the two.

// StartupInfo is what a client said in its StartupMessage, after auth.
type StartupInfo struct {
	User            string
	Database        string
	ApplicationName string
	// Options holds every other startup parameter (DateStyle, TimeZone,
	// client_encoding, search_path, options, ...), as sent.
	Options map[string]string
	// RemoteAddr is the client's address, for logs.
	RemoteAddr string
	// ProcessID is the process id the client is given in BackendKeyData,
	// which the session reports as its own (pg_backend_pid(),
	// pg_stat_activity.pid), so that a client's cancel and the SQL
	// functions name one backend by one number.
	ProcessID uint32
	// Backend lets the SQL layer act on this connection from another
	// session, as pg_cancel_backend and pg_terminate_backend do; nil when
	// the session has no connection.
	Backend Backend
}

// Backend is what wire lets the SQL layer do to a live connection.
type Backend interface {
	// Cancel cancels the statement the connection is running, if any,
	// exactly as a CancelRequest with the right key does.
	Cancel()
	// Terminate ends the connection with FATAL 57P01: at once when it is
	// idle, else as soon as its running statement, which is cancelled,
	// returns.
	Terminate()
}

// SessionFactory makes one Session per authenticated connection.
type SessionFactory interface {
	NewSession(ctx context.Context, info StartupInfo) (Session, error)
}

// FieldDescription describes one result column, as RowDescription sends it.
type FieldDescription struct {
	Name         string
	TableOID     uint32 // 0 when the column is not a table column
	ColumnNumber int16  // attnum within TableOID, or 0
	TypeOID      uint32
	TypeSize     int16 // pg_type.typlen: -1 for variable length
	TypeModifier int32 // atttypmod, -1 for none
}

// Session is one client's SQL session. wire calls it from a single goroutine
// per connection. Cancellation reaches a running statement through the
// context wire passes to Execute (CancelRequest cancels it).
type Session interface {
	// Parse parses query text into its statements. The simple query protocol
	// executes all of them in order; the extended protocol allows at most one
	// (an empty query yields none). paramTypes are the OIDs the client declared
	// in Parse (0 means "infer"); the simple protocol passes nil.
	// A syntax error anywhere fails the whole text.
	Parse(ctx context.Context, query string, paramTypes []uint32) ([]PreparedStatement, error)

	// ParameterStatus returns the runtime parameters PostgreSQL reports in
	// ParameterStatus messages after startup, by name.
	ParameterStatus() map[string]string

	// TxStatus is the ReadyForQuery status: 'I' idle, 'T' in a transaction
	// block, 'E' in a failed transaction block.
	TxStatus() byte

	// Close ends the session, rolling back any open transaction.
	Close()
}

// PreparedStatement is one parsed statement, as a Parse message or one
// statement of a simple query produces it.
type PreparedStatement interface {
	// ParamTypes reports the OID of each $n parameter, inferred where the
	// client left it 0.
	ParamTypes() []uint32
	// Fields describes the rows the statement returns, or nil if it returns
	// none (a plain INSERT, DDL, ...). COPY TO reports nil here.
	Fields() []FieldDescription
	// Bind supplies parameter values and result formats, making a portal.
	// params[i] is nil for NULL; paramFormats and resultFormats follow the
	// Bind message rules (none = all text, one = applies to all). wire has
	// already checked their counts and that every format is 0 or 1, and the
	// slices are the session's to keep.
	Bind(ctx context.Context, params [][]byte, paramFormats []int16, resultFormats []int16) (Portal, error)
	// Close releases what the statement holds. Portals already bound from it
	// stay usable until they are closed themselves, as in PostgreSQL (a JDBC
	// cursor portal outlives the unnamed statement it came from).
	Close()
}

// Parameter is a runtime parameter's name and value, as ParameterStatus
// carries them.
type Parameter struct {
	Name, Value string
}

// ParameterReporter is an optional extension of Session, for one whose
// reported parameters change (by SET, or when a transaction block that set
// them ends). As PostgreSQL 15 does, wire reports them just before each
// ReadyForQuery: ParameterChanges returns those whose value differs from
// what the client was last told, and counts them as told.
type ParameterReporter interface {
	Session
	ParameterChanges() []Parameter
}

// Notification is one NOTIFY for the client: the notifying session's
// process ID, the channel and the payload.
type Notification struct {
	PID     uint32
	Channel string
	Payload string
}

// NoticeFilter is an optional extension of Session: a session that knows
// which notices its client asked for (PostgreSQL's client_min_messages)
// says whether one of a severity ("NOTICE", "WARNING", "INFO") is sent;
// ResultWriter.Notice drops the others.
type NoticeFilter interface {
	Session
	SendsNotice(severity string) bool
}

// NotifyingSession is an optional extension of Session, for LISTEN and
// NOTIFY. The session queues the notifications its client is to receive
// (from any goroutine: another session's commit delivers them) and calls
// the wake function wire gave it; wire sends what Notifications returns
// as NotificationResponse messages before each ReadyForQuery and, when
// the client waits idle outside a transaction block, at once, as
// PostgreSQL does.
type NotifyingSession interface {
	Session
	// SetNotificationWaker gives the session the function to call,
	// from any goroutine, when it has queued notifications.
	SetNotificationWaker(wake func())
	// Notifications returns the queued notifications and forgets them.
	Notifications() []Notification
}

// SyncSession is an optional extension of Session. PostgreSQL runs the
// messages of an extended-protocol batch, up to Sync, as one implicit
// transaction (unless an explicit BEGIN is open), and likewise all the
// statements of one simple Query: it commits at the end, and any error in
// between aborts it -- including errors wire raises without calling the
// Session (an unknown portal, a malformed Bind), which abort an open explicit
// block as well. Only wire sees Sync and its own errors, so it reports both
// here: Sync is called once per batch, just before each ReadyForQuery, with
// aborted set when an error was sent to the client since the previous
// ReadyForQuery. An error it returns is sent before ReadyForQuery. A Session
// that does not implement SyncSession must end its implicit transactions by
// itself.
//
// One difference in timing: for a simple Query PostgreSQL commits before the
// last statement's CommandComplete, so a failed commit replaces it. A Session
// that wants that commits in the last statement's Execute (Parse told it which
// is last) and finds nothing left to do in Sync.
type SyncSession interface {
	Session
	Sync(ctx context.Context, aborted bool) error
}

// Portal is a bound statement ready to run.
type Portal interface {
	// Fields is the same as the statement's Fields.
	Fields() []FieldDescription
	// Execute runs the portal, or resumes it where an earlier Execute with a
	// row limit stopped. maxRows 0 means all rows. It returns the command tag
	// ("SELECT 3", "INSERT 0 1", ...) when the portal completed, or
	// suspended=true when it stopped at maxRows with rows left.
	Execute(ctx context.Context, maxRows int, out ResultWriter) (tag string, suspended bool, err error)
	// Close releases the portal; a suspended one is abandoned.
	Close()
}

// TransactionPortal is an optional extension of Portal, for a Session that
// ends portals with the transaction they were bound in. PostgreSQL drops
// every portal (a WITH HOLD cursor aside) when that transaction commits or
// rolls back, also in the middle of a batch, by an Execute of COMMIT: the
// name is free again and using it is 34000. wire asks before each use of a
// portal it holds and forgets one whose transaction ended (closing it);
// portals that do not implement this last until Close or, outside a
// transaction block, the next Sync.
type TransactionPortal interface {
	Portal
	TransactionEnded() bool
}

// SolePortal is an optional extension of Portal, for a Session that can
// make use of knowing that a statement is the only one of a simple Query:
// outside a transaction block, it is then the whole of its implicit
// transaction, which ends (with the Sync wire sends) right after it. wire
// calls Sole before Execute. (An extended-protocol batch may hold more
// Executes before its Sync, so wire never says so of one.)
type SolePortal interface {
	Portal
	Sole()
}

// ResultWriter is how a portal hands its output to the connection.
type ResultWriter interface {
	// WriteRow sends one DataRow. Each value is already encoded in the
	// format Bind asked for; nil is NULL. The slices may be reused after the
	// call returns.
	WriteRow(values [][]byte) error
	// Notice sends a NoticeResponse (err.Severity NOTICE or WARNING).
	Notice(n *NoticeInfo)
	// CopyIn starts COPY FROM STDIN: it sends CopyInResponse and returns a
	// reader that yields the client's CopyData bytes, reports io.EOF at
	// CopyDone and an error at CopyFail.
	CopyIn(binary bool, columns int) (CopyReader, error)
	// CopyOut starts COPY TO STDOUT: it sends CopyOutResponse; each Write on
	// the returned writer is one CopyData message; wire sends CopyDone when
	// Execute returns.
	CopyOut(binary bool, columns int) (CopyWriter, error)
}

// NoticeInfo is a NOTICE or WARNING sent during a statement.
type NoticeInfo struct {
	Severity string // "NOTICE", "WARNING", "INFO"
	Code     string
	Message  string
	Detail   string
	Hint     string
}

// CopyReader yields COPY FROM STDIN data: Next returns the payload of the next
// CopyData message (valid until the following call), io.EOF after CopyDone,
// or an error (57014 on CopyFail).
type CopyReader interface {
	Next() ([]byte, error)
}

// CopyWriter receives COPY TO STDOUT data, one CopyData message per Write.
type CopyWriter interface {
	Write(p []byte) (int, error)
}

// CursorSession is a Session whose SQL cursors (DECLARE ... CURSOR) are
// portals too, as in PostgreSQL: Describe and Execute of a portal name that
// no Bind made reach the cursor of that name (psycopg 3's server-side
// cursors describe theirs so). The portal reads rows in text format.
type CursorSession interface {
	CursorPortal(name string) (Portal, bool)
}
