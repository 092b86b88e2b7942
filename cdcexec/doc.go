// Package cdcexec applies the change events written to a flow's source to
// the flow's target, inside the storage transaction of the write.
//
// It owns a flow's private state: every event ever applied, kept per key in
// sequence order (the key's history, tombstones included, never expired),
// and for SCD TYPE 1 the latest truncate mark. For each batch of source rows
// it merges the new events into the histories of the keys they touch
// (refusing conflicting ones, dropping identical retries), replays each
// touched key's history through temporal/ and replaces that key's target
// rows. Work is proportional to the touched keys' histories, never to the
// whole target; a truncate is the one event that visits every key.
//
// It does not parse or evaluate SQL: the sql package compiles a flow's
// expressions (keys, SEQUENCE BY, APPLY AS DELETE WHEN, ...) into an
// Extract function that turns a source row into an Event.
package cdcexec
