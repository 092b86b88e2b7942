package sql

import (
	"strconv"

	"cdcdb/acl"
	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// Identity columns: ALTER TABLE ... ALTER [COLUMN] c ADD GENERATED
// { ALWAYS | BY DEFAULT } AS IDENTITY [( options )], as pg_dump writes
// them. The column gets a free-standing sequence that it owns (named by
// SEQUENCE NAME, else table_column_seq) and draws from it as its
// default; GENERATED ALWAYS also refuses values an INSERT gives it and
// updates to anything but DEFAULT (428C9), as PostgreSQL does, while COPY
// stores what it is given, as PostgreSQL's does (pg_dump's data).

func (x *execCtx) addIdentity(pc *planCtx, t *catalog.Table, a *ast.AddIdentity) error {
	col, ok := t.Column(a.Column)
	if !ok {
		return pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", a.Column, t.Name)
	}
	switch {
	case col.Type.OID != types.Int2 && col.Type.OID != types.Int4 && col.Type.OID != types.Int8:
		return pgerror.New(pgerror.InvalidParameterValue, "identity column type must be smallint, integer, or bigint")
	case !col.NotNull:
		return pgerror.New(pgerror.ObjectNotInPrerequisiteState, "column \"%s\" of relation \"%s\" must be declared NOT NULL before identity can be added", col.Name, t.Name)
	case col.Identity != "":
		return pgerror.New(pgerror.ObjectNotInPrerequisiteState, "column \"%s\" of relation \"%s\" is already an identity column", col.Name, t.Name)
	case col.Default != "" || col.Sequence != "":
		return pgerror.New(pgerror.ObjectNotInPrerequisiteState, "column \"%s\" of relation \"%s\" already has a default value", col.Name, t.Name)
	}
	sc, ok := x.tx.catalog().SchemaByOID(t.Schema)
	if !ok {
		return pgerror.New(pgerror.DataCorrupted, "schema of table \"%s\" is missing", t.Name)
	}
	name := ""
	opts := []ast.SequenceOption{{Kind: ast.SeqAs, Type: &ast.TypeName{Name: identityTypeName[col.Type.OID]}}}
	for _, o := range a.Options {
		switch o.Kind {
		case ast.SeqName:
			if s := o.Name.Schema(); s != "" && s != sc.Name {
				return pgerror.New(pgerror.FeatureNotSupported, "an identity column's sequence must be in its table's schema \"%s\"", sc.Name)
			}
			name = truncateIdent(o.Name.Name())
		case ast.SeqAs, ast.SeqOwnedBy:
			return pgerror.New(pgerror.SyntaxError, "invalid sequence option %s for an identity column", string(o.Kind))
		default:
			opts = append(opts, o)
		}
	}
	cat := x.tx.catalog()
	if name == "" {
		base := truncateIdent(t.Name + "_" + col.Name + "_seq")
		name = base
		for i := 1; relationNameTaken(cat, t.Schema, name); i++ {
			name = truncateIdent(base + strconv.Itoa(i))
		}
	} else if relationNameTaken(cat, t.Schema, name) {
		return pgerror.New(pgerror.DuplicateTable, "relation \"%s\" already exists", name)
	}
	q := &catalog.Sequence{Schema: t.Schema, Name: name, Owner: acl.TableOwner(t)}
	if _, err := pc.applySequenceOptions(q, nil, opts); err != nil {
		return err
	}
	owned := ast.QualifiedName{Parts: []string{sc.Name, t.Name, col.Name}}
	if err := x.putNewSequence(pc, q, []ast.SequenceOption{{Kind: ast.SeqOwnedBy, OwnedBy: &owned}}); err != nil {
		return err
	}
	col.Default = "nextval(" + parse.QuoteLiteral(parse.QuoteIdent(sc.Name)+"."+parse.QuoteIdent(name)) + "::regclass)"
	col.Identity = catalog.IdentityByDefault
	if a.Always {
		col.Identity = catalog.IdentityAlways
	}
	return nil
}

// refuseIdentityInsert is INSERT's rule for GENERATED ALWAYS columns: a
// value given for one (not DEFAULT) is 428C9. given[i] says whether the
// statement gives column cols[i] a value in some row.
func refuseIdentityInsert(cols []catalog.Column, given []bool) error {
	for i, c := range cols {
		if c.Identity == catalog.IdentityAlways && given[i] {
			return pgerror.New(generatedAlways, "cannot insert a non-DEFAULT value into column \"%s\"", c.Name).
				WithDetail("Column \"%s\" is an identity column defined as GENERATED ALWAYS.", c.Name).
				WithHint("Use OVERRIDING SYSTEM VALUE to override.")
		}
	}
	return nil
}

// refuseIdentityUpdate is UPDATE's: a GENERATED ALWAYS column may only be
// set to DEFAULT.
func refuseIdentityUpdate(c *catalog.Column) error {
	if c.Identity == catalog.IdentityAlways {
		return pgerror.New(generatedAlways, "column \"%s\" can only be updated to DEFAULT", c.Name).
			WithDetail("Column \"%s\" is an identity column defined as GENERATED ALWAYS.", c.Name)
	}
	return nil
}

// generatedAlways is SQLSTATE 428C9.
const generatedAlways = "428C9"

// identityTypeName names an identity column's type for its sequence's AS.
var identityTypeName = map[types.OID]string{types.Int2: "int2", types.Int4: "int4", types.Int8: "int8"}

// givenColumns says which of an INSERT's n target columns it gives a value
// in some row: a query gives all; VALUES those not DEFAULT (nil) in a row.
func givenColumns(valueRows [][]eval.Expr, fromQuery bool, n int) []bool {
	given := make([]bool, n)
	for i := range given {
		given[i] = fromQuery
	}
	for _, row := range valueRows {
		for i, e := range row {
			if e != nil && i < n {
				given[i] = true
			}
		}
	}
	return given
}

// withoutIdentities is CREATE TABLE without its columns' identity clauses
// (the table is made first, then each identity added to it as ALTER
// COLUMN ... ADD GENERATED does), and those clauses. The statement itself
// is not changed: a prepared one runs again.
func withoutIdentities(st *ast.CreateTable) (*ast.CreateTable, []*ast.AddIdentity) {
	var ids []*ast.AddIdentity
	for _, cd := range st.Columns {
		if cd.Identity != nil {
			ids = append(ids, cd.Identity)
		}
	}
	if len(ids) == 0 {
		return st, nil
	}
	c := *st
	c.Columns = append([]ast.ColumnDef(nil), st.Columns...)
	for i := range c.Columns {
		c.Columns[i].Identity = nil
	}
	return &c, ids
}

// addIdentities adds identity clauses to the table just created. A column
// with both DEFAULT and an identity is 42601, as in PostgreSQL.
func (x *execCtx) addIdentities(table catalog.OID, ids []*ast.AddIdentity) error {
	for _, id := range ids {
		pc := x.planCtx()
		t, ok := pc.cat.TableByOID(table)
		if !ok {
			return pgerror.New(pgerror.DataCorrupted, "table with OID %d is missing", table)
		}
		if col, ok := t.Column(id.Column); ok && (col.Default != "" || col.Sequence != "") {
			return pgerror.New(pgerror.SyntaxError, "both default and identity specified for column \"%s\" of table \"%s\"", col.Name, t.Name).WithPosition(id.Pos + 1)
		}
		c := t.Clone()
		if err := x.addIdentity(pc, c, id); err != nil {
			return err
		}
		ed, err := x.tx.edit()
		if err != nil {
			return err
		}
		if err := ed.PutTable(c); err != nil {
			return err
		}
	}
	return nil
}

// identityColumnError is PostgreSQL's refusal of SET/DROP DEFAULT and DROP
// NOT NULL on an identity column (42601).
func identityColumnError(t *catalog.Table, col *catalog.Column, dropDefault bool) error {
	e := pgerror.New(pgerror.SyntaxError, "column \"%s\" of relation \"%s\" is an identity column", col.Name, t.Name)
	if dropDefault {
		e = e.WithHint("Use ALTER TABLE ... ALTER COLUMN ... DROP IDENTITY instead.")
	}
	return e
}
