package sql

import (
	"strings"

	"cdcdb/acl"
	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/types"
)

// This file owns the privileges on schemas, as PostgreSQL 15 has them:
// USAGE to reach the tables of a schema, CREATE to create in it (public:
// USAGE for everyone, CREATE for its owner only), GRANT and REVOKE of
// them, and ownership changes of tables (ALTER TABLE ... OWNER TO). A
// schema's ACL is stored with it (catalog.Schema.ACL), nil meaning
// acl.SchemaDefaultACL; who holds what, and the ACL arithmetic, are
// package acl's.

// roleHasSchemaPrivilege is acl.HasSchemaPrivilege, with what only a
// session knows: its temporary schema is its own.
func roleHasSchemaPrivilege(cat *catalog.Snapshot, r *catalog.Role, sc *catalog.Schema, p catalog.Privilege) bool {
	return isTempSchemaName(sc.Name) || acl.HasSchemaPrivilege(cat, r, sc, p)
}

// schemaPermissionDenied is PostgreSQL's aclcheck_error for a schema.
func schemaPermissionDenied(sc *catalog.Schema) *pgerror.Error {
	return pgerror.New(pgerror.InsufficientPrivilege, "permission denied for schema %s", sc.Name)
}

// checkSchemaUsage refuses with 42501 a table in a schema the role may
// not use. PostgreSQL looks names up in such a schema only when they are
// qualified with it (a search_path entry is skipped); cdcdb refuses the
// same way for both, so an unqualified name says "permission denied for
// schema s" where PostgreSQL would not find the relation.
func checkSchemaUsage(cat *catalog.Snapshot, r *catalog.Role, t *catalog.Table) error {
	sc, ok := cat.SchemaByOID(t.Schema)
	if !ok || roleHasSchemaPrivilege(cat, r, sc, catalog.PrivUsage) {
		return nil
	}
	return schemaPermissionDenied(sc)
}

// requireCreateIn refuses to create an object in schema sc to a role
// without CREATE on it (PostgreSQL 15: on public, only its owner, the
// database owner).
func (x *execCtx) requireCreateIn(sc *catalog.Schema) error {
	cat := x.tx.catalog()
	if r, ok := x.sess.sessionRole(cat); ok && roleHasSchemaPrivilege(cat, r, sc, catalog.PrivCreate) {
		return nil
	}
	return schemaPermissionDenied(sc)
}

// grantSchemaPrivileges runs GRANT and REVOKE ... ON SCHEMA.
func (x *execCtx) grantSchemaPrivileges(st *ast.GrantPrivileges) error {
	var privs []catalog.Privilege
	for _, w := range st.Privileges {
		switch w {
		case "ALL":
			privs = append(privs, catalog.PrivUsage, catalog.PrivCreate)
		case "USAGE":
			privs = append(privs, catalog.PrivUsage)
		case "CREATE":
			privs = append(privs, catalog.PrivCreate)
		default:
			return pgerror.New(pgerror.InvalidGrantOperation, "invalid privilege type %s for schema", w)
		}
	}
	cat := x.tx.catalog()
	grantees, err := granteeOIDs(cat, st.Grantees)
	if err != nil {
		return err
	}
	me, meOK := x.sess.sessionRole(cat)
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	for _, name := range st.OnSchemas {
		sc, ok := cat.Schema(name)
		if !ok {
			return pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", name)
		}
		if !meOK || !acl.ActsAsOwner(cat, me, catalog.SchemaOwner(sc)) {
			if meOK && (roleHasSchemaPrivilege(cat, me, sc, catalog.PrivUsage) || roleHasSchemaPrivilege(cat, me, sc, catalog.PrivCreate)) {
				if st.Revoke {
					x.warning(pgerror.WarningPrivilegeNotRevoked, "no privileges could be revoked for \"%s\"", sc.Name)
				} else {
					x.warning(pgerror.WarningPrivilegeNotGranted, "no privileges were granted for \"%s\"", sc.Name)
				}
				continue
			}
			return schemaPermissionDenied(sc)
		}
		changed := *sc
		changed.ACL = acl.ChangeSchemaACL(sc, grantees, privs, !st.Revoke)
		if err := ed.PutSchema(&changed); err != nil {
			return err
		}
	}
	return nil
}

// granteeOIDs resolves GRANT's grantees; PUBLIC ("") is 0.
func granteeOIDs(cat *catalog.Snapshot, names []string) ([]catalog.OID, error) {
	out := make([]catalog.OID, 0, len(names))
	for _, name := range names {
		if name == "" {
			out = append(out, 0)
			continue
		}
		r, ok := cat.Role(name)
		if !ok {
			return nil, pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", name)
		}
		out = append(out, r.OID)
	}
	return out, nil
}

// changeTableOwner runs ALTER TABLE t OWNER TO role, with PostgreSQL 15's
// checks: the session owns t (or is a superuser), is a member of the new
// owner, and the new owner may create in t's schema. The owner's grants
// pass to the new owner, as PostgreSQL's aclnewowner does.
func (x *execCtx) changeTableOwner(t *catalog.Table, o *ast.OwnerTo) error {
	cat := x.tx.catalog()
	name := o.Role
	switch name {
	case "CURRENT_USER", "CURRENT_ROLE":
		name = x.sess.currentRoleName()
	case "SESSION_USER":
		name = x.sess.user
	}
	newOwner, ok := cat.Role(name)
	if !ok {
		return pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", name)
	}
	old := acl.TableOwner(t)
	if newOwner.OID == old {
		return nil
	}
	me, ok := x.sess.sessionRole(cat)
	if !ok || !me.Superuser {
		if !ok || !acl.ActsAsOwner(cat, me, old) {
			return mustBeOwner(t)
		}
		if !acl.Memberships(cat, me).Has(newOwner.OID) {
			return pgerror.New(pgerror.InsufficientPrivilege, "must be member of role \"%s\"", newOwner.Name)
		}
		if sc, ok := cat.SchemaByOID(t.Schema); ok && !roleHasSchemaPrivilege(cat, newOwner, sc, catalog.PrivCreate) {
			return schemaPermissionDenied(sc)
		}
	}
	c := t.Clone()
	c.Owner = newOwner.OID
	c.ACL = acl.NewOwner(t.ACL, old, newOwner.OID)
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	return ed.PutTable(c)
}

// ownerToAlone finds OWNER TO among ALTER TABLE's actions; ok when it is
// the only one (o is set but ok false when it comes with others).
func ownerToAlone(actions []ast.AlterAction) (o *ast.OwnerTo, ok bool) {
	for _, a := range actions {
		if ot, is := a.(*ast.OwnerTo); is {
			o = ot
		}
	}
	return o, o != nil && len(actions) == 1
}

// privilegeFunctionRole is the role a has_*_privilege call asks about: its
// first argument when it has three (a name, or an OID: ok false and no
// error for one that is not a role, which PostgreSQL answers with NULL),
// else the session's current role.
func privilegeFunctionRole(x *execCtx, a []types.Value, args int) (*catalog.Role, bool, error) {
	cat := x.catalogOf()
	if len(a) < args {
		r, ok := x.sess.sessionRole(cat)
		return r, ok, nil
	}
	switch v := a[0].(type) {
	case string:
		r, ok := cat.Role(v)
		if !ok {
			return nil, false, pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", v)
		}
		return r, true, nil
	case int64:
		r, ok := cat.RoleByOID(uint32(v))
		return r, ok, nil
	}
	return nil, false, nil
}

// hasSchemaPrivilegeCall is has_schema_privilege([role,] schema,
// privileges): whether the role holds any of USAGE and CREATE listed.
func hasSchemaPrivilegeCall(x *execCtx, a []types.Value) (types.Value, error) {
	r, ok, err := privilegeFunctionRole(x, a, 3)
	if err != nil || !ok {
		return nil, err
	}
	cat := x.catalogOf()
	var sc *catalog.Schema
	switch v := a[len(a)-2].(type) {
	case string:
		if sc, ok = cat.Schema(v); !ok {
			return nil, pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", v)
		}
	case int64:
		if sc, ok = cat.SchemaByOID(uint32(v)); !ok {
			return nil, nil
		}
	}
	for _, w := range strings.Split(a[len(a)-1].(string), ",") {
		w = strings.ToLower(strings.TrimSpace(w))
		w = strings.TrimSpace(strings.TrimSuffix(w, "with grant option"))
		p := catalog.PrivUsage
		if w == "create" {
			p = catalog.PrivCreate
		}
		if roleHasSchemaPrivilege(cat, r, sc, p) {
			return true, nil
		}
	}
	return false, nil
}

// checkViewOwnerPrivilege checks privs on t, read by the query of the
// innermost view being planned, against that view's owner, as PostgreSQL
// checks a view's tables: a role that creates a view over a table it may
// read, and then loses the right, does not keep it through the view. A
// view's tables reached otherwise (planned for its dependencies) are not
// checked.
func (pc *planCtx) checkViewOwnerPrivilege(t *catalog.Table, privs []catalog.Privilege) error {
	if len(pc.viewOwners) == 0 {
		return nil
	}
	owner, ok := pc.cat.RoleByOID(pc.viewOwners[len(pc.viewOwners)-1])
	if !ok {
		return permissionDenied(t)
	}
	for _, p := range privs {
		if !acl.HasTablePrivilege(pc.cat, owner, t, p) {
			return permissionDenied(t)
		}
	}
	return nil
}
