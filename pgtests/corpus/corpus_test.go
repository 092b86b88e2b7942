package corpus

import (
	"errors"
	"fmt"
	"testing"
)

func TestRender(t *testing.T) {
	cols := []Column{{Name: "a", TypeOID: 23}, {Name: "b|c", TypeOID: 25}, {Name: "x", TypeOID: 999999}}
	rows := [][][]byte{
		{[]byte("2"), []byte("y"), nil},
		{[]byte("1"), []byte(" padded"), []byte("NULL")},
	}
	tests := []struct {
		name, sql string
		o         Outcome
		want      string
	}{
		{"unordered rows are sorted", "SELECT * FROM t",
			Outcome{Results: []Result{{Columns: cols, Rows: rows, Tag: "SELECT 2"}}},
			"a:int4 | \"b|c\":text | x:999999\n1 | \" padded\" | \"NULL\"\n2 | y | NULL\nSELECT 2"},
		{"ordered rows keep their order", "SELECT * FROM t ORDER BY a DESC",
			Outcome{Results: []Result{{Columns: cols, Rows: rows, Tag: "SELECT 2"}}},
			"a:int4 | \"b|c\":text | x:999999\n2 | y | NULL\n1 | \" padded\" | \"NULL\"\nSELECT 2"},
		{"no header without rows", "SELECT a FROM t WHERE false",
			Outcome{Results: []Result{{Columns: cols[:1], Tag: "SELECT 0"}}},
			"SELECT 0"},
		{"statements then the error", "INSERT INTO t VALUES (1); SELECT 1/0",
			Outcome{Results: []Result{{Tag: "INSERT 0 1"}}, Err: &ServerError{Code: "22012", Message: "division by zero"}},
			"INSERT 0 1\nERROR 22012: division by zero"},
		{"error with a position and a line break", "SELEC 1",
			Outcome{Err: &ServerError{Code: "42601", Position: 1, Message: "two\nlines"}},
			`ERROR 42601 at 1: "two\nlines"`},
		{"client error", "SELECT 1",
			Outcome{Err: fmt.Errorf("read: %w", errors.New("connection reset"))},
			"CLIENT ERROR: read: connection reset"},
		{"empty query", "-- nothing", Outcome{Results: []Result{{}}}, ""},
	}
	for _, tt := range tests {
		if got := Render(tt.sql, tt.o); got != tt.want {
			t.Errorf("%s: Render(%q) =\n%s\nwant\n%s", tt.name, tt.sql, got, tt.want)
		}
	}
}

func TestHasTopLevelOrderBy(t *testing.T) {
	tests := []struct {
		sql  string
		want bool
	}{
		{"SELECT a FROM t ORDER BY a", true},
		{"select a from t order  by a", true},
		{"SELECT a FROM (SELECT a FROM t ORDER BY a) s", false},
		{"SELECT 'ORDER BY' FROM t", false},
		{`SELECT "order" "by" FROM t`, false},
		{"SELECT a FROM t -- ORDER BY a", false},
		{"SELECT $$ ORDER BY $$ FROM t", false},
		{"SELECT $x$ ) ORDER BY ( $x$ FROM t ORDER BY 1", true},
		{"SELECT array_agg(a ORDER BY a) FROM t", false},
		{"SELECT E'\\' ORDER BY' FROM t", false},
	}
	for _, tt := range tests {
		if got := HasTopLevelOrderBy(tt.sql); got != tt.want {
			t.Errorf("HasTopLevelOrderBy(%q) = %v, want %v", tt.sql, got, tt.want)
		}
	}
}

// TestParseAndWriteRoundTrip reads a file with comments, an unrecorded
// block and a multi-line statement, and writes it back unchanged but for
// the "----" the unrecorded block gains.
func TestParseAndWriteRoundTrip(t *testing.T) {
	text := "# header comment\n\nSELECT 1\n----\n?column?:int4\n1\nSELECT 1\n\n# before\nSELECT a\n  FROM t\n\nCREATE TABLE t (a int)\n----\nCREATE TABLE\n# trailing\n"
	f := parse("x.sql", text)
	if len(f.Blocks) != 3 {
		t.Fatalf("%d blocks, want 3", len(f.Blocks))
	}
	b := f.Blocks[1]
	if b.Line != 10 || b.SQL != "SELECT a\n  FROM t" || b.Recorded || b.Want != "" {
		t.Errorf("block 2 = %+v", *b)
	}
	if f.Blocks[0].Want != "?column?:int4\n1\nSELECT 1" || !f.Blocks[0].Recorded {
		t.Errorf("block 1 = %+v", *f.Blocks[0])
	}
	want := "# header comment\n\nSELECT 1\n----\n?column?:int4\n1\nSELECT 1\n\n# before\nSELECT a\n  FROM t\n----\n\nCREATE TABLE t (a int)\n----\nCREATE TABLE\n# trailing\n"
	if got := f.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
}

// reporter records what a check reports instead of failing the test.
type reporter struct {
	testing.TB
	errors []string
}

func (r *reporter) Helper()             {}
func (r *reporter) Logf(string, ...any) {}
func (r *reporter) Errorf(format string, a ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, a...))
}

func TestCheckAnswers(t *testing.T) {
	const listed = "ALTER TABLE keyed DROP COLUMN id"
	d, ok := Differences[listed]
	if !ok {
		t.Fatalf("the test needs %q in Differences", listed)
	}
	f := parse("x.sql", "SELECT 1\n----\nSELECT 1\n\n"+listed+"\n----\nALTER TABLE\n\nSELECT 2\n")
	tests := []struct {
		name    string
		answers []string
		errors  int
	}{
		{"as recorded, the difference as listed", []string{"SELECT 1", d.Cdcdb, ""}, 1}, // the unrecorded block
		{"a wrong answer", []string{"SELECT 2", d.Cdcdb, ""}, 2},
		{"a listed difference answered as PostgreSQL does", []string{"SELECT 1", "ALTER TABLE", ""}, 2},
		{"a listed difference answered otherwise", []string{"SELECT 1", "ERROR XX000: boom", ""}, 2},
	}
	for _, tt := range tests {
		r := &reporter{TB: t}
		f.CheckAnswers(r, tt.answers)
		if len(r.errors) != tt.errors {
			t.Errorf("%s: %d errors, want %d: %q", tt.name, len(r.errors), tt.errors, r.errors)
		}
	}
}

func TestCheckFiles(t *testing.T) {
	r := &reporter{TB: t}
	CheckFiles(r, []*File{parse("x.sql", "SELECT 1\n----\nSELECT 1\n")})
	// Too few statements, and every listed difference is missing.
	if want := 1 + len(Differences); len(r.errors) != want {
		t.Errorf("%d errors, want %d: %q", len(r.errors), want, r.errors)
	}
}
