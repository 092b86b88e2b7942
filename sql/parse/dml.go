package parse

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// parseInsert parses INSERT INTO t [AS a] [(cols)] {VALUES ... | query |
// DEFAULT VALUES} [ON CONFLICT ...] [RETURNING ...].
func (p *parser) parseInsert(with *ast.With) *ast.Insert {
	t := p.expectWord("insert")
	p.expectWord("into")
	ins := &ast.Insert{With: with, Pos: t.pos}
	ins.Table = p.qualifiedName()
	if p.acceptWord("as") {
		ins.Alias = p.colID()
	}
	// '(' starts the column list unless it starts a parenthesized query.
	if p.peek().isOp("(") && !startsQuery(p.peekN(1)) && !p.peekN(1).isOp("(") {
		p.advance()
		ins.ColumnPos = []int{p.peek().pos}
		ins.Columns = []string{p.insertColumn()}
		for p.acceptOp(",") {
			ins.ColumnPos = append(ins.ColumnPos, p.peek().pos)
			ins.Columns = append(ins.Columns, p.insertColumn())
		}
		p.expectOp(")")
	}
	if o := p.peek(); o.is("overriding") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, o.pos, "OVERRIDING ... VALUE is not supported"))
	}
	if p.peek().is("default") && p.peekN(1).is("values") {
		p.advance()
		p.advance()
	} else {
		ins.Source = p.parseSelectStmt()
	}
	if p.peek().is("on") && p.peekN(1).is("conflict") {
		ins.OnConflict = p.parseOnConflict()
	}
	if p.acceptWord("returning") {
		ins.Returning = p.parseTargetList()
	}
	return ins
}

// insertColumn parses a column of an INSERT list or a SET target. PostgreSQL
// also accepts a subscript or field there (col[1], col.f); the tree has no
// place for one, so it is refused.
func (p *parser) insertColumn() string {
	name := p.colID()
	if t := p.peek(); t.isOp("[") || t.isOp(".") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "assignment to a subscript or field of a column is not supported"))
	}
	return name
}

// parseOnConflict parses ON CONFLICT [(cols) | ON CONSTRAINT c] DO NOTHING |
// DO UPDATE SET ... [WHERE ...].
func (p *parser) parseOnConflict() *ast.OnConflict {
	p.expectWord("on")
	p.expectWord("conflict")
	oc := &ast.OnConflict{}
	switch {
	case p.acceptOp("("):
		oc.Columns = []string{p.conflictColumn()}
		for p.acceptOp(",") {
			oc.Columns = append(oc.Columns, p.conflictColumn())
		}
		p.expectOp(")")
		if w := p.peek(); w.is("where") {
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, w.pos, "ON CONFLICT with an index predicate is not supported"))
		}
	case p.peek().is("on"):
		p.advance()
		p.expectWord("constraint")
		oc.Constraint = p.colID()
	}
	p.expectWord("do")
	if p.acceptWord("nothing") {
		oc.DoNothing = true
		return oc
	}
	p.expectWord("update")
	p.expectWord("set")
	oc.Set = p.parseSetClauses()
	if p.acceptWord("where") {
		oc.Where = p.parseExpr()
	}
	return oc
}

// conflictColumn is one entry of the ON CONFLICT target list: a column,
// optionally with a collation or operator class that cdcdb's unique
// indexes do not have.
func (p *parser) conflictColumn() string {
	name := p.colID()
	if t := p.peek(); !t.isOp(",") && !t.isOp(")") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "ON CONFLICT targets other than plain columns are not supported"))
	}
	return name
}

// parseSetClauses parses col = expr [, ...], expanding (a, b) = (x, y) and
// (a, b) = ROW(x, y) into one clause per column.
func (p *parser) parseSetClauses() []ast.SetClause {
	var out []ast.SetClause
	for {
		t := p.peek()
		if t.isOp("(") {
			p.advance()
			cols := []string{p.insertColumn()}
			for p.acceptOp(",") {
				cols = append(cols, p.insertColumn())
			}
			p.expectOp(")")
			p.expectOp("=")
			v := p.parseExpr()
			var vals []ast.Expr
			switch x := v.(type) {
			case *ast.RowExpr:
				vals = x.Elems
			case *ast.Subquery:
				p.bail(p.errorAtPos(pgerror.FeatureNotSupported, x.Pos, "UPDATE ... SET (columns) = (SELECT ...) is not supported"))
			default:
				p.bail(p.errorAtPos(pgerror.FeatureNotSupported, v.Position(), "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression"))
			}
			if len(vals) != len(cols) {
				p.bail(p.errorAtPos(pgerror.SyntaxError, v.Position(), "number of columns does not match number of values"))
			}
			for i, c := range cols {
				out = append(out, ast.SetClause{Column: c, Value: vals[i], Pos: t.pos})
			}
		} else {
			col := p.insertColumn()
			p.expectOp("=")
			out = append(out, ast.SetClause{Column: col, Value: p.parseExpr(), Pos: t.pos})
		}
		if !p.acceptOp(",") {
			return out
		}
	}
}

// parseDMLTarget parses the table of UPDATE or DELETE: [ONLY] name [*]
// [[AS] alias]. Without AS, SET cannot be the alias (PostgreSQL resolves
// UPDATE t SET ... the same way).
func (p *parser) parseDMLTarget(notWord string) (ast.QualifiedName, string) {
	ref := p.parseRelationExpr()
	alias := ""
	if p.acceptWord("as") {
		alias = p.colID()
	} else if t := p.peek(); isColID(t) && !t.is(notWord) {
		alias = p.advance().str
	}
	return ref.Name, alias
}

// parseUpdate parses UPDATE t [alias] SET ... [FROM ...] [WHERE ...] [RETURNING ...].
func (p *parser) parseUpdate(with *ast.With) *ast.Update {
	t := p.expectWord("update")
	up := &ast.Update{With: with, Pos: t.pos}
	up.Table, up.Alias = p.parseDMLTarget("set")
	p.expectWord("set")
	up.Set = p.parseSetClauses()
	if p.acceptWord("from") {
		up.From = p.parseFromList()
	}
	up.Where = p.parseWhereNotCurrentOf()
	if p.acceptWord("returning") {
		up.Returning = p.parseTargetList()
	}
	return up
}

// parseWhereNotCurrentOf parses an optional WHERE; cdcdb has no cursors,
// so WHERE CURRENT OF is refused.
func (p *parser) parseWhereNotCurrentOf() ast.Expr {
	if !p.acceptWord("where") {
		return nil
	}
	if t := p.peek(); t.is("current") && p.peekN(1).is("of") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "WHERE CURRENT OF is not supported"))
	}
	return p.parseExpr()
}

// parseDelete parses DELETE FROM t [alias] [USING ...] [WHERE ...] [RETURNING ...].
func (p *parser) parseDelete(with *ast.With) *ast.Delete {
	t := p.expectWord("delete")
	p.expectWord("from")
	del := &ast.Delete{With: with, Pos: t.pos}
	del.Table, del.Alias = p.parseDMLTarget("")
	if p.acceptWord("using") {
		del.Using = p.parseFromList()
	}
	del.Where = p.parseWhereNotCurrentOf()
	if p.acceptWord("returning") {
		del.Returning = p.parseTargetList()
	}
	return del
}

// parseTruncate parses TRUNCATE [TABLE] [ONLY] t [*] [, ...] [RESTART |
// CONTINUE IDENTITY] [CASCADE | RESTRICT].
func (p *parser) parseTruncate() *ast.Truncate {
	t := p.expectWord("truncate")
	tr := &ast.Truncate{Pos: t.pos}
	p.acceptWord("table")
	for {
		tr.Tables = append(tr.Tables, p.parseRelationExpr().Name)
		if !p.acceptOp(",") {
			break
		}
	}
	switch {
	case p.acceptWord("restart"):
		p.expectWord("identity")
		tr.RestartIdentity = true
	case p.acceptWord("continue"):
		p.expectWord("identity")
	}
	tr.Cascade = p.parseDropBehavior()
	return tr
}

// parseDropBehavior parses an optional CASCADE | RESTRICT.
func (p *parser) parseDropBehavior() bool {
	if p.acceptWord("cascade") {
		return true
	}
	p.acceptWord("restrict")
	return false
}

// ---------------------------------------------------------------- COPY

// parseCopy parses COPY t [(cols)] FROM STDIN | TO STDOUT [options], and
// COPY (query) TO STDOUT [options]. Options come in the current form,
// WITH (FORMAT csv, HEADER, ...), and in the old one, WITH CSV HEADER
// DELIMITER ','; both end up in Options under their current names.
func (p *parser) parseCopy() *ast.Copy {
	t := p.expectWord("copy")
	c := &ast.Copy{Pos: t.pos, Options: map[string]string{}}
	if p.acceptWord("binary") {
		c.Options["format"] = "binary"
	}
	if p.peek().isOp("(") {
		p.advance()
		q := p.peek()
		switch {
		case q.is("insert"), q.is("update"), q.is("delete"):
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, q.pos, "COPY of INSERT, UPDATE or DELETE ... RETURNING is not supported"))
		}
		c.Query = p.parseSelectStmt()
		p.expectOp(")")
		p.expectWord("to")
	} else {
		name := p.qualifiedName()
		c.Table = &name
		if p.peek().isOp("(") {
			c.Columns = p.parenNameList()
		}
		switch {
		case p.acceptWord("from"):
			c.From = true
		default:
			p.expectWord("to")
		}
	}
	f := p.peek()
	switch {
	case f.is("stdin"), f.is("stdout"):
		p.advance()
	case f.kind == tkString, f.is("program"):
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, f.pos, "COPY to or from a file or program is not supported").
			WithHint(`Use COPY ... FROM STDIN or COPY ... TO STDOUT (psql's \copy does).`))
	default:
		p.fail()
	}
	if p.peek().is("using") || p.peek().is("delimiters") {
		p.acceptWord("using")
		p.expectWord("delimiters")
		p.setCopyOption(c, p.toks[p.i-1].pos, "delimiter", p.stringConst())
	}
	p.acceptWord("with")
	if p.peek().isOp("(") {
		p.parseCopyGenericOptions(c)
	} else {
		p.parseCopyLegacyOptions(c)
	}
	if w := p.peek(); w.is("where") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, w.pos, "COPY ... WHERE is not supported"))
	}
	return c
}

// setCopyOption records an option once; PostgreSQL refuses a repeat.
func (p *parser) setCopyOption(c *ast.Copy, pos int, name, value string) {
	if _, dup := c.Options[name]; dup {
		p.bail(p.errorAtPos(pgerror.SyntaxError, pos, "conflicting or redundant options"))
	}
	c.Options[name] = value
}

// parseCopyGenericOptions parses ( name [value] [, ...] ).
func (p *parser) parseCopyGenericOptions(c *ast.Copy) {
	p.expectOp("(")
	for {
		nt := p.peek()
		name := p.colLabel()
		value := "true"
		switch v := p.peek(); {
		case v.isOp(",") || v.isOp(")"):
		case v.isOp("*"):
			p.advance()
			value = "*"
		case v.isOp("("):
			p.advance()
			var items []string
			for {
				items = append(items, p.optionValue())
				if !p.acceptOp(",") {
					break
				}
			}
			p.expectOp(")")
			value = strings.Join(items, ",")
		default:
			value = p.optionValue()
		}
		p.setCopyOption(c, nt.pos, name, value)
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
}

// optionValue parses opt_boolean_or_string or NumericOnly and returns its
// text: a word as lexed (lower-cased unless quoted), a string's value, a
// number with its sign.
func (p *parser) optionValue() string {
	t := p.peek()
	switch {
	case t.kind == tkString:
		p.advance()
		return t.str
	case t.isOp("+") || t.isOp("-"):
		p.advance()
		n := p.peek()
		if n.kind != tkInteger && n.kind != tkNumeric {
			p.fail()
		}
		p.advance()
		if t.str == "-" {
			return "-" + n.str
		}
		return n.str
	case t.kind == tkInteger || t.kind == tkNumeric:
		p.advance()
		return t.str
	case t.is("true"), t.is("false"), t.is("on"), isNonReservedWord(t):
		p.advance()
		return t.str
	}
	p.fail()
	return ""
}

// parseCopyLegacyOptions parses the pre-9.0 option list.
func (p *parser) parseCopyLegacyOptions(c *ast.Copy) {
	for {
		t := p.peek()
		switch {
		case t.is("binary"):
			p.advance()
			p.setCopyOption(c, t.pos, "format", "binary")
		case t.is("csv"):
			p.advance()
			p.setCopyOption(c, t.pos, "format", "csv")
		case t.is("header"):
			p.advance()
			p.setCopyOption(c, t.pos, "header", "true")
		case t.is("freeze"):
			p.advance()
			p.setCopyOption(c, t.pos, "freeze", "true")
		case t.is("delimiter"), t.is("null"), t.is("quote"), t.is("escape"), t.is("encoding"):
			p.advance()
			if t.str != "encoding" {
				p.acceptWord("as")
			}
			p.setCopyOption(c, t.pos, t.str, p.stringConst())
		case t.is("force"):
			p.advance()
			name := ""
			switch {
			case p.acceptWord("quote"):
				name = "force_quote"
			case p.acceptWord("not"):
				p.expectWord("null")
				name = "force_not_null"
			case p.acceptWord("null"):
				name = "force_null"
			default:
				p.fail()
			}
			if name == "force_quote" && p.acceptOp("*") {
				p.setCopyOption(c, t.pos, name, "*")
				continue
			}
			p.setCopyOption(c, t.pos, name, strings.Join(p.nameList(), ","))
		default:
			return
		}
	}
}
