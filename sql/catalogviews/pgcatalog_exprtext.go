package catalogviews

import (
	"strings"

	"cdcdb/sql/ast"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// StoredExprText prints a column default as PostgreSQL's pg_get_expr does.
// PostgreSQL coerces a constant default to the column's type when the
// table is made and prints the resulting constant with its type label
// ('x'::character varying, '5'::bigint, 42, true); cdcdb keeps the
// default as written, so a constant (possibly cast) is coerced here the
// same way. Other expressions (now(), nextval(...)) print as stored.
func StoredExprText(col types.T, stored string) string {
	e, err := parse.ParseExpr(stored)
	if err != nil {
		return stored
	}
	lit, neg := constantOf(e)
	if lit == nil {
		return stored
	}
	text := lit.Value
	if neg {
		text = "-" + text
	}
	switch lit.Kind {
	case ast.LitNull:
		return "NULL::" + types.FormatType(types.Of(col.OID))
	case ast.LitBool:
		return lit.Value
	case ast.LitInteger, ast.LitNumeric:
		// A number keeps its literal's type (int4, else int8, else numeric);
		// the coercion to the column's type is implicit and not printed.
		t := types.Of(types.Numeric)
		if lit.Kind == ast.LitInteger {
			if v, err := types.ParseText(types.Of(types.Int4), text); err == nil {
				return constantText(types.Of(types.Int4), v)
			}
			if v, err := types.ParseText(types.Of(types.Int8), text); err == nil {
				return constantText(types.Of(types.Int8), v)
			}
		}
		v, err := types.ParseText(t, text)
		if err != nil {
			return stored
		}
		return constantText(t, v)
	}
	// A string literal becomes a constant of the column's type.
	v, err := types.ParseText(types.Of(col.OID), text)
	if err != nil {
		return stored
	}
	return constantText(types.Of(col.OID), v)
}

// constantOf finds the literal of a constant expression: a literal, a
// signed number, or either cast.
func constantOf(e ast.Expr) (*ast.Literal, bool) {
	switch e := e.(type) {
	case *ast.Literal:
		return e, false
	case *ast.Cast:
		return constantOf(e.X)
	case *ast.Unary:
		if e.Op == "-" {
			if l, ok := e.X.(*ast.Literal); ok && (l.Kind == ast.LitInteger || l.Kind == ast.LitNumeric) {
				return l, true
			}
		}
	}
	return nil, false
}

// constantText is ruleutils' get_const_expr: int4 and numbers that look
// like numbers print bare, booleans as true/false, everything else as a
// quoted literal with its type.
func constantText(t types.T, v types.Value) string {
	s := types.FormatText(t, v)
	switch t.OID {
	case types.Int4:
		if !strings.HasPrefix(s, "-") {
			return s
		}
	case types.Numeric:
		if !strings.HasPrefix(s, "-") && !strings.ContainsAny(s, "NnIi") {
			return s
		}
		if !strings.ContainsAny(s, "NnIi") {
			return "(" + s + ")"
		}
	case types.Bool:
		if v == true {
			return "true"
		}
		return "false"
	}
	return parse.QuoteLiteral(s) + "::" + types.FormatType(types.Of(t.OID))
}
