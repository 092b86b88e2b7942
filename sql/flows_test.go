package sql_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"cdcdb/pgerror"
	"cdcdb/sql/sqltest"
)

// The spec's SCD example events (spec §3), one INSERT row each.
var usersEvents = []string{
	"(124, 'Raul', 'Oaxaca', 'INSERT', 1)",
	"(123, 'Isabel', 'Monterrey', 'INSERT', 1)",
	"(125, 'Mercedes', 'Tijuana', 'INSERT', 2)",
	"(126, 'Lily', 'Cancun', 'INSERT', 2)",
	"(123, NULL, NULL, 'DELETE', 6)",
	"(125, 'Mercedes', 'Guadalajara', 'UPDATE', 6)",
	"(125, 'Mercedes', 'Mexicali', 'UPDATE', 5)",
	"(123, 'Isabel', 'Chihuahua', 'UPDATE', 5)",
}

const usersSource = `CREATE TABLE users_cdf (userId int, name text, city text, operation text, sequenceNum int)`

func usersFlow(storedAs, extra string) string {
	return `CREATE OR REFRESH STREAMING TABLE users_current;
CREATE FLOW apply_cdc AS AUTO CDC INTO users_current
FROM stream(users_cdf) KEYS (userId)
APPLY AS DELETE WHEN operation = "DELETE"
` + extra + `
SEQUENCE BY sequenceNum
COLUMNS * EXCEPT (operation, sequenceNum)
STORED AS ` + storedAs
}

const truncateClause = `APPLY AS TRUNCATE WHEN operation = "TRUNCATE"`

// arrangements lists ways to deliver events: in the spec's order, reversed,
// shuffled, in random batches, and some rows before CREATE FLOW.
type arrangement struct {
	name       string
	beforeFlow int     // how many batches go in before CREATE FLOW
	batches    [][]int // event indexes per INSERT statement
}

func arrangements(n int, seed uint64) []arrangement {
	rng := rand.New(rand.NewPCG(seed, 7))
	one := func(order []int) [][]int {
		var b [][]int
		for _, i := range order {
			b = append(b, []int{i})
		}
		return b
	}
	inOrder := make([]int, n)
	for i := range inOrder {
		inOrder[i] = i
	}
	rev := make([]int, n)
	for i := range rev {
		rev[i] = n - 1 - i
	}
	var out []arrangement
	out = append(out, arrangement{name: "spec order", batches: one(inOrder)})
	out = append(out, arrangement{name: "reversed", batches: one(rev)})
	out = append(out, arrangement{name: "one statement", batches: [][]int{inOrder}})
	for k := 0; k < 6; k++ {
		perm := rng.Perm(n)
		var batches [][]int
		for len(perm) > 0 {
			size := 1 + rng.IntN(3)
			size = min(size, len(perm))
			batches = append(batches, perm[:size])
			perm = perm[size:]
		}
		out = append(out, arrangement{name: fmt.Sprintf("shuffle %d", k), batches: batches, beforeFlow: rng.IntN(len(batches) + 1)})
	}
	return out
}

// runArrangement creates the source, delivers events (some before the flow
// exists), and returns the target rows.
func runArrangement(t *testing.T, events []string, flow string, a arrangement, query string) string {
	t.Helper()
	c := sqltest.Open(t).Conn()
	c.MustExec(usersSource)
	insert := func(batch []int) {
		var vals []string
		for _, i := range batch {
			vals = append(vals, events[i])
		}
		c.MustExec("INSERT INTO users_cdf VALUES " + strings.Join(vals, ", "))
	}
	for _, b := range a.batches[:a.beforeFlow] {
		insert(b)
	}
	c.MustExec(flow)
	for _, b := range a.batches[a.beforeFlow:] {
		insert(b)
	}
	return c.MustExec(query).String()
}

func TestSpecSCD1(t *testing.T) {
	want := "124|Raul|Oaxaca\n125|Mercedes|Guadalajara\n126|Lily|Cancun\n"
	for _, a := range arrangements(len(usersEvents), 1) {
		got := runArrangement(t, usersEvents, usersFlow("SCD TYPE 1", truncateClause), a, "SELECT * FROM users_current ORDER BY userId")
		if got != want {
			t.Errorf("%s: got\n%swant\n%s", a.name, got, want)
		}
	}
}

func TestSpecSCD1Truncate(t *testing.T) {
	events := append(append([]string(nil), usersEvents...), "(NULL, NULL, NULL, 'TRUNCATE', 3)")
	want := "125|Mercedes|Guadalajara\n"
	for _, a := range arrangements(len(events), 2) {
		got := runArrangement(t, events, usersFlow("SCD TYPE 1", truncateClause), a, "SELECT * FROM users_current ORDER BY userId")
		if got != want {
			t.Errorf("%s: got\n%swant\n%s", a.name, got, want)
		}
	}
}

func TestSpecSCD2(t *testing.T) {
	want := strings.Join([]string{
		"123|Isabel|Monterrey|1|5",
		"123|Isabel|Chihuahua|5|6",
		"124|Raul|Oaxaca|1|NULL",
		"125|Mercedes|Tijuana|2|5",
		"125|Mercedes|Mexicali|5|6",
		"125|Mercedes|Guadalajara|6|NULL",
		"126|Lily|Cancun|2|NULL",
	}, "\n") + "\n"
	for _, a := range arrangements(len(usersEvents), 3) {
		got := runArrangement(t, usersEvents, usersFlow("SCD TYPE 2", ""), a, "SELECT * FROM users_current ORDER BY userId, __START_AT")
		if got != want {
			t.Errorf("%s: got\n%swant\n%s", a.name, got, want)
		}
	}
}

func TestSpecSCD2TrackHistory(t *testing.T) {
	want := strings.Join([]string{
		"123|Isabel|Chihuahua|1|6",
		"124|Raul|Oaxaca|1|NULL",
		"125|Mercedes|Guadalajara|2|NULL",
		"126|Lily|Cancun|2|NULL",
	}, "\n") + "\n"
	for _, a := range arrangements(len(usersEvents), 4) {
		got := runArrangement(t, usersEvents, usersFlow("SCD TYPE 2", "")+"\nTRACK HISTORY ON * EXCEPT (city)", a, "SELECT * FROM users_current ORDER BY userId, __START_AT")
		if got != want {
			t.Errorf("%s: got\n%swant\n%s", a.name, got, want)
		}
	}
}

func TestSpecPartialUpdate(t *testing.T) {
	for _, tc := range []struct{ clause, want string }{
		{"", "1|NULL|30\n"},
		{"IGNORE NULL UPDATES ON (name)", "1|A|30\n"},
	} {
		c := sqltest.Open(t).Conn()
		c.MustExec("CREATE TABLE ev (id int, name text, amount int, seq int)")
		c.MustExec("CREATE STREAMING TABLE tgt")
		c.MustExec("CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (id) " + tc.clause + " SEQUENCE BY seq COLUMNS * EXCEPT (seq)")
		c.MustExec("INSERT INTO ev VALUES (1, 'A', 20, 1)")
		c.MustExec("INSERT INTO ev VALUES (1, NULL, 30, 2)")
		if got := c.MustExec("SELECT * FROM tgt").String(); got != tc.want {
			t.Errorf("%q: got %q want %q", tc.clause, got, tc.want)
		}
	}
}

func TestSpecStructSequence(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE ev (id int, v text, ts int, n int)")
	c.MustExec("CREATE STREAMING TABLE tgt")
	c.MustExec("CREATE FLOW f AS AUTO CDC INTO tgt FROM ev KEYS (id) SEQUENCE BY STRUCT(ts, n) COLUMNS id, v")
	// Equal ts: the higher n wins, whatever the arrival order.
	c.MustExec("INSERT INTO ev VALUES (1, 'b', 5, 2), (1, 'a', 5, 1), (1, 'old', 4, 9)")
	if got := c.MustExec("SELECT * FROM tgt").String(); got != "1|b\n" {
		t.Fatalf("got %q", got)
	}
}

func TestFlowRefusals(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec(usersSource)
	c.MustExec("CREATE STREAMING TABLE tgt")
	c.MustExec("INSERT INTO users_cdf VALUES (1, 'a', 'x', 'INSERT', 1)")
	for _, tc := range []struct{ code, sql string }{
		{pgerror.SyntaxError, "CREATE FLOW f AS AUTO CDC INTO tgt FROM users_cdf SEQUENCE BY sequenceNum"},
		{pgerror.SyntaxError, "CREATE FLOW f AS AUTO CDC INTO tgt FROM users_cdf KEYS (userId)"},
		{pgerror.UndefinedColumn, "CREATE FLOW f AS AUTO CDC INTO tgt FROM users_cdf KEYS (nope) SEQUENCE BY sequenceNum"},
		{pgerror.SyntaxError, "CREATE FLOW f AS AUTO CDC INTO tgt FROM users_cdf KEYS (userId) KEYS (userId) SEQUENCE BY sequenceNum"},
		{pgerror.FeatureNotSupported, `CREATE FLOW f AS AUTO CDC INTO tgt FROM users_cdf KEYS (userId) APPLY AS TRUNCATE WHEN operation = "TRUNCATE" SEQUENCE BY sequenceNum STORED AS SCD TYPE 2`},
		{pgerror.FeatureNotSupported, "CREATE FLOW f AS AUTO CDC INTO tgt FROM users_cdf KEYS (userId) SEQUENCE BY sequenceNum TRACK HISTORY ON (city)"},
		{pgerror.FeatureNotSupported, "CREATE FLOW f AS AUTO CDC INTO tgt FROM users_cdf KEYS (userId) SEQUENCE BY sequenceNum SYSTEM SEQUENCE BY sequenceNum"},
		{pgerror.UndefinedTable, "CREATE FLOW f AS AUTO CDC INTO nope FROM users_cdf KEYS (userId) SEQUENCE BY sequenceNum"},
		{pgerror.SyntaxError, "CREATE FLOW f AS AUTO CDC INTO tgt FROM users_cdf KEYS (userId) SEQUENCE BY sequenceNum STORED AS BITEMPORAL"},
		{pgerror.DatatypeMismatch, "CREATE FLOW f AS AUTO CDC INTO tgt FROM users_cdf KEYS (userId) SEQUENCE BY sequenceNum COLUMNS TO UPDATE city"},
		{pgerror.DatatypeMismatch, "CREATE FLOW f AS AUTO CDC INTO tgt FROM users_cdf KEYS (userId) SEQUENCE BY '{}'::jsonb"},
		{pgerror.WrongObjectType, "CREATE FLOW f AS AUTO CDC INTO users_cdf FROM users_cdf KEYS (userId) SEQUENCE BY sequenceNum"},
	} {
		c.ExpectError(tc.code, tc.sql)
	}
	// Nothing of the refused statements was kept.
	if got := c.MustExec("SELECT count(*) FROM cdcdb.flows").String(); got != "0\n" {
		t.Fatalf("flows after refusals: %q", got)
	}
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO tgt FROM users_cdf KEYS (userId) APPLY AS DELETE WHEN operation = "DELETE" SEQUENCE BY sequenceNum COLUMNS * EXCEPT (operation, sequenceNum)`)
	before := c.MustExec("SELECT * FROM tgt ORDER BY 1").String()
	for _, tc := range []struct{ code, sql string }{
		{pgerror.NotNullViolation, "INSERT INTO users_cdf VALUES (2, 'b', 'y', 'INSERT', NULL)"},
		{pgerror.NotNullViolation, "INSERT INTO users_cdf VALUES (3, 'c', 'z', 'INSERT', 2), (NULL, 'b', 'y', 'INSERT', 3)"},
		{pgerror.CardinalityViolation, "INSERT INTO users_cdf VALUES (4, 'd', 'w', 'INSERT', 2), (1, 'changed', 'x', 'INSERT', 1)"},
		{pgerror.WrongObjectType, "INSERT INTO tgt VALUES (9, 'x', 'y')"},
		{pgerror.WrongObjectType, "UPDATE users_cdf SET name = 'z'"},
		{pgerror.WrongObjectType, "DELETE FROM users_cdf"},
		{pgerror.DependentObjectsStillExist, "DROP TABLE users_cdf"},
		{pgerror.DependentObjectsStillExist, "DROP TABLE tgt"},
	} {
		c.ExpectError(tc.code, tc.sql)
		if after := c.MustExec("SELECT * FROM tgt ORDER BY 1").String(); after != before {
			t.Fatalf("%s changed the target: %q -> %q", tc.sql, before, after)
		}
	}
	if got := c.MustExec("SELECT count(*) FROM users_cdf").String(); got != "1\n" {
		t.Fatalf("source rows after refusals: %q", got)
	}
	// An identical retry is accepted and changes nothing.
	c.MustExec("INSERT INTO users_cdf VALUES (1, 'a', 'x', 'INSERT', 1)")
	if after := c.MustExec("SELECT * FROM tgt ORDER BY 1").String(); after != before {
		t.Fatalf("retry changed the target: %q -> %q", before, after)
	}
	c.MustExec("DROP TABLE users_cdf CASCADE")
}

func TestFlowsView(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec(usersSource)
	c.MustExec(usersFlow("SCD TYPE 2", ""))
	c.MustExec("INSERT INTO users_cdf VALUES " + strings.Join(usersEvents, ", "))
	got := c.MustExec("SELECT name, source, target, stored_as, keys, sequence_by, events_applied, last_sequence FROM cdcdb.flows").String()
	want := "apply_cdc|users_cdf|users_current|SCD TYPE 2|{userid}|sequencenum|8|6\n"
	if got != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

// TestFlowSourceNamedLikePeriod refuses a source whose column would collide
// with a target's period column.
func TestFlowSourceNamedLikePeriod(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE ev (id int, __START_AT int, seq int)")
	c.MustExec("CREATE STREAMING TABLE tgt")
	c.ExpectError(pgerror.DuplicateColumn, "CREATE FLOW f AS AUTO CDC INTO tgt FROM ev KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2")
	if got := c.MustExec("SELECT count(*) FROM cdcdb.flows").String(); got != "0\n" {
		t.Fatalf("flows: %q", got)
	}
}

// TestApplyChangesSpellingAndDropFlow uses the older APPLY CHANGES INTO
// spelling (the flow takes its target's name) and DROP FLOW.
func TestApplyChangesSpellingAndDropFlow(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec(usersSource)
	c.MustExec("CREATE STREAMING TABLE users_current")
	c.MustExec(`APPLY CHANGES INTO LIVE.users_current FROM STREAM(LIVE.users_cdf) KEYS (userId)
		APPLY AS DELETE WHEN operation = "DELETE" SEQUENCE BY sequenceNum COLUMNS * EXCEPT (operation, sequenceNum)`)
	c.MustExec("INSERT INTO users_cdf VALUES " + strings.Join(usersEvents, ", "))
	if got := c.MustExec("SELECT * FROM users_current ORDER BY 1").String(); got != "124|Raul|Oaxaca\n125|Mercedes|Guadalajara\n126|Lily|Cancun\n" {
		t.Fatalf("got %q", got)
	}
	if got := c.MustExec("SELECT name, target FROM cdcdb.flows").String(); got != "users_current|users_current\n" {
		t.Fatalf("flows: %q", got)
	}
	c.ExpectError(pgerror.UndefinedObject, "DROP FLOW nope")
	c.MustExec("DROP FLOW IF EXISTS nope")
	c.MustExec("DROP FLOW users_current")
	// The target keeps its rows; the source is an ordinary table again.
	c.MustExec("INSERT INTO users_cdf VALUES (127, 'Ana', 'Lima', 'INSERT', 9)")
	if got := c.MustExec("SELECT count(*) FROM users_current").String(); got != "3\n" {
		t.Fatalf("after DROP FLOW: %q", got)
	}
	c.MustExec("DELETE FROM users_cdf WHERE userId = 127")
}

// TestRecreatedFlowReplacesLeftoverRows: a dropped flow leaves its rows in
// the target, and a flow created again over it rebuilds each key it has
// events for from those events alone, in order or not, rather than
// continuing from rows it did not write.
func TestRecreatedFlowReplacesLeftoverRows(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE src (id int, v text, seq int)")
	c.MustExec("CREATE STREAMING TABLE tgt")
	const scd2 = "CREATE FLOW f AS AUTO CDC INTO tgt FROM src KEYS (id) SEQUENCE BY seq COLUMNS (id, v) STORED AS SCD TYPE 2"
	c.MustExec(scd2)
	c.MustExec("INSERT INTO src VALUES (1, 'a', 1), (1, 'b', 5), (2, 'x', 1)")
	c.MustExec("DROP FLOW f")
	c.MustExec("DELETE FROM src WHERE id = 2")
	c.MustExec("INSERT INTO src VALUES (3, 'p', 7)")
	// The backfill replays keys 1 and 3; key 2's leftover row stays.
	c.MustExec(scd2)
	want := "1|a|1|5\n1|b|5|NULL\n2|x|1|NULL\n3|p|7|NULL\n"
	if got := c.MustExec("SELECT * FROM tgt ORDER BY id, __START_AT").String(); got != want {
		t.Fatalf("after the backfill:\n%s\nwant:\n%s", got, want)
	}
	// Events after the backfill: key 3 continues from its own version.
	c.MustExec("INSERT INTO src VALUES (3, 'q', 8)")
	want = "1|a|1|5\n1|b|5|NULL\n2|x|1|NULL\n3|p|7|8\n3|q|8|NULL\n"
	if got := c.MustExec("SELECT * FROM tgt ORDER BY id, __START_AT").String(); got != want {
		t.Fatalf("after a later event:\n%s\nwant:\n%s", got, want)
	}
	// Key 2's first event under the new flow replaces the leftover row.
	c.MustExec("INSERT INTO src VALUES (2, 'y', 3)")
	want = "1|a|1|5\n1|b|5|NULL\n2|y|3|NULL\n3|p|7|8\n3|q|8|NULL\n"
	if got := c.MustExec("SELECT * FROM tgt ORDER BY id, __START_AT").String(); got != want {
		t.Fatalf("after key 2's first event:\n%s\nwant:\n%s", got, want)
	}

	// SCD TYPE 1 with IGNORE NULL UPDATES: a new key's first event does
	// not merge into a row another flow left.
	c.MustExec("CREATE TABLE src1 (id int, v text, w text, seq int)")
	c.MustExec("CREATE STREAMING TABLE tgt1")
	c.MustExec("CREATE FLOW g AS AUTO CDC INTO tgt1 FROM src1 KEYS (id) SEQUENCE BY seq COLUMNS (id, v, w)")
	c.MustExec("INSERT INTO src1 VALUES (1, 'a', 'b', 1)")
	c.MustExec("DROP FLOW g")
	c.MustExec("CREATE TABLE src2 (id int, v text, w text, seq int)")
	c.MustExec("CREATE FLOW h AS AUTO CDC INTO tgt1 FROM src2 KEYS (id) IGNORE NULL UPDATES SEQUENCE BY seq COLUMNS (id, v, w)")
	c.MustExec("INSERT INTO src2 VALUES (1, 'c', NULL, 2)")
	if got := c.MustExec("SELECT * FROM tgt1").String(); got != "1|c|NULL\n" {
		t.Fatalf("SCD TYPE 1 over a leftover row: %q", got)
	}
	c.MustExec("INSERT INTO src2 VALUES (1, NULL, 'd', 3)")
	if got := c.MustExec("SELECT * FROM tgt1").String(); got != "1|c|d\n" {
		t.Fatalf("SCD TYPE 1 continuing: %q", got)
	}
}

// TestAlterTableUnderFlowRefused: a flow's source and target keep their
// columns while the flow exists; other ALTERs (retention, rename) work.
func TestAlterTableUnderFlowRefused(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE src (id int, v text, seq int)")
	c.MustExec("CREATE STREAMING TABLE tgt")
	c.MustExec("CREATE FLOW f AS AUTO CDC INTO tgt FROM src KEYS (id) SEQUENCE BY seq")
	for _, q := range []string{
		"ALTER TABLE src ADD COLUMN extra int",
		"ALTER TABLE src DROP COLUMN v",
		"ALTER TABLE src RENAME COLUMN v TO w",
		"ALTER TABLE tgt ADD COLUMN extra int",
	} {
		c.ExpectError(pgerror.ObjectInUse, q)
	}
	c.MustExec("ALTER TABLE src SET (history_retention = '30 days')")
	c.MustExec("ALTER TABLE src RENAME TO events")
	c.MustExec("INSERT INTO events VALUES (1, 'a', 1)")
	if got := c.MustExec("SELECT * FROM tgt").String(); got != "1|a|1\n" {
		t.Fatalf("flow after rename: %q", got)
	}
}
