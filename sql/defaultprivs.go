package sql

import (
	"cmp"
	"slices"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// This file owns ALTER DEFAULT PRIVILEGES for tables, as PostgreSQL 15
// has it: the privileges a role's new tables, views and streaming tables
// start with, in every schema or in some, stored with the role
// (catalog.Role.DefaultACLs) and shown in pg_default_acl.

// ownerOnlyACL is a table's ACL as PostgreSQL's acldefault makes it.
func ownerOnlyACL(owner catalog.OID) []catalog.ACLItem {
	return []catalog.ACLItem{{Grantee: owner, Grantor: owner, Privileges: ownerDefaultPrivileges}}
}

// defaultTableACL is the ACL of a table the session's role creates in
// schema: nil (the owner's implicit privileges) unless default privileges
// say more, as PostgreSQL's get_user_default_acl.
func (x *execCtx) defaultTableACL(schema catalog.OID) []catalog.ACLItem {
	cat := x.tx.catalog()
	r, ok := x.sess.sessionRole(cat)
	if !ok || len(r.DefaultACLs) == 0 {
		return nil
	}
	acl := ownerOnlyACL(r.OID)
	if i := slices.IndexFunc(r.DefaultACLs, func(d catalog.DefaultACL) bool { return d.Schema == 0 }); i >= 0 {
		acl = slices.Clone(r.DefaultACLs[i].ACL)
	}
	if i := slices.IndexFunc(r.DefaultACLs, func(d catalog.DefaultACL) bool { return d.Schema == schema }); i >= 0 && schema != 0 {
		for _, item := range r.DefaultACLs[i].ACL {
			acl = mergeACLItem(acl, item)
		}
	}
	if slices.Equal(acl, ownerOnlyACL(r.OID)) {
		return nil
	}
	return acl
}

// mergeACLItem adds item's privileges to acl's item of the same grantee
// and grantor, or appends it.
func mergeACLItem(acl []catalog.ACLItem, item catalog.ACLItem) []catalog.ACLItem {
	if i := slices.IndexFunc(acl, func(a catalog.ACLItem) bool { return a.Grantee == item.Grantee && a.Grantor == item.Grantor }); i >= 0 {
		acl[i].Privileges = mergePrivilegeLetters(acl[i].Privileges, item.Privileges)
		return acl
	}
	return append(acl, item)
}

// alterDefaultPrivileges runs ALTER DEFAULT PRIVILEGES ... ON TABLES.
func (x *execCtx) alterDefaultPrivileges(st *ast.AlterDefaultPrivileges) error {
	privs, err := tablePrivilegesNamed(st.Grant.Privileges)
	if err != nil {
		return err
	}
	cat := x.tx.catalog()
	me, meOK := x.sess.sessionRole(cat)
	if !meOK {
		return pgerror.New(pgerror.InsufficientPrivilege, "permission denied to change default privileges")
	}
	targets := []*catalog.Role{me}
	if len(st.ForRoles) > 0 {
		targets = targets[:0]
		for _, name := range st.ForRoles {
			r, ok := cat.Role(name)
			if !ok {
				return pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", name)
			}
			targets = append(targets, r)
		}
	}
	schemas := []catalog.OID{0}
	if len(st.InSchemas) > 0 {
		schemas = schemas[:0]
		for _, name := range st.InSchemas {
			sc, ok := cat.Schema(name)
			if !ok {
				return pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", name)
			}
			schemas = append(schemas, sc.OID)
		}
	}
	grantees, err := granteeOIDs(cat, st.Grant.Grantees)
	if err != nil {
		return err
	}
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	for _, target := range targets {
		if !me.Superuser && !memberships(cat, me).has(target.OID) {
			return pgerror.New(pgerror.InsufficientPrivilege, "must be member of role \"%s\"", target.Name)
		}
		current, ok := x.tx.catalog().RoleByOID(target.OID)
		if !ok {
			return pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", target.Name)
		}
		changed := *current
		changed.DefaultACLs = slices.Clone(changed.DefaultACLs)
		for _, schema := range schemas {
			i := slices.IndexFunc(changed.DefaultACLs, func(d catalog.DefaultACL) bool { return d.Schema == schema })
			var base []catalog.ACLItem
			switch {
			case i >= 0:
				base = slices.Clone(changed.DefaultACLs[i].ACL)
			case schema == 0:
				base = ownerOnlyACL(target.OID)
			}
			for _, g := range grantees {
				j := slices.IndexFunc(base, func(a catalog.ACLItem) bool { return a.Grantee == g && a.Grantor == target.OID })
				switch {
				case j >= 0:
					base[j].Privileges = catalog.WithPrivileges(base[j].Privileges, privs, !st.Grant.Revoke)
				case !st.Grant.Revoke:
					base = append(base, catalog.ACLItem{Grantee: g, Grantor: target.OID, Privileges: catalog.WithPrivileges("", privs, true)})
				}
			}
			base = slices.DeleteFunc(base, func(a catalog.ACLItem) bool { return a.Privileges == "" })
			// PostgreSQL stores the entry sorted (aclitemsort): by
			// grantee, then grantor.
			slices.SortStableFunc(base, func(a, b catalog.ACLItem) int {
				if a.Grantee != b.Grantee {
					return cmp.Compare(a.Grantee, b.Grantee)
				}
				return cmp.Compare(a.Grantor, b.Grantor)
			})
			// An entry that says what holds anyway is dropped, as
			// PostgreSQL drops it.
			isDefault := len(base) == 0 && schema != 0 || schema == 0 && slices.Equal(base, ownerOnlyACL(target.OID))
			switch {
			case isDefault && i >= 0:
				changed.DefaultACLs = slices.Delete(changed.DefaultACLs, i, i+1)
			case isDefault:
			case i >= 0:
				changed.DefaultACLs[i].ACL = base
			default:
				oid, err := ed.NewOID()
				if err != nil {
					return err
				}
				changed.DefaultACLs = append(changed.DefaultACLs, catalog.DefaultACL{OID: oid, Schema: schema, ACL: base})
			}
		}
		if err := ed.PutRole(&changed); err != nil {
			return err
		}
	}
	return nil
}
