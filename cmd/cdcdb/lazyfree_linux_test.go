package main

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"cdcdb/pgtests/pgserver"
)

func TestGodebugSets(t *testing.T) {
	for _, c := range []struct {
		godebug string
		want    bool
	}{
		{"", false},
		{"madvdontneed=1", true},
		{"gctrace=1, madvdontneed=0", true},
		{"madvdontneedx=1", false},
		{"gctrace=1", false},
		{"madvdontneed", false},
	} {
		if got := godebugSets(c.godebug, lazyFreeSetting); got != c.want {
			t.Errorf("godebugSets(%q) = %v, want %v", c.godebug, got, c.want)
		}
	}
}

// TestServerRunsWithLazyFree starts the built server and reads the
// environment its running process has: GODEBUG=madvdontneed=0 added to
// what it was given, or left as the user set it.
func TestServerRunsWithLazyFree(t *testing.T) {
	bin, err := pgserver.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		env  pgserver.Option
		args []string
		want string // "": no GODEBUG at all
	}{
		{"unset", pgserver.WithoutEnv("GODEBUG"), nil, "GODEBUG=madvdontneed=0"},
		{"other settings kept", pgserver.WithEnv("GODEBUG", "gctrace=0"), nil, "GODEBUG=gctrace=0,madvdontneed=0"},
		{"the user's choice wins", pgserver.WithEnv("GODEBUG", "madvdontneed=1"), nil, "GODEBUG=madvdontneed=1"},
		{"turned off", pgserver.WithoutEnv("GODEBUG"), []string{"-fast-paths-off=lazy-free"}, ""},
		{"turned off with the others", pgserver.WithEnv("GODEBUG", "gctrace=0"), []string{"-fast-paths-off"}, "GODEBUG=gctrace=0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := pgserver.Start(t, bin, c.env, pgserver.WithArgs(c.args...))
			raw, err := os.ReadFile("/proc/" + strconv.Itoa(srv.Pid()) + "/environ")
			if err != nil {
				t.Fatal(err)
			}
			var godebug []string
			for _, kv := range strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00") {
				if strings.HasPrefix(kv, "GODEBUG=") {
					godebug = append(godebug, kv)
				}
			}
			if c.want == "" && len(godebug) != 0 || c.want != "" && (len(godebug) != 1 || godebug[0] != c.want) {
				t.Errorf("the running server's GODEBUG: %q, want [%q]", godebug, c.want)
			}
		})
	}
}
