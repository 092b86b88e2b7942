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

// parseAlterDefaultPrivileges parses the rest of ALTER DEFAULT PRIVILEGES
// [FOR ROLE | USER r [, ...]] [IN SCHEMA s [, ...]] and one abbreviated
// GRANT or REVOKE ... ON TABLES; other object types are refused.
func (p *parser) parseAlterDefaultPrivileges(start *token) ast.Statement {
	p.expectWords("default", "privileges")
	d := &ast.AlterDefaultPrivileges{Pos: start.pos}
	for {
		switch {
		case p.peek().is("for"):
			p.advance()
			if !p.acceptWord("role") {
				p.expectWord("user")
			}
			for {
				d.ForRoles = append(d.ForRoles, p.roleName())
				if !p.acceptOp(",") {
					break
				}
			}
			continue
		case p.peek().is("in"):
			p.advance()
			p.expectWord("schema")
			d.InSchemas = append(d.InSchemas, p.nameList()...)
			continue
		}
		break
	}
	verb := p.peek()
	if !verb.is("grant") && !verb.is("revoke") {
		p.fail()
	}
	p.advance()
	g := &ast.GrantPrivileges{Pos: verb.pos, Revoke: verb.is("revoke")}
	if g.Revoke && p.peek().is("grant") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, p.peek().pos, "REVOKE GRANT OPTION FOR is not supported"))
	}
	if p.acceptWord("all") {
		p.acceptWord("privileges")
		g.Privileges = []string{"ALL"}
	} else {
		for {
			t := p.peek()
			if t.kind != tkIdent && t.kind != tkQIdent || !privilegeWords[t.str] {
				p.fail()
			}
			p.advance()
			g.Privileges = append(g.Privileges, strings.ToUpper(t.str))
			if !p.acceptOp(",") {
				break
			}
		}
	}
	p.expectWord("on")
	if t := p.peek(); !t.is("tables") {
		if t.is("sequences") || t.is("functions") || t.is("routines") || t.is("types") || t.is("schemas") {
			p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "ALTER DEFAULT PRIVILEGES ... ON %s is not supported", strings.ToUpper(t.str)))
		}
		p.fail()
	}
	p.advance()
	if g.Revoke {
		p.expectWord("from")
	} else {
		p.expectWord("to")
	}
	for {
		if p.peek().is("public") {
			p.advance()
			g.Grantees = append(g.Grantees, "")
		} else {
			p.acceptWord("group")
			g.Grantees = append(g.Grantees, p.roleName())
		}
		if !p.acceptOp(",") {
			break
		}
	}
	if t := p.peek(); t.is("with") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "WITH GRANT OPTION is not supported"))
	}
	if g.Revoke && !p.acceptWord("restrict") && p.peek().is("cascade") {
		p.advance()
	}
	d.Grant = g
	return d
}
