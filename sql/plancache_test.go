package sql_test

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdcdb/sql/sqltest"
	"cdcdb/wire"
)

// The plan cache must be invisible: each test below runs one query text
// before and after a change that alters what it means, and fails if the
// second run was answered by the first run's plan.

func columnsAndRows(r sqltest.Result) string {
	return strings.Join(r.Columns, ",") + "\n" + r.String()
}

func expectResult(t *testing.T, c *sqltest.Conn, query, want string) {
	t.Helper()
	if got := columnsAndRows(c.MustExec(query)); got != want {
		t.Errorf("%s:\ngot  %q\nwant %q", query, got, want)
	}
}

func TestPlanCacheFollowsDDL(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE t (a int)")
	c.MustExec("INSERT INTO t VALUES (1)")
	const q = "SELECT * FROM t"
	expectResult(t, c, q, "a\n1\n")
	expectResult(t, c, q, "a\n1\n")
	c.MustExec("ALTER TABLE t ADD COLUMN b text DEFAULT 'x'")
	expectResult(t, c, q, "a,b\n1|x\n")
	c.MustExec("DROP TABLE t")
	c.ExpectError("42P01", q)
	c.MustExec("CREATE TABLE t (a text)")
	c.MustExec("INSERT INTO t VALUES ('z')")
	expectResult(t, c, q, "a\nz\n")
}

func TestPlanCacheFollowsAnotherSessionsDDL(t *testing.T) {
	db := sqltest.Open(t)
	c1, c2 := db.Conn(), db.Conn()
	c1.MustExec("CREATE TABLE t (a int)")
	c1.MustExec("INSERT INTO t VALUES (1)")
	const q = "SELECT * FROM t"
	expectResult(t, c1, q, "a\n1\n")
	c2.MustExec("ALTER TABLE t ADD COLUMN b int DEFAULT 2")
	expectResult(t, c1, q, "a,b\n1|2\n")
	c2.MustExec("ALTER TABLE t DROP COLUMN a")
	expectResult(t, c1, q, "b\n2\n")
}

func TestPlanCacheAfterRollback(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE t (a int)")
	c.MustExec("INSERT INTO t VALUES (1)")

	// A table made and read inside a block that rolls back is gone.
	c.MustExec("BEGIN")
	c.MustExec("CREATE TABLE r (a int)")
	expectResult(t, c, "SELECT * FROM r", "a\n")
	c.MustExec("ROLLBACK")
	c.ExpectError("42P01", "SELECT * FROM r")

	// A column added inside a block that rolls back is gone too.
	const q = "SELECT * FROM t"
	expectResult(t, c, q, "a\n1\n")
	c.MustExec("BEGIN")
	c.MustExec("ALTER TABLE t ADD COLUMN b int DEFAULT 5")
	expectResult(t, c, q, "a,b\n1|5\n")
	c.MustExec("ROLLBACK")
	expectResult(t, c, q, "a\n1\n")

	// The catalog version a rolled-back block used is used again by the
	// next change, and the statements of one block share one version.
	c.MustExec("BEGIN")
	c.MustExec("ALTER TABLE t ADD COLUMN b int DEFAULT 5")
	expectResult(t, c, q, "a,b\n1|5\n")
	c.MustExec("ALTER TABLE t ADD COLUMN b2 int DEFAULT 6")
	expectResult(t, c, q, "a,b,b2\n1|5|6\n")
	c.MustExec("ROLLBACK")
	c.MustExec("ALTER TABLE t ADD COLUMN z int DEFAULT 9")
	expectResult(t, c, q, "a,z\n1|9\n")
	c.MustExec("ALTER TABLE t DROP COLUMN z")

	// One that commits stays, whether the query was planned before or
	// inside the block.
	c.MustExec("BEGIN")
	c.MustExec("ALTER TABLE t ADD COLUMN c int DEFAULT 7")
	expectResult(t, c, q, "a,c\n1|7\n")
	c.MustExec("COMMIT")
	expectResult(t, c, q, "a,c\n1|7\n")
}

func TestPlanCacheInFailedBlock(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("BEGIN")
	expectResult(t, c, "SELECT 1 AS one", "one\n1\n")
	c.ExpectError("22012", "SELECT 1/0")
	c.ExpectError("25P02", "SELECT 1 AS one")
	c.MustExec("ROLLBACK")
	expectResult(t, c, "SELECT 1 AS one", "one\n1\n")
}

func TestPlanCacheFollowsSearchPath(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE SCHEMA s1")
	c.MustExec("CREATE TABLE t (a text)")
	c.MustExec("CREATE TABLE s1.t (a text)")
	c.MustExec("INSERT INTO t VALUES ('public')")
	c.MustExec("INSERT INTO s1.t VALUES ('s1')")
	// 't'::regclass is resolved when the query is planned.
	const q = "SELECT a, 't'::regclass = 's1.t'::regclass AS in_s1 FROM t"
	expectResult(t, c, q, "a,in_s1\npublic|f\n")
	c.MustExec("SET search_path = s1, public")
	expectResult(t, c, q, "a,in_s1\ns1|t\n")
	c.MustExec("RESET search_path")
	expectResult(t, c, q, "a,in_s1\npublic|f\n")
	c.MustExec("SELECT set_config('search_path', 's1', false)")
	expectResult(t, c, q, "a,in_s1\ns1|t\n")
}

func TestPlanCacheFollowsTimeZone(t *testing.T) {
	// A timestamptz literal without an offset is read, when the query is
	// planned, in the session's time zone.
	c := sqltest.Open(t).Conn()
	const q = "SELECT extract(epoch FROM timestamptz '2024-01-01 00:00:00') AS e"
	expectResult(t, c, q, "e\n1704067200.000000\n")
	c.MustExec("SET TimeZone = 'Asia/Tokyo'")
	expectResult(t, c, q, "e\n1704034800.000000\n")
}

// TestPlanCacheFollowsTheClock: 'now', 'today' and the like are read when a
// query is planned, and PostgreSQL plans every simple Query afresh, so the
// same text sent again reads the clock again, whichever way the literal
// meets its type (a cast, a comparison, an AS OF bound) and also when the
// text is one the generic plan of its numbers would serve.
func TestPlanCacheFollowsTheClock(t *testing.T) {
	c := sqltest.Open(t).Conn()
	// Instants have microseconds: a few milliseconds apart, two readings
	// of the clock differ.
	tick := func() { time.Sleep(5 * time.Millisecond) }
	instant := func(q string) time.Time {
		t.Helper()
		s := c.MustExec(q).Rows[0][0]
		at, err := time.Parse("2006-01-02 15:04:05.999999-07", s)
		if err != nil {
			at, err = time.Parse("2006-01-02 15:04:05.999999", s)
		}
		if err != nil {
			t.Fatalf("%s: %q is no instant", q, s)
		}
		return at
	}
	for _, q := range []string{
		"SELECT 'now'::timestamptz AS t",
		"SELECT CAST('now' AS timestamp) AS t",
		"SELECT timestamptz 'now' AS t",
	} {
		first := instant(q)
		tick()
		if second := instant(q); !second.After(first) {
			t.Errorf("%s: %v, then %v a moment later", q, first, second)
		}
	}
	// Seen once, twice (where the generic plan would be made), then again.
	var last time.Time
	for n := 1; n <= 4; n++ {
		q := fmt.Sprintf("SELECT 'now'::timestamptz AS t, %d AS n", n)
		at := instant(q)
		if !at.After(last) {
			t.Errorf("%s: %v, after %v", q, at, last)
		}
		last = at
		tick()
	}

	// A row stamped after the first run is before 'now' in the second.
	c.MustExec("CREATE TABLE ev (at timestamptz)")
	const before = "SELECT count(*) AS n FROM ev WHERE at < 'now'"
	expectResult(t, c, before, "n\n0\n")
	c.MustExec("INSERT INTO ev VALUES (clock_timestamp())")
	tick()
	expectResult(t, c, before, "n\n1\n")

	// AS OF 'now' sees what was committed since the first run.
	c.MustExec("CREATE TABLE acct (id int PRIMARY KEY, balance int)")
	c.MustExec("INSERT INTO acct VALUES (1, 100)")
	tick()
	const asOf = "SELECT balance FROM acct FOR SYSTEM_TIME AS OF 'now'"
	expectResult(t, c, asOf, "balance\n100\n")
	c.MustExec("UPDATE acct SET balance = 150")
	tick()
	expectResult(t, c, asOf, "balance\n150\n")
}

func TestPlanCacheFollowsDialect(t *testing.T) {
	c := sqltest.Open(t).Conn()
	const q = `SELECT "a" AS v FROM (SELECT 1 AS a) s`
	expectResult(t, c, q, "v\n1\n")
	c.MustExec("SET cdcdb.dialect = 'databricks'")
	got := columnsAndRows(c.MustExec(q))
	if got != "v\na\n" {
		t.Errorf("databricks dialect: got %q, want the string literal", got)
	}
	c.MustExec("SET cdcdb.dialect = 'postgres'")
	expectResult(t, c, q, "v\n1\n")
}

func TestPlanCacheKeysOnDeclaredParameterTypes(t *testing.T) {
	db := sqltest.Open(t)
	s, err := db.Engine.NewSession(context.Background(), wire.StartupInfo{User: "cdcdb", Database: "main"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	typeOf := func(paramTypes []uint32) uint32 {
		t.Helper()
		sts, err := s.Parse(context.Background(), "SELECT $1", paramTypes)
		if err != nil {
			t.Fatal(err)
		}
		return sts[0].Fields()[0].TypeOID
	}
	for _, want := range []uint32{23, 25, 23, 0, 20} {
		got := typeOf([]uint32{want})
		if want == 0 {
			want = 25 // an unknown parameter is text
		}
		if got != want {
			t.Errorf("SELECT $1 declared %d: result type %d", want, got)
		}
	}
}

// TestPlanCachedPreparedStatementsAreIndependent runs two portals of one
// cached text at once: a plan is shared, its executions must not be.
func TestPlanCachedPreparedStatementsAreIndependent(t *testing.T) {
	db := sqltest.Open(t)
	c := db.Conn()
	c.MustExec("CREATE TABLE t (a int)")
	c.MustExec("INSERT INTO t SELECT generate_series(1, 10)")
	s, err := db.Engine.NewSession(context.Background(), wire.StartupInfo{User: "cdcdb", Database: "main"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	const q = "SELECT a FROM t WHERE a > $1 ORDER BY a"
	var portals []wire.Portal
	for _, from := range []string{"2", "7"} {
		sts, err := s.Parse(ctx, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := sts[0].Bind(ctx, [][]byte{[]byte(from)}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		portals = append(portals, p)
		defer p.Close() // a suspended portal holds its snapshot open
	}
	var got []string
	for round := 0; round < 3; round++ {
		for i, p := range portals {
			w := &rowsWriter{}
			if _, _, err := p.Execute(ctx, 1, w); err != nil {
				t.Fatal(err)
			}
			got = append(got, string(rune('A'+i))+strings.Join(w.rows, ""))
		}
	}
	if want := "A3 B8 A4 B9 A5 B10"; strings.Join(got, " ") != want {
		t.Errorf("interleaved portals: got %q, want %q", strings.Join(got, " "), want)
	}
}

// TestNowAsTimeIsTheSessionsWallClock: 'now' read as a time of day is the
// wall clock in the session's time zone, as LOCALTIME is, not UTC's.
func TestNowAsTimeIsTheSessionsWallClock(t *testing.T) {
	c := sqltest.Open(t).Conn()
	for _, zone := range []string{"UTC", "Asia/Tokyo", "America/New_York", "Asia/Kolkata"} {
		c.MustExec("SET TimeZone = '" + zone + "'")
		s := c.MustExec("SELECT extract(epoch FROM 'now'::time - localtime)").Rows[0][0]
		d, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%s: %q", zone, s)
		}
		// Two readings of the clock, a moment apart; around midnight the
		// difference of the two times of day wraps by a day.
		if math.Abs(d) > 2 && math.Abs(math.Abs(d)-86400) > 2 {
			t.Errorf("%s: 'now'::time is %ss from LOCALTIME", zone, s)
		}
	}
}
