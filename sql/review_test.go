package sql_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"cdcdb/pgerror"
	"cdcdb/sql/sqltest"
	"cdcdb/wire"
)

// rowsWriter collects a portal's rows as text.
type rowsWriter struct{ rows []string }

func (w *rowsWriter) WriteRow(values [][]byte) error {
	parts := make([]string, len(values))
	for i, v := range values {
		if v == nil {
			parts[i] = "NULL"
		} else {
			parts[i] = string(v)
		}
	}
	w.rows = append(w.rows, strings.Join(parts, "|"))
	return nil
}
func (w *rowsWriter) Notice(*wire.NoticeInfo)                    {}
func (w *rowsWriter) CopyIn(bool, int) (wire.CopyReader, error)  { return nil, nil }
func (w *rowsWriter) CopyOut(bool, int) (wire.CopyWriter, error) { return nil, nil }

// namedStmt is an extended-protocol prepared statement kept across batches,
// as a driver's statement cache keeps it.
type namedStmt struct {
	t    *testing.T
	sess wire.Session
	ps   wire.PreparedStatement
}

func prepareNamed(t *testing.T, db *sqltest.DB, sess wire.Session, query string, nparams int) *namedStmt {
	t.Helper()
	sts, err := sess.Parse(context.Background(), query, make([]uint32, nparams))
	if err != nil || len(sts) != 1 {
		t.Fatalf("parse %s: %v", query, err)
	}
	return &namedStmt{t: t, sess: sess, ps: sts[0]}
}

// run binds and executes the statement, then syncs (ending an implicit
// transaction), returning the rows or the error.
func (n *namedStmt) run(params ...string) ([]string, error) {
	ctx := context.Background()
	raw := make([][]byte, len(params))
	for i, p := range params {
		if p != "NULL" {
			raw[i] = []byte(p)
		}
	}
	var err error
	defer func() {
		if serr := n.sess.(wire.SyncSession).Sync(ctx, err != nil); serr != nil && err == nil {
			err = serr
		}
	}()
	portal, err := n.ps.Bind(ctx, raw, nil, nil)
	if err != nil {
		return nil, err
	}
	w := &rowsWriter{}
	_, _, err = portal.Execute(ctx, 0, w)
	portal.Close()
	return w.rows, err
}

func newSession(t *testing.T, db *sqltest.DB) wire.Session {
	s, err := db.Engine.NewSession(context.Background(), wire.StartupInfo{User: "cdcdb", Database: "main"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// A failed execution of a prepared INSERT must not leave its pending
// foreign key checks to the next execution.
func TestPreparedInsertForeignKeyStateNotCarriedOver(t *testing.T) {
	db := sqltest.Open(t)
	c := db.Conn()
	c.MustExec(`CREATE TABLE p (id int PRIMARY KEY)`)
	c.MustExec(`CREATE TABLE ch (id int PRIMARY KEY, pid int REFERENCES p)`)
	c.MustExec(`INSERT INTO p VALUES (1)`)
	sess := newSession(t, db)
	ins := prepareNamed(t, db, sess, `INSERT INTO ch VALUES ($1::int, $2::int), ($3::int, $4::int)`, 4)
	// The second row is a duplicate key: the statement fails after the
	// first row (referencing the missing parent 99) was written.
	_, err := ins.run("10", "99", "10", "1")
	if pgerror.CodeOf(err) != pgerror.UniqueViolation {
		t.Fatalf("first run: %v, want unique violation", err)
	}
	if _, err := ins.run("20", "1", "21", "1"); err != nil {
		t.Fatalf("second run: %v", err)
	}
	if got := c.MustExec(`SELECT id FROM ch ORDER BY id`).String(); got != "20\n21\n" {
		t.Fatalf("got %q", got)
	}
}

// bindQuery parses and binds query, which takes no parameters, for a
// portal run Execute by Execute.
func bindQuery(t *testing.T, sess wire.Session, query string) wire.Portal {
	t.Helper()
	ctx := context.Background()
	sts, err := sess.Parse(ctx, query, nil)
	if err != nil {
		t.Fatalf("parse %s: %v", query, err)
	}
	portal, err := sts[0].Bind(ctx, nil, nil, nil)
	if err != nil {
		t.Fatalf("bind %s: %v", query, err)
	}
	return portal
}

func sessExec(t *testing.T, db *sqltest.DB, sess wire.Session, query string) {
	t.Helper()
	if _, err := prepareNamed(t, db, sess, query, 0).run(); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// A statement planned inside a transaction that rolled back must be
// planned again: the catalog version it saw is reused by the next DDL.
func TestPreparedPlanFromRolledBackCatalogIsReplanned(t *testing.T) {
	db := sqltest.Open(t)
	c := db.Conn()
	sess := newSession(t, db)
	sessExec(t, db, sess, `BEGIN`)
	sessExec(t, db, sess, `CREATE TABLE t (a int)`)
	sel := prepareNamed(t, db, sess, `SELECT * FROM t`, 0)
	sessExec(t, db, sess, `ROLLBACK`)
	c.MustExec(`CREATE TABLE t (b text, a int)`)
	c.MustExec(`INSERT INTO t VALUES ('x', 7)`)
	rows, err := sel.run()
	if err == nil {
		t.Fatalf("stale plan ran: %q", rows)
	}
	if pgerror.CodeOf(err) != pgerror.FeatureNotSupported {
		t.Fatalf("got %v, want cached plan must not change result type", err)
	}
}

// Two DDL statements of one transaction share a catalog version; a
// statement prepared between them must see the second.
func TestPreparedPlanReplannedAfterSecondDDLInTransaction(t *testing.T) {
	db := sqltest.Open(t)
	sess := newSession(t, db)
	sessExec(t, db, sess, `BEGIN`)
	sessExec(t, db, sess, `CREATE TABLE t (a int)`)
	ins := prepareNamed(t, db, sess, `INSERT INTO t VALUES (1)`, 0)
	sessExec(t, db, sess, `ALTER TABLE t ADD COLUMN b int DEFAULT 5`)
	if _, err := ins.run(); err != nil {
		t.Fatal(err)
	}
	sessExec(t, db, sess, `COMMIT`)
	if got := db.Conn().MustExec(`SELECT a, b FROM t`).String(); got != "1|5\n" {
		t.Fatalf("got %q", got)
	}
}

// A portal suspended by a row limit inside a writing transaction keeps
// returning the rows as of its start while later statements of the block
// change the table it reads.
func TestSuspendedPortalUnaffectedByLaterWritesInBlock(t *testing.T) {
	db := sqltest.Open(t)
	c := db.Conn()
	c.MustExec(`CREATE TABLE t (id int PRIMARY KEY, v text)`)
	c.MustExec(`INSERT INTO t SELECT g, repeat('x', 200) FROM generate_series(1, 2000) g`)
	sess := newSession(t, db)
	ctx := context.Background()
	sessExec(t, db, sess, `BEGIN`)
	sessExec(t, db, sess, `INSERT INTO t VALUES (0, 'zero')`)
	portal := bindQuery(t, sess, `SELECT id FROM t`)
	w := &rowsWriter{}
	if _, susp, err := portal.Execute(ctx, 1000, w); err != nil || !susp {
		t.Fatalf("first fetch: suspended %v, %v", susp, err)
	}
	sessExec(t, db, sess, `INSERT INTO t SELECT g, repeat('y', 300) FROM generate_series(5000, 9000) g`)
	sessExec(t, db, sess, `DELETE FROM t WHERE id BETWEEN 900 AND 1500`)
	if _, susp, err := portal.Execute(ctx, 0, w); err != nil || susp {
		t.Fatalf("second fetch: suspended %v, %v", susp, err)
	}
	portal.Close()
	sessExec(t, db, sess, `COMMIT`)
	if len(w.rows) != 2001 {
		t.Fatalf("got %d rows, want 2001", len(w.rows))
	}
	for i, r := range w.rows {
		if r != itoaTest(i) {
			t.Fatalf("row %d is %s", i, r)
		}
	}
}

func itoaTest(i int) string { return strconv.Itoa(i) }

// ON CONFLICT DO UPDATE would rewrite a change event of a flow's source
// behind the flow's back (the target keeps the old event's effect, a
// refresh shows the new one): it is refused like UPDATE.
func TestOnConflictDoUpdateRefusedOnFlowSource(t *testing.T) {
	db := sqltest.Open(t)
	c := db.Conn()
	c.MustExec(`CREATE TABLE src (eid int PRIMARY KEY, id int, v text, seq int)`)
	c.MustExec(`CREATE STREAMING TABLE tgt`)
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO tgt FROM src KEYS (id) SEQUENCE BY seq COLUMNS (id, v)`)
	c.MustExec(`INSERT INTO src VALUES (1, 1, 'a', 1)`)
	c.ExpectError(pgerror.WrongObjectType, `INSERT INTO src VALUES (1, 1, 'b', 2) ON CONFLICT (eid) DO UPDATE SET v = excluded.v, seq = excluded.seq`)
	// DO NOTHING drops the event, which the flow never sees either.
	c.MustExec(`INSERT INTO src VALUES (1, 1, 'b', 2) ON CONFLICT DO NOTHING`)
	c.MustExec(`INSERT INTO src VALUES (2, 1, 'c', 3) ON CONFLICT DO NOTHING`)
	if got := c.MustExec(`SELECT * FROM tgt`).String(); got != "1|c\n" {
		t.Fatalf("got %q", got)
	}
}

// A commit-time range starting before 1970 (a negative microsecond count)
// still finds the archived versions.
func TestSystemTimeRangeFromBefore1970FindsHistory(t *testing.T) {
	db := sqltest.Open(t)
	c := db.Conn()
	c.MustExec(`CREATE TABLE t (id int PRIMARY KEY, v text)`)
	c.MustExec(`INSERT INTO t VALUES (1, 'a')`)
	c.MustExec(`UPDATE t SET v = 'b' WHERE id = 1`)
	want := "1|a\n1|b\n"
	for _, q := range []string{
		`SELECT id, v FROM t FOR SYSTEM_TIME FROM TIMESTAMPTZ '1969-01-01 00:00:00+00' TO TIMESTAMPTZ '2200-01-01 00:00:00+00' ORDER BY v`,
		`SELECT id, v FROM t FOR SYSTEM_TIME BETWEEN TIMESTAMPTZ '1900-01-01 00:00:00+00' AND TIMESTAMPTZ '2200-01-01 00:00:00+00' ORDER BY v`,
		`SELECT id, v FROM t FOR SYSTEM_TIME FROM TIMESTAMPTZ '1970-01-01 00:00:01+00' TO TIMESTAMPTZ '2200-01-01 00:00:00+00' ORDER BY v`,
	} {
		if got := c.MustExec(q).String(); got != want {
			t.Errorf("%s: got %q, want %q", q, got, want)
		}
	}
}

// As in PostgreSQL, one INSERT ... ON CONFLICT DO UPDATE may not change a
// row twice (nor a row it inserted); DO NOTHING skips the repeats.
func TestOnConflictDoUpdateCannotAffectRowTwice(t *testing.T) {
	db := sqltest.Open(t)
	c := db.Conn()
	c.MustExec(`CREATE TABLE t (id int PRIMARY KEY, v text)`)
	c.MustExec(`INSERT INTO t VALUES (2, 'old')`)
	c.ExpectError(pgerror.CardinalityViolation, `INSERT INTO t VALUES (1, 'a'), (1, 'b') ON CONFLICT (id) DO UPDATE SET v = excluded.v`)
	c.ExpectError(pgerror.CardinalityViolation, `INSERT INTO t VALUES (2, 'a'), (2, 'b') ON CONFLICT (id) DO UPDATE SET v = excluded.v`)
	// A row moved by DO UPDATE to a new key is the same row.
	c.ExpectError(pgerror.CardinalityViolation, `INSERT INTO t VALUES (2, 'a'), (3, 'b') ON CONFLICT (id) DO UPDATE SET id = 3`)
	c.MustExec(`INSERT INTO t VALUES (1, 'a'), (1, 'b') ON CONFLICT DO NOTHING`)
	c.MustExec(`INSERT INTO t VALUES (2, 'new'), (4, 'd') ON CONFLICT (id) DO UPDATE SET v = excluded.v`)
	if got := c.MustExec(`SELECT * FROM t ORDER BY id`).String(); got != "1|a\n2|new\n4|d\n" {
		t.Fatalf("got %q", got)
	}
}

// ADD COLUMN serial numbers the existing rows from the new sequence.
func TestAddSerialColumnToNonEmptyTable(t *testing.T) {
	db := sqltest.Open(t)
	c := db.Conn()
	c.MustExec(`CREATE TABLE t (id int PRIMARY KEY)`)
	c.MustExec(`INSERT INTO t VALUES (1), (2)`)
	c.MustExec(`ALTER TABLE t ADD COLUMN s serial`)
	c.MustExec(`INSERT INTO t (id) VALUES (3)`)
	if got := c.MustExec(`SELECT id, s FROM t ORDER BY id`).String(); got != "1|1\n2|2\n3|3\n" {
		t.Fatalf("got %q", got)
	}
}

// An INSERT prepared before CREATE FLOW in the same transaction feeds the
// flow: it is planned again when the catalog changes under the same
// version.
func TestPreparedInsertFeedsFlowCreatedLaterInTransaction(t *testing.T) {
	db := sqltest.Open(t)
	sess := newSession(t, db)
	sessExec(t, db, sess, `BEGIN`)
	sessExec(t, db, sess, `CREATE TABLE src (id int, v text, seq int)`)
	ins := prepareNamed(t, db, sess, `INSERT INTO src VALUES (1, 'a', 1)`, 0)
	sessExec(t, db, sess, `CREATE STREAMING TABLE tgt`)
	sessExec(t, db, sess, `CREATE FLOW f AS AUTO CDC INTO tgt FROM src KEYS (id) SEQUENCE BY seq`)
	if _, err := ins.run(); err != nil {
		t.Fatal(err)
	}
	sessExec(t, db, sess, `COMMIT`)
	if got := db.Conn().MustExec(`SELECT * FROM tgt`).String(); got != "1|a|1\n" {
		t.Fatalf("got %q", got)
	}
}

// The compiled flow cached during CREATE FLOW is not reused after a later
// DDL statement of the same transaction changed the source.
func TestFlowRecompiledAfterSourceChangedInSameTransaction(t *testing.T) {
	db := sqltest.Open(t)
	c := db.Conn()
	c.MustExec(`BEGIN`)
	c.MustExec(`CREATE TABLE src (id int, v text, seq int)`)
	c.MustExec(`CREATE STREAMING TABLE tgt`)
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO tgt FROM src KEYS (id) SEQUENCE BY seq COLUMNS (id, v)`)
	// The flow's columns are fixed while it exists (ALTER is refused), so
	// change the source the supported way: drop the flow, alter, recreate.
	c.MustExec(`DROP FLOW f`)
	c.MustExec(`ALTER TABLE src DROP COLUMN v`)
	c.MustExec(`ALTER TABLE src ADD COLUMN v text`)
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO tgt FROM src KEYS (id) SEQUENCE BY seq COLUMNS (id, v)`)
	c.MustExec(`INSERT INTO src (id, v, seq) VALUES (1, 'a', 1)`)
	c.MustExec(`COMMIT`)
	c.MustExec(`INSERT INTO src (id, v, seq) VALUES (2, 'b', 1)`)
	if got := c.MustExec(`SELECT * FROM tgt ORDER BY id`).String(); got != "1|a\n2|b\n" {
		t.Fatalf("got %q", got)
	}
}
