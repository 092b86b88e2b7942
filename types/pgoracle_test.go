package types

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// The golden files under testdata hold PostgreSQL 15's own answers. To
// regenerate them, run a PostgreSQL 15 server and:
//
//	CDCDB_PG_URL='host=/tmp port=55433 user=postgres' go test ./types -run Golden -update
var update = flag.Bool("update", false, "regenerate testdata golden files from the PostgreSQL at $CDCDB_PG_URL")

type goldenCase struct {
	typ, input string
	ok         bool
	output     string // when ok
	code, msg  string // when not
	detail     string
}

func (c goldenCase) line() string {
	if c.ok {
		return strings.Join([]string{"ok", c.typ, c.input, c.output}, "\t")
	}
	return strings.Join([]string{"err", c.typ, c.input, c.code, c.msg, c.detail}, "\t")
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

func readGolden(t *testing.T, path string) []goldenCase {
	var cases []goldenCase
	for _, l := range readLines(t, path) {
		f := strings.Split(l, "\t")
		switch f[0] {
		case "ok":
			cases = append(cases, goldenCase{typ: f[1], input: f[2], ok: true, output: f[3]})
		case "err":
			cases = append(cases, goldenCase{typ: f[1], input: f[2], code: f[3], msg: f[4], detail: f[5]})
		}
	}
	return cases
}

func pgConnect(t *testing.T) *pgconn.PgConn {
	url := os.Getenv("CDCDB_PG_URL")
	if url == "" {
		t.Fatal("-update needs CDCDB_PG_URL")
	}
	conn, err := pgconn.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func pgExec(conn *pgconn.PgConn, sql string) ([][]byte, error) {
	res := conn.ExecParams(context.Background(), sql, nil, nil, nil, nil).Read()
	if res.Err != nil {
		return nil, res.Err
	}
	if len(res.Rows) == 0 {
		return nil, nil
	}
	return res.Rows[0], nil
}

func quoteLit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// pgInput asks PostgreSQL to read s as a column of type typ, as INSERT of a
// literal does (the input function with the column's modifier).
func pgInput(t *testing.T, conn *pgconn.PgConn, typ, s string) goldenCase {
	c := goldenCase{typ: typ, input: s}
	ctx := context.Background()
	conn.Exec(ctx, "SET TimeZone = 'UTC'; DROP TABLE IF EXISTS g; CREATE TEMP TABLE g (c "+typ+")").ReadAll()
	_, err := pgExec(conn, "INSERT INTO g VALUES ("+quoteLit(s)+")")
	if err == nil {
		var row [][]byte
		row, err = pgExec(conn, "SELECT c FROM g")
		if err == nil {
			c.ok, c.output = true, string(row[0])
			return c
		}
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Fatalf("%s %q: %v", typ, s, err)
	}
	c.code, c.msg, c.detail = pe.Code, pe.Message, pe.Detail
	return c
}

func TestGoldenTextInput(t *testing.T) {
	const golden = "testdata/text_io.golden"
	if *update {
		conn := pgConnect(t)
		var out strings.Builder
		for _, l := range readLines(t, "testdata/text_inputs.txt") {
			typ, in, _ := strings.Cut(l, "\t")
			out.WriteString(pgInput(t, conn, typ, in).line() + "\n")
		}
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range readGolden(t, golden) {
		if why, ok := knownDifferences[c.typ+"\t"+c.input]; ok {
			t.Logf("%s %q: not PostgreSQL's answer by design: %s", c.typ, c.input, why)
			continue
		}
		typ, ok := parseTypeName(c.typ)
		if !ok {
			t.Errorf("test type %q not understood", c.typ)
			continue
		}
		v, err := ParseText(typ, c.input)
		got := goldenCase{typ: c.typ, input: c.input}
		if err == nil {
			got.ok, got.output = true, FormatText(typ, v)
		} else {
			pe := asPG(err)
			got.code, got.msg, got.detail = pe.Code, pe.Message, pe.Detail
		}
		if got != c {
			t.Errorf("%s %q:\n got  %s\n want %s", c.typ, c.input, got.line(), c.line())
		}
	}
}

// knownDifferences are inputs where cdcdb answers differently on purpose.
var knownDifferences = map[string]string{
	"int[]\t[0:1]={1,2}": "ArrayValue has no lower bounds, so arrays not starting at 1 are refused (0A000)",
}

// parseTypeName reads the type spellings the golden files use:
// name[(mods)][[]] and a few interval forms.
func parseTypeName(s string) (T, bool) {
	array := strings.HasSuffix(s, "[]")
	s = strings.TrimSuffix(s, "[]")
	var typ T
	switch {
	case strings.HasPrefix(s, "interval "):
		fields := map[string]int{
			"year to month":    IntervalYear | IntervalMonth,
			"hour":             IntervalHour,
			"day to second(2)": IntervalDay | IntervalHour | IntervalMinute | IntervalSecond,
		}
		rest := strings.TrimPrefix(s, "interval ")
		f, ok := fields[rest]
		if !ok {
			return T{}, false
		}
		prec := -1
		if strings.HasSuffix(rest, "(2)") {
			prec = 2
		}
		m, _ := IntervalTypmod(f, prec)
		typ = T{OID: Interval, Typmod: m}
	case strings.Contains(s, "("):
		name, mods, _ := strings.Cut(strings.TrimSuffix(s, ")"), "(")
		base, ok := ByName(name)
		if !ok {
			return T{}, false
		}
		var a, b int
		n, _ := fmt.Sscanf(mods, "%d,%d", &a, &b)
		typ = base
		switch base.OID {
		case Numeric:
			if n == 1 {
				b = 0
			}
			typ.Typmod, _ = NumericTypmod(a, b)
		case Varchar, Bpchar:
			typ.Typmod, _ = CharTypmod(name, a)
		case Interval:
			typ.Typmod, _ = IntervalTypmod(0, a)
		default:
			typ.Typmod, _ = TimePrecisionTypmod(name, a)
		}
	case s == `"char"`:
		typ = Of(Char)
	default:
		var ok bool
		if typ, ok = ByName(s); !ok {
			return T{}, false
		}
	}
	if array {
		typ.OID = ArrayOf(typ.OID)
	}
	return typ, true
}
