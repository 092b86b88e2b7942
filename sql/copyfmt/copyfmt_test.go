package copyfmt

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"cdcdb/pgerror"
	"cdcdb/types"
)

// chunks hands data out in pieces of size bytes, as CopyData messages
// may cut it anywhere.
type chunks struct {
	data []byte
	size int
}

func (c *chunks) Next() ([]byte, error) {
	if len(c.data) == 0 {
		return nil, io.EOF
	}
	n := min(c.size, len(c.data))
	out := c.data[:n]
	c.data = c.data[n:]
	return out, nil
}

// chunkSizes are the sizes every reading test cuts its data into: one
// byte at a time finds every boundary a row, an escape or a quote can be
// cut at.
var chunkSizes = []int{1, 2, 3, 5, 1 << 20}

// errorText is an error as the tests compare it: SQLSTATE and message.
func errorText(err error) string {
	if err == nil {
		return ""
	}
	pe := pgerror.As(err)
	return pe.Code + " " + pe.Message
}

// readText reads data with opts, cut into chunks of size, as rows of
// fields joined by "|" (NULL shown as <null>).
func readText(t *testing.T, o *Options, columns []string, data string, size int) (rows []string, lines int, err error) {
	t.Helper()
	lines, err = ReadText(&chunks{data: []byte(data), size: size}, o, columns, func(fields []*string) error {
		var vals []string
		for _, f := range fields {
			if f == nil {
				vals = append(vals, "<null>")
			} else {
				vals = append(vals, *f)
			}
		}
		rows = append(rows, strings.Join(vals, "|"))
		return nil
	})
	return rows, lines, err
}

func mustOptions(t *testing.T, opts map[string]string) Options {
	t.Helper()
	o, err := ParseOptions(opts)
	if err != nil {
		t.Fatalf("ParseOptions(%v): %v", opts, err)
	}
	return o
}

// TestReadText holds text and CSV reading to what PostgreSQL 15 reads
// from the same data: escapes, \N, quoting, embedded newlines, line
// endings, the header line and the end-of-data marker, whatever the
// chunks the data arrives in.
func TestReadText(t *testing.T) {
	csv := map[string]string{"format": "csv"}
	for _, c := range []struct {
		name    string
		opts    map[string]string
		columns []string // for the CSV column options, the columns copied
		data    string
		want    []string
		err     string // SQLSTATE and message
		lines   int    // lines read, an erroneous one included
	}{
		{name: "plain rows", data: "1\ta\n2\tb\n", want: []string{"1|a", "2|b"}, lines: 2},
		{name: "last row without newline", data: "1\ta\n2\tb", want: []string{"1|a", "2|b"}, lines: 2},
		{name: `\N is NULL`, data: "1\t\\N\n\\N\t\n", want: []string{"1|<null>", "<null>|"}, lines: 2},
		{name: `\N escaped is text`, data: "\\\\N\n", want: []string{`\N`}, lines: 1},
		{name: "one-letter escapes", data: "a\\tb\t\\n\\r\\\\\\b\\f\\v\n", want: []string{"a\tb|\n\r\\\b\f\v"}, lines: 1},
		{name: "octal and hex escapes", data: "\\101\\x42\\x4g\\0101\n", want: []string{"AB\x04g\b1"}, lines: 1},
		{name: "other escaped bytes stand for themselves", data: "\\q\\.x\n", want: []string{"q.x"}, lines: 1},
		{name: "escaped delimiter", data: "a\\\tb\tc\n", want: []string{"a\tb|c"}, lines: 1},
		{name: "escaped newline joins lines", data: "a\\\nb\tc\n", want: []string{"a\nb|c"}, lines: 1},
		{name: "escape making a NUL", data: "1\tok\n2\t\\x00\n", want: []string{"1|ok"}, err: `22021 invalid byte sequence for encoding "UTF8": 0x00`, lines: 2},
		{name: "escape making bad UTF-8", data: "\\777\n", err: `22021 invalid byte sequence for encoding "UTF8": 0xff`, lines: 1},
		{name: "CRLF line ends", data: "1\ta\r\n2\tb\r\n", want: []string{"1|a", "2|b"}, lines: 2},
		{name: "CR line ends", data: "1\r2\r", want: []string{"1", "2"}, lines: 2},
		{name: "literal CR in LF data", data: "1\n2\r3\n", want: []string{"1"}, err: "22P04 literal carriage return found in data", lines: 2},
		{name: "literal LF in CRLF data", data: "1\r\n2\n", want: []string{"1"}, err: "22P04 literal newline found in data", lines: 2},
		{name: "end-of-data marker", data: "1\n\\.\n2\n", want: []string{"1"}, lines: 2},
		{name: "header line skipped unread", opts: map[string]string{"header": "true"}, data: "a\\x\tb\n1\t2\n", want: []string{"1|2"}, lines: 2},
		{name: "header match", opts: map[string]string{"header": "match"}, columns: []string{"a", "b"}, data: "a\tb\n1\t2\n", want: []string{"1|2"}, lines: 2},
		{name: "header mismatch", opts: map[string]string{"header": "match"}, columns: []string{"a", "c"}, data: "a\tb\n1\t2\n", err: `22P04 column name mismatch in header line field 2: got "b", expected "c"`, lines: 1},
		{name: "CSV header match", opts: map[string]string{"format": "csv", "header": "match"}, columns: []string{"x,y", "z"}, data: "\"x,y\",z\n1,2\n", want: []string{"1|2"}, lines: 2},
		{name: "delimiter and NULL string", opts: map[string]string{"delimiter": "|", "null": "NULL"}, data: "1|NULL|\\N\n", want: []string{`1|<null>|N`}, lines: 1},
		{name: "empty line is one empty field", data: "\n", want: []string{""}, lines: 1},

		{name: "CSV plain", opts: csv, data: "1,a\n2,b\n", want: []string{"1|a", "2|b"}, lines: 2},
		{name: "CSV empty unquoted is NULL, quoted is empty", opts: csv, data: `,""` + "\n", want: []string{`<null>|`}, lines: 1},
		{name: "CSV quoted delimiter", opts: csv, data: `"a,b",c` + "\n", want: []string{"a,b|c"}, lines: 1},
		{name: "CSV doubled quote", opts: csv, data: `"say ""hi""",x` + "\n", want: []string{`say "hi"|x`}, lines: 1},
		{name: "CSV embedded newlines", opts: csv, data: "\"line1\nline2\r\nline3\",2\n", want: []string{"line1\nline2\r\nline3|2"}, lines: 1},
		{name: "CSV backslashes are data", opts: csv, data: `a\tb,\N` + "\n", want: []string{`a\tb|\N`}, lines: 1},
		{name: "CSV CRLF", opts: csv, data: "1,a\r\n2,b\r\n", want: []string{"1|a", "2|b"}, lines: 2},
		{name: "CSV ESCAPE", opts: map[string]string{"format": "csv", "escape": `\`}, data: `"a\"b\\c",d` + "\n", want: []string{`a"b\c|d`}, lines: 1},
		{name: "CSV QUOTE", opts: map[string]string{"format": "csv", "quote": "'"}, data: "'a,''b',\"c\n", want: []string{`a,'b|"c`}, lines: 1},
		{name: "CSV NULL string quoted is text", opts: map[string]string{"format": "csv", "null": "NA"}, data: `NA,"NA"` + "\n", want: []string{"<null>|NA"}, lines: 1},
		{name: "CSV FORCE_NOT_NULL", opts: map[string]string{"format": "csv", "force_not_null": "b"}, columns: []string{"a", "b"}, data: ",\n", want: []string{"<null>|"}, lines: 1},
		{name: "CSV FORCE_NULL", opts: map[string]string{"format": "csv", "force_null": "a"}, columns: []string{"a", "b"}, data: `"",""` + "\n", want: []string{"<null>|"}, lines: 1},
		{name: "CSV unterminated quote", opts: csv, data: "1,\"abc\n", err: "22P04 unterminated CSV quoted field", lines: 1},
		{name: "CSV end-of-data marker", opts: csv, data: "1\n\\.\r\n2\n", want: []string{"1"}, lines: 2},
		{name: "CSV quoted end-of-data marker is data", opts: csv, data: "\"\\.\"\n2\n", want: []string{`\.`, "2"}, lines: 2},
		{name: "CSV header", opts: map[string]string{"format": "csv", "header": "on"}, data: "\"x,y\",z\n1,2\n", want: []string{"1|2"}, lines: 2},
	} {
		for _, size := range chunkSizes {
			t.Run(fmt.Sprintf("%s/chunk %d", c.name, size), func(t *testing.T) {
				o := mustOptions(t, c.opts)
				if c.columns != nil && !o.HeaderMatch {
					if err := o.ResolveForced("t", c.columns, c.columns); err != nil {
						t.Fatal(err)
					}
				}
				rows, lines, err := readText(t, &o, c.columns, c.data, size)
				if errorText(err) != c.err {
					t.Fatalf("error %q, want %q", errorText(err), c.err)
				}
				if !reflect.DeepEqual(rows, c.want) {
					t.Errorf("rows %q, want %q", rows, c.want)
				}
				if lines != c.lines {
					t.Errorf("%d lines read, want %d", lines, c.lines)
				}
			})
		}
	}
}

// TestParseOptions: the defaults of each format, and PostgreSQL's
// refusals of options that do not fit.
func TestParseOptions(t *testing.T) {
	for _, c := range []struct {
		name string
		opts map[string]string
		from bool
		want string // the options that matter, or the error
	}{
		{"text defaults", nil, true, `text delim="\t" null="\\N" quote="\"" escape="\"" header=false`},
		{"CSV defaults", map[string]string{"format": "CSV"}, true, `csv delim="," null="" quote="\"" escape="\"" header=false`},
		{"CSV escape defaults to the quote", map[string]string{"format": "csv", "quote": "'"}, true, `csv delim="," null="" quote="'" escape="'" header=false`},
		{"CSV escape given", map[string]string{"format": "csv", "quote": "'", "escape": `\`}, true, `csv delim="," null="" quote="'" escape="\\" header=false`},
		{"binary", map[string]string{"format": "binary"}, true, `binary delim="\t" null="\\N" quote="\"" escape="\"" header=false`},
		{"header yes", map[string]string{"header": "yes"}, true, `text delim="\t" null="\\N" quote="\"" escape="\"" header=true`},
		{"header off", map[string]string{"header": "off"}, true, `text delim="\t" null="\\N" quote="\"" escape="\"" header=false`},
		{"header match", map[string]string{"header": "MATCH"}, true, `text delim="\t" null="\\N" quote="\"" escape="\"" header=true match`},
		{"encoding UTF8", map[string]string{"encoding": "utf-8"}, true, `text delim="\t" null="\\N" quote="\"" escape="\"" header=false`},
		{"unknown format", map[string]string{"format": "XML"}, true, `22023 COPY format "xml" not recognized`},
		{"two-byte delimiter", map[string]string{"delimiter": "||"}, true, "0A000 COPY delimiter must be a single one-byte character"},
		{"two-byte quote", map[string]string{"format": "csv", "quote": "''"}, true, "0A000 COPY quote must be a single one-byte character"},
		{"two-byte escape", map[string]string{"format": "csv", "escape": ""}, true, "0A000 COPY escape must be a single one-byte character"},
		{"header in binary", map[string]string{"format": "binary", "header": "true"}, true, "0A000 cannot specify HEADER in BINARY mode"},
		{"header not Boolean", map[string]string{"header": "maybe"}, true, `42601 header requires a Boolean value or "match"`},
		{"unknown option", map[string]string{"oids": "true"}, true, `42601 option "oids" not recognized`},
		{"other encoding", map[string]string{"encoding": "LATIN1"}, true, `0A000 COPY ENCODING "LATIN1" is not supported: cdcdb reads and writes COPY data in UTF8 only`},
		{"force not null outside CSV", map[string]string{"force_not_null": "a"}, true, "0A000 COPY force not null available only in CSV mode"},
		{"force quote in COPY FROM", map[string]string{"format": "csv", "force_quote": "a"}, true, "0A000 COPY force quote only available using COPY TO"},
		{"force null in COPY TO", map[string]string{"format": "csv", "force_null": "a"}, false, "0A000 COPY force null only available using COPY FROM"},
		{"force null star", map[string]string{"format": "csv", "force_null": "*"}, true, `22023 argument to option "force_null" must be a list of column names`},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, err := ParseOptions(c.opts)
			if err == nil {
				err = o.CheckForced(c.from)
			}
			got := errorText(err)
			if err == nil {
				got = fmt.Sprintf("%s delim=%q null=%q quote=%q escape=%q header=%v", o.Format, string(o.Delimiter), o.Null, string(o.Quote), string(o.Escape), o.Header)
				if o.HeaderMatch {
					got += " match"
				}
			}
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestResolveForced: the CSV column options name columns copied; a name
// of no column, or of one not copied, is refused as PostgreSQL refuses it.
func TestResolveForced(t *testing.T) {
	for _, c := range []struct {
		name         string
		opts         map[string]string
		table        string
		tableColumns []string
		copied       []string
		want         string
	}{
		{"copied column", map[string]string{"format": "csv", "force_quote": "b"}, "t", []string{"a", "b"}, []string{"a", "b"}, ""},
		{"no such column", map[string]string{"format": "csv", "force_quote": "z"}, "t", []string{"a", "b"}, []string{"a", "b"}, `42703 column "z" of relation "t" does not exist`},
		{"no such column of a query", map[string]string{"format": "csv", "force_quote": "z"}, "", nil, []string{"a"}, `42703 column "z" does not exist`},
		{"column not copied", map[string]string{"format": "csv", "force_not_null": "b"}, "t", []string{"a", "b"}, []string{"a"}, `42P10 FORCE_NOT_NULL column "b" not referenced by COPY`},
		{"force null not copied", map[string]string{"format": "csv", "force_null": "b"}, "t", []string{"a", "b"}, []string{"a"}, `42P10 FORCE_NULL column "b" not referenced by COPY`},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := mustOptions(t, c.opts)
			if got := errorText(o.ResolveForced(c.table, c.tableColumns, c.copied)); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestMatchHeader: HEADER MATCH compares the header line with the names
// of the columns copied into, case and all.
func TestMatchHeader(t *testing.T) {
	str := func(s string) *string { return &s }
	o := mustOptions(t, map[string]string{"header": "match"})
	for _, c := range []struct {
		name   string
		fields []*string
		want   string
	}{
		{"same names", []*string{str("a"), str("b")}, ""},
		{"other case", []*string{str("a"), str("B")}, `22P04 column name mismatch in header line field 2: got "B", expected "b"`},
		{"NULL name", []*string{nil, str("b")}, `22P04 column name mismatch in header line field 1: got null value ("\N"), expected "a"`},
		{"too few", []*string{str("a")}, "22P04 wrong number of fields in header line: got 1, expected 2"},
	} {
		if got := errorText(o.MatchHeader(c.fields, []string{"a", "b"})); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestWriteText: rows and header lines as PostgreSQL 15's COPY TO writes
// them: text escapes its specials, CSV quotes what would read back as
// something else.
func TestWriteText(t *testing.T) {
	null := "\x00null" // stands for NULL in the rows below
	for _, c := range []struct {
		name   string
		opts   map[string]string
		forced []string // FORCE_QUOTE columns
		header []string
		rows   [][]string
		want   string
	}{
		{name: "text specials", rows: [][]string{{"a\tb", "c\nd\re\\f", null, ""}}, want: "a\\tb\tc\\nd\\re\\\\f\t\\N\t\n"},
		{name: "text delimiter escaped", opts: map[string]string{"delimiter": "|"}, rows: [][]string{{"a|b", "c\td"}}, want: "a\\|b|c\\td\n"},
		{name: "text NULL string", opts: map[string]string{"null": "NULL"}, rows: [][]string{{null, "NULL"}}, want: "NULL\tNULL\n"},
		{name: "text header", opts: map[string]string{"header": "true"}, header: []string{"a b", "c\td"}, want: "a b\tc\\td\n"},
		{name: "CSV plain", opts: map[string]string{"format": "csv"}, rows: [][]string{{"1", "a b"}}, want: "1,a b\n"},
		{name: "CSV quotes what needs it", opts: map[string]string{"format": "csv"}, rows: [][]string{{"a,b", `say "hi"`, "l1\nl2", "cr\r", `\.`, `\.x`}}, want: `"a,b","say ""hi""","l1` + "\n" + `l2","cr` + "\r" + `","\.",\.x` + "\n"},
		{name: "CSV empty string and NULL", opts: map[string]string{"format": "csv"}, rows: [][]string{{"", null}}, want: "\"\",\n"},
		{name: "CSV NULL string given", opts: map[string]string{"format": "csv", "null": "NA"}, rows: [][]string{{"NA", null, ""}}, want: "\"NA\",NA,\n"},
		{name: "CSV escape", opts: map[string]string{"format": "csv", "escape": `\`}, rows: [][]string{{`a"b\c`}}, want: `"a\"b\\c"` + "\n"},
		{name: "CSV FORCE_QUOTE", opts: map[string]string{"format": "csv", "force_quote": "b"}, forced: []string{"a", "b"}, rows: [][]string{{"1", "2"}, {"3", null}}, want: "1,\"2\"\n3,\n"},
		{name: "CSV FORCE_QUOTE *", opts: map[string]string{"format": "csv", "force_quote": "*"}, forced: []string{"a", "b"}, rows: [][]string{{"1", ""}}, want: "\"1\",\"\"\n"},
		{name: "CSV header quoted", opts: map[string]string{"format": "csv", "header": "true"}, header: []string{"x,y", "z"}, want: "\"x,y\",z\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := mustOptions(t, c.opts)
			if c.forced != nil {
				if err := o.ResolveForced("t", c.forced, c.forced); err != nil {
					t.Fatal(err)
				}
			}
			var buf []byte
			if c.header != nil {
				buf = o.AppendHeaderLine(buf, c.header)
			}
			for _, row := range c.rows {
				buf = o.AppendTextRow(buf, len(row), func(i int) (string, bool) { return row[i], row[i] != null })
			}
			if string(buf) != c.want {
				t.Errorf("got  %q\nwant %q", buf, c.want)
			}
		})
	}
}

// TestTextRoundTrip: what COPY TO writes, COPY FROM reads back the same,
// in each text format, for fields made of every byte that is special to
// one of them. (Not a text value equal to a NULL string without a
// backslash: text COPY writes it as is, and it reads back as NULL, in
// PostgreSQL too; TestWriteText shows it.)
func TestTextRoundTrip(t *testing.T) {
	fields := []string{"", "plain", "\\", `\N`, `\.`, "\t", "\n", "\r\n", ",", `"`, `""`, "a,\"b\"\nc\\d\te", " lead", "N A"}
	for _, opts := range []map[string]string{
		nil,
		{"delimiter": ",", "null": "NA"},
		{"format": "csv"},
		{"format": "csv", "delimiter": "\t", "null": `\N`, "quote": "'", "escape": `\`},
	} {
		o := mustOptions(t, opts)
		var buf []byte
		var want []string
		for i := range fields {
			row := []string{fields[i], fields[(i+3)%len(fields)]}
			buf = o.AppendTextRow(buf, 2, func(k int) (string, bool) { return row[k], true })
			want = append(want, strings.Join(row, "|"))
		}
		buf = o.AppendTextRow(buf, 2, func(int) (string, bool) { return "", false })
		want = append(want, "<null>|<null>")
		for _, size := range chunkSizes {
			got, _, err := readText(t, &o, nil, string(buf), size)
			if err != nil {
				t.Fatalf("%v, chunk %d: %v", opts, size, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%v, chunk %d: read back %q\nwrote %q", opts, size, got, want)
			}
		}
	}
}

// TestBinary: binary COPY's signature, rows and trailer written, and read
// back across any chunking; bad data refused as PostgreSQL refuses it.
func TestBinary(t *testing.T) {
	columnTypes := []types.T{types.Of(types.Int4), types.Of(types.Text)}
	header := AppendBinaryHeader(nil)
	if want := "PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00"; string(header) != want {
		t.Fatalf("binary header %q, want %q", header, want)
	}
	data := header
	var err error
	rows := [][]types.Value{{int64(1), "one"}, {int64(-2), nil}, {nil, ""}}
	for _, r := range rows {
		if data, err = AppendBinaryRow(data, columnTypes, r); err != nil {
			t.Fatal(err)
		}
	}
	data = AppendBinaryTrailer(data)
	wantRow2 := "\x00\x02\xff\xff\xff\xff\x00\x00\x00\x00" // NULL, then an empty text
	if !strings.Contains(string(data), wantRow2) {
		t.Errorf("binary data %q lacks the row %q", data, wantRow2)
	}
	// A header extension is skipped, whatever it holds.
	withExtension := append([]byte("PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x03abc"), data[19:]...)

	read := func(data []byte, size int) ([][]types.Value, error) {
		var got [][]types.Value
		err := ReadBinary(&chunks{data: data, size: size}, columnTypes, func(vals []types.Value) error {
			got = append(got, vals)
			return nil
		})
		return got, err
	}
	for _, size := range chunkSizes {
		for name, d := range map[string][]byte{"plain": data, "header extension": withExtension} {
			got, err := read(d, size)
			if err != nil {
				t.Fatalf("%s, chunk %d: %v", name, size, err)
			}
			if !reflect.DeepEqual(got, rows) {
				t.Errorf("%s, chunk %d: read %v, want %v", name, size, got, rows)
			}
		}
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"bad signature", append([]byte("PGCOPY\n\xff\r\n\x01"), data[11:]...), "22P04 COPY file signature not recognized"},
		{"short signature", []byte("PGCOPY"), "22P04 COPY file signature not recognized"},
		{"wrong field count", append(header[:19:19], "\x00\x01\xff\xff\xff\xff\xff\xff"...), "22P04 row field count is 1, expected 2"},
		{"cut in a row", data[:len(data)-6], "22P04 unexpected EOF in COPY data"},
		{"bad int4 length", append(header[:19:19], "\x00\x02\x00\x00\x00\x02\x00\x01\xff\xff\xff\xff\xff\xff"...), "22P03 incorrect binary data format"},
	} {
		for _, size := range chunkSizes {
			_, err := read(c.data, size)
			if got := errorText(err); !strings.HasPrefix(got, c.want) {
				t.Errorf("%s, chunk %d: %q, want %q", c.name, size, got, c.want)
			}
		}
	}
}

// TestReadStopsAtTheReaderError: an error from the data's reader (a
// client's CopyFail) ends the reading with that error.
func TestReadStopsAtTheReaderError(t *testing.T) {
	fail := pgerror.New(pgerror.QueryCanceled, "COPY from stdin failed: no")
	o := mustOptions(t, nil)
	_, err := ReadText(failingReader{fail}, &o, nil, func([]*string) error { return nil })
	if !errors.Is(err, fail) {
		t.Errorf("text: %v, want %v", err, fail)
	}
	err = ReadBinary(failingReader{fail}, nil, func([]types.Value) error { return nil })
	if !errors.Is(err, fail) {
		t.Errorf("binary: %v, want %v", err, fail)
	}
}

type failingReader struct{ err error }

func (f failingReader) Next() ([]byte, error) { return nil, f.err }
