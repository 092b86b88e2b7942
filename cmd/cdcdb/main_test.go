package main

import "testing"

func TestParseBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"384MiB", 384 << 20, true}, {"1GiB", 1 << 30, true}, {"64MB", 64_000_000, true},
		{"512 KiB", 512 << 10, true}, {"1048576", 1 << 20, true}, {"0", 0, true}, {"12B", 12, true},
		{"", 0, false}, {"-1MiB", 0, false}, {"1.5GiB", 0, false}, {"lots", 0, false}, {"9999999999GiB", 0, false},
	} {
		got, err := parseBytes("-x", c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d (ok %v)", c.in, got, err, c.want, c.ok)
		}
	}
}
