package sql

import (
	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

func (pc *planCtx) compileInsert(st *ast.Insert) (*compiled, error) {
	ctes, err := pc.withScope(st.With)
	if err != nil {
		return nil, err
	}
	t, schema, err := pc.lookupTable(st.Table)
	if err != nil {
		return nil, err
	}
	if err := pc.checkWritePrivilege(t, catalog.PrivInsert); err != nil {
		return nil, err
	}
	if err := pc.refuseDirectWrite(t, "insert into", st.Table.Pos); err != nil {
		return nil, err
	}
	if len(st.Returning) > 0 {
		if err := pc.checkTablePrivilege(t, catalog.PrivSelect); err != nil {
			return nil, err
		}
	}
	if st.OnConflict != nil && !st.OnConflict.DoNothing {
		if err := pc.checkTablePrivilege(t, catalog.PrivUpdate); err != nil {
			return nil, err
		}
	}
	pc.writing(t)
	if st.OnConflict != nil && !st.OnConflict.DoNothing {
		// DO UPDATE rewrites stored rows: of a flow's source, change events
		// the flow has already applied.
		if err := pc.refuseDirectWrite(t, "update", st.Table.Pos); err != nil {
			return nil, err
		}
	}
	cols, err := targetColumns(t, st.Columns, st.ColumnPos)
	if err != nil {
		return nil, err
	}
	w, err := pc.newTableWriter(t, schema)
	if err != nil {
		return nil, err
	}

	// The source: VALUES rows bound straight to the target columns (so
	// DEFAULT works and literals take the column types), or a query.
	var valueRows [][]eval.Expr // nil entry = DEFAULT
	var source plan
	b := pc.binder(newScope(ctes))
	switch {
	case st.Source == nil:
		valueRows = [][]eval.Expr{make([]eval.Expr, len(cols))}
	default:
		if v, ok := st.Source.Body.(*ast.Values); ok && st.Source.OrderBy == nil && st.Source.Limit == nil && st.Source.With == nil {
			if len(st.Columns) == 0 && len(v.Rows) > 0 && len(v.Rows[0]) < len(cols) {
				// Without a column list, VALUES may fill only the leading
				// columns; the rest take their defaults.
				cols = cols[:len(v.Rows[0])]
			}
			for _, row := range v.Rows {
				if len(row) > len(cols) {
					return nil, pgerror.New(pgerror.SyntaxError, "INSERT has more expressions than target columns").WithPosition(row[len(cols)].Position() + 1)
				}
				if len(row) < len(cols) {
					return nil, moreTargetsError(st, len(row))
				}
				bound := make([]eval.Expr, len(row))
				for i, e := range row {
					if _, isDef := e.(*ast.Default); isDef {
						continue
					}
					x, err := b.bind(e)
					if err != nil {
						return nil, err
					}
					if bound[i], err = b.assign(x, cols[i].Type, cols[i].Name); err != nil {
						return nil, withAssignPos(err, e)
					}
				}
				valueRows = append(valueRows, bound)
			}
		} else {
			p, err := pc.planQuery(st.Source, ctes)
			if err != nil {
				return nil, err
			}
			pcols := p.columns()
			if len(pcols) > len(cols) {
				return nil, pgerror.New(pgerror.SyntaxError, "INSERT has more expressions than target columns").WithPosition(st.Source.Pos + 1)
			}
			if len(pcols) < len(cols) && len(st.Columns) > 0 {
				return nil, moreTargetsError(st, len(pcols))
			}
			cols = cols[:len(pcols)]
			exprs := make([]eval.Expr, len(pcols))
			for i, c := range pcols {
				x, err := b.assign(&eval.ColRef{Idx: i, T: c.t}, cols[i].Type, cols[i].Name)
				if err != nil {
					return nil, err
				}
				exprs[i] = x
			}
			source = &projectPlan{input: p, exprs: exprs, cols: pcols}
		}
	}

	if err := refuseIdentityInsert(cols, givenColumns(valueRows, source != nil, len(cols))); err != nil { // ddl_identity.go
		return nil, err
	}
	rowScope := tableColumnsScope(nil, t, tableAlias(st.Alias, t), schema.Name)
	ret, err := pc.bindReturning(st.Returning, rowScope)
	if err != nil {
		return nil, err
	}
	conflict, err := pc.bindOnConflict(st, t, schema, w)
	if err != nil {
		return nil, err
	}
	c := &compiled{access: accessWrite, explainPlan: source}
	if ret != nil {
		c.fields = ret.cols
	}
	c.run = &insertStatement{t: t, w: w, cols: cols, source: source, valueRows: valueRows, conflict: conflict, ret: ret}
	return c, nil
}

// insertStatement is INSERT: its rows come from a query (source) or
// from VALUES bound straight to the target columns (valueRows, a nil
// expression for DEFAULT).
type insertStatement struct {
	t         *catalog.Table
	w         *tableWriter
	cols      []catalog.Column
	source    plan
	valueRows [][]eval.Expr
	conflict  *onConflict
	ret       *returning
}

func (s *insertStatement) String() string { return "Insert on " + parse.QuoteIdent(s.t.Name) }

// explainRows shows the VALUES rows below the statement as PostgreSQL
// does: one row is a Result, more a Values Scan. (A query's rows are
// compiled.explainPlan.)
func (s *insertStatement) explainRows(depth int, out *[]string) {
	if len(s.valueRows) == 1 {
		explainLine(out, depth, "Result")
		return
	}
	explainLine(out, depth, "Values Scan on \"*VALUES*\"")
}

func (s *insertStatement) exec(x *execCtx, out *resultSink) (string, error) {
	t, w, cols, source, valueRows, conflict, ret := s.t, s.w, s.cols, s.source, s.valueRows, s.conflict, s.ret
	w.reset()
	n := 0
	// touched holds the keys of the rows this execution inserted or
	// updated: DO UPDATE may not change one of them again.
	var touched map[string]bool
	if conflict != nil && !conflict.doNothing {
		touched = map[string]bool{}
	}
	write := func(vals []types.Value, defaults []bool) error {
		tuple := make([]types.Value, w.width)
		given := make(map[int16]bool, len(cols))
		for i, col := range cols {
			if defaults != nil && defaults[i] {
				continue
			}
			tuple[col.Attnum-1] = vals[i]
			given[col.Attnum] = true
		}
		for _, col := range t.LiveColumns() {
			if !given[col.Attnum] {
				v, err := w.defaultValue(x, col.Attnum)
				if err != nil {
					return err
				}
				tuple[col.Attnum-1] = v
			}
		}
		if conflict != nil {
			done, wrote, err := conflict.handle(x, out, tuple, ret, touched)
			if err != nil {
				return err
			}
			if done {
				if wrote {
					n++
				}
				return nil
			}
		}
		key, err := w.insert(x, tuple)
		if err != nil {
			return err
		}
		if touched != nil {
			touched[string(key)] = true
		}
		n++
		return ret.emit(x, out, scanRow(t, tuple))
	}
	if source != nil {
		rows, err := drain(x, source, nil)
		if err != nil {
			return "", err
		}
		for _, r := range rows {
			if err := x.CheckCancel(); err != nil {
				return "", err
			}
			if err := write(r, nil); err != nil {
				return "", err
			}
		}
	} else {
		env := &eval.Env{X: x}
		for _, r := range valueRows {
			vals := make([]types.Value, len(r))
			defaults := make([]bool, len(r))
			for i, e := range r {
				if e == nil {
					defaults[i] = true
					continue
				}
				v, err := e.Eval(env)
				if err != nil {
					return "", err
				}
				vals[i] = v
			}
			if err := write(vals, defaults); err != nil {
				return "", err
			}
		}
	}
	if err := w.finish(x); err != nil {
		return "", err
	}
	return "INSERT 0 " + itoa(n), nil
}

// moreTargetsError points at the first target column no expression fills.
func moreTargetsError(st *ast.Insert, filled int) error {
	pos := st.Pos
	if filled < len(st.ColumnPos) {
		pos = st.ColumnPos[filled]
	}
	return pgerror.New(pgerror.SyntaxError, "INSERT has more target columns than expressions").WithPosition(pos + 1)
}

func tableAlias(alias string, t *catalog.Table) string {
	if alias != "" {
		return alias
	}
	return t.Name
}

// onConflict is a bound ON CONFLICT clause.
type onConflict struct {
	t         *catalog.Table
	w         *tableWriter
	cols      []int16 // the arbiter: primary key or a unique index's columns
	index     *catalog.Index
	anyUnique bool // DO NOTHING with no arbiter: any unique index conflicts
	doNothing bool
	set       map[int16]eval.Expr // over [existing row..., excluded row...]
	where     eval.Expr
}

func (pc *planCtx) bindOnConflict(st *ast.Insert, t *catalog.Table, schema *catalog.Schema, w *tableWriter) (*onConflict, error) {
	oc := st.OnConflict
	if oc == nil {
		return nil, nil
	}
	c := &onConflict{t: t, w: w, doNothing: oc.DoNothing}
	// Find the arbiter: the constraint whose columns are those listed.
	matches := func(cols []int16) bool {
		if len(oc.Columns) == 0 {
			return false
		}
		if len(cols) != len(oc.Columns) {
			return false
		}
		for i, n := range oc.Columns {
			col, ok := t.Column(n)
			if !ok || col.Attnum != cols[i] {
				return false
			}
		}
		return true
	}
	switch {
	case oc.Constraint != "":
		if oc.Constraint == pkIndexName(t) && len(t.PrimaryKey) > 0 {
			c.cols = t.PrimaryKey
		}
		for i := range t.Indexes {
			if t.Indexes[i].Name == oc.Constraint && t.Indexes[i].Unique {
				c.index = &t.Indexes[i]
				c.cols = t.Indexes[i].Columns
			}
		}
		if c.cols == nil {
			return nil, pgerror.New(pgerror.UndefinedObject, "constraint \"%s\" for table \"%s\" does not exist", oc.Constraint, t.Name)
		}
	case len(oc.Columns) == 0 && oc.DoNothing:
		// ON CONFLICT DO NOTHING with no arbiter: any unique violation.
		c.cols, c.anyUnique = t.PrimaryKey, true
	case matches(t.PrimaryKey):
		c.cols = t.PrimaryKey
	default:
		for i := range t.Indexes {
			if t.Indexes[i].Unique && matches(t.Indexes[i].Columns) {
				c.index = &t.Indexes[i]
				c.cols = t.Indexes[i].Columns
			}
		}
		if c.cols == nil {
			return nil, pgerror.New(pgerror.InvalidColumnReference, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
		}
	}
	if oc.DoNothing {
		return c, nil
	}
	// DO UPDATE expressions see the existing row and EXCLUDED.
	sc := tableColumnsScope(nil, t, tableAlias(st.Alias, t), schema.Name)
	ex := tableColumnsScope(nil, t, "excluded", "")
	sc.add(ex.rels[0])
	b := pc.binder(sc)
	c.set = map[int16]eval.Expr{}
	for _, s := range oc.Set {
		col, ok := t.Column(s.Column)
		if !ok {
			return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", s.Column, t.Name).WithPosition(s.Pos + 1)
		}
		var x eval.Expr
		if _, isDef := s.Value.(*ast.Default); isDef {
			x = w.defaults[col.Attnum]
			if x == nil {
				x = &eval.Const{T: col.Type}
			}
		} else {
			v, err := b.bind(s.Value)
			if err != nil {
				return nil, err
			}
			if x, err = b.assign(v, col.Type, col.Name); err != nil {
				return nil, withAssignPos(err, s.Value)
			}
		}
		c.set[col.Attnum] = x
	}
	if oc.Where != nil {
		var err error
		if c.where, err = b.bindCondition(oc.Where, "WHERE"); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// handle resolves a conflict for a new tuple: done reports the row was
// dealt with (skipped or updated), wrote that a row was updated.
func (c *onConflict) handle(x *execCtx, out *resultSink, tuple []types.Value, ret *returning, touched map[string]bool) (done, wrote bool, err error) {
	// The proposed row is looked up, and read as EXCLUDED, as its columns
	// would hold it.
	if err := fitColumns(c.w.modified, tuple); err != nil {
		return false, false, err
	}
	sp := x.tx.st.Space(catalog.DataSpace(c.t.OID))
	var existingKey []byte
	for i := range c.t.Indexes {
		ix := &c.t.Indexes[i]
		arbiter := ix.Unique && (c.anyUnique || (c.index == nil && ix.Primary) || c.index == ix)
		if !arbiter {
			continue
		}
		if err = lockArbiter(x, c.t, ix, tuple); err != nil {
			break
		}
		if existingKey, err = conflictingRow(x, c.t, ix, tuple); err != nil || existingKey != nil {
			break
		}
	}
	if err == nil && existingKey == nil && c.anyUnique {
		existingKey, err = c.w.conflictingExprIndexRow(x, tuple) // ddl_exprindex.go
	}
	if err != nil {
		return false, false, err
	}
	if existingKey == nil {
		return false, false, nil
	}
	if err := x.tx.readRow(c.t, existingKey); err != nil {
		return false, false, err
	}
	if c.doNothing {
		return true, false, nil
	}
	if touched[string(existingKey)] {
		return false, false, pgerror.New(pgerror.CardinalityViolation, "ON CONFLICT DO UPDATE command cannot affect row a second time").
			WithHint("Ensure that no rows proposed for insertion within the same command have duplicate constrained values.")
	}
	old, err := decodeTuple(c.t, sp.Get(existingKey))
	if err != nil {
		return false, false, err
	}
	row := append(scanRow(c.t, old), scanRow(c.t, tuple)...)
	env := &eval.Env{Row: row, X: x}
	if c.where != nil {
		v, err := c.where.Eval(env)
		if err != nil {
			return false, false, err
		}
		if v != true {
			return true, false, nil
		}
	}
	updated := append([]types.Value(nil), old...)
	for attnum, e := range c.set {
		v, err := e.Eval(env)
		if err != nil {
			return false, false, err
		}
		updated[attnum-1] = v
	}
	if err := c.w.replace(x, existingKey, old, updated); err != nil {
		return false, false, err
	}
	newKey := existingKey
	if len(c.t.PrimaryKey) > 0 {
		if newKey, err = primaryKey(c.t, updated); err != nil {
			return false, false, err
		}
	}
	touched[string(newKey)] = true
	return true, true, ret.emit(x, out, scanRow(c.t, updated))
}

// conflictingRow returns the storage key of the row a unique index (or the
// primary key) already holds for tuple's values, nil when there is none.
func conflictingRow(x *execCtx, t *catalog.Table, ix *catalog.Index, tuple []types.Value) ([]byte, error) {
	if ix.Primary {
		key, err := primaryKey(t, tuple)
		if err != nil || x.tx.st.Space(catalog.DataSpace(t.OID)).Get(key) == nil {
			return nil, err
		}
		return key, nil
	}
	k, ok, err := indexKey(ix, nil, tuple)
	if err != nil || !ok {
		return nil, err
	}
	if isp := x.tx.st.Space(catalog.IndexSpace(ix.OID)); isp != nil {
		if v := isp.Get(k); v != nil {
			return append([]byte(nil), v...), nil
		}
	}
	return nil, nil
}

// compileUpdate plans UPDATE: the rows to change come from a scan of the
// target (with its storage keys), joined with FROM items, filtered by WHERE.
func (pc *planCtx) compileUpdate(st *ast.Update) (*compiled, error) {
	t, w, src, sc, err := pc.dmlTarget("update", st.With, st.Table, st.Alias, st.From, st.Where)
	if err != nil {
		return nil, err
	}
	b := pc.binder(sc)
	var sets []columnAssignment
	seen := map[string]bool{}
	for _, s := range st.Set {
		col, ok := t.Column(s.Column)
		if !ok {
			return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", s.Column, t.Name).WithPosition(s.Pos + 1)
		}
		if seen[s.Column] {
			return nil, pgerror.New(pgerror.SyntaxError, "multiple assignments to same column \"%s\"", s.Column)
		}
		seen[s.Column] = true
		var x eval.Expr
		if _, isDef := s.Value.(*ast.Default); isDef {
			x = w.defaults[col.Attnum]
			if x == nil {
				x = &eval.Const{T: col.Type}
			}
		} else {
			if err := refuseIdentityUpdate(col); err != nil { // ddl_identity.go
				return nil, err
			}
			v, err := b.bind(s.Value)
			if err != nil {
				return nil, err
			}
			if x, err = b.assign(v, col.Type, col.Name); err != nil {
				return nil, withAssignPos(err, s.Value)
			}
		}
		sets = append(sets, columnAssignment{col.Attnum, x})
	}
	ret, err := pc.bindReturning(st.Returning, sc)
	if err != nil {
		return nil, err
	}
	nlive := len(t.LiveColumns())
	keyIdx := len(src.columns()) - 1
	c := &compiled{access: accessWrite, explainPlan: src}
	if ret != nil {
		c.fields = ret.cols
	}
	c.run = &updateStatement{t: t, w: w, src: src, sets: sets, ret: ret, nlive: nlive, keyIdx: keyIdx}
	return c, nil
}

// columnAssignment is one SET column = expression of an UPDATE.
type columnAssignment struct {
	attnum int16
	e      eval.Expr
}

// updateStatement is UPDATE: src yields the rows to change, the stored
// row's key last (keyIdx) and the FROM list's columns after the table's
// nlive live ones, for the SET expressions and RETURNING.
type updateStatement struct {
	t      *catalog.Table
	w      *tableWriter
	src    plan
	sets   []columnAssignment
	ret    *returning
	nlive  int
	keyIdx int
}

func (u *updateStatement) String() string { return "Update on " + parse.QuoteIdent(u.t.Name) }

func (u *updateStatement) exec(x *execCtx, out *resultSink) (string, error) {
	t, w, src, sets, ret, nlive, keyIdx := u.t, u.w, u.src, u.sets, u.ret, u.nlive, u.keyIdx
	w.reset()
	rows, err := drain(x, src, nil)
	if err != nil {
		return "", err
	}
	dataSp := x.tx.st.Space(catalog.DataSpace(t.OID))
	done := map[string]bool{}
	n := 0
	for _, r := range rows {
		if err := x.CheckCancel(); err != nil {
			return "", err
		}
		key := r[keyIdx].([]byte)
		if done[string(key)] {
			continue // a FROM join matched the row twice: update once
		}
		done[string(key)] = true
		raw := dataSp.Get(key)
		if raw == nil {
			continue
		}
		old, err := decodeTuple(t, raw)
		if err != nil {
			return "", err
		}
		updated := append([]types.Value(nil), old...)
		env := &eval.Env{Row: r, X: x}
		for _, s := range sets {
			v, err := s.e.Eval(env)
			if err != nil {
				return "", err
			}
			updated[s.attnum-1] = v
		}
		if err := w.replace(x, key, old, updated); err != nil {
			return "", err
		}
		n++
		if ret != nil {
			row := append(scanRow(t, updated), r[nlive:]...)
			if err := ret.emit(x, out, row); err != nil {
				return "", err
			}
		}
	}
	if err := w.finish(x); err != nil {
		return "", err
	}
	return "UPDATE " + itoa(n), nil
}

// dmlTarget resolves the table an UPDATE or DELETE changes, refuses the
// tables that must not be changed directly, and plans the rows it acts on.
func (pc *planCtx) dmlTarget(verb string, with *ast.With, name ast.QualifiedName, alias string, from []ast.TableExpr, where ast.Expr) (*catalog.Table, *tableWriter, plan, *scope, error) {
	ctes, err := pc.withScope(with)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	t, schema, err := pc.lookupTable(name)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	priv := catalog.PrivDelete
	if verb == "update" {
		priv = catalog.PrivUpdate
	}
	if err := pc.checkWritePrivilege(t, priv); err != nil {
		return nil, nil, nil, nil, err
	}
	if where != nil {
		// A WHERE clause reads the rows, as in PostgreSQL.
		if err := pc.checkTablePrivilege(t, catalog.PrivSelect); err != nil {
			return nil, nil, nil, nil, err
		}
	}
	if err := pc.refuseDirectWrite(t, verb, name.Pos); err != nil {
		return nil, nil, nil, nil, err
	}
	pc.writing(t)
	w, err := pc.newTableWriter(t, schema)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	src, sc, err := pc.dmlSource(t, schema, alias, from, where, ctes)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return t, w, src, sc, nil
}

// dmlSource plans the rows an UPDATE or DELETE acts on: the target's scan
// with storage keys, the extra FROM/USING items, and WHERE. The returned
// scope has the target's columns first; the key is the plan's last column.
// ctes, when set, holds the statement's WITH queries.
func (pc *planCtx) dmlSource(t *catalog.Table, schema *catalog.Schema, alias string, from []ast.TableExpr, where ast.Expr, ctes *scope) (plan, *scope, error) {
	scan := newTableScan(t)
	sc := tableColumnsScope(ctes, t, tableAlias(alias, t), schema.Name)
	if alias != "" {
		sc.rels[0].schema = ""
	}
	var p plan = scan
	if len(from) > 0 {
		fromScope := newScope(ctes)
		fp, err := pc.planFrom(from, fromScope)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range fromScope.rels {
			sc.add(r)
		}
		p = &joinPlan{left: scan, right: fp, kind: ast.JoinCross, cols: append(append([]outCol(nil), scan.columns()...), fp.columns()...)}
	}
	if where != nil {
		cond, err := pc.binder(sc).bindCondition(where, "WHERE")
		if err != nil {
			return nil, nil, err
		}
		if j, ok := p.(*joinPlan); ok {
			// Not pushFilter: its FROM-list reordering would move the
			// target from the left, where withKeyColumn finds it.
			p = pushIntoJoin(j, cond)
		} else {
			p = pushFilter(p, cond)
		}
	}
	// Carry the storage key as the last column.
	cols := p.columns()
	keyed := withKeyColumn(p)
	exprs := make([]eval.Expr, 0, len(cols)+1)
	keyPos := len(scan.cols)
	for i, c := range cols {
		idx := i
		if i >= keyPos {
			idx++ // the key column sits between the target's and FROM's columns
		}
		exprs = append(exprs, &eval.ColRef{Idx: idx, T: c.t})
	}
	kcols := keyed.columns()
	exprs = append(exprs, &eval.ColRef{Idx: keyPos, T: kcols[keyPos].t})
	out := append(append([]outCol(nil), cols...), outCol{name: "ctid", t: types.Of(types.Bytea)})
	return &projectPlan{input: keyed, exprs: exprs, cols: out}, sc, nil
}

// withKeyColumn turns on the storage-key column of the target scan at the
// bottom left of a DML source plan, shifting the join's right side.
func withKeyColumn(p plan) plan {
	switch n := p.(type) {
	case *tableScan:
		c := *n
		c.withKey = true
		return &c
	case *indexScan:
		c := *n
		c.scan = withKeyColumn(n.scan).(*tableScan)
		return &c
	case *filterPlan:
		inner := withKeyColumn(n.input)
		return &filterPlan{input: inner, cond: shiftAfter(n.cond, len(leftmostScan(n.input).cols), 1)}
	case *joinPlan:
		c := *n
		c.left = withKeyColumn(n.left)
		w := len(leftmostScan(n.left).cols)
		if c.cond != nil {
			c.cond = shiftAfter(c.cond, w, 1)
		}
		c.cols = append(append([]outCol(nil), c.left.columns()...), n.right.columns()...)
		return &c
	}
	return p
}

func leftmostScan(p plan) *tableScan {
	switch n := p.(type) {
	case *tableScan:
		return n
	case *indexScan:
		return n.scan
	case *filterPlan:
		return leftmostScan(n.input)
	case *joinPlan:
		return leftmostScan(n.left)
	}
	return nil
}

// shiftAfter moves current-level column references at or after position
// from by delta, for inserting a column into the row layout.
func shiftAfter(e eval.Expr, from, delta int) eval.Expr {
	return mapColumns(e, func(c *eval.ColRef) *eval.ColRef {
		if c.Level == 0 && c.Idx >= from {
			n := *c
			n.Idx += delta
			return &n
		}
		return c
	})
}

func (pc *planCtx) compileDelete(st *ast.Delete) (*compiled, error) {
	t, w, src, sc, err := pc.dmlTarget("delete from", st.With, st.Table, st.Alias, st.Using, st.Where)
	if err != nil {
		return nil, err
	}
	ret, err := pc.bindReturning(st.Returning, sc)
	if err != nil {
		return nil, err
	}
	keyIdx := len(src.columns()) - 1
	c := &compiled{access: accessWrite, explainPlan: src}
	if ret != nil {
		c.fields = ret.cols
	}
	c.run = &deleteStatement{t: t, w: w, src: src, ret: ret, keyIdx: keyIdx}
	return c, nil
}

// deleteStatement is DELETE: src yields the rows to delete, the stored
// row's key last (keyIdx).
type deleteStatement struct {
	t      *catalog.Table
	w      *tableWriter
	src    plan
	ret    *returning
	keyIdx int
}

func (s *deleteStatement) String() string { return "Delete on " + parse.QuoteIdent(s.t.Name) }

func (s *deleteStatement) exec(x *execCtx, out *resultSink) (string, error) {
	t, w, src, ret, keyIdx := s.t, s.w, s.src, s.ret, s.keyIdx
	w.reset()
	rows, err := drain(x, src, nil)
	if err != nil {
		return "", err
	}
	dataSp := x.tx.st.Space(catalog.DataSpace(t.OID))
	n := 0
	for _, r := range rows {
		if err := x.CheckCancel(); err != nil {
			return "", err
		}
		key := r[keyIdx].([]byte)
		raw := dataSp.Get(key)
		if raw == nil {
			continue // already deleted through another USING match
		}
		old, err := decodeTuple(t, raw)
		if err != nil {
			return "", err
		}
		if err := w.remove(x, key, old); err != nil {
			return "", err
		}
		n++
		if err := ret.emit(x, out, r[:keyIdx]); err != nil {
			return "", err
		}
	}
	if err := w.finish(x); err != nil {
		return "", err
	}
	return "DELETE " + itoa(n), nil
}
