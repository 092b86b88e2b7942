package sql

import (
	"cdcdb/acl"
	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// drop runs DROP TABLE / VIEW / INDEX / SCHEMA / FLOW / STREAMING TABLE.
func (x *execCtx) drop(st *ast.Drop, out *resultSink) (string, error) {
	pc := x.planCtx()
	tag := "DROP " + string(st.Kind)
	if st.Kind == ast.ObjectStreamingTable {
		tag = "DROP TABLE"
	}
	for _, name := range st.Names {
		var err error
		switch st.Kind {
		case ast.ObjectTable, ast.ObjectView, ast.ObjectStreamingTable:
			err = x.dropRelation(pc, name, st)
		case ast.ObjectSchema:
			err = x.dropSchema(name, st)
		case ast.ObjectIndex:
			err = x.dropIndex(pc, name, st)
		case ast.ObjectFlow:
			err = x.dropFlow(pc, name, st)
		case ast.ObjectSequence:
			err = x.dropSequence(pc, name, st) // ddl_sequence.go
		default:
			err = pgerror.New(pgerror.FeatureNotSupported, "DROP %s is not supported", st.Kind)
		}
		if err != nil {
			return "", err
		}
		pc.cat = x.tx.catalog()
	}
	return tag, nil
}

func (x *execCtx) dropRelation(pc *planCtx, name ast.QualifiedName, st *ast.Drop) error {
	t, _, err := pc.lookupRelation(name)
	if err != nil {
		if st.IfExists && pgerror.CodeOf(err) == pgerror.UndefinedTable {
			x.notice("%s \"%s\" does not exist, skipping", relationWord(st.Kind), name.Name())
			return nil
		}
		if pgerror.CodeOf(err) == pgerror.UndefinedTable {
			return pgerror.New(pgerror.UndefinedTable, "%s \"%s\" does not exist", relationWord(st.Kind), name.Name())
		}
		return err
	}
	if err := x.checkOwner(t); err != nil {
		return err
	}
	switch {
	case st.Kind == ast.ObjectView && t.Kind != catalog.KindView:
		return pgerror.New(pgerror.WrongObjectType, "\"%s\" is not a view", t.Name).WithHint("Use DROP TABLE to remove a table.")
	case st.Kind != ast.ObjectView && t.Kind == catalog.KindView:
		return pgerror.New(pgerror.WrongObjectType, "\"%s\" is not a table", t.Name).WithHint("Use DROP VIEW to remove a view.")
	}
	if err := refuseSourceTableChange(x.tx.catalog(), t, "drop"); err != nil {
		return err
	}
	flows := append(x.tx.catalog().FlowsFrom(t.OID), x.tx.catalog().FlowsInto(t.OID)...)
	for _, f := range x.tx.catalog().Flows() {
		if f.Source != t.OID && f.Target != t.OID && f.ReadsTable(t.OID) {
			flows = append(flows, f) // a snapshot query reads it
		}
	}
	if len(flows) > 0 {
		if !st.Cascade {
			return pgerror.New(pgerror.DependentObjectsStillExist, "cannot drop table %s because other objects depend on it", t.Name).
				WithDetail("flow %s depends on table %s", flows[0].Name, t.Name).
				WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
		}
		for _, f := range flows {
			if _, still := x.tx.catalog().FlowsFrom(f.Source), true; still {
				if err := x.removeFlow(f); err != nil {
					return err
				}
				x.notice("drop cascades to flow %s", f.Name)
			}
		}
	}
	if err := x.dropDependentViews(pc, t, st); err != nil {
		return err
	}
	if err := x.dropReferencingKeys(pc, t, st); err != nil {
		return err
	}
	return x.removeTable(t)
}

func relationWord(k ast.ObjectKind) string {
	if k == ast.ObjectView {
		return "view"
	}
	return "table"
}

// removeTable deletes a relation and all of its storage.
func (x *execCtx) removeTable(t *catalog.Table) error {
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	if err := history.Drop(x.tx.st, t.OID); err != nil {
		return err
	}
	for _, ix := range t.Indexes {
		if x.tx.st.Space(catalog.IndexSpace(ix.OID)) != nil {
			if err := x.tx.st.DropSpace(catalog.IndexSpace(ix.OID)); err != nil {
				return err
			}
		}
	}
	for _, c := range t.Columns {
		if c.Sequence != "" && x.tx.st.Space(sequenceSpace(t.OID, c.Attnum)) != nil {
			if err := x.tx.st.DropSpace(sequenceSpace(t.OID, c.Attnum)); err != nil {
				return err
			}
		}
	}
	if err := x.dropOwnedSequences(t); err != nil { // ddl_sequence.go
		return err
	}
	if err := x.dropExprIndexSpaces(t); err != nil { // ddl_exprindex.go
		return err
	}
	return ed.DropTable(t.OID)
}

func (x *execCtx) dropSchema(name ast.QualifiedName, st *ast.Drop) error {
	cat := x.tx.catalog()
	sc, ok := cat.Schema(name.Name())
	if !ok {
		if st.IfExists {
			x.notice("schema \"%s\" does not exist, skipping", name.Name())
			return nil
		}
		return pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", name.Name())
	}
	if sc.System {
		return pgerror.New(pgerror.DependentObjectsStillExist, "cannot drop schema %s because it is required by the database system", sc.Name)
	}
	if !isTempSchemaName(sc.Name) && !x.sess.isSuperuser(cat) {
		// Schemas belong to the bootstrap superuser (cdcdb has no CREATE
		// SCHEMA ... AUTHORIZATION).
		return pgerror.New(pgerror.InsufficientPrivilege, "must be owner of schema %s", sc.Name)
	}
	if err := x.dropSchemaSequences(sc, st.Cascade); err != nil { // ddl_sequence.go
		return err
	}
	var inside []*catalog.Table
	for _, t := range cat.Tables() {
		if t.Schema == sc.OID {
			inside = append(inside, t)
		}
	}
	var flows []*catalog.Flow
	for _, f := range cat.Flows() {
		if f.Schema == sc.OID {
			flows = append(flows, f)
		}
	}
	if (len(inside) > 0 || len(flows) > 0) && !st.Cascade {
		what := ""
		if len(inside) > 0 {
			what = "table " + sc.Name + "." + inside[0].Name
		} else {
			what = "flow " + sc.Name + "." + flows[0].Name
		}
		return pgerror.New(pgerror.DependentObjectsStillExist, "cannot drop schema %s because other objects depend on it", sc.Name).
			WithDetail("%s depends on schema %s", what, sc.Name).WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	for _, f := range flows {
		if err := x.removeFlow(f); err != nil {
			return err
		}
	}
	for _, t := range inside {
		for _, f := range x.tx.catalog().FlowsFrom(t.OID) {
			if err := x.removeFlow(f); err != nil {
				return err
			}
		}
		for _, f := range x.tx.catalog().FlowsInto(t.OID) {
			if err := x.removeFlow(f); err != nil {
				return err
			}
		}
		if err := x.removeTable(t); err != nil {
			return err
		}
	}
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	return ed.DropSchema(sc.OID)
}

func (x *execCtx) dropIndex(pc *planCtx, name ast.QualifiedName, st *ast.Drop) error {
	for _, t := range x.tx.catalog().Tables() {
		for i, ix := range t.Indexes {
			if ix.Name != name.Name() {
				continue
			}
			if ix.Primary || ix.Unique && hasConstraintIndex(t, ix.OID) {
				return pgerror.New(pgerror.DependentObjectsStillExist, "cannot drop index %s because constraint %s on table %s requires it", ix.Name, ix.Name, t.Name).
					WithHint("You can drop constraint %s on table %s instead.", ix.Name, t.Name)
			}
			c := t.Clone()
			c.Indexes = append(c.Indexes[:i:i], t.Indexes[i+1:]...)
			if x.tx.st.Space(catalog.IndexSpace(ix.OID)) != nil {
				if err := x.tx.st.DropSpace(catalog.IndexSpace(ix.OID)); err != nil {
					return err
				}
			}
			ed, err := x.tx.edit()
			if err != nil {
				return err
			}
			return ed.PutTable(c)
		}
	}
	if done, err := x.dropExprIndex(name); done || err != nil { // ddl_exprindex.go
		return err
	}
	if st.IfExists {
		x.notice("index \"%s\" does not exist, skipping", name.Name())
		return nil
	}
	return pgerror.New(pgerror.UndefinedObject, "index \"%s\" does not exist", name.Name())
}

func hasConstraintIndex(t *catalog.Table, ix catalog.OID) bool {
	for _, c := range t.Constraints {
		if c.Index == ix {
			return true
		}
	}
	return false
}

// createIndex builds a secondary index over the table's existing rows.
func (x *execCtx) createIndex(st *ast.CreateIndex) error {
	pc := x.planCtx()
	t, _, err := pc.lookupRelation(st.Table)
	if err != nil {
		return err
	}
	if err := x.checkOwner(t); err != nil {
		return err
	}
	if t.Kind == catalog.KindView {
		return pgerror.New(pgerror.WrongObjectType, "cannot create index on relation \"%s\"", t.Name).WithDetail("This operation is not supported for views.")
	}
	if isExprIndex(st) {
		return x.createExprIndex(pc, t, st) // ddl_exprindex.go
	}
	name := st.Name
	var cols []int16
	var desc []bool
	var colNames []string
	for _, item := range st.Columns {
		ref, ok := item.Expr.(*ast.ColumnRef)
		if !ok || len(ref.Parts) != 1 {
			return pgerror.New(pgerror.FeatureNotSupported, "only indexes on plain columns are supported").WithPosition(item.Expr.Position() + 1)
		}
		col, ok := t.Column(ref.Parts[0])
		if !ok {
			return pgerror.New(pgerror.UndefinedColumn, "column \"%s\" does not exist", ref.Parts[0])
		}
		cols = append(cols, col.Attnum)
		desc = append(desc, item.Desc)
		colNames = append(colNames, col.Name)
	}
	if name == "" {
		suffix := "_idx"
		if st.Unique {
			suffix = "_key"
		}
		name = truncateIdent(t.Name + "_" + joinNames(colNames) + suffix)
	}
	for _, other := range x.tx.catalog().Tables() {
		if other.Schema != t.Schema {
			continue
		}
		if other.Name == name {
			return pgerror.New(pgerror.DuplicateTable, "relation \"%s\" already exists", name)
		}
		for _, ix := range other.Indexes {
			if ix.Name == name {
				if st.IfNotExists {
					x.notice("relation \"%s\" already exists, skipping", name)
					return nil
				}
				return pgerror.New(pgerror.DuplicateTable, "relation \"%s\" already exists", name)
			}
		}
	}
	if err := checkIndexKeyCount(len(cols)); err != nil {
		return err
	}
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	oid, err := ed.NewOID()
	if err != nil {
		return err
	}
	ix := catalog.Index{OID: oid, Name: name, Columns: cols, Desc: desc, Unique: st.Unique}
	sp, err := x.tx.st.CreateSpace(catalog.IndexSpace(oid))
	if err != nil {
		return err
	}
	// Fill the index from the table's rows.
	data := x.tx.st.Space(catalog.DataSpace(t.OID))
	cur := data.Cursor()
	w := &tableWriter{table: t, schema: nil}
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		if err := x.CheckCancel(); err != nil {
			return err
		}
		tuple, err := decodeTuple(t, v)
		if err != nil {
			return err
		}
		key, ok, err := indexKey(&ix, k, tuple)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if ix.Unique && sp.Get(key) != nil {
			sc, _ := x.tx.catalog().SchemaByOID(t.Schema)
			w.schema = sc
			e := pgerror.As(w.duplicateKey(x, cols, tuple, name))
			return pgerror.New(pgerror.UniqueViolation, "could not create unique index \"%s\"", name).WithDetail("%s", replacePrefix(e.Detail, "Key ", "Key "))
		}
		if err := sp.Put(key, append([]byte(nil), k...)); err != nil {
			return err
		}
	}
	c := t.Clone()
	c.Indexes = append(c.Indexes, ix)
	return ed.PutTable(c)
}

func replacePrefix(s, old, new string) string {
	if len(s) >= len(old) && s[:len(old)] == old {
		return new + s[len(old):]
	}
	return s
}

func joinNames(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += "_"
		}
		out += n
	}
	return out
}

// createView stores a view's query after checking that it plans.
func (x *execCtx) createView(st *ast.CreateView) error {
	pc := x.planCtx()
	schema, err := pc.creationSchema(st.Name)
	if err != nil {
		return err
	}
	if err := x.requireCreateIn(schema); err != nil {
		return err
	}
	p, err := pc.planQuery(st.Query, nil)
	if err != nil {
		return err
	}
	if err := pc.refuseTempReads(st.Query); err != nil {
		return err
	}
	name := truncateIdent(st.Name.Name())
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	existing, exists := pc.cat.Table(schema.OID, name)
	if exists && !(st.OrReplace && existing.Kind == catalog.KindView) || !exists && sequenceNamed(pc.cat, schema.OID, name) { // ddl_sequence.go
		return pgerror.New(pgerror.DuplicateTable, "relation \"%s\" already exists", name)
	}
	var oid, rowType catalog.OID
	owner, grants := x.sess.currentRoleOID(x.tx.catalog()), x.defaultTableACL(schema.OID)
	if exists {
		// CREATE OR REPLACE VIEW is its owner's, and keeps the view's
		// owner and grants, as in PostgreSQL.
		if err := x.checkOwner(existing); err != nil {
			return err
		}
		oid, rowType = existing.OID, existing.RowType
		owner, grants = acl.TableOwner(existing), existing.ACL
	} else {
		if oid, err = ed.NewOID(); err != nil {
			return err
		}
		if rowType, err = ed.NewOID(); err != nil {
			return err
		}
	}
	t := &catalog.Table{OID: oid, Schema: schema.OID, Name: name, Kind: catalog.KindView, NextAttnum: 1, RowType: rowType, ViewQuery: st.Text,
		Owner: owner, ACL: grants, ViewSearchPath: viewSearchPath(pc)}
	for i, c := range p.columns() {
		n := c.name
		if i < len(st.Columns) {
			n = st.Columns[i]
		}
		t.Columns = append(t.Columns, catalog.Column{Name: n, Type: c.t, Attnum: t.NextAttnum})
		t.NextAttnum++
	}
	return ed.PutTable(t)
}

// truncate empties tables (and, for a flow source, is refused: a change log
// is append-only).
func (x *execCtx) truncate(st *ast.Truncate) error {
	pc := x.planCtx()
	tables, err := x.truncateSet(pc, st)
	if err != nil {
		return err
	}
	for _, t := range tables {
		if err := x.requireTablePrivilege(t, catalog.PrivTruncate); err != nil {
			return err
		}
		if err := pc.refuseDirectWrite(t, "truncate", -1); err != nil {
			return err
		}
		if err := x.truncateTable(t); err != nil {
			return err
		}
	}
	if st.RestartIdentity {
		return x.restartOwnedSequences(tables) // ddl_sequence.go
	}
	return nil
}

// truncateTable empties one table and its indexes.
func (x *execCtx) truncateTable(t *catalog.Table) error {
	// Every row version ends now; the history keeps them.
	rows, err := x.tx.rows(t)
	if err != nil {
		return err
	}
	var keys [][]byte
	c := rows.Data().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		keys = append(keys, append([]byte(nil), k...))
	}
	if len(keys) == 0 {
		// Its indexes are empty too. (ON COMMIT DELETE ROWS, run at every
		// commit, mostly finds its tables so.)
		return nil
	}
	for _, k := range keys {
		if err := rows.Delete(k); err != nil {
			return err
		}
	}
	for _, ix := range t.Indexes {
		if ix.Primary {
			continue
		}
		if err := x.tx.st.DropSpace(catalog.IndexSpace(ix.OID)); err != nil {
			return err
		}
		if _, err := x.tx.st.CreateSpace(catalog.IndexSpace(ix.OID)); err != nil {
			return err
		}
	}
	return x.clearExprIndexes(t) // ddl_exprindex.go
}

// alterTable applies ALTER TABLE actions in order to a copy of the table.
func (x *execCtx) alterTable(st *ast.AlterTable) error {
	pc := x.planCtx()
	t, _, err := pc.lookupRelation(st.Name)
	if err != nil {
		if o, ok := ownerToAlone(st.Actions); ok && pgerror.CodeOf(err) == pgerror.UndefinedTable {
			// pg_dump writes ALTER TABLE ... OWNER TO for sequences too.
			if done, err := x.sequenceOwnerTo(pc, st.Name, o); done { // ddl_owner.go
				return err
			}
		}
		if st.IfExists && pgerror.CodeOf(err) == pgerror.UndefinedTable {
			x.notice("relation \"%s\" does not exist, skipping", st.Name.Name())
			return nil
		}
		return err
	}
	if o, ok := ownerToAlone(st.Actions); ok || o != nil {
		if !ok {
			return pgerror.New(pgerror.FeatureNotSupported, "OWNER TO together with other ALTER TABLE actions is not supported")
		}
		if err := x.changeTableOwner(t, o); err != nil { // schemaprivs.go
			return err
		}
		return x.moveOwnedSequences(t) // ddl_owner.go
	}
	if t.Kind == catalog.KindView {
		return pgerror.New(pgerror.WrongObjectType, "\"%s\" is not a table", t.Name)
	}
	if err := x.checkOwner(t); err != nil {
		return err
	}
	if err := refuseSourceTableChange(x.tx.catalog(), t, "alter"); err != nil {
		return err
	}
	if err := refuseColumnChangesUnderFlow(x.tx.catalog(), t, st.Actions); err != nil {
		return err
	}
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	c := t.Clone()
	typeChanged := map[int16]bool{} // columns an earlier ALTER COLUMN TYPE of this statement changed
	for _, a := range st.Actions {
		switch a := a.(type) {
		case *ast.AddColumn:
			if _, exists := c.Column(a.Column.Name); exists {
				if a.IfNotExists {
					x.notice("column \"%s\" of relation \"%s\" already exists, skipping", a.Column.Name, c.Name)
					continue
				}
				return pgerror.New(pgerror.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", a.Column.Name, c.Name)
			}
			col, err := pc.columnFromDef(c, &a.Column)
			if err != nil {
				return err
			}
			primaryKey := a.Column.PrimaryKey
			for _, con := range a.Column.Constraints {
				switch con.Kind {
				case ast.ConstraintNotNull:
					col.NotNull = true
				case ast.ConstraintPrimaryKey:
					primaryKey = true
				}
			}
			if primaryKey {
				if len(c.PrimaryKey) > 0 {
					return pgerror.New(pgerror.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", c.Name)
				}
				return pgerror.New(pgerror.FeatureNotSupported, "adding a primary key to an existing table is not supported")
			}
			c.Columns = append(c.Columns, col)
			if col.Sequence != "" {
				// Before filling: the existing rows draw from it.
				if _, err := x.tx.st.CreateSpace(sequenceSpace(c.OID, col.Attnum)); err != nil {
					return err
				}
			}
			if err := x.fillNewColumn(pc, c, col); err != nil {
				return err
			}
			// Its UNIQUE, CHECK and REFERENCES hold for the rows it was
			// just filled in, as ADD CONSTRAINT's do.
			if cons := columnConstraints(&a.Column); len(cons) > 0 {
				before := c.Clone()
				for _, con := range cons {
					if err := x.addConstraint(pc, ed, c, con); err != nil {
						return err
					}
				}
				if err := x.validateNewConstraint(pc, before, c); err != nil {
					return err
				}
			}
		case *ast.DropColumn:
			col, ok := c.Column(a.Name)
			if !ok {
				if a.IfExists {
					x.notice("column \"%s\" of relation \"%s\" does not exist, skipping", a.Name, c.Name)
					continue
				}
				return pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", a.Name, c.Name)
			}
			if err := refuseExprIndexColumn(c, col, "drop"); err != nil { // ddl_exprindex.go
				return err
			}
			for _, k := range c.PrimaryKey {
				if k == col.Attnum {
					return pgerror.New(pgerror.DependentObjectsStillExist, "cannot drop column %s of table %s because other objects depend on it", a.Name, c.Name).
						WithDetail("constraint %s on table %s depends on column %s", pkIndexName(c), c.Name, a.Name)
				}
			}
			if err := x.dropColumnDependents(pc, c, col.Attnum, col.Name, a.Cascade); err != nil { // ddl_dropcolumn.go
				return err
			}
			col.Dropped = true
			if err := x.dropColumnSequences(c, col.Attnum); err != nil { // ddl_sequence.go
				return err
			}
			col.Name = "........pg.dropped." + itoa(int(col.Attnum)) + "........"
		case *ast.RenameColumn:
			col, ok := c.Column(a.Old)
			if !ok {
				return pgerror.New(pgerror.UndefinedColumn, "column \"%s\" does not exist", a.Old)
			}
			if err := refuseExprIndexColumn(c, col, "rename"); err != nil { // ddl_exprindex.go
				return err
			}
			if _, exists := c.Column(a.New); exists {
				return pgerror.New(pgerror.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", a.New, c.Name)
			}
			col.Name = a.New
		case *ast.RenameTable:
			if _, exists := x.tx.catalog().Table(c.Schema, a.New); exists {
				return pgerror.New(pgerror.DuplicateTable, "relation \"%s\" already exists", a.New)
			}
			c.Name = a.New
		case *ast.AlterColumn:
			col, ok := c.Column(a.Column)
			if !ok {
				return pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", a.Column, c.Name)
			}
			switch {
			case col.Identity != "" && (a.SetDefault != nil || a.DropDefault || a.DropNotNull):
				return identityColumnError(c, col, a.DropDefault) // ddl_identity.go
			case a.SetDefault != nil:
				text, err := pc.checkedExprText(a.SetDefault, col.Type, col.Name)
				if err != nil {
					return err
				}
				col.Default = text
			case a.DropDefault:
				col.Default = ""
			case a.SetNotNull:
				if err := x.checkNoNulls(c, col); err != nil {
					return err
				}
				col.NotNull = true
			case a.DropNotNull:
				for _, k := range c.PrimaryKey {
					if k == col.Attnum {
						return pgerror.New(pgerror.InvalidTableDefinition, "column \"%s\" is in a primary key", col.Name)
					}
				}
				col.NotNull = false
			case a.Type != nil:
				if col.Identity != "" {
					return pgerror.New(pgerror.FeatureNotSupported, "ALTER COLUMN TYPE of identity column \"%s\" is not supported", col.Name)
				}
				if err := x.alterColumnType(pc, c, col, a, typeChanged); err != nil { // ddl_alter_type.go
					return err
				}
				if err := x.recheckExprIndexesOn(pc, c, col.Attnum); err != nil { // ddl_exprindex.go
					return err
				}
				typeChanged[col.Attnum] = true
			}
		case *ast.AddConstraint:
			if a.Constraint.Kind == ast.ConstraintPrimaryKey {
				if err := x.addPrimaryKey(pc, ed, c, a.Constraint); err != nil { // ddl_primarykey.go
					return err
				}
				continue
			}
			// Validated against the table as the earlier actions left it,
			// whose indexes are built already.
			before := c.Clone()
			if err := x.addConstraint(pc, ed, c, a.Constraint); err != nil {
				return err
			}
			if err := x.validateNewConstraint(pc, before, c); err != nil {
				return err
			}
		case *ast.DropConstraint:
			found := false
			for i, con := range c.Constraints {
				if con.Name == a.Name {
					c.Constraints = append(c.Constraints[:i:i], c.Constraints[i+1:]...)
					if con.Index != 0 {
						for j, ix := range c.Indexes {
							if ix.OID == con.Index {
								c.Indexes = append(c.Indexes[:j:j], c.Indexes[j+1:]...)
								_ = x.tx.st.DropSpace(catalog.IndexSpace(ix.OID))
								break
							}
						}
					}
					found = true
					break
				}
			}
			if !found {
				if a.IfExists {
					x.notice("constraint \"%s\" of relation \"%s\" does not exist, skipping", a.Name, c.Name)
					continue
				}
				return pgerror.New(pgerror.UndefinedObject, "constraint \"%s\" of relation \"%s\" does not exist", a.Name, c.Name)
			}
		case *ast.AddIdentity:
			if err := x.addIdentity(pc, c, a); err != nil { // ddl_identity.go
				return err
			}
		case *ast.SetTableOptions:
			if c.Options == nil {
				c.Options = map[string]string{}
			}
			for k, v := range a.Options {
				if err := x.setTableOption(c, k, v); err != nil {
					return err
				}
			}
		default:
			return pgerror.New(pgerror.FeatureNotSupported, "ALTER TABLE action %T is not supported", a)
		}
	}
	return ed.PutTable(c)
}

// fillNewColumn writes a new column's default into every existing row, as
// PostgreSQL's ADD COLUMN ... DEFAULT does.
func (x *execCtx) fillNewColumn(pc *planCtx, t *catalog.Table, col catalog.Column) error {
	if col.Default == "" && !col.NotNull {
		return nil
	}
	w, err := pc.newTableWriter(t, nil)
	if err != nil {
		return err
	}
	data := x.tx.st.Space(catalog.DataSpace(t.OID))
	type upd struct {
		k []byte
		v []byte
	}
	var updates []upd
	cur := data.Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		tuple, err := decodeTuple(t, v)
		if err != nil {
			return err
		}
		dv, err := w.defaultValue(x, col.Attnum)
		if err != nil {
			return err
		}
		if dv == nil && col.NotNull {
			return pgerror.New(pgerror.NotNullViolation, "column \"%s\" of relation \"%s\" contains null values", col.Name, t.Name)
		}
		tuple[col.Attnum-1] = dv
		// Adding a column does not start a new version of the row.
		enc, err := history.WithTuple(v, tuple)
		if err != nil {
			return err
		}
		updates = append(updates, upd{append([]byte(nil), k...), enc})
	}
	for _, u := range updates {
		if err := data.Put(u.k, u.v); err != nil {
			return err
		}
	}
	return nil
}

func (x *execCtx) checkNoNulls(t *catalog.Table, col *catalog.Column) error {
	cur := x.tx.st.Space(catalog.DataSpace(t.OID)).Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		tuple, err := decodeTuple(t, v)
		if err != nil {
			return err
		}
		if tuple[col.Attnum-1] == nil {
			return pgerror.New(pgerror.NotNullViolation, "column \"%s\" of relation \"%s\" contains null values", col.Name, t.Name)
		}
	}
	return nil
}

// validateNewConstraint checks existing rows against the constraints ALTER
// TABLE added to old (giving t), building any new unique index. As in
// PostgreSQL, only the new CHECK constraints are evaluated: the rows were
// checked against the others when they were written, and a CHECK whose
// answer can change (one reading a setting, say) is not asked again.
func (x *execCtx) validateNewConstraint(pc *planCtx, old, t *catalog.Table) error {
	w, err := pc.newTableWriter(t, nil)
	if err != nil {
		return err
	}
	sc, _ := x.tx.catalog().SchemaByOID(t.Schema)
	w.schema = sc
	had := map[string]bool{}
	for _, con := range old.Constraints {
		if con.Kind == "c" {
			had[con.Name] = true
		}
	}
	var checks []boundCheck
	for _, ck := range w.constraints.checks {
		if !had[ck.name] {
			checks = append(checks, ck)
		}
	}
	var fresh []*catalog.Index
	for i := range t.Indexes {
		known := false
		for _, o := range old.Indexes {
			if o.OID == t.Indexes[i].OID {
				known = true
			}
		}
		if !known {
			if _, err := x.tx.st.CreateSpace(catalog.IndexSpace(t.Indexes[i].OID)); err != nil {
				return err
			}
			fresh = append(fresh, &t.Indexes[i])
		}
	}
	if len(checks) == 0 && len(fresh) == 0 {
		return nil // nothing new to hold the rows to
	}
	cur := x.tx.st.Space(catalog.DataSpace(t.OID)).Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		tuple, err := decodeTuple(t, v)
		if err != nil {
			return err
		}
		for _, ck := range checks {
			r, err := ck.e.Eval(&eval.Env{Row: tuple, X: x})
			if err != nil {
				return err
			}
			if r == false {
				return pgerror.New(pgerror.CheckViolation, "check constraint \"%s\" of relation \"%s\" is violated by some row", ck.name, t.Name)
			}
		}
		for _, ix := range fresh {
			key, ok, err := indexKey(ix, k, tuple)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			sp := x.tx.st.Space(catalog.IndexSpace(ix.OID))
			if sp.Get(key) != nil {
				return pgerror.New(pgerror.UniqueViolation, "could not create unique index \"%s\"", ix.Name)
			}
			if err := sp.Put(key, append([]byte(nil), k...)); err != nil {
				return err
			}
		}
	}
	return nil
}

// setTableOption validates ALTER TABLE ... SET (k = v).
func (x *execCtx) setTableOption(t *catalog.Table, k, v string) error {
	switch k {
	case "history_retention":
		if _, err := types.ParseText(types.Of(types.Interval), v); err != nil {
			return pgerror.New(pgerror.InvalidParameterValue, "invalid value for history_retention: \"%s\"", v).WithHint("Give an interval, for example '90 days'.")
		}
		t.Options[k] = v
		return nil
	case "fillfactor", "autovacuum_enabled":
		t.Options[k] = v
		return nil
	}
	return pgerror.New(pgerror.InvalidParameterValue, "unrecognized parameter \"%s\"", k)
}

// commentOn runs COMMENT ON TABLE | COLUMN | SCHEMA | VIEW.
func (x *execCtx) commentOn(st *ast.CommentOn) error {
	pc := x.planCtx()
	text := ""
	if st.Comment != nil {
		text = *st.Comment
	}
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	switch st.Kind {
	case ast.ObjectSchema:
		sc, ok := pc.cat.Schema(st.Name.Name())
		if !ok {
			return pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", st.Name.Name())
		}
		c := *sc
		c.Comment = text
		return ed.PutSchema(&c)
	case ast.ObjectTable, ast.ObjectView, ast.ObjectStreamingTable:
		t, _, err := pc.lookupRelation(st.Name)
		if err != nil {
			return err
		}
		if err := x.checkOwner(t); err != nil {
			return err
		}
		c := t.Clone()
		c.Comment = text
		return ed.PutTable(c)
	case ast.ObjectColumn:
		if len(st.Name.Parts) < 2 {
			return pgerror.New(pgerror.SyntaxError, "column name must be qualified")
		}
		tn := ast.QualifiedName{Parts: st.Name.Parts[:len(st.Name.Parts)-1], Pos: st.Name.Pos}
		t, _, err := pc.lookupRelation(tn)
		if err != nil {
			return err
		}
		if err := x.checkOwner(t); err != nil {
			return err
		}
		c := t.Clone()
		col, ok := c.Column(st.Name.Name())
		if !ok {
			return pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", st.Name.Name(), t.Name)
		}
		col.Comment = text
		return ed.PutTable(c)
	case ast.ObjectSequence:
		return x.commentOnSequence(pc, ed, st.Name, text) // ddl_sequence.go
	}
	return pgerror.New(pgerror.FeatureNotSupported, "COMMENT ON %s is not supported", st.Kind)
}

// refuseColumnChangesUnderFlow stops ALTER TABLE from changing the columns
// of a flow's source or target: a flow is compiled against those columns,
// and the target's history was computed from them.
func refuseColumnChangesUnderFlow(cat *catalog.Snapshot, t *catalog.Table, actions []ast.AlterAction) error {
	flows := append(cat.FlowsFrom(t.OID), cat.FlowsInto(t.OID)...)
	for _, f := range cat.Flows() {
		if f.Source != t.OID && f.Target != t.OID && f.ReadsTable(t.OID) {
			flows = append(flows, f) // a snapshot query reads it
		}
	}
	if len(flows) == 0 {
		return nil
	}
	for _, a := range actions {
		changes := false
		switch a := a.(type) {
		case *ast.AddColumn, *ast.DropColumn, *ast.RenameColumn:
			changes = true
		case *ast.AlterColumn:
			changes = a.Type != nil
		}
		if changes {
			return pgerror.New(pgerror.ObjectInUse, "cannot change the columns of table \"%s\" because flow \"%s\" uses it", t.Name, flows[0].Name).
				WithHint("Drop the flow, change the table, and create the flow again; it rebuilds its target from the source.")
		}
	}
	return nil
}

// viewSearchPath is the search path a new view keeps for its unqualified
// names: the creating session's schemas, less its temporary one (a view
// never reads temporary tables).
func viewSearchPath(pc *planCtx) []string {
	var out []string
	for _, s := range pc.searchPath() {
		if !isTempSchemaName(s) {
			out = append(out, s)
		}
	}
	return out
}
