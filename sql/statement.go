package sql

import (
	"strings"

	"cdcdb/sql/ast"
	"cdcdb/sql/parse"
)

// statement is a compiled statement that runs to completion: every kind
// but a query, whose plan streams its rows (compiled.query). Each kind is
// a named type holding what planning bound, beside the function that
// plans it; exec runs it once (a prepared statement runs it again) and
// returns its command tag.
//
// String is what EXPLAIN prints for the statement: PostgreSQL's top plan
// node where PostgreSQL has one ("Insert on t", with the plan of the rows
// below it), otherwise one line describing it. It never includes
// parameter values, passwords or COPY data.
type statement interface {
	exec(x *execCtx, out *resultSink) (tag string, err error)
	String() string
}

// rowsExplainer is a statement that shows EXPLAIN the rows it acts on
// without a plan of them (INSERT's VALUES).
type rowsExplainer interface {
	explainRows(depth int, out *[]string)
}

// qualifiedName writes a name as a statement would, quoting the parts
// that need it.
func qualifiedName(q ast.QualifiedName) string {
	parts := make([]string, len(q.Parts))
	for i, p := range q.Parts {
		parts[i] = parse.QuoteIdent(p)
	}
	return strings.Join(parts, ".")
}

// qualifiedNames writes a list of names, comma-separated.
func qualifiedNames(qs []ast.QualifiedName) string {
	names := make([]string, len(qs))
	for i, q := range qs {
		names[i] = qualifiedName(q)
	}
	return strings.Join(names, ", ")
}

// identList writes a list of plain names, quoted where needed and
// comma-separated.
func identList(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = parse.QuoteIdent(n)
	}
	return strings.Join(quoted, ", ")
}
