// Package history keeps every committed version of a table's rows, so
// queries can read a table as it was committed at any moment
// (FOR SYSTEM_TIME AS OF).
//
// A table's current rows live in its data space, each value prefixed with
// the commit time at which that version became current. When a version is
// replaced or deleted, it moves to two history spaces with its system
// period [start, end):
//
//	h/<table>   rowKey + start        -> end + row     (a key's versions, for point reads)
//	hx/<table>  end + rowKey + start  -> (empty)        (versions by end, for whole-table reads)
//
// So AS OF t for one key is one seek, and AS OF t over a table reads the
// current rows plus only the versions that ended after t, never the whole
// history. Versions leave history only through Prune (a table's
// history_retention); nothing else removes them.
//
// A table opened with embed (a streaming table: any flow's target) keeps
// the version a write replaces in the new current value instead (see
// previousFlag), and archives it only when that row changes again: an SCD
// TYPE 2 version is closed once and then left alone, so its open-ended
// predecessor never costs the two history entries. Readers of current rows
// find embedded versions as they go. A writer must pass the value as
// stored (Replace returns it) as the old value of the next write, or the
// embedded version is lost. Prune cannot reach embedded versions: the
// table's pruned-through time hides those that ended before it, and the
// write that would archive one drops it.
//
// Each table also has a change log (changes.go): per commit, the keys whose
// version it started or ended, so that the changes of a window of commits
// (the change feed) are read at the cost of the window: two seeks a change.
// LogChanges writes a commit's entry, Prune removes the entries with the
// versions, and ChangesFrom says from when the log is whole.
//
// RewriteTuples (rewrite.go) converts the tuple of every version of a
// table, current, embedded and archived, keeping their periods: ALTER
// COLUMN ... TYPE converts the past as it converts the present.
//
// Commit times are microseconds since the Unix epoch, strictly increasing
// across write transactions (the clock is kept in the file, so a restart or
// a clock step back never reuses one). A transaction that learns its commit
// time only when it commits writes at ProvisionalCommitTime, and Restamp
// moves what it wrote to the real time then (restamp.go).
//
// The package stores and finds versions; it does not know SQL or types
// beyond the row codec.
package history
