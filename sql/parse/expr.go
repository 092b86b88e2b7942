package parse

import (
	"strconv"
	"strings"

	"cdcdb/sql/ast"
)

// Operator precedence, lowest first, as in PostgreSQL 15's gram.y:
//
//	OR < AND < NOT < IS ISNULL NOTNULL < comparison < BETWEEN IN LIKE ILIKE
//	SIMILAR < ESCAPE < other operators < + - < * / % < ^ < AT < COLLATE
//	< unary minus < [ ] < :: < .
//
// Subscripts and field selection are part of a primary (PostgreSQL allows
// them only after a column, a parameter or a parenthesized expression), and
// :: binds tightest of the infix forms.
const (
	precNone = iota
	precOr
	precAnd
	precNot
	precIs
	precCmp
	precLike
	precEscape
	precOp
	precAdd
	precMul
	precExp
	precAt
	precCollate
	precUnary
)

// exprMode qualifies an expression being parsed.
type exprMode uint8

const (
	// modeRestricted is PostgreSQL's b_expr: no AND, OR, NOT, IS NULL,
	// LIKE, IN, BETWEEN, AT TIME ZONE or COLLATE at its top level.
	modeRestricted exprMode = 1 << iota
	// modeTarget marks a select-list entry, which may be followed by an
	// alias without AS. Many operator words are also bare labels there
	// ("select 1 and" names the column "and"), so an operator word counts
	// as one only when what follows can continue it.
	modeTarget
)

// parseExpr parses a_expr, PostgreSQL's full expression.
func (p *parser) parseExpr() ast.Expr { return p.parseExprPrec(precOr, 0) }

// parseBExpr parses b_expr, the restricted expression PostgreSQL uses where
// AND, NOT, IS NULL, LIKE, IN, BETWEEN and COLLATE would be ambiguous: the
// lower bound of BETWEEN and a column's DEFAULT (so that DEFAULT 0 NOT NULL
// reads as a default and a constraint).
func (p *parser) parseBExpr() ast.Expr { return p.parseExprPrec(precOr, modeRestricted) }

// parseExprPrec parses an expression whose operators all bind at least as
// tightly as min. The operands of its operators share its mode: they end
// where it ends. Parenthesized parts and arguments start afresh.
func (p *parser) parseExprPrec(min int, mode exprMode) ast.Expr {
	p.enter()
	left := p.parsePrefix(mode)
	left = p.parseInfix(left, min, mode)
	p.leave()
	return left
}

// parsePrefix parses prefix operators and then a primary.
func (p *parser) parsePrefix(mode exprMode) ast.Expr {
	restricted := mode&modeRestricted != 0
	t := p.peek()
	switch {
	case t.is("not") && !restricted:
		p.advance()
		x := p.parseExprPrec(precNot+1, mode)
		return &ast.Unary{Op: "NOT", X: x, Pos: t.pos}
	case t.isOp("-") || t.isOp("+"):
		p.advance()
		x := p.parseExprPrec(precUnary, mode)
		if lit, ok := x.(*ast.Literal); ok && t.str == "-" && (lit.Kind == ast.LitInteger || lit.Kind == ast.LitNumeric) {
			// PostgreSQL folds the sign into a numeric constant (doNegate),
			// which is how -9223372036854775808 is a bigint.
			return negateLiteral(lit, t.pos)
		}
		return &ast.Unary{Op: t.str, X: x, Pos: t.pos}
	case isGenericOp(t):
		p.advance()
		x := p.parseExprPrec(precOp+1, mode)
		return &ast.Unary{Op: t.str, X: x, Pos: t.pos}
	case t.is("operator") && p.operatorSyntaxAhead():
		op := p.parseOperatorSyntax()
		x := p.parseExprPrec(precOp+1, mode)
		return &ast.Unary{Op: op, X: x, Pos: t.pos}
	}
	return p.parsePrimary()
}

func negateLiteral(lit *ast.Literal, pos int) *ast.Literal {
	v := lit.Value
	if strings.HasPrefix(v, "-") {
		v = v[1:]
	} else {
		v = "-" + v
	}
	kind := ast.LitNumeric
	if _, err := strconv.ParseInt(v, 10, 64); err == nil {
		kind = ast.LitInteger
	}
	return &ast.Literal{Kind: kind, Value: v, Pos: pos}
}

// isGenericOp reports whether t is an operator of PostgreSQL's Op class: any
// operator except the single characters and pairs the grammar names
// (+ - * / % ^ < > = <= >= <>) and the punctuation.
func isGenericOp(t *token) bool {
	if t.kind != tkOp {
		return false
	}
	switch t.str {
	case ",", "(", ")", "[", "]", ".", ";", ":", "::", "..", ":=", "=>",
		"+", "-", "*", "/", "%", "^", "<", ">", "=", "<=", ">=", "<>":
		return false
	}
	return true
}

// isAnyOperator reports whether t can be named in OPERATOR(...) or ORDER
// BY ... USING: every operator, the grammar's own included.
func isAnyOperator(t *token) bool {
	if t.kind != tkOp {
		return false
	}
	switch t.str {
	case ",", "(", ")", "[", "]", ".", ";", ":", "::", "..", ":=", "=>":
		return false
	}
	return true
}

// operatorSyntaxAhead tells OPERATOR(schema.op) from a function or column
// named "operator" (an unreserved word).
func (p *parser) operatorSyntaxAhead() bool {
	if !p.peekN(1).isOp("(") {
		return false
	}
	j := 2
	for isColID(p.peekN(j)) && p.peekN(j+1).isOp(".") {
		j += 2
	}
	return isAnyOperator(p.peekN(j))
}

// parseOperatorSyntax reads OPERATOR(schema.op) and returns op: operators
// are looked up by name alone, so the schema is only checked for syntax.
func (p *parser) parseOperatorSyntax() string {
	p.expectWord("operator")
	p.expectOp("(")
	for isColID(p.peek()) && p.peekN(1).isOp(".") {
		p.advance()
		p.advance()
	}
	t := p.peek()
	if !isAnyOperator(t) {
		p.fail()
	}
	p.advance()
	p.expectOp(")")
	return t.str
}

// parseInfix extends left with infix and postfix operators binding at least
// as tightly as min. nonassoc remembers the level of a non-associative rule
// just applied, so that "a = b = c" and "a LIKE b LIKE c" fail at the
// second operator as in PostgreSQL, while postfix forms ("x IS NULL IS
// NULL", "x IN (1) IN (...)") chain freely.
func (p *parser) parseInfix(left ast.Expr, min int, mode exprMode) ast.Expr {
	restricted := mode&modeRestricted != 0
	// In a select list an operator word may be the alias instead; then it
	// is an operator only if what follows can continue it.
	target := mode&modeTarget != 0
	nonassoc := precNone
	for {
		t := p.peek()
		prec := precNone
		switch t.kind {
		case tkOp:
			switch t.str {
			case "::":
				left = p.parseCastSuffix(left)
				nonassoc = precNone
				continue
			case "<", ">", "=", "<=", ">=", "<>":
				prec = precCmp
			case "+", "-":
				prec = precAdd
			case "*", "/", "%":
				prec = precMul
			case "^":
				prec = precExp
			default:
				if !isGenericOp(t) {
					return left
				}
				prec = precOp
			}
			if prec < min {
				return left
			}
			if prec == nonassoc {
				p.failAt(t)
			}
			p.advance()
			left, nonassoc = p.parseOperatorRHS(left, t.str, t.pos, prec, mode)
			continue
		case tkIdent:
		default:
			return left
		}
		// Word operators.
		switch t.str {
		case "or", "and":
			prec = precOr
			if t.str == "and" {
				prec = precAnd
			}
			if restricted || prec < min || target && !canStartExpr(p.peekN(1)) {
				return left
			}
			p.advance()
			right := p.parseExprPrec(prec+1, mode)
			left = &ast.Binary{Op: strings.ToUpper(t.str), L: left, R: right, Pos: left.Position(), OpPos: t.pos}
			nonassoc = precNone
		case "is":
			if precIs < min || restricted && !p.isDistinctAhead() || target && !p.isPredicateAhead() {
				return left
			}
			if nonassoc == precIs {
				p.failAt(t)
			}
			left, nonassoc = p.parseIs(left, mode)
		case "isnull", "notnull":
			if restricted || precIs < min {
				return left
			}
			if nonassoc == precIs {
				p.failAt(t)
			}
			p.advance()
			left = &ast.IsNull{X: left, Not: t.str == "notnull", Pos: left.Position()}
			nonassoc = precNone
		case "not", "between", "in", "like", "ilike", "similar":
			if restricted || precLike < min {
				return left
			}
			not := false
			op := t
			if t.str == "not" {
				// NOT here is PostgreSQL's NOT_LA: only before these words.
				n := p.peekN(1)
				if !(n.is("between") || n.is("in") || n.is("like") || n.is("ilike") || n.is("similar") && p.peekN(2).is("to")) {
					return left
				}
				not = true
				op = n
			} else if t.str == "similar" && !p.peekN(1).is("to") || target && !p.likeLevelAhead(t) {
				return left
			}
			if nonassoc == precLike {
				p.failAt(t)
			}
			if not {
				p.advance()
			}
			left, nonassoc = p.parseLikeLevel(left, op, not, t.pos, mode)
		case "overlaps":
			// (s1, e1) OVERLAPS (s2, e2); the binder checks the rows.
			if restricted || precCmp < min {
				return left
			}
			if _, isRow := left.(*ast.RowExpr); !isRow || nonassoc == precCmp {
				p.failAt(t) // PostgreSQL's grammar has only row OVERLAPS row
			}
			p.advance()
			if n := p.peek(); !n.isOp("(") && !n.is("row") {
				p.failAt(n)
			}
			right := p.parseExprPrec(precCmp+1, mode)
			left = &ast.Binary{Op: "OVERLAPS", L: left, R: right, Pos: left.Position(), OpPos: t.pos}
			nonassoc = precCmp
		case "at":
			// AT alone may be an alias; AT TIME commits to AT TIME ZONE.
			if restricted || precAt < min || !p.peekN(1).is("time") {
				return left
			}
			p.advance()
			p.advance()
			p.expectWord("zone")
			zone := p.parseExprPrec(precAt+1, mode)
			// PostgreSQL turns x AT TIME ZONE z into timezone(z, x).
			left = &ast.FuncCall{Name: ast.QualifiedName{Parts: []string{"timezone"}, Pos: t.pos}, Args: []ast.Expr{zone, left}, Pos: left.Position()}
			nonassoc = precNone
		case "collate":
			if restricted || precCollate < min || target && !isColID(p.peekN(1)) {
				return left
			}
			p.advance()
			name := p.anyName()
			left = &ast.Collate{X: left, Collation: name, Pos: left.Position(), OpPos: t.pos}
			nonassoc = precNone
		case "operator":
			if precOp < min || !p.operatorSyntaxAhead() {
				return left
			}
			op := p.parseOperatorSyntax()
			left, nonassoc = p.parseOperatorRHS(left, op, t.pos, precOp, mode)
		default:
			return left
		}
	}
}

// parseOperatorRHS parses what follows a symbolic operator: op ANY|SOME|ALL
// (...), or a right operand.
func (p *parser) parseOperatorRHS(left ast.Expr, op string, opPos, prec int, mode exprMode) (ast.Expr, int) {
	if q := p.peek(); q.is("any") || q.is("some") || q.is("all") {
		p.advance()
		if !p.peek().isOp("(") {
			p.fail()
		}
		g := p.parseParenGroup(false)
		aa := &ast.AnyAll{Op: op, X: left, All: q.is("all"), Pos: left.Position(), OpPos: opPos}
		if g.query != nil {
			aa.Query = g.query
		} else {
			aa.Array = g.elems[0]
		}
		return aa, precNone
	}
	right := p.parseExprPrec(prec+1, mode)
	b := &ast.Binary{Op: op, L: left, R: right, Pos: left.Position(), OpPos: opPos}
	if prec == precCmp {
		return b, precCmp
	}
	return b, precNone
}

// canStartExpr reports whether t can begin an expression.
func canStartExpr(t *token) bool {
	switch t.kind {
	case tkInteger, tkNumeric, tkString, tkBitString, tkParam, tkQIdent:
		return true
	case tkOp:
		return t.str == "(" || t.str == "+" || t.str == "-" || isGenericOp(t)
	case tkIdent:
		return t.kw != reservedKeyword || exprStartReserved[t.str]
	}
	return false
}

// isPredicateAhead reports whether the IS at the cursor is followed by what
// IS can test.
func (p *parser) isPredicateAhead() bool {
	n := p.peekN(1)
	return n.is("not") || n.is("null") || n.is("true") || n.is("false") || n.is("unknown") || n.is("distinct")
}

// likeLevelAhead reports whether BETWEEN, IN, LIKE, ILIKE or SIMILAR at t
// (the cursor) continues the expression.
func (p *parser) likeLevelAhead(t *token) bool {
	n := p.peekN(1)
	switch t.str {
	case "between":
		return canStartExpr(n) || n.is("symmetric") || n.is("asymmetric")
	case "in":
		return n.isOp("(")
	case "like", "ilike":
		return canStartExpr(n) || n.is("any") || n.is("some") || n.is("all")
	case "similar":
		return n.is("to")
	}
	return false
}

func (p *parser) isDistinctAhead() bool {
	n := p.peekN(1)
	if n.is("not") {
		n = p.peekN(2)
	}
	return n.is("distinct")
}

// parseIs parses IS [NOT] NULL | TRUE | FALSE | UNKNOWN | DISTINCT FROM x.
func (p *parser) parseIs(left ast.Expr, mode exprMode) (ast.Expr, int) {
	p.expectWord("is")
	not := p.acceptWord("not")
	t := p.peek()
	switch {
	case t.is("null"):
		p.advance()
		return &ast.IsNull{X: left, Not: not, Pos: left.Position()}, precNone
	case t.is("true") || t.is("false") || t.is("unknown"):
		p.advance()
		return &ast.IsBool{X: left, Not: not, Value: strings.ToUpper(t.str), Pos: left.Position()}, precNone
	case t.is("distinct"):
		p.advance()
		p.expectWord("from")
		right := p.parseExprPrec(precIs+1, mode)
		op := "IS DISTINCT FROM"
		if not {
			op = "IS NOT DISTINCT FROM"
		}
		return &ast.Binary{Op: op, L: left, R: right, Pos: left.Position(), OpPos: t.pos}, precIs
	}
	p.fail()
	return nil, 0
}

// parseLikeLevel parses the BETWEEN / IN / LIKE / ILIKE / SIMILAR TO forms;
// op is the keyword token and the NOT before it has been consumed.
func (p *parser) parseLikeLevel(left ast.Expr, op *token, not bool, opPos int, mode exprMode) (ast.Expr, int) {
	p.advance()
	switch op.str {
	case "between":
		sym := p.acceptWord("symmetric")
		if !sym {
			p.acceptWord("asymmetric")
		}
		lo := p.parseBExpr()
		p.expectWord("and")
		hi := p.parseExprPrec(precLike+1, mode)
		return &ast.Between{X: left, Lo: lo, Hi: hi, Not: not, Symmetric: sym, Pos: left.Position(), OpPos: opPos}, precLike
	case "in":
		if !p.peek().isOp("(") {
			p.fail()
		}
		g := p.parseParenGroup(true)
		in := &ast.In{X: left, Not: not, Pos: left.Position(), OpPos: opPos}
		if g.query != nil {
			in.Query = g.query
		} else {
			in.List = g.elems
		}
		return in, precNone
	}
	// LIKE, ILIKE, SIMILAR TO
	lk := &ast.Like{X: left, Not: not, ILike: op.str == "ilike", Similar: op.str == "similar", Pos: left.Position(), OpPos: opPos}
	if lk.Similar {
		p.expectWord("to")
	}
	if q := p.peek(); !lk.Similar && (q.is("any") || q.is("some") || q.is("all")) {
		// x LIKE ANY (array): PostgreSQL's subquery_Op form, on the
		// operator LIKE stands for.
		opName := map[bool]string{false: "~~", true: "~~*"}[lk.ILike]
		if not {
			opName = "!" + opName
		}
		return p.parseOperatorRHS(left, opName, opPos, precLike, mode)
	}
	lk.Pattern = p.parseExprPrec(precLike+1, mode)
	if p.acceptWord("escape") {
		lk.Escape = p.parseExprPrec(precLike+1, mode)
	}
	return lk, precLike
}

// parseCastSuffix parses x::type.
func (p *parser) parseCastSuffix(x ast.Expr) ast.Expr {
	op := p.expectOp("::")
	tn := p.parseTypeName(false)
	return &ast.Cast{X: x, Type: tn, Syntax: "::", IntervalFields: tn.IntervalFields, Pos: x.Position(), OpPos: op.pos}
}

// ---------------------------------------------------------------- primaries

// parsePrimary parses PostgreSQL's c_expr: constants, names, calls,
// parenthesized forms and the keyword-led expressions.
func (p *parser) parsePrimary() ast.Expr {
	t := p.peek()
	switch t.kind {
	case tkInteger:
		p.advance()
		return &ast.Literal{Kind: ast.LitInteger, Value: t.str, Pos: t.pos}
	case tkNumeric:
		p.advance()
		return &ast.Literal{Kind: ast.LitNumeric, Value: t.str, Pos: t.pos}
	case tkString:
		p.advance()
		return &ast.Literal{Kind: ast.LitString, Value: t.str, Pos: t.pos}
	case tkBitString:
		p.advance()
		return &ast.Literal{Kind: ast.LitBitString, Value: t.str, Pos: t.pos}
	case tkParam:
		p.advance()
		return p.parseIndirection(&ast.Param{Index: t.num, Pos: t.pos})
	case tkOp:
		if t.isOp("(") {
			g := p.parseParenGroup(true)
			e := g.expr()
			if len(g.elems) > 1 {
				return e // an implicit row takes no subscripts
			}
			return p.parseIndirection(e)
		}
	case tkQIdent:
		return p.parseNamePrimary()
	case tkIdent:
		if t.kw != notKeyword {
			if e := p.parseKeywordPrimary(); e != nil {
				return e
			}
			if t.kw == reservedKeyword {
				p.fail()
			}
		}
		return p.parseNamePrimary()
	}
	p.fail()
	return nil
}

// parseNamePrimary parses what starts with a name: a column reference
// (a, t.a, s.t.a, t.*), a function call (f(...), pg_catalog.f(...)), or a
// constant of a named type (date '2020-01-01', pg_catalog.int4 '1').
func (p *parser) parseNamePrimary() ast.Expr {
	first := p.advance()
	parts := []string{first.str}
	// Quoted means double quotes: `backquoted` Databricks names are
	// ordinary case-insensitive names.
	dq := p.opts.Dialect != DialectDatabricks
	quoted := first.kind == tkQIdent && dq
	star := false
	for p.peek().isOp(".") {
		n := p.peekN(1)
		if n.isOp("*") {
			p.advance()
			p.advance()
			parts = append(parts, "*")
			star = true
			break
		}
		p.advance()
		if !isColLabel(n) {
			p.fail() // a dot must be followed by a name or *
		}
		p.advance()
		parts = append(parts, n.str)
		quoted = n.kind == tkQIdent && dq
	}
	// PostgreSQL's func_name: a one-part name must be a type_function_name,
	// a qualified one must start with a ColId.
	funcName := !star && (len(parts) == 1 && isTypeFuncName(first) || len(parts) > 1 && isColID(first))
	next := p.peek()
	if funcName && next.isOp("(") {
		fc := p.parseFuncCall(ast.QualifiedName{Parts: parts, Pos: first.pos}, false)
		if lit := p.peek(); lit.kind == tkString {
			// type(mods) 'string': a constant of a type with modifiers.
			return p.typmodLiteral(fc, lit)
		}
		return fc
	}
	if funcName && next.kind == tkString {
		p.advance()
		tn := ast.TypeName{Name: parts[len(parts)-1], Pos: first.pos}
		if len(parts) > 1 {
			tn.Schema = parts[len(parts)-2]
		}
		return &ast.Cast{
			X:      &ast.Literal{Kind: ast.LitString, Value: next.str, Pos: next.pos},
			Type:   tn,
			Syntax: "literal",
			Pos:    first.pos,
			OpPos:  first.pos,
		}
	}
	if !isColID(first) {
		// A type_func_name keyword (left, right, join, ...) can only start a
		// call, so PostgreSQL complains at the token after it.
		p.fail()
	}
	ref := &ast.ColumnRef{Parts: parts, Quoted: quoted, Pos: first.pos}
	if star {
		return ref
	}
	return p.parseIndirection(ref)
}

// typmodLiteral turns f(10) 'x' into a constant of type f(10).
func (p *parser) typmodLiteral(fc *ast.FuncCall, lit *token) ast.Expr {
	tn := ast.TypeName{Name: fc.Name.Name(), Schema: fc.Name.Schema(), Pos: fc.Pos}
	if fc.Star || fc.Distinct || fc.Variadic || fc.OrderBy != nil || fc.Filter != nil || fc.Over != nil {
		p.failAt(lit)
	}
	for _, a := range fc.Args {
		l, ok := a.(*ast.Literal)
		if !ok || l.Kind != ast.LitInteger {
			p.failAt(lit)
		}
		n, ok := atoiSmall(l.Value)
		if !ok {
			p.failAt(lit)
		}
		tn.Args = append(tn.Args, n)
	}
	p.advance()
	return &ast.Cast{
		X:      &ast.Literal{Kind: ast.LitString, Value: lit.str, Pos: lit.pos},
		Type:   tn,
		Syntax: "literal",
		Pos:    fc.Pos,
		OpPos:  fc.Pos,
	}
}

// parseIndirection parses subscripts and field selections after a column,
// a parameter or a parenthesized expression: x[1], x[1:2], (x).f, (x).*.
func (p *parser) parseIndirection(x ast.Expr) ast.Expr {
	for {
		t := p.peek()
		switch {
		case t.isOp("["):
			x = p.parseSubscript(x)
		case t.isOp("."):
			n := p.peekN(1)
			switch {
			case n.isOp("*"):
				p.advance()
				p.advance()
				return &ast.FieldAccess{X: x, Field: "*", Pos: x.Position()}
			case isColLabel(n):
				p.advance()
				p.advance()
				x = &ast.FieldAccess{X: x, Field: n.str, Pos: x.Position()}
			default:
				p.advance()
				p.fail() // a dot must be followed by a name or *
			}
		default:
			return x
		}
	}
}

// parseSubscript parses [i], [lo:hi], [lo:], [:hi] or [:].
func (p *parser) parseSubscript(x ast.Expr) ast.Expr {
	p.expectOp("[")
	s := &ast.Subscript{X: x, Pos: x.Position()}
	var first ast.Expr
	if !p.peek().isOp(":") {
		first = p.parseExpr()
	}
	if p.acceptOp(":") {
		s.Slice = true
		s.Lo = first
		if !p.peek().isOp("]") {
			s.Hi = p.parseExpr()
		}
	} else {
		s.Index = first
	}
	p.expectOp("]")
	return s
}

// parenGroup is what a parenthesized group held in expression context:
// a query (select_with_parens), or one or more expressions.
type parenGroup struct {
	query *ast.Select
	elems []ast.Expr
	pos   int
}

func (g parenGroup) expr() ast.Expr {
	if g.query != nil {
		return &ast.Subquery{Query: g.query, Pos: g.pos}
	}
	if len(g.elems) == 1 {
		return g.elems[0]
	}
	return &ast.RowExpr{Elems: g.elems, Pos: g.pos}
}

// parseParenGroup parses '(' ... ')' where either a query or an expression
// (list) may stand. A group opening with another '(' is resolved after its
// inner group: ((SELECT 1) UNION (SELECT 2)) is a query, ((SELECT 1) + 1)
// an expression, so no backtracking is needed.
func (p *parser) parseParenGroup(allowList bool) parenGroup {
	p.enter()
	open := p.expectOp("(")
	g := parenGroup{pos: open.pos}
	t := p.peek()
	switch {
	case startsQuery(t):
		g.query = p.parseSelectStmt()
		p.expectOp(")")
		p.leave()
		return g
	case t.isOp("("):
		inner := p.parseParenGroup(true)
		if inner.query != nil {
			if p.continuesQuery() {
				g.query = p.continueSelect(inner.query, open.pos)
				p.expectOp(")")
				p.leave()
				return g
			}
			if p.acceptOp(")") {
				g.query = inner.query
				p.leave()
				return g
			}
		}
		first := inner.expr()
		if len(inner.elems) <= 1 {
			first = p.parseIndirection(first)
		}
		g.elems = append(g.elems, p.parseInfix(first, precOr, 0))
	default:
		g.elems = append(g.elems, p.parseExpr())
	}
	for p.peek().isOp(",") {
		if !allowList {
			p.fail()
		}
		p.advance()
		g.elems = append(g.elems, p.parseExpr())
	}
	p.expectOp(")")
	p.leave()
	return g
}

// startsQuery reports whether t begins a query inside parentheses.
func startsQuery(t *token) bool {
	return t.is("select") || t.is("values") || t.is("with") || t.is("table")
}

// continuesQuery reports whether the next token extends a parenthesized
// query: a set operation, ORDER BY, LIMIT, OFFSET, FETCH or a locking
// clause.
func (p *parser) continuesQuery() bool {
	t := p.peek()
	if t.kind != tkIdent {
		return false
	}
	switch t.str {
	case "union", "intersect", "except", "order", "limit", "offset", "fetch", "for":
		return true
	}
	return false
}

// parseKeywordPrimary parses the expressions that begin with a keyword.
// It returns nil when the keyword is to be read as a plain name (a column
// called "time" or "coalesce" is legal in PostgreSQL).
func (p *parser) parseKeywordPrimary() ast.Expr {
	t := p.peek()
	next := p.peekN(1)
	switch t.str {
	case "null":
		p.advance()
		return &ast.Literal{Kind: ast.LitNull, Value: "NULL", Pos: t.pos}
	case "true", "false":
		p.advance()
		return &ast.Literal{Kind: ast.LitBool, Value: t.str, Pos: t.pos}
	case "default":
		// PostgreSQL's grammar accepts DEFAULT as an expression anywhere and
		// rejects it later outside VALUES and SET; so does cdcdb.
		p.advance()
		return &ast.Default{Pos: t.pos}
	case "case":
		return p.parseCase()
	case "cast":
		return p.parseCast()
	case "array":
		return p.parseArray()
	case "exists":
		if next.isOp("(") {
			p.advance()
			return &ast.Exists{Query: p.parseSelectWithParens(), Pos: t.pos}
		}
	case "row":
		if next.isOp("(") {
			p.advance()
			p.advance()
			row := &ast.RowExpr{Explicit: true, Pos: t.pos}
			if !p.acceptOp(")") {
				row.Elems = p.parseExprList()
				p.expectOp(")")
			}
			return row
		}
	case "coalesce", "nullif", "greatest", "least", "grouping":
		if next.isOp("(") {
			p.advance()
			p.advance()
			fc := &ast.FuncCall{Name: ast.QualifiedName{Parts: []string{t.str}, Pos: t.pos}, Pos: t.pos}
			fc.Args = p.parseExprList()
			p.expectOp(")")
			return fc
		}
	case "extract", "position", "substring", "trim", "overlay", "normalize":
		if next.isOp("(") {
			return p.parseSpecialSyntaxFunc()
		}
	case "collation":
		if next.is("for") {
			p.advance()
			p.advance()
			p.expectOp("(")
			x := p.parseExpr()
			p.expectOp(")")
			return &ast.FuncCall{Name: ast.QualifiedName{Parts: []string{"pg_collation_for"}, Pos: t.pos}, Args: []ast.Expr{x}, Pos: t.pos}
		}
	case "current_date", "current_role", "current_user", "session_user", "user", "current_catalog":
		p.advance()
		return &ast.SpecialFunc{Name: strings.ToUpper(t.str), Pos: t.pos}
	case "current_schema":
		if !next.isOp("(") {
			p.advance()
			return &ast.SpecialFunc{Name: "CURRENT_SCHEMA", Pos: t.pos}
		}
	case "current_time", "current_timestamp", "localtime", "localtimestamp":
		p.advance()
		sf := &ast.SpecialFunc{Name: strings.ToUpper(t.str), Pos: t.pos}
		if p.acceptOp("(") {
			n := p.peek()
			v, _ := p.intConst()
			sf.Args = []ast.Expr{&ast.Literal{Kind: ast.LitInteger, Value: strconv.Itoa(v), Pos: n.pos}}
			p.expectOp(")")
		}
		return sf
	}
	if p.constTypeAhead() {
		return p.parseTypedLiteral()
	}
	return nil
}

// parseExprList is a_expr [, a_expr ...].
func (p *parser) parseExprList() []ast.Expr {
	list := []ast.Expr{p.parseExpr()}
	for p.acceptOp(",") {
		list = append(list, p.parseExpr())
	}
	return list
}

// parseCase parses CASE [x] WHEN ... THEN ... [ELSE ...] END.
func (p *parser) parseCase() ast.Expr {
	t := p.expectWord("case")
	c := &ast.Case{Pos: t.pos}
	if !p.peek().is("when") {
		c.Operand = p.parseExpr()
	}
	if !p.peek().is("when") {
		p.fail()
	}
	for p.acceptWord("when") {
		cond := p.parseExpr()
		p.expectWord("then")
		c.Whens = append(c.Whens, ast.When{Cond: cond, Result: p.parseExpr()})
	}
	if p.acceptWord("else") {
		c.Else = p.parseExpr()
	}
	p.expectWord("end")
	return c
}

// parseCast parses CAST(x AS type).
func (p *parser) parseCast() ast.Expr {
	t := p.expectWord("cast")
	p.expectOp("(")
	x := p.parseExpr()
	p.expectWord("as")
	tn := p.parseTypeName(false)
	p.expectOp(")")
	return &ast.Cast{X: x, Type: tn, Syntax: "CAST", IntervalFields: tn.IntervalFields, Pos: t.pos, OpPos: t.pos}
}

// parseArray parses ARRAY[...] and ARRAY(subquery).
func (p *parser) parseArray() ast.Expr {
	t := p.expectWord("array")
	if p.peek().isOp("(") {
		return &ast.ArraySubquery{Query: p.parseSelectWithParens(), Pos: t.pos}
	}
	if !p.peek().isOp("[") {
		p.fail()
	}
	return p.parseArrayBody(t.pos)
}

// parseArrayBody parses [a, b] or [[a, b], [c, d]]: inner brackets need no
// ARRAY keyword, and one level holds either only lists or only values.
func (p *parser) parseArrayBody(pos int) *ast.ArrayExpr {
	p.enter()
	p.expectOp("[")
	arr := &ast.ArrayExpr{Pos: pos}
	if p.acceptOp("]") {
		p.leave()
		return arr
	}
	if p.peek().isOp("[") {
		for {
			arr.Elems = append(arr.Elems, p.parseArrayBody(p.peek().pos))
			if !p.acceptOp(",") {
				break
			}
			if !p.peek().isOp("[") {
				p.fail()
			}
		}
	} else {
		arr.Elems = p.parseExprList()
	}
	p.expectOp("]")
	p.leave()
	return arr
}

// parseSpecialSyntaxFunc parses the SQL-standard functions with keyword
// argument syntax, turning each into the ordinary call PostgreSQL makes of
// it:
//
//	EXTRACT(f FROM x)                 -> extract('f', x)
//	POSITION(a IN b)                  -> position(a, b)   (written order; see below)
//	SUBSTRING(x FROM a FOR b)         -> substring(x, a, b)
//	SUBSTRING(x FOR b)                -> substring(x, 1, b)
//	SUBSTRING(x SIMILAR p ESCAPE e)   -> substring(x, p, e)
//	TRIM([BOTH|LEADING|TRAILING] [c] FROM x) -> btrim|ltrim|rtrim(x[, c])
//	OVERLAY(x PLACING y FROM a [FOR b]) -> overlay(x, y, a[, b])
//	NORMALIZE(x [, form])             -> normalize(x[, 'FORM'])
//
// POSITION keeps the written order (substring first, then string), unlike
// PostgreSQL's internal position(string, substring): the planner maps it.
func (p *parser) parseSpecialSyntaxFunc() ast.Expr {
	t := p.advance()
	p.expectOp("(")
	call := func(name string, args ...ast.Expr) *ast.FuncCall {
		return &ast.FuncCall{Name: ast.QualifiedName{Parts: []string{name}, Pos: t.pos}, Args: args, Pos: t.pos}
	}
	var fc *ast.FuncCall
	switch t.str {
	case "extract":
		f := p.peek()
		switch {
		case f.kind == tkString || f.kind == tkQIdent || f.kind == tkIdent && f.kw == notKeyword:
		case f.is("year") || f.is("month") || f.is("day") || f.is("hour") || f.is("minute") || f.is("second"):
		default:
			p.fail()
		}
		p.advance()
		p.expectWord("from")
		x := p.parseExpr()
		fc = call("extract", &ast.Literal{Kind: ast.LitString, Value: f.str, Pos: f.pos}, x)
	case "position":
		a := p.parseBExpr()
		p.expectWord("in")
		b := p.parseBExpr()
		fc = call("position", a, b)
	case "substring":
		if p.peek().isOp(")") {
			fc = call("substring")
			break
		}
		x := p.parseExpr()
		switch {
		case p.acceptWord("from"):
			from := p.parseExpr()
			if p.acceptWord("for") {
				fc = call("substring", x, from, p.parseExpr())
			} else {
				fc = call("substring", x, from)
			}
		case p.acceptWord("for"):
			forExpr := p.parseExpr()
			if p.acceptWord("from") {
				fc = call("substring", x, p.parseExpr(), forExpr)
			} else {
				one := &ast.Literal{Kind: ast.LitInteger, Value: "1", Pos: forExpr.Position()}
				fc = call("substring", x, one, forExpr)
			}
		case p.acceptWord("similar"):
			pat := p.parseExpr()
			p.expectWord("escape")
			fc = call("substring", x, pat, p.parseExpr())
		default:
			fc = call("substring", x)
			for p.acceptOp(",") {
				fc.Args = append(fc.Args, p.parseExpr())
			}
		}
	case "trim":
		name := "btrim"
		switch {
		case p.acceptWord("both"):
		case p.acceptWord("leading"):
			name = "ltrim"
		case p.acceptWord("trailing"):
			name = "rtrim"
		}
		if p.acceptWord("from") {
			fc = call(name, p.parseExprList()...)
			break
		}
		first := p.parseExpr()
		if p.acceptWord("from") {
			args := p.parseExprList()
			fc = call(name, append(args, first)...)
			break
		}
		fc = call(name, first)
		for p.acceptOp(",") {
			fc.Args = append(fc.Args, p.parseExpr())
		}
	case "overlay":
		if p.peek().isOp(")") {
			fc = call("overlay")
			break
		}
		x := p.parseExpr()
		if p.acceptWord("placing") {
			y := p.parseExpr()
			p.expectWord("from")
			from := p.parseExpr()
			fc = call("overlay", x, y, from)
			if p.acceptWord("for") {
				fc.Args = append(fc.Args, p.parseExpr())
			}
			break
		}
		fc = call("overlay", x)
		for p.acceptOp(",") {
			fc.Args = append(fc.Args, p.parseExpr())
		}
	case "normalize":
		x := p.parseExpr()
		fc = call("normalize", x)
		if p.acceptOp(",") {
			f := p.peek()
			if !(f.is("nfc") || f.is("nfd") || f.is("nfkc") || f.is("nfkd")) {
				p.fail()
			}
			p.advance()
			fc.Args = append(fc.Args, &ast.Literal{Kind: ast.LitString, Value: strings.ToUpper(f.str), Pos: f.pos})
		}
	}
	p.expectOp(")")
	return fc
}

// ---------------------------------------------------------------- calls

// parseFuncCall parses the argument list and the aggregate and window
// decorations of a call whose name has been read. windowless is set in
// FROM, where PostgreSQL allows no WITHIN GROUP, FILTER or OVER, so those
// words are aliases there.
func (p *parser) parseFuncCall(name ast.QualifiedName, windowless bool) *ast.FuncCall {
	p.expectOp("(")
	fc := &ast.FuncCall{Name: name, Pos: name.Pos}
	switch {
	case p.peek().isOp("*"):
		p.advance()
		fc.Star = true
	case p.peek().isOp(")"):
	default:
		if p.acceptWord("distinct") {
			fc.Distinct = true
		} else {
			p.acceptWord("all")
		}
		for {
			if p.acceptWord("variadic") {
				fc.Variadic = true
				fc.Args = append(fc.Args, p.parseFuncArg())
				break
			}
			fc.Args = append(fc.Args, p.parseFuncArg())
			if !p.acceptOp(",") {
				break
			}
		}
		if p.peek().is("order") {
			fc.OrderBy = p.parseOrderBy()
		}
	}
	p.expectOp(")")
	if windowless {
		return fc
	}
	if t := p.peek(); t.is("within") {
		switch {
		case fc.OrderBy != nil:
			p.bail(p.errorAtPos("42601", t.pos, "cannot use multiple ORDER BY clauses with WITHIN GROUP"))
		case fc.Distinct:
			p.bail(p.errorAtPos("42601", t.pos, "cannot use DISTINCT with WITHIN GROUP"))
		case fc.Variadic:
			p.bail(p.errorAtPos("42601", t.pos, "cannot use VARIADIC with WITHIN GROUP"))
		}
		p.advance()
		p.expectWord("group")
		p.expectOp("(")
		fc.OrderBy = p.parseOrderBy()
		fc.WithinGroup = true
		p.expectOp(")")
	}
	if p.peek().is("filter") {
		p.advance()
		p.expectOp("(")
		p.expectWord("where")
		fc.Filter = p.parseExpr()
		p.expectOp(")")
	}
	if p.peek().is("over") {
		p.advance()
		if p.peek().isOp("(") {
			fc.Over = p.parseWindowSpec()
		} else {
			fc.Over = &ast.WindowSpec{RefPos: p.peek().pos}
			fc.Over.Ref = p.colID()
		}
	}
	return fc
}

// parseFuncArg parses one argument; a name => value (or name := value)
// argument is kept as its value, positionally.
func (p *parser) parseFuncArg() ast.Expr {
	if isTypeFuncName(p.peek()) && (p.peekN(1).isOp("=>") || p.peekN(1).isOp(":=")) {
		p.advance()
		p.advance()
	}
	return p.parseExpr()
}

// parseOrderBy parses ORDER BY sortby [, ...].
func (p *parser) parseOrderBy() []ast.OrderItem {
	p.expectWord("order")
	p.expectWord("by")
	items := []ast.OrderItem{p.parseSortItem()}
	for p.acceptOp(",") {
		items = append(items, p.parseSortItem())
	}
	return items
}

func (p *parser) parseSortItem() ast.OrderItem {
	it := ast.OrderItem{Expr: p.parseExpr()}
	switch {
	case p.acceptWord("asc"):
	case p.acceptWord("desc"):
		it.Desc = true
	case p.acceptWord("using"):
		if p.peek().is("operator") {
			it.Using = p.parseOperatorSyntax()
		} else {
			t := p.peek()
			if !isAnyOperator(t) {
				p.fail()
			}
			p.advance()
			it.Using = t.str
		}
	}
	if p.peek().is("nulls") && (p.peekN(1).is("first") || p.peekN(1).is("last")) {
		p.advance()
		it.Nulls = strings.ToUpper(p.advance().str)
	}
	return it
}

// parseWindowSpec parses ( [name] [PARTITION BY ...] [ORDER BY ...] [frame] ).
func (p *parser) parseWindowSpec() *ast.WindowSpec {
	p.expectOp("(")
	w := &ast.WindowSpec{}
	if t := p.peek(); isColID(t) && !(t.is("partition") || t.is("range") || t.is("rows") || t.is("groups")) {
		w.RefPos = t.pos
		w.Ref = p.colID()
	}
	if p.peek().is("partition") {
		p.advance()
		p.expectWord("by")
		w.PartitionBy = p.parseExprList()
	}
	if p.peek().is("order") {
		w.OrderBy = p.parseOrderBy()
	}
	if t := p.peek(); t.is("range") || t.is("rows") || t.is("groups") {
		w.Frame = p.parseFrame()
	}
	p.expectOp(")")
	return w
}

// parseFrame parses a window frame and applies PostgreSQL's checks of it
// (which the grammar makes, so they are parse errors there too).
func (p *parser) parseFrame() *ast.Frame {
	f := &ast.Frame{Mode: strings.ToUpper(p.advance().str)}
	if p.acceptWord("between") {
		startTok := p.peek()
		f.Start = p.parseFrameBound()
		p.expectWord("and")
		endTok := p.peek()
		f.End = p.parseFrameBound()
		switch {
		case f.Start.Kind == "UNBOUNDED FOLLOWING":
			p.bail(p.errorAtPos("42P20", startTok.pos, "frame start cannot be UNBOUNDED FOLLOWING"))
		case f.End.Kind == "UNBOUNDED PRECEDING":
			p.bail(p.errorAtPos("42P20", endTok.pos, "frame end cannot be UNBOUNDED PRECEDING"))
		case f.Start.Kind == "CURRENT ROW" && f.End.Kind == "PRECEDING":
			p.bail(p.errorAtPos("42P20", endTok.pos, "frame starting from current row cannot have preceding rows"))
		case f.Start.Kind == "FOLLOWING" && (f.End.Kind == "PRECEDING" || f.End.Kind == "CURRENT ROW"):
			p.bail(p.errorAtPos("42P20", endTok.pos, "frame starting from following row cannot have preceding rows"))
		}
	} else {
		startTok := p.peek()
		f.Start = p.parseFrameBound()
		switch f.Start.Kind {
		case "UNBOUNDED FOLLOWING":
			p.bail(p.errorAtPos("42P20", startTok.pos, "frame start cannot be UNBOUNDED FOLLOWING"))
		case "FOLLOWING":
			p.bail(p.errorAtPos("42P20", startTok.pos, "frame starting from following row cannot end with current row"))
		}
	}
	if p.acceptWord("exclude") {
		switch {
		case p.acceptWord("current"):
			p.expectWord("row")
			f.Exclude = "CURRENT ROW"
		case p.acceptWord("group"):
			f.Exclude = "GROUP"
		case p.acceptWord("ties"):
			f.Exclude = "TIES"
		case p.acceptWord("no"):
			p.expectWord("others")
			f.Exclude = "NO OTHERS"
		default:
			p.fail()
		}
	}
	return f
}

func (p *parser) parseFrameBound() ast.FrameBound {
	t := p.peek()
	switch {
	case t.is("unbounded") && (p.peekN(1).is("preceding") || p.peekN(1).is("following")):
		p.advance()
		return ast.FrameBound{Kind: "UNBOUNDED " + strings.ToUpper(p.advance().str)}
	case t.is("current") && p.peekN(1).is("row"):
		p.advance()
		p.advance()
		return ast.FrameBound{Kind: "CURRENT ROW"}
	}
	off := p.parseExpr()
	switch {
	case p.acceptWord("preceding"):
		return ast.FrameBound{Kind: "PRECEDING", Offset: off}
	case p.acceptWord("following"):
		return ast.FrameBound{Kind: "FOLLOWING", Offset: off}
	}
	p.fail()
	return ast.FrameBound{}
}
