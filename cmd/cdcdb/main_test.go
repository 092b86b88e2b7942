package main

import (
	"flag"
	"testing"
)

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

// TestFlagGiven: -memory-limit's default gives way to $GOMEMLIMIT only when
// the command line does not set it, whatever value it sets.
func TestFlagGiven(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"-memtable", "8MiB"}, false},
		{[]string{"-memory-limit", "384MiB"}, true},
		{[]string{"-memory-limit=0"}, true},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.String("memory-limit", "384MiB", "")
		fs.String("memtable", "48MiB", "")
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if got := flagGiven(fs, "memory-limit"); got != tc.want {
			t.Errorf("%q: flagGiven = %v, want %v", tc.args, got, tc.want)
		}
	}
}
