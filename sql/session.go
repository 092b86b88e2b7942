package sql

import (
	"context"
	"math"
	"strings"
	"sync/atomic"
	"time"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/sql/settings"
	"cdcdb/types"
	"cdcdb/wire"
)

var sessionIDs atomic.Int32

// sessionID is a new session's pid: its connection's, or for a session
// without one (internal, in-process), one from a range wire's counter does
// not reach in practice, so that two live sessions never share a pid.
func sessionID(info wire.StartupInfo) int32 {
	if info.ProcessID != 0 && info.ProcessID <= math.MaxInt32 {
		return int32(info.ProcessID)
	}
	return 1<<30 | sessionIDs.Add(1)&(1<<30-1)
}

// Session is one client connection's SQL state.
type Session struct {
	engine   *Engine
	id       int32
	user     string
	settings map[string]string // by lower-case name
	loc      *time.Location
	block    *txBlock
	// madeTempSchema: this session has made its temporary schema (in a
	// transaction that may have rolled back since); see temp.go.
	madeTempSchema bool
	// onCommit lists the committed temporary tables with an ON COMMIT
	// action, some perhaps dropped since (see applyOnCommit).
	onCommit []onCommitAction
	// nextStart is the start of the implicit transaction the statements
	// before the next Sync run in, once something asked for it before
	// the block exists (planning folds 'now' when it parses a statement);
	// zero: not asked yet. See txStart.
	nextStart time.Time
	// seqValues holds the last value this session drew from (or setval
	// set on) each sequence, by OID, for currval; lastSeq is the one
	// nextval drew from last, for lastval.
	seqValues map[uint32]int64
	lastSeq   uint32
	// txEnds counts the transactions that have ended. A portal keeps the
	// count of its Bind and is gone once it moved on, as PostgreSQL drops
	// portals with their transaction (see wire.TransactionPortal).
	txEnds uint64
	// suspended are the portals a row limit left holding a running query
	// (an iterator, maybe a snapshot of their own): released when their
	// transaction aborts or ends, not when the client next looks at them.
	suspended map[*portal]struct{}
	// plans are the queries this session planned lately (plancache.go).
	plans planCache
	// encoding is where result rows are encoded (resultSink.row).
	encoding rowEncoding
	// timeout is statement_timeout, parsed from timeoutText.
	timeoutText string
	timeout     time.Duration
	// act is this session's row of pg_stat_activity (activity.go), nil
	// until registered.
	act *sessionActivity
	// reported holds the values of the reported parameters the client
	// was last told, by lower-case name (ParameterChanges).
	reported map[string]string
	// fastPaths counts what the session's statements took fast paths for
	// (fastpaths.go), so that a test can tell one ran.
	fastPaths fastPathCounts
	// notify is the session's LISTEN/NOTIFY state (notify.go).
	notify sessionNotify
}

// txBlock is a transaction block: explicit (BEGIN ... COMMIT) or the
// implicit one PostgreSQL wraps around the statements of one simple Query or
// of one extended-protocol batch (up to Sync).
type txBlock struct {
	implicit bool
	// multiStatement: an implicit block of a simple Query of several
	// statements, which PostgreSQL treats as a transaction block (SET
	// LOCAL lasts to its end).
	multiStatement bool
	tx             *txn // the block's write transaction, opened by its first write
	failed         bool
	start          time.Time
	// onCommit lists the ON COMMIT actions of the temporary tables made
	// in the block, which become the session's when it commits.
	onCommit []onCommitAction
	// modes are the block's isolation level and access mode (txmodes.go);
	// queried is set once a statement that reads or writes the database
	// ran in it, after which they may not loosen.
	modes   txModes
	queried bool
	// snap is the snapshot a REPEATABLE READ or SERIALIZABLE block reads
	// until it writes, taken by its first read; the block keeps it to its
	// end, for the portals reading it (txmodes.go).
	snap *txn
	// settings are the run-time parameters the block changed
	// (settings_scope.go).
	settings settings.Changes
	// savepoints are the block's savepoints, oldest first (savepoint.go).
	savepoints []*savepoint
	// notify is what the block did to LISTEN/NOTIFY, for its commit
	// (notify.go).
	notify blockNotify
	// fkTiming is what SET CONSTRAINTS said (foreignkey_deferred.go).
	fkTiming fkTiming
}

func newSession(e *Engine, info wire.StartupInfo) (*Session, error) {
	s := &Session{engine: e, id: sessionID(info), user: info.User, settings: map[string]string{}, loc: time.UTC}
	if s.user == "" {
		// An internal session acts as the bootstrap superuser.
		s.user = catalog.BootstrapRoleName
	}
	for k, d := range settings.All() {
		s.settings[k] = d.Default
	}
	for k, v := range e.settingDefaults {
		s.putSetting(k, v)
	}
	s.settings["session_authorization"] = s.user
	s.settings["application_name"] = info.ApplicationName
	s.settings["cdcdb.dialect"] = e.opts.Dialect.String()
	// Startup options are applied like SET; a bad one fails the connection
	// as it does in PostgreSQL.
	for k, v := range info.Options {
		lk := strings.ToLower(k)
		if lk == "user" || lk == "database" || lk == "replication" || lk == "options" {
			continue
		}
		if _, ok := settings.Lookup(lk); !ok {
			continue
		}
		if err := s.setSetting(lk, v, false); err != nil {
			return nil, err
		}
	}
	registerActivity(s, info) // pg_stat_activity (activity.go)
	return s, nil
}

// setDefaults validates the server-wide parameter defaults and keeps them
// in canonical form, as a session's SET would store them. Parameters that
// are views of a session's state (the transaction_* ones) or whose
// context keeps them from SET cannot have one.
func (e *Engine) setDefaults(values map[string]string) error {
	if len(values) == 0 {
		return nil
	}
	e.settingDefaults = map[string]string{}
	for name, value := range values {
		ln := strings.ToLower(name)
		d, ok := settings.Lookup(ln)
		if !ok {
			return &SettingDefaultError{Name: name, Err: settings.Unrecognized(name)}
		}
		if !d.Context.Settable() || d.Transaction || ln == "session_authorization" || ln == "cdcdb.dialect" {
			return &SettingDefaultError{Name: name, Err: pgerror.New(pgerror.CantChangeRuntimeParam, "parameter \"%s\" cannot have a server-wide default", d.Name)}
		}
		v, err := d.Check(value)
		if err != nil {
			return &SettingDefaultError{Name: name, Err: err}
		}
		e.settingDefaults[ln] = v
	}
	return nil
}

// SettingDefaultError is NewEngine's error for a server-wide parameter
// default (Options.Settings) it cannot take.
type SettingDefaultError struct {
	Name string
	Err  error
}

func (e *SettingDefaultError) Error() string { return e.Name + ": " + e.Err.Error() }
func (e *SettingDefaultError) Unwrap() error { return e.Err }

// ParameterStatus implements wire.Session: what startup reports.
func (s *Session) ParameterStatus() map[string]string {
	out := map[string]string{}
	s.reported = map[string]string{}
	for k, d := range settings.All() {
		if d.Report {
			out[d.Name] = s.settings[k]
			s.reported[k] = s.settings[k]
		}
	}
	return out
}

// TxStatus implements wire.Session.
func (s *Session) TxStatus() byte {
	switch {
	case s.block == nil || s.block.implicit:
		return 'I'
	case s.block.failed:
		return 'E'
	}
	return 'T'
}

// Close implements wire.Session.
func (s *Session) Close() {
	defer unregisterActivity(s)
	defer s.endNotify()
	defer s.closeCursors(true)
	s.endBlock(false)
	s.endTempSchema()
}

func (s *Session) location() *time.Location { return s.loc }

// searchPath lists the schemas unqualified names are looked up in: the
// session's temporary schema, if it made one, and pg_catalog first (as
// PostgreSQL searches them implicitly), then search_path with "$user"
// resolved.
func (s *Session) searchPath() []string {
	out := []string{"pg_catalog"}
	if s.madeTempSchema {
		out = []string{s.tempSchemaName(), "pg_catalog"}
	}
	for _, p := range settings.SplitSearchPath(s.settings["search_path"]) {
		if p == `"$user"` {
			// "$user" names the user's own schema; never a system one
			// (the default user cdcdb shares its name with cdcdb's views).
			if catalog.IsSystemSchemaName(s.user) {
				continue
			}
			p = s.user
		}
		if p != "pg_catalog" {
			out = append(out, p)
		}
	}
	return out
}

func (s *Session) dialect() parse.Dialect {
	d, _ := parse.DialectNamed(s.settings["cdcdb.dialect"]) // the setting takes only dialects' names
	return d
}

// setSetting changes a run-time parameter, for the session or (local) until
// the current transaction block ends (settings_scope.go).
func (s *Session) setSetting(name, value string, local bool) error {
	ln := strings.ToLower(name)
	d, ok := settings.Lookup(ln)
	if !ok {
		if strings.Contains(ln, ".") {
			// Custom (placeholder) parameters, as PostgreSQL allows.
			s.assignSetting(ln, value, local)
			return nil
		}
		return settings.Unrecognized(name)
	}
	if err := s.checkSettingPrivilege(d); err != nil {
		return err
	}
	value, err := d.Check(value)
	if err != nil {
		return err
	}
	if d.Transaction {
		return transactionSettings[ln].assign(s, value)
	}
	s.assignSetting(ln, value, local)
	return nil
}

// showSetting returns a parameter's current value.
func (s *Session) showSetting(name string) (string, error) {
	ln := strings.ToLower(name)
	if d, ok := settings.Lookup(ln); ok && d.Transaction {
		return transactionSettings[ln].show(s), nil
	}
	if v, ok := s.settings[ln]; ok {
		return v, nil
	}
	return "", settings.Unrecognized(name)
}

// Parse implements wire.Session.
func (s *Session) Parse(ctx context.Context, query string, paramTypes []uint32) ([]wire.PreparedStatement, error) {
	key := newPlanKey(query, paramTypes)
	env, cacheable := s.planCacheEnv()
	if cacheable {
		if ps, ok := s.cachedPlan(key, env); ok {
			return []wire.PreparedStatement{ps}, nil
		}
	}
	// A text with numbers and no parameters may be served by the generic
	// plan of texts that differ from it only in their numbers.
	var numbers planKey
	var consts []parse.NumberConstant
	hasNumbers := false
	if cacheable && len(paramTypes) == 0 && !s.engine.opts.FastPathsOff.NumberedPlans {
		var ps *preparedStatement
		if ps, numbers, consts, hasNumbers = s.numberedPlan(query, env); ps != nil {
			s.fastPaths.numberedPlans++
			return []wire.PreparedStatement{ps}, nil
		}
	}
	text, err := s.engine.accountText(query)
	if err != nil {
		s.abortBlockOnError()
		return nil, err
	}
	stmts, err := s.engine.parse(query, s.dialect())
	if err != nil {
		text.close()
		s.abortBlockOnError()
		return nil, err
	}
	declared := make([]types.T, len(paramTypes))
	for i, o := range paramTypes {
		if o == 0 {
			declared[i] = eval.UnknownT()
		} else {
			declared[i] = types.Of(types.OID(o))
		}
	}
	out := make([]wire.PreparedStatement, 0, len(stmts))
	made := make([]*preparedStatement, 0, len(stmts))
	for _, st := range stmts {
		ps := &preparedStatement{s: s, src: st, declared: declared}
		out, made = append(out, ps), append(made, ps)
	}
	if err := s.engine.accountStatements(made, text); err != nil {
		s.abortBlockOnError()
		return nil, err
	}
	// A single statement is planned now, so the client learns its
	// parameter and result types (and any error) at Parse. The statements
	// of a multi-statement query are planned one by one as they run, since
	// each may depend on what the previous ones created.
	if len(out) == 1 {
		ps := out[0].(*preparedStatement)
		if err := ps.plan(); err != nil {
			s.abortBlockOnError()
			return nil, err
		}
		if !hasNumbers || s.noteNumberedText(numbers, consts, ps) {
			s.cachePlan(key, ps)
		}
	}
	return out, nil
}

// planCacheEnv is the environment cached plans must have been made in to
// serve now; cacheable is false when none may (a failed block, where
// planning a query fails with 25P02).
func (s *Session) planCacheEnv() (env planEnv, cacheable bool) {
	if s.block != nil && s.block.failed {
		return planEnv{}, false
	}
	cat := s.planningCatalog()
	return s.planEnv(cat.Version, cat.Generation()), true
}

// cachedPlan returns a prepared statement for key from the plan cache, if
// the plan there was made in env.
func (s *Session) cachedPlan(key planKey, env planEnv) (*preparedStatement, bool) {
	e, ok := s.plans.get(key, env)
	if !ok {
		return nil, false
	}
	return &preparedStatement{s: s, src: e.src, c: e.c, declared: e.declared}, true
}

// cachePlan keeps a freshly planned query for the next Parse of its text.
// Only queries are kept: they are most of what clients repeat, and their
// plans are row sources that carry no state between executions (each
// execution opens its own iterators), so one plan serves any number of
// prepared statements and portals. A plan that read the clock is not kept
// either (the cache refuses it; see planCache).
func (s *Session) cachePlan(key planKey, ps *preparedStatement) {
	if _, isQuery := ps.src.stmt.(*ast.Select); !isQuery || ps.c == nil || ps.c.query == nil {
		return
	}
	s.plans.put(key, s.planEnv(ps.c.catVersion, ps.c.catGen), ps.src, ps.declared, ps.c)
}

// abortBlockOnError aborts an explicit transaction block after an error
// outside Execute (parse and planning errors), as PostgreSQL does.
func (s *Session) abortBlockOnError() {
	if s.block != nil && !s.block.implicit {
		s.failBlock()
	}
}

// Sync implements wire.SyncSession: it ends the implicit transaction of a
// simple Query or an extended-protocol batch, committing it unless an error
// was reported in between. In an explicit block such an error aborts the
// block, as every error does in PostgreSQL: the session's own errors have
// done so already, but not those raised without it (a Bind naming no
// statement, a malformed Bind) or before a statement ran (a Bind whose
// parameter text does not parse).
func (s *Session) Sync(ctx context.Context, aborted bool) error {
	if s.block == nil {
		s.nextStart = time.Time{} // the implicit transaction had nothing to do
		return nil
	}
	if !s.block.implicit {
		if aborted {
			s.failBlock()
		}
		s.block.parkDetached()
		return nil
	}
	return s.endBlock(!aborted)
}

// planningCatalog is the catalog new statements are planned against: the
// open block's own (with its uncommitted DDL) or the latest committed one.
func (s *Session) planningCatalog() *catalog.Snapshot {
	if s.block != nil && s.block.tx != nil {
		return s.block.tx.catalog()
	}
	return s.engine.catalogSnapshot()
}

// endBlock finishes the current transaction block, committing its write
// transaction when commit is set and the block did not fail.
func (s *Session) endBlock(commit bool) error {
	b := s.block
	if b == nil {
		return nil
	}
	s.block = nil
	s.closeCursors(false) // cursors WITHOUT HOLD end with their block
	s.transactionEnded()
	b.releaseSnapshot()
	if b.tx == nil {
		s.endSettings(b, commit && !b.failed)
		s.endCursors(false, b, commit && !b.failed)
		if commit && !b.failed {
			s.commitNotify(b)
		}
		return nil
	}
	if commit && !b.failed {
		kept, err := s.applyOnCommit(b)
		if err != nil {
			b.tx.rollback()
			s.endSettings(b, false)
			s.endCursors(false, b, false)
			return err
		}
		if err := b.tx.commit(); err != nil {
			s.endSettings(b, false)
			s.endCursors(false, b, false)
			return err
		}
		s.endSettings(b, true)
		s.endCursors(false, b, true)
		s.commitNotify(b)
		s.onCommit = kept
		return nil
	}
	b.tx.rollback()
	s.endSettings(b, false)
	s.endCursors(false, b, false)
	return nil
}

// txStart is the start of the transaction the session's statements run in
// now: the open block's, or else the one the implicit transaction up to the
// next Sync will be given. now(), and 'now' or 'today' read as a date or
// time, are that moment, as in PostgreSQL, where a Parse starts the
// implicit transaction that the Execute after it runs in.
func (s *Session) txStart() time.Time {
	if s.block != nil {
		return s.block.start
	}
	if s.nextStart.IsZero() {
		s.nextStart = time.Now()
	}
	return s.nextStart
}

// textInput is how the session reads a value's text: in its time zone,
// with 'now' the start of the transaction it is in.
func (s *Session) textInput() types.Input { return types.Input{Loc: s.loc, Now: s.txStart()} }

// failBlock records an error inside a block: PostgreSQL aborts the block,
// so its writes are rolled back now and later statements get 25P02.
func (s *Session) failBlock() {
	b := s.block
	if b == nil {
		return
	}
	if !b.implicit && s.abortToSavepoint() {
		return
	}
	if b.tx != nil {
		b.tx.rollback()
		b.tx = nil
	}
	// PostgreSQL undoes the block's parameter changes when it aborts, not
	// at the ROLLBACK that ends it.
	s.endSettings(b, false)
	if b.implicit {
		s.block = nil
		s.endCursors(false, b, false)
		s.transactionEnded()
		b.releaseSnapshot()
		return
	}
	b.failed = true
	// The block's portals stay until ROLLBACK but need nothing they hold
	// any more: a released one is not running, so executing it again meets
	// the aborted block (25P02) instead of serving the rows it had read.
	s.releaseSuspended()
	b.releaseSnapshot()
}

// transactionEnded ends the portals of the transaction that just ended.
func (s *Session) transactionEnded() {
	s.txEnds++
	s.nextStart = time.Time{}
	s.releaseSuspended()
}

// releaseSuspended closes the queries of the portals a row limit suspended.
func (s *Session) releaseSuspended() {
	for p := range s.suspended {
		p.Close()
	}
}

var errAborted = pgerror.New(pgerror.InFailedSQLTransaction, "current transaction is aborted, commands ignored until end of transaction block")
