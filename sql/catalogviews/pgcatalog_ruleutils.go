package catalogviews

import (
	"strings"

	"cdcdb/catalog"
	"cdcdb/sql/ast"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// CheckExprText prints a CHECK constraint's expression as PostgreSQL's
// pg_get_constraintdef does (ruleutils.c): PostgreSQL stores the analyzed
// expression, so it prints the implicit coercions analysis added (a
// constant compared with a numeric column is 0::numeric, a varchar column
// given to a text operator is d::text), BETWEEN as two comparisons, IN as
// = ANY (ARRAY[...]), LIKE as ~~. In pretty mode only the parentheses that
// precedence needs are printed; otherwise every operator expression is
// parenthesized. cdcdb keeps the expression as written, so it is analyzed
// here for printing, with the table's column types. Forms this printer
// does not know print as stored.
func CheckExprText(t *catalog.Table, stored string, pretty bool) string {
	e, err := parse.ParseExpr(stored)
	if err != nil {
		return stored
	}
	p := &rulePrinter{t: t, pretty: pretty}
	s, _, ok := p.expr(e, 0)
	if !ok {
		return stored
	}
	return s
}

// rulePrinter prints one expression; precedence levels follow ruleutils'
// pretty mode: 1 OR, 2 AND, 3 NOT, 4 comparison, 5 arithmetic, 6 other.
type rulePrinter struct {
	t      *catalog.Table
	pretty bool
	// qualifier, when set, prefixes column names (view definitions name
	// every column with its relation).
	qualifier string
	// domainValue prints the column "value" as VALUE, a domain CHECK's
	// placeholder for the checked value.
	domainValue bool
}

const (
	precOr = 1 + iota
	precAnd
	precNot
	precCmp
	precArith
	precAtom
)

// wrap parenthesizes an operator expression: always when not pretty, and
// when pretty only if its precedence is below what its place needs.
func (p *rulePrinter) wrap(s string, prec, need int) string {
	if !p.pretty || prec < need {
		return "(" + s + ")"
	}
	return s
}

// expr prints e where precedence need is required, returning the text and
// the expression's type (Unknown for an untyped literal).
func (p *rulePrinter) expr(e ast.Expr, need int) (string, types.T, bool) {
	switch e := e.(type) {
	case *ast.ColumnRef:
		name := e.Parts[len(e.Parts)-1]
		c, ok := p.t.Column(name)
		if !ok || (len(e.Parts) > 1 && p.qualifier != "" && e.Parts[len(e.Parts)-2] != p.qualifier) {
			return "", types.T{}, false
		}
		if p.qualifier != "" {
			return parse.QuoteIdent(p.qualifier) + "." + parse.QuoteIdent(name), c.Type, true
		}
		if p.domainValue && name == "value" {
			return "VALUE", c.Type, true
		}
		return parse.QuoteIdent(name), c.Type, true
	case *ast.Literal:
		switch e.Kind {
		case ast.LitInteger, ast.LitNumeric:
			return e.Value, types.Of(types.Unknown), true
		case ast.LitString:
			return e.Value, types.Of(types.Unknown), true
		case ast.LitBool:
			return e.Value, types.Of(types.Bool), true
		case ast.LitNull:
			return "NULL", types.Of(types.Unknown), true
		}
	case *ast.Binary:
		switch e.Op {
		case "AND", "OR":
			prec := precAnd
			if e.Op == "OR" {
				prec = precOr
			}
			l, _, ok1 := p.expr(e.L, prec)
			r, _, ok2 := p.expr(e.R, prec+1)
			if !ok1 || !ok2 {
				return "", types.T{}, false
			}
			return p.wrap(l+" "+e.Op+" "+r, prec, need), types.Of(types.Bool), true
		case "=", "<>", "<", "<=", ">", ">=":
			s, ok := p.comparison(e.Op, e.L, e.R)
			return p.wrap(s, precCmp, need), types.Of(types.Bool), ok
		}
	case *ast.Unary:
		if e.Op == "NOT" {
			x, _, ok := p.expr(e.X, precNot)
			return p.wrap("NOT "+x, precNot, need), types.Of(types.Bool), ok
		}
	case *ast.IsNull:
		x, _, ok := p.expr(e.X, precAtom)
		op := " IS NULL"
		if e.Not {
			op = " IS NOT NULL"
		}
		return p.wrap(x+op, precCmp, need), types.Of(types.Bool), ok
	case *ast.Between:
		if e.Not || e.Symmetric {
			return "", types.T{}, false
		}
		lo, ok1 := p.comparison(">=", e.X, e.Lo)
		hi, ok2 := p.comparison("<=", e.X, e.Hi)
		return p.wrap(p.wrap(lo, precCmp, precAnd)+" AND "+p.wrap(hi, precCmp, precAnd+1), precAnd, need), types.Of(types.Bool), ok1 && ok2
	case *ast.In:
		if e.Query != nil {
			return "", types.T{}, false
		}
		x, xt, ok := p.expr(e.X, precAtom)
		if !ok || xt.OID == types.Unknown {
			return "", types.T{}, false
		}
		// The list becomes an array of the column's type; a varchar one
		// is then cast to text[] as the column is to text.
		elemT := xt
		x, ct := p.operand(x, xt)
		elems := make([]string, len(e.List))
		for i, el := range e.List {
			s, st, ok := p.expr(el, precAtom)
			if !ok {
				return "", types.T{}, false
			}
			if elems[i], ok = p.coerceConst(s, st, el, elemT, true); !ok {
				return "", types.T{}, false
			}
		}
		arr := "ARRAY[" + strings.Join(elems, ", ") + "]"
		if elemT.OID != ct.OID {
			if p.pretty {
				arr += "::" + types.FormatType(types.Of(types.ArrayOf(ct.OID)))
			} else {
				arr = "(" + arr + ")::" + types.FormatType(types.Of(types.ArrayOf(ct.OID)))
			}
		}
		op := "= ANY"
		if e.Not {
			op = "<> ALL"
		}
		// ruleutils parenthesizes an array comparison under AND, OR and NOT.
		return p.wrap(x+" "+op+" ("+arr+")", 0, need), types.Of(types.Bool), true
	case *ast.Like:
		if e.Escape != nil || e.Similar {
			return "", types.T{}, false
		}
		x, xt, ok := p.expr(e.X, precAtom)
		if !ok {
			return "", types.T{}, false
		}
		x, _ = p.operand(x, xt)
		pat, pt, ok := p.expr(e.Pattern, precAtom)
		if !ok {
			return "", types.T{}, false
		}
		if pat, ok = p.coerceConst(pat, pt, e.Pattern, types.Of(types.Text), false); !ok {
			return "", types.T{}, false
		}
		op := "~~"
		if e.ILike {
			op = "~~*"
		}
		if e.Not {
			op = "!" + op
		}
		return p.wrap(x+" "+op+" "+pat, precCmp, need), types.Of(types.Bool), true
	case *ast.FuncCall:
		if e.Star || e.Distinct || e.Over != nil || e.Filter != nil || len(e.OrderBy) > 0 {
			return "", types.T{}, false
		}
		name := e.Name.Name()
		ret, textArgs := funcShape(name)
		if ret == 0 {
			return "", types.T{}, false
		}
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			s, at, ok := p.expr(a, 0)
			if !ok {
				return "", types.T{}, false
			}
			if textArgs && at.OID == types.Varchar {
				s = p.castText(s)
			} else if at.OID == types.Unknown {
				if s, ok = p.coerceConst(s, at, a, types.Of(types.Text), false); !ok {
					return "", types.T{}, false
				}
			}
			args[i] = s
		}
		return name + "(" + strings.Join(args, ", ") + ")", types.Of(ret), true
	}
	return "", types.T{}, false
}

// checkColumns are the columns a CHECK expression reads, in the order they
// first appear, as PostgreSQL records them in pg_constraint.conkey.
func checkColumns(sess Session, t *catalog.Table, stored string) []int16 {
	e, err := parse.ParseExpr(stored)
	if err != nil {
		return nil
	}
	var out []int16
	sess.WalkExpr(e, func(n ast.Node) bool {
		if c, ok := n.(*ast.ColumnRef); ok {
			if col, ok := t.Column(c.Parts[len(c.Parts)-1]); ok {
				for _, a := range out {
					if a == col.Attnum {
						return true
					}
				}
				out = append(out, col.Attnum)
			}
		}
		return true
	})
	return out
}

// funcShape is the result type of the built-in functions CHECK constraints
// commonly call, and whether they take text (so varchar is cast to it).
func funcShape(name string) (types.OID, bool) {
	switch name {
	case "length", "char_length", "character_length", "octet_length":
		return types.Int4, true
	case "lower", "upper", "btrim", "trim", "ltrim", "rtrim":
		return types.Text, true
	}
	return 0, false
}

// comparison prints l op r with the coercions operator resolution adds.
func (p *rulePrinter) comparison(op string, le, re ast.Expr) (string, bool) {
	l, lt, ok1 := p.expr(le, precArith)
	r, rt, ok2 := p.expr(re, precArith)
	if !ok1 || !ok2 {
		return "", false
	}
	switch {
	case lt.OID != types.Unknown && rt.OID == types.Unknown:
		l, lt = p.operand(l, lt)
		var ok bool
		if r, ok = p.coerceConst(r, rt, re, lt, false); !ok {
			return "", false
		}
	case lt.OID == types.Unknown && rt.OID != types.Unknown:
		r, rt = p.operand(r, rt)
		var ok bool
		if l, ok = p.coerceConst(l, lt, le, rt, false); !ok {
			return "", false
		}
	case lt.OID == types.Varchar && rt.OID == types.Varchar:
		l, r = p.castText(l), p.castText(r)
	case lt.OID != rt.OID && !(isInteger(lt.OID) && isInteger(rt.OID)):
		return "", false // cross-type comparisons print as stored
	}
	return l + " " + op + " " + r, true
}

// operand is the type an operator compares a typed operand as: varchar
// compares as text, through a visible cast.
func (p *rulePrinter) operand(s string, t types.T) (string, types.T) {
	if t.OID == types.Varchar {
		return p.castText(s), types.Of(types.Text)
	}
	return s, t
}

func (p *rulePrinter) castText(s string) string {
	if p.pretty {
		return s + "::text"
	}
	return "(" + s + ")::text"
}

// coerceConst prints a literal compared with a value of type to: an
// integer literal stays an integer constant against any integer (there are
// cross-integer operators), anything else becomes a constant of to, shown
// with its type as ruleutils shows constants.
func (p *rulePrinter) coerceConst(s string, st types.T, e ast.Expr, to types.T, inArray bool) (string, bool) {
	if st.OID != types.Unknown {
		return s, true
	}
	lit, ok := e.(*ast.Literal)
	if !ok {
		return "", false
	}
	if lit.Kind == ast.LitNull {
		return "NULL::" + types.FormatType(types.Of(to.OID)), true
	}
	if lit.Kind == ast.LitInteger && isInteger(to.OID) {
		v, err := types.ParseText(types.Of(types.Int4), lit.Value)
		if err != nil {
			return "", false
		}
		return constantText(types.Of(types.Int4), v), true
	}
	if lit.Kind == ast.LitInteger || lit.Kind == ast.LitNumeric {
		if to.OID == types.Numeric && lit.Kind == ast.LitNumeric {
			return lit.Value, true // a numeric constant that looks like one
		}
		if info, ok := types.Lookup(to.OID); !ok || info.Category != 'N' {
			return "", false
		}
		// A folded coercion to the other type: 0::numeric, 1.5::double precision.
		if p.pretty && !inArray {
			return lit.Value + "::" + types.FormatType(types.Of(to.OID)), true
		}
		return "(" + lit.Value + ")::" + types.FormatType(types.Of(to.OID)), true
	}
	v, err := types.ParseText(types.Of(to.OID), lit.Value)
	if err != nil {
		return "", false
	}
	return constantText(types.Of(to.OID), v), true
}

// ViewDefText prints a view's query as pg_get_viewdef does, for a query
// over one relation: its columns qualified by the relation's name, one
// target a line, FROM and WHERE on lines of their own, the WHERE clause as
// analyzed. ok is false for queries of other shapes.
func ViewDefText(sess Session, query string, pretty bool) (string, bool) {
	stmts, err := parse.Parse(query)
	if err != nil || len(stmts) != 1 {
		return "", false
	}
	sel, ok := stmts[0].(*ast.Select)
	if !ok || sel.With != nil || len(sel.OrderBy) > 0 || sel.Limit != nil || sel.Offset != nil {
		return "", false
	}
	core, ok := sel.Body.(*ast.SelectCore)
	if !ok || core.Distinct || len(core.DistinctOn) > 0 || len(core.GroupBy) > 0 || core.Having != nil ||
		len(core.Windows) > 0 || len(core.From) != 1 {
		return "", false
	}
	ref, ok := core.From[0].(*ast.TableRef)
	if !ok || len(ref.Periods) > 0 || (ref.Alias != nil && len(ref.Alias.Columns) > 0) {
		return "", false
	}
	t, err := sess.LookupTable(ref.Name)
	if err != nil || t.Kind == catalog.KindView {
		return "", false
	}
	rel := t.Name
	if ref.Alias != nil {
		rel = ref.Alias.Name
	}
	p := &rulePrinter{t: t, pretty: pretty, qualifier: rel}
	var targets []string
	for _, tg := range core.Targets {
		if tg.Star {
			if tg.Table != nil && tg.Table.Name() != rel {
				return "", false
			}
			for _, c := range t.LiveColumns() {
				targets = append(targets, parse.QuoteIdent(rel)+"."+parse.QuoteIdent(c.Name))
			}
			continue
		}
		s, _, ok := p.expr(tg.Expr, 0)
		if !ok {
			return "", false
		}
		if tg.Alias != "" && tg.Alias != sess.ColumnName(tg.Expr) {
			s += " AS " + parse.QuoteIdent(tg.Alias)
		}
		targets = append(targets, s)
	}
	from := QualifiedRelationName(sess, t.OID)
	if ref.Alias != nil {
		from += " " + parse.QuoteIdent(ref.Alias.Name)
	}
	out := " SELECT " + strings.Join(targets, ",\n    ") + "\n   FROM " + from
	if core.Where != nil {
		w, _, ok := p.expr(core.Where, 0)
		if !ok {
			return "", false
		}
		out += "\n  WHERE " + w
	}
	return out + ";", true
}

// isInteger reports the integer types, between which PostgreSQL has
// cross-type operators (so an integer constant needs no coercion).
func isInteger(oid types.OID) bool {
	return oid == types.Int2 || oid == types.Int4 || oid == types.Int8
}
