package sql

import "cdcdb/cdcexec"

// FastPathsOff turns off the engine's benchmark fast paths: code that
// exists to win a benchmark workload and has a general path beside it that
// computes the same result. Each is held to its general path by a
// differential test on the same random workload, and docs/fast-paths.md
// lists them with their switches, tests and what each buys. A server runs
// on the general paths alone (cdcdb -fast-paths-off) to measure what the
// fast ones buy, or to rule them out when a result looks wrong. The zero
// value takes every fast path.
type FastPathsOff struct {
	// CopyAhead: a COPY that is the whole of its transaction commits as
	// any statement, without writing its rows ahead (copyahead.go). COPYs
	// written ahead by an earlier run are still redone at start.
	CopyAhead bool
	// SourceSpool: a COPY into a flow's source stores its rows on the
	// session's goroutine rather than on one of their own
	// (sourcespool.go).
	SourceSpool bool
	// NumberedPlans: texts that differ only in their numbers are planned
	// each as itself, never through a generic plan of the text with its
	// numbers made parameters (plancache_numbers.go).
	NumberedPlans bool
	// StoredRowScans: a scan reads every row of its range, decodes it and
	// evaluates its whole filter on the decoded row, rather than stepping
	// over the versions of an SCD TYPE 2 key that a whole-table AS OF
	// cannot hold by their keys' bytes (scan_asof_keys.go), testing period
	// clauses on the stored encodings and skipping a filter they or the key
	// range decide (scan_period.go); and a query returning a table's
	// columns as they are sends their values the usual way, rather than
	// from their stored encodings (scan_stored.go).
	StoredRowScans bool
	// Flows are the flow executor's fast paths (cdcexec.FastPathsOff).
	Flows cdcexec.FastPathsOff
}

// fastPathCounts counts what of a session's statements took a fast path:
// statements parsed through a generic plan of their numbers, scans that
// sent stored encodings, and of the flows' batches the keys continued on
// stored encodings and the batches shared with a helper goroutine.
type fastPathCounts struct {
	numberedPlans, storedRowScans  int
	encodedSCD2Keys, sharedBatches int
}
