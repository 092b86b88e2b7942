// Package temporal owns the period logic of AUTO CDC flows: what rows a key's
// change events leave in an SCD TYPE 1, SCD TYPE 2 or BITEMPORAL target, and
// the AS OF / FROM..TO / BETWEEN predicates that read periods back.
//
// It is pure: no I/O, no storage, no SQL, no clocks, no globals. Values and
// sequence values are opaque to it; the caller passes the comparator and the
// equality it must use (Rules), so the package works for any column type,
// including STRUCT(...) sequences.
//
// # How data passes through
//
// The CDC executor keeps, per flow and per key, the key's whole event history.
// For each new batch of source rows touching a key it
//
//  1. turns each row into an Event (sequence value, kind, one value per target
//     data column, the columns it writes),
//  2. folds the batch into the key's history with Rules.Merge, which keeps the
//     history sorted, drops identical retries and refuses two different events
//     with one sequence value (a *ConflictError naming key and sequence),
//  3. recomputes the key's target rows from the whole history with
//     Rules.ReplaySCD1, Rules.ReplaySCD2 or Rules.ReplayBitemporal, and
//  4. replaces the key's target rows with the result.
//
// Because step 3 starts from the full history every time, the target never
// depends on the order in which events arrived or on how they were batched:
// the contract of the spec (docs/autocdc.md, §2).
//
// When a batch's events all come after the key's history (for BITEMPORAL, on
// both axes), replaying the history again would only recompute what the
// target already holds, so the executor continues the replay instead from
// the state that history left: ContinueSCD1, ContinueSCD2 and
// ContinueBitemporal (continue.go) give exactly what the full replay gives,
// which their property tests check for every cut of random histories.
//
// Cost: ReplaySCD1 and ReplaySCD2 are O(events of the key) comparisons and
// allocations; Merge is O(history + batch·log batch). ReplayBitemporal sorts
// the events by system time, then for each system time re-derives the
// business timeline from its first changed business time only until the
// replay is back in the state it was in before: O(events·log events) when
// each system time changes the timeline near its own events (events in order
// on both axes, backfills, corrections), O(events²) at worst (a change that
// IGNORE NULL UPDATES carries through the whole later timeline). Backfilling
// in business time also moves one pointer per later event per system time.
// BenchmarkReplayBitemporal measures both shapes.
//
// # What it must not do
//
// It never modifies its inputs and keeps no state between calls, so one
// Rules value serves any number of goroutines if its functions do. Results
// hold freshly allocated value slices but share Seq values with the events
// they came from: treat Seqs as immutable everywhere. It does not know about
// TRUNCATE as an event: a truncate has no key, so the executor keeps the
// flow's latest truncate mark (LaterTruncateMark) and passes it to ReplaySCD1.
package temporal
