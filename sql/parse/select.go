package parse

import (
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// parseQuery parses a query statement: SELECT, VALUES, TABLE, WITH ... or a
// parenthesized query, with set operations, ORDER BY, LIMIT and locking.
func (p *parser) parseQuery() *ast.Select { return p.parseSelectStmt() }

// parseSelectStmt is PostgreSQL's SelectStmt.
func (p *parser) parseSelectStmt() *ast.Select {
	p.enter()
	start := p.peek().pos
	var with *ast.With
	if p.peek().is("with") {
		with = p.parseWith()
	}
	sel := p.parseQueryAfterWith(with, start)
	p.leave()
	return sel
}

// parseQueryAfterWith parses the rest of a query once its WITH clause (if
// any) has been read.
func (p *parser) parseQueryAfterWith(with *ast.With, start int) *ast.Select {
	body := p.parseSetOps(nil, 0)
	return p.finishSelect(body, with, start)
}

// parseSelectWithParens parses '(' query ')', where the query may itself be
// parenthesized: ((SELECT 1) UNION SELECT 2).
func (p *parser) parseSelectWithParens() *ast.Select {
	p.enter()
	open := p.expectOp("(")
	var sel *ast.Select
	switch t := p.peek(); {
	case t.isOp("("):
		inner := p.parseSelectWithParens()
		sel = p.continueSelect(inner, open.pos)
	case startsQuery(t):
		sel = p.parseSelectStmt()
	default:
		p.fail()
	}
	p.expectOp(")")
	p.leave()
	return sel
}

// continueSelect extends a parenthesized query that turned out to be the
// first operand of a longer one: (SELECT 1) UNION SELECT 2 ORDER BY 1.
func (p *parser) continueSelect(first *ast.Select, start int) *ast.Select {
	body := p.parseSetOps(setExprOf(first), 0)
	return p.finishSelect(body, nil, start)
}

// setExprOf is the set-operation operand for a parenthesized query: its body
// alone when it has no clauses of its own, else the whole query.
func setExprOf(s *ast.Select) ast.SetExpr {
	if s.With == nil && s.OrderBy == nil && s.Limit == nil && s.Offset == nil && s.Locking == "" {
		return s.Body
	}
	return s
}

// Set operation precedence: INTERSECT binds tighter than UNION and EXCEPT.
func setOpPrec(t *token) int {
	switch {
	case t.is("union"), t.is("except"):
		return 1
	case t.is("intersect"):
		return 2
	}
	return 0
}

// parseSetOps parses operands joined by UNION / INTERSECT / EXCEPT with
// precedence climbing; left is an already parsed first operand, or nil.
func (p *parser) parseSetOps(left ast.SetExpr, min int) ast.SetExpr {
	if left == nil {
		left = p.parseSetOperand()
	}
	for {
		t := p.peek()
		prec := setOpPrec(t)
		if prec == 0 || prec <= min {
			return left
		}
		p.advance()
		op := &ast.SetOp{Op: upperWord(t.str), Left: left, Pos: t.pos}
		if p.acceptWord("all") {
			op.All = true
		} else {
			p.acceptWord("distinct")
		}
		p.enter()
		op.Right = p.parseSetOps(nil, prec)
		p.leave()
		left = op
	}
}

func upperWord(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// parseSetOperand parses SELECT ..., VALUES ..., TABLE t or a parenthesized
// query.
func (p *parser) parseSetOperand() ast.SetExpr {
	t := p.peek()
	switch {
	case t.is("select"):
		return p.parseSelectCore()
	case t.is("values"):
		return p.parseValues()
	case t.is("table"):
		p.advance()
		ref := p.parseRelationExpr()
		return &ast.SelectCore{
			Targets: []ast.Target{{Star: true, Pos: t.pos}},
			From:    []ast.TableExpr{ref},
			Pos:     t.pos,
		}
	case t.isOp("("):
		return setExprOf(p.parseSelectWithParens())
	}
	p.fail()
	return nil
}

// finishSelect parses ORDER BY, LIMIT / OFFSET / FETCH and locking clauses
// after a query body. A parenthesized query with nothing added is returned
// as it is, as PostgreSQL does.
func (p *parser) finishSelect(body ast.SetExpr, with *ast.With, start int) *ast.Select {
	sel := &ast.Select{With: with, Body: body, Pos: start}
	if p.peek().is("order") {
		sel.OrderBy = p.parseOrderBy()
	}
	seenLimit, seenOffset := false, false
	p.parseLimitOffset(sel, &seenLimit, &seenOffset)
	if p.peek().is("for") {
		sel.Locking = p.parseLocking()
		if !seenLimit && !seenOffset {
			p.parseLimitOffset(sel, &seenLimit, &seenOffset)
		}
	}
	if inner, ok := body.(*ast.Select); ok && with == nil && sel.OrderBy == nil && !seenLimit && !seenOffset && sel.Locking == "" {
		return inner
	}
	return sel
}

// parseLimitOffset parses LIMIT, OFFSET and FETCH FIRST, each at most once,
// in either order.
func (p *parser) parseLimitOffset(sel *ast.Select, seenLimit, seenOffset *bool) {
	for {
		t := p.peek()
		switch {
		case t.is("limit") && !*seenLimit:
			p.advance()
			*seenLimit = true
			if p.acceptWord("all") {
				sel.Limit = nil
				continue
			}
			sel.Limit = p.parseExpr()
			if p.peek().isOp(",") {
				p.bail(p.errorAtPos(pgerror.SyntaxError, t.pos, "LIMIT #,# syntax is not supported").
					WithHint("Use separate LIMIT and OFFSET clauses."))
			}
		case t.is("fetch") && !*seenLimit:
			p.advance()
			*seenLimit = true
			if !p.acceptWord("first") {
				p.expectWord("next")
			}
			if !(p.peek().is("row") || p.peek().is("rows")) {
				sel.Limit = p.parseFetchCount()
			} else {
				sel.Limit = &ast.Literal{Kind: ast.LitInteger, Value: "1", Pos: p.peek().pos}
			}
			if !p.acceptWord("row") {
				p.expectWord("rows")
			}
			if p.acceptWord("with") {
				p.expectWord("ties")
				sel.WithTies = true
			} else {
				p.expectWord("only")
			}
		case t.is("offset") && !*seenOffset:
			p.advance()
			*seenOffset = true
			sel.Offset = p.parseExpr()
			if !p.acceptWord("row") {
				p.acceptWord("rows")
			}
		default:
			return
		}
	}
}

// parseFetchCount is select_fetch_first_value: a primary, or a signed
// constant.
func (p *parser) parseFetchCount() ast.Expr {
	t := p.peek()
	if t.isOp("+") || t.isOp("-") {
		p.advance()
		n := p.peek()
		if n.kind != tkInteger && n.kind != tkNumeric {
			p.fail()
		}
		lit := p.parsePrimary().(*ast.Literal)
		if t.str == "-" {
			return negateLiteral(lit, t.pos)
		}
		return lit
	}
	return p.parsePrimary()
}

// parseLocking reads FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE [OF ...]
// [NOWAIT | SKIP LOCKED] ... and FOR READ ONLY, and returns them as written
// for the planner, which locks the rows read (sql/selectlock.go).
func (p *parser) parseLocking() string {
	start := p.peek().pos
	for p.peek().is("for") {
		p.advance()
		switch {
		case p.acceptWord("update"):
		case p.acceptWord("share"):
		case p.acceptWord("no"):
			p.expectWords("key", "update")
		case p.acceptWord("key"):
			p.expectWord("share")
		case p.acceptWord("read"):
			p.expectWord("only")
			continue
		default:
			p.fail()
		}
		if p.acceptWord("of") {
			p.qualifiedName()
			for p.acceptOp(",") {
				p.qualifiedName()
			}
		}
		if !p.acceptWord("nowait") && p.acceptWord("skip") {
			p.expectWord("locked")
		}
	}
	return p.src[start:p.prevEnd()]
}

// parseWith parses WITH [RECURSIVE] name [(cols)] AS [[NOT] MATERIALIZED] (query), ...
func (p *parser) parseWith() *ast.With {
	p.expectWord("with")
	w := &ast.With{Recursive: p.acceptWord("recursive")}
	for {
		t := p.peek()
		cte := ast.CTE{Name: p.colID(), Pos: t.pos}
		if p.peek().isOp("(") {
			cte.Columns = p.parenNameList()
		}
		p.expectWord("as")
		if !p.acceptWord("materialized") && p.acceptWord("not") {
			p.expectWord("materialized")
		}
		p.expectOp("(")
		switch q := p.peek(); {
		case q.is("insert"):
			cte.Query = p.parseInsert(nil)
		case q.is("update"):
			cte.Query = p.parseUpdate(nil)
		case q.is("delete"):
			cte.Query = p.parseDelete(nil)
		default:
			cte.Query = p.parseSelectStmt()
		}
		p.expectOp(")")
		if s := p.peek(); s.is("search") || s.is("cycle") {
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, s.pos, "SEARCH and CYCLE clauses are not supported"))
		}
		w.CTEs = append(w.CTEs, cte)
		if !p.acceptOp(",") {
			return w
		}
	}
}

// parseValues parses VALUES (a, b), (c, d).
func (p *parser) parseValues() *ast.Values {
	t := p.expectWord("values")
	v := &ast.Values{Pos: t.pos}
	for {
		p.expectOp("(")
		v.Rows = append(v.Rows, p.parseExprList())
		p.expectOp(")")
		if !p.acceptOp(",") {
			return v
		}
	}
}

// exprStartReserved lists the reserved words that can begin an expression;
// any other reserved word ends a select list (SELECT FROM t is legal).
var exprStartReserved = map[string]bool{
	"array": true, "case": true, "cast": true, "current_catalog": true, "current_date": true,
	"current_role": true, "current_time": true, "current_timestamp": true, "current_user": true,
	"default": true, "false": true, "localtime": true, "localtimestamp": true, "not": true,
	"null": true, "session_user": true, "true": true, "user": true,
}

// targetListAhead reports whether a select list follows.
func (p *parser) targetListAhead() bool {
	t := p.peek()
	switch t.kind {
	case tkEOF:
		return false
	case tkOp:
		return !t.isOp(")") && !t.isOp(";")
	case tkIdent:
		return t.kw != reservedKeyword || exprStartReserved[t.str]
	}
	return true
}

// parseSelectCore parses SELECT ... FROM ... WHERE ... GROUP BY ... HAVING
// ... WINDOW ....
func (p *parser) parseSelectCore() *ast.SelectCore {
	t := p.expectWord("select")
	c := &ast.SelectCore{Pos: t.pos}
	if p.acceptWord("distinct") {
		c.Distinct = true
		if p.acceptWord("on") {
			p.expectOp("(")
			c.DistinctOn = p.parseExprList()
			p.expectOp(")")
		}
		c.Targets = p.parseTargetList()
	} else {
		p.acceptWord("all")
		if p.targetListAhead() {
			c.Targets = p.parseTargetList()
		}
	}
	if t := p.peek(); t.is("into") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "SELECT ... INTO is not supported").
			WithHint("Use CREATE TABLE ... AS SELECT instead."))
	}
	if p.acceptWord("from") {
		c.From = p.parseFromList()
	}
	if p.acceptWord("where") {
		c.Where = p.parseExpr()
	}
	if p.peek().is("group") {
		p.advance()
		p.expectWord("by")
		if !p.acceptWord("all") {
			p.acceptWord("distinct")
		}
		// GROUP BY () is the empty grouping set: one group of all rows.
		// It adds nothing to other items, and alone it leaves GroupBy
		// empty but not nil.
		c.GroupBy = []ast.Expr{}
		for {
			if p.peek().isOp("(") && p.peekN(1).isOp(")") {
				p.advance()
				p.advance()
			} else {
				c.GroupBy = append(c.GroupBy, p.parseGroupItem())
			}
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if p.acceptWord("having") {
		c.Having = p.parseExpr()
	}
	if p.acceptWord("window") {
		for {
			name := p.colID()
			p.expectWord("as")
			c.Windows = append(c.Windows, ast.NamedWindow{Name: name, Spec: p.parseWindowSpec()})
			if !p.acceptOp(",") {
				break
			}
		}
	}
	return c
}

// parseGroupItem parses one GROUP BY entry: an expression, or ROLLUP,
// CUBE or GROUPING SETS.
func (p *parser) parseGroupItem() ast.Expr {
	if gs := p.parseGroupingSet(); gs != nil {
		return gs
	}
	return p.parseExpr()
}

// parseGroupingSet parses ROLLUP (...), CUBE (...) or GROUPING SETS (...)
// at the cursor, or returns nil when none starts there.
func (p *parser) parseGroupingSet() *ast.GroupingSet {
	t := p.peek()
	gs := &ast.GroupingSet{Pos: t.pos}
	switch {
	case t.is("rollup") && p.peekN(1).isOp("("):
		gs.Kind = ast.GroupingRollup
		p.advance()
	case t.is("cube") && p.peekN(1).isOp("("):
		gs.Kind = ast.GroupingCube
		p.advance()
	case t.is("grouping") && p.peekN(1).is("sets"):
		gs.Kind = ast.GroupingSets
		p.advance()
		p.advance()
	default:
		return nil
	}
	p.expectOp("(")
	for {
		var el ast.GroupingElem
		if gs.Kind == ast.GroupingSets {
			el.Set = p.parseGroupingSet()
		}
		switch {
		case el.Set != nil:
		case p.peek().isOp("(") && p.peekN(1).isOp(")"):
			// () is the empty set, which only GROUPING SETS may hold.
			if gs.Kind != ast.GroupingSets {
				p.failAt(p.peekN(1))
			}
			p.advance()
			p.advance()
		default:
			// (a, b) is one element of several columns; it reads as a row.
			e := p.parseExpr()
			if row, ok := e.(*ast.RowExpr); ok && !row.Explicit {
				el.Exprs = row.Elems
			} else {
				el.Exprs = []ast.Expr{e}
			}
		}
		gs.Elems = append(gs.Elems, el)
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return gs
}

// parseTargetList parses a select list or a RETURNING list.
func (p *parser) parseTargetList() []ast.Target {
	list := []ast.Target{p.parseTarget()}
	for p.acceptOp(",") {
		list = append(list, p.parseTarget())
	}
	return list
}

// parseTarget parses *, t.*, or an expression with an optional alias: AS
// and any word, or without AS an identifier or a bare-label keyword.
func (p *parser) parseTarget() ast.Target {
	t := p.peek()
	if t.isOp("*") {
		p.advance()
		return ast.Target{Star: true, Pos: t.pos}
	}
	e := p.parseExprPrec(precOr, modeTarget)
	tgt := ast.Target{Expr: e, Pos: t.pos}
	if cr, ok := e.(*ast.ColumnRef); ok && cr.Parts[len(cr.Parts)-1] == "*" {
		tgt.Expr = nil
		tgt.Star = true
		tgt.Table = &ast.QualifiedName{Parts: cr.Parts[:len(cr.Parts)-1], Pos: cr.Pos}
	}
	if p.acceptWord("as") {
		tgt.Alias = p.colLabel()
	} else if isBareLabel(p.peek()) {
		tgt.Alias = p.advance().str
	}
	return tgt
}

// ---------------------------------------------------------------- FROM

// parseFromList parses table_ref [, table_ref ...].
func (p *parser) parseFromList() []ast.TableExpr {
	list := []ast.TableExpr{p.parseTableRef()}
	for p.acceptOp(",") {
		list = append(list, p.parseTableRef())
	}
	return list
}

// parseTableRef parses a table expression with its joins.
func (p *parser) parseTableRef() ast.TableExpr {
	return p.parseJoinRest(p.parseTablePrimary(), false)
}

// parseJoinRest extends left with joins. A join that needs ON or USING may
// have a join as its right side (a JOIN b JOIN c ON x ON y); then the inner
// chain stops at the first ON or USING that belongs to the outer join.
func (p *parser) parseJoinRest(left ast.TableExpr, stopAtQual bool) ast.TableExpr {
	for {
		if stopAtQual && (p.peek().is("on") || p.peek().is("using")) {
			return left
		}
		j, ok := p.parseJoinHead()
		if !ok {
			return left
		}
		j.Left = left
		right := p.parseTablePrimary()
		if j.Kind != ast.JoinCross && !j.Natural {
			if !(p.peek().is("on") || p.peek().is("using")) {
				p.enter()
				right = p.parseJoinRest(right, true)
				p.leave()
			}
			switch {
			case p.acceptWord("on"):
				j.On = p.parseExpr()
			case p.acceptWord("using"):
				j.Using = p.parenNameList()
				if t := p.peek(); t.is("as") {
					p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "an alias for JOIN ... USING is not supported"))
				}
			default:
				p.fail()
			}
		}
		j.Right = right
		left = j
	}
}

// parseJoinHead consumes the words that introduce a join, through JOIN.
func (p *parser) parseJoinHead() (*ast.Join, bool) {
	t := p.peek()
	j := &ast.Join{Kind: ast.JoinInner, Pos: t.pos}
	switch {
	case t.is("cross"):
		p.advance()
		p.expectWord("join")
		j.Kind = ast.JoinCross
		return j, true
	case t.is("natural"):
		p.advance()
		j.Natural = true
	case t.is("join"), t.is("inner"), t.is("left"), t.is("right"), t.is("full"):
	default:
		return nil, false
	}
	switch {
	case p.acceptWord("inner"):
	case p.acceptWord("left"):
		j.Kind = ast.JoinLeft
		p.acceptWord("outer")
	case p.acceptWord("right"):
		j.Kind = ast.JoinRight
		p.acceptWord("outer")
	case p.acceptWord("full"):
		j.Kind = ast.JoinFull
		p.acceptWord("outer")
	}
	p.expectWord("join")
	return j, true
}

// parseTablePrimary parses one table expression without joins: a table
// (with period clauses and alias), a subquery, a function, or a
// parenthesized join.
func (p *parser) parseTablePrimary() ast.TableExpr {
	p.enter()
	defer p.leave()
	t := p.peek()
	lateral := false
	if t.is("lateral") {
		p.advance()
		lateral = true
		if p.peek().isOp("(") {
			q := p.parseSelectWithParens()
			return &ast.SubqueryTable{Query: q, Lateral: true, Alias: p.parseOptAlias(""), Pos: t.pos}
		}
	}
	if p.peek().isOp("(") {
		q, te := p.parseParenFrom()
		if q != nil {
			return &ast.SubqueryTable{Query: q, Alias: p.parseOptAlias(""), Pos: t.pos}
		}
		if j, ok := te.(*ast.Join); ok {
			j.Alias = p.parseOptAlias("")
		}
		return te
	}
	if p.peek().is("only") && !lateral {
		return p.parseRelationRest(t)
	}
	first := p.peek()
	if !isColID(first) && !isTypeFuncName(first) {
		p.fail()
	}
	// A name followed by '(' is a function call in FROM.
	j := 1
	for p.peekN(j).isOp(".") && isColLabel(p.peekN(j+1)) {
		j += 2
	}
	if p.peekN(j).isOp("(") {
		return p.parseFuncTable(t, lateral)
	}
	if lateral {
		// LATERAL takes a subquery or a function: the name needed a '('.
		p.i += j
		p.fail()
	}
	return p.parseRelationRest(t)
}

// parseRelationRest parses [ONLY] name [*] [period clauses] [alias].
func (p *parser) parseRelationRest(start *token) ast.TableExpr {
	ref := p.parseRelationExpr()
	ref.Periods = p.parsePeriods()
	ref.Alias = p.parseOptAlias("")
	ref.Pos = start.pos
	return ref
}

// parseRelationExpr parses [ONLY] qualified_name [*] | ONLY (qualified_name).
func (p *parser) parseRelationExpr() *ast.TableRef {
	t := p.peek()
	ref := &ast.TableRef{Pos: t.pos}
	if p.acceptWord("only") {
		ref.Only = true
		if p.acceptOp("(") {
			ref.Name = p.qualifiedName()
			p.expectOp(")")
			return ref
		}
	}
	ref.Name = p.qualifiedName()
	if !ref.Only {
		p.acceptOp("*") // inheritance: every table includes its children
	}
	return ref
}

// parsePeriods parses the SQL:2011 period clauses after a table name:
// FOR BUSINESS_TIME | VALID_TIME | SYSTEM_TIME, then AS OF x, FROM a TO b,
// BETWEEN a AND b or ALL. Each axis may appear once.
func (p *parser) parsePeriods() []ast.PeriodClause {
	var out []ast.PeriodClause
	for p.peek().is("for") {
		n := p.peekN(1)
		var axis ast.PeriodAxis
		switch {
		case n.is("business_time"), n.is("valid_time"):
			axis = ast.BusinessTime
		case n.is("system_time"):
			axis = ast.SystemTime
		default:
			return out // FOR UPDATE and friends
		}
		forTok := p.advance()
		p.advance()
		for _, c := range out {
			if c.Axis == axis {
				p.bail(p.errorAtToken(forTok, "period clause FOR "+string(axis)+" specified more than once"))
			}
		}
		pc := ast.PeriodClause{Axis: axis, Pos: forTok.pos}
		switch {
		case p.acceptWord("as"):
			p.expectWord("of")
			pc.Op = ast.PeriodAsOf
			pc.A = p.parseExpr()
		case p.acceptWord("from"):
			pc.Op = ast.PeriodFromTo
			pc.A = p.parseExpr()
			p.expectWord("to")
			pc.B = p.parseExpr()
		case p.acceptWord("between"):
			// As in x BETWEEN a AND b: the lower bound cannot contain AND.
			pc.Op = ast.PeriodBetween
			pc.A = p.parseBExpr()
			p.expectWord("and")
			pc.B = p.parseExprPrec(precLike+1, 0)
		case p.acceptWord("all"):
			pc.Op = ast.PeriodAll
		default:
			p.fail()
		}
		out = append(out, pc)
	}
	return out
}

// parseOptAlias parses [AS] name [(col, ...)]. Without AS the alias must be
// a ColId; notWord is one more word that cannot be a bare alias (SET after
// UPDATE's table).
func (p *parser) parseOptAlias(notWord string) *ast.Alias {
	var a ast.Alias
	if p.acceptWord("as") {
		a.Name = p.colID()
	} else if t := p.peek(); isColID(t) && !(notWord != "" && t.is(notWord)) {
		a.Name = p.advance().str
	} else {
		return nil
	}
	if p.peek().isOp("(") {
		p.advance()
		a.Columns = []string{p.colID()}
		for {
			if t := p.peek(); !t.isOp(",") && !t.isOp(")") {
				// (name type, ...) is a column definition list for a
				// function returning record.
				p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "column definition lists are not supported"))
			}
			if !p.acceptOp(",") {
				break
			}
			a.Columns = append(a.Columns, p.colID())
		}
		p.expectOp(")")
	}
	return &a
}

// parseFuncTable parses a function in FROM: f(...) [WITH ORDINALITY] [alias].
func (p *parser) parseFuncTable(start *token, lateral bool) ast.TableExpr {
	first := p.advance()
	parts := []string{first.str}
	for p.peek().isOp(".") {
		p.advance()
		parts = append(parts, p.colLabel())
	}
	if len(parts) == 1 && !isTypeFuncName(first) || len(parts) > 1 && !isColID(first) {
		p.fail()
	}
	call := p.parseFuncCall(ast.QualifiedName{Parts: parts, Pos: first.pos}, true)
	ft := &ast.FuncTable{Call: call, Lateral: lateral, Pos: start.pos}
	if p.peek().is("with") && p.peekN(1).is("ordinality") {
		p.advance()
		p.advance()
		ft.WithOrdinality = true
	}
	ft.Alias = p.parseOptAlias("")
	return ft
}

// parseParenFrom parses a parenthesized FROM item: a query, or a joined
// table. Like parseParenGroup it settles a group opening with '(' after its
// inner group, so ((SELECT 1) UNION (SELECT 2)) and ((a JOIN b ON x) JOIN c
// ON y) both parse without backtracking.
func (p *parser) parseParenFrom() (*ast.Select, ast.TableExpr) {
	p.enter()
	open := p.expectOp("(")
	var q *ast.Select
	var te ast.TableExpr
	switch t := p.peek(); {
	case startsQuery(t):
		q = p.parseSelectStmt()
	case t.isOp("("):
		iq, ite := p.parseParenFrom()
		switch {
		case iq != nil && p.continuesQuery():
			q = p.continueSelect(iq, open.pos)
		case iq != nil && p.peek().isOp(")"):
			q = iq
		case iq != nil:
			sub := &ast.SubqueryTable{Query: iq, Alias: p.parseOptAlias(""), Pos: t.pos}
			te = p.parseJoinRest(sub, false)
		default:
			if j, ok := ite.(*ast.Join); ok {
				j.Alias = p.parseOptAlias("")
			}
			te = p.parseJoinRest(ite, false)
		}
	default:
		te = p.parseJoinRest(p.parseTablePrimary(), false)
	}
	if te != nil {
		if _, ok := te.(*ast.Join); !ok {
			// PostgreSQL allows parentheses around a join only.
			p.fail()
		}
	}
	p.expectOp(")")
	p.leave()
	return q, te
}
