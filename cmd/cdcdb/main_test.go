package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"cdcdb/storage"
)

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in       string
		canBeOff bool
		want     int64
		ok       bool
	}{
		{"384MiB", false, 384 << 20, true}, {"1GiB", false, 1 << 30, true}, {"64MB", false, 64_000_000, true},
		{"512 KiB", false, 512 << 10, true}, {"1048576", false, 1 << 20, true}, {"12B", false, 12, true},
		{"off", true, sizeOff, true}, {"OFF", true, sizeOff, true},
		// 0 is refused, whether the knob can be off or not: it would mean
		// none here and the default in storage.Options.
		{"0", true, 0, false}, {"0MiB", true, 0, false}, {"0", false, 0, false}, {"off", false, 0, false},
		{"", false, 0, false}, {"-1MiB", false, 0, false}, {"1.5GiB", false, 0, false}, {"lots", true, 0, false}, {"9999999999GiB", false, 0, false},
	} {
		got, err := parseSize("-x", c.in, c.canBeOff)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseSize(%q, canBeOff %v) = %d, %v; want %d (ok %v)", c.in, c.canBeOff, got, err, c.want, c.ok)
		}
	}
}

// TestSizeFlagDefaultsAreStorages: the memtable and block cache flags
// default to storage's own defaults, so the server runs with what the zero
// storage.Options means, and each knob has one default.
func TestSizeFlagDefaultsAreStorages(t *testing.T) {
	var cfg config
	fs := flags(&cfg)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flag, value string
		want        int64
	}{
		{"memtable", cfg.memtable, storage.DefaultMemtableSize},
		{"block-cache", cfg.cache, storage.DefaultBlockCacheSize},
		{"memory-limit", cfg.memLimit, defaultMemoryLimit},
		{"gc-headroom", cfg.gcHeadroom, defaultGCHeadroom},
	} {
		got, err := parseSize("-"+c.flag, c.value, true)
		if err != nil || got != c.want {
			t.Errorf("-%s defaults to %q (%d, %v), want %d", c.flag, c.value, got, err, c.want)
		}
	}
	if got := formatSize(48 << 20); got != "48MiB" {
		t.Errorf("formatSize(48 MiB) = %q", got)
	}
	if got := formatSize(1536 << 10); got != "1536KiB" {
		t.Errorf("formatSize(1.5 MiB) = %q", got)
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
		{[]string{"-memory-limit=off"}, true},
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

// TestReadPasswordFile: the first line is the password, whatever its line
// end; an empty one or a missing file is an error.
func TestReadPasswordFile(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		content, want string
		fails         bool
	}{
		{"s3cret\n", "s3cret", false},
		{"s3cret", "s3cret", false},
		{"s3cret\r\nignored\n", "s3cret", false},
		{" spaced pw \n", " spaced pw ", false},
		{"\nsecond line\n", "", true},
		{"", "", true},
	} {
		path := filepath.Join(dir, "pw")
		if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := readPasswordFile(path)
		if (err != nil) != tc.fails || got != tc.want {
			t.Errorf("%q: %q, %v; want %q, fails %v", tc.content, got, err, tc.want, tc.fails)
		}
	}
	if _, err := readPasswordFile(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing file was read")
	}
}
