package main

import (
	"fmt"
	"slices"
	"strings"

	"cdcdb/cdcexec"
	"cdcdb/sql"
)

// The server's fast paths: code that exists to win benchmark workloads,
// each beside a general path that computes the same. -fast-paths-off turns
// them off, all of them (given alone) or those it names, so that a
// benchmark can run on the general paths and show what each buys
// (docs/fast-paths.md lists them, their tests and their figures).

// fastPath names one fast path on the command line.
type fastPath string

const (
	fastCopyAhead      fastPath = "copy-ahead"
	fastSourceSpool    fastPath = "source-spool"
	fastNumberedPlans  fastPath = "numbered-plans"
	fastStoredRowScans fastPath = "stored-row-scans"
	fastEncodedSCD2    fastPath = "encoded-scd2"
	fastSharedApply    fastPath = "shared-apply"
	fastRawSocketIO    fastPath = "raw-socket-io"
	fastGCPacing       fastPath = "gc-pacing"
	fastLazyFree       fastPath = "lazy-free"
)

// allFastPaths lists every fast path, in the order -help names them.
var allFastPaths = []fastPath{
	fastCopyAhead, fastSourceSpool, fastNumberedPlans, fastStoredRowScans,
	fastEncodedSCD2, fastSharedApply, fastRawSocketIO, fastGCPacing, fastLazyFree,
}

// fastPathsOff is the value of -fast-paths-off: the fast paths turned off.
type fastPathsOff map[fastPath]bool

// fastPathsOffUsage is -fast-paths-off's line in -help.
func fastPathsOffUsage() string {
	return "run on the general paths instead of the benchmarks' fast paths: all of them when given alone, or those listed (comma-separated: " +
		fastPathsOff{}.names() + "); see docs/fast-paths.md"
}

// IsBoolFlag lets -fast-paths-off stand alone, which sets it to "true".
func (f fastPathsOff) IsBoolFlag() bool { return true }

func (f fastPathsOff) String() string {
	var names []string
	for _, p := range allFastPaths {
		if f[p] {
			names = append(names, string(p))
		}
	}
	return strings.Join(names, ",")
}

// Set takes "true" or "all" (every fast path), "false" or "none" (none),
// or a comma-separated list of names; an unknown name is refused.
func (f fastPathsOff) Set(s string) error {
	clear(f)
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "all":
		for _, p := range allFastPaths {
			f[p] = true
		}
		return nil
	case "false", "none", "":
		return nil
	}
	for _, name := range strings.Split(s, ",") {
		p := fastPath(strings.ToLower(strings.TrimSpace(name)))
		if !slices.Contains(allFastPaths, p) {
			return fmt.Errorf("no fast path is called %q; the fast paths are %s", name, fastPathsOff{}.names())
		}
		f[p] = true
	}
	return nil
}

// all is every fast path off.
func (fastPathsOff) all() fastPathsOff {
	f := fastPathsOff{}
	for _, p := range allFastPaths {
		f[p] = true
	}
	return f
}

func (fastPathsOff) names() string {
	names := make([]string, len(allFastPaths))
	for i, p := range allFastPaths {
		names[i] = string(p)
	}
	return strings.Join(names, ", ")
}

// engine is what the sql engine's options say of the fast paths.
func (f fastPathsOff) engine() sql.FastPathsOff {
	return sql.FastPathsOff{
		CopyAhead:      f[fastCopyAhead],
		SourceSpool:    f[fastSourceSpool],
		NumberedPlans:  f[fastNumberedPlans],
		StoredRowScans: f[fastStoredRowScans],
		Flows: cdcexec.FastPathsOff{
			EncodedSCD2: f[fastEncodedSCD2],
			SharedApply: f[fastSharedApply],
		},
	}
}
