// Package sqltest runs SQL against an in-process cdcdb engine, for tests
// that exercise the SQL layer without a network: a statement goes through
// the same Parse / Bind / Execute path the wire server drives, and results
// come back as text, as psql would show them (Exec), or as the messages the
// wire server would send a client for a simple Query (SimpleQuery).
package sqltest

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"cdcdb/pgerror"
	"cdcdb/sql"
	"cdcdb/storage"
	"cdcdb/storage/storagetest"
	"cdcdb/wire"
)

// DB is an engine over a fresh database file that is checked for
// consistency when the test ends.
type DB struct {
	T      testing.TB
	Engine *sql.Engine
	Store  *storage.DB
}

// Open makes a fresh database for a test.
func Open(t testing.TB) *DB {
	t.Helper()
	return OpenWith(t, sql.Options{})
}

// OpenWith makes a fresh database for a test with an engine of the given
// options.
func OpenWith(t testing.TB, opts sql.Options) *DB {
	t.Helper()
	st := storagetest.Open(t)
	e, err := sql.NewEngine(st, opts)
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	return &DB{T: t, Engine: e, Store: st}
}

// Conn is one session.
type Conn struct {
	db   *DB
	sess wire.Session
	// closed is set once the session failed with a FATAL error (or a
	// panic): the wire server would have ended the connection there.
	closed bool
	// CopyChunk is the size of the CopyData messages Copy sends; small by
	// default so row parsing across message boundaries is exercised.
	CopyChunk int
	// ResultFormats are the result formats Exec binds its statements
	// with, as a Bind message gives them (none: all text; one: that for
	// every column; 1 is binary).
	ResultFormats []int16
}

// Conn opens a session.
func (d *DB) Conn() *Conn {
	d.T.Helper()
	return d.ConnWith(nil)
}

// ConnWith opens a session as a client whose StartupMessage carries the
// run-time parameters params (timezone, datestyle, application_name, ...)
// besides user and database, handed to the engine as the wire server hands
// them over.
func (d *DB) ConnWith(params map[string]string) *Conn {
	d.T.Helper()
	info := wire.StartupInfo{User: "cdcdb", Database: "main", Options: map[string]string{}}
	for name, value := range params {
		if name == "application_name" {
			info.ApplicationName = value
		} else {
			info.Options[name] = value
		}
	}
	s, err := d.Engine.NewSession(context.Background(), info)
	if err != nil {
		d.T.Fatalf("session: %v", err)
	}
	d.T.Cleanup(s.Close)
	return &Conn{db: d, sess: s}
}

// Session is the engine's session behind the connection.
func (c *Conn) Session() wire.Session { return c.sess }

// Result is what one statement produced.
type Result struct {
	Columns []string
	// Rows hold each value's text form; NULL is "NULL".
	Rows    [][]string
	Tag     string
	Notices []string
}

// String renders rows one per line, values separated by "|".
func (r Result) String() string {
	var sb strings.Builder
	for _, row := range r.Rows {
		sb.WriteString(strings.Join(row, "|"))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// Exec runs a query text (one or more statements) and returns the result of
// the last statement, or the first error.
func (c *Conn) Exec(query string, params ...string) (res Result, err error) {
	ctx := context.Background()
	// Like the wire server, end the implicit transaction at the end of the
	// query.
	defer func() {
		if serr := c.sess.(wire.SyncSession).Sync(ctx, err != nil); serr != nil && err == nil {
			err = serr
		}
	}()
	var ptypes []uint32
	if len(params) > 0 {
		ptypes = make([]uint32, len(params))
	}
	stmts, err := c.sess.Parse(ctx, query, ptypes)
	if err != nil {
		return Result{}, err
	}
	for _, st := range stmts {
		var raw [][]byte
		for _, p := range params {
			if p == "NULL" {
				raw = append(raw, nil)
			} else {
				raw = append(raw, []byte(p))
			}
		}
		portal, err := st.Bind(ctx, raw, nil, c.ResultFormats)
		if err != nil {
			return Result{}, err
		}
		if sp, ok := portal.(wire.SolePortal); ok && len(stmts) == 1 {
			sp.Sole() // as the wire server says of a simple Query's only statement
		}
		w := &writer{}
		res = Result{}
		for _, f := range portal.Fields() {
			res.Columns = append(res.Columns, f.Name)
		}
		tag, _, err := portal.Execute(ctx, 0, w)
		portal.Close()
		if err != nil {
			return Result{}, err
		}
		res.Rows, res.Tag, res.Notices = w.textRows(), tag, w.notices
	}
	return res, nil
}

// MustExec runs a query and fails the test on error.
func (c *Conn) MustExec(query string, params ...string) Result {
	c.db.T.Helper()
	r, err := c.Exec(query, params...)
	if err != nil {
		c.db.T.Fatalf("%s\n-> %v", query, err)
	}
	return r
}

// ExpectError runs a query that must fail with the given SQLSTATE.
func (c *Conn) ExpectError(code, query string, params ...string) *pgerror.Error {
	c.db.T.Helper()
	_, err := c.Exec(query, params...)
	if err == nil {
		c.db.T.Fatalf("%s\n-> succeeded, want error %s", query, code)
	}
	pe := pgerror.As(err)
	if pe.Code != code {
		c.db.T.Fatalf("%s\n-> error %s %q, want %s", query, pe.Code, pe.Message, code)
	}
	return pe
}

// Copy runs COPY ... FROM STDIN with the given data.
func (c *Conn) Copy(query, data string) (res Result, err error) {
	ctx := context.Background()
	defer func() {
		if serr := c.sess.(wire.SyncSession).Sync(ctx, err != nil); serr != nil && err == nil {
			err = serr
		}
	}()
	stmts, err := c.sess.Parse(ctx, query, nil)
	if err != nil {
		return Result{}, err
	}
	portal, err := stmts[0].Bind(ctx, nil, nil, nil)
	if err != nil {
		return Result{}, err
	}
	if sp, ok := portal.(wire.SolePortal); ok && len(stmts) == 1 {
		sp.Sole()
	}
	w := &writer{copyData: []byte(data), chunk: c.CopyChunk}
	tag, _, err := portal.Execute(ctx, 0, w)
	portal.Close()
	if err != nil {
		return Result{}, err
	}
	return Result{Tag: tag, Notices: w.notices}, nil
}

// writer collects a statement's output.
type writer struct {
	rows     [][][]byte // copies of the values as the portal wrote them
	notices  []string
	copyData []byte
	chunk    int
	copyOut  strings.Builder
	// noCopy refuses COPY: SimpleQuery has no COPY data to send.
	noCopy bool
}

func (w *writer) WriteRow(values [][]byte) error {
	row := make([][]byte, len(values))
	for i, v := range values {
		if v != nil {
			row[i] = bytes.Clone(v)
		}
	}
	w.rows = append(w.rows, row)
	return nil
}

// textRows is rows with each value as text, "NULL" for a null.
func (w *writer) textRows() [][]string {
	if w.rows == nil {
		return nil
	}
	out := make([][]string, len(w.rows))
	for i, row := range w.rows {
		out[i] = make([]string, len(row))
		for j, v := range row {
			if v == nil {
				out[i][j] = "NULL"
			} else {
				out[i][j] = string(v)
			}
		}
	}
	return out
}

// Deallocate answers SQL DEALLOCATE as the wire server's writer does
// (wire/result.go) on a connection that prepared no named statement with
// the protocol's Parse message, which a sqltest connection never does:
// DEALLOCATE ALL finds nothing to drop, and every name is unknown (26000).
func (w *writer) Deallocate(name string) bool { return name == "" }

func (w *writer) Notice(n *wire.NoticeInfo) { w.notices = append(w.notices, n.Message) }

func (w *writer) CopyIn(binary bool, columns int) (wire.CopyReader, error) {
	if w.noCopy {
		return nil, errNoCopy
	}
	chunk := w.chunk
	if chunk <= 0 {
		chunk = 7
	}
	return &copyReader{data: w.copyData, chunk: chunk}, nil
}

func (w *writer) CopyOut(binary bool, columns int) (wire.CopyWriter, error) {
	if w.noCopy {
		return nil, errNoCopy
	}
	return &w.copyOut, nil
}

// copyReader hands COPY data over in small chunks, so row parsing across
// message boundaries is exercised.
type copyReader struct {
	data  []byte
	chunk int
}

func (r *copyReader) Next() ([]byte, error) {
	if len(r.data) == 0 {
		return nil, io.EOF
	}
	n := min(len(r.data), r.chunk)
	chunk := r.data[:n]
	r.data = r.data[n:]
	return chunk, nil
}
