package sql

import (
	"sort"
	"strconv"
	"strings"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// maxIdentifierLength is PostgreSQL's NAMEDATALEN-1: longer names are
// truncated (with a notice in PostgreSQL).
const maxIdentifierLength = 63

func (pc *planCtx) compileDDL(stmt ast.Statement) (*compiled, error) {
	c := &compiled{access: accessWrite}
	switch st := stmt.(type) {
	case *ast.CreateSchema:
		c.run = createSchemaStatement{st}
	case *ast.CreateTable:
		if st.Streaming {
			c.run = createStreamingTableStatement{st}
		} else {
			c.run = createTableStatement{st}
		}
	case *ast.Drop:
		c.run = dropStatement{st}
	case *ast.CreateIndex:
		c.run = createIndexStatement{st}
	case *ast.CreateView:
		c.run = createViewStatement{st}
	case *ast.AlterTable:
		c.run = alterTableStatement{st}
	case *ast.Truncate:
		c.run = truncateStatement{st}
	case *ast.CommentOn:
		c.run = commentStatement{st}
	default:
		return nil, pgerror.New(pgerror.FeatureNotSupported, "statement %T is not supported", stmt)
	}
	return c, nil
}

// lookupRelation resolves a relation named by a utility statement (ALTER,
// DROP, COMMENT, CREATE INDEX): PostgreSQL reports those lookups without a
// position in the statement, since they run at execution, not parse
// analysis.
func (pc *planCtx) lookupRelation(q ast.QualifiedName) (*catalog.Table, *catalog.Schema, error) {
	t, s, err := pc.lookupTable(q)
	if err != nil {
		return nil, nil, pgerror.As(err).WithPosition(0)
	}
	return t, s, nil
}

// planCtx returns a planning context over the transaction's own catalog,
// for statements that plan as they execute (DDL sees earlier DDL of its
// transaction). What they read is checked against the session's
// privileges (CREATE TABLE AS, CREATE VIEW).
func (x *execCtx) planCtx() *planCtx {
	return &planCtx{sess: x.sess, cat: x.tx.catalog(), params: &paramSlots{}, checkPrivileges: true}
}

func (x *execCtx) createSchema(st *ast.CreateSchema) error {
	cat := x.tx.catalog()
	if !x.sess.isSuperuser(cat) {
		return pgerror.New(pgerror.InsufficientPrivilege, "permission denied for database main")
	}
	if catalog.IsSystemSchemaName(st.Name) || strings.HasPrefix(st.Name, "pg_") {
		return pgerror.New(pgerror.ReservedName, "unacceptable schema name \"%s\"", st.Name).WithDetail("The prefix \"pg_\" is reserved for system schemas.")
	}
	if _, ok := cat.Schema(st.Name); ok {
		if st.IfNotExists {
			x.notice("schema \"%s\" already exists, skipping", st.Name)
			return nil
		}
		return pgerror.New(pgerror.DuplicateSchema, "schema \"%s\" already exists", st.Name)
	}
	_, err := x.putNewSchema(st.Name)
	return err
}

// putNewSchema adds a schema of the given name to the transaction's
// catalog.
func (x *execCtx) putNewSchema(name string) (*catalog.Schema, error) {
	ed, err := x.tx.edit()
	if err != nil {
		return nil, err
	}
	oid, err := ed.NewOID()
	if err != nil {
		return nil, err
	}
	sc := &catalog.Schema{OID: oid, Name: name}
	return sc, ed.PutSchema(sc)
}

// notice sends a NOTICE to the client of the running statement.
func (x *execCtx) notice(format string, args ...any) {
	if x.out != nil {
		x.out.notice("NOTICE", pgerror.SuccessfulCompletion, format, args...)
	}
}

// createTable runs CREATE TABLE and CREATE TABLE AS.
func (x *execCtx) createTable(st *ast.CreateTable, out *resultSink) (string, error) {
	pc := x.planCtx()
	schema, err := x.tableSchema(pc, st.Name, st.Temporary)
	if err != nil {
		return "", err
	}
	if err := x.requireCreateIn(schema); err != nil {
		return "", err
	}
	if st.OnCommit != "" && !isTempSchemaName(schema.Name) {
		return "", pgerror.New(pgerror.InvalidTableDefinition, "ON COMMIT can only be used on temporary tables")
	}
	pc = x.planCtx() // sees the temporary schema tableSchema may have made
	name := truncateIdent(st.Name.Name())
	if _, exists := pc.cat.Table(schema.OID, name); exists {
		if st.IfNotExists {
			x.notice("relation \"%s\" already exists, skipping", name)
			if st.AsQuery != nil {
				return "CREATE TABLE AS", nil
			}
			return "CREATE TABLE", nil
		}
		return "", pgerror.New(pgerror.DuplicateTable, "relation \"%s\" already exists", name)
	}
	tag := "CREATE TABLE"
	if st.AsQuery != nil {
		if tag, err = x.createTableAs(pc, st, schema, name); err != nil {
			return "", err
		}
	} else {
		t, err := x.buildTable(pc, st, schema, name, catalog.KindTable)
		if err != nil {
			return "", err
		}
		if err := x.storeNewTable(t); err != nil {
			return "", err
		}
	}
	if st.OnCommit == ast.OnCommitDrop || st.OnCommit == ast.OnCommitDeleteRows {
		t, _ := x.tx.catalog().Table(schema.OID, name)
		a := onCommitAction{table: t.OID, action: st.OnCommit}
		if b := x.sess.block; b != nil {
			b.onCommit = append(b.onCommit, a) // the session's if b commits
		} else {
			x.sess.onCommit = append(x.sess.onCommit, a)
		}
	}
	return tag, nil
}

// buildTable turns column and constraint definitions into a table.
func (x *execCtx) buildTable(pc *planCtx, st *ast.CreateTable, schema *catalog.Schema, name string, kind catalog.TableKind) (*catalog.Table, error) {
	ed, err := x.tx.edit()
	if err != nil {
		return nil, err
	}
	oid, err := ed.NewOID()
	if err != nil {
		return nil, err
	}
	rowType, err := ed.NewOID()
	if err != nil {
		return nil, err
	}
	t := &catalog.Table{OID: oid, Schema: schema.OID, Name: name, Kind: kind, NextAttnum: 1, RowType: rowType, Comment: st.Comment,
		Owner: x.sess.currentRoleOID(x.tx.catalog()), ACL: x.defaultTableACL(schema.OID)}
	seen := map[string]bool{}
	var pk []string
	pkName := ""
	pkPos := 0 // a table constraint's position, for errors about its columns
	for _, cd := range st.Columns {
		if seen[cd.Name] {
			return nil, pgerror.New(pgerror.DuplicateColumn, "column \"%s\" specified more than once", cd.Name)
		}
		seen[cd.Name] = true
		col, err := pc.columnFromDef(t, &cd)
		if err != nil {
			return nil, err
		}
		t.Columns = append(t.Columns, col)
		if cd.PrimaryKey {
			if pk != nil {
				return nil, pgerror.New(pgerror.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", name).WithPosition(cd.PrimaryKeyPos + 1)
			}
			pk = []string{cd.Name}
		}
		// Named column constraints (and a second unnamed CHECK) come
		// in Constraints rather than as the column's flags.
		for _, con := range cd.Constraints {
			switch con.Kind {
			case ast.ConstraintPrimaryKey:
				if pk != nil {
					return nil, pgerror.New(pgerror.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", name).WithPosition(con.Pos + 1)
				}
				pk, pkName = []string{cd.Name}, con.Name
			case ast.ConstraintNotNull:
				t.Columns[len(t.Columns)-1].NotNull = true
			}
		}
	}
	for _, con := range st.Constraints {
		if con.Kind == ast.ConstraintPrimaryKey {
			if pk != nil {
				return nil, pgerror.New(pgerror.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", name).WithPosition(con.Pos + 1)
			}
			pk = con.Columns
			pkName = con.Name
			pkPos = con.Pos + 1
		}
	}
	for _, n := range pk {
		col, ok := t.Column(n)
		if !ok {
			return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" named in key does not exist", n).WithPosition(pkPos)
		}
		col.NotNull = true
		t.PrimaryKey = append(t.PrimaryKey, col.Attnum)
	}
	if len(pk) > 0 {
		if pkName == "" {
			pkName = truncateIdent(name + "_pkey")
		}
		t.PrimaryKeyName = pkName
		if err := checkIndexKeyCount(len(t.PrimaryKey)); err != nil {
			return nil, err
		}
		if t.PrimaryKeyOID, err = ed.NewOID(); err != nil {
			return nil, err
		}
		t.Indexes = append(t.Indexes, catalog.Index{OID: t.PrimaryKeyOID, Name: pkName, Columns: append([]int16(nil), t.PrimaryKey...), Unique: true, Primary: true})
	}
	// Column-level UNIQUE / CHECK / REFERENCES, then table-level constraints.
	var cons []ast.TableConstraint
	for i := range st.Columns {
		cons = append(cons, columnConstraints(&st.Columns[i])...)
	}
	cons = append(cons, st.Constraints...)
	for _, con := range cons {
		if con.Kind == ast.ConstraintPrimaryKey || con.Kind == ast.ConstraintNotNull {
			continue
		}
		if err := x.addConstraint(pc, ed, t, con); err != nil {
			return nil, err
		}
	}
	if err := x.applyCreateOptions(t, st.Options); err != nil {
		return nil, err
	}
	return t, nil
}

// columnConstraints is a column definition's UNIQUE, CHECK and REFERENCES
// constraints as table constraints on the column, unnamed ones first, then
// the named ones in order; NOT NULL and PRIMARY KEY, which the column and
// the table's key carry, are left out.
func columnConstraints(cd *ast.ColumnDef) []ast.TableConstraint {
	var cons []ast.TableConstraint
	if cd.Unique {
		cons = append(cons, ast.TableConstraint{Kind: ast.ConstraintUnique, Columns: []string{cd.Name}, Pos: cd.Pos})
	}
	if cd.Check != nil {
		cons = append(cons, ast.TableConstraint{Kind: ast.ConstraintCheck, Check: cd.Check, Columns: []string{cd.Name}, Pos: cd.Pos})
	}
	if cd.References != nil {
		cons = append(cons, ast.TableConstraint{Kind: ast.ConstraintForeignKey, Columns: []string{cd.Name}, Ref: cd.References, Pos: cd.Pos})
	}
	for _, nc := range cd.Constraints {
		if nc.Kind != ast.ConstraintPrimaryKey && nc.Kind != ast.ConstraintNotNull {
			cons = append(cons, nc)
		}
	}
	return cons
}

// columnFromDef makes a column from its definition and gives it the next
// attnum.
func (pc *planCtx) columnFromDef(t *catalog.Table, cd *ast.ColumnDef) (catalog.Column, error) {
	typ, err := pc.resolveType(&cd.Type)
	if err != nil {
		return catalog.Column{}, err
	}
	col := catalog.Column{Name: truncateIdent(cd.Name), Type: typ, Attnum: t.NextAttnum, NotNull: cd.NotNull || cd.PrimaryKey}
	t.NextAttnum++
	switch cd.Type.Name {
	case "serial", "bigserial", "smallserial", "serial2", "serial4", "serial8":
		seq := truncateIdent(t.Name + "_" + cd.Name + "_seq")
		col.Sequence = seq
		col.Default = "nextval('" + seq + "'::regclass)"
		col.NotNull = true
	}
	if cd.Default != nil {
		text, err := pc.checkedExprText(cd.Default, typ, cd.Name)
		if err != nil {
			return catalog.Column{}, err
		}
		col.Default = text
	}
	return col, nil
}

// checkedExprText validates a default expression and returns the text the
// catalog stores.
func (pc *planCtx) checkedExprText(e ast.Expr, t types.T, column string) (string, error) {
	if containsAggregate(e) {
		return "", pgerror.New(pgerror.GroupingError, "aggregate functions are not allowed in DEFAULT expressions").WithPosition(e.Position() + 1)
	}
	b := pc.binder(newScope(nil))
	x, err := b.bind(e)
	if err != nil {
		if pgerror.CodeOf(err) == pgerror.UndefinedColumn {
			return "", pgerror.New(pgerror.FeatureNotSupported, "cannot use column reference in DEFAULT expression").WithPosition(e.Position() + 1)
		}
		return "", err
	}
	if _, err := b.assign(x, t, column); err != nil {
		return "", withPos(err, e)
	}
	return deparseExpr(e), nil
}

// addConstraint adds a UNIQUE, CHECK or FOREIGN KEY constraint to a table
// being created or altered.
func (x *execCtx) addConstraint(pc *planCtx, ed *catalog.Editor, t *catalog.Table, con ast.TableConstraint) error {
	for _, c := range t.Constraints {
		if con.Name != "" && c.Name == con.Name {
			return pgerror.New(pgerror.DuplicateObject, "constraint \"%s\" for relation \"%s\" already exists", con.Name, t.Name)
		}
	}
	if con.Kind == ast.ConstraintForeignKey {
		oid, err := ed.NewOID()
		if err != nil {
			return err
		}
		return x.addForeignKey(pc, t, con, oid)
	}
	var attnums []int16
	for _, n := range con.Columns {
		col, ok := t.Column(n)
		if !ok {
			return pgerror.New(pgerror.UndefinedColumn, "column \"%s\" named in key does not exist", n).WithPosition(con.Pos + 1)
		}
		attnums = append(attnums, col.Attnum)
	}
	oid, err := ed.NewOID()
	if err != nil {
		return err
	}
	switch con.Kind {
	case ast.ConstraintUnique:
		name := con.Name
		if name == "" {
			name = truncateIdent(t.Name + "_" + strings.Join(con.Columns, "_") + "_key")
		}
		if err := checkIndexKeyCount(len(attnums)); err != nil {
			return err
		}
		ixOID, err := ed.NewOID()
		if err != nil {
			return err
		}
		t.Indexes = append(t.Indexes, catalog.Index{OID: ixOID, Name: name, Columns: attnums, Unique: true})
		t.Constraints = append(t.Constraints, catalog.Constraint{OID: oid, Name: name, Kind: "u", Columns: attnums, Index: ixOID})
	case ast.ConstraintCheck:
		name := con.Name
		if name == "" {
			// Named after the column when the expression reads exactly
			// one, as PostgreSQL does; a column constraint is no different.
			base := t.Name + "_check"
			if cols := distinctNames(columnsOf(con.Check)); len(cols) == 1 {
				base = t.Name + "_" + cols[0] + "_check"
			}
			name = uniqueConstraintName(pc, t, base)
		}
		sc := newScope(nil)
		sc.add(tupleRel(t))
		if _, err := pc.binder(sc).bindCondition(con.Check, "CHECK"); err != nil {
			return err
		}
		t.Constraints = append(t.Constraints, catalog.Constraint{OID: oid, Name: name, Kind: "c", Columns: attnums, Check: deparseExpr(con.Check)})
	}
	return nil
}

// columnsOf lists the column names an expression mentions, in order.
func columnsOf(e ast.Expr) []string {
	var out []string
	walkExpr(e, func(n ast.Node) bool {
		if c, ok := n.(*ast.ColumnRef); ok {
			out = append(out, c.Parts[len(c.Parts)-1])
		}
		return true
	})
	return out
}

// applyCreateOptions applies CREATE TABLE ... WITH (k = v, ...) as ALTER
// TABLE ... SET does, for the options cdcdb keeps (history_retention among
// them, which is checked here as there). Other storage parameters of
// PostgreSQL's are accepted and not kept, as before.
func (x *execCtx) applyCreateOptions(t *catalog.Table, opts map[string]string) error {
	names := make([]string, 0, len(opts))
	for k := range opts {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		switch k {
		case "history_retention", "fillfactor", "autovacuum_enabled":
			if t.Options == nil {
				t.Options = map[string]string{}
			}
			if err := x.setTableOption(t, k, opts[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// storeNewTable records a new relation and creates its storage.
func (x *execCtx) storeNewTable(t *catalog.Table) error {
	ed, err := x.tx.edit()
	if err != nil {
		return err
	}
	if err := history.Create(x.tx.st, t.OID); err != nil {
		return err
	}
	for _, ix := range t.Indexes {
		if ix.Primary {
			continue
		}
		if _, err := x.tx.st.CreateSpace(catalog.IndexSpace(ix.OID)); err != nil {
			return err
		}
	}
	for _, c := range t.Columns {
		if c.Sequence != "" {
			if _, err := x.tx.st.CreateSpace(sequenceSpace(t.OID, c.Attnum)); err != nil {
				return err
			}
		}
	}
	return ed.PutTable(t)
}

// sequenceSpace holds the counter behind a serial column.
func sequenceSpace(table catalog.OID, attnum int16) string {
	return "q/" + strconv.FormatUint(uint64(table), 10) + "/" + strconv.Itoa(int(attnum))
}

func (x *execCtx) createTableAs(pc *planCtx, st *ast.CreateTable, schema *catalog.Schema, name string) (string, error) {
	p, err := pc.planQuery(st.AsQuery, nil)
	if err != nil {
		return "", err
	}
	ed, err := x.tx.edit()
	if err != nil {
		return "", err
	}
	oid, err := ed.NewOID()
	if err != nil {
		return "", err
	}
	rowType, err := ed.NewOID()
	if err != nil {
		return "", err
	}
	t := &catalog.Table{OID: oid, Schema: schema.OID, Name: name, Kind: catalog.KindTable, NextAttnum: 1, RowType: rowType,
		Owner: x.sess.currentRoleOID(x.tx.catalog()), ACL: x.defaultTableACL(schema.OID)}
	for i, c := range p.columns() {
		n := c.name
		if i < len(st.Columns) {
			n = st.Columns[i].Name
		}
		if _, dup := t.Column(n); dup {
			return "", pgerror.New(pgerror.DuplicateColumn, "column \"%s\" specified more than once", n)
		}
		t.Columns = append(t.Columns, catalog.Column{Name: n, Type: c.t, Attnum: t.NextAttnum})
		t.NextAttnum++
	}
	if err := x.applyCreateOptions(t, st.Options); err != nil {
		return "", err
	}
	if err := x.storeNewTable(t); err != nil {
		return "", err
	}
	if st.WithNoData {
		return "CREATE TABLE AS", nil
	}
	rows, err := drain(x, p, nil)
	if err != nil {
		return "", err
	}
	w := &tableWriter{table: t, schema: schema, defaults: map[int16]eval.Expr{}, width: int(t.NextAttnum - 1), modified: modifiedColumns(t)}
	for _, r := range rows {
		if _, err := w.insert(x, r); err != nil {
			return "", err
		}
	}
	return selectTag(len(rows)), nil
}

// truncateIdent cuts a name to PostgreSQL's identifier length.
func truncateIdent(s string) string {
	if len(s) <= maxIdentifierLength {
		return s
	}
	cut := maxIdentifierLength
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut]
}
