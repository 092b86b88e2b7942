// Package parse is cdcdb's PostgreSQL-dialect SQL front end: text in, syntax
// tree (package sql/ast) out.
//
// It owns the lexer (PostgreSQL 15's scan.l rules: case folding, "quoted"
// identifiers, E'..', U&'..', $$..$$, B'..', X'..', $n, PostgreSQL's rules
// for operators, nested comments) and a hand-written recursive-descent
// parser with PostgreSQL 15's operator precedence and keyword categories.
// It must not resolve anything: names stay names, types stay type names,
// and the planner (package sql) decides what they mean. It does not use
// the TiDB parser that DESIGN.md once planned: that MySQL grammar lacks too
// much of PostgreSQL (RETURNING, NULLS FIRST, FILTER, IS DISTINCT FROM,
// $n, ::, keyword-named columns) to be worth patching token by token.
//
// Data flow: Parse lexes the whole text into a token slice, then parses
// statements separated by semicolons. A scanner error becomes an error
// token, reported only when the grammar reaches it, so that, as in
// PostgreSQL, an earlier syntax error wins over a later scanner error.
// Productions bail out with a panic carrying a *pgerror.Error, which Parse
// recovers; any other panic is a bug and is not swallowed. Every error is
// worded as PostgreSQL words it, with a 1-based character position into
// the text; Pos fields in the tree are 0-based byte offsets, converted only
// when an error is built.
//
// Files, by concern:
//
//	lexer.go, unicode.go   tokens; U&'' and UESCAPE
//	keywords.go            keyword categories; keywords_table.go is generated
//	                       from pg_get_keywords() by gen_keywords.sh
//	errors.go              PostgreSQL-shaped errors and positions
//	parser.go              API, token helpers, names, statement dispatch
//	expr.go, types.go      expressions (precedence climbing) and type names
//	select.go              queries, set operations, FROM, joins, periods
//	dml.go                 INSERT, UPDATE, DELETE, TRUNCATE, COPY
//	ddl.go                 CREATE / DROP / ALTER TABLE, INDEX, VIEW, SCHEMA, COMMENT
//	session.go             transactions, SET, SHOW, RESET, DISCARD, DEALLOCATE, EXPLAIN
//	flow.go                streaming tables, AUTO CDC flows, REFRESH
//	roles.go               CREATE / ALTER / DROP ROLE, GRANT, REVOKE on tables and schemas
//	rolemembership.go      GRANT / REVOKE role, OWNER TO, ALTER DEFAULT PRIVILEGES
//	sequence.go            CREATE / ALTER SEQUENCE, ALTER VIEW | SCHEMA ... OWNER TO, identity columns
//
// Beyond PostgreSQL it reads cdcdb's own statements: CREATE [OR REFRESH]
// STREAMING TABLE, CREATE FLOW ... AS AUTO CDC (and the older APPLY CHANGES
// INTO), REFRESH STREAMING TABLE, DROP FLOW, and the SQL:2011 period
// clauses FOR BUSINESS_TIME / VALID_TIME / SYSTEM_TIME after a table name.
// None of those words are PostgreSQL keywords (or only unreserved ones), so
// they are recognised by context and stay usable as ordinary names.
//
// Where the tree departs from PostgreSQL's parse:
//
//   - a subquery in FROM needs no alias (as in PostgreSQL 16);
//   - POSITION(a IN b) is position(a, b) in the written order;
//   - GROUP BY () is a non-nil empty GroupBy, and ROLLUP, CUBE and
//     GROUPING SETS are GroupingSet items of it;
//   - forms the tree cannot hold fail with 0A000 rather than being dropped:
//     identity and generated columns, deferrable constraints other than
//     foreign keys,
//     column definition lists of record functions,
//     UPDATE ... SET (a, b) = (SELECT ...), COPY to or from a file,
//     SELECT INTO, view options, table partitioning and inheritance;
//   - PostgreSQL statements cdcdb lacks (CLUSTER, CREATE FUNCTION,
//     ...) fail with 0A000 naming the statement, not with a syntax error.
//
// Nesting is bounded (see maxDepth): a statement nested deeper fails with
// PostgreSQL's "memory exhausted" syntax error instead of growing the
// goroutine stack without end.
//
// VACUUM and ANALYZE (vacuum.go) and SET CONSTRAINTS (setconstraints.go)
// are parsed in files of their own.
package parse
