package sql

import (
	"cdcdb/acl"
	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/catalogviews"
)

// OWNER TO of what pg_dump gives owners beside tables (whose OWNER TO is
// changeTableOwner, schemaprivs.go): free-standing sequences (ALTER
// SEQUENCE ... OWNER TO, and ALTER TABLE <sequence> OWNER TO, which
// pg_dump writes for any relation), a serial column's sequence, and
// schemas (ALTER SCHEMA ... OWNER TO). Views go through ALTER TABLE's path
// (ALTER VIEW ... OWNER TO parses as it). The checks are PostgreSQL 15's:
// the session acts as the current owner (or is a superuser), and is a
// member of the new one.

// ownerToRole resolves OWNER TO's role.
func (x *execCtx) ownerToRole(o *ast.OwnerTo) (*catalog.Role, error) {
	name := o.Role
	switch name {
	case "CURRENT_USER", "CURRENT_ROLE":
		name = x.sess.currentRoleName()
	case "SESSION_USER":
		name = x.sess.user
	}
	r, ok := x.tx.catalog().Role(name)
	if !ok {
		return nil, pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", name)
	}
	return r, nil
}

// checkOwnerChange refuses a change of owner the session may not make:
// kind and name say what for the message.
func (x *execCtx) checkOwnerChange(current catalog.OID, next *catalog.Role, kind, name string) error {
	cat := x.tx.catalog()
	me, ok := x.sess.sessionRole(cat)
	if ok && me.Superuser {
		return nil
	}
	if !ok || !acl.ActsAsOwner(cat, me, current) {
		return pgerror.New(pgerror.InsufficientPrivilege, "must be owner of %s %s", kind, name)
	}
	if !acl.Memberships(cat, me).Has(next.OID) {
		return pgerror.New(pgerror.InsufficientPrivilege, "must be member of role \"%s\"", next.Name)
	}
	return nil
}

// setSequenceOwner is OWNER TO of a free-standing sequence; as for a
// table, the new owner must be able to create in its schema.
func (x *execCtx) setSequenceOwner(q *catalog.Sequence, o *ast.OwnerTo) error {
	role, err := x.ownerToRole(o)
	if err != nil {
		return err
	}
	if catalogviews.SequenceOwner(q) == role.OID {
		return nil
	}
	if err := x.checkOwnerChange(catalogviews.SequenceOwner(q), role, "sequence", q.Name); err != nil {
		return err
	}
	cat := x.tx.catalog()
	if !x.sess.isSuperuser(cat) {
		if sc, ok := cat.SchemaByOID(q.Schema); ok && !roleHasSchemaPrivilege(cat, role, sc, catalog.PrivCreate) {
			return schemaPermissionDenied(sc) // schemaprivs.go
		}
	}
	c := *q
	c.Owner = role.OID
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	return ed.PutSequence(&c)
}

// sequenceOwnerTo is ALTER TABLE name OWNER TO of a name that is no table
// or view: a free-standing sequence, or a serial column's, whose owner is
// its table's (giving it that owner changes nothing, another is refused).
// done is false when no sequence has the name either.
func (x *execCtx) sequenceOwnerTo(pc *planCtx, name ast.QualifiedName, o *ast.OwnerTo) (done bool, err error) {
	q, err := pc.lookupFreeSequence(name)
	switch {
	case err == nil:
		return true, x.setSequenceOwner(q, o)
	case pgerror.CodeOf(err) != pgerror.FeatureNotSupported:
		return false, nil
	}
	role, err := x.ownerToRole(o)
	if err != nil {
		return true, err
	}
	sc, err := pc.creationSchema(name)
	if err != nil {
		return true, err
	}
	for _, s := range catalogviews.SerialSequences(pc.cat) {
		if s.Free == nil && s.Schema == sc.OID && s.Name == name.Name() {
			if acl.TableOwner(s.Table) == role.OID {
				return true, nil
			}
			return true, pgerror.New(pgerror.FeatureNotSupported, "cannot change owner of sequence \"%s\"", s.Name).
				WithDetail("Sequence \"%s\" is linked to table \"%s\".", s.Name, s.Table.Name)
		}
	}
	return false, nil
}

// moveOwnedSequences gives the sequences table t's columns own (identity,
// OWNED BY) t's new owner, as PostgreSQL moves them with it.
func (x *execCtx) moveOwnedSequences(t *catalog.Table) error {
	cat := x.tx.catalog()
	now, ok := cat.TableByOID(t.OID)
	if !ok {
		return nil
	}
	owned := catalogviews.OwnedSequences(cat, t.OID, 0)
	if len(owned) == 0 {
		return nil
	}
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	for _, q := range owned {
		s := *q
		s.Owner = acl.TableOwner(now)
		if err := ed.PutSequence(&s); err != nil {
			return err
		}
	}
	return nil
}

// alterSchemaOwner is ALTER SCHEMA name OWNER TO role, with PostgreSQL
// 15's checks: the session acts as the schema's owner (or is a
// superuser), is a member of the new owner, and has CREATE on the
// database, which in cdcdb only superusers have (as for CREATE SCHEMA).
func (x *execCtx) alterSchemaOwner(st *ast.AlterSchemaOwner) error {
	cat := x.tx.catalog()
	sc, ok := cat.Schema(st.Name)
	if !ok {
		return pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", st.Name)
	}
	role, err := x.ownerToRole(st.Owner)
	if err != nil {
		return err
	}
	current := sc.Owner
	if current == 0 {
		current = catalog.BootstrapRoleOID
	}
	if current == role.OID {
		return nil
	}
	// public stays pg_database_owner's, as pg_namespace shows it.
	if sc.System || sc.OID == catalog.PublicNamespace || isTempSchema(cat, sc.OID) {
		return pgerror.New(pgerror.FeatureNotSupported, "changing the owner of schema \"%s\" is not supported", sc.Name)
	}
	if err := x.checkOwnerChange(current, role, "schema", sc.Name); err != nil {
		return err
	}
	if !x.sess.isSuperuser(cat) {
		return pgerror.New(pgerror.InsufficientPrivilege, "permission denied for database main")
	}
	c := *sc
	c.Owner = role.OID
	c.ACL = acl.NewOwner(sc.ACL, current, role.OID)
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	return ed.PutSchema(&c)
}
