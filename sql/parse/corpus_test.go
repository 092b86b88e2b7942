package parse

import (
	"os"
	"strings"
	"testing"
)

// readCorpus splits a testdata file into statements at lines "-- @@@".
func readCorpus(t testing.TB, name string) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range strings.Split(string(b), "-- @@@\n") {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// TestPsqlDescribeQueries parses every catalog query psql 15 sends for its
// backslash commands (captured with psql -E against PostgreSQL 15).
func TestPsqlDescribeQueries(t *testing.T) {
	qs := readCorpus(t, "psql_describe.sql")
	if len(qs) < 90 {
		t.Fatalf("corpus has %d queries", len(qs))
	}
	for _, q := range qs {
		if _, err := Parse(q); err != nil {
			t.Errorf("%v\n%s", err, q)
		}
	}
}
