package parse

import (
	"strconv"

	"cdcdb/sql/ast"
)

// Cursors: DECLARE, FETCH, MOVE and CLOSE, as psycopg's server-side cursors
// and psqlODBC's UseDeclareFetch mode send them.

// parseDeclare parses DECLARE name [BINARY] [ASENSITIVE | INSENSITIVE]
// [[NO] SCROLL] CURSOR [{WITH | WITHOUT} HOLD] FOR query.
func (p *parser) parseDeclare() ast.Statement {
	t := p.expectWord("declare")
	d := &ast.DeclareCursor{Pos: t.pos, Name: p.colID()}
	for {
		switch {
		case p.acceptWord("binary"):
			d.Binary = true
		case p.acceptWord("asensitive"), p.acceptWord("insensitive"):
		case p.acceptWord("scroll"):
			d.Scroll = true
		case p.peek().is("no") && p.peekN(1).is("scroll"):
			p.advance()
			p.advance()
		default:
			p.expectWord("cursor")
			if p.acceptWord("with") {
				p.expectWord("hold")
				d.Hold = true
			} else if p.acceptWord("without") {
				p.expectWord("hold")
			}
			p.expectWord("for")
			d.Query = p.parseSelectStmt()
			return d
		}
	}
}

// parseFetch parses FETCH or MOVE [direction] [FROM | IN] name.
func (p *parser) parseFetch() ast.Statement {
	t := p.advance() // FETCH or MOVE
	f := &ast.FetchCursor{Pos: t.pos, Move: t.is("move"), Direction: "FORWARD", Count: 1}
	count := func() int64 {
		neg := p.acceptOp("-")
		if !neg {
			p.acceptOp("+")
		}
		tok := p.peek()
		if tok.kind != tkInteger {
			p.fail()
		}
		p.advance()
		n, err := strconv.ParseInt(tok.str, 10, 64)
		if err != nil {
			p.failAt(tok)
		}
		if neg {
			n = -n
		}
		return n
	}
	isCount := func() bool {
		tok := p.peek()
		return tok.kind == tkInteger || ((tok.isOp("-") || tok.isOp("+")) && p.peekN(1).kind == tkInteger)
	}
	switch {
	case p.acceptWord("next"):
	case p.acceptWord("prior"):
		f.Direction = "BACKWARD"
	case p.acceptWord("first"):
		f.Direction, f.Count = "ABSOLUTE", 1
	case p.acceptWord("last"):
		f.Direction, f.Count = "ABSOLUTE", -1
	case p.acceptWord("absolute"):
		f.Direction, f.Count = "ABSOLUTE", count()
	case p.acceptWord("relative"):
		f.Direction, f.Count = "RELATIVE", count()
	case p.acceptWord("all"):
		f.All = true
	case p.peek().is("forward") || p.peek().is("backward"):
		if p.advance().is("backward") {
			f.Direction = "BACKWARD"
		}
		switch {
		case p.acceptWord("all"):
			f.All = true
		case isCount():
			f.Count = count()
		}
	case isCount():
		f.Count = count()
	}
	if !p.acceptWord("from") {
		p.acceptWord("in")
	}
	f.Name = p.colID()
	return f
}

// parseClose parses CLOSE name | ALL.
func (p *parser) parseClose() ast.Statement {
	t := p.expectWord("close")
	c := &ast.CloseCursor{Pos: t.pos}
	if p.acceptWord("all") {
		return c
	}
	c.Name = p.colID()
	return c
}
