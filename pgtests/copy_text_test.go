package pgtests

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestCopyTextEscapesMatchPostgres sends the same COPY text to cdcdb and to
// PostgreSQL 15 (backslash escapes, escaped delimiters and newlines, NULL
// markers, octal and hex bytes, a trailing backslash, CRLF line ends, a
// custom NULL string and delimiter) and compares what the tables hold.
func TestCopyTextEscapesMatchPostgres(t *testing.T) {
	lines := []string{
		"1\tplain\t\\N",
		"2\ttab\\there\tnl\\nand\\rcr",
		"3\tescaped\\\tdelimiter\tx",
		"4\t\\\\N is not null\t\\N",
		"5\toctal \\101\\102\\60 hex \\x41\\x4a\tz",
		"6\tback\\\\slash\tends with\\\\",
		"7\t\t",
		"9\tunknown \\q escape\t\\v\\f\\b",
		"10\thex \\xz, \\x4g, \\X41\t\\x",
		"11\t\\xc3\\xa9t\\303\\251\t\\342\\202\\254",
	}
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			conn := connect(t, tg.URL)
			mustExec(t, conn, "CREATE TABLE ct (id int4, a text, b text)")
			if _, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(strings.Join(lines, "\n")+"\n"), "COPY ct FROM STDIN"); err != nil {
				t.Fatal(err)
			}
			mustExec(t, conn, "CREATE TABLE cn (id int4, a text)")
			if _, err := conn.PgConn().CopyFrom(ctx, strings.NewReader("1|NULL\n2|null\n3|\\N\n4|a\\|b\n"), "COPY cn FROM STDIN (DELIMITER '|', NULL 'NULL')"); err != nil {
				t.Fatal(err)
			}
			got := queryStrings(t, conn, "SELECT id, coalesce(a, '<null>'), coalesce(b, '<null>') FROM ct ORDER BY id")
			got = append(got, queryStrings(t, conn, "SELECT id, coalesce(a, '<null>') FROM cn ORDER BY id")...)
			want := []string{
				"1|plain|<null>",
				"2|tab\there|nl\nand\rcr",
				"3|escaped\tdelimiter|x",
				"4|\\N is not null|<null>",
				"5|octal AB0 hex AJ|z",
				"6|back\\slash|ends with\\",
				"7||",
				"9|unknown q escape|\v\f\b",
				// \x without a hex digit is an x; one digit is a byte.
				"10|hex xz, \x04g, X41|x",
				"11|été|€",
				// With another NULL string, \N is an escaped N.
				"1|<null>", "2|null", "3|N", "4|a|b",
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("got\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// TestCopyTextEscapedBadBytesMatchPostgres: an octal or hex escape that
// makes a NUL, or leaves its field invalid UTF-8, is refused with 22021,
// before the field's type or the row's column count is looked at, in the
// line the field is in.
func TestCopyTextEscapedBadBytesMatchPostgres(t *testing.T) {
	cases := []copyCase{
		{"octal nul", "", "1\ta\\0b\n", `22021 invalid byte sequence for encoding "UTF8": 0x00, line 1`},
		{"three-digit nul", "", "1\tok\n2\t\\000\n", `22021 invalid byte sequence for encoding "UTF8": 0x00, line 2`},
		{"hex nul", "", "1\tok\n2\tok\n3\ta\\x00\n", `22021 invalid byte sequence for encoding "UTF8": 0x00, line 3`},
		{"nul in an int", "", "1\\0\ta\n", `22021 invalid byte sequence for encoding "UTF8": 0x00, line 1`},
		{"nul in a row too long", "", "1\t\\0\textra\n", `22021 invalid byte sequence for encoding "UTF8": 0x00, line 1`},
		{"nul in a row too short", "", "\\0\n", `22021 invalid byte sequence for encoding "UTF8": 0x00, line 1`},
		{"0xff", "", "1\t\\xff\n", `22021 invalid byte sequence for encoding "UTF8": 0xff, line 1`},
		{"0xff then ascii", "", "1\t\\xffab\n", `22021 invalid byte sequence for encoding "UTF8": 0xff, line 1`},
		{"octal 0xff", "", "1\t\\777\n", `22021 invalid byte sequence for encoding "UTF8": 0xff, line 1`},
		{"continuation byte", "", "1\tx\\x80y\n", `22021 invalid byte sequence for encoding "UTF8": 0x80, line 1`},
		{"cut short", "", "1\t\\xc3\n", `22021 invalid byte sequence for encoding "UTF8": 0xc3, line 1`},
		{"bad continuation", "", "1\t\\xc3(\n", `22021 invalid byte sequence for encoding "UTF8": 0xc3 0x28, line 1`},
		{"three bytes cut short", "", "1\t\\xe2\\x82\n", `22021 invalid byte sequence for encoding "UTF8": 0xe2 0x82, line 1`},
		{"surrogate", "", "1\t\\xed\\xa0\\x80\n", `22021 invalid byte sequence for encoding "UTF8": 0xed 0xa0 0x80, line 1`},
		{"overlong", "", "1\t\\xc0\\xaf\n", `22021 invalid byte sequence for encoding "UTF8": 0xc0 0xaf, line 1`},
		{"five-byte form", "", "1\t\\xf8\\x88\\x80\\x80\\x80\n", `22021 invalid byte sequence for encoding "UTF8": 0xf8, line 1`},
		{"after a good character", "", "1\t\\xc3\\xa9\\xa9\n", `22021 invalid byte sequence for encoding "UTF8": 0xa9, line 1`},
		{"raw 0xff", "", "1\tok\n2\ta\xffb\n", `22021 invalid byte sequence for encoding "UTF8": 0xff, line 2`},
		// The header line is skipped unread.
		{"in the header", "(HEADER true)", "i\\0d\ta\\xff\n1\tx\n", "1|x"},
		{"after the header", "(HEADER true)", "id\ta\n1\t\\0\n", `22021 invalid byte sequence for encoding "UTF8": 0x00, line 2`},
	}
	checkCopyOutcomes(t, "eb", cases)
}

// TestCopyHeaderMatchMatchesPostgres: HEADER MATCH reads the header line
// as a row (escapes, quotes and the NULL marker as in the data) and
// requires one field per column, each exactly its column's name; COPY TO
// refuses it (0A000), as BINARY refuses any HEADER, and a HEADER value that
// is neither a Boolean nor MATCH is a syntax error. cdcdb and PostgreSQL 15
// must give the same outcome.
func TestCopyHeaderMatchMatchesPostgres(t *testing.T) {
	cases := []copyCase{
		{"names match", "(HEADER MATCH)", "id\ta\n1\tx\n", "1|x"},
		{"csv names match", "(FORMAT csv, HEADER MATCH)", "id,a\n1,x\n", "1|x"},
		{"quoted csv names", "(FORMAT csv, HEADER 'match')", "\"id\",\"a\"\n1,x\n", "1|x"},
		{"an escaped name", "(HEADER MATCH)", "i\\x64\ta\n1\tx\n", "1|x"},
		{"header only", "(HEADER MATCH)", "id\ta\n", ""},
		{"another name", "(HEADER MATCH)", "id\tb\n1\tx\n", `22P04 column name mismatch in header line field 2: got "b", expected "a", line 1`},
		{"another case", "(HEADER MATCH)", "ID\ta\n1\tx\n", `22P04 column name mismatch in header line field 1: got "ID", expected "id", line 1`},
		{"columns swapped", "(FORMAT csv, HEADER MATCH)", "a,id\n1,x\n", `22P04 column name mismatch in header line field 1: got "a", expected "id", line 1`},
		{"a null name", "(HEADER MATCH)", "\\N\ta\n1\tx\n", `22P04 column name mismatch in header line field 1: got null value ("\N"), expected "id", line 1`},
		{"too few names", "(HEADER MATCH)", "id\n1\tx\n", "22P04 wrong number of fields in header line: got 1, expected 2, line 1"},
		{"too many names", "(HEADER MATCH)", "id\ta\tb\n1\tx\n", "22P04 wrong number of fields in header line: got 3, expected 2, line 1"},
		// Plain HEADER still skips the line unread, whatever it holds.
		{"plain header", "(HEADER true)", "x\ty\tz\n1\tx\n", "1|x"},
		{"binary", "(FORMAT binary, HEADER MATCH)", "", "0A000 cannot specify HEADER in BINARY mode"},
		{"binary, plain header", "(FORMAT binary, HEADER)", "", "0A000 cannot specify HEADER in BINARY mode"},
		{"not a choice", "(HEADER 'bogus')", "id\ta\n", `42601 header requires a Boolean value or "match"`},
	}
	checkCopyOutcomes(t, "hm", cases)
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name+"/column list", func(t *testing.T) {
			// The names are those of the columns listed, in their order.
			conn := connect(t, tg.URL)
			mustExec(t, conn, "CREATE TABLE hm_cols (id int4, a text)")
			copyIn := func(data string) error {
				_, err := conn.PgConn().CopyFrom(testContext(t), strings.NewReader(data), "COPY hm_cols (a, id) FROM STDIN (HEADER MATCH)")
				return err
			}
			if err := copyIn("a\tid\nx\t1\n"); err != nil {
				t.Fatal(err)
			}
			pe := requireSQLState(t, copyIn("id\ta\n1\tx\n"), "22P04")
			if want := `column name mismatch in header line field 1: got "id", expected "a"`; pe.Message != want {
				t.Errorf("got %q, want %q", pe.Message, want)
			}
			if got := strings.Join(queryStrings(t, conn, "SELECT id, a FROM hm_cols"), " "); got != "1|x" {
				t.Errorf("table holds %q, want 1|x", got)
			}
		})
		t.Run(tg.Name+"/copy to", func(t *testing.T) {
			conn := connect(t, tg.URL)
			mustExec(t, conn, "CREATE TABLE hm_out (id int4, a text)")
			_, err := conn.Exec(testContext(t), "COPY hm_out TO STDOUT (HEADER MATCH)")
			pe := requireSQLState(t, err, "0A000")
			if want := `cannot use "match" with HEADER in COPY TO`; pe.Message != want {
				t.Errorf("got %q, want %q", pe.Message, want)
			}
		})
	}
}

// copyCase is one COPY into a fresh table (id int4, a text): its options
// ("" for none), its data, and the outcome copyOutcome reports.
type copyCase struct{ name, options, data, want string }

// checkCopyOutcomes runs every case on cdcdb and on PostgreSQL, each into a
// table of its own named prefix and the case's number.
func checkCopyOutcomes(t *testing.T, prefix string, cases []copyCase) {
	t.Helper()
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			conn := connect(t, tg.URL)
			for i, c := range cases {
				if got := copyOutcome(t, conn, fmt.Sprintf("%s%d", prefix, i), c.options, c.data); got != c.want {
					t.Errorf("%s: got %q, want %q", c.name, got, c.want)
				}
			}
		})
	}
}

// copyLine finds the line number in a COPY error's context (the
// ErrorResponse's Where field, psql's CONTEXT), where both servers send it.
var copyLine = regexp.MustCompile(`COPY \w+, line (\d+)`)

// copyOutcome copies data into a new table (id int4, a text), with COPY's
// options if any, and returns the rows it then holds, or the error's code,
// message and line.
func copyOutcome(t *testing.T, conn *pgx.Conn, table, options, data string) string {
	t.Helper()
	mustExec(t, conn, "CREATE TABLE "+table+" (id int4, a text)")
	if _, err := conn.PgConn().CopyFrom(testContext(t), strings.NewReader(data), "COPY "+table+" FROM STDIN "+options); err != nil {
		var pe *pgconn.PgError
		if !errors.As(err, &pe) {
			t.Fatalf("COPY %q: %v", data, err)
		}
		got := pe.Code + " " + pe.Message
		if m := copyLine.FindStringSubmatch(pe.Where); m != nil {
			got += ", line " + m[1]
		}
		return got
	}
	return strings.Join(queryStrings(t, conn, "SELECT id, a FROM "+table+" ORDER BY id"), " ")
}

// TestCopyLineEndsMatchPostgres: the first line's end (LF, CRLF or CR) is
// the data's newline style, and a carriage return or newline that does not
// fit it is an error, as in PostgreSQL 15.
func TestCopyLineEndsMatchPostgres(t *testing.T) {
	cases := []copyCase{
		{"lf", "", "1\ta\n2\tb\n", "1|a 2|b"},
		{"crlf", "", "1\ta\r\n2\tb\r\n", "1|a 2|b"},
		{"cr", "", "1\ta\r2\tb\r", "1|a 2|b"},
		{"cr in lf data", "", "1\ta\n2\tb\rc\n", "22P04 literal carriage return found in data, line 2"},
		{"lf in crlf data", "", "1\ta\r\n2\tb\n", "22P04 literal newline found in data, line 2"},
		{"lf in cr data", "", "1\ta\r2\tb\nc\r", "22P04 literal newline found in data, line 2"},
	}
	checkCopyOutcomes(t, "le", cases)
}
