package acl

import (
	"slices"

	"cdcdb/catalog"
)

// RoleSet is a set of role OIDs, with the common case of one role and no
// memberships kept free of allocation.
type RoleSet struct {
	self catalog.OID
	more map[catalog.OID]bool
}

// Has reports whether oid is in the set.
func (s RoleSet) Has(oid catalog.OID) bool { return oid == s.self || s.more[oid] }

// PrivilegeHolders is r and every role whose privileges r uses: the roles
// it is a member of, directly or through roles that inherit, as long as
// the member expanded has INHERIT (PostgreSQL 15's ROLERECURSE_PRIVS).
func PrivilegeHolders(cat *catalog.Snapshot, r *catalog.Role) RoleSet {
	return roleClosure(cat, r, true)
}

// Memberships is r and every role it is a member of, directly or not,
// whatever INHERIT says: what SET ROLE may switch to (PostgreSQL 15's
// ROLERECURSE_MEMBERS).
func Memberships(cat *catalog.Snapshot, r *catalog.Role) RoleSet {
	return roleClosure(cat, r, false)
}

func roleClosure(cat *catalog.Snapshot, r *catalog.Role, followInherit bool) RoleSet {
	set := RoleSet{self: r.OID}
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
			if set.Has(ms.Role) {
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

// ActsAsOwner reports whether r may do what owner may: as a superuser, as
// owner, or through membership in owner that it inherits (PostgreSQL's
// has_privs_of_role, as pg_class_ownercheck uses it).
func ActsAsOwner(cat *catalog.Snapshot, r *catalog.Role, owner catalog.OID) bool {
	return r.Superuser || PrivilegeHolders(cat, r).Has(owner)
}

// HasCreateRole is PostgreSQL's have_createrole_privilege.
func HasCreateRole(r *catalog.Role) bool { return r.Superuser || r.CreateRole }

// IsAdminOf is PostgreSQL 15's is_admin_of_role: me is a superuser, holds
// (itself or through the roles it belongs to) the admin option on r, or
// is r itself while being the session's login role (loginName, the
// session_user: a role may grant membership in itself only as the role it
// logged in as, not after SET ROLE).
func IsAdminOf(cat *catalog.Snapshot, me, r *catalog.Role, loginName string) bool {
	if me.Superuser {
		return true
	}
	if me.OID == r.OID {
		return me.Name == loginName
	}
	in := Memberships(cat, me)
	for _, m := range cat.Roles() {
		if !in.Has(m.OID) {
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

// GrantLoops reports whether making member a member of role would close
// a loop of memberships: role is member already, directly or not (or is
// member itself), as PostgreSQL's AddRoleMems refuses with "role r is a
// member of role m".
func GrantLoops(cat *catalog.Snapshot, role, member *catalog.Role) bool {
	return Memberships(cat, role).Has(member.OID)
}

// MembershipChange says what a GRANT or REVOKE of membership did to one
// member.
type MembershipChange int

const (
	// MembershipChanged: the member's memberships changed.
	MembershipChanged MembershipChange = iota
	// MembershipAlready: GRANT found the member a member already (with
	// the admin option, when it was asked for); PostgreSQL says so in a
	// NOTICE.
	MembershipAlready
	// MembershipMissing: REVOKE found no such membership; PostgreSQL says
	// so in a WARNING.
	MembershipMissing
)

// GrantMembership is member's memberships after GRANT role TO member by
// grantor, WITH ADMIN OPTION when admin: a new membership, or the admin
// option added to the one there is. member is not changed. The loop
// check (GrantLoops) and the grantor's right are the caller's.
func GrantMembership(member *catalog.Role, role, grantor catalog.OID, admin bool) ([]catalog.Membership, MembershipChange) {
	i := slices.IndexFunc(member.MemberOf, func(ms catalog.Membership) bool { return ms.Role == role })
	switch {
	case i >= 0 && (!admin || member.MemberOf[i].Admin):
		return member.MemberOf, MembershipAlready
	case i >= 0:
		out := slices.Clone(member.MemberOf)
		out[i].Admin = true
		return out, MembershipChanged
	}
	return append(slices.Clone(member.MemberOf), catalog.Membership{Role: role, Grantor: grantor, Admin: admin}), MembershipChanged
}

// RevokeMembership is member's memberships after REVOKE role FROM member
// (adminOnly: REVOKE ADMIN OPTION FOR, which keeps the membership).
// member is not changed.
func RevokeMembership(member *catalog.Role, role catalog.OID, adminOnly bool) ([]catalog.Membership, MembershipChange) {
	i := slices.IndexFunc(member.MemberOf, func(ms catalog.Membership) bool { return ms.Role == role })
	switch {
	case i < 0:
		return member.MemberOf, MembershipMissing
	case adminOnly:
		out := slices.Clone(member.MemberOf)
		out[i].Admin = false
		return out, MembershipChanged
	}
	return slices.Delete(slices.Clone(member.MemberOf), i, i+1), MembershipChanged
}
