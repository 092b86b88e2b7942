package parse

import "cdcdb/sql/ast"

// parseSetConstraints parses what follows SET: CONSTRAINTS { ALL | name
// [, ...] } { DEFERRED | IMMEDIATE }.
func (p *parser) parseSetConstraints(pos int) ast.Statement {
	p.expectWord("constraints")
	s := &ast.SetConstraints{Pos: pos}
	if p.acceptWord("all") {
		s.All = true
	} else {
		for {
			s.Names = append(s.Names, p.qualifiedName())
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if !p.acceptWord("deferred") {
		p.expectWord("immediate")
		return s
	}
	s.Deferred = true
	return s
}
