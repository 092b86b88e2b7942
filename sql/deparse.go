package sql

import (
	"strconv"
	"strings"

	"cdcdb/sql/ast"
	"cdcdb/sql/parse"
)

// deparseExpr renders an expression back to SQL text that parses to the
// same tree. The catalog stores column defaults and CHECK constraints this
// way, and pg_get_expr shows them.
func deparseExpr(e ast.Expr) string {
	var sb strings.Builder
	writeExpr(&sb, e)
	return sb.String()
}

func writeExpr(sb *strings.Builder, e ast.Expr) {
	switch e := e.(type) {
	case nil:
		sb.WriteString("NULL")
	case *ast.Literal:
		switch e.Kind {
		case ast.LitNull:
			sb.WriteString("NULL")
		case ast.LitBool:
			sb.WriteString(e.Value)
		case ast.LitInteger, ast.LitNumeric:
			sb.WriteString(e.Value)
		case ast.LitString:
			sb.WriteString(parse.QuoteLiteral(e.Value))
		case ast.LitBitString:
			// The value keeps its prefix: "b0101" or "x1F".
			if e.Value != "" {
				sb.WriteString(strings.ToUpper(e.Value[:1]) + parse.QuoteLiteral(e.Value[1:]))
			}
		}
	case *ast.ColumnRef:
		for i, p := range e.Parts {
			if i > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(parse.QuoteIdent(p))
		}
	case *ast.Param:
		sb.WriteString("$" + strconv.Itoa(e.Index))
	case *ast.Unary:
		sb.WriteByte('(')
		sb.WriteString(e.Op)
		if e.Op == "NOT" {
			sb.WriteByte(' ')
		}
		writeExpr(sb, e.X)
		sb.WriteByte(')')
	case *ast.Binary:
		sb.WriteByte('(')
		writeExpr(sb, e.L)
		sb.WriteString(" " + e.Op + " ")
		writeExpr(sb, e.R)
		sb.WriteByte(')')
	case *ast.Like:
		sb.WriteByte('(')
		writeExpr(sb, e.X)
		if e.Not {
			sb.WriteString(" NOT")
		}
		switch {
		case e.Similar:
			sb.WriteString(" SIMILAR TO ")
		case e.ILike:
			sb.WriteString(" ILIKE ")
		default:
			sb.WriteString(" LIKE ")
		}
		writeExpr(sb, e.Pattern)
		if e.Escape != nil {
			sb.WriteString(" ESCAPE ")
			writeExpr(sb, e.Escape)
		}
		sb.WriteByte(')')
	case *ast.IsNull:
		sb.WriteByte('(')
		writeExpr(sb, e.X)
		if e.Not {
			sb.WriteString(" IS NOT NULL)")
		} else {
			sb.WriteString(" IS NULL)")
		}
	case *ast.IsBool:
		sb.WriteByte('(')
		writeExpr(sb, e.X)
		sb.WriteString(" IS ")
		if e.Not {
			sb.WriteString("NOT ")
		}
		sb.WriteString(e.Value + ")")
	case *ast.Between:
		sb.WriteByte('(')
		writeExpr(sb, e.X)
		if e.Not {
			sb.WriteString(" NOT")
		}
		sb.WriteString(" BETWEEN ")
		if e.Symmetric {
			sb.WriteString("SYMMETRIC ")
		}
		writeExpr(sb, e.Lo)
		sb.WriteString(" AND ")
		writeExpr(sb, e.Hi)
		sb.WriteByte(')')
	case *ast.In:
		sb.WriteByte('(')
		writeExpr(sb, e.X)
		if e.Not {
			sb.WriteString(" NOT")
		}
		sb.WriteString(" IN (")
		writeList(sb, e.List)
		sb.WriteString("))")
	case *ast.FuncCall:
		for i, p := range e.Name.Parts {
			if i > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(parse.QuoteIdent(p))
		}
		sb.WriteByte('(')
		if e.Star {
			sb.WriteByte('*')
		}
		if e.Distinct {
			sb.WriteString("DISTINCT ")
		}
		writeList(sb, e.Args)
		sb.WriteByte(')')
	case *ast.SpecialFunc:
		sb.WriteString(e.Name)
		if len(e.Args) > 0 {
			sb.WriteByte('(')
			writeList(sb, e.Args)
			sb.WriteByte(')')
		}
	case *ast.Cast:
		sb.WriteString("CAST(")
		writeExpr(sb, e.X)
		sb.WriteString(" AS ")
		sb.WriteString(typeNameSQL(e.Type))
		sb.WriteByte(')')
	case *ast.Case:
		sb.WriteString("CASE")
		if e.Operand != nil {
			sb.WriteByte(' ')
			writeExpr(sb, e.Operand)
		}
		for _, w := range e.Whens {
			sb.WriteString(" WHEN ")
			writeExpr(sb, w.Cond)
			sb.WriteString(" THEN ")
			writeExpr(sb, w.Result)
		}
		if e.Else != nil {
			sb.WriteString(" ELSE ")
			writeExpr(sb, e.Else)
		}
		sb.WriteString(" END")
	case *ast.ArrayExpr:
		sb.WriteString("ARRAY[")
		writeList(sb, e.Elems)
		sb.WriteByte(']')
	case *ast.RowExpr:
		sb.WriteString("ROW(")
		writeList(sb, e.Elems)
		sb.WriteByte(')')
	case *ast.Subscript:
		writeExpr(sb, e.X)
		sb.WriteByte('[')
		if e.Slice {
			if e.Lo != nil {
				writeExpr(sb, e.Lo)
			}
			sb.WriteByte(':')
			if e.Hi != nil {
				writeExpr(sb, e.Hi)
			}
		} else {
			writeExpr(sb, e.Index)
		}
		sb.WriteByte(']')
	case *ast.Collate:
		writeExpr(sb, e.X)
		sb.WriteString(" COLLATE ")
		for i, p := range e.Collation.Parts {
			if i > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(parse.QuoteIdent(p))
		}
	case *ast.AnyAll:
		sb.WriteByte('(')
		writeExpr(sb, e.X)
		sb.WriteString(" " + e.Op + " ")
		if e.All {
			sb.WriteString("ALL (")
		} else {
			sb.WriteString("ANY (")
		}
		writeExpr(sb, e.Array)
		sb.WriteString("))")
	case *ast.FieldAccess:
		sb.WriteByte('(')
		writeExpr(sb, e.X)
		sb.WriteString(")." + parse.QuoteIdent(e.Field))
	default:
		// Subqueries cannot appear in defaults or CHECK constraints
		// (PostgreSQL refuses them too).
		sb.WriteString("NULL")
	}
}

func writeList(sb *strings.Builder, es []ast.Expr) {
	for i, e := range es {
		if i > 0 {
			sb.WriteString(", ")
		}
		writeExpr(sb, e)
	}
}

// typeNameSQL renders a type name so that it parses back to the same type.
func typeNameSQL(t ast.TypeName) string {
	s := t.Name
	if strings.ContainsAny(s, " ") || s == "char" {
		if s == "char" {
			s = `"char"`
		}
	}
	if t.Schema != "" {
		s = t.Schema + "." + s
	}
	if len(t.Args) > 0 {
		parts := make([]string, len(t.Args))
		for i, a := range t.Args {
			parts[i] = strconv.Itoa(a)
		}
		s += "(" + strings.Join(parts, ",") + ")"
	}
	for i := 0; i < t.ArrayDims; i++ {
		s += "[]"
	}
	return s
}
