// Package eval is the core of expression evaluation: the Expr interface that
// every bound, typed expression implements, the row an expression reads
// (Env), what evaluation may ask of the statement running it (Context),
// the plain expression nodes (constants, column and parameter references,
// casts, function calls, AND/OR/NOT, IS [NOT] NULL, CASE, COALESCE, IN
// lists, ROW and ARRAY constructors), casts between types, and the shapes
// of records with named fields.
//
// What it owns: evaluating an expression tree against a row. What it must
// not do: know about sessions, transactions, the catalog, plans or
// storage. Whatever of the session evaluation needs (the time zone, now(),
// the bound parameters, cancellation, the text forms of reg* types) comes
// through Context, which package sql implements; function resolvers see
// the binder only through Binder. Nodes that run plans (subqueries,
// set-returning functions) live in sql and implement Expr there.
//
// How data passes: the binder in sql builds trees of Expr; executors call
// Eval with an Env whose Row is the current row and whose Outer chain holds
// the rows of enclosing queries.
//
// Files: expr.go (Expr, Env and the plain nodes), evalctx.go (Context and
// Binder), cast.go (CastValue and type categories), record.go (record
// shapes).
package eval
