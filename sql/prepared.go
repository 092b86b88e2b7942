package sql

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/sql/settings"
	"cdcdb/storage"
	"cdcdb/types"
	"cdcdb/wire"
)

// parsedStmt is one statement of a query text.
type parsedStmt struct {
	stmt ast.Statement
	text string
	// multi marks a statement of a text holding several, which a simple
	// Query runs as one implicit transaction block.
	multi bool
}

// parseCache keeps the syntax trees of recently parsed texts: drivers send
// the same statements again and again, and trees are never modified.
type parseCache struct {
	mu      sync.Mutex
	entries map[parseKey][]parsedStmt
}

// parseKey is what a text's syntax trees depend on.
type parseKey struct {
	dialect parse.Dialect
	text    string
}

const parseCacheSize = 1024

func (e *Engine) parse(query string, dialect parse.Dialect) ([]parsedStmt, error) {
	key := parseKey{dialect, query}
	e.parsed.mu.Lock()
	if p, ok := e.parsed.entries[key]; ok {
		e.parsed.mu.Unlock()
		return p, nil
	}
	e.parsed.mu.Unlock()
	stmts, err := parse.ParseWithOptions(query, parse.Options{Dialect: dialect})
	if err != nil {
		return nil, err
	}
	out := make([]parsedStmt, len(stmts))
	for i, st := range stmts {
		out[i] = parsedStmt{stmt: st, text: query, multi: len(stmts) > 1}
	}
	if len(query) < 64<<10 {
		e.parsed.mu.Lock()
		if e.parsed.entries == nil || len(e.parsed.entries) >= parseCacheSize {
			e.parsed.entries = map[parseKey][]parsedStmt{}
		}
		e.parsed.entries[key] = out
		e.parsed.mu.Unlock()
	}
	return out, nil
}

// access says what a statement needs from storage.
type access int

const (
	accessNone  access = iota // session state only (SET, SHOW, BEGIN, ...)
	accessRead                // a consistent snapshot
	accessWrite               // the single writer
)

// compiled is a planned statement, valid for one catalog version.
type compiled struct {
	stmt       ast.Statement
	text       string
	fields     []outCol
	params     []types.T
	catVersion uint64
	catGen     uint64 // the catalog's Generation: Version is reused
	access     access
	// query streams rows (SELECT); run runs everything else to completion
	// (statement.go).
	query plan
	run   statement
	// required are the privileges the statement needs, checked each time
	// it executes (roles.go).
	required []privilegeNeed
	// explainPlan is the plan EXPLAIN shows below a statement run by run
	// (the row source of an UPDATE or DELETE).
	explainPlan plan
	// notices raised while planning, sent on execution.
	notices []string
	// readsClock: planning read a literal as the current time (see
	// planCtx.readsClock), so the plan cache does not keep this plan.
	readsClock bool
	// readOnlyCommand names the statement for a read-only transaction's
	// refusal, "" if one may run it (txmodes.go). setsParameters marks SET
	// and RESET, which run in a transaction block (an implicit one outside
	// BEGIN) so that the block can undo them (settings_scope.go).
	readOnlyCommand string
	setsParameters  bool
	// concurrent: a write that may run in a detached transaction, beside
	// other writers (concurrent.go).
	concurrent bool
	// notifies marks LISTEN, UNLISTEN and NOTIFY, which also run in a
	// block, and take effect when it commits (notify.go).
	notifies bool
	// commitsOnItsOwn marks statements that run their own transactions
	// (CREATE SOURCE, DROP SOURCE): they get the implicit block too, so
	// that they can tell whether they are in a transaction block.
	commitsOnItsOwn bool
	// wireParams and wireFields are ParamTypes' and Fields' answers.
	wireParams     []uint32
	wireFields     []wire.FieldDescription
	haveWireFields bool
}

// preparedStatement implements wire.PreparedStatement.
type preparedStatement struct {
	s        *Session
	src      parsedStmt
	c        *compiled // nil until planned
	declared []types.T
	// constants, for a text run by the generic plan of texts that differ
	// only in their numbers (plancache_numbers.go), are the values of the
	// plan's parameters that stand for the text's numbers: the last ones,
	// after the parameters the client sees.
	constants []types.Value
}

// clientParams is how many of the plan's parameters the client supplies.
func (p *preparedStatement) clientParams() int { return len(p.c.params) - len(p.constants) }

// plan plans the statement if it is not planned yet.
func (p *preparedStatement) plan() error {
	if p.c != nil {
		return nil
	}
	if _, isTx := p.src.stmt.(*ast.Transaction); !isTx && p.s.block != nil && p.s.block.failed {
		return errAborted
	}
	c, err := p.s.compile(p.src.stmt, p.src.text, p.declared, p.s.planningCatalog())
	if err != nil {
		return err
	}
	p.c = c
	return nil
}

// ParamTypes and Fields are asked for at every Bind and Describe; their
// answers are made once per plan and shared (wire only reads them).

func (p *preparedStatement) ParamTypes() []uint32 {
	if p.plan() != nil {
		return nil
	}
	c := p.c
	if c.wireParams == nil {
		c.wireParams = make([]uint32, len(c.params))
		for i, t := range c.params {
			c.wireParams[i] = uint32(t.OID)
			if t.OID == types.Unknown {
				c.wireParams[i] = uint32(types.Text)
			}
		}
	}
	return c.wireParams[:p.clientParams()]
}

func (p *preparedStatement) Fields() []wire.FieldDescription {
	if p.plan() != nil {
		return nil
	}
	c := p.c
	if !c.haveWireFields {
		c.wireFields, c.haveWireFields = fieldDescriptions(c.fields), true
	}
	return c.wireFields
}

func fieldDescriptions(cols []outCol) []wire.FieldDescription {
	if cols == nil {
		return nil
	}
	out := make([]wire.FieldDescription, len(cols))
	for i, c := range cols {
		size := int16(-1)
		if info, ok := types.Lookup(c.t.OID); ok {
			size = info.Len
		}
		out[i] = wire.FieldDescription{Name: c.name, TableOID: c.tableOID, ColumnNumber: c.attnum,
			TypeOID: uint32(c.t.OID), TypeSize: size, TypeModifier: c.t.Typmod}
	}
	return out
}

func (p *preparedStatement) Close() {}

func (p *preparedStatement) Bind(ctx context.Context, params [][]byte, paramFormats []int16, resultFormats []int16) (wire.Portal, error) {
	if err := p.plan(); err != nil {
		p.s.abortBlockOnError()
		return nil, err
	}
	if b := p.s.block; b != nil && b.failed && !isTransactionExit(p.src.stmt) {
		// PostgreSQL refuses the Bind itself in an aborted block.
		return nil, errAborted
	}
	c := p.c
	if n := p.clientParams(); len(params) != n {
		return nil, pgerror.New(pgerror.ProtocolViolation, "bind message supplies %d parameters, but prepared statement \"\" requires %d", len(params), n)
	}
	po := &portal{ps: p, txEnds: p.s.txEnds}
	vals := sliceIn(po.paramSpace[:], len(c.params))
	copy(vals[len(params):], p.constants)
	for i, raw := range params {
		if raw == nil {
			continue
		}
		t := c.params[i]
		if t.OID == types.Unknown {
			t = eval.TextT()
		}
		format := int16(0)
		switch {
		case len(paramFormats) == 1:
			format = paramFormats[0]
		case i < len(paramFormats):
			format = paramFormats[i]
		}
		var err error
		if format == 1 {
			vals[i], err = types.ParseBinary(t, raw)
		} else {
			vals[i], err = p.s.parseParamText(t, string(raw))
		}
		if err != nil {
			return nil, err
		}
	}
	formats := sliceIn(po.formatSpace[:], len(c.fields))
	for i := range formats {
		switch {
		case len(resultFormats) == 1:
			formats[i] = resultFormats[0]
		case i < len(resultFormats):
			formats[i] = resultFormats[i]
		}
	}
	po.params, po.formats = vals, formats
	return po, nil
}

// sliceIn returns a slice of n elements: the start of space (which the
// caller has fresh, so zeroed) when they fit, else a new one.
func sliceIn[T any](space []T, n int) []T {
	if n > len(space) {
		return make([]T, n)
	}
	return space[:n]
}

// portal implements wire.Portal.
type portal struct {
	ps      *preparedStatement
	params  []types.Value
	formats []int16

	// A query suspended by a row limit keeps its iterator and transaction.
	running *runningQuery
	done    bool
	// txEnds is the session's count of ended transactions at Bind: the
	// portal belongs to the transaction open then (or begun next).
	txEnds uint64
	// sole is set by wire for a simple Query's only statement
	// (wire.SolePortal).
	sole bool
	// Short parameter and format lists are kept here, so that Bind makes
	// one allocation for them and the portal.
	paramSpace  [4]types.Value
	formatSpace [8]int16
}

// Sole implements wire.SolePortal.
func (p *portal) Sole() { p.sole = true }

type runningQuery struct {
	x  *execCtx
	it rowIter
	// stored, when set, is it yielding rows in their stored encoding
	// (scan_stored.go), which the portal reads instead.
	stored storedRowIter
	tx     *txn
	owned  bool // the transaction is this query's own, not a block's
	rows   int
	cols   []outCol
	// suspended: the portal is in its session's suspended set.
	suspended bool
	// Where x and the first Execute's sink are kept (see execute).
	exec execCtx
	sink resultSink
}

func (p *portal) Fields() []wire.FieldDescription { return p.ps.Fields() }

// TransactionEnded implements wire.TransactionPortal.
func (p *portal) TransactionEnded() bool { return p.txEnds != p.ps.s.txEnds }

func (p *portal) Close() {
	if p.running != nil {
		p.running.it.close()
		if p.running.owned {
			p.running.tx.rollback()
		}
		p.stopped()
	}
}

// abandon closes the portal after a panic in it, which may have left its
// query unable to close cleanly: each step of closing it runs even if one
// before it panics again, and the portal yields nothing more.
func (p *portal) abandon() {
	p.done = true
	r := p.running
	if r == nil {
		return
	}
	s := p.ps.s
	closing := func(step string, fn func()) {
		defer func() {
			if x := recover(); x != nil {
				s.engine.log.Error("panic closing a failed statement", "step", step, "panic", x, "stmt", p.ps.src.text)
			}
		}()
		fn()
	}
	closing("iterator", func() { r.it.close() })
	if r.owned {
		closing("transaction", func() { r.tx.rollback() })
	}
	p.stopped()
}

// stopped forgets the running query, finished or abandoned.
func (p *portal) stopped() {
	if p.running.suspended {
		delete(p.ps.s.suspended, p)
	}
	p.running = nil
}

func (p *portal) Execute(ctx context.Context, maxRows int, out wire.ResultWriter) (tag string, suspended bool, err error) {
	s := p.ps.s
	s.beginStatement(p.ps.src.text) // pg_stat_activity's state and query
	defer s.endStatement()
	// Damage storage found in the file is reported naming its table.
	defer func() {
		if err != nil {
			err = corruptionError(s.engine.catalogSnapshot(), err)
		}
	}()
	// A panic fails the statement, not the connection: whether it started
	// here or in a suspended portal's later Execute.
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok && errors.Is(e, storage.ErrCorrupt) {
				// Storage reads that find the file corrupt panic (they
				// have no error to return): say so as what it is.
				err = e
			} else {
				s.engine.log.Error("panic in statement", "panic", r, "stmt", p.ps.src.text, "stack", string(debug.Stack()))
				err = pgerror.New(pgerror.InternalError, "internal error: %v", r)
			}
			p.abandon()
			s.failBlock()
		}
	}()
	if p.running != nil {
		// A suspended portal runs on under this Execute's context: the
		// one it started with ended with the Execute that made it (and
		// statement_timeout, as in PostgreSQL, times each Execute).
		ctx, cancel := s.statementContext(ctx)
		defer cancel()
		p.running.x.ctx = ctx
		return p.resume(maxRows, out)
	}
	if p.done {
		// Re-executing a completed portal yields nothing more, as in
		// PostgreSQL.
		return "SELECT 0", false, nil
	}
	if s.block == nil && (p.ps.c.access != accessNone || p.ps.c.setsParameters || p.ps.c.notifies || p.ps.c.commitsOnItsOwn) {
		// Until Sync, statements share one implicit transaction.
		s.block = &txBlock{implicit: true, multiStatement: p.ps.src.multi, start: s.txStart(), modes: s.defaultTxModes()}
	}
	tag, suspended, err = p.execute(ctx, maxRows, out)
	if err != nil {
		s.failBlock()
		return "", false, err
	}
	return tag, suspended, nil
}

func (p *portal) execute(ctx context.Context, maxRows int, out wire.ResultWriter) (string, bool, error) {
	s := p.ps.s
	c := p.ps.c
	if s.block != nil && s.block.failed && !isTransactionExit(c.stmt) {
		return "", false, errAborted
	}
	ctx, cancel := s.statementContext(ctx)
	defer cancel()
	now := time.Now().UTC().Truncate(time.Microsecond)
	// The execution context and the sink live in the running query they
	// serve, if the statement turns out to be one: a point query pays one
	// allocation for the three.
	r := &runningQuery{}
	x, sink := &r.exec, &r.sink
	*x = execCtx{ctx: ctx, sess: s, params: p.params, now: s.txStart().UTC().Truncate(time.Microsecond), stmtNow: now}
	*sink = resultSink{out: out, s: s, formats: p.formats, cols: c.fields}
	x.out = sink
	for _, n := range c.notices {
		out.Notice(&wire.NoticeInfo{Severity: "NOTICE", Code: pgerror.SuccessfulCompletion, Message: n})
	}
	if c.access == accessNone {
		// EXPLAIN checks the privileges of what it plans, as PostgreSQL's.
		if err := s.checkRequired(s.engine.catalogSnapshot(), c.required); err != nil {
			return "", false, err
		}
		tag, err := c.run.exec(x, sink)
		p.done = true
		return tag, false, err
	}
	if s.block.modes.readOnly {
		if err := c.readOnlyError(); err != nil {
			return "", false, err
		}
	}
	// The implicit transaction a simple Query's only statement begins is
	// that statement's alone.
	sole := p.sole && s.block.implicit && s.block.tx == nil
	tx, owned, err := s.txFor(ctx, c)
	if err != nil {
		return "", false, err
	}
	if sole && tx.writer {
		tx.sole = true
	}
	if owned {
		// A panic below must not leak the storage transaction: an open
		// read transaction blocks bbolt from growing the file, so every
		// later write would hang. Execute reports the panic itself.
		defer func() {
			if r := recover(); r != nil {
				if p.running == nil || p.running.tx != tx {
					tx.rollback()
				}
				panic(r)
			}
		}()
	}
	finish := func(err error) error {
		if !owned {
			return err
		}
		if err != nil {
			tx.rollback()
			return err
		}
		if tx.writer {
			return tx.commit()
		}
		tx.rollback()
		return nil
	}
	x.tx = tx
	if cat := tx.catalog(); cat.Version != c.catVersion || cat.Generation() != c.catGen {
		nc, err := s.compile(c.stmt, c.text, p.ps.declared, cat)
		if err != nil {
			return "", false, finish(err)
		}
		if !sameFields(nc.fields, c.fields) {
			return "", false, finish(pgerror.New(pgerror.FeatureNotSupported, "cached plan must not change result type"))
		}
		c = nc
		p.ps.c = nc
	}
	if err := s.checkRequired(tx.catalog(), c.required); err != nil {
		return "", false, finish(err)
	}
	if c.query == nil {
		tag, err := s.execConcurrent(x, c, sink)
		p.done = true
		if err == nil && sole && tx.writer {
			// PostgreSQL commits a simple Query's only statement before
			// its command tag, so a deferred foreign key that fails
			// then is reported instead of the tag (foreignkey_deferred.go).
			err = tx.runDeferredFKChecks(ctx, nil)
		}
		return tag, false, finish(err)
	}
	it, err := c.query.open(x, nil)
	if err != nil {
		return "", false, finish(err)
	}
	r.x, r.it, r.tx, r.owned, r.cols = x, it, tx, owned, c.fields
	if !x.sess.engine.opts.FastPathsOff.StoredRowScans {
		if r.stored = storedOutput(it); r.stored != nil {
			x.sess.fastPaths.storedRowScans++
		}
	}
	p.running = r
	tag, suspended, err := p.resume(maxRows, out)
	if err != nil {
		return "", false, err
	}
	return tag, suspended, nil
}

// resume streams rows of a running query until maxRows or the end.
func (p *portal) resume(maxRows int, out wire.ResultWriter) (string, bool, error) {
	r := p.running
	sink := &resultSink{out: out, s: p.ps.s, formats: p.formats, cols: r.cols}
	sent := 0
	for maxRows <= 0 || sent < maxRows {
		var row eval.Row
		var encoded [][]byte
		var err error
		if r.stored != nil {
			encoded, row, err = r.stored.nextStored()
		} else {
			row, err = r.it.next()
		}
		if err != nil {
			p.Close()
			return "", false, err
		}
		if row == nil && encoded == nil {
			r.it.close()
			if r.owned {
				if r.tx.writer {
					err = r.tx.commit()
				} else {
					r.tx.rollback()
				}
			}
			p.stopped()
			p.done = true
			if err != nil {
				return "", false, err
			}
			// Like PostgreSQL, the tag counts the rows of this Execute.
			return selectTag(sent), false, nil
		}
		if encoded != nil {
			err = sink.storedRow(r.x, encoded[:len(r.cols)])
		} else {
			err = sink.row(r.x, row[:len(r.cols)])
		}
		if err != nil {
			p.Close()
			return "", false, err
		}
		r.rows++
		sent++
	}
	if r.tx.writer {
		// The block's later statements may write the tables this portal
		// reads: read the rest now, so that it sees the data as of its
		// start (as PostgreSQL's portal snapshot does) and no storage
		// cursor outlives a change to its bucket or the transaction.
		var rest []eval.Row
		for {
			row, err := r.it.next()
			if err != nil {
				p.Close()
				return "", false, err
			}
			if row == nil {
				break
			}
			rest = append(rest, append(eval.Row(nil), row...))
		}
		r.it.close()
		r.it, r.stored = &sliceIter{rows: rest}, nil
	}
	if !r.suspended {
		s := p.ps.s
		if s.suspended == nil {
			s.suspended = map[*portal]struct{}{}
		}
		s.suspended[p] = struct{}{}
		r.suspended = true
	}
	return "", true, nil
}

// isTransactionExit reports whether stmt may run in an aborted block: one
// that ends it (or would roll back to a savepoint).
func isTransactionExit(stmt ast.Statement) bool {
	tr, ok := stmt.(*ast.Transaction)
	return ok && (tr.Kind == ast.TxRollback || tr.Kind == ast.TxCommit || tr.Kind == ast.TxRollbackTo)
}

// statementContext is ctx with statement_timeout applied, if set.
func (s *Session) statementContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if v := s.settings["statement_timeout"]; v != s.timeoutText {
		s.timeoutText = v
		s.timeout, _ = settings.ParseDuration(v) // SET validated it
	}
	if s.timeout <= 0 {
		return ctx, noCancel
	}
	return context.WithTimeout(ctx, s.timeout)
}

func noCancel() {}

func sameFields(a, b []outCol) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].t.OID != b[i].t.OID {
			return false
		}
	}
	return true
}

// txFor returns the transaction statement c runs in, within the session's
// block (which Execute made sure exists): the block's write transaction if
// it has one; for a write, a new write transaction, which the block keeps;
// for a read, the block's snapshot under REPEATABLE READ or SERIALIZABLE,
// else a fresh snapshot of the statement's own. owned reports whether the
// caller must end it. The isolation level's checks (txmodes.go) fail the
// statement with 40001 when it would see what its snapshot does not hold.
func (s *Session) txFor(ctx context.Context, c *compiled) (*txn, bool, error) {
	b := s.block
	b.queried = true
	if b.tx != nil {
		if err := s.continueDetached(ctx, b.tx, c); err != nil {
			return nil, false, err
		}
		return b.tx, false, nil
	}
	if c.access == accessWrite && c.concurrent {
		tx, err := s.beginDetached(ctx, b)
		if err != nil {
			return nil, false, err
		}
		if tx.beginMark, err = tx.st.Mark(); err != nil {
			tx.rollback()
			return nil, false, err
		}
		b.tx = tx
		return tx, false, nil
	}
	if c.access == accessWrite {
		tx, err := s.beginWriter(ctx)
		if err != nil {
			return nil, false, err
		}
		if b.snap != nil {
			if err := b.beginWriting(tx); err != nil {
				tx.rollback()
				return nil, false, err
			}
		}
		if tx.beginMark, err = tx.st.Mark(); err != nil {
			tx.rollback()
			return nil, false, err
		}
		b.tx = tx
		return tx, false, nil
	}
	if b.modes.isolation.readsSnapshot() {
		tx, err := s.snapshotRead(ctx, b)
		return tx, false, err
	}
	tx, err := s.engine.beginTxn(ctx, s, false)
	return tx, true, err
}

// resultSink encodes rows for the client in the formats Bind asked for.
type resultSink struct {
	out     wire.ResultWriter
	cols    []outCol
	s       *Session
	formats []int16
}

// rowEncoding is the scratch space rows are encoded in before WriteRow,
// one per session (which sends one row at a time), so that sending a row
// allocates nothing once the buffers have grown.
type rowEncoding struct {
	values [][]byte
	// ends[i] is where value i ends in bytes, -1 for a NULL.
	ends  []int
	bytes []byte
}

// rowEncodingKeep bounds what a session keeps between rows: one huge
// value should not pin its buffer for the life of the connection.
const rowEncodingKeep = 1 << 20

// emptyValue is the encoding of a non-NULL value with no bytes (an empty
// string, say): a nil slice would be sent as NULL.
var emptyValue = []byte{}

func (r *resultSink) row(x *execCtx, row eval.Row) error {
	enc := r.startRow()
	for i, v := range row {
		if err := r.appendValue(enc, x, i, v); err != nil {
			return err
		}
	}
	return r.sendRow(enc)
}

// storedRow sends a row given as its values' stored encodings (nil for a
// NULL), in output order: the common kinds go from their encoding
// straight to the client's format, the others are decoded first.
func (r *resultSink) storedRow(x *execCtx, encoded [][]byte) error {
	enc := r.startRow()
	for i, e := range encoded {
		out, null, ok := appendStoredWire(enc.bytes, e, r.cols[i].t.OID, r.binaryFormat(i))
		if ok {
			enc.bytes = out
			enc.endValue(null)
			continue
		}
		v, err := decodeStoredValue(e)
		if err != nil {
			return err
		}
		if err := r.appendValue(enc, x, i, v); err != nil {
			return err
		}
	}
	return r.sendRow(enc)
}

// decodeStoredValue decodes one value's stored encoding (as rowcodec.SplitRow
// found it in a tuple).
func decodeStoredValue(enc []byte) (types.Value, error) {
	v, err := rowcodec.DecodeRowValue(enc)
	if err != nil {
		return nil, pgerror.New(pgerror.DataCorrupted, "corrupt stored value: %v", err)
	}
	return v, nil
}

func (r *resultSink) startRow() *rowEncoding {
	enc := &r.s.encoding
	enc.bytes, enc.ends = enc.bytes[:0], enc.ends[:0]
	return enc
}

func (r *resultSink) binaryFormat(i int) bool { return i < len(r.formats) && r.formats[i] == 1 }

// appendValue encodes output column i's value in the format Bind asked
// for.
func (r *resultSink) appendValue(enc *rowEncoding, x *execCtx, i int, v types.Value) error {
	if v == nil {
		enc.endValue(true)
		return nil
	}
	t := r.cols[i].t
	if r.binaryFormat(i) {
		var err error
		if enc.bytes, err = types.AppendBinary(enc.bytes, t, v); err != nil {
			return err
		}
	} else {
		enc.bytes = r.s.appendValue(enc.bytes, x, t, v)
	}
	enc.endValue(false)
	return nil
}

// endValue records that the value just appended to bytes (none, for a
// NULL) is complete.
func (e *rowEncoding) endValue(null bool) {
	if null {
		e.ends = append(e.ends, -1)
	} else {
		e.ends = append(e.ends, len(e.bytes))
	}
}

// sendRow writes the row encoded in enc.
func (r *resultSink) sendRow(enc *rowEncoding) error {
	enc.values = enc.values[:0]
	start := 0
	for _, end := range enc.ends {
		var b []byte
		if end >= 0 {
			if b = enc.bytes[start:end]; b == nil {
				b = emptyValue
			}
			start = end
		}
		enc.values = append(enc.values, b)
	}
	err := r.out.WriteRow(enc.values)
	if cap(enc.bytes) > rowEncodingKeep {
		enc.bytes = nil
	}
	clear(enc.values) // drop references into the buffer
	return err
}

// notice sends a NOTICE or WARNING to the client.
func (r *resultSink) notice(severity, code, format string, args ...any) {
	r.out.Notice(&wire.NoticeInfo{Severity: severity, Code: code, Message: fmt.Sprintf(format, args...)})
}

// formatValue is a value's text output, with the session's time zone and
// the catalog lookups the reg* types need.
func (s *Session) formatValue(x *execCtx, t types.T, v types.Value) string {
	switch t.OID {
	case types.Regclass, types.Regtype, types.Regnamespace, types.Regproc, types.Regprocedure, types.Regrole:
		return s.formatRegValue(x, t.OID, v.(int64))
	}
	return types.FormatTextIn(t, v, s.loc)
}

// appendValue appends formatValue's text to dst.
func (s *Session) appendValue(dst []byte, x *execCtx, t types.T, v types.Value) []byte {
	switch t.OID {
	case types.Regclass, types.Regtype, types.Regnamespace, types.Regproc, types.Regprocedure, types.Regrole:
		return append(dst, s.formatRegValue(x, t.OID, v.(int64))...)
	}
	return types.AppendText(dst, t, v, s.loc)
}

// parseParamText reads a text-format parameter (session time zone applies).
func (s *Session) parseParamText(t types.T, raw string) (types.Value, error) {
	if eval.IsRegType(t.OID) {
		return s.regIn(s.engine.catalogSnapshot(), t.OID, raw) // $1::regtype given 'text'
	}
	return types.ParseTextWith(t, raw, s.textInput())
}

// parseCopyText is parseParamText for a field of text COPY data, boxing
// its value from b.
func (s *Session) parseCopyText(t types.T, raw string, b *types.Boxes) (types.Value, error) {
	if eval.IsRegType(t.OID) {
		return s.regIn(s.engine.catalogSnapshot(), t.OID, raw)
	}
	return types.ParseTextBoxed(t, raw, s.textInput(), b)
}

func itoa(n int) string { return formatInt(int64(n)) }

// smallSelectTags are the command tags of SELECTs of a few rows, made once:
// a point query would otherwise build its tag, one allocation, every time.
var smallSelectTags = func() []string {
	tags := make([]string, 64)
	for n := range tags {
		tags[n] = "SELECT " + itoa(n)
	}
	return tags
}()

// selectTag is the command tag of a SELECT that returned n rows.
func selectTag(n int) string {
	if n >= 0 && n < len(smallSelectTags) {
		return smallSelectTags[n]
	}
	return "SELECT " + itoa(n)
}

// compile plans a statement against a catalog.
func (s *Session) compile(stmt ast.Statement, text string, declared []types.T, cat *catalog.Snapshot) (*compiled, error) {
	pc := &planCtx{sess: s, cat: cat, params: &paramSlots{types: append([]types.T(nil), declared...)}, deferPrivileges: true}
	c, err := pc.compileStatement(stmt)
	if err != nil {
		return nil, err
	}
	c.required = pc.required
	c.stmt, c.text, c.catVersion, c.catGen = stmt, text, cat.Version, cat.Generation()
	c.params = pc.params.types
	c.notices = append(c.notices, pc.notices...)
	c.readsClock = pc.readsClock
	if c.access == accessWrite {
		c.readOnlyCommand = pc.readOnlyCommand(stmt)
		c.concurrent = pc.concurrentWrite(stmt)
	}
	for i, t := range c.params {
		if t.OID == types.Unknown {
			c.params[i] = eval.TextT()
		}
	}
	return c, nil
}
