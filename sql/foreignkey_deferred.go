package sql

import (
	"context"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// Deferred foreign keys.
//
// A foreign key declared DEFERRABLE (Django's migrate makes every one
// DEFERRABLE INITIALLY DEFERRED) may be checked at commit instead of at the
// end of each statement: when it is INITIALLY DEFERRED, or SET CONSTRAINTS
// made it DEFERRED in the transaction block. The end of a statement then
// hands its checks of such a constraint (a new child key must have its
// parent; a removed NO ACTION parent key must be back or unreferenced) to
// the write transaction, which runs them before it commits, and fails the
// COMMIT, rolling everything back, when one does not hold. SET CONSTRAINTS
// ... IMMEDIATE runs the checks put off so far at once, as PostgreSQL does.
// A check put off is made against the rows as they are at commit: a child
// row deleted or changed since, or a parent key put back, no longer
// counts. ON DELETE and ON UPDATE actions, and RESTRICT, are not deferred
// (RESTRICT is never, in PostgreSQL either).

// deferredFKCheck is one foreign-key check put off to commit. It names its
// constraint by OID, and finds it again in the catalog of the commit (the
// transaction may have dropped it, or its table, since).
type deferredFKCheck struct {
	constraint catalog.OID
	child      catalog.OID // the table holding the constraint
	// parentKey marks a removed parent key of a NO ACTION constraint;
	// otherwise vals is a new child key.
	parentKey bool
	vals      []types.Value // the key, in the constraint's column order
}

// fkTiming is what SET CONSTRAINTS said in a transaction block: for every
// deferrable constraint (allSet, all), then for named ones since.
type fkTiming struct {
	allSet, all bool
	named       map[catalog.OID]bool
}

func (f fkTiming) clone() fkTiming {
	c := f
	if f.named != nil {
		c.named = make(map[catalog.OID]bool, len(f.named))
		for k, v := range f.named {
			c.named[k] = v
		}
	}
	return c
}

// deferredNow reports whether con's checks wait for commit.
func (x *execCtx) deferredNow(con *catalog.Constraint) bool {
	if !con.Deferrable {
		return false
	}
	if b := x.sess.block; b != nil {
		if v, ok := b.fkTiming.named[con.OID]; ok {
			return v
		}
		if b.fkTiming.allSet {
			return b.fkTiming.all
		}
	}
	return con.InitiallyDeferred
}

// deferCheck hands a check of a deferred constraint to the transaction,
// reporting false when the constraint is not deferred now.
func (x *execCtx) deferCheck(p fkPending, parentKey bool) bool {
	if x.tx == nil || !x.deferredNow(p.link.con) {
		return false
	}
	x.tx.deferredFK = append(x.tx.deferredFK, deferredFKCheck{constraint: p.link.con.OID, child: p.link.child.OID, parentKey: parentKey, vals: p.vals})
	return true
}

// runDeferredFKChecks runs the checks put off to commit that which selects
// (nil: all), and keeps the others.
func (t *txn) runDeferredFKChecks(ctx context.Context, which func(catalog.OID) bool) error {
	if len(t.deferredFK) == 0 {
		return nil
	}
	x := &execCtx{ctx: ctx, sess: t.sess, tx: t, now: t.start, stmtNow: t.start}
	cat := t.catalog()
	var kept []deferredFKCheck
	for _, d := range t.deferredFK {
		if which != nil && !which(d.constraint) {
			kept = append(kept, d)
			continue
		}
		l, ok := deferredLink(cat, d)
		if !ok {
			continue // the constraint or a table of it was dropped since
		}
		present, err := l.parentHas(x, d.vals)
		if err != nil {
			return err
		}
		if present {
			continue
		}
		// A new child key counts while a child row still holds it; a
		// removed parent key while one still references it.
		parentVals := d.vals
		if !d.parentKey {
			if parentVals, err = l.childKeyAsParent(x, d.vals); err != nil {
				return err
			}
			if parentVals == nil {
				continue
			}
		}
		found, err := l.firstChild(x, parentVals)
		if err != nil {
			return err
		}
		if found == nil {
			continue
		}
		if d.parentKey {
			return l.stillReferenced(x, d.vals)
		}
		return l.notPresent(x, d.vals)
	}
	t.deferredFK = kept
	return nil
}

// childKeyAsParent converts a child key to the parent columns' types, as
// firstChild takes it; nil when it cannot be a parent key at all.
func (l *fkLink) childKeyAsParent(x *execCtx, vals []types.Value) ([]types.Value, error) {
	out := make([]types.Value, len(vals))
	for i, a := range l.con.RefColumns {
		v, err := eval.CastValue(x, vals[i], l.child.ColumnByAttnum(l.con.Columns[i]).Type, l.parent.ColumnByAttnum(a).Type, false)
		if err != nil {
			return nil, nil
		}
		out[i] = v
	}
	return out, nil
}

// deferredLink finds a deferred check's constraint in the catalog cat.
func deferredLink(cat *catalog.Snapshot, d deferredFKCheck) (*fkLink, bool) {
	child, ok := cat.TableByOID(d.child)
	if !ok {
		return nil, false
	}
	for i := range child.Constraints {
		con := &child.Constraints[i]
		if con.OID != d.constraint || con.Kind != "f" {
			continue
		}
		parent, ok := cat.TableByOID(con.RefTable)
		if !ok {
			return nil, false
		}
		return &fkLink{con: con, child: child, parent: parent}, true
	}
	return nil, false
}

// setConstraints runs SET CONSTRAINTS.
func (x *execCtx) setConstraints(st *ast.SetConstraints) error {
	b := x.sess.block
	if b == nil || b.implicit && !b.multiStatement {
		x.warning(pgerror.NoActiveSQLTransaction, "SET CONSTRAINTS can only be used in transaction blocks")
	}
	cat := x.sess.catalogFor(x)
	var oids map[catalog.OID]bool
	if !st.All {
		oids = map[catalog.OID]bool{}
		for _, name := range st.Names {
			found, err := x.namedConstraints(cat, name)
			if err != nil {
				return err
			}
			for _, c := range found {
				if !c.Deferrable {
					return pgerror.New(pgerror.WrongObjectType, "constraint \"%s\" is not deferrable", c.Name)
				}
				oids[c.OID] = true
			}
		}
	}
	if b != nil {
		if st.All {
			b.fkTiming = fkTiming{allSet: true, all: st.Deferred}
		} else {
			if b.fkTiming.named == nil {
				b.fkTiming.named = map[catalog.OID]bool{}
			}
			for oid := range oids {
				b.fkTiming.named[oid] = st.Deferred
			}
		}
	}
	if st.Deferred || x.tx == nil {
		return nil
	}
	return x.tx.runDeferredFKChecks(x.ctx, func(oid catalog.OID) bool { return st.All || oids[oid] })
}

// namedConstraints finds the constraints SET CONSTRAINTS names: in the
// schema given, or else in every schema of the search path (PostgreSQL
// takes all the constraints of that name in the first schema that has
// any).
func (x *execCtx) namedConstraints(cat *catalog.Snapshot, name ast.QualifiedName) ([]*catalog.Constraint, error) {
	var schemas []string
	if s := name.Schema(); s != "" {
		if _, ok := cat.Schema(s); !ok {
			return nil, pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", s)
		}
		schemas = []string{s}
	} else {
		schemas = x.planCtx().searchPath()
	}
	for _, s := range schemas {
		sc, ok := cat.Schema(s)
		if !ok {
			continue
		}
		var found []*catalog.Constraint
		for _, t := range cat.Tables() {
			if t.Schema != sc.OID {
				continue
			}
			if len(t.PrimaryKey) > 0 && t.PrimaryKeyName == name.Name() {
				found = append(found, &catalog.Constraint{OID: t.PrimaryKeyOID, Name: t.PrimaryKeyName, Kind: "p"})
			}
			for i := range t.Constraints {
				if t.Constraints[i].Name == name.Name() {
					found = append(found, &t.Constraints[i])
				}
			}
		}
		if len(found) > 0 {
			return found, nil
		}
	}
	return nil, pgerror.New(pgerror.UndefinedObject, "constraint \"%s\" does not exist", name.Name())
}

// setConstraintsStatement is SET CONSTRAINTS.
type setConstraintsStatement struct{ st *ast.SetConstraints }

func (s setConstraintsStatement) String() string {
	out := "SET CONSTRAINTS "
	if s.st.All {
		out += "ALL"
	} else {
		out += qualifiedNames(s.st.Names)
	}
	if s.st.Deferred {
		return out + " DEFERRED"
	}
	return out + " IMMEDIATE"
}

func (s setConstraintsStatement) exec(x *execCtx, _ *resultSink) (string, error) {
	return "SET CONSTRAINTS", x.setConstraints(s.st)
}
