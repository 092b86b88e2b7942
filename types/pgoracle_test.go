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
	"int[]\t[0:1]={1,2}":   "ArrayValue has no lower bounds, so arrays not starting at 1 are refused (0A000)",
	"date\tTue 2025-07-18": "a day name before an ISO date is ignored, as it is before 'Jul 18 2025'; PostgreSQL refuses it",
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

type castCase struct {
	zone, mode, from, to, input string
	ok                          bool
	output, code, msg, detail   string
}

func (c castCase) line() string {
	head := []string{c.zone, c.mode, c.from, c.to, c.input}
	if c.ok {
		return strings.Join(append([]string{"ok"}, append(head, c.output)...), "\t")
	}
	return strings.Join(append([]string{"err"}, append(head, c.code, c.msg, c.detail)...), "\t")
}

// pgCast asks PostgreSQL to read input as type from and cast it to type to,
// explicitly (::) or by assignment (INSERT into a column), in a session zone.
func pgCast(t *testing.T, conn *pgconn.PgConn, c castCase) castCase {
	ctx := context.Background()
	conn.Exec(ctx, "SET TimeZone = "+quoteLit(c.zone)+"; DROP TABLE IF EXISTS g; CREATE TEMP TABLE g (c "+c.to+")").ReadAll()
	var err error
	var row [][]byte
	if c.mode == "assign" {
		if _, err = pgExec(conn, "INSERT INTO g SELECT "+quoteLit(c.input)+"::"+c.from); err == nil {
			row, err = pgExec(conn, "SELECT c FROM g")
		}
	} else {
		row, err = pgExec(conn, "SELECT "+quoteLit(c.input)+"::"+c.from+"::"+c.to)
	}
	if err == nil {
		c.ok, c.output = true, string(row[0])
		return c
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Fatalf("%v: %v", c, err)
	}
	c.code, c.msg, c.detail = pe.Code, pe.Message, pe.Detail
	return c
}

func TestGoldenCasts(t *testing.T) {
	const golden = "testdata/cast.golden"
	if *update {
		conn := pgConnect(t)
		var out strings.Builder
		for _, l := range readLines(t, "testdata/cast_inputs.txt") {
			f := strings.Split(l, "\t")
			c := castCase{zone: f[0], mode: f[1], from: f[2], to: f[3], input: f[4]}
			out.WriteString(pgCast(t, conn, c).line() + "\n")
		}
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range readLines(t, golden) {
		f := strings.Split(l, "\t")
		want := castCase{ok: f[0] == "ok", zone: f[1], mode: f[2], from: f[3], to: f[4], input: f[5]}
		if want.ok {
			want.output = f[6]
		} else {
			want.code, want.msg, want.detail = f[6], f[7], f[8]
		}
		got := want
		got.ok, got.output, got.code, got.msg, got.detail = false, "", "", "", ""
		from, ok1 := parseTypeName(want.from)
		to, ok2 := parseTypeName(want.to)
		loc, err := LoadZone(want.zone)
		if !ok1 || !ok2 || err != nil {
			t.Errorf("bad case %s", l)
			continue
		}
		v, err := ParseTextIn(from, want.input, loc)
		if err == nil {
			v, err = CastIn(v, from, to, want.mode == "explicit", loc)
		}
		if err == nil {
			got.ok, got.output = true, FormatTextIn(to, v, loc)
		} else {
			pe := asPG(err)
			got.code, got.msg, got.detail = pe.Code, pe.Message, pe.Detail
		}
		if got != want {
			t.Errorf("%s %s::%s (%s, %s):\n got  %s\n want %s", want.input, want.from, want.to, want.mode, want.zone, got.line(), want.line())
		}
	}
}

// pgBinary returns PostgreSQL's binary output for a column of type typ
// holding the literal s.
func pgBinary(t *testing.T, conn *pgconn.PgConn, typ, s string) []byte {
	ctx := context.Background()
	conn.Exec(ctx, "SET TimeZone = 'UTC'; DROP TABLE IF EXISTS g; CREATE TEMP TABLE g (c "+typ+"); INSERT INTO g VALUES ("+quoteLit(s)+")").ReadAll()
	res := conn.ExecParams(ctx, "SELECT c FROM g", nil, nil, nil, []int16{1}).Read()
	if res.Err != nil || len(res.Rows) != 1 {
		t.Fatalf("%s %q: %v", typ, s, res.Err)
	}
	return res.Rows[0][0]
}

// TestGoldenBinary checks AppendBinary against PostgreSQL's own binary output
// for every input the text golden file accepts, and ParseBinary of those
// bytes against PostgreSQL's text output.
func TestGoldenBinary(t *testing.T) {
	const golden = "testdata/binary.golden"
	skip := map[string]bool{"int2vector": true, "oidvector": true, `"char"`: false}
	if *update {
		conn := pgConnect(t)
		var out strings.Builder
		for _, c := range readGolden(t, "testdata/text_io.golden") {
			if !c.ok || skip[c.typ] || knownDifferences[c.typ+"\t"+c.input] != "" {
				continue
			}
			b := pgBinary(t, conn, c.typ, c.input)
			fmt.Fprintf(&out, "%s\t%s\t%x\t%s\n", c.typ, c.input, b, c.output)
		}
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range readLines(t, golden) {
		f := strings.Split(l, "\t")
		typName, input, wantHex, wantText := f[0], f[1], f[2], f[3]
		typ, _ := parseTypeName(typName)
		v, err := ParseText(typ, input)
		if err != nil {
			t.Errorf("%s %q: %v", typName, input, err)
			continue
		}
		b, err := AppendBinary(nil, typ, v)
		if err != nil {
			t.Errorf("%s %q: AppendBinary: %v", typName, input, err)
			continue
		}
		if got := fmt.Sprintf("%x", b); got != wantHex {
			t.Errorf("%s %q: binary\n got  %s\n want %s", typName, input, got, wantHex)
		}
		raw := make([]byte, len(wantHex)/2)
		fmt.Sscanf(wantHex, "%x", &raw)
		if wantHex == "" {
			raw = nil
		}
		back, err := ParseBinary(typ, raw)
		if err != nil {
			t.Errorf("%s %q: ParseBinary(%s): %v", typName, input, wantHex, err)
			continue
		}
		if got := FormatText(typ, back); got != wantText {
			t.Errorf("%s %q: ParseBinary then FormatText = %q, want %q", typName, input, got, wantText)
		}
	}
}

// TestGoldenCompare checks Compare against PostgreSQL's btree ordering for
// every pair of a set of values per type (text types in the C collation).
func TestGoldenCompare(t *testing.T) {
	const golden = "testdata/compare.golden"
	byType := map[string][]string{}
	var order []string
	for _, l := range readLines(t, "testdata/compare_inputs.txt") {
		typ, v, _ := strings.Cut(l, "\t")
		if byType[typ] == nil {
			order = append(order, typ)
		}
		byType[typ] = append(byType[typ], v)
	}
	if *update {
		conn := pgConnect(t)
		var out strings.Builder
		for _, typ := range order {
			vals := byType[typ]
			coll := ""
			if typ == "text" || typ == "varchar" || typ == "bpchar" || typ == "text[]" {
				coll = ` COLLATE "C"`
			}
			for i, a := range vals {
				for j, b := range vals {
					row, err := pgExec(conn, "SELECT (x > y)::int - (x < y)::int FROM (SELECT "+quoteLit(a)+"::"+typ+coll+" AS x, "+quoteLit(b)+"::"+typ+coll+" AS y) s")
					if err != nil {
						t.Fatal(err)
					}
					fmt.Fprintf(&out, "%s\t%d\t%d\t%s\n", typ, i, j, row[0])
				}
			}
		}
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	values := map[string][]Value{}
	for _, typ := range order {
		tt, _ := parseTypeName(typ)
		for _, in := range byType[typ] {
			v, err := ParseText(tt, in)
			if err != nil {
				t.Fatalf("%s %q: %v", typ, in, err)
			}
			values[typ] = append(values[typ], v)
		}
	}
	for _, l := range readLines(t, golden) {
		var typ string
		var i, j, want int
		f := strings.Split(l, "\t")
		typ = f[0]
		fmt.Sscan(f[1], &i)
		fmt.Sscan(f[2], &j)
		fmt.Sscan(f[3], &want)
		tt, _ := parseTypeName(typ)
		if got := Compare(tt, values[typ][i], values[typ][j]); got != want {
			t.Errorf("%s: Compare(%q, %q) = %d, PostgreSQL says %d", typ, byType[typ][i], byType[typ][j], got, want)
		}
	}
}
