package temporal

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// specPath is the AUTO CDC contract whose worked examples spec_test.go
// checks, in the repository: go test runs in the package's directory.
const specPath = "../docs/autocdc.md"

// specTable is one worked example of the spec: the fenced block after the
// comment `<!-- checked by temporal: NAME -->`, a header line naming its
// columns and one line per row, fields separated by spaces.
type specTable struct {
	header []string
	rows   [][]string
}

// readSpecTable reads the example called name and checks that its columns
// are header, so that a table moved or reshaped in the document fails here
// rather than being read wrongly.
func readSpecTable(t *testing.T, name string, header ...string) specTable {
	t.Helper()
	doc, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatalf("reading the spec: %v", err)
	}
	marker := "<!-- checked by temporal: " + name + " -->"
	if n := strings.Count(string(doc), marker); n != 1 {
		t.Fatalf("%s has %d examples called %q, want 1", specPath, n, name)
	}
	_, after, _ := strings.Cut(string(doc), marker)
	lines := strings.Split(strings.TrimLeft(after, "\n"), "\n")
	if lines[0] != "```" {
		t.Fatalf("%s: example %q is not followed by a fenced block", specPath, name)
	}
	var tbl specTable
	for _, line := range lines[1:] {
		if line == "```" {
			if !slices.Equal(tbl.header, header) {
				t.Fatalf("%s: example %q has the columns %q, the test reads %q", specPath, name, tbl.header, header)
			}
			return tbl
		}
		fields := strings.Fields(line)
		switch {
		case len(fields) == 0:
		case tbl.header == nil:
			tbl.header = fields
		case len(fields) != len(tbl.header):
			t.Fatalf("%s: example %q: row %q has %d fields, the header %d", specPath, name, line, len(fields), len(tbl.header))
		default:
			tbl.rows = append(tbl.rows, fields)
		}
	}
	t.Fatalf("%s: example %q: the block does not end", specPath, name)
	return specTable{}
}

// lines returns the rows as formatRow prints them, one space between
// fields.
func (tbl specTable) lines() []string {
	out := make([]string, len(tbl.rows))
	for i, r := range tbl.rows {
		out[i] = strings.Join(r, " ")
	}
	return out
}

// specValue reads a field: NULL is nil, an integer an int, anything else
// (names, times of day, which order as text) a string.
func specValue(field string) any {
	if field == "NULL" {
		return nil
	}
	if n, err := strconv.Atoi(field); err == nil {
		return n
	}
	return field
}

// specEvents turns a table of source events into Events. The columns
// operation (INSERT, UPDATE or DELETE; every event is an upsert without
// it), sequenceNum or business_time (the sequence) and system_time (the
// system sequence) describe the event; every other column is a data
// value, in the table's order.
func specEvents(t *testing.T, tbl specTable) []Event {
	t.Helper()
	var events []Event
	for _, row := range tbl.rows {
		e := Event{Kind: Upsert}
		for i, column := range tbl.header {
			v := specValue(row[i])
			switch column {
			case "operation":
				switch row[i] {
				case "INSERT", "UPDATE":
				case "DELETE":
					e.Kind = Delete
				default:
					t.Fatalf("spec event %q: operation %q is not an upsert or a delete", row, row[i])
				}
			case "sequenceNum", "business_time":
				e.Seq = seq(v)
			case "system_time":
				e.SysSeq = seq(v)
			default:
				e.Values = append(e.Values, v)
			}
		}
		if e.Seq == nil {
			t.Fatalf("spec event %q has no sequence value", row)
		}
		events = append(events, e)
	}
	return events
}
