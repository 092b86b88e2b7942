// Package corpus is the SQL corpus: files of statements in testdata/, each
// followed by the answer PostgreSQL 15 gave, recorded in the file. It owns
// the format (reading and rewriting the files, rendering what a client saw
// in the file's terms) and the rules a run is held to; two runners use it:
//
//   - TestSQLCorpus in package pgtests runs every file over the wire, on the
//     cdcdb binary and on a real PostgreSQL 15, and holds both to the
//     recorded answers; it also records them (CORPUS_REWRITE=1);
//   - TestCorpusInProcess here runs every file on an in-process engine
//     (package sql/sqltest), as part of go test ./..., with no PostgreSQL
//     and no binary.
//
// Both hold cdcdb to the same answers by the same rules: column names and
// type OIDs, rows as text, command tags, and for errors the SQLSTATE,
// message and position.
//
// # The format
//
// A file is a sequence of blocks separated by blank lines; lines starting
// with # between blocks are comments. A block is one statement text (one or
// more lines, sent as one simple Query), a line "----", and the recorded
// answer:
//
//	SELECT a, b FROM t ORDER BY a
//	----
//	a:int4 | b:text
//	1 | x
//	SELECT 1
//
// An answer has one part per statement of the text that completed: the
// column header (name:type per column) and the rows, when there are rows,
// then the command tag. When the text failed, the error follows as
// "ERROR <SQLSTATE> [at <position>]: <message>". Values are PostgreSQL's
// text output, NULL for a null, Go-quoted where they would be ambiguous.
// Rows are compared in order when the statement has a top-level ORDER BY
// and as a multiset otherwise (the file records them sorted), so an ORDER
// BY must order the rows completely: ties come out in an order of
// PostgreSQL's choosing.
//
// The header is left out of a result without rows because the clients the
// corpus was recorded with (pgx's pgconn) report a result's columns only
// along with its first row; the format keeps to what they saw.
//
// After editing a file, record PostgreSQL's answers with
//
//	CORPUS_REWRITE=1 go test ./pgtests -run TestSQLCorpus
//
// which rewrites every block's answer from the reference server (new
// statements may be added without a "----" section). Where cdcdb differs
// on purpose, Differences (differences.go) says so and what cdcdb answers
// instead.
//
// # What it must not do
//
// It imports no cdcdb package: runners turn what their client saw into an
// Outcome, and the package knows nothing of how the statements ran. Nor
// does it import pgtests, whose harness needs a built binary.
package corpus
