package wire

import (
	"github.com/jackc/pgx/v5/pgproto3"

	"cdcdb/pgerror"
)

// The extended query protocol: Parse makes a named (or the unnamed)
// statement, Bind makes a portal from it, Describe and Execute use them,
// Close drops them, Sync ends the batch. Each handler returns the error to
// report; extended() reports it and starts skipping until Sync.

// statement is a prepared statement as the protocol sees it. ps is nil for an
// empty query string, which PostgreSQL accepts: it describes as NoData and
// executes as EmptyQueryResponse.
type statement struct {
	ps PreparedStatement
}

// portal is a bound statement. Its result formats are kept because
// RowDescription for a portal states them and the Session's
// FieldDescription does not carry them.
type portal struct {
	p       Portal // nil for an empty query
	fields  []FieldDescription
	formats []int16
}

// extended finishes an extended-protocol message: on error, report it and
// ignore what follows until Sync, as PostgreSQL does.
func (c *conn) extended(err error) {
	if err == nil {
		return
	}
	c.sendError(err)
	c.skipping = true
}

func (c *conn) parse(m *pgproto3.Parse) error {
	if m.Name != "" {
		if _, dup := c.stmts[m.Name]; dup {
			return pgerror.New(pgerror.DuplicatePreparedStatement, "prepared statement \"%s\" already exists", m.Name)
		}
		if named := len(c.stmts) - hasKey(c.stmts, ""); named >= c.srv.cfg.MaxPreparedStatements {
			return pgerror.New(pgerror.ConfigurationLimitExceeded, "too many prepared statements: this connection holds %d", named).
				WithHint("Close prepared statements the client no longer uses (the server's limit is -max-prepared-statements).")
		}
	} else {
		// The unnamed statement lasts until the next Parse of it, and goes
		// even if that Parse fails.
		c.closeStatement("")
	}

	stmts, err := c.sess.Parse(c.quickCallContext(), m.Query, m.ParameterOIDs)
	if err != nil {
		return err
	}
	if len(stmts) > 1 {
		for _, ps := range stmts {
			ps.Close()
		}
		return pgerror.New(pgerror.SyntaxError, "cannot insert multiple commands into a prepared statement")
	}
	st := &statement{}
	if len(stmts) == 1 {
		st.ps = stmts[0]
	}
	c.stmts[m.Name] = st
	return c.send(&pgproto3.ParseComplete{})
}

func (c *conn) bind(m *pgproto3.Bind) error {
	st, ok := c.stmts[m.PreparedStatement]
	if !ok {
		return errNoStatement(m.PreparedStatement)
	}
	if m.DestinationPortal != "" {
		if _, dup := c.boundPortal(m.DestinationPortal); dup {
			// PostgreSQL words it as a cursor, whatever made the portal.
			return pgerror.New(duplicateCursor, "cursor \"%s\" already exists", m.DestinationPortal)
		}
		if named := len(c.portals) - hasKey(c.portals, ""); named >= c.srv.cfg.MaxPortals {
			return pgerror.New(pgerror.ConfigurationLimitExceeded, "too many portals: this connection holds %d", named).
				WithHint("Close portals the client no longer reads (the server's limit is -max-portals).")
		}
	} else {
		c.closePortal("")
	}

	var paramTypes []uint32
	var fields []FieldDescription
	if st.ps != nil {
		paramTypes = st.ps.ParamTypes()
		fields = st.ps.Fields()
	}
	if err := checkBind(m, len(paramTypes), fields); err != nil {
		return err
	}

	po := &portal{formats: m.ResultFormatCodes}
	if st.ps != nil {
		p, err := st.ps.Bind(c.quickCallContext(), copyParams(m.Parameters), m.ParameterFormatCodes, m.ResultFormatCodes)
		if err != nil {
			return err
		}
		po.p = p
		po.fields = p.Fields()
	}
	c.portals[m.DestinationPortal] = po
	return c.send(&pgproto3.BindComplete{})
}

// checkBind applies the protocol's own rules to a Bind, the ones PostgreSQL
// checks before looking at any value.
func checkBind(m *pgproto3.Bind, wantParams int, fields []FieldDescription) error {
	if len(m.Parameters) != wantParams {
		return pgerror.New(pgerror.ProtocolViolation, "bind message supplies %d parameters, but prepared statement \"%s\" requires %d",
			len(m.Parameters), m.PreparedStatement, wantParams)
	}
	if n := len(m.ParameterFormatCodes); n > 1 && n != len(m.Parameters) {
		return pgerror.New(pgerror.ProtocolViolation, "bind message has %d parameter formats but %d parameters", n, len(m.Parameters))
	}
	if n := len(m.ResultFormatCodes); fields != nil && n > 1 && n != len(fields) {
		return pgerror.New(pgerror.ProtocolViolation, "bind message has %d result formats but query has %d columns", n, len(fields))
	}
	for _, codes := range [][]int16{m.ParameterFormatCodes, m.ResultFormatCodes} {
		for _, f := range codes {
			if f != pgproto3.TextFormat && f != pgproto3.BinaryFormat {
				return pgerror.New(pgerror.InvalidParameterValue, "unsupported format code: %d", f)
			}
		}
	}
	return nil
}

// copyParams moves Bind's parameter values out of pgproto3's read buffer,
// which the next Receive overwrites, into one allocation the session may keep.
// NULL stays nil and an empty value stays non-nil.
func copyParams(params [][]byte) [][]byte {
	if len(params) == 0 {
		return nil
	}
	total := 0
	for _, p := range params {
		total += len(p)
	}
	buf := make([]byte, 0, total)
	out := make([][]byte, len(params))
	for i, p := range params {
		if p == nil {
			continue
		}
		start := len(buf)
		buf = append(buf, p...)
		out[i] = buf[start:len(buf):len(buf)]
	}
	return out
}

func (c *conn) describe(m *pgproto3.Describe) error {
	switch m.ObjectType {
	case 'S':
		st, ok := c.stmts[m.Name]
		if !ok {
			return errNoStatement(m.Name)
		}
		var paramTypes []uint32
		var fields []FieldDescription
		if st.ps != nil {
			paramTypes = st.ps.ParamTypes()
			fields = st.ps.Fields()
		}
		if err := c.send(&pgproto3.ParameterDescription{ParameterOIDs: paramTypes}); err != nil {
			return err
		}
		// Result formats are not chosen until Bind, so a statement's
		// RowDescription says text throughout, as PostgreSQL's does.
		return c.sendRowDescription(fields, nil)
	case 'P':
		po, ok := c.portalOrCursor(m.Name)
		if !ok {
			return errNoPortal(m.Name)
		}
		return c.sendRowDescription(po.fields, po.formats)
	default:
		return pgerror.New(pgerror.ProtocolViolation, "invalid DESCRIBE message subtype %d", m.ObjectType)
	}
}

// sendRowDescription sends RowDescription, or NoData for a statement that
// returns no rows.
func (c *conn) sendRowDescription(fields []FieldDescription, formats []int16) error {
	if fields == nil {
		return c.send(&pgproto3.NoData{})
	}
	out := make([]pgproto3.FieldDescription, len(fields))
	for i, f := range fields {
		out[i] = pgproto3.FieldDescription{
			Name:                 []byte(f.Name),
			TableOID:             f.TableOID,
			TableAttributeNumber: uint16(f.ColumnNumber),
			DataTypeOID:          f.TypeOID,
			DataTypeSize:         f.TypeSize,
			TypeModifier:         f.TypeModifier,
			Format:               resultFormat(formats, i),
		}
	}
	return c.send(&pgproto3.RowDescription{Fields: out})
}

// resultFormat applies Bind's rule: no codes means text, one applies to all.
func resultFormat(formats []int16, i int) int16 {
	switch len(formats) {
	case 0:
		return pgproto3.TextFormat
	case 1:
		return formats[0]
	default:
		return formats[i]
	}
}

func (c *conn) execute(m *pgproto3.Execute) error {
	po, ok := c.portalOrCursor(m.Portal)
	if !ok {
		return errNoPortal(m.Portal)
	}
	if po.p == nil {
		return c.send(&pgproto3.EmptyQueryResponse{})
	}
	// PostgreSQL reads the limit as a signed int32 and fetches everything
	// when it is not positive; a huge unsigned value means the same here.
	maxRows := int(int32(m.MaxRows))
	if maxRows < 0 {
		maxRows = 0
	}

	ctx, done := c.callContext()
	defer done()
	c.result.reset()
	tag, suspended, err := po.p.Execute(ctx, maxRows, &c.result)
	if err := c.result.finish(err); err != nil {
		return err
	}
	if suspended {
		return c.send(&pgproto3.PortalSuspended{})
	}
	return c.commandComplete(tag)
}

// boundPortal finds a portal Bind made, unless its transaction has ended
// (see TransactionPortal).
func (c *conn) boundPortal(name string) (*portal, bool) {
	po, ok := c.portals[name]
	if !ok {
		return nil, false
	}
	if tp, ok := po.p.(TransactionPortal); ok && tp.TransactionEnded() {
		c.closePortal(name)
		return nil, false
	}
	return po, true
}

// portalOrCursor finds a portal by name: one Bind made, else the
// session's SQL cursor of that name (see CursorSession).
func (c *conn) portalOrCursor(name string) (*portal, bool) {
	if po, ok := c.boundPortal(name); ok {
		return po, true
	}
	cs, ok := c.sess.(CursorSession)
	if !ok || name == "" {
		return nil, false
	}
	p, ok := cs.CursorPortal(name)
	if !ok {
		return nil, false
	}
	return &portal{p: p, fields: p.Fields()}, true
}

func (c *conn) closeObject(m *pgproto3.Close) error {
	// Closing what does not exist is not an error, in PostgreSQL either.
	switch m.ObjectType {
	case 'S':
		c.closeStatement(m.Name)
	case 'P':
		c.closePortal(m.Name)
	default:
		return pgerror.New(pgerror.ProtocolViolation, "invalid CLOSE message subtype %d", m.ObjectType)
	}
	return c.send(&pgproto3.CloseComplete{})
}

// sync ends an extended-protocol batch: skipping stops, the implicit
// transaction ends, and the client hears ReadyForQuery at once.
func (c *conn) sync() {
	c.skipping = false
	c.endImplicitTransaction()
	if c.closing {
		return
	}
	c.readyForQuery()
	c.tr.Flush()
}

// endImplicitTransaction runs where PostgreSQL ends the implicit transaction
// of a simple Query or of a batch up to Sync: it tells a SyncSession, and once
// no transaction is open drops the portals, which in PostgreSQL do not outlive
// their transaction.
func (c *conn) endImplicitTransaction() {
	if s, ok := c.sess.(SyncSession); ok {
		err := s.Sync(c.quickCallContext(), c.aborted)
		if err != nil {
			c.sendError(err)
		}
	}
	if c.sess.TxStatus() == 'I' {
		for name := range c.portals {
			c.closePortal(name)
		}
	}
}

func (c *conn) closeStatement(name string) {
	st, ok := c.stmts[name]
	if !ok {
		return
	}
	delete(c.stmts, name)
	if st.ps != nil {
		st.ps.Close()
	}
}

func (c *conn) closePortal(name string) {
	po, ok := c.portals[name]
	if !ok {
		return
	}
	delete(c.portals, name)
	if po.p != nil {
		po.p.Close()
	}
}

func errNoStatement(name string) error {
	if name == "" {
		return pgerror.New(pgerror.InvalidSQLStatementName, "unnamed prepared statement does not exist")
	}
	return pgerror.New(pgerror.InvalidSQLStatementName, "prepared statement \"%s\" does not exist", name)
}

func errNoPortal(name string) error {
	return pgerror.New(pgerror.InvalidCursorName, "portal \"%s\" does not exist", name)
}

// hasKey is 1 when m has key k, else 0: what the unnamed statement or
// portal adds to a count of named ones.
func hasKey[V any](m map[string]V, k string) int {
	if _, ok := m[k]; ok {
		return 1
	}
	return 0
}
