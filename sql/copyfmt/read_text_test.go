package copyfmt

import (
	"strings"
	"testing"
)

// TestCopyStopsAtTheEndOfDataMarker: a line holding \. alone (with its
// line ending, \n or \r\n, or none at the end of the data) ends text and
// CSV COPY data, and what follows it is not read; a line that only starts
// with those two bytes, or an escaped backslash before a dot, is a row.
func TestCopyStopsAtTheEndOfDataMarker(t *testing.T) {
	for _, c := range []struct {
		data string
		rows []string
		end  bool
	}{
		{"1\ta\n\\.\n2\tb\n", []string{"1,a"}, true},
		{"1\ta\r\n\\.\r\n2\tb\n", []string{"1,a"}, true},
		{"1\ta\n\\.", []string{"1,a"}, true},
		{"\\.x\t1\n", []string{".x,1"}, false},
		{"\\\\.\t1\n", []string{"\\.,1"}, false},
		{"1\t\\.\n", []string{"1,."}, false},
	} {
		var got []string
		p := &rowParser{}
		o := &Options{Format: Text, Delimiter: '\t', Null: `\N`}
		_, end, err := splitRows(p, []byte(c.data), o, true, func(fields []*string) error {
			var vals []string
			for _, f := range fields {
				vals = append(vals, *f)
			}
			got = append(got, strings.Join(vals, ","))
			return nil
		})
		if err != nil {
			t.Errorf("%q: %v", c.data, err)
			continue
		}
		if strings.Join(got, "|") != strings.Join(c.rows, "|") || end != c.end {
			t.Errorf("%q: rows %q, end of data %v; want %q, %v", c.data, got, end, c.rows, c.end)
		}
	}
}
