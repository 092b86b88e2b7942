package main

import (
	"io"
	"reflect"
	"slices"
	"testing"

	"cdcdb/sql"
)

// TestFastPathsOffFlag: -fast-paths-off alone turns every fast path off,
// =LIST those it names, =none none; an unknown name is refused, and a
// word left after the bare flag too.
func TestFastPathsOffFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []fastPath
		ok   bool
	}{
		{nil, nil, true},
		{[]string{"-fast-paths-off"}, allFastPaths, true},
		{[]string{"-fast-paths-off=all"}, allFastPaths, true},
		{[]string{"-fast-paths-off=true"}, allFastPaths, true},
		{[]string{"-fast-paths-off=none"}, nil, true},
		{[]string{"-fast-paths-off=copy-ahead, Raw-Socket-IO"}, []fastPath{fastCopyAhead, fastRawSocketIO}, true},
		{[]string{"-fast-paths-off=copy-ahead,bogus"}, nil, false},
	} {
		var cfg config
		fs := flags(&cfg)
		fs.SetOutput(io.Discard)
		err := fs.Parse(c.args)
		if (err == nil) != c.ok {
			t.Errorf("%q: error %v, want ok %v", c.args, err, c.ok)
			continue
		}
		if !c.ok {
			continue
		}
		var got []fastPath
		for _, p := range allFastPaths {
			if cfg.fastPathsOff[p] {
				got = append(got, p)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: off %v, want %v", c.args, got, c.want)
		}
	}
	if code := run([]string{"-fast-paths-off", "copy-ahead"}); code != 2 {
		t.Errorf("a list after the bare flag, as a word of its own: exit %d, want 2", code)
	}
	if code := run([]string{"-fast-paths-off=gc-pacing", "-gc-headroom", "64MiB"}); code != 2 {
		t.Errorf("gc-pacing off beside a -gc-headroom: exit %d, want 2", code)
	}
}

// TestEachEngineFastPathHasItsOwnSwitch: each name of an engine fast path
// turns off one field of sql.FastPathsOff, a different one for each, and
// together they turn off every field: no name is ignored, and no switch
// lacks a name.
func TestEachEngineFastPathHasItsOwnSwitch(t *testing.T) {
	fields := func(o sql.FastPathsOff) []string {
		var on []string
		var walk func(v reflect.Value, prefix string)
		walk = func(v reflect.Value, prefix string) {
			for i := range v.NumField() {
				f := v.Field(i)
				name := prefix + v.Type().Field(i).Name
				if f.Kind() == reflect.Struct {
					walk(f, name+".")
				} else if f.Bool() {
					on = append(on, name)
				}
			}
		}
		walk(reflect.ValueOf(o), "")
		return on
	}
	seen := map[string]fastPath{}
	for _, p := range allFastPaths {
		switch p {
		case fastRawSocketIO, fastGCPacing, fastLazyFree:
			continue // the server's own, not the engine's
		}
		set := fields(fastPathsOff{p: true}.engine())
		if len(set) != 1 {
			t.Fatalf("%s turns off %v, want one switch", p, set)
		}
		if other, ok := seen[set[0]]; ok {
			t.Fatalf("%s and %s both turn off %s", p, other, set[0])
		}
		seen[set[0]] = p
	}
	all := fields(fastPathsOff{}.all().engine())
	if len(all) != len(seen) {
		t.Fatalf("every name together turns off %v; one by one %d switches", all, len(seen))
	}
}

// TestWantsLazyFree: the server execs itself for lazy freeing unless the
// command line turns lazy-free off; a command line that does not parse
// leaves the decision to run, which refuses it.
func TestWantsLazyFree(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{nil, true},
		{[]string{"-listen", "127.0.0.1:0"}, true},
		{[]string{"-fast-paths-off=copy-ahead"}, true},
		{[]string{"-fast-paths-off=lazy-free"}, false},
		{[]string{"-fast-paths-off"}, false},
		{[]string{"-fast-paths-off=bogus"}, true},
		{[]string{"check", "-data", "x.db"}, true},
	} {
		if got := wantsLazyFree(c.args); got != c.want {
			t.Errorf("wantsLazyFree(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}
