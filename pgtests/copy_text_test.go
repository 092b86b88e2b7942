package pgtests

import (
	"errors"
	"fmt"
	"strings"
	"testing"

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
				// With another NULL string, \N is an escaped N.
				"1|<null>", "2|null", "3|N", "4|a|b",
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("got\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// TestCopyLineEndsMatchPostgres: the first line's end (LF, CRLF or CR) is
// the data's newline style, and a carriage return or newline that does not
// fit it is an error, as in PostgreSQL 15.
func TestCopyLineEndsMatchPostgres(t *testing.T) {
	cases := []struct{ name, data, want string }{
		{"lf", "1\ta\n2\tb\n", "1|a 2|b"},
		{"crlf", "1\ta\r\n2\tb\r\n", "1|a 2|b"},
		{"cr", "1\ta\r2\tb\r", "1|a 2|b"},
		{"cr in lf data", "1\ta\n2\tb\rc\n", "22P04 literal carriage return found in data"},
		{"lf in crlf data", "1\ta\r\n2\tb\n", "22P04 literal newline found in data"},
		{"lf in cr data", "1\ta\r2\tb\nc\r", "22P04 literal newline found in data"},
	}
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			conn := connect(t, tg.URL)
			for i, c := range cases {
				table := fmt.Sprintf("le%d", i)
				mustExec(t, conn, "CREATE TABLE "+table+" (id int4, a text)")
				var got string
				if _, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(c.data), "COPY "+table+" FROM STDIN"); err != nil {
					var pe *pgconn.PgError
					if !errors.As(err, &pe) {
						t.Fatalf("%s: %v", c.name, err)
					}
					got = pe.Code + " " + pe.Message
				} else {
					got = strings.Join(queryStrings(t, conn, "SELECT id, a FROM "+table+" ORDER BY id"), " ")
				}
				if got != c.want {
					t.Errorf("%s: got %q, want %q", c.name, got, c.want)
				}
			}
		})
	}
}
