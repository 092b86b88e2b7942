package sql

import (
	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
)

// OWNER TO of tables, views, sequences (ALTER TABLE | VIEW | SEQUENCE ...
// OWNER TO, all of which pg_dump writes as ALTER TABLE for any relation)
// and schemas. cdcdb has no role membership, so a role gives what it owns
// only to itself, as PostgreSQL's rule (be a member of the new owner) then
// reads; a superuser gives anything to anyone.

// newOwner resolves OWNER TO's role.
func (x *execCtx) newOwner(spec ast.RoleSpec) (catalog.OID, error) {
	cat := x.tx.catalog()
	if spec.Current != "" {
		return x.sess.currentRoleOID(cat), nil
	}
	r, ok := cat.Role(spec.Name)
	if !ok {
		return 0, pgerror.New(pgerror.UndefinedObject, "role \"%s\" does not exist", spec.Name)
	}
	return r.OID, nil
}

// checkOwnerChange refuses a change of owner the session may not make.
func (x *execCtx) checkOwnerChange(current, next catalog.OID, kind, name string) error {
	r, ok := x.sess.sessionRole(x.tx.catalog())
	if ok && r.Superuser {
		return nil
	}
	if !ok || current != r.OID {
		return pgerror.New(pgerror.InsufficientPrivilege, "must be owner of %s %s", kind, name)
	}
	if next != r.OID {
		return pgerror.New(pgerror.InsufficientPrivilege, "must be able to SET ROLE \"%s\"", x.roleName(next))
	}
	return nil
}

func (x *execCtx) roleName(oid catalog.OID) string {
	if r, ok := x.tx.catalog().RoleByOID(oid); ok {
		return r.Name
	}
	return ""
}

// ownerOnly returns ALTER TABLE's role when OWNER TO is its only action.
func ownerOnly(st *ast.AlterTable) (ast.RoleSpec, bool) {
	if len(st.Actions) != 1 {
		return ast.RoleSpec{}, false
	}
	so, ok := st.Actions[0].(*ast.SetOwner)
	if !ok {
		return ast.RoleSpec{}, false
	}
	return so.Role, true
}

// alterRelationOwner is ALTER TABLE | VIEW name OWNER TO role, of a table,
// a view or a free-standing sequence. A serial column's sequence belongs
// to its table: giving it the table's owner changes nothing, another owner
// is refused.
func (x *execCtx) alterRelationOwner(st *ast.AlterTable, spec ast.RoleSpec) error {
	pc := x.planCtx()
	role, err := x.newOwner(spec)
	if err != nil {
		return err
	}
	t, _, err := pc.lookupRelation(st.Name)
	if err != nil && pgerror.CodeOf(err) == pgerror.UndefinedTable {
		if q, qerr := pc.lookupFreeSequence(st.Name); qerr == nil {
			if err := x.checkOwnerChange(sequenceOwner(q), role, "sequence", q.Name); err != nil {
				return err
			}
			c := *q
			c.Owner = role
			ed, err := x.tx.edit()
			if err != nil {
				return err
			}
			return ed.PutSequence(&c)
		} else if pgerror.CodeOf(qerr) == pgerror.FeatureNotSupported {
			return x.serialSequenceOwner(pc, st.Name, role)
		}
	}
	if err != nil {
		if st.IfExists && pgerror.CodeOf(err) == pgerror.UndefinedTable {
			x.notice("relation \"%s\" does not exist, skipping", st.Name.Name())
			return nil
		}
		return err
	}
	if err := x.checkOwnerChange(tableOwner(t), role, relationKindWord(t), t.Name); err != nil {
		return err
	}
	if tableOwner(t) == role {
		return nil
	}
	c := t.Clone()
	c.Owner = role
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	if err := ed.PutTable(c); err != nil {
		return err
	}
	// PostgreSQL moves the sequences a table owns with it.
	for _, q := range ownedFreeSequences(x.tx.catalog(), t.OID, 0) {
		s := *q
		s.Owner = role
		if err := ed.PutSequence(&s); err != nil {
			return err
		}
	}
	return nil
}

// serialSequenceOwner is OWNER TO of a serial column's sequence, whose
// owner is its table's.
func (x *execCtx) serialSequenceOwner(pc *planCtx, name ast.QualifiedName, role catalog.OID) error {
	sc, err := pc.creationSchema(name)
	if err != nil {
		return err
	}
	for _, s := range serialSequences(pc.cat) {
		if s.free == nil && s.schema == sc.OID && s.name == name.Name() {
			if tableOwner(s.table) == role {
				return nil
			}
			return pgerror.New(pgerror.FeatureNotSupported, "cannot change owner of sequence \"%s\"", s.name).
				WithDetail("Sequence \"%s\" is linked to table \"%s\".", s.name, s.table.Name)
		}
	}
	return pgerror.New(pgerror.UndefinedTable, "relation \"%s\" does not exist", name.Name())
}

func sequenceOwner(q *catalog.Sequence) catalog.OID {
	if q.Owner == 0 {
		return catalog.BootstrapRoleOID
	}
	return q.Owner
}

// alterSchemaOwner is ALTER SCHEMA name OWNER TO role. Schemas are owned by
// the bootstrap superuser (pg_namespace says so), and cdcdb does not
// record another owner: naming that role is accepted (nothing changes, as
// in PostgreSQL), another is refused.
func (x *execCtx) alterSchemaOwner(st *ast.AlterSchemaOwner) error {
	cat := x.tx.catalog()
	sc, ok := cat.Schema(st.Name)
	if !ok {
		return pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", st.Name)
	}
	role, err := x.newOwner(st.Role)
	if err != nil {
		return err
	}
	if !x.sess.isSuperuser(cat) {
		return pgerror.New(pgerror.InsufficientPrivilege, "must be owner of schema %s", sc.Name)
	}
	if sc.OID == catalog.PublicNamespace || role != catalog.BootstrapRoleOID {
		return pgerror.New(pgerror.FeatureNotSupported, "changing the owner of schema \"%s\" is not supported", sc.Name).
			WithDetail("Schemas other than public are owned by the bootstrap superuser \"%s\".", x.roleName(catalog.BootstrapRoleOID))
	}
	return nil
}
