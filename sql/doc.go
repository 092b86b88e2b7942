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
// Transactions follow PostgreSQL's READ COMMITTED: a statement outside a
// transaction block runs in its own storage transaction; inside a block, each
// read-only statement reads the latest committed snapshot until the block's
// first write, which opens the block's single write transaction (held to
// COMMIT or ROLLBACK, so the block's writes stay atomic and visible only to
// itself). Storage allows one writer at a time: a second writer waits for the
// first, cancellably.
//
// Writes to a table that AUTO CDC flows read are handed to the FlowApplier in
// the same storage transaction, so a reader never sees a source row without
// its effect on the targets.
package sql
