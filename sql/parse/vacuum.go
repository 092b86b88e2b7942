package parse

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// parseVacuum parses VACUUM [(option [value], ...)] [table [(cols)], ...],
// the older VACUUM [FULL] [FREEZE] [VERBOSE] [ANALYZE] [table ...], and
// ANALYZE [(option ...)] | [VERBOSE] [table [(cols)], ...]. Options keep
// their value as written ("true" when none was given); the executor judges
// them.
func (p *parser) parseVacuum() ast.Statement {
	t := p.advance()
	v := &ast.Vacuum{Verb: "VACUUM", Options: map[string]string{}, OptionPos: map[string]int{}, Pos: t.pos}
	if !t.is("vacuum") {
		v.Verb = "ANALYZE"
	}
	if p.peek().isOp("(") {
		p.advance()
		for {
			nt := p.peek()
			if !(isNonReservedWord(nt) || nt.is("analyze") || nt.is("analyse") || nt.is("full") || nt.is("freeze") || nt.is("verbose")) {
				p.fail()
			}
			p.advance()
			name := strings.ToLower(nt.str)
			if name == "analyse" {
				name = "analyze"
			}
			value := "true"
			if n := p.peek(); !n.isOp(",") && !n.isOp(")") {
				value = p.optionValue()
			}
			if _, dup := v.Options[name]; dup {
				p.bail(p.errorAtPos(pgerror.SyntaxError, nt.pos, "conflicting or redundant options"))
			}
			v.Options[name] = value
			v.OptionPos[name] = nt.pos
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
	} else {
		words := []string{"verbose"}
		if v.Verb == "VACUUM" {
			words = []string{"full", "freeze", "verbose", "analyze"}
		}
		for _, w := range words {
			if p.acceptWord(w) || w == "analyze" && p.acceptWord("analyse") {
				v.Options[w] = "true"
			}
		}
	}
	if n := p.peek(); n.kind == tkEOF || n.isOp(";") {
		return v
	}
	for {
		target := ast.VacuumTarget{Name: p.qualifiedName()}
		if p.peek().isOp("(") {
			target.Columns = p.parenNameList()
		}
		v.Tables = append(v.Tables, target)
		if !p.acceptOp(",") {
			return v
		}
	}
}
