package main

import (
	"os"
	"strings"
	"syscall"
)

// Freed heap memory goes back to the kernel lazily.
//
// Go returns heap pages it no longer needs with MADV_DONTNEED, which drops
// them at once: the next use of such a page faults and gets a new, zeroed
// one. A server under a write load frees and reuses far more than it keeps
// (log records, checkpoint blocks, merged memtable runs), and its
// scavenger returns pages whenever the heap nears -memory-limit or, after
// an idle spell, its collection goal: on this project's benchmark VM a
// feed of a million SCD TYPE 2 events took 19,000 to 23,000 such faults a
// few seconds after the last one and 34,000 to 64,000 after 150 s idle
// (about 11 µs of CPU each there, measured alone), against 3,000 to
// 5,000 with MADV_FREE, which leaves the pages with the process until the
// kernel needs the memory. Go picks MADV_FREE under GODEBUG=madvdontneed=0, a
// setting it reads only at startup and takes neither from //go:debug nor
// from go.mod, so the server starts itself again with it set, unless
// GODEBUG already says which to use.
//
// The cost: the kernel counts pages freed this way in the process's RSS
// until it takes them back, so the RSS stays near the heap's high-water
// mark instead of falling with what is in use, and a peak RSS counts
// those pages too.

// lazyFreeSetting is the GODEBUG setting this file is about.
const lazyFreeSetting = "madvdontneed"

// restartWithLazyFree execs the running binary again with
// GODEBUG=madvdontneed=0 added, when GODEBUG does not set madvdontneed.
// It returns only if it does not exec (the setting is there, or exec
// failed: then the server runs as it is).
func restartWithLazyFree() {
	godebug, set := os.LookupEnv("GODEBUG")
	if set && godebugSets(godebug, lazyFreeSetting) {
		return
	}
	if godebug != "" {
		godebug += ","
	}
	godebug += lazyFreeSetting + "=0"
	env := append([]string{"GODEBUG=" + godebug}, withoutGodebug(os.Environ())...)
	// /proc/self/exe is this very binary, even if its path has changed
	// since it started.
	_ = syscall.Exec("/proc/self/exe", os.Args, env)
}

// withoutGodebug returns environ without its GODEBUG entries.
func withoutGodebug(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "GODEBUG=") {
			out = append(out, kv)
		}
	}
	return out
}

// godebugSets reports whether a GODEBUG value sets key.
func godebugSets(godebug, key string) bool {
	for _, field := range strings.Split(godebug, ",") {
		if k, _, ok := strings.Cut(strings.TrimSpace(field), "="); ok && k == key {
			return true
		}
	}
	return false
}
