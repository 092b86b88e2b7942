// Package parse is cdcdb's PostgreSQL-dialect SQL front end: text in, syntax
// tree (package sql/ast) out.
//
// It owns the lexer (PostgreSQL's scan.l rules: case folding, "quoted"
// identifiers, E'..', U&'..', $$..$$, B'..', X'..', $n, PostgreSQL's operator
// rules, nested comments) and a hand-written recursive-descent parser with
// PostgreSQL 15's operator precedence and keyword categories. It must not
// resolve anything: names stay names, types stay type names, and the planner
// (package sql) decides what they mean.
//
// Data flow: Parse lexes the whole text into a token slice, then parses
// statements separated by semicolons. A scanner error becomes an error token
// and is reported only when the grammar reaches it, so that, as in
// PostgreSQL, an earlier syntax error wins over a later scanner error.
// Every error is a *pgerror.Error worded as PostgreSQL words it, with a
// 1-based character position into the text (Pos fields in the tree are
// 0-based byte offsets; the conversion happens only when an error is built).
//
// Beyond PostgreSQL it reads cdcdb's own statements: CREATE [OR REFRESH]
// STREAMING TABLE, CREATE FLOW ... AS AUTO CDC (and the older APPLY CHANGES
// INTO), REFRESH STREAMING TABLE, DROP FLOW, and the SQL:2011 period clauses
// FOR BUSINESS_TIME / FOR VALID_TIME / FOR SYSTEM_TIME after a table name.
// None of those words are PostgreSQL keywords, so they are recognised by
// context and stay usable as ordinary names.
//
// The grammar is deliberately PostgreSQL's, with these known departures:
// a subquery in FROM needs no alias (as in PostgreSQL 16); forms the tree
// cannot hold (identity columns, FETCH ... WITH TIES, column definition
// lists for record functions, UPDATE ... SET (a, b) = (SELECT ...), COPY to
// or from a file) fail with 0A000 rather than being dropped silently.
//
// Nesting is bounded (see maxDepth): a statement nested deeper fails with
// PostgreSQL's "memory exhausted" syntax error instead of exhausting the
// goroutine stack.
package parse
