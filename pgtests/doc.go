// Package pgtests shows cdcdb working end to end: the real binary, built once
// per test run, started on 127.0.0.1:0 with a data file in a temporary
// directory, and driven by real clients: pgx v5 in all five query execution
// modes, lib/pq through database/sql, and psql as a subprocess. It also kills
// the server mid-write and restarts it to show that committed data survives,
// and compares output with a real PostgreSQL 15 where the behaviour is plain
// PostgreSQL.
//
// It owns no production code and must not reach into the server's packages:
// everything goes through the wire, except the read-only consistency check
// of the data file after the server has exited (storage) and the names of
// SQLSTATEs (pgerror).
//
// Servers come from package pgserver. Tests that need a client or the
// reference server skip when it is missing, except under CI (CI=true), where
// a missing tool is a failure.
//
// Setting PGTESTS_AGAINST=postgres15 runs the client tests (the ones that
// only speak SQL) against the reference PostgreSQL 15 instead of cdcdb, to
// check that their expectations are PostgreSQL's:
//
//	PGTESTS_AGAINST=postgres15 go test ./pgtests -run 'Pgx|LibPq|Psql'
//
// TestSQLCorpus holds the SQL engine to PostgreSQL 15's answers: the
// statements of the SQL corpus (package corpus, files in corpus/testdata)
// run on a fresh cdcdb and in a fresh database of the reference server,
// and both must give the answer recorded in the file (PostgreSQL's). After
// adding statements, record the answers with
//
//	CORPUS_REWRITE=1 go test ./pgtests -run TestSQLCorpus
//
// The few places cdcdb differs on purpose are listed, with the reason, in
// corpus/differences.go. The same answers hold an in-process engine in
// package corpus's own test, which needs no PostgreSQL and no binary; it
// is the one place under pgtests that reaches into the server's packages
// (through sql/sqltest), and only from a test.
//
// TestExplainUsesIndexes shows the planner reading indexes for equalities,
// ranges and joins.
//
// The tests build ./cmd/cdcdb once, with the race detector when they run
// under -race themselves (as CI runs them), and fail a test whose server
// reported a data race. PGTESTS_CDCDB_BIN=/path/to/cdcdb uses that binary
// instead.
//
// The message-loop fuzz test runs its seed corpus in every test run; fuzz it
// for real with
//
//	go test ./pgtests -run '^$' -fuzz FuzzMessageAfterStartup -fuzztime 1m
package pgtests
