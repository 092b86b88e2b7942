// Package cdcexec applies the change events written to a flow's source to
// the flow's target, inside the storage transaction of the write.
//
// It owns a flow's private state: its log of every event ever applied, one
// entry per event under the key's encoded KEYS tuple and the event's
// sequence value (tombstones included, never expired), and for SCD TYPE 1
// the latest truncate mark.
//
// How a batch passes through: Apply groups the batch's events by key,
// refusing NULL keys or sequences and conflicting events (two different
// events for one key and sequence value), and for each key:
//
//   - when the key has events in the log and all its new events come after
//     them (for BITEMPORAL, on both axes), it appends them to the log and continues the
//     replay from the state the target already holds - the SCD TYPE 1 row,
//     the open SCD TYPE 2 version, the last row of the latest bitemporal
//     timeline - through temporal's Continue functions, touching only the rows
//     that change;
//   - otherwise (a new key included, whose rows in the target, if any, are
//     not this flow's) it merges them into the key's history from the log
//     (dropping identical retries), replays the whole history through
//     temporal/ and rewrites the key's rows where they differ, replacing any
//     others.
//
// Either way the target equals the replay of the key's whole history (spec
// §2). Work per event is constant on the first path and proportional to the
// key's history on the second; a truncate that moves the mark replays every
// key.
//
// A StateCache (one per flow, kept by the caller) remembers each recently
// touched key's last sequence value (encoded) and the row the first path
// continues from, as stored, so that path usually reads nothing from
// storage. A transaction writes through it and undoes its writes if it
// rolls back: see cache.go. A cache that has held every key of its flow
// since the flow stored nothing (a new flow) knows a key it does not hold
// to be new, and that key's first events read nothing either.
//
// A batch of many keys, in a transaction that has not yet written the
// flow's log or target, is shared with a helper goroutine, which applies
// its part of the keys into a fork of the transaction (parallel.go).
//
// For SCD TYPE 2 flows the first path works on values as their stored
// encodings (scd2enc.go) instead of decoding them for temporal's
// ContinueSCD2: the same rows, byte for byte, which a test holds it to.
//
// Both fast paths, the helper and the encoded continuation, can be turned
// off per flow (Flow.FastPathsOff, which the sql package fills from the
// server's -fast-paths-off): each is tested against the general path on the
// same random batches (TestSharedApplyMatchesOneGoroutine,
// TestEncodedSCD2MatchesGeneral), and docs/fast-paths.md says what each buys.
//
// A flow FROM SNAPSHOT (snapshot.go) uses the same log and Apply: its log
// holds full-state events only (an upsert with every value, or a delete), so
// a key's state at a version is its last event at or before it, and the
// flow also keeps the versions it applied ("versions" space). ApplySnapshot
// takes a snapshot's rows through SnapshotRows (snapshotsort.go), which keeps
// them as bytes and spills sorted runs to temporary files past a memory
// budget, merges them in key order with a walk of the log, and turns the
// differences into events at the snapshot's version - plus, for a version
// older than one already applied, events at the next version restating what
// that snapshot held - which Apply applies in batches. Unchanged keys are
// compared as stored bytes and cost no decoding.
//
// It does not parse or evaluate SQL: the sql package compiles a flow's
// expressions (keys, SEQUENCE BY, APPLY AS DELETE WHEN, ...) into an
// Extract function that turns a source row into an Event, and the target's
// NOT NULL and CHECK constraints into a RowCheck that Apply runs on every
// row before it writes it (a refusal fails the batch).
package cdcexec
