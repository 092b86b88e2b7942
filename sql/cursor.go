package sql

import (
	"context"
	"sort"
	"strconv"
	"sync"
	"time"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/types"
	"cdcdb/wire"
)

// SQL cursors: DECLARE ... CURSOR FOR query, FETCH, MOVE, CLOSE. psycopg's
// server-side (named) cursors and psqlODBC's UseDeclareFetch mode (which
// Tableau and Power BI turn on for large results) read big results through
// them. A cursor's rows are computed when it is declared, inside the
// declaring transaction, so every FETCH reads the snapshot of that moment,
// in any direction (a cursor is as scrollable as PostgreSQL's SCROLL ones).
// A cursor declared WITHOUT HOLD (the default) ends with its transaction
// block, one WITH HOLD with the session or CLOSE.

// sqlCursor is one declared cursor.
type sqlCursor struct {
	name      string
	statement string // the DECLARE statement, for pg_cursors
	created   time.Time
	scroll    bool
	cols      []outCol
	rows      []eval.Row
	// pos is the position as PostgreSQL counts it: 0 before the first row,
	// len(rows)+1 after the last, else the row last fetched (1-based).
	pos  int
	hold bool
	// declaredIn is the transaction block that declared the cursor, until
	// it commits: a WITH HOLD cursor goes too if that block rolls back.
	declaredIn *txBlock
}

// cursors holds each session's cursors. Only the session's own goroutine
// touches its map; the lock guards the outer map.
var cursors struct {
	sync.Mutex
	bySession map[*Session]map[string]*sqlCursor
}

func (s *Session) cursorMap() map[string]*sqlCursor {
	cursors.Lock()
	defer cursors.Unlock()
	if cursors.bySession == nil {
		cursors.bySession = map[*Session]map[string]*sqlCursor{}
	}
	m := cursors.bySession[s]
	if m == nil {
		m = map[string]*sqlCursor{}
		cursors.bySession[s] = m
	}
	return m
}

// closeCursors drops a session's cursors: all of them when the session
// ends, else, when a transaction block ends, those without HOLD, and
// those WITH HOLD it declared if it did not commit (as PostgreSQL drops
// them with the transaction that made them).
func (s *Session) closeCursors(all bool) {
	s.endCursors(all, nil, false)
}

// endCursors is closeCursors for the end of block b, committed or not.
func (s *Session) endCursors(all bool, b *txBlock, committed bool) {
	cursors.Lock()
	defer cursors.Unlock()
	m := cursors.bySession[s]
	for name, c := range m {
		switch {
		case all || !c.hold:
			delete(m, name)
		case b != nil && c.declaredIn == b && !committed:
			delete(m, name)
		case c.declaredIn == b:
			c.declaredIn = nil
		}
	}
	if all || len(m) == 0 {
		delete(cursors.bySession, s)
	}
}

func errNoCursor(name string) error {
	return pgerror.New("34000", "cursor \"%s\" does not exist", name) // invalid_cursor_name
}

// compileCursor plans DECLARE, FETCH, MOVE and CLOSE.
func (pc *planCtx) compileCursor(stmt ast.Statement) (*compiled, error) {
	switch st := stmt.(type) {
	case *ast.DeclareCursor:
		if st.Binary {
			return nil, pgerror.New(pgerror.FeatureNotSupported, "binary cursors are not supported").WithPosition(st.Pos + 1)
		}
		p, err := pc.planQuery(st.Query, nil)
		if err != nil {
			return nil, err
		}
		declare := &compiled{access: accessRead}
		declare.run = &declareCursorStatement{st: st, query: p, compiled: declare}
		return declare, nil
	case *ast.FetchCursor:
		c, ok := pc.sess.cursorMap()[st.Name]
		if !ok {
			return nil, errNoCursor(st.Name)
		}
		out := &compiled{access: accessNone, run: fetchStatement{st}}
		if !st.Move {
			out.fields = c.cols
		}
		return out, nil
	case *ast.CloseCursor:
		return &compiled{access: accessNone, run: closeCursorStatement{st.Name}}, nil
	}
	return nil, pgerror.New(pgerror.InternalError, "not a cursor statement: %T", stmt)
}

// declareCursorStatement is DECLARE CURSOR: it runs its query to the end
// and keeps the rows, which FETCH reads.
type declareCursorStatement struct {
	st    *ast.DeclareCursor
	query plan
	// compiled is the statement's own, whose text (set once it is
	// compiled) the cursor shows in pg_cursors.
	compiled *compiled
}

func (d *declareCursorStatement) String() string {
	out := "DECLARE " + parse.QuoteIdent(d.st.Name)
	if d.st.Scroll {
		out += " SCROLL"
	}
	out += " CURSOR"
	if d.st.Hold {
		out += " WITH HOLD"
	}
	return out
}

func (d *declareCursorStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	s, st := x.sess, d.st
	if !st.Hold && (s.block == nil || s.block.implicit) {
		return "", pgerror.New("25P01", "DECLARE CURSOR can only be used in transaction blocks") // no_active_sql_transaction
	}
	m := s.cursorMap()
	if _, dup := m[st.Name]; dup {
		return "", pgerror.New("42P03", "cursor \"%s\" already exists", st.Name) // duplicate_cursor
	}
	rows, err := drain(x, d.query, nil)
	if err != nil {
		return "", err
	}
	cols := d.query.columns()
	for i := range rows {
		rows[i] = rows[i][:len(cols)]
	}
	m[st.Name] = &sqlCursor{name: st.Name, statement: d.compiled.text, created: x.stmtNow, scroll: st.Scroll,
		cols: cols, rows: rows, hold: st.Hold, declaredIn: s.block}
	return "DECLARE CURSOR", nil
}

// fetchStatement is FETCH and MOVE.
type fetchStatement struct{ st *ast.FetchCursor }

func (f fetchStatement) String() string {
	verb := "FETCH "
	if f.st.Move {
		verb = "MOVE "
	}
	// The parser's canonical form: a direction with a count, or ALL.
	switch {
	case f.st.All && f.st.Direction == "BACKWARD":
		verb += "BACKWARD ALL "
	case f.st.All:
		verb += "FORWARD ALL "
	default:
		verb += f.st.Direction + " " + strconv.FormatInt(f.st.Count, 10) + " "
	}
	return verb + "FROM " + parse.QuoteIdent(f.st.Name)
}

func (f fetchStatement) exec(x *execCtx, sink *resultSink) (string, error) {
	c, ok := x.sess.cursorMap()[f.st.Name]
	if !ok {
		return "", errNoCursor(f.st.Name)
	}
	rows := c.fetch(f.st)
	verb := "FETCH "
	if f.st.Move {
		verb = "MOVE "
	} else {
		for _, r := range rows {
			if err := sink.row(x, r); err != nil {
				return "", err
			}
		}
	}
	return verb + strconv.Itoa(len(rows)), nil
}

// closeCursorStatement is CLOSE name, and CLOSE ALL (name "").
type closeCursorStatement struct{ name string }

func (c closeCursorStatement) String() string {
	if c.name == "" {
		return "CLOSE ALL"
	}
	return "CLOSE " + parse.QuoteIdent(c.name)
}

func (c closeCursorStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	m := x.sess.cursorMap()
	if c.name == "" {
		for name := range m {
			delete(m, name)
		}
		return "CLOSE CURSOR ALL", nil
	}
	if _, ok := m[c.name]; !ok {
		return "", errNoCursor(c.name)
	}
	delete(m, c.name)
	return "CLOSE CURSOR", nil
}

// fetch moves the cursor as a FETCH or MOVE says and returns the rows it
// passed over (in the order passed), as PostgreSQL's PerformPortalFetch.
func (c *sqlCursor) fetch(f *ast.FetchCursor) []eval.Row {
	n := len(c.rows)
	step := func(forward bool, count int64, all bool) []eval.Row {
		var out []eval.Row
		for i := int64(0); all || i < count; i++ {
			if forward {
				if c.pos > n {
					break
				}
				c.pos++
				if c.pos > n {
					break
				}
			} else {
				if c.pos < 1 {
					break
				}
				c.pos--
				if c.pos < 1 {
					break
				}
			}
			out = append(out, c.rows[c.pos-1])
		}
		return out
	}
	switch f.Direction {
	case "ABSOLUTE":
		k := f.Count
		if k < 0 {
			k = int64(n) + 1 + k
		}
		switch {
		case k <= 0:
			c.pos = 0
		case k > int64(n):
			c.pos = n + 1
		default:
			c.pos = int(k)
			return []eval.Row{c.rows[k-1]}
		}
		return nil
	case "RELATIVE":
		if f.Count == 0 {
			if c.pos >= 1 && c.pos <= n {
				return []eval.Row{c.rows[c.pos-1]}
			}
			return nil
		}
		forward := f.Count > 0
		k := f.Count
		if !forward {
			k = -k
		}
		// Move k-1 rows without returning them, then return the k-th.
		step(forward, k-1, false)
		return step(forward, 1, false)
	case "BACKWARD", "FORWARD":
		if f.Count == 0 && !f.All {
			return c.fetch(&ast.FetchCursor{Direction: "RELATIVE"}) // FETCH 0: the current row
		}
	}
	switch f.Direction {
	case "BACKWARD":
		if f.Count < 0 {
			return step(true, -f.Count, false)
		}
		return step(false, f.Count, f.All)
	}
	if f.Count < 0 {
		return step(false, -f.Count, false)
	}
	return step(true, f.Count, f.All)
}

// CursorPortal implements wire.CursorSession: a declared cursor seen as a
// portal, which Execute reads forward from where FETCH left it.
func (s *Session) CursorPortal(name string) (wire.Portal, bool) {
	c, ok := s.cursorMap()[name]
	if !ok {
		return nil, false
	}
	return &cursorPortal{s: s, c: c}, true
}

type cursorPortal struct {
	s *Session
	c *sqlCursor
}

func (p *cursorPortal) Fields() []wire.FieldDescription { return fieldDescriptions(p.c.cols) }

func (p *cursorPortal) Execute(ctx context.Context, maxRows int, out wire.ResultWriter) (string, bool, error) {
	f := &ast.FetchCursor{Direction: "FORWARD", Count: int64(maxRows), All: maxRows <= 0}
	rows := p.c.fetch(f)
	x := &execCtx{ctx: ctx, sess: p.s, now: time.Now().UTC(), stmtNow: time.Now().UTC()}
	sink := &resultSink{out: out, s: p.s, cols: p.c.cols}
	for _, r := range rows {
		if err := sink.row(x, r); err != nil {
			return "", false, err
		}
	}
	more := p.c.pos < len(p.c.rows)
	if maxRows > 0 && len(rows) == maxRows && more {
		return "", true, nil
	}
	return "FETCH " + strconv.Itoa(len(rows)), false, nil
}

// Close leaves the cursor: it lives until CLOSE or the end of its block.
func (p *cursorPortal) Close() {}

func init() {
	// pg_cursor() lists the session's cursors, behind the pg_cursors view.
	builtins.RegisterSet("pg_cursor", &builtins.SetFunc{Resolve: func(_ eval.Binder, args []eval.Expr) ([]eval.Expr, []builtins.Column, error) {
		if len(args) != 0 {
			return nil, nil, builtins.ErrNoFunction
		}
		return nil, catalogviews.ProcOutColumns("pg_cursor"), nil
	}, Gen: func(ec eval.Context, _ []types.Value) ([]eval.Row, error) {
		x := stmtOf(ec)
		m := x.sess.cursorMap()
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.Strings(names)
		var rows []eval.Row
		for _, n := range names {
			c := m[n]
			rows = append(rows, eval.Row{c.name, c.statement, c.hold, false, c.scroll, c.created})
		}
		return rows, nil
	}})
}
