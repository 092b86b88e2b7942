package parse

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// This file reads the statements that follow external systems (spec §8),
// in Materialize's spelling:
//
//	CREATE CONNECTION name TO POSTGRES ( option value [, ...] )
//	CREATE SOURCE name FROM POSTGRES CONNECTION conn ( option value [, ...] )
//	    FOR TABLES ( schema.table [AS name] [, ...] )
//	DROP SOURCE | CONNECTION [IF EXISTS] name [, ...]
//
// An option is one or more words (SSL MODE) followed by a string or integer
// constant. Which options exist, and what their values may be, is the sql
// package's business, so that an unknown one is refused by name.

// parseCreateConnection parses CREATE CONNECTION.
func (p *parser) parseCreateConnection(start *token) ast.Statement {
	p.expectWord("connection")
	cc := &ast.CreateConnection{Pos: start.pos}
	cc.Name = p.colID()
	p.expectWord("to")
	cc.Kind = p.systemKind()
	cc.Options = p.parseSourceOptions()
	return cc
}

// parseCreateSource parses CREATE SOURCE.
func (p *parser) parseCreateSource(start *token) ast.Statement {
	p.expectWord("source")
	cs := &ast.CreateSource{Pos: start.pos}
	cs.Name = p.colID()
	p.expectWord("from")
	cs.Kind = p.systemKind()
	p.expectWord("connection")
	cs.Connection = p.colID()
	if p.peek().isOp("(") {
		cs.Options = p.parseSourceOptions()
	}
	p.expectWords("for", "tables")
	p.expectOp("(")
	for {
		t := ast.SourceTable{Upstream: p.qualifiedName()}
		if len(t.Upstream.Parts) > 2 {
			p.bail(p.errorAtPos(pgerror.SyntaxError, t.Upstream.Pos, "an upstream table is named schema.table, not %s", strings.Join(t.Upstream.Parts, ".")))
		}
		if p.acceptWord("as") {
			t.As = p.colID()
		}
		cs.Tables = append(cs.Tables, t)
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return cs
}

// systemKind reads the name of the external system: POSTGRES is the only
// one for now, and any other word is a syntax error at it.
func (p *parser) systemKind() string {
	t := p.peek()
	if !t.is("postgres") {
		p.fail()
	}
	p.advance()
	return "postgres"
}

// parseSourceOptions parses ( word [word ...] value [, ...] ).
func (p *parser) parseSourceOptions() []ast.SourceOption {
	p.expectOp("(")
	var opts []ast.SourceOption
	for {
		first := p.peek()
		var words []string
		for {
			t := p.peek()
			if t.kind == tkString || t.kind == tkInteger {
				break
			}
			if t.kind != tkIdent && t.kind != tkQIdent {
				p.fail()
			}
			words = append(words, strings.ToUpper(t.str))
			p.advance()
		}
		if len(words) == 0 {
			p.fail()
		}
		v := p.advance()
		opts = append(opts, ast.SourceOption{Name: strings.Join(words, " "), Value: v.str, IsNumber: v.kind == tkInteger,
			Pos: first.pos, ValuePos: v.pos})
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return opts
}
