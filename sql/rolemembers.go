package sql

import (
	"slices"
	"strings"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/sql/settings"
	"cdcdb/types"
)

// This file owns role membership, as PostgreSQL 15 has it: GRANT role TO
// role [WITH ADMIN OPTION] and its REVOKE, whose privileges a role holds
// through its memberships (privilegeHolders: those of the roles it is a
// member of, following INHERIT), SET ROLE / RESET ROLE (the "role"
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

// roleSet is a set of role OIDs, with the common case of one role and no
// memberships kept free of allocation.
type roleSet struct {
	self catalog.OID
	more map[catalog.OID]bool
}

func (s roleSet) has(oid catalog.OID) bool { return oid == s.self || s.more[oid] }

// privilegeHolders is r and every role whose privileges r uses: the roles
// it is a member of, directly or through roles that inherit, as long as
// the member expanded has INHERIT (PostgreSQL 15's ROLERECURSE_PRIVS).
func privilegeHolders(cat *catalog.Snapshot, r *catalog.Role) roleSet {
	return roleClosure(cat, r, true)
}

// memberships is r and every role it is a member of, directly or not,
// whatever INHERIT says: what SET ROLE may switch to.
func memberships(cat *catalog.Snapshot, r *catalog.Role) roleSet {
	return roleClosure(cat, r, false)
}

func roleClosure(cat *catalog.Snapshot, r *catalog.Role, followInherit bool) roleSet {
	set := roleSet{self: r.OID}
	if len(r.MemberOf) == 0 {
		return set
	}
	set.more = map[catalog.OID]bool{}
	queue := []*catalog.Role{r}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		if followInherit && m.NoInherit {
			continue
		}
		for _, ms := range m.MemberOf {
			if set.has(ms.Role) {
				continue
			}
			set.more[ms.Role] = true
			if g, ok := cat.RoleByOID(ms.Role); ok {
				queue = append(queue, g)
			}
		}
	}
	return set
}

// actsAsOwner reports whether r may do what owner may: as a superuser, as
// owner, or through membership in owner that it inherits.
func actsAsOwner(cat *catalog.Snapshot, r *catalog.Role, owner catalog.OID) bool {
	return r.Superuser || privilegeHolders(cat, r).has(owner)
}

// hasCreateRole is PostgreSQL's have_createrole_privilege.
func hasCreateRole(r *catalog.Role) bool { return r.Superuser || r.CreateRole }

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
	if ok && (login.Superuser || memberships(pc.cat, login).has(target.OID)) {
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
		case !meOK || !hasCreateRole(me) && !x.isAdminOf(cat, me, r):
			return pgerror.New(pgerror.InsufficientPrivilege, "must have admin option on role \"%s\"", r.Name)
		}
		for _, m := range members {
			cat = x.tx.catalog()
			m, _ = cat.RoleByOID(m.OID)
			r, _ = cat.RoleByOID(r.OID)
			i := slices.IndexFunc(m.MemberOf, func(ms catalog.Membership) bool { return ms.Role == r.OID })
			changed := *m
			changed.MemberOf = slices.Clone(m.MemberOf)
			if st.Revoke {
				switch {
				case i < 0:
					x.warning(pgerror.Warning, "role \"%s\" is not a member of role \"%s\"", m.Name, r.Name)
					continue
				case st.Admin:
					changed.MemberOf[i].Admin = false
				default:
					changed.MemberOf = slices.Delete(changed.MemberOf, i, i+1)
				}
			} else {
				if memberships(cat, r).has(m.OID) {
					return pgerror.New(pgerror.InvalidGrantOperation, "role \"%s\" is a member of role \"%s\"", r.Name, m.Name)
				}
				switch {
				case i >= 0 && (!st.Admin || m.MemberOf[i].Admin):
					x.notice("role \"%s\" is already a member of role \"%s\"", m.Name, r.Name)
					continue
				case i >= 0:
					changed.MemberOf[i].Admin = true
				default:
					changed.MemberOf = append(changed.MemberOf, catalog.Membership{Role: r.OID, Grantor: me.OID, Admin: st.Admin})
				}
			}
			if err := ed.PutRole(&changed); err != nil {
				return err
			}
		}
	}
	return nil
}

// isAdminOf is PostgreSQL 15's is_admin_of_role: a superuser, a role
// holding (itself or through the roles it belongs to) the admin option on
// r, or r itself when it is the session's login role.
func (x *execCtx) isAdminOf(cat *catalog.Snapshot, me, r *catalog.Role) bool {
	if me.Superuser {
		return true
	}
	if me.OID == r.OID {
		return me.Name == x.sess.user
	}
	in := memberships(cat, me)
	for _, m := range cat.Roles() {
		if !in.has(m.OID) {
			continue
		}
		for _, ms := range m.MemberOf {
			if ms.Role == r.OID && ms.Admin {
				return true
			}
		}
	}
	return false
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
		i := slices.IndexFunc(m.MemberOf, func(ms catalog.Membership) bool { return ms.Role == dropped })
		if i < 0 {
			continue
		}
		changed := *m
		changed.MemberOf = slices.Delete(slices.Clone(m.MemberOf), i, i+1)
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
			if privilegeHolders(cat, r).has(target.OID) {
				return true, nil
			}
		default:
			if memberships(cat, r).has(target.OID) {
				return true, nil
			}
		}
	}
	return false, nil
}
