package catalog

import "testing"

// TestStoredAsNamed: STORED AS reads in any case, no clause is SCD TYPE
// 1, and only the three forms are forms.
func TestStoredAsNamed(t *testing.T) {
	for _, c := range []struct {
		written string
		want    StoredAs
		ok      bool
		history bool
	}{
		{"", SCD1, true, false},
		{"SCD TYPE 1", SCD1, true, false},
		{"scd type 2", SCD2, true, true},
		{"Bitemporal", Bitemporal, true, true},
		{"SCD TYPE 3", "", false, false},
		{"SCD  TYPE 2", "", false, false},
	} {
		got, ok := StoredAsNamed(c.written)
		if got != c.want || ok != c.ok {
			t.Errorf("StoredAsNamed(%q) = %q, %v; want %q, %v", c.written, got, ok, c.want, c.ok)
		}
		if ok && got.KeepsHistory() != c.history {
			t.Errorf("%s.KeepsHistory() = %v, want %v", got, !c.history, c.history)
		}
	}
}
