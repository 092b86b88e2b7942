// Package ast is the syntax tree of the PostgreSQL dialect cdcdb accepts,
// including its own statements (streaming tables, AUTO CDC flows) and the
// SQL:2011 period clauses (FOR BUSINESS_TIME / FOR SYSTEM_TIME).
//
// The parser (sql/parse) builds it; the planner (sql) reads it. Nodes hold
// what the user wrote, resolved of nothing: names are as written (unquoted
// names already folded to lower case), types are type names. Every node that
// an error can point at carries Pos, a 0-based byte offset into the statement
// text the client sent.
package ast
