package sql

import (
	"slices"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/parse"
)

// dropColumnDependents removes, with a column ALTER TABLE ... DROP COLUMN
// drops from t (a clone being altered), what PostgreSQL drops with it: the
// indexes on the column, and the UNIQUE, CHECK and FOREIGN KEY constraints
// of t that use it. A foreign key of another table referencing the column
// stands in the way unless CASCADE, which drops that constraint too, as
// PostgreSQL does (Django's migrations undo an AddField this way).
func (x *execCtx) dropColumnDependents(pc *planCtx, t *catalog.Table, attnum int16, colName string, cascade bool) error {
	for _, other := range pc.cat.Tables() {
		if other.OID == t.OID {
			continue
		}
		for _, con := range other.Constraints {
			if con.Kind != "f" || con.RefTable != t.OID || !slices.Contains(con.RefColumns, attnum) {
				continue
			}
			if !cascade {
				return pgerror.New(pgerror.DependentObjectsStillExist, "cannot drop column %s of table %s because other objects depend on it", colName, t.Name).
					WithDetail("constraint %s on table %s depends on column %s of table %s", con.Name, other.Name, colName, t.Name).
					WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
			}
			if err := x.dropForeignKeyOf(other, con.OID); err != nil {
				return err
			}
			x.notice("drop cascades to constraint %s on table %s", con.Name, other.Name)
		}
	}
	dropIndex := func(oid catalog.OID) {
		for j, ix := range t.Indexes {
			if ix.OID == oid {
				t.Indexes = append(t.Indexes[:j:j], t.Indexes[j+1:]...)
				if x.tx.st.Space(catalog.IndexSpace(ix.OID)) != nil {
					_ = x.tx.st.DropSpace(catalog.IndexSpace(ix.OID))
				}
				return
			}
		}
	}
	kept := t.Constraints[:0:0]
	for _, con := range t.Constraints {
		cols := con.Columns
		if con.Kind == "c" {
			cols = columnsReadBy(t, con.Check)
		}
		if slices.Contains(cols, attnum) {
			if con.Index != 0 {
				dropIndex(con.Index)
			}
			continue
		}
		kept = append(kept, con)
	}
	t.Constraints = kept
	for i := len(t.Indexes) - 1; i >= 0; i-- {
		if ix := t.Indexes[i]; !ix.Primary && slices.Contains(ix.Columns, attnum) {
			dropIndex(ix.OID)
		}
	}
	return nil
}

// dropForeignKeyOf removes the foreign key oid from another table.
func (x *execCtx) dropForeignKeyOf(t *catalog.Table, oid catalog.OID) error {
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	c := t.Clone()
	c.Constraints = slices.DeleteFunc(c.Constraints, func(con catalog.Constraint) bool { return con.OID == oid })
	return ed.PutTable(c)
}

// columnsReadBy lists the columns of t a stored CHECK expression reads.
func columnsReadBy(t *catalog.Table, stored string) []int16 {
	e, err := parse.ParseExpr(stored)
	if err != nil {
		return nil
	}
	var out []int16
	walkExpr(e, func(n ast.Node) bool {
		if c, ok := n.(*ast.ColumnRef); ok {
			if col, ok := t.Column(c.Parts[len(c.Parts)-1]); ok && !slices.Contains(out, col.Attnum) {
				out = append(out, col.Attnum)
			}
		}
		return true
	})
	return out
}
