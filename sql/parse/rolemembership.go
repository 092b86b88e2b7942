package parse

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// parseGrantRoles parses the rest of GRANT role [, ...] TO role [, ...]
// [WITH ADMIN OPTION] or REVOKE [ADMIN OPTION FOR] role [, ...] FROM
// role [, ...] [RESTRICT | CASCADE]; start is GRANT or REVOKE, already
// read. adminFor says REVOKE is followed by ADMIN OPTION FOR.
func (p *parser) parseGrantRoles(start *token, adminFor bool) ast.Statement {
	g := &ast.GrantRoles{Pos: start.pos, Revoke: start.is("revoke")}
	if adminFor {
		p.expectWords("admin", "option", "for")
		g.Admin = true
	}
	for {
		g.Roles = append(g.Roles, p.roleName())
		if !p.acceptOp(",") {
			break
		}
	}
	if g.Revoke {
		p.expectWord("from")
	} else {
		p.expectWord("to")
	}
	for {
		p.acceptWord("group")
		g.Grantees = append(g.Grantees, p.roleName())
		if !p.acceptOp(",") {
			break
		}
	}
	if !g.Revoke && p.peek().is("with") {
		p.advance()
		p.expectWords("admin", "option")
		g.Admin = true
	}
	if t := p.peek(); t.is("granted") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "GRANTED BY is not supported"))
	}
	if g.Revoke && !p.acceptWord("restrict") && p.peek().is("cascade") {
		p.advance()
	}
	return g
}

// parseOwnerTo parses OWNER TO role | CURRENT_USER | SESSION_USER |
// CURRENT_ROLE.
func (p *parser) parseOwnerTo() ast.AlterAction {
	p.expectWords("owner", "to")
	if t := p.peek(); t.kind == tkIdent && (t.is("current_user") || t.is("session_user") || t.is("current_role")) {
		p.advance()
		return &ast.OwnerTo{Role: strings.ToUpper(t.str)}
	}
	return &ast.OwnerTo{Role: p.roleName()}
}
