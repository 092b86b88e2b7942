package sql

import (
	"strings"

	"cdcdb/acl"
	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/sql/settings"
	"cdcdb/types"
)

// This file owns role membership, as PostgreSQL 15 has it: GRANT role TO
// role [WITH ADMIN OPTION] and its REVOKE, whose privileges a role holds
// through its memberships (acl.PrivilegeHolders: those of the roles it is
// a member of, following INHERIT), SET ROLE / RESET ROLE (the "role"
// parameter: current_user becomes that role, session_user stays the
// login), and pg_auth_members. Memberships are stored with the member
// role (catalog.Role.MemberOf), so a GRANT is one catalog edit and a new
// catalog generation, which cached plans see.

func init() {
	settings.Define(&settings.Def{Name: "role", Default: "none", Desc: "Sets the current user name."})
}

// currentRoleName is current_user: the role SET ROLE chose, else the
// session's login role (session_user).
func (s *Session) currentRoleName() string {
	if r := s.settings["role"]; r != "" && r != "none" {
		return r
	}
	return s.user
}

// checkSetRole refuses SET ROLE to a role that does not exist or that the
// session's login role is not a member of (a superuser may become any),
// with PostgreSQL 15's messages. NONE is always allowed.
func (pc *planCtx) checkSetRole(value string) error {
	if strings.EqualFold(value, "none") {
		return nil
	}
	target, ok := pc.cat.Role(value)
	if !ok {
		return pgerror.New(pgerror.InvalidParameterValue, "role \"%s\" does not exist", value)
	}
	login, ok := pc.cat.Role(pc.sess.user)
	if ok && (login.Superuser || acl.Memberships(pc.cat, login).Has(target.OID)) {
		return nil
	}
	return pgerror.New(pgerror.InsufficientPrivilege, "permission denied to set role \"%s\"", value)
}

// grantRoles runs GRANT role TO role and REVOKE role FROM role.
func (x *execCtx) grantRoles(st *ast.GrantRoles) error {
	cat := x.tx.catalog()
	me, meOK := x.sess.sessionRole(cat)
	roles := make([]*catalog.Role, 0, len(st.Roles))
	for _, name := range st.Roles {
		r, ok := cat.Role(name)
		if !ok {
			return pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", name)
		}
		roles = append(roles, r)
	}
	members := make([]*catalog.Role, 0, len(st.Grantees))
	for _, name := range st.Grantees {
		m, ok := cat.Role(name)
		if !ok {
			return pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", name)
		}
		members = append(members, m)
	}
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	for _, r := range roles {
		// PostgreSQL's AddRoleMems and DelRoleMems, in their order.
		switch {
		case r.Superuser:
			if !meOK || !me.Superuser {
				return pgerror.New(pgerror.InsufficientPrivilege, "must be superuser to alter superusers")
			}
		case !meOK || !acl.HasCreateRole(me) && !acl.IsAdminOf(cat, me, r, x.sess.user):
			return pgerror.New(pgerror.InsufficientPrivilege, "must have admin option on role \"%s\"", r.Name)
		}
		for _, m := range members {
			cat = x.tx.catalog()
			m, _ = cat.RoleByOID(m.OID)
			r, _ = cat.RoleByOID(r.OID)
			var memberOf []catalog.Membership
			var outcome acl.MembershipChange
			if st.Revoke {
				memberOf, outcome = acl.RevokeMembership(m, r.OID, st.Admin)
			} else {
				if acl.GrantLoops(cat, r, m) {
					return pgerror.New(pgerror.InvalidGrantOperation, "role \"%s\" is a member of role \"%s\"", r.Name, m.Name)
				}
				memberOf, outcome = acl.GrantMembership(m, r.OID, me.OID, st.Admin)
			}
			switch outcome {
			case acl.MembershipMissing:
				x.warning(pgerror.Warning, "role \"%s\" is not a member of role \"%s\"", m.Name, r.Name)
				continue
			case acl.MembershipAlready:
				x.notice("role \"%s\" is already a member of role \"%s\"", m.Name, r.Name)
				continue
			}
			changed := *m
			changed.MemberOf = memberOf
			if err := ed.PutRole(&changed); err != nil {
				return err
			}
		}
	}
	return nil
}

// dropMembershipsIn removes every membership in the dropped role, as
// PostgreSQL drops its pg_auth_members rows (those of its own
// memberships go with the role).
func (x *execCtx) dropMembershipsIn(dropped catalog.OID) error {
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	for _, m := range x.tx.catalog().Roles() {
		memberOf, outcome := acl.RevokeMembership(m, dropped, false)
		if outcome == acl.MembershipMissing {
			continue
		}
		changed := *m
		changed.MemberOf = memberOf
		if err := ed.PutRole(&changed); err != nil {
			return err
		}
	}
	return nil
}

// pgHasRoleCall is pg_has_role([role,] role, privileges): MEMBER is
// membership, direct or not (what SET ROLE needs), USAGE holding the
// role's privileges without SET ROLE; a superuser has both.
func pgHasRoleCall(ec eval.Context, a []types.Value) (types.Value, error) {
	x := stmtOf(ec)
	r, ok, err := privilegeFunctionRole(x, a, 3)
	if err != nil || !ok {
		return nil, err
	}
	cat := x.catalogOf()
	var target *catalog.Role
	switch v := a[len(a)-2].(type) {
	case string:
		if target, ok = cat.Role(v); !ok {
			return nil, pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", v)
		}
	case int64:
		if target, ok = cat.RoleByOID(uint32(v)); !ok {
			return nil, nil
		}
	}
	if r.Superuser {
		return true, nil
	}
	for _, w := range strings.Split(a[len(a)-1].(string), ",") {
		w = strings.ToLower(strings.TrimSpace(w))
		w = strings.TrimSpace(strings.TrimSuffix(w, "with admin option"))
		switch w {
		case "usage":
			if acl.PrivilegeHolders(cat, r).Has(target.OID) {
				return true, nil
			}
		default:
			if acl.Memberships(cat, r).Has(target.OID) {
				return true, nil
			}
		}
	}
	return false, nil
}
