// Package eval is the core of expression evaluation: the Expr interface that
// every bound, typed expression implements, the row an expression reads
// (Env), what evaluation may ask of the statement running it (Context),
// the plain expression nodes (constants, column and parameter references,
// casts, function calls, AND/OR/NOT, IS [NOT] NULL, CASE, COALESCE, IN
// lists, ROW and ARRAY constructors), the operators (arithmetic of every
// numeric, date and time type, comparisons, IS DISTINCT FROM, LIKE,
// SIMILAR TO and regular expressions), casts between types and the rules
// of which casts are implicit, JSON values, and the shapes of records with
// named fields.
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
// Binder), cast.go (CastValue, IsRegType), ops.go (type categories, the
// cast rules, common types, comparison and arithmetic of numbers),
// datetime.go and interval_divide.go (date, time and interval
// arithmetic), numeric_exact.go, numeric_power.go and numeric_powint.go
// (numeric's exact division and powers, integer powers as PostgreSQL's
// power_var_int computes them), pattern.go (LIKE,
// SIMILAR TO, ~ and their regular-expression cache), jsonvalue.go (parsed
// json/jsonb values, their text forms, containment and paths),
// record.go (record shapes), typehelpers.go (type names and shorthands),
// valuehelpers.go (numeric specials, day counts, array dimensions).
package eval
