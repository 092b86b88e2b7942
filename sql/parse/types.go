package parse

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// Type names. The SQL-standard spellings are keywords with grammar of their
// own (DOUBLE PRECISION, CHARACTER VARYING(n), TIMESTAMP(3) WITH TIME ZONE,
// INTERVAL DAY TO SECOND); they are canonicalised to PostgreSQL's internal
// names, as its SystemTypeName does, so the planner sees int4, float8,
// varchar, bpchar, timestamptz... Any other name (int4, text, uuid, jsonb,
// serial, a user's type) is kept as written.

// constTypeAhead reports whether the keyword at the cursor starts a
// constant of a keyword type (INTEGER '1', TIMESTAMP(3) '...', DOUBLE
// PRECISION '1.5') rather than a column that happens to be named like one
// (PostgreSQL accepts "select time from t").
func (p *parser) constTypeAhead() bool {
	t := p.peek()
	n := p.peekN(1)
	switch t.str {
	case "double":
		return n.is("precision")
	case "national":
		return n.is("character") || n.is("char")
	case "int", "integer", "smallint", "bigint", "real", "boolean", "dec", "decimal", "numeric", "float",
		"varchar", "interval":
		return n.kind == tkString || n.isOp("(")
	case "bit", "char", "character", "nchar":
		return n.kind == tkString || n.isOp("(") || n.is("varying")
	case "time", "timestamp":
		return n.kind == tkString || n.isOp("(") || n.is("with") || n.is("without")
	}
	return false
}

// parseTypedLiteral parses a constant of a keyword type: type 'string'.
// PostgreSQL's ConstTypename gives CHAR and BIT no default length here, so
// char 'abc' is not cut to one character.
func (p *parser) parseTypedLiteral() ast.Expr {
	start := p.peek()
	if start.is("interval") {
		p.advance()
		tn := ast.TypeName{Name: "interval", Pos: start.pos}
		withPrecision := false
		if p.acceptOp("(") {
			n, _ := p.intConst()
			tn.Args = []int{n}
			p.expectOp(")")
			withPrecision = true
		}
		lit := p.peek()
		if lit.kind != tkString {
			p.fail()
		}
		p.advance()
		if !withPrecision {
			fields, args := p.parseIntervalFields()
			tn.IntervalFields = fields
			tn.Args = args
		}
		return &ast.Cast{
			X:              &ast.Literal{Kind: ast.LitString, Value: lit.str, Pos: lit.pos},
			Type:           tn,
			Syntax:         "literal",
			IntervalFields: tn.IntervalFields,
			Pos:            start.pos,
			OpPos:          start.pos,
		}
	}
	tn := p.parseSimpleTypeName(true)
	lit := p.peek()
	if lit.kind != tkString {
		p.fail()
	}
	p.advance()
	return &ast.Cast{
		X:      &ast.Literal{Kind: ast.LitString, Value: lit.str, Pos: lit.pos},
		Type:   tn,
		Syntax: "literal",
		Pos:    start.pos,
		OpPos:  start.pos,
	}
}

// parseTypeName parses PostgreSQL's Typename: a simple type name and array
// bounds (int[], int[3][3], int ARRAY, int ARRAY[3]). constCtx is unused
// here: a Typename outside a constant always has CHAR meaning char(1).
func (p *parser) parseTypeName(constCtx bool) ast.TypeName {
	if p.peek().is("setof") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, p.peek().pos, "SETOF type names are not supported"))
	}
	tn := p.parseSimpleTypeName(constCtx)
	switch {
	case p.peek().is("array"):
		p.advance()
		tn.ArrayDims = 1
		if p.acceptOp("[") {
			p.intConst()
			p.expectOp("]")
		}
	default:
		for p.peek().isOp("[") {
			p.advance()
			if !p.peek().isOp("]") {
				p.intConst()
			}
			p.expectOp("]")
			tn.ArrayDims++
		}
	}
	return tn
}

// parseSimpleTypeName parses one type name without array bounds.
func (p *parser) parseSimpleTypeName(constCtx bool) ast.TypeName {
	t := p.peek()
	tn := ast.TypeName{Pos: t.pos}
	if t.kind == tkIdent && t.kw != notKeyword {
		switch t.str {
		case "int", "integer":
			p.advance()
			tn.Name = "int4"
			return tn
		case "smallint":
			p.advance()
			tn.Name = "int2"
			return tn
		case "bigint":
			p.advance()
			tn.Name = "int8"
			return tn
		case "real":
			p.advance()
			tn.Name = "float4"
			return tn
		case "boolean":
			p.advance()
			tn.Name = "bool"
			return tn
		case "double":
			if p.peekN(1).is("precision") {
				p.advance()
				p.advance()
				tn.Name = "float8"
				return tn
			}
		case "float":
			p.advance()
			tn.Name = "float8"
			if p.acceptOp("(") {
				n, nt := p.intConst()
				switch {
				case n < 1:
					p.bail(p.errorAtPos(pgerror.InvalidParameterValue, nt.pos, "precision for type float must be at least 1 bit"))
				case n <= 24:
					tn.Name = "float4"
				case n <= 53:
				default:
					p.bail(p.errorAtPos(pgerror.InvalidParameterValue, nt.pos, "precision for type float must be less than 54 bits"))
				}
				p.expectOp(")")
			}
			return tn
		case "decimal", "dec", "numeric":
			p.advance()
			tn.Name = "numeric"
			tn.Args = p.parseTypmods()
			return tn
		case "bit":
			p.advance()
			tn.Name = "bit"
			if p.acceptWord("varying") {
				tn.Name = "varbit"
			}
			tn.Args = p.parseTypmods()
			if tn.Args == nil && tn.Name == "bit" && !constCtx {
				tn.Args = []int{1} // BIT means BIT(1), except in a constant
			}
			return tn
		case "character", "char", "nchar", "varchar", "national":
			return p.parseCharacterType(constCtx)
		case "timestamp", "time":
			p.advance()
			tn.Name = t.str
			if p.acceptOp("(") {
				n, _ := p.intConst()
				tn.Args = []int{n}
				p.expectOp(")")
			}
			// WITH TIME commits to WITH TIME ZONE, as PostgreSQL's lookahead
			// token WITH_LA does.
			switch {
			case p.peek().is("with") && p.peekN(1).is("time"):
				p.advance()
				p.advance()
				p.expectWord("zone")
				tn.Name += "tz"
			case p.peek().is("without") && p.peekN(1).is("time"):
				p.advance()
				p.advance()
				p.expectWord("zone")
			}
			return tn
		case "interval":
			p.advance()
			tn.Name = "interval"
			if p.acceptOp("(") {
				n, _ := p.intConst()
				tn.Args = []int{n}
				p.expectOp(")")
				return tn
			}
			tn.IntervalFields, tn.Args = p.parseIntervalFields()
			return tn
		}
	}
	// GenericType: type_function_name [. attr ...] [(typmods)].
	if !isTypeFuncName(t) {
		p.fail()
	}
	p.advance()
	parts := []string{t.str}
	for p.peek().isOp(".") {
		p.advance()
		parts = append(parts, p.colLabel())
	}
	if len(parts) > 3 {
		p.bail(p.errorAtPos(pgerror.SyntaxError, t.pos, "improper %%TYPE reference (too many dotted names): %s", strings.Join(parts, ".")))
	}
	tn.Name = parts[len(parts)-1]
	if len(parts) > 1 {
		tn.Schema = parts[len(parts)-2]
	}
	tn.Args = p.parseTypmods()
	return tn
}

// parseCharacterType parses CHARACTER [VARYING] [(n)], CHAR, VARCHAR,
// NCHAR, NATIONAL CHAR[ACTER].
func (p *parser) parseCharacterType(constCtx bool) ast.TypeName {
	t := p.advance()
	tn := ast.TypeName{Pos: t.pos}
	varying := false
	switch t.str {
	case "varchar":
		varying = true
	case "national":
		if !p.acceptWord("character") {
			p.expectWord("char")
		}
		varying = p.acceptWord("varying")
	default:
		varying = p.acceptWord("varying")
	}
	if varying {
		tn.Name = "varchar"
	} else {
		tn.Name = "bpchar"
	}
	if p.acceptOp("(") {
		n, _ := p.intConst()
		tn.Args = []int{n}
		p.expectOp(")")
	} else if !varying && !constCtx {
		tn.Args = []int{1} // CHAR means CHAR(1), except in a constant
	}
	return tn
}

// parseTypmods parses an optional (n [, m ...]) list of integer modifiers.
func (p *parser) parseTypmods() []int {
	if !p.acceptOp("(") {
		return nil
	}
	var args []int
	for {
		neg := p.acceptOp("-")
		n, _ := p.intConst()
		if neg {
			n = -n
		}
		args = append(args, n)
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return args
}

// parseIntervalFields parses INTERVAL's optional field qualifier (YEAR,
// DAY TO SECOND(3), ...) and returns it upper-case with its precision.
func (p *parser) parseIntervalFields() (string, []int) {
	t := p.peek()
	var first string
	switch {
	case t.is("year"), t.is("month"), t.is("day"), t.is("hour"), t.is("minute"):
		first = strings.ToUpper(t.str)
		p.advance()
	case t.is("second"):
		p.advance()
		return "SECOND", p.secondPrecision()
	default:
		return "", nil
	}
	if !p.peek().is("to") {
		return first, nil
	}
	p.advance()
	n := p.peek()
	allowed := map[string][]string{
		"YEAR":   {"month"},
		"DAY":    {"hour", "minute", "second"},
		"HOUR":   {"minute", "second"},
		"MINUTE": {"second"},
	}[first]
	for _, w := range allowed {
		if n.is(w) {
			p.advance()
			if w == "second" {
				return first + " TO SECOND", p.secondPrecision()
			}
			return first + " TO " + strings.ToUpper(w), nil
		}
	}
	p.fail()
	return "", nil
}

func (p *parser) secondPrecision() []int {
	if !p.acceptOp("(") {
		return nil
	}
	n, _ := p.intConst()
	p.expectOp(")")
	return []int{n}
}
