package parse

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// This file reads the statements about roles and privileges:
//
//	CREATE ROLE | USER | GROUP name [ [WITH] option ... ]
//	ALTER ROLE | USER name [ [WITH] option ... ]
//	DROP ROLE | USER | GROUP [IF EXISTS] name [, ...]
//	GRANT privilege [, ...] ON { [TABLE] t [, ...] | ALL TABLES IN SCHEMA s [, ...] } TO grantee [, ...]
//	REVOKE privilege [, ...] ON ... FROM grantee [, ...] [CASCADE | RESTRICT]
//
// Which options and privileges cdcdb builds is the sql package's business;
// the parser reads PostgreSQL's whole option grammar so that an option not
// built is refused by name (0A000) rather than as a syntax error.

// isRoleWord reports whether t starts the object of CREATE/ALTER/DROP ROLE.
func isRoleWord(t *token) bool { return t.is("role") || t.is("user") || t.is("group") }

// parseCreateRole parses CREATE ROLE | USER | GROUP; start is CREATE.
func (p *parser) parseCreateRole(start *token) ast.Statement {
	w := p.advance()
	if w.is("user") && p.peek().is("mapping") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, start.pos, "CREATE USER MAPPING is not supported"))
	}
	cr := &ast.CreateRole{Pos: start.pos, User: w.is("user")}
	cr.Name = p.roleName()
	cr.Options = p.parseRoleOptions()
	return cr
}

// parseAlterRole parses ALTER ROLE | USER name [WITH] options; start is ALTER.
func (p *parser) parseAlterRole(start *token) ast.Statement {
	p.advance()
	ar := &ast.AlterRole{Pos: start.pos}
	ar.Name = p.roleName()
	if t := p.peek(); t.is("rename") || t.is("set") || t.is("reset") || t.is("in") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "ALTER ROLE ... %s is not supported", strings.ToUpper(t.str)))
	}
	ar.Options = p.parseRoleOptions()
	if len(ar.Options) == 0 {
		p.fail()
	}
	return ar
}

// parseDropRole parses DROP ROLE | USER | GROUP; start is DROP.
func (p *parser) parseDropRole(start *token) ast.Statement {
	p.advance()
	dr := &ast.DropRole{Pos: start.pos}
	dr.IfExists = p.parseIfExists()
	for {
		dr.Names = append(dr.Names, p.roleName())
		if !p.acceptOp(",") {
			return dr
		}
	}
}

// roleName reads a RoleSpec that names a role (CURRENT_USER and friends
// are not role names here).
func (p *parser) roleName() string {
	t := p.peek()
	if t.kind == tkQIdent || t.kind == tkIdent && t.kw != reservedKeyword {
		p.advance()
		return t.str
	}
	if t.is("current_user") || t.is("session_user") || t.is("current_role") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "%s as a role name is not supported here", strings.ToUpper(t.str)))
	}
	p.fail()
	return ""
}

// roleOptionWords are the option keywords of CREATE/ALTER ROLE that stand
// alone.
var roleOptionWords = map[string]bool{
	"superuser": true, "nosuperuser": true, "createdb": true, "nocreatedb": true,
	"createrole": true, "nocreaterole": true, "inherit": true, "noinherit": true,
	"login": true, "nologin": true, "replication": true, "noreplication": true,
	"bypassrls": true, "nobypassrls": true,
}

// parseRoleOptions reads [WITH] option ... up to the end of the statement.
func (p *parser) parseRoleOptions() []ast.RoleOption {
	p.acceptWord("with")
	var opts []ast.RoleOption
	for {
		t := p.peek()
		if t.kind != tkIdent {
			return opts
		}
		o := ast.RoleOption{Name: strings.ToUpper(t.str), Pos: t.pos}
		switch {
		case roleOptionWords[t.str]:
			p.advance()
		case t.is("encrypted") || t.is("unencrypted") || t.is("password"):
			if !t.is("password") {
				if t.is("unencrypted") {
					p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "UNENCRYPTED PASSWORD is no longer supported"))
				}
				p.advance()
			}
			p.expectWord("password")
			o.Name = "PASSWORD"
			switch v := p.peek(); {
			case v.kind == tkString:
				o.Value = v.str
				p.advance()
			case v.is("null"):
				o.Null = true
				p.advance()
			default:
				p.fail()
			}
		case t.is("connection") && p.peekN(1).is("limit"):
			p.advance()
			p.advance()
			o.Name = "CONNECTION LIMIT"
			p.acceptOp("-")
			if p.peek().kind != tkInteger {
				p.fail()
			}
			p.advance()
		case t.is("valid") && p.peekN(1).is("until"):
			p.advance()
			p.advance()
			o.Name = "VALID UNTIL"
			if p.peek().kind != tkString {
				p.fail()
			}
			p.advance()
		case t.is("in") || t.is("role") || t.is("admin") || t.is("user") || t.is("sysid"):
			// Memberships: read the list so the refusal names the option.
			if t.is("in") {
				p.advance()
				p.expectWord("role")
				o.Name = "IN ROLE"
			} else {
				p.advance()
			}
			if o.Name == "SYSID" {
				if p.peek().kind != tkInteger {
					p.fail()
				}
				p.advance()
			} else {
				for {
					p.roleName()
					if !p.acceptOp(",") {
						break
					}
				}
			}
		default:
			p.fail()
		}
		opts = append(opts, o)
	}
}

// privilegeWords are the privileges GRANT and REVOKE name.
var privilegeWords = map[string]bool{
	"select": true, "insert": true, "update": true, "delete": true, "truncate": true,
	"references": true, "trigger": true, "usage": true, "create": true, "connect": true,
	"temporary": true, "temp": true, "execute": true,
}

// parseGrant parses GRANT and REVOKE of privileges on tables.
func (p *parser) parseGrant() ast.Statement {
	start := p.advance()
	g := &ast.GrantPrivileges{Pos: start.pos, Revoke: start.is("revoke")}
	if g.Revoke && p.peek().is("grant") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, p.peek().pos, "REVOKE GRANT OPTION FOR is not supported"))
	}
	if g.Revoke && p.peek().is("admin") && p.peekN(1).is("option") {
		return p.parseGrantRoles(start, true)
	}
	if p.acceptWord("all") {
		p.acceptWord("privileges")
		g.Privileges = []string{"ALL"}
	} else {
		for {
			t := p.peek()
			if t.kind != tkIdent && t.kind != tkQIdent {
				p.fail()
			}
			if !privilegeWords[t.str] {
				// GRANT role TO role: a membership, not a privilege.
				if len(g.Privileges) == 0 && (p.peekN(1).is("to") || p.peekN(1).is("from") || p.peekN(1).isOp(",")) {
					return p.parseGrantRoles(start, false)
				}
				p.fail()
			}
			p.advance()
			g.Privileges = append(g.Privileges, strings.ToUpper(t.str))
			if p.peek().isOp("(") {
				p.bail(p.errorAtPos(pgerror.FeatureNotSupported, p.peek().pos, "column privileges are not supported"))
			}
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if !p.peek().is("on") && (p.peek().is("to") || p.peek().is("from")) {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, start.pos, "%s of role membership is not supported", strings.ToUpper(start.str)))
	}
	p.expectWord("on")
	switch t := p.peek(); {
	case t.is("all") && p.peekN(1).is("tables"):
		p.advance()
		p.advance()
		p.expectWords("in", "schema")
		g.Schemas = p.nameList()
	case t.is("table"):
		p.advance()
		g.Tables = p.qualifiedNameList()
	case t.is("schema"):
		p.advance()
		g.OnSchemas = p.nameList()
	case t.is("sequence") || t.is("database") || t.is("function") || t.is("procedure") ||
		t.is("routine") || t.is("all") || t.is("domain") || t.is("foreign") || t.is("language") ||
		t.is("large") || t.is("tablespace") || t.is("type") || t.is("parameter"):
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "%s ON %s is not supported", strings.ToUpper(start.str), strings.ToUpper(t.str)))
	default:
		g.Tables = p.qualifiedNameList()
	}
	if g.Revoke {
		p.expectWord("from")
	} else {
		p.expectWord("to")
	}
	for {
		t := p.peek()
		if t.is("public") {
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
	} else if t.is("granted") {
		p.bail(p.errorAtPos(pgerror.FeatureNotSupported, t.pos, "GRANTED BY is not supported"))
	}
	if g.Revoke && !p.acceptWord("restrict") && p.peek().is("cascade") {
		p.advance()
	}
	return g
}

// qualifiedNameList is name [, name ...] of possibly qualified names.
func (p *parser) qualifiedNameList() []ast.QualifiedName {
	var out []ast.QualifiedName
	for {
		out = append(out, p.qualifiedName())
		if !p.acceptOp(",") {
			return out
		}
	}
}
