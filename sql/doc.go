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
// Statements: a query plans into a tree of plan nodes that streams its
// rows (compiled.query); every other statement plans into a named type
// implementing statement (statement.go), whose exec runs it and whose
// String is what EXPLAIN prints of it. Each type sits beside the function
// that plans it (DML in dml.go, COPY in copy.go, with its data formats in
// sql/copyfmt); the DDL, role, source and flow statements, which plan as
// they run, are in statements_ddl.go, LISTEN and NOTIFY in
// statements_session.go.
//
// Transactions: the statements outside BEGIN run in the implicit block of
// their Query or batch. A block's reads come from a snapshot (each
// statement's own under READ COMMITTED, the block's first statement's under
// REPEATABLE READ and SERIALIZABLE) until its first write, which opens the
// block's single write transaction (held to COMMIT or ROLLBACK, so the
// block's writes stay atomic and visible only to itself). A block whose
// writes are plain INSERT, UPDATE and DELETE of ordinary tables writes
// detached, locking the rows it writes and taking storage's one writer
// slot only to commit (concurrent.go; SELECT ... FOR UPDATE locks the rows
// it reads, selectlock.go); any other write holds the slot to the block's
// end. A writer waits for the holder of a row or of the slot,
// cancellably and for at most lock_timeout, shown in pg_stat_activity
// (backends.go, which also holds pg_cancel_backend, pg_terminate_backend
// and pg_blocking_pids). What
// each isolation level checks, and READ ONLY, is in txmodes.go; run-time
// parameters are transactional too: package sql/settings defines them,
// validates their values and keeps a block's record of their changes;
// settings.go and settings_scope.go apply them to the session, and they may
// have server-wide defaults (Options.Settings). Savepoints roll the block's write
// transaction, its catalog, parameters and cursors back to a mark
// (savepoint.go). LISTEN/NOTIFY deliver at commit (notify.go). Deferred
// foreign keys hand their checks to the write transaction, which runs them
// before it commits; SET CONSTRAINTS moves them (foreignkey_deferred.go).
//
// Schema migrations (docs/migrations.md): ALTER COLUMN ... TYPE rewrites the
// rows and the history and rebuilds the indexes on the column
// (ddl_alter_type.go); DROP COLUMN drops the indexes and constraints on the
// column (ddl_dropcolumn.go); VACUUM and ANALYZE check their arguments and
// change nothing (vacuum.go).
//
// Backups and dumps: cdcdb.backup(path), the cdcdb schema's scalar function, hands storage's
// online Backup a server file and reports its failure as PostgreSQL
// reports a failed write to one (backup.go, docs/backup.md). What pg_dump
// asks of the planner that other clients rarely do (tableoid, name[i], a
// serial's sequence read as a relation, LOCK TABLE IN ACCESS SHARE MODE)
// is in funcs_dump.go; its functions (acldefault, pg_options_to_table)
// are catalogviews', and schema cdcdb is listed as a built-in extension's,
// so pg_dump leaves it out.
// What PostgreSQL's own pg_dump scripts send (docs/loading-pg-dumps.md):
// its settings (settings_dump.go); free-standing sequences, CREATE/ALTER/
// DROP SEQUENCE and setval (ddl_sequence.go, beside funcs_sequence.go's
// serials); OWNER TO (ddl_owner.go); identity columns (ddl_identity.go);
// ADD PRIMARY KEY on a table with rows, which re-keys them
// (ddl_primarykey.go); indexes on expressions and partial ones, enforced
// when unique but never planned with (ddl_exprindex.go); and each view's
// rewrite rule and dependencies, with pg_get_viewdef qualifying what the
// search_path does not find (viewdeps.go); the catalog rows of these
// live in package catalogviews.
//
// System relations (pg_catalog, information_schema, cdcdb.*) and the
// catalog functions (pg_get_*def, format_type, has_*_privilege, pg_*_size,
// version(), current_schema(), ...) are package catalogviews': systables.go
// plans the relations, and catalogviews_session.go is the
// catalogviews.Session both read the running statement through. What of
// the session a function needs the executor for stays here: sequences'
// nextval and setval, pg_stat_activity, backups, cursors, notifications,
// locks, pg_cancel_backend and pg_terminate_backend, settings.
//
// Writes to a table that AUTO CDC flows read are handed to the FlowApplier in
// the same storage transaction, so a reader never sees a source row without
// its effect on the targets. Flows FROM SNAPSHOT (flows_snapshot.go) read a
// whole snapshot instead: at CREATE FLOW and REFRESH STREAMING TABLE, and in
// a write transaction about to commit (txn.commit) for the VERSION BY labels
// it wrote and the TRIGGER ON UPDATE flows reading a table it wrote; the
// rows stream into cdcexec's sorter and are compared there.
//
// Fast paths: a few parts exist to win benchmark workloads beside a general
// path that computes the same (COPY's rows written ahead, copyahead.go; its
// source rows stored on a goroutine of their own, sourcespool.go; generic
// plans of texts that differ in their numbers, plancache_numbers.go; scans
// that send stored encodings, scan_stored.go). Options.FastPathsOff turns
// each off (fastpaths.go, the server's -fast-paths-off), and
// TestFastPathsMatchTheGeneralPaths holds each to its general path on one
// random workload: docs/fast-paths.md lists them.
//
// Sources (CREATE CONNECTION, CREATE SOURCE; sources.go) follow an external
// PostgreSQL through package source: sourcerun.go keeps one Follower per
// source running, and sourcesink.go is its Sink, writing each batch of
// upstream changes and its checkpoint into the source's tables in one
// storage transaction, through the same table writers (and so the same
// flows) as INSERT.
//
// The change feed (docs/changefeed.md): changefeed.go plans and reads
// cdcdb.table_changes from history's change log; changefeed_flows.go runs
// the flows that read a feed (their backfill, and txn.applyFeedFlows, which
// applies a transaction's changes to them just before it commits, in chain
// order); changefeed_beliefs.go is cdcdb.belief_changes for BITEMPORAL
// targets. tx.go's commit logs each written table's changes
// (history.LogChanges) before retention prunes.
//
// Memory (docs/memory.md): sorts, hash aggregation, DISTINCT, set
// operations, window functions and hash joins keep work_mem of rows and
// spill past it to temporary files through package spill (sort_spill.go,
// agg_spill.go, distinct_spill.go, setop_spill.go, window_spill.go,
// join_spill.go), giving the in-memory path's rows in its order;
// set-returning functions stream (funcscan_stream.go). What statements hold
// is accounted to the engine's memory budget (Options.MemoryBudget;
// memory.go, agg_memory.go, memory_statements.go), and a request past it
// fails with 53200.
//
// Roles and privileges (docs/security.md): roles.go runs CREATE/ALTER/DROP
// ROLE, GRANT and REVOKE, answers wire's RoleDirectory (Engine.LoginRole),
// and holds the checks; rolemembers.go owns role membership (GRANT role TO
// role, the privileges a role inherits, SET ROLE as the "role" parameter,
// pg_auth_members, pg_has_role); schemaprivs.go USAGE and CREATE on
// schemas, ALTER TABLE ... OWNER TO and the view-owner checks;
// defaultprivs.go ALTER DEFAULT PRIVILEGES and pg_default_acl. Who holds
// what (memberships, INHERIT, owners, grants) and how an ACL changes are
// package acl's answers; these files run the statements, store what
// they change and make the 42501 errors. A session acts as its current
// role: SET ROLE's, else the role its user names. A client's statement
// collects the privileges its reads need while planning (planCtx.required)
// and checks them as it executes; its write target, and what DDL plans as
// it runs (execCtx.planCtx), are checked at once. Flows' own plans are
// never checked: a flow writes with its owner's rights, whose were checked
// when it was created.
//
// Aggregation and windows: agg.go binds aggregate calls and runs the
// grouping operator (aggPlan: groups, FILTER, aggregate DISTINCT and ORDER
// BY), grouping.go expands ROLLUP, CUBE and GROUPING SETS, window.go binds
// OVER and runs the window operator (partitions, peers, frames); the
// aggregates' states and the window-only functions are builtins', which
// the operators feed through builtins.AggState and builtins.Partition.
package sql
