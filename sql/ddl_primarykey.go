package sql

import (
	"strings"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/sql/ast"
	"cdcdb/types"
)

// ALTER TABLE ... ADD [CONSTRAINT name] PRIMARY KEY (cols) on a table that
// may hold rows, which every pg_dump script does after loading its rows.
//
// A table without a primary key keys its rows by a hidden row number; with
// one, by the key's values (rowwrite.go's storageKey). So adding a key
// re-keys every row: each is deleted under its row number and inserted
// under its key, through the table's history like any write, so a read
// FOR SYSTEM_TIME AS OF a moment before the ALTER still finds the rows as
// they were, and the secondary indexes, whose entries end with or hold
// the row's key, are built again. As in PostgreSQL, the key's columns
// become NOT NULL (23502 if a row holds a NULL there) and duplicate keys
// refuse the whole statement (23505).
//
// Tables that flows read or write, streaming tables and source tables are
// refused: flows keep what they read and wrote by row key.

func (x *execCtx) addPrimaryKey(pc *planCtx, ed *catalog.Editor, t *catalog.Table, con ast.TableConstraint) error {
	if len(t.PrimaryKey) > 0 {
		return pgerror.New(pgerror.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", t.Name)
	}
	cat := x.tx.catalog()
	if t.Kind != catalog.KindTable || len(cat.FlowsFrom(t.OID)) > 0 || len(cat.FlowsInto(t.OID)) > 0 {
		return pgerror.New(pgerror.FeatureNotSupported, "adding a primary key to a table that flows read or write is not supported")
	}
	for _, f := range cat.Flows() {
		if f.ReadsTable(t.OID) {
			return pgerror.New(pgerror.FeatureNotSupported, "adding a primary key to a table that flows read or write is not supported")
		}
	}
	var attnums []int16
	for _, name := range con.Columns {
		c, ok := t.Column(name)
		if !ok {
			return pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, t.Name)
		}
		attnums = append(attnums, c.Attnum)
	}
	if err := checkIndexKeyCount(len(attnums)); err != nil {
		return err
	}
	name := con.Name
	if name == "" {
		name = truncateIdent(t.Name + "_pkey")
	}
	if relationNameTaken(cat, t.Schema, name) {
		return pgerror.New(pgerror.DuplicateTable, "relation \"%s\" already exists", name)
	}
	if err := x.rekeyRows(pc, t, attnums, name); err != nil {
		return err
	}
	for _, a := range attnums {
		t.ColumnByAttnum(a).NotNull = true
	}
	oid, err := ed.NewOID()
	if err != nil {
		return err
	}
	t.PrimaryKey, t.PrimaryKeyName, t.PrimaryKeyOID = attnums, name, oid
	t.Indexes = append(t.Indexes, catalog.Index{OID: oid, Name: name, Columns: append([]int16(nil), attnums...), Unique: true, Primary: true})
	return nil
}

// keyedRow is a row read for re-keying.
type keyedRow struct {
	oldKey, newKey []byte
	tuple          []types.Value
}

// rekeyRows moves t's rows from their row numbers to the key of the
// columns attnums, and rebuilds t's secondary indexes (plain and unique
// expression ones) for the new keys.
func (x *execCtx) rekeyRows(pc *planCtx, t *catalog.Table, attnums []int16, constraint string) error {
	data := x.tx.st.Space(catalog.DataSpace(t.OID))
	if data == nil {
		return pgerror.New(pgerror.DataCorrupted, "storage for table \"%s\" is missing", t.Name)
	}
	var rows []keyedRow
	seen := map[string]bool{}
	cur := data.Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		tuple, err := decodeTuple(t, v)
		if err != nil {
			return err
		}
		tuple = storedTuple(t, tuple)
		var key []byte
		for _, a := range attnums {
			if tuple[a-1] == nil {
				e := pgerror.New(pgerror.NotNullViolation, "column \"%s\" of relation \"%s\" contains null values", t.ColumnByAttnum(a).Name, t.Name)
				e.Table, e.Column = t.Name, t.ColumnByAttnum(a).Name
				return e
			}
			if key, err = rowcodec.AppendKey(key, tuple[a-1]); err != nil {
				return err
			}
		}
		if seen[string(key)] {
			return x.duplicatedKeyError(t, attnums, tuple, constraint)
		}
		seen[string(key)] = true
		rows = append(rows, keyedRow{oldKey: append([]byte(nil), k...), newKey: key, tuple: tuple})
	}
	if len(rows) == 0 {
		return nil
	}
	hist, err := x.tx.rows(t)
	if err != nil {
		return err
	}
	// Every old key goes before any new one is written: a row number and
	// a key value may encode alike.
	for _, r := range rows {
		if err := hist.Delete(r.oldKey); err != nil {
			return err
		}
	}
	for _, r := range rows {
		if err := hist.Insert(r.newKey, r.tuple); err != nil {
			return err
		}
	}
	for i := range t.Indexes {
		ix := &t.Indexes[i]
		if ix.Primary {
			continue
		}
		space := catalog.IndexSpace(ix.OID)
		if x.tx.st.Space(space) != nil {
			if err := x.tx.st.DropSpace(space); err != nil {
				return err
			}
		}
		sp, err := x.tx.st.CreateSpace(space)
		if err != nil {
			return err
		}
		for _, r := range rows {
			k, ok, err := indexKey(ix, r.newKey, r.tuple)
			if err != nil {
				return err
			}
			if ok {
				if err := sp.Put(k, r.newKey); err != nil {
					return err
				}
			}
		}
	}
	for i := range t.ExprIndexes {
		if t.ExprIndexes[i].Unique {
			if err := x.buildExprIndex(pc, t, &t.ExprIndexes[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// duplicatedKeyError is PostgreSQL's error for a unique index that rows
// already break.
func (x *execCtx) duplicatedKeyError(t *catalog.Table, attnums []int16, tuple []types.Value, constraint string) error {
	var names, vals []string
	for _, a := range attnums {
		c := t.ColumnByAttnum(a)
		names = append(names, c.Name)
		vals = append(vals, x.sess.formatValue(x, c.Type, tuple[a-1]))
	}
	e := pgerror.New(pgerror.UniqueViolation, "could not create unique index \"%s\"", constraint).
		WithDetail("Key (%s)=(%s) is duplicated.", strings.Join(names, ", "), strings.Join(vals, ", "))
	e.Table, e.Constraint = t.Name, constraint
	return e
}
