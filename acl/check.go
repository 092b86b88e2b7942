package acl

import "cdcdb/catalog"

// TableOwner is the OID of the role that owns t; a table written before
// owners existed is the bootstrap superuser's.
func TableOwner(t *catalog.Table) catalog.OID {
	if t.Owner == 0 {
		return catalog.BootstrapRoleOID
	}
	return t.Owner
}

// FlowOwner is the OID of the role that owns f, as TableOwner.
func FlowOwner(f *catalog.Flow) catalog.OID {
	if f.Owner == 0 {
		return catalog.BootstrapRoleOID
	}
	return f.Owner
}

// HasTablePrivilege reports whether role r may do p on t: as a
// superuser, as its owner, or by a grant to it or to PUBLIC, itself or
// through the roles whose privileges it inherits. cat is only read for
// r's memberships (nil will do for a role that has none).
func HasTablePrivilege(cat *catalog.Snapshot, r *catalog.Role, t *catalog.Table, p catalog.Privilege) bool {
	if r.Superuser {
		return true
	}
	holders := PrivilegeHolders(cat, r)
	if holders.Has(TableOwner(t)) {
		return true
	}
	return grantedTo(holders, t.ACL, p)
}

// HasAnyTablePrivilege reports whether r holds one of privs on t.
func HasAnyTablePrivilege(cat *catalog.Snapshot, r *catalog.Role, t *catalog.Table, privs ...catalog.Privilege) bool {
	for _, p := range privs {
		if HasTablePrivilege(cat, r, t, p) {
			return true
		}
	}
	return false
}

// SchemaACL is sc's ACL, its default (SchemaDefaultACL) until the first
// GRANT or REVOKE.
func SchemaACL(sc *catalog.Schema) []catalog.ACLItem {
	if sc.ACL == nil {
		return SchemaDefaultACL(sc)
	}
	return sc.ACL
}

// SchemaDefaultACL is a schema's ACL before any GRANT or REVOKE, as
// PostgreSQL 15 makes it: the owner holds USAGE and CREATE, and on public
// everyone holds USAGE.
func SchemaDefaultACL(sc *catalog.Schema) []catalog.ACLItem {
	owner := catalog.SchemaOwner(sc)
	acl := []catalog.ACLItem{{Grantee: owner, Grantor: owner, Privileges: "UC"}}
	if sc.Name == "public" {
		acl = append(acl, catalog.ACLItem{Grantee: 0, Grantor: owner, Privileges: "U"})
	}
	return acl
}

// HasSchemaPrivilege reports whether r may do p (USAGE or CREATE) in sc:
// as a superuser, as its owner or a member of it, or by a grant. The
// system schemas are everyone's to use. (A session's temporary schema is
// its own too, which only the session knows: package sql says so before
// asking.)
func HasSchemaPrivilege(cat *catalog.Snapshot, r *catalog.Role, sc *catalog.Schema, p catalog.Privilege) bool {
	if r.Superuser || sc.System && p == catalog.PrivUsage {
		return true
	}
	holders := PrivilegeHolders(cat, r)
	if holders.Has(catalog.SchemaOwner(sc)) {
		return true
	}
	return grantedTo(holders, SchemaACL(sc), p)
}

// grantedTo reports whether an item of acl gives p to PUBLIC or to one of
// holders.
func grantedTo(holders RoleSet, acl []catalog.ACLItem, p catalog.Privilege) bool {
	for _, a := range acl {
		if (a.Grantee == 0 || holders.Has(a.Grantee)) && a.Has(p) {
			return true
		}
	}
	return false
}
