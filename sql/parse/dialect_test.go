package parse

import "testing"

// TestDialectNames: each dialect reads back from its name, and no other
// name is a dialect.
func TestDialectNames(t *testing.T) {
	for _, d := range Dialects() {
		if got, ok := DialectNamed(d.String()); !ok || got != d {
			t.Errorf("DialectNamed(%q) = %v, %v; want %v", d.String(), got, ok, d)
		}
	}
	for _, name := range []string{"", "Postgres", "mysql", "databricks "} {
		if d, ok := DialectNamed(name); ok {
			t.Errorf("DialectNamed(%q) = %v, want no dialect", name, d)
		}
	}
	if DialectPostgres.String() != "postgres" || DialectDatabricks.String() != "databricks" {
		t.Errorf("names %q, %q; the settings and the catalog file spell them postgres, databricks", DialectPostgres, DialectDatabricks)
	}
}
