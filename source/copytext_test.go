package source

import (
	"slices"
	"strings"
	"testing"
)

func TestDecodeCopyText(t *testing.T) {
	cases := []struct {
		line string
		n    int
		want []Value
		err  string
	}{
		{line: "1\tabc", n: 2, want: []Value{Text("1"), Text("abc")}},
		{line: `\N` + "\t" + `x\Ny`, n: 2, want: []Value{Null(), Text("xNy")}},
		{line: `a\tb\nc\\d\re\bf\fg\vh`, n: 1, want: []Value{Text("a\tb\nc\\d\re\bf\fg\vh")}},
		{line: `\x41\x4a\x4\101\0\7z`, n: 1, want: []Value{Text("AJ\x04A\x00\az")}},
		{line: `\xg`, n: 1, want: []Value{Text("xg")}},
		{line: `\\N`, n: 1, want: []Value{Text(`\N`)}},
		{line: "", n: 1, want: []Value{Text("")}},
		{line: "\t", n: 2, want: []Value{Text(""), Text("")}},
		{line: `{"a\\\\b"}`, n: 1, want: []Value{Text(`{"a\\b"}`)}},
		{line: "1\t2", n: 1, err: "more than 1 columns"},
		{line: "1", n: 2, err: "1 columns, expected 2"},
		{line: `abc\`, n: 1, err: "lone backslash"},
	}
	for _, c := range cases {
		got, err := decodeCopyText([]byte(c.line), c.n, nil)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.line, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, %v; want %v", c.line, got, err, c.want)
		}
	}
}

// TestCopyLinesCutsRows: rows arrive cut anywhere, several per write or
// one across writes.
func TestCopyLinesCutsRows(t *testing.T) {
	stream := "a\t1\nbb\t22\n\nccc\t333\n"
	for cut := 1; cut <= len(stream); cut++ {
		var rows []string
		w := &copyLines{row: func(line []byte) error { rows = append(rows, string(line)); return nil }}
		for i := 0; i < len(stream); i += cut {
			chunk := []byte(stream[i:min(i+cut, len(stream))])
			if n, err := w.Write(chunk); n != len(chunk) || err != nil {
				t.Fatalf("Write: %d, %v", n, err)
			}
		}
		if err := w.finish(); err != nil {
			t.Fatal(err)
		}
		if want := []string{"a\t1", "bb\t22", "", "ccc\t333"}; !slices.Equal(rows, want) {
			t.Fatalf("cut %d: rows %q, want %q", cut, rows, want)
		}
	}
	w := &copyLines{row: func([]byte) error { return nil }}
	_, _ = w.Write([]byte("unfinished"))
	if w.finish() == nil {
		t.Errorf("a row without its newline went unnoticed")
	}
}

// escapeCopyText is COPY TO's escaping, as PostgreSQL writes it.
func escapeCopyText(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`, "\b", `\b`, "\f", `\f`, "\v", `\v`).Replace(s)
}

// FuzzDecodeCopyText: any row PostgreSQL could write decodes back to its
// values, and no input makes the decoder panic.
func FuzzDecodeCopyText(f *testing.F) {
	f.Add("plain", "with\ttab\nand\\backslash", true)
	f.Add("", `\N`, false)
	f.Add("é€🙂", "\x00\x7f", true)
	f.Fuzz(func(t *testing.T, a, b string, bNull bool) {
		line := escapeCopyText(a) + "\t"
		want := []Value{Text(a), Text(b)}
		if bNull {
			line += `\N`
			want[1] = Null()
		} else {
			line += escapeCopyText(b)
		}
		got, err := decodeCopyText([]byte(line), 2, nil)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("%q: %v, %v; want %v", line, got, err, want)
		}
		_, _ = decodeCopyText([]byte(a+b), 3, nil) // arbitrary bytes: an error at most
	})
}
