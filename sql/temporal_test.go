package sql_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdcdb/pgerror"
	"cdcdb/sql/sqltest"
)

// walkThrough is the spec's §5 example: CompanyId A, one event per
// statement.
var walkThrough = []string{
	"('A', 'XFv1', '2025-07-18 10:01:00', '2025-07-18 10:05:00', 'INSERT')",
	"('A', 'XFv2', '2025-07-18 12:15:43', '2025-07-18 12:20:00', 'UPDATE')",
	"('A', 'XFv3', '2025-07-18 12:05:00', '2025-07-18 12:25:00', 'UPDATE')",
	"('A', 'XFv2', '2025-07-18 12:30:00', '2025-07-18 12:30:00', 'DELETE')",
}

var walkThroughStates = [][]string{
	{"A|XFv1|10:01:00|NULL|10:05:00|NULL"},
	{"A|XFv1|10:01:00|NULL|10:05:00|12:20:00",
		"A|XFv1|10:01:00|12:15:43|12:20:00|NULL",
		"A|XFv2|12:15:43|NULL|12:20:00|NULL"},
	{"A|XFv1|10:01:00|NULL|10:05:00|12:20:00",
		"A|XFv1|10:01:00|12:15:43|12:20:00|12:25:00",
		"A|XFv1|10:01:00|12:05:00|12:25:00|NULL",
		"A|XFv3|12:05:00|12:15:43|12:25:00|NULL",
		"A|XFv2|12:15:43|NULL|12:20:00|NULL"},
	{"A|XFv1|10:01:00|NULL|10:05:00|12:20:00",
		"A|XFv1|10:01:00|12:15:43|12:20:00|12:25:00",
		"A|XFv1|10:01:00|12:05:00|12:25:00|NULL",
		"A|XFv3|12:05:00|12:15:43|12:25:00|NULL",
		"A|XFv2|12:15:43|NULL|12:20:00|12:30:00",
		"A|XFv2|12:15:43|12:30:00|12:30:00|NULL"},
}

func bitemporalSetup(t *testing.T) *sqltest.Conn {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE ev (CompanyId text, DataPoint text, bt timestamp, st timestamp, op text)")
	c.MustExec("CREATE STREAMING TABLE h")
	c.MustExec(`CREATE FLOW hf AS AUTO CDC INTO h FROM stream(ev) KEYS (CompanyId) APPLY AS DELETE WHEN op = "DELETE"
		SEQUENCE BY bt SYSTEM SEQUENCE BY st COLUMNS * EXCEPT (bt, st, op) STORED AS BITEMPORAL`)
	return c
}

// timesOnly shortens '2025-07-18 12:20:00' to '12:20:00' in a result.
func timesOnly(r sqltest.Result) []string {
	var out []string
	for _, row := range r.Rows {
		out = append(out, strings.ReplaceAll(strings.Join(row, "|"), "2025-07-18 ", ""))
	}
	return out
}

func TestBitemporalWalkThrough(t *testing.T) {
	c := bitemporalSetup(t)
	for i, e := range walkThrough {
		c.MustExec("INSERT INTO ev VALUES " + e)
		got := timesOnly(c.MustExec("SELECT * FROM h ORDER BY __start_at, __system_start_at"))
		want := append([]string(nil), walkThroughStates[i]...)
		sortStrings(got)
		sortStrings(want)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("after step %d:\n%s\nwant\n%s", i+1, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	for _, tc := range []struct{ q, want string }{
		// What did we believe at 12:22 about 12:10?
		{"SELECT DataPoint FROM h FOR SYSTEM_TIME AS OF TIMESTAMP '2025-07-18 12:22:00' FOR BUSINESS_TIME AS OF TIMESTAMP '2025-07-18 12:10:00'", "XFv1\n"},
		// What do we believe now? (clauses in the other order)
		{"SELECT DataPoint FROM h FOR BUSINESS_TIME AS OF TIMESTAMP '2025-07-18 12:10:00' FOR SYSTEM_TIME AS OF now()", "XFv3\n"},
		// At system time 10:04:59 the table was empty.
		{"SELECT count(*) FROM h FOR SYSTEM_TIME AS OF TIMESTAMP '2025-07-18 10:04:59'", "0\n"},
		{"SELECT DataPoint FROM h FOR VALID_TIME AS OF TIMESTAMP '2025-07-18 12:10:00' FOR SYSTEM_TIME AS OF TIMESTAMP '2025-07-18 12:20:00' AS h1", "XFv1\n"},
	} {
		if got := c.MustExec(tc.q).String(); got != tc.want {
			t.Errorf("%s\ngot %q want %q", tc.q, got, tc.want)
		}
	}
}

func TestBitemporalWalkThroughAnyOrder(t *testing.T) {
	want := append([]string(nil), walkThroughStates[3]...)
	sortStrings(want)
	for _, order := range [][]int{{3, 2, 1, 0}, {2, 0, 3, 1}, {1, 3, 0, 2}} {
		c := bitemporalSetup(t)
		for _, i := range order {
			c.MustExec("INSERT INTO ev VALUES " + walkThrough[i])
		}
		got := timesOnly(c.MustExec("SELECT * FROM h"))
		sortStrings(got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("order %v:\n%s\nwant\n%s", order, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func TestBitemporalSmallExample(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE e (id int, x text, y text, bt int, st int)")
	c.MustExec("CREATE STREAMING TABLE b")
	c.MustExec("CREATE FLOW f AS AUTO CDC INTO b FROM e KEYS (id) SEQUENCE BY bt SYSTEM SEQUENCE BY st COLUMNS id, x, y STORED AS BITEMPORAL")
	c.MustExec("INSERT INTO e VALUES (1, 'x20', 'y20', 20, 200)")
	c.MustExec("INSERT INTO e VALUES (1, 'x10', 'y10', 10, 100)")
	got := c.MustExec("SELECT x, __start_at, __end_at, __system_start_at, __system_end_at FROM b ORDER BY 2, 4").String()
	want := "x10|10|NULL|100|200\nx10|10|20|200|NULL\nx20|20|NULL|200|NULL\n"
	if got != want {
		t.Fatalf("got\n%swant\n%s", got, want)
	}
}

// TestPeriodBounds checks the closed-open rules on an SCD TYPE 2 target
// with integer periods: versions [1,5), [5,6) and [6,NULL) of key 125.
func TestPeriodBounds(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec(usersSource)
	c.MustExec(usersFlow("SCD TYPE 2", ""))
	c.MustExec("INSERT INTO users_cdf VALUES " + strings.Join(usersEvents, ", "))
	for _, tc := range []struct{ q, want string }{
		{"FOR BUSINESS_TIME AS OF 2", "Tijuana"},  // at a start
		{"FOR BUSINESS_TIME AS OF 5", "Mexicali"}, // at an end: the next version
		{"FOR BUSINESS_TIME AS OF 4", "Tijuana"},
		{"FOR BUSINESS_TIME AS OF 100", "Guadalajara"},            // NULL end is open
		{"FOR BUSINESS_TIME AS OF 1", ""},                         // before the first version
		{"FOR BUSINESS_TIME FROM 2 TO 5", "Tijuana"},              // [2,5) does not reach 5
		{"FOR BUSINESS_TIME BETWEEN 2 AND 5", "Mexicali,Tijuana"}, // [2,5] does
		{"FOR BUSINESS_TIME FROM 5 TO 5", ""},                     // empty range
		{"FOR BUSINESS_TIME BETWEEN 6 AND 5", ""},                 // empty range
		{"FOR BUSINESS_TIME BETWEEN 5 AND 5", "Mexicali"},
		{"FOR BUSINESS_TIME ALL", "Guadalajara,Mexicali,Tijuana"},
		{"FOR BUSINESS_TIME AS OF NULL", ""},
	} {
		q := "SELECT string_agg(city, ',' ORDER BY city) FROM users_current " + tc.q + " WHERE userId = 125"
		got := c.MustExec(q).Rows[0][0]
		if got == "NULL" {
			got = ""
		}
		if got != tc.want {
			t.Errorf("%s: got %q want %q", tc.q, got, tc.want)
		}
	}
	// Parameters as bounds, and per-table clauses in a join.
	if got := c.MustExec("SELECT city FROM users_current FOR BUSINESS_TIME AS OF $1 WHERE userId = $2", "5", "123").String(); got != "Chihuahua\n" {
		t.Errorf("parameters: got %q", got)
	}
	got := c.MustExec(`SELECT a.userId, a.city, b.city FROM users_current FOR BUSINESS_TIME AS OF 2 AS a
		JOIN users_current FOR BUSINESS_TIME AS OF 6 AS b ON a.userId = b.userId ORDER BY 1`).String()
	if got != "124|Oaxaca|Oaxaca\n125|Tijuana|Guadalajara\n126|Lily|Lily\n" && got != "124|Oaxaca|Oaxaca\n125|Tijuana|Guadalajara\n126|Cancun|Cancun\n" {
		t.Errorf("join: got %q", got)
	}
	// A lookup by the flow's key reads only that key's versions.
	if plan := c.MustExec("EXPLAIN SELECT city FROM users_current FOR BUSINESS_TIME AS OF 5 WHERE userId = 125").String(); !strings.Contains(plan, "Key Range Scan") {
		t.Errorf("point business-time plan: %s", plan)
	}
	c.ExpectError(pgerror.WrongObjectType, "SELECT * FROM users_cdf FOR BUSINESS_TIME AS OF 3")
	c.ExpectError(pgerror.SyntaxError, "SELECT * FROM users_current FOR BUSINESS_TIME AS OF 3 FOR BUSINESS_TIME AS OF 4")
}

// TestCommitTimeTravel reads a plain table and an SCD TYPE 1 target as they
// were committed at earlier moments.
func TestCommitTimeTravel(t *testing.T) {
	c := sqltest.Open(t).Conn()
	mark := func() string { return commitMark(c) }
	t0 := mark()
	c.MustExec("CREATE TABLE acct (id int PRIMARY KEY, balance int)")
	c.MustExec("INSERT INTO acct VALUES (1, 100), (2, 200)")
	t1 := mark()
	c.MustExec("UPDATE acct SET balance = 150 WHERE id = 1")
	t2 := mark()
	c.MustExec("DELETE FROM acct WHERE id = 2")
	t3 := mark()
	c.MustExec("INSERT INTO acct VALUES (2, 250)")
	for _, tc := range []struct{ clause, want string }{
		{"FOR SYSTEM_TIME AS OF '" + t0 + "'", ""},
		{"FOR SYSTEM_TIME AS OF '" + t1 + "'", "1|100\n2|200\n"},
		{"FOR SYSTEM_TIME AS OF '" + t2 + "'", "1|150\n2|200\n"},
		{"FOR SYSTEM_TIME AS OF '" + t3 + "'", "1|150\n"},
		{"", "1|150\n2|250\n"},
		{"FOR SYSTEM_TIME ALL", "1|100\n1|150\n2|200\n2|250\n"},
		{"FOR SYSTEM_TIME FROM '" + t1 + "' TO '" + t2 + "'", "1|100\n1|150\n2|200\n"},
		{"FOR SYSTEM_TIME BETWEEN '" + t2 + "' AND '" + t3 + "'", "1|150\n2|200\n"},
		{"FOR SYSTEM_TIME AS OF now() - interval '1 day'", ""},
		{"FOR SYSTEM_TIME AS OF now()", "1|150\n2|250\n"},
		{"FOR SYSTEM_TIME FROM '" + t2 + "' TO '" + t1 + "'", ""},
	} {
		if got := c.MustExec("SELECT * FROM acct " + tc.clause + " ORDER BY 1, 2").String(); got != tc.want {
			t.Errorf("%s: got %q want %q", tc.clause, got, tc.want)
		}
	}
	// Point lookups by key are seeks in the key's versions.
	if got := c.MustExec("SELECT balance FROM acct FOR SYSTEM_TIME AS OF $1 WHERE id = $2", t1, "1").String(); got != "100\n" {
		t.Errorf("point AS OF: %q", got)
	}
	plan := c.MustExec("EXPLAIN SELECT balance FROM acct FOR SYSTEM_TIME AS OF '" + t1 + "' WHERE id = 1").String()
	if !strings.Contains(plan, "History Seek") {
		t.Errorf("point AS OF plan: %s", plan)
	}
	plan = c.MustExec("EXPLAIN SELECT balance FROM acct FOR SYSTEM_TIME AS OF '" + t1 + "'").String()
	if !strings.Contains(plan, "versions ended after") {
		t.Errorf("table AS OF plan: %s", plan)
	}

	// An SCD TYPE 1 target keeps its commit-time versions too.
	c.MustExec(usersSource)
	c.MustExec(usersFlow("SCD TYPE 1", truncateClause))
	c.MustExec("INSERT INTO users_cdf VALUES (1, 'Ana', 'Lima', 'INSERT', 1)")
	u1 := mark()
	c.MustExec("INSERT INTO users_cdf VALUES (1, 'Ana', 'Quito', 'UPDATE', 2)")
	if got := c.MustExec("SELECT city FROM users_current FOR SYSTEM_TIME AS OF '" + u1 + "'").String(); got != "Lima\n" {
		t.Errorf("SCD1 AS OF: %q", got)
	}
	if got := c.MustExec("SELECT city FROM users_current").String(); got != "Quito\n" {
		t.Errorf("SCD1 now: %q", got)
	}
}

// TestSCD2CommitTimeTravel: an SCD TYPE 2 target read as it was committed:
// a version closed by a later event was open before that commit, whether
// the version it ended was archived or kept in its row's value (a target
// keeps it there until the row changes again, as a late event's rewrite
// does), and history_retention hides what it prunes of either.
func TestSCD2CommitTimeTravel(t *testing.T) {
	c := sqltest.Open(t).Conn()
	mark := func() string { return commitMark(c) }
	c.MustExec(usersSource)
	c.MustExec(usersFlow("SCD TYPE 2", ""))
	c.MustExec("INSERT INTO users_cdf VALUES (1, 'Ana', 'Lima', 'INSERT', 10)")
	t1 := mark()
	c.MustExec("INSERT INTO users_cdf VALUES (1, 'Ana', 'Quito', 'UPDATE', 20)")
	t2 := mark()
	// Late: splits the first version, rewriting the row that kept it open.
	c.MustExec("INSERT INTO users_cdf VALUES (1, 'Ana', 'Cusco', 'UPDATE', 15)")
	t3 := mark()
	c.MustExec("INSERT INTO users_cdf VALUES (1, NULL, NULL, 'DELETE', 30)")
	const q = "SELECT city, __START_AT, __END_AT FROM users_current "
	for _, tc := range []struct{ clause, want string }{
		{"FOR SYSTEM_TIME AS OF '" + t1 + "'", "Lima|10|NULL\n"},
		{"FOR SYSTEM_TIME AS OF '" + t2 + "'", "Lima|10|20\nQuito|20|NULL\n"},
		{"FOR SYSTEM_TIME AS OF '" + t3 + "'", "Lima|10|15\nCusco|15|20\nQuito|20|NULL\n"},
		{"", "Lima|10|15\nCusco|15|20\nQuito|20|30\n"},
		{"FOR SYSTEM_TIME ALL", "Lima|10|NULL\nLima|10|15\nLima|10|20\nCusco|15|20\nQuito|20|NULL\nQuito|20|30\n"},
		{"FOR SYSTEM_TIME FROM '" + t1 + "' TO '" + t2 + "'", "Lima|10|NULL\nLima|10|20\nQuito|20|NULL\n"},
	} {
		got := c.MustExec(q + tc.clause + " ORDER BY 2, 3 NULLS FIRST").String()
		if got != tc.want {
			t.Errorf("%s: got %q want %q", tc.clause, got, tc.want)
		}
	}
	for _, tc := range []struct{ at, want string }{{t1, "Lima|10|NULL\n"}, {t2, "Lima|10|20\n"}, {t3, "Lima|10|15\n"}} {
		if got := c.MustExec(q+"FOR SYSTEM_TIME AS OF $1 WHERE userId = 1 AND __START_AT = 10", tc.at).String(); got != tc.want {
			t.Errorf("point AS OF %s: got %q want %q", tc.at, got, tc.want)
		}
	}
	c.MustExec("ALTER TABLE users_current SET (history_retention = '0 seconds')")
	c.MustExec("INSERT INTO users_cdf VALUES (2, 'Bo', 'Oslo', 'INSERT', 40)")
	// Left: the current rows; every version that ended before this write
	// is gone, archived or kept in a row's value.
	if got := c.MustExec(q + "FOR SYSTEM_TIME ALL ORDER BY 2").String(); got != "Lima|10|15\nCusco|15|20\nQuito|20|30\nOslo|40|NULL\n" {
		t.Errorf("after retention: %q", got)
	}
	// With a longer retention, a late event rewrites the row that kept a
	// pruned version: that version stays gone, and the one the rewrite
	// ends is kept.
	c.MustExec("ALTER TABLE users_current SET (history_retention = '1 year')")
	c.MustExec("INSERT INTO users_cdf VALUES (1, 'Ana', 'Lima', 'UPDATE', 25)")
	if got := c.MustExec(q + "FOR SYSTEM_TIME ALL ORDER BY 2, 3").String(); got != "Lima|10|15\nCusco|15|20\nQuito|20|25\nQuito|20|30\nLima|25|30\nOslo|40|NULL\n" {
		t.Errorf("after a rewrite under a longer retention: %q", got)
	}
}

// TestFlowTargetsKeepEveryCommitVersion: a flow's target row changed in
// place commit after commit (SCD TYPE 1, and SCD TYPE 2 with a change to
// untracked columns only) keeps each committed version, whether the key's
// row came from the flow's state cache or the file, and a version written
// and replaced within one transaction, never visible, is not kept.
func TestFlowTargetsKeepEveryCommitVersion(t *testing.T) {
	for _, tc := range []struct{ storedAs, extra, current string }{
		{"SCD TYPE 1", "", ""},
		{"SCD TYPE 2", "", " WHERE __END_AT IS NULL"},
		{"SCD TYPE 2", "TRACK HISTORY ON * EXCEPT (city)", " WHERE __END_AT IS NULL"},
	} {
		t.Run(tc.storedAs+" "+tc.extra, func(t *testing.T) {
			c := sqltest.Open(t).Conn()
			c.MustExec(usersSource)
			c.MustExec(usersFlow(tc.storedAs, tc.extra))
			event := func(city string, seq int) string {
				return fmt.Sprintf("INSERT INTO users_cdf VALUES (1, 'Ana', '%s', 'UPDATE', %d)", city, seq)
			}
			var marks []string
			c.MustExec(event("Lima", 10))
			marks = append(marks, commitMark(c))
			c.MustExec(event("Quito", 20))
			marks = append(marks, commitMark(c))
			c.MustExec("BEGIN")
			c.MustExec(event("Cusco", 30))
			c.MustExec(event("Oaxaca", 40))
			c.MustExec("COMMIT")
			marks = append(marks, commitMark(c))
			c.MustExec(event("Puno", 50))
			marks = append(marks, commitMark(c))
			c.MustExec(event("Tacna", 60))
			for i, want := range []string{"Lima\n", "Quito\n", "Oaxaca\n", "Puno\n"} {
				got := c.MustExec("SELECT city FROM users_current FOR SYSTEM_TIME AS OF $1"+tc.current, marks[i]).String()
				if got != want {
					t.Errorf("AS OF the mark after commit %d: %q, want %q", i+1, got, want)
				}
			}
			if got := c.MustExec("SELECT city FROM users_current" + tc.current).String(); got != "Tacna\n" {
				t.Errorf("now: %q", got)
			}
		})
	}
}

// commitMark returns an instant between the commits before it and those
// after it.
func commitMark(c *sqltest.Conn) string {
	time.Sleep(2 * time.Millisecond)
	m := c.MustExec("SELECT clock_timestamp()::text").Rows[0][0]
	time.Sleep(2 * time.Millisecond)
	return m
}

// TestHistoryRetention: only history_retention removes history.
func TestHistoryRetention(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE k (id int PRIMARY KEY, v int)")
	c.MustExec("INSERT INTO k VALUES (1, 1)")
	for i := 2; i <= 5; i++ {
		c.MustExec("UPDATE k SET v = $1 WHERE id = 1", itoa(i))
	}
	if got := c.MustExec("SELECT count(*) FROM k FOR SYSTEM_TIME ALL").String(); got != "5\n" {
		t.Fatalf("versions kept: %q", got)
	}
	c.ExpectError(pgerror.InvalidParameterValue, "ALTER TABLE k SET (history_retention = 'soon')")
	c.MustExec("ALTER TABLE k SET (history_retention = '0 seconds')")
	c.MustExec("UPDATE k SET v = 6 WHERE id = 1")
	// Left: the current version and the one this UPDATE ended (it ended at
	// the commit time itself, inside a zero-length window).
	if got := c.MustExec("SELECT count(*) FROM k FOR SYSTEM_TIME ALL").String(); got != "2\n" {
		t.Fatalf("after retention: %q", got)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func sortStrings(xs []string) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
