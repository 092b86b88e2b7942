package sql

import (
	"slices"

	"cdcdb/acl"
	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// This file owns ALTER DEFAULT PRIVILEGES for tables, as PostgreSQL 15
// has it: the privileges a role's new tables, views and streaming tables
// start with, in every schema or in some, stored with the role
// (catalog.Role.DefaultACLs) and shown in pg_default_acl.

// defaultTableACL is the ACL of a table the session's role creates in
// schema: nil (the owner's implicit privileges) unless default privileges
// say more (acl.NewTableACL).
func (x *execCtx) defaultTableACL(schema catalog.OID) []catalog.ACLItem {
	r, ok := x.sess.sessionRole(x.tx.catalog())
	if !ok {
		return nil
	}
	return acl.NewTableACL(r, schema)
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
		if !me.Superuser && !acl.Memberships(cat, me).Has(target.OID) {
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
			var entry []catalog.ACLItem
			if i >= 0 {
				entry = changed.DefaultACLs[i].ACL
			}
			base, isDefault := acl.ChangeDefaultACL(entry, i >= 0, target.OID, schema, grantees, privs, !st.Grant.Revoke)
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
