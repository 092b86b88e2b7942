package sql

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// Foreign keys.
//
// A FOREIGN KEY constraint lives on the referencing (child) table: its
// columns, the referenced (parent) table and columns, and the actions on
// the parent's delete and update. The parent's referenced columns must be
// its primary key or carry a unique constraint, so a child's key is looked
// up with one Get in the parent's data space or unique index.
//
// Checks follow PostgreSQL's MATCH SIMPLE and its timing: a child row with
// a NULL in its key is not checked; a new or changed child key, and a NO
// ACTION parent change, are checked at the end of the statement (so a
// statement may insert a child before its parent, or move a referenced key
// away and back); RESTRICT is checked at once; CASCADE, SET NULL and SET
// DEFAULT change the child rows through the child's own writer, so its
// indexes, checks and foreign keys apply to them in turn.

// fkLink is one foreign key seen from either end.
type fkLink struct {
	con    *catalog.Constraint
	child  *catalog.Table
	parent *catalog.Table
}

// fkState is a table writer's foreign-key work for one statement.
type fkState struct {
	out []*fkLink // constraints of this table (it is the child)
	in  []*fkLink // constraints of other tables referencing this one
	// pendingChild are child keys to look up in their parent at the end of
	// the statement; pendingParent are removed parent keys of NO ACTION
	// constraints, to find unreferenced or still present then.
	pendingChild  []fkPending
	pendingParent []fkPending
	// children are the writers of referencing tables, made on first use.
	children map[catalog.OID]*tableWriter
}

type fkPending struct {
	link *fkLink
	vals []types.Value // the key, in the constraint's column order
}

// foreignKeys gathers the foreign keys a writer of t must enforce, nil
// when there are none.
func (pc *planCtx) foreignKeys(t *catalog.Table) *fkState {
	st := &fkState{}
	for i := range t.Constraints {
		con := &t.Constraints[i]
		if con.Kind != "f" {
			continue
		}
		if parent, ok := pc.cat.TableByOID(con.RefTable); ok {
			st.out = append(st.out, &fkLink{con: con, child: t, parent: parent})
		}
	}
	for _, other := range pc.cat.Tables() {
		for i := range other.Constraints {
			con := &other.Constraints[i]
			if con.Kind == "f" && con.RefTable == t.OID {
				child := other
				if other.OID == t.OID {
					child = t
				}
				st.in = append(st.in, &fkLink{con: con, child: child, parent: t})
			}
		}
	}
	if len(st.out) == 0 && len(st.in) == 0 {
		return nil
	}
	return st
}

// keyOf extracts a constraint's key from a tuple by attnums; null reports
// a NULL in it (MATCH SIMPLE: such a key references nothing).
func keyOf(tuple []types.Value, attnums []int16) (vals []types.Value, null bool) {
	vals = make([]types.Value, len(attnums))
	for i, a := range attnums {
		if int(a-1) < len(tuple) {
			vals[i] = tuple[a-1]
		}
		if vals[i] == nil {
			null = true
		}
	}
	return vals, null
}

func sameKey(t *catalog.Table, attnums []int16, a, b []types.Value) bool {
	for i, at := range attnums {
		if (a[i] == nil) != (b[i] == nil) {
			return false
		}
		if a[i] != nil && types.Compare(t.ColumnByAttnum(at).Type, a[i], b[i]) != 0 {
			return false
		}
	}
	return true
}

// written records a child row's new key for checking at the end of the
// statement; old is the row it replaces (nil for an insert).
func (st *fkState) written(old, tuple []types.Value) {
	if st == nil {
		return
	}
	for _, l := range st.out {
		vals, null := keyOf(tuple, l.con.Columns)
		if null {
			continue
		}
		if old != nil {
			if prev, _ := keyOf(old, l.con.Columns); sameKey(l.child, l.con.Columns, prev, vals) {
				continue
			}
		}
		st.pendingChild = append(st.pendingChild, fkPending{link: l, vals: vals})
	}
}

// parentChanged applies the ON DELETE (tuple nil) or ON UPDATE actions of
// the constraints referencing this table to the children of the row old.
func (st *fkState) parentChanged(x *execCtx, old, tuple []types.Value) error {
	if st == nil {
		return nil
	}
	for _, l := range st.in {
		oldKey, null := keyOf(old, l.con.RefColumns)
		if null {
			continue
		}
		action := l.con.OnDelete
		var newKey []types.Value
		if tuple != nil {
			newKey, _ = keyOf(tuple, l.con.RefColumns)
			if sameKey(l.parent, l.con.RefColumns, oldKey, newKey) {
				continue
			}
			action = l.con.OnUpdate
		}
		switch action {
		case "", "NO ACTION":
			st.pendingParent = append(st.pendingParent, fkPending{link: l, vals: oldKey})
		case "RESTRICT":
			if found, err := l.firstChild(x, oldKey); err != nil || found != nil {
				if err != nil {
					return err
				}
				return l.stillReferenced(x, oldKey)
			}
		default:
			if err := st.actOnChildren(x, l, action, oldKey, newKey); err != nil {
				return err
			}
		}
	}
	return nil
}

// actOnChildren runs CASCADE, SET NULL or SET DEFAULT on the child rows
// holding key.
func (st *fkState) actOnChildren(x *execCtx, l *fkLink, action string, key, newKey []types.Value) error {
	w, err := st.childWriter(x, l.child)
	if err != nil {
		return err
	}
	for {
		// Take one row at a time: changing a row may move or remove index
		// entries the next lookup would otherwise have to step around.
		ck, err := l.firstChild(x, key)
		if err != nil || ck == nil {
			return err
		}
		if err := l.refuseActionOnFlowTable(x, w, key, newKey != nil); err != nil {
			return err
		}
		raw := x.tx.st.Space(catalog.DataSpace(l.child.OID)).Get(ck)
		_, vals, err := history.Decode(raw)
		if err != nil {
			return err
		}
		old := storedTuple(l.child, vals)
		if action == "CASCADE" && newKey == nil {
			if err := w.remove(x, ck, old); err != nil {
				return err
			}
			continue
		}
		updated := append([]types.Value(nil), old...)
		for i, a := range l.con.Columns {
			switch action {
			case "CASCADE":
				v, err := eval.CastValue(x, newKey[i], l.parent.ColumnByAttnum(l.con.RefColumns[i]).Type, l.child.ColumnByAttnum(a).Type, false)
				if err != nil {
					return err
				}
				updated[a-1] = v
			case "SET NULL":
				updated[a-1] = nil
			case "SET DEFAULT":
				v, err := w.defaultValue(x, a)
				if err != nil {
					return err
				}
				updated[a-1] = v
			}
		}
		if err := w.replace(x, ck, old, updated); err != nil {
			return err
		}
		newVals, _ := keyOf(updated, l.con.Columns)
		if oldVals, _ := keyOf(old, l.con.Columns); sameKey(l.child, l.con.Columns, oldVals, newVals) {
			// SET DEFAULT to the very key removed: the row still
			// references it, which PostgreSQL reports as NO ACTION would.
			st.pendingParent = append(st.pendingParent, fkPending{link: l, vals: key})
			return nil
		}
	}
}

// childWriter returns the writer of a referencing table for this statement.
func (st *fkState) childWriter(x *execCtx, t *catalog.Table) (*tableWriter, error) {
	if w, ok := st.children[t.OID]; ok {
		return w, nil
	}
	pc := x.planCtx()
	sc, _ := pc.cat.SchemaByOID(t.Schema)
	w, err := pc.newTableWriter(t, sc)
	if err != nil {
		return nil, err
	}
	if st.children == nil {
		st.children = map[catalog.OID]*tableWriter{}
	}
	st.children[t.OID] = w
	return w, nil
}

// endStatement runs the checks PostgreSQL makes at the end of a
// statement: every new child key has its parent row, and every removed
// NO ACTION parent key is back or unreferenced.
func (st *fkState) endStatement(x *execCtx) error {
	if st == nil {
		return nil
	}
	for _, w := range st.children {
		if err := w.finish(x); err != nil {
			return err
		}
	}
	pending := st.pendingChild
	st.pendingChild = nil
	for _, p := range pending {
		if x.deferCheck(p, false) { // foreignkey_deferred.go
			continue
		}
		ok, err := p.link.parentHas(x, p.vals)
		if err != nil {
			return err
		}
		if !ok {
			return p.link.notPresent(x, p.vals)
		}
	}
	removed := st.pendingParent
	st.pendingParent = nil
	for _, p := range removed {
		if x.deferCheck(p, true) {
			continue
		}
		if back, err := p.link.parentHas(x, p.vals); err != nil || back {
			if err != nil {
				return err
			}
			continue
		}
		found, err := p.link.firstChild(x, p.vals)
		if err != nil {
			return err
		}
		if found != nil {
			return p.link.stillReferenced(x, p.vals)
		}
	}
	return nil
}

// parentHas reports whether the parent has a row with the referenced key
// vals (given in the constraint's column order, as the child stores them).
func (l *fkLink) parentHas(x *execCtx, vals []types.Value) (bool, error) {
	cols := l.con.RefColumns
	byAttnum := map[int16]types.Value{}
	for i, a := range cols {
		want := l.parent.ColumnByAttnum(a).Type
		v, err := eval.CastValue(x, vals[i], l.child.ColumnByAttnum(l.con.Columns[i]).Type, want, false)
		if err != nil {
			return false, nil // cannot be a parent value
		}
		byAttnum[a] = v
	}
	if sameColumnSet(cols, l.parent.PrimaryKey) {
		var key []byte
		for _, a := range l.parent.PrimaryKey {
			var err error
			if key, err = rowcodec.AppendKey(key, byAttnum[a]); err != nil {
				return false, err
			}
		}
		if err := x.dependOn(catalog.DataSpace(l.parent.OID), key); err != nil {
			return false, err
		}
		return x.tx.st.Space(catalog.DataSpace(l.parent.OID)).Get(key) != nil, nil
	}
	for i := range l.parent.Indexes {
		ix := &l.parent.Indexes[i]
		if !ix.Unique || ix.Primary || !sameColumnSet(cols, ix.Columns) {
			continue
		}
		var key []byte
		for j, a := range ix.Columns {
			var err error
			if key, err = appendIndexKey(key, ix, j, byAttnum[a]); err != nil {
				return false, err
			}
		}
		if err := x.dependOn(catalog.IndexSpace(ix.OID), key); err != nil {
			return false, err
		}
		sp := x.tx.st.Space(catalog.IndexSpace(ix.OID))
		return sp != nil && sp.Get(key) != nil, nil
	}
	return false, pgerror.New(pgerror.InvalidForeignKey, "there is no unique constraint matching given keys for referenced table \"%s\"", l.parent.Name)
}

// firstChild returns the storage key of a child row holding the parent
// key vals (in the referenced columns' order), nil when there is none. It
// reads a child index that starts with the key's columns when there is one.
func (l *fkLink) firstChild(x *execCtx, vals []types.Value) ([]byte, error) {
	want := map[int16]types.Value{}
	for i, a := range l.con.Columns {
		v, err := eval.CastValue(x, vals[i], l.parent.ColumnByAttnum(l.con.RefColumns[i]).Type, l.child.ColumnByAttnum(a).Type, false)
		if err != nil {
			return nil, nil
		}
		want[a] = v
	}
	data := x.tx.st.Space(catalog.DataSpace(l.child.OID))
	if data == nil {
		return nil, nil
	}
	n := len(l.con.Columns)
	if len(l.child.PrimaryKey) >= n && sameColumnSet(l.con.Columns, l.child.PrimaryKey[:n]) {
		var prefix []byte
		for _, a := range l.child.PrimaryKey[:n] {
			var err error
			if prefix, err = rowcodec.AppendKey(prefix, want[a]); err != nil {
				return nil, err
			}
		}
		k, _ := data.Cursor().Seek(prefix)
		if k != nil && bytes.HasPrefix(k, prefix) {
			return append([]byte(nil), k...), nil
		}
		return nil, nil
	}
	for i := range l.child.Indexes {
		ix := &l.child.Indexes[i]
		if ix.Primary || len(ix.Columns) < n || !sameColumnSet(l.con.Columns, ix.Columns[:n]) {
			continue
		}
		sp := x.tx.st.Space(catalog.IndexSpace(ix.OID))
		if sp == nil {
			continue
		}
		var prefix []byte
		for j, a := range ix.Columns[:n] {
			var err error
			if prefix, err = appendIndexKey(prefix, ix, j, want[a]); err != nil {
				return nil, err
			}
		}
		k, v := sp.Cursor().Seek(prefix)
		if k != nil && bytes.HasPrefix(k, prefix) {
			return append([]byte(nil), v...), nil
		}
		return nil, nil
	}
	cur := data.Cursor()
	for k, raw := cur.First(); k != nil; k, raw = cur.Next() {
		if err := x.CheckCancel(); err != nil {
			return nil, err
		}
		_, tuple, err := history.Decode(raw)
		if err != nil {
			return nil, err
		}
		match := true
		for _, a := range l.con.Columns {
			v := tuple[a-1]
			if int(a-1) >= len(tuple) || v == nil || types.Compare(l.child.ColumnByAttnum(a).Type, v, want[a]) != 0 {
				match = false
				break
			}
		}
		if match {
			return append([]byte(nil), k...), nil
		}
	}
	return nil, nil
}

func sameColumnSet(a, b []int16) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for _, x := range a {
		found := false
		for _, y := range b {
			if x == y {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// describeKey renders "(a, b)=(1, 2)" for an error detail.
func describeKey(x *execCtx, t *catalog.Table, attnums []int16, vals []types.Value) string {
	names := make([]string, len(attnums))
	texts := make([]string, len(attnums))
	for i, a := range attnums {
		c := t.ColumnByAttnum(a)
		names[i] = c.Name
		if vals[i] == nil {
			texts[i] = "null"
		} else {
			texts[i] = x.sess.formatValue(x, c.Type, vals[i])
		}
	}
	return "(" + strings.Join(names, ", ") + ")=(" + strings.Join(texts, ", ") + ")"
}

func (l *fkLink) notPresent(x *execCtx, vals []types.Value) error {
	e := pgerror.New(pgerror.ForeignKeyViolation, "insert or update on table \"%s\" violates foreign key constraint \"%s\"", l.child.Name, l.con.Name).
		WithDetail("Key %s is not present in table \"%s\".", describeKey(x, l.child, l.con.Columns, vals), l.parent.Name)
	e.Table, e.Constraint = l.child.Name, l.con.Name
	return e
}

func (l *fkLink) stillReferenced(x *execCtx, vals []types.Value) error {
	e := pgerror.New(pgerror.ForeignKeyViolation, "update or delete on table \"%s\" violates foreign key constraint \"%s\" on table \"%s\"", l.parent.Name, l.con.Name, l.child.Name).
		WithDetail("Key %s is still referenced from table \"%s\".", describeKey(x, l.parent, l.con.RefColumns, vals), l.child.Name)
	e.Table, e.Constraint = l.parent.Name, l.con.Name
	return e
}

// ---------------------------------------------------------------- DDL

// addForeignKey adds a FOREIGN KEY constraint to a table being created or
// altered. t may be the parent itself (a self reference); an existing
// table's rows are checked against the new constraint.
func (x *execCtx) addForeignKey(pc *planCtx, t *catalog.Table, con ast.TableConstraint, oid catalog.OID) error {
	ref := con.Ref
	var attnums []int16
	for _, n := range con.Columns {
		col, ok := t.Column(n)
		if !ok {
			return pgerror.New(pgerror.UndefinedColumn, "column \"%s\" referenced in foreign key constraint does not exist", n)
		}
		attnums = append(attnums, col.Attnum)
	}
	parent := t
	// A reference to t's own name is to t when it names t's schema, or
	// names none and t is temporary (an unqualified name finds the
	// session's temporary tables first).
	self := ref.Table.Name() == t.Name
	if self && !(ref.Table.Schema() == "" && isTempTable(pc.cat, t)) {
		refSchema, _ := pc.creationSchema(ref.Table)
		self = refSchema != nil && refSchema.OID == t.Schema
	}
	if !self {
		p, _, err := pc.lookupTable(ref.Table)
		if err != nil {
			return pgerror.New(pgerror.UndefinedTable, "relation \"%s\" does not exist", ref.Table.Name())
		}
		parent = p
	}
	// Temporary tables go with their session, so neither kind may rely on
	// the other being there.
	if temp := isTempTable(pc.cat, t); temp != isTempTable(pc.cat, parent) {
		if temp {
			return pgerror.New(pgerror.InvalidTableDefinition, "constraints on temporary tables may reference only temporary tables")
		}
		return pgerror.New(pgerror.InvalidTableDefinition, "constraints on permanent tables may reference only permanent tables")
	}
	if parent.Kind == catalog.KindView {
		return pgerror.New(pgerror.WrongObjectType, "referenced relation \"%s\" is not a table", parent.Name)
	}
	var refAttnums []int16
	if len(ref.Columns) == 0 {
		if len(parent.PrimaryKey) == 0 {
			return pgerror.New(pgerror.UndefinedObject, "there is no primary key for referenced table \"%s\"", parent.Name)
		}
		refAttnums = append(refAttnums, parent.PrimaryKey...)
	} else {
		for _, n := range ref.Columns {
			col, ok := parent.Column(n)
			if !ok {
				return pgerror.New(pgerror.UndefinedColumn, "column \"%s\" referenced in foreign key constraint does not exist", n)
			}
			refAttnums = append(refAttnums, col.Attnum)
		}
	}
	if len(refAttnums) != len(attnums) {
		return pgerror.New(pgerror.InvalidForeignKey, "number of referencing and referenced columns for foreign key disagree")
	}
	unique := sameColumnSet(refAttnums, parent.PrimaryKey)
	for _, ix := range parent.Indexes {
		if ix.Unique && sameColumnSet(refAttnums, ix.Columns) {
			unique = true
		}
	}
	if !unique {
		return pgerror.New(pgerror.InvalidForeignKey, "there is no unique constraint matching given keys for referenced table \"%s\"", parent.Name)
	}
	// A key that refers to a table tells which keys it holds: PostgreSQL
	// asks REFERENCES on it (its checkFkeyPermissions), as cdcdb does now
	// that roles other than superusers create tables.
	if err := x.requireTablePrivilege(parent, catalog.PrivReferences); err != nil {
		return err
	}
	name := con.Name
	if name == "" {
		name = uniqueConstraintName(pc, t, t.Name+"_"+strings.Join(con.Columns, "_")+"_fkey")
	}
	for i, a := range attnums {
		ct, pt := t.ColumnByAttnum(a).Type, parent.ColumnByAttnum(refAttnums[i]).Type
		if !keysComparable(ct.OID, pt.OID) {
			return pgerror.New(pgerror.DatatypeMismatch, "foreign key constraint \"%s\" cannot be implemented", name).
				WithDetail("Key columns \"%s\" and \"%s\" are of incompatible types: %s and %s.", t.ColumnByAttnum(a).Name, parent.ColumnByAttnum(refAttnums[i]).Name, eval.TypeName(ct), eval.TypeName(pt))
		}
	}
	c := catalog.Constraint{OID: oid, Name: name, Kind: "f", Columns: attnums, RefTable: parent.OID, RefColumns: refAttnums,
		OnDelete: ref.OnDelete, OnUpdate: ref.OnUpdate, Deferrable: ref.Deferrable, InitiallyDeferred: ref.InitiallyDeferred}
	if err := refuseWritingForeignKey(pc.cat, t, &c); err != nil {
		return err
	}
	t.Constraints = append(t.Constraints, c)
	if x.tx.st.Space(catalog.DataSpace(t.OID)) == nil {
		return nil // a new table: no rows yet
	}
	return x.validateForeignKey(&fkLink{con: &t.Constraints[len(t.Constraints)-1], child: t, parent: parent})
}

// keysComparable reports whether a child key column can reference a
// parent column. PostgreSQL needs an equality operator of the parent
// column's btree operator family taking the child's type, or else an
// implicit cast of the child's type to the parent's: so an integer may
// reference a numeric but not the reverse.
func keysComparable(child, parent types.OID) bool {
	return child == parent || btreeFamily(child) == btreeFamily(parent) || eval.ImplicitCastOK(child, parent)
}

// btreeFamily names the btree operator family of PostgreSQL 15 that holds
// a type's equality, for the families with several types in them.
func btreeFamily(t types.OID) string {
	switch t {
	case types.Int2, types.Int4, types.Int8:
		return "integer_ops"
	case types.Float4, types.Float8:
		return "float_ops"
	case types.Text, types.Varchar:
		return "text_ops"
	case types.Date, types.Timestamp, types.Timestamptz:
		return "datetime_ops"
	}
	return "oid " + strconv.FormatUint(uint64(t), 10)
}

// uniqueConstraintName makes a generated constraint name unique within
// the table, as PostgreSQL's ChooseConstraintName does, by appending 1, 2...
func uniqueConstraintName(pc *planCtx, t *catalog.Table, base string) string {
	taken := func(n string) bool {
		for _, c := range t.Constraints {
			if c.Name == n {
				return true
			}
		}
		for _, ix := range t.Indexes {
			if ix.Name == n {
				return true
			}
		}
		_, rel := pc.cat.Table(t.Schema, n)
		return rel
	}
	name := truncateIdent(base)
	for i := 1; taken(name); i++ {
		suffix := strconv.Itoa(i)
		name = truncateIdent(base[:min(len(base), maxIdentifierLength-len(suffix))]) + suffix
	}
	return name
}

// validateForeignKey checks an existing table's rows against a new
// constraint.
func (x *execCtx) validateForeignKey(l *fkLink) error {
	cur := x.tx.st.Space(catalog.DataSpace(l.child.OID)).Cursor()
	for k, raw := cur.First(); k != nil; k, raw = cur.Next() {
		if err := x.CheckCancel(); err != nil {
			return err
		}
		_, vals, err := history.Decode(raw)
		if err != nil {
			return err
		}
		key, null := keyOf(storedTuple(l.child, vals), l.con.Columns)
		if null {
			continue
		}
		ok, err := l.parentHas(x, key)
		if err != nil {
			return err
		}
		if !ok {
			return l.notPresent(x, key)
		}
	}
	return nil
}

// referencingConstraints lists the foreign keys of other tables that
// reference t, skipping tables in except (dropped or truncated with it).
func referencingConstraints(cat *catalog.Snapshot, t *catalog.Table, except map[catalog.OID]bool) []fkLink {
	var out []fkLink
	for _, other := range cat.Tables() {
		if other.OID == t.OID || except[other.OID] {
			continue
		}
		for i := range other.Constraints {
			if c := &other.Constraints[i]; c.Kind == "f" && c.RefTable == t.OID {
				out = append(out, fkLink{con: c, child: other, parent: t})
			}
		}
	}
	return out
}

// dropReferencingKeys handles the foreign keys of other tables that
// reference t when DROP removes it: an error unless CASCADE, which drops
// those constraints (the tables stay). Tables dropped by the same
// statement do not count.
func (x *execCtx) dropReferencingKeys(pc *planCtx, t *catalog.Table, st *ast.Drop) error {
	dropping := map[catalog.OID]bool{}
	for _, n := range st.Names {
		if other, _, err := pc.lookupTable(n); err == nil {
			dropping[other.OID] = true
		}
	}
	refs := referencingConstraints(x.tx.catalog(), t, dropping)
	if len(refs) == 0 {
		return nil
	}
	if !st.Cascade {
		return pgerror.New(pgerror.DependentObjectsStillExist, "cannot drop table %s because other objects depend on it", t.Name).
			WithDetail("constraint %s on table %s depends on table %s", refs[0].con.Name, refs[0].child.Name, t.Name).
			WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	for _, r := range refs {
		child, _ := x.tx.catalog().TableByOID(r.child.OID)
		c := child.Clone()
		for i, con := range c.Constraints {
			if con.OID == r.con.OID {
				c.Constraints = append(c.Constraints[:i:i], c.Constraints[i+1:]...)
				break
			}
		}
		if err := ed.PutTable(c); err != nil {
			return err
		}
		x.notice("drop cascades to constraint %s on table %s", r.con.Name, r.child.Name)
	}
	return nil
}

// truncateSet resolves the tables TRUNCATE empties: those named and, with
// CASCADE, every table referencing one of them; without CASCADE a table
// referenced from outside the set cannot be emptied.
func (x *execCtx) truncateSet(pc *planCtx, st *ast.Truncate) ([]*catalog.Table, error) {
	var tables []*catalog.Table
	in := map[catalog.OID]bool{}
	for _, n := range st.Tables {
		t, _, err := pc.lookupTable(n)
		if err != nil {
			return nil, pgerror.As(err).WithPosition(0)
		}
		if !in[t.OID] {
			in[t.OID] = true
			tables = append(tables, t)
		}
	}
	for i := 0; i < len(tables); i++ {
		for _, r := range referencingConstraints(pc.cat, tables[i], in) {
			if in[r.child.OID] {
				continue
			}
			if !st.Cascade {
				return nil, pgerror.New(pgerror.FeatureNotSupported, "cannot truncate a table referenced in a foreign key constraint").
					WithDetail("Table \"%s\" references \"%s\".", r.child.Name, r.parent.Name).
					WithHint("Truncate table \"%s\" at the same time, or use TRUNCATE ... CASCADE.", r.child.Name)
			}
			in[r.child.OID] = true
			tables = append(tables, r.child)
			x.notice("truncate cascades to table \"%s\"", r.child.Name)
		}
	}
	return tables, nil
}

// distinctNames drops repeated names, keeping the first of each.
func distinctNames(names []string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// ------------------------------------------------- flows and FK actions

// A flow's target must equal the replay of every event its source received
// (spec §2): its source is an append-only change log and its target is
// written by the flow alone. A foreign key whose ON DELETE or ON UPDATE
// action is CASCADE, SET NULL or SET DEFAULT rewrites or deletes rows of its
// referencing table when the referenced row changes, behind the flow's back,
// so such a key may not sit on a flow's source or on a streaming table:
// adding one there is refused, CREATE FLOW refuses a source or target that
// has one, and (for catalogs written before those checks) the action itself
// is refused when it would touch a row. NO ACTION and RESTRICT only ever
// refuse the referenced table's change, so they stay allowed. The SQLSTATE
// is 42809, the one a direct UPDATE or DELETE of a source gets.

// writingAction names the action of a foreign key that writes its
// referencing table ("ON DELETE CASCADE", ...), "" when it has none.
func writingAction(con *catalog.Constraint) string {
	for _, a := range [...]struct{ clause, action string }{{"ON DELETE", con.OnDelete}, {"ON UPDATE", con.OnUpdate}} {
		switch a.action {
		case "CASCADE", "SET NULL", "SET DEFAULT":
			return a.clause + " " + a.action
		}
	}
	return ""
}

// refuseWritingForeignKey refuses a new foreign key on t whose action
// would write t, when t is a streaming table or the source of a flow.
func refuseWritingForeignKey(cat *catalog.Snapshot, t *catalog.Table, con *catalog.Constraint) error {
	action := writingAction(con)
	if action == "" {
		return nil
	}
	if t.Kind == catalog.KindStreaming {
		return pgerror.New(pgerror.WrongObjectType, "foreign key constraint \"%s\" of streaming table \"%s\" cannot have %s", con.Name, t.Name, action).
			WithDetail("%s would change rows of \"%s\" when rows of the referenced table change; a streaming table is written only by its AUTO CDC flow.", action, t.Name).
			WithHint("Use %s NO ACTION or RESTRICT, the actions that only refuse the referenced table's change.", actionClause(action))
	}
	if flows := cat.FlowsFromOfKind(t.OID, catalog.FlowChanges); len(flows) > 0 {
		return pgerror.New(pgerror.WrongObjectType, "foreign key constraint \"%s\" of table \"%s\" cannot have %s because flow \"%s\" reads the table", con.Name, t.Name, action, flows[0].Name).
			WithDetail("%s would change rows of the change log \"%s\" without the flow seeing it, and its target would no longer be the replay of the change events.", action, t.Name).
			WithHint("The source of an AUTO CDC flow is append-only; use %s NO ACTION or RESTRICT.", actionClause(action))
	}
	return nil
}

// refuseFlowOverWritingForeignKey refuses CREATE FLOW when its source (role
// "read") or its target (role "write": one declared before such keys were
// refused on streaming tables) has a foreign key whose action writes it.
func refuseFlowOverWritingForeignKey(flow string, t *catalog.Table, role string) *pgerror.Error {
	for i := range t.Constraints {
		con := &t.Constraints[i]
		if con.Kind != "f" {
			continue
		}
		action := writingAction(con)
		if action == "" {
			continue
		}
		return pgerror.New(pgerror.WrongObjectType, "flow \"%s\" cannot %s table \"%s\": its foreign key constraint \"%s\" has %s", flow, role, t.Name, con.Name, action).
			WithDetail("%s would change rows of \"%s\" without the flow seeing it, and the target would no longer be the replay of the source's change events.", action, t.Name).
			WithHint("Drop the constraint (ALTER TABLE %s DROP CONSTRAINT %s), or replace it by one with %s NO ACTION or RESTRICT.", t.Name, con.Name, actionClause(action))
	}
	return nil
}

// refuseActionOnFlowTable is the run-time side: the action of l is about
// to change a row of a flow's source or of a streaming table, which a
// catalog from before the DDL checks may still allow. w is the writer of
// the referencing table; key is the referenced key that went away.
func (l *fkLink) refuseActionOnFlowTable(x *execCtx, w *tableWriter, key []types.Value, update bool) error {
	action := "ON DELETE " + l.con.OnDelete
	if update {
		action = "ON UPDATE " + l.con.OnUpdate
	}
	var e *pgerror.Error
	changeFlows := x.tx.catalog().FlowsFromOfKind(l.child.OID, catalog.FlowChanges)
	switch {
	case l.child.Kind == catalog.KindStreaming:
		e = pgerror.New(pgerror.WrongObjectType, "%s of foreign key constraint \"%s\" cannot change streaming table \"%s\"", action, l.con.Name, l.child.Name).
			WithHint("A streaming table is written only by its AUTO CDC flow; drop the constraint.")
	case w.flowSource && len(changeFlows) > 0:
		e = pgerror.New(pgerror.WrongObjectType, "%s of foreign key constraint \"%s\" cannot change table \"%s\" because flow \"%s\" reads it", action, l.con.Name, l.child.Name, changeFlows[0].Name).
			WithHint("The source of an AUTO CDC flow is append-only; replace the constraint by one with %s NO ACTION or RESTRICT.", actionClause(action))
	default:
		return nil
	}
	e = e.WithDetail("Key %s is still referenced from table \"%s\".", describeKey(x, l.parent, l.con.RefColumns, key), l.child.Name)
	e.Table, e.Constraint = l.child.Name, l.con.Name
	return e
}

// actionClause is "ON DELETE" of "ON DELETE CASCADE".
func actionClause(action string) string {
	return strings.Join(strings.Fields(action)[:2], " ")
}
