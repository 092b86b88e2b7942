// Package sql runs SQL for one client session: it parses text with
// sql/parse, binds names and types against the catalog, plans a tree of row
// operators and executes it inside a storage transaction.
//
// An Engine is shared by all sessions of one database file; a Session is one
// connection's state (settings, transaction, prepared statements). The wire
// package drives a Session through the interfaces it declares; this package
// never sees protocol messages, only statements, parameters and result
// formats.
//
// Transactions: the statements outside BEGIN run in the implicit block of
// their Query or batch. A block's reads come from a snapshot (each
// statement's own under READ COMMITTED, the block's first statement's under
// REPEATABLE READ and SERIALIZABLE) until its first write, which opens the
// block's single write transaction (held to COMMIT or ROLLBACK, so the
// block's writes stay atomic and visible only to itself). Storage allows one
// writer at a time: a second writer waits for the first, cancellably. What
// each isolation level checks, and READ ONLY, is in txmodes.go; run-time
// parameters are transactional too (settings_scope.go).
//
// Writes to a table that AUTO CDC flows read are handed to the FlowApplier in
// the same storage transaction, so a reader never sees a source row without
// its effect on the targets.
//
// The change feed (docs/changefeed.md): changefeed.go plans and reads
// cdcdb.table_changes from history's change log; changefeed_flows.go runs
// the flows that read a feed (their backfill, and txn.applyFeedFlows, which
// applies a transaction's changes to them just before it commits, in chain
// order); changefeed_beliefs.go is cdcdb.belief_changes for BITEMPORAL
// targets. tx.go's commit logs each written table's changes
// (history.LogChanges) before retention prunes.
package sql
