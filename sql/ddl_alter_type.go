package sql

import (
	"bytes"
	"strings"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// ALTER TABLE ... ALTER COLUMN ... [SET DATA] TYPE t [USING expr], which
// knex's .alter(), sequelize's sync({alter: true}), GORM's AutoMigrate and
// Django's AlterField send. As in PostgreSQL, every row is rewritten with
// the column's value converted (by USING, or else by the assignment cast
// from the old type), and the statement fails, changing nothing, when one
// value does not convert.
//
// cdcdb also keeps the table's past (FOR SYSTEM_TIME): the archived versions
// are converted by the same expression, each against its own version's
// values, and keep their periods, so a read of the past shows it in the
// column's new type. A past value that does not convert fails the
// statement as a current one does.
//
// A foreign key on the column, from either side, must still compare its
// columns (42804 otherwise, as in PostgreSQL) and is checked again against
// the converted rows.
//
// What cdcdb refuses where PostgreSQL would go on: a column a view's query
// could read (cdcdb keeps views as text and cannot tell which columns they
// use, so it refuses when a view reads the table at all, as PostgreSQL does
// when the view uses the column); and a primary key column whose converted
// values would change the rows' storage keys (int4 to int8 keeps them; int
// to text does not).

// alterColumnType changes col of t (a clone being altered) to the type a
// names, rewriting the rows and the history and rebuilding the indexes on
// the column.
//
// PostgreSQL evaluates every USING of one ALTER TABLE against the row as it
// was before the statement; cdcdb converts column after column, so a USING
// that reads a column an earlier action of the statement converted
// (typeChanged) is refused rather than given the converted value.
func (x *execCtx) alterColumnType(pc *planCtx, t *catalog.Table, col *catalog.Column, a *ast.AlterColumn, typeChanged map[int16]bool) error {
	switch a.Type.Name {
	case "serial", "serial4", "bigserial", "serial8", "smallserial", "serial2":
		return pgerror.New(pgerror.UndefinedObject, "type \"%s\" does not exist", a.Type.Name).WithPosition(a.Type.Pos + 1)
	}
	if typeChanged[col.Attnum] {
		return pgerror.New(pgerror.FeatureNotSupported, "cannot alter type of column \"%s\" twice", col.Name)
	}
	newType, err := pc.resolveType(a.Type)
	if err != nil {
		return withoutPosition(err) // PostgreSQL gives none here
	}
	if err := refuseTypeChangeUnderView(pc, t, col); err != nil {
		return err
	}
	links, err := foreignKeysOnColumn(pc, t, col, newType)
	if err != nil {
		return err
	}
	old := t.Clone()
	oldCol, _ := old.Column(col.Name)

	// The conversion, bound against the row as it is stored.
	rowScope := newScope(nil)
	rowScope.add(tupleRel(old))
	b := pc.binder(rowScope)
	var src ast.Expr = &ast.ColumnRef{Parts: []string{col.Name}}
	if a.Using != nil {
		if containsAggregate(a.Using) {
			return pgerror.New(pgerror.GroupingError, "aggregate functions are not allowed in transform expressions").WithPosition(a.Using.Position() + 1)
		}
		src = a.Using
		var readsChanged string
		walkExpr(a.Using, func(n ast.Node) bool {
			if ref, ok := n.(*ast.ColumnRef); ok {
				if c, ok := t.Column(ref.Parts[len(ref.Parts)-1]); ok && typeChanged[c.Attnum] {
					readsChanged = c.Name
				}
			}
			return true
		})
		if readsChanged != "" {
			return pgerror.New(pgerror.FeatureNotSupported, "the USING expression of column \"%s\" reads column \"%s\", whose type the same ALTER TABLE changes", col.Name, readsChanged).
				WithHint("Change the types in separate ALTER TABLE statements.")
		}
	}
	bound, err := b.bind(src)
	if err != nil {
		return err
	}
	conv, err := b.assign(bound, newType, col.Name)
	if err != nil {
		if pgerror.CodeOf(err) != pgerror.DatatypeMismatch {
			// A literal that does not convert fails where the rows are
			// converted, in PostgreSQL: without a position.
			return withoutPosition(err)
		}
		if a.Using != nil {
			return pgerror.New(pgerror.DatatypeMismatch, "result of USING clause for column \"%s\" cannot be cast automatically to type %s", col.Name, eval.TypeName(newType)).
				WithHint("You might need to add an explicit cast.")
		}
		return pgerror.New(pgerror.DatatypeMismatch, "column \"%s\" cannot be cast automatically to type %s", col.Name, eval.TypeName(newType)).
			WithHint("You might need to specify \"USING %s::%s\".", parse.QuoteIdent(col.Name), eval.TypeName(newType))
	}

	// The default must still give a value of the column's type.
	if col.Default != "" {
		def, err := parse.ParseExpr(col.Default)
		if err != nil {
			return pgerror.New(pgerror.DataCorrupted, "default of column \"%s\" is unreadable: %v", col.Name, err)
		}
		db := pc.binder(newScope(nil))
		dx, err := db.bind(def)
		if err == nil {
			_, err = db.assign(dx, newType, col.Name)
		}
		if err != nil {
			return pgerror.New(pgerror.DatatypeMismatch, "default for column \"%s\" cannot be cast automatically to type %s", col.Name, eval.TypeName(newType))
		}
	}

	col.Type = newType
	// The CHECK constraints are bound again against the new type (one that
	// no longer binds fails here) and hold for every converted row.
	rc, err := pc.rowConstraintsOf(t)
	if err != nil {
		return err
	}
	checks := rc.checks
	pos := oldCol.Attnum - 1
	isKey := false
	for _, k := range t.PrimaryKey {
		isKey = isKey || k == col.Attnum
	}
	// A past version is converted only: it was checked when it was written,
	// against the constraints of its day.
	convert := func(key []byte, vals []types.Value, current bool) ([]types.Value, error) {
		row := storedTuple(old, vals)
		if int(pos) >= len(row) {
			return vals, nil // a version from before the column existed
		}
		v, err := conv.Eval(&eval.Env{Row: row, X: x})
		if err != nil {
			if pe := pgerror.As(err); !current && pe.Detail == "" {
				return nil, pe.WithDetail("The value is in a past version of a row of \"%s\", kept for FOR SYSTEM_TIME reads, which are converted too.", t.Name).
					WithHint("Give a USING expression that converts the past values as well.")
			}
			return nil, err
		}
		out := append([]types.Value(nil), row...)
		out[pos] = v
		if !current {
			return out, nil
		}
		if v == nil && col.NotNull {
			return nil, pgerror.New(pgerror.NotNullViolation, "column \"%s\" of relation \"%s\" contains null values", col.Name, t.Name)
		}
		if isKey {
			k, err := primaryKey(t, out)
			if err != nil {
				return nil, err
			}
			if !bytes.Equal(k, key) {
				return nil, pgerror.New(pgerror.FeatureNotSupported, "cannot change the type of primary key column \"%s\" to %s", col.Name, eval.TypeName(newType)).
					WithDetail("The rows are stored by their key, and the converted key differs from the stored one.")
			}
		}
		for _, ck := range checks {
			r, err := ck.e.Eval(&eval.Env{Row: out, X: x})
			if err != nil {
				return nil, err
			}
			if r == false {
				return nil, pgerror.New(pgerror.CheckViolation, "check constraint \"%s\" of relation \"%s\" is violated by some row", ck.name, t.Name)
			}
		}
		return out, nil
	}
	if err := history.RewriteTuples(x.tx.st, t.OID, convert); err != nil {
		return err
	}
	if err := x.rebuildIndexesOn(t, col.Attnum); err != nil {
		return err
	}
	for _, l := range links {
		if err := x.validateForeignKey(l); err != nil {
			return err
		}
	}
	return nil
}

// refuseTypeChangeUnderView refuses a type change of a table a view reads
// (see the comment at the top).
func refuseTypeChangeUnderView(pc *planCtx, t *catalog.Table, col *catalog.Column) error {
	if views := viewsReading(pc, t); len(views) > 0 {
		return pgerror.New(pgerror.FeatureNotSupported, "cannot alter type of a column used by a view or rule").
			WithDetail("rule _RETURN on view %s depends on column \"%s\"", views[0].Name, col.Name)
	}
	return nil
}

// foreignKeysOnColumn lists the foreign keys that use col of t (the clone
// being altered), from either side, to check again once the rows are
// converted; it fails as PostgreSQL does when one could no longer compare
// its columns with col of type newType.
func foreignKeysOnColumn(pc *planCtx, t *catalog.Table, col *catalog.Column, newType types.T) ([]*fkLink, error) {
	var links []*fkLink
	incompatible := func(con *catalog.Constraint, childCol, parentCol string, ct, pt types.T) error {
		return pgerror.New(pgerror.DatatypeMismatch, "foreign key constraint \"%s\" cannot be implemented", con.Name).
			WithDetail("Key columns \"%s\" and \"%s\" are of incompatible types: %s and %s.", childCol, parentCol, eval.TypeName(ct), eval.TypeName(pt))
	}
	for i := range t.Constraints {
		con := &t.Constraints[i]
		if con.Kind != "f" {
			continue
		}
		parent := t
		if con.RefTable != t.OID {
			p, ok := pc.cat.TableByOID(con.RefTable)
			if !ok {
				continue
			}
			parent = p
		}
		for j, a := range con.Columns {
			if a != col.Attnum {
				continue
			}
			pcol := parent.ColumnByAttnum(con.RefColumns[j])
			pt := pcol.Type
			if parent == t && pcol.Attnum == col.Attnum {
				pt = newType // a self reference to the column itself
			}
			if !keysComparable(newType.OID, pt.OID) {
				return nil, incompatible(con, col.Name, pcol.Name, newType, pt)
			}
			links = append(links, &fkLink{con: con, child: t, parent: parent})
			break
		}
	}
	for _, other := range pc.cat.Tables() {
		if other.OID == t.OID {
			continue // its own keys are above
		}
		for i := range other.Constraints {
			con := &other.Constraints[i]
			if con.Kind != "f" || con.RefTable != t.OID {
				continue
			}
			for j, a := range con.RefColumns {
				if a != col.Attnum {
					continue
				}
				ccol := other.ColumnByAttnum(con.Columns[j])
				if !keysComparable(ccol.Type.OID, newType.OID) {
					return nil, incompatible(con, ccol.Name, col.Name, ccol.Type, newType)
				}
				links = append(links, &fkLink{con: con, child: other, parent: t})
				break
			}
		}
	}
	return links, nil
}

// rebuildIndexesOn builds again, from the current rows, every secondary
// index of t that holds the column attnum: their keys were encoded from the
// old values. A unique index that the converted values break fails as
// CREATE UNIQUE INDEX does.
func (x *execCtx) rebuildIndexesOn(t *catalog.Table, attnum int16) error {
	var rebuild []*catalog.Index
	for i := range t.Indexes {
		ix := &t.Indexes[i]
		if ix.Primary {
			continue
		}
		for _, a := range ix.Columns {
			if a == attnum {
				rebuild = append(rebuild, ix)
				break
			}
		}
	}
	for _, ix := range rebuild {
		if x.tx.st.Space(catalog.IndexSpace(ix.OID)) != nil {
			if err := x.tx.st.DropSpace(catalog.IndexSpace(ix.OID)); err != nil {
				return err
			}
		}
		if _, err := x.tx.st.CreateSpace(catalog.IndexSpace(ix.OID)); err != nil {
			return err
		}
	}
	if len(rebuild) == 0 {
		return nil
	}
	cur := x.tx.st.Space(catalog.DataSpace(t.OID)).Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		tuple, err := decodeTuple(t, v)
		if err != nil {
			return err
		}
		for _, ix := range rebuild {
			key, ok, err := indexKey(ix, k, tuple)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			sp := x.tx.st.Space(catalog.IndexSpace(ix.OID))
			if sp.Get(key) != nil {
				var names, vals []string
				for _, a := range ix.Columns {
					c := t.ColumnByAttnum(a)
					names = append(names, c.Name)
					vals = append(vals, x.sess.formatValue(x, c.Type, tuple[a-1]))
				}
				return pgerror.New(pgerror.UniqueViolation, "could not create unique index \"%s\"", ix.Name).
					WithDetail("Key (%s)=(%s) is duplicated.", strings.Join(names, ", "), strings.Join(vals, ", "))
			}
			if err := sp.Put(key, append([]byte(nil), k...)); err != nil {
				return err
			}
		}
	}
	return nil
}

// withoutPosition drops an error's cursor position.
func withoutPosition(err error) error {
	c := *pgerror.As(err)
	c.Position = 0
	return &c
}
