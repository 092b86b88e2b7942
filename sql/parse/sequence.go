package parse

import (
	"strconv"
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// CREATE SEQUENCE, ALTER SEQUENCE, ALTER ... OWNER TO and ALTER COLUMN ...
// ADD GENERATED AS IDENTITY: what a pg_dump script writes for sequences,
// identity columns and owners.

// parseCreateSequence parses the rest of CREATE [TEMP] SEQUENCE.
func (p *parser) parseCreateSequence(start *token, temp bool) ast.Statement {
	p.expectWord("sequence")
	cs := &ast.CreateSequence{Temporary: temp, Pos: start.pos}
	cs.IfNotExists = p.parseIfNotExists()
	cs.Name = p.qualifiedName()
	cs.Options = p.parseSequenceOptions(false, false)
	return cs
}

// parseAlterSequence parses the rest of ALTER SEQUENCE: options, or
// OWNER TO. RENAME, SET SCHEMA and SET LOGGED are refused.
func (p *parser) parseAlterSequence(start *token) ast.Statement {
	p.expectWord("sequence")
	as := &ast.AlterSequence{Pos: start.pos}
	as.IfExists = p.parseIfExists()
	as.Name = p.qualifiedName()
	if p.peek().is("owner") {
		as.Owner = p.parseOwnerTo().(*ast.OwnerTo) // rolemembership.go
		return as
	}
	if t := p.peek(); t.is("rename") || t.is("set") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "ALTER SEQUENCE ... %s is not supported", strings.ToUpper(t.str)))
	}
	as.Options = p.parseSequenceOptions(true, false)
	if len(as.Options) == 0 {
		p.fail()
	}
	return as
}

// parseAlterOwnerOnly parses ALTER VIEW name OWNER TO role and ALTER SCHEMA
// name OWNER TO role, the forms of those statements cdcdb has.
func (p *parser) parseAlterOwnerOnly(start *token) ast.Statement {
	kind := p.advance()
	if kind.is("schema") {
		nt := p.peek()
		name := p.colID()
		return &ast.AlterSchemaOwner{Name: name, Owner: p.parseOwnerTo().(*ast.OwnerTo), Pos: nt.pos}
	}
	at := &ast.AlterTable{Pos: start.pos}
	at.IfExists = p.parseIfExists()
	at.Name = p.qualifiedName()
	at.Actions = []ast.AlterAction{p.parseOwnerTo()}
	return at
}

// alterOwnerAhead reports whether ALTER VIEW | SCHEMA (the next token) is
// its OWNER TO form: name [. name] OWNER TO (ALTER VIEW IF EXISTS too).
func (p *parser) alterOwnerAhead() bool {
	for i := 1; i <= 6; i++ {
		if t := p.peekN(i); t.is("owner") {
			return p.peekN(i + 1).is("to")
		} else if t.kind == tkEOF || t.isOp(";") {
			return false
		}
	}
	return false
}

// parseAddIdentity parses, after ALTER [COLUMN] c ADD, GENERATED { ALWAYS |
// BY DEFAULT } AS IDENTITY [( options )].
func (p *parser) parseAddIdentity(column string, pos int) ast.AlterAction {
	p.expectWord("generated")
	ai := &ast.AddIdentity{Column: column, Pos: pos}
	if p.acceptWord("always") {
		ai.Always = true
	} else {
		p.expectWord("by")
		p.expectWord("default")
	}
	p.expectWord("as")
	p.expectWord("identity")
	if p.acceptOp("(") {
		ai.Options = p.parseSequenceOptions(false, true)
		p.expectOp(")")
	}
	return ai
}

// parseSequenceOptions parses SeqOptList: the options of CREATE SEQUENCE,
// ALTER SEQUENCE (alter: RESTART too) and an identity column's (identity:
// SEQUENCE NAME too). A repeated option is 42601 as in PostgreSQL.
func (p *parser) parseSequenceOptions(alter, identity bool) []ast.SequenceOption {
	var opts []ast.SequenceOption
	seen := map[ast.SequenceOptionKind]bool{}
	for {
		t := p.peek()
		o := ast.SequenceOption{Pos: t.pos}
		switch {
		case p.acceptWord("as"):
			o.Kind = ast.SeqAs
			tn := p.parseTypeName(false)
			o.Type = &tn
		case p.acceptWord("increment"):
			o.Kind = ast.SeqIncrement
			p.acceptWord("by")
			o.Value, o.HasValue = p.signedInt64(), true
		case p.acceptWord("minvalue"):
			o.Kind = ast.SeqMinValue
			o.Value, o.HasValue = p.signedInt64(), true
		case p.acceptWord("maxvalue"):
			o.Kind = ast.SeqMaxValue
			o.Value, o.HasValue = p.signedInt64(), true
		case p.acceptWord("start"):
			o.Kind = ast.SeqStart
			p.acceptWord("with")
			o.Value, o.HasValue = p.signedInt64(), true
		case alter && p.acceptWord("restart"):
			o.Kind = ast.SeqRestart
			if p.acceptWord("with") || p.peek().kind == tkInteger || p.peek().isOp("-") {
				o.Value, o.HasValue = p.signedInt64(), true
			}
		case p.acceptWord("cache"):
			o.Kind = ast.SeqCache
			o.Value, o.HasValue = p.signedInt64(), true
		case p.acceptWord("cycle"):
			o.Kind, o.Cycle = ast.SeqCycle, true
		case t.is("no"):
			p.advance()
			switch {
			case p.acceptWord("minvalue"):
				o.Kind = ast.SeqMinValue
			case p.acceptWord("maxvalue"):
				o.Kind = ast.SeqMaxValue
			case p.acceptWord("cycle"):
				o.Kind = ast.SeqCycle
			default:
				p.fail()
			}
		case p.acceptWord("owned"):
			p.expectWord("by")
			o.Kind = ast.SeqOwnedBy
			if !p.acceptWord("none") {
				q := p.qualifiedName()
				o.OwnedBy = &q
			}
		case identity && t.is("sequence"):
			p.advance()
			p.expectWord("name")
			o.Kind = ast.SeqName
			q := p.qualifiedName()
			o.Name = &q
		case t.is("logged"), t.is("unlogged"), t.is("restart"):
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "sequence option %s is not supported here", strings.ToUpper(t.str)))
		default:
			return opts
		}
		if seen[o.Kind] {
			p.bail(p.errorAtPos(pgerror.SyntaxError, o.Pos, "conflicting or redundant options"))
		}
		seen[o.Kind] = true
		opts = append(opts, o)
	}
}

// signedInt64 parses an optionally signed integer constant that fits
// int64 (PostgreSQL's NumericOnly, as sequence options take it).
func (p *parser) signedInt64() int64 {
	neg := false
	if p.peek().isOp("-") {
		p.advance()
		neg = true
	} else if p.peek().isOp("+") {
		p.advance()
	}
	t := p.peek()
	if t.kind != tkInteger {
		p.fail()
	}
	p.advance()
	text := t.str
	if neg {
		text = "-" + text
	}
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		p.bail(p.errorAtPos(pgerror.NumericValueOutOfRange, t.pos, "value \"%s\" is out of range for type bigint", text))
	}
	return v
}

// identityAhead reports whether GENERATED (the next token) starts an
// identity column's GENERATED ... AS IDENTITY, not a generated column's
// GENERATED ALWAYS AS (expr) STORED.
func (p *parser) identityAhead() bool {
	n := 1
	switch {
	case p.peekN(1).is("always"):
		n = 2
	case p.peekN(1).is("by") && p.peekN(2).is("default"):
		n = 3
	}
	return p.peekN(n).is("as") && p.peekN(n+1).is("identity")
}
