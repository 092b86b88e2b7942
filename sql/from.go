package sql

import (
	"cdcdb/acl"
	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
)

// planFrom plans a FROM list: its items are cross-joined left to right, and
// their relations are added to sc.
func (pc *planCtx) planFrom(items []ast.TableExpr, sc *scope) (plan, error) {
	var p plan
	for _, item := range items {
		// A LATERAL item (or a function call) may read the items before it.
		var left *scope
		if p != nil {
			left = sc
		}
		ip, rels, err := pc.planTableExpr(item, sc, left)
		if err != nil {
			return nil, err
		}
		if err := uniqueRelNames(sc.rels, rels); err != nil {
			return nil, err
		}
		for _, r := range rels {
			sc.add(r)
		}
		if p == nil {
			p = ip
			continue
		}
		p = crossJoin(p, ip)
	}
	return p, nil
}

// lateralInput is a FROM item that reads the row of the items before it:
// it is joined to them by opening it again for each of their rows.
type lateralInput struct{ plan }

// crossJoin joins two FROM items; a lateral right side makes it a nested
// loop that hands each left row to the right side.
func crossJoin(left, right plan) *joinPlan {
	j := &joinPlan{left: left, right: right, kind: ast.JoinCross, cols: append(append([]outCol(nil), left.columns()...), right.columns()...)}
	if l, ok := right.(*lateralInput); ok {
		j.right, j.param = l.plan, true
	}
	return j
}

// lateralScope is where a FROM item looks up names: after the items before
// it (left, at the next level out, as the enclosing row of a lateral
// input), or else straight in the enclosing query.
func lateralScope(sc, left *scope) *scope {
	if left != nil {
		return left
	}
	return sc.parent
}

// planTableExpr plans one FROM item and returns the relations it brings into
// scope (not yet added, so that ON conditions see exactly the join's sides).
//
// left, when set, holds the relations before the item that a LATERAL
// subquery or a function call may read; the item then comes back as a
// lateralInput when it does read them.
func (pc *planCtx) planTableExpr(t ast.TableExpr, sc, left *scope) (plan, []*scopeRel, error) {
	switch t := t.(type) {
	case *ast.TableRef:
		return pc.planTableRef(t, sc)
	case *ast.SubqueryTable:
		parent := sc.parent
		if t.Lateral {
			parent = lateralScope(sc, left)
		}
		probe := newProbeScope(parent)
		var p plan
		p, err := pc.planQuery(t.Query, probe)
		if err != nil {
			return nil, nil, err
		}
		if t.Lateral && left != nil && probe.correlated {
			p = &lateralInput{p}
		}
		name := ""
		if t.Alias != nil {
			name = t.Alias.Name
		}
		rel := relFromColumns(name, p.columns())
		if err := applyAlias(rel, t.Alias, t.Pos); err != nil {
			return nil, nil, err
		}
		return p, []*scopeRel{rel}, nil
	case *ast.FuncTable:
		return pc.planFuncTable(t, sc, left)
	case *ast.Join:
		return pc.planJoin(t, sc)
	}
	return nil, nil, pgerror.New(pgerror.FeatureNotSupported, "FROM item %T is not supported", t)
}

// applyAlias renames a relation and its leading columns per AS name (cols).
// Too many column aliases is an error PostgreSQL reports without a
// position, so the FROM item's position goes unused.
func applyAlias(rel *scopeRel, a *ast.Alias, _ int) error {
	if a == nil {
		return nil
	}
	rel.name = a.Name
	rel.schema = ""
	if len(a.Columns) > len(rel.cols) {
		return pgerror.New(pgerror.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified", a.Name, len(rel.cols), len(a.Columns))
	}
	for i, c := range a.Columns {
		rel.cols[i].name = c
	}
	return nil
}

func (pc *planCtx) planTableRef(t *ast.TableRef, sc *scope) (plan, []*scopeRel, error) {
	if len(t.Name.Parts) == 1 {
		if def := sc.cte(t.Name.Parts[0]); def != nil {
			if len(t.Periods) > 0 {
				return nil, nil, periodOnNonTemporal(t)
			}
			rel := relFromColumns(def.name, def.cols)
			if err := applyAlias(rel, t.Alias, t.Pos); err != nil {
				return nil, nil, err
			}
			if w, ok := def.plan.(*workingTableScan); ok {
				return w, []*scopeRel{rel}, nil
			}
			return &cteScan{def: def}, []*scopeRel{rel}, nil
		}
	}
	if vt, ok := pc.lookupSystemTable(t.Name); ok {
		if len(t.Periods) > 0 {
			return nil, nil, periodOnNonTemporal(t)
		}
		if vt.Query() != "" {
			return pc.planSystemView(vt, t)
		}
		return pc.planSystemTable(vt, t)
	}
	tbl, schema, err := pc.lookupTable(t.Name)
	if err != nil {
		if p, rels, ok, seqErr := pc.planSequenceRelation(t, err); ok || seqErr != nil {
			return p, rels, seqErr // funcs_dump.go
		}
		return nil, nil, err
	}
	// Reading a table's history (FOR SYSTEM_TIME, FOR BUSINESS_TIME) is
	// reading the table.
	if err := pc.checkTablePrivilege(tbl, catalog.PrivSelect); err != nil {
		return nil, nil, err
	}
	if pc.tablesRead != nil {
		pc.tablesRead[tbl.OID] = true
	}
	if tbl.Kind == catalog.KindView {
		stmts, err := parse.Parse(tbl.ViewQuery)
		if err != nil || len(stmts) != 1 {
			return nil, nil, pgerror.New(pgerror.DataCorrupted, "view \"%s\" has an unreadable definition", tbl.Name)
		}
		q, ok := stmts[0].(*ast.Select)
		if !ok {
			return nil, nil, pgerror.New(pgerror.DataCorrupted, "view \"%s\" has an unreadable definition", tbl.Name)
		}
		pc.inView++
		pc.viewOwners = append(pc.viewOwners, acl.TableOwner(tbl))
		outerPath := pc.viewPath
		if len(tbl.ViewSearchPath) > 0 {
			pc.viewPath = tbl.ViewSearchPath
		}
		p, err := pc.planQuery(q, nil)
		pc.viewPath = outerPath
		pc.viewOwners = pc.viewOwners[:len(pc.viewOwners)-1]
		pc.inView--
		if err != nil {
			return nil, nil, err
		}
		rel := relFromColumns(tbl.Name, p.columns())
		for i, c := range tbl.LiveColumns() {
			if i < len(rel.cols) {
				rel.cols[i].name = c.Name
			}
		}
		rel.schema = schema.Name
		if err := applyAlias(rel, t.Alias, t.Pos); err != nil {
			return nil, nil, err
		}
		return p, []*scopeRel{rel}, nil
	}
	scan := newTableScan(tbl)
	rel := &scopeRel{name: tbl.Name, schema: schema.Name, table: tbl, relOID: tbl.OID}
	for _, c := range scan.cols {
		rel.cols = append(rel.cols, scopeCol{name: c.name, t: c.t, tableOID: c.tableOID, attnum: c.attnum})
	}
	if err := applyAlias(rel, t.Alias, t.Pos); err != nil {
		return nil, nil, err
	}
	var p plan = scan
	if len(t.Periods) > 0 {
		if p, err = pc.applyPeriods(scan, tbl, t, sc); err != nil {
			return nil, nil, err
		}
	}
	return p, []*scopeRel{rel}, nil
}

func periodOnNonTemporal(t *ast.TableRef) error {
	return pgerror.New(pgerror.WrongObjectType, "relation \"%s\" has no period %s", t.Name.Name(), t.Periods[0].Axis).WithPosition(t.Periods[0].Pos + 1)
}

// lookupTable resolves a table name through the session's search_path.
func (pc *planCtx) lookupTable(q ast.QualifiedName) (*catalog.Table, *catalog.Schema, error) {
	name := q.Name()
	if len(q.Parts) > 3 {
		return nil, nil, pgerror.New(pgerror.SyntaxError, "improper qualified name (too many dotted names): %s", joinParts(q.Parts)).WithPosition(q.Pos + 1)
	}
	if len(q.Parts) == 3 && q.Parts[0] != "main" {
		return nil, nil, pgerror.New(pgerror.FeatureNotSupported, "cross-database references are not implemented: \"%s\"", joinParts(q.Parts)).WithPosition(q.Pos + 1)
	}
	if s := pc.schemaName(q.Schema()); s != "" {
		if err := pc.otherSessionsTemp(s, q.Pos); err != nil {
			return nil, nil, err
		}
		sc, ok := pc.cat.Schema(s)
		if !ok {
			return nil, nil, pgerror.New(pgerror.UndefinedTable, "relation \"%s\" does not exist", joinParts(q.Parts[len(q.Parts)-2:])).WithPosition(q.Pos + 1)
		}
		t, ok := pc.cat.Table(sc.OID, name)
		if !ok {
			return nil, nil, pgerror.New(pgerror.UndefinedTable, "relation \"%s\" does not exist", joinParts(q.Parts[len(q.Parts)-2:])).WithPosition(q.Pos + 1)
		}
		return t, sc, nil
	}
	for _, sname := range pc.searchPath() {
		if pc.inView > 0 && isTempSchemaName(sname) {
			continue
		}
		sc, ok := pc.cat.Schema(sname)
		if !ok {
			continue
		}
		if t, ok := pc.cat.Table(sc.OID, name); ok {
			return t, sc, nil
		}
	}
	return nil, nil, pgerror.New(pgerror.UndefinedTable, "relation \"%s\" does not exist", name).WithPosition(q.Pos + 1)
}

func joinParts(parts []string) string {
	s := ""
	for i, p := range parts {
		if i > 0 {
			s += "."
		}
		s += p
	}
	return s
}

// creationSchema picks the schema a new object goes to: the one named, or
// the first existing schema of search_path.
func (pc *planCtx) creationSchema(q ast.QualifiedName) (*catalog.Schema, error) {
	if len(q.Parts) == 3 && q.Parts[0] != "main" {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "cross-database references are not implemented: \"%s\"", joinParts(q.Parts)).WithPosition(q.Pos + 1)
	}
	if s := pc.schemaName(q.Schema()); s != "" {
		if err := pc.otherSessionsTemp(s, q.Pos); err != nil {
			return nil, err
		}
		if isTempSchemaName(s) {
			// Tables are made there by createTable (tableSchema).
			return nil, pgerror.New(pgerror.FeatureNotSupported, "only tables can be created in a temporary schema").WithPosition(q.Pos + 1)
		}
		sc, ok := pc.cat.Schema(s)
		if !ok {
			return nil, pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", s).WithPosition(q.Pos + 1)
		}
		return sc, nil
	}
	for _, sname := range pc.sess.searchPath() {
		if catalog.IsSystemSchemaName(sname) || isTempSchemaName(sname) {
			continue
		}
		if sc, ok := pc.cat.Schema(sname); ok {
			return sc, nil
		}
	}
	return nil, pgerror.New(pgerror.UndefinedSchema, "no schema has been selected to create in").WithPosition(q.Pos + 1)
}

func (pc *planCtx) planJoin(j *ast.Join, sc *scope) (plan, []*scopeRel, error) {
	lp, lrels, err := pc.planTableExpr(j.Left, sc, nil)
	if err != nil {
		return nil, nil, err
	}
	// The right side may read the left one laterally.
	ls := newScope(sc.parent)
	ls.ctes = sc.ctes
	for _, r := range lrels {
		ls.add(cloneRel(r))
	}
	rp, rrels, err := pc.planTableExpr(j.Right, sc, ls)
	if err != nil {
		return nil, nil, err
	}
	lateral := false
	if l, ok := rp.(*lateralInput); ok {
		if j.Kind == ast.JoinRight || j.Kind == ast.JoinFull {
			return nil, nil, pgerror.New(pgerror.InvalidColumnReference, "invalid reference to FROM-clause entry for table \"%s\"", lrels[0].name).
				WithDetail("The combining JOIN type must be INNER or LEFT for a LATERAL reference.")
		}
		rp, lateral = l.plan, true
	}
	if err := uniqueRelNames(lrels, rrels); err != nil {
		return nil, nil, err
	}
	// The join condition sees both sides (and outer levels).
	js := newScope(sc.parent)
	js.ctes = sc.ctes
	for _, r := range lrels {
		js.add(cloneRel(r))
	}
	lw := js.width
	for _, r := range rrels {
		js.add(cloneRel(r))
	}
	cols := append(append([]outCol(nil), lp.columns()...), rp.columns()...)
	jp := &joinPlan{left: lp, right: rp, kind: j.Kind, cols: cols, param: lateral}
	if j.Kind == ast.JoinCross && j.On == nil && len(j.Using) == 0 && !j.Natural {
		return jp, append(lrels, rrels...), nil
	}
	b := pc.binder(js)
	using := j.Using
	if j.Natural {
		using = nil
		for _, lr := range lrels {
			for _, lc := range lr.cols {
				if lc.hidden {
					continue
				}
				for _, rr := range rrels {
					for _, rc := range rr.cols {
						if !rc.hidden && rc.name == lc.name {
							using = append(using, lc.name)
						}
					}
				}
			}
		}
	}
	var conds []eval.Expr
	// The USING columns merge into one column each, first in the join's
	// output: the left side's value (the right's for RIGHT JOIN, the first
	// non-NULL for FULL JOIN). The sides' own columns stay for qualified
	// names and hide from * and unqualified ones.
	merged := &scopeRel{}
	var mergedExprs []eval.Expr
	if len(using) > 0 || j.Natural {
		for _, name := range using {
			li, lcol, err := findUsingColumn(js.rels[:len(lrels)], name, j)
			if err != nil {
				return nil, nil, err
			}
			ri, rcol, err := findUsingColumn(js.rels[len(lrels):], name, j)
			if err != nil {
				return nil, nil, err
			}
			eq, err := bindBinaryOp(b, "=", &eval.ColRef{Idx: li, T: lcol.t}, &eval.ColRef{Idx: ri, T: rcol.t})
			if err != nil {
				return nil, nil, withPos(err, nil)
			}
			cmp := eq.(*eval.Compare)
			conds = append(conds, eq)
			jp.leftKeys = append(jp.leftKeys, cmp.L)
			jp.rightKeys = append(jp.rightKeys, shiftColumns(cmp.R, -lw))
			var m eval.Expr
			switch j.Kind {
			case ast.JoinRight:
				m = cmp.R
			case ast.JoinFull:
				m = &eval.Coalesce{Args: []eval.Expr{cmp.L, cmp.R}, T: cmp.L.Type()}
			default:
				m = cmp.L
			}
			mergedExprs = append(mergedExprs, m)
			merged.cols = append(merged.cols, scopeCol{name: name, t: m.Type()})
			for _, r := range append(append([]*scopeRel(nil), lrels...), rrels...) {
				for i := range r.cols {
					if r.cols[i].name == name {
						r.cols[i].hidden = true
					}
				}
			}
		}
	}
	if j.On != nil {
		cond, err := b.bindCondition(j.On, "JOIN/ON")
		if err != nil {
			return nil, nil, err
		}
		conds = append(conds, cond)
		if len(using) == 0 {
			jp.leftKeys, jp.rightKeys = equiJoinKeys(cond, lw)
		}
	}
	for _, c := range conds {
		if jp.cond == nil {
			jp.cond = c
		} else {
			jp.cond = &eval.And{L: jp.cond, R: c}
		}
	}
	// An inner join's ON is a filter like WHERE: its one-sided conjuncts
	// go down to their side; an equality may make the right side a lookup.
	var joined plan = jp
	if jp.kind == ast.JoinInner && jp.cond != nil {
		cond := jp.cond
		jp.cond, jp.leftKeys, jp.rightKeys = nil, nil, nil
		joined = pushIntoJoin(jp, cond)
	} else {
		jp.parameterize()
	}
	rels := append(lrels, rrels...)
	if len(merged.cols) > 0 {
		exprs := append([]eval.Expr(nil), mergedExprs...)
		var pcols []outCol
		for _, c := range merged.cols {
			pcols = append(pcols, outCol{name: c.name, t: c.t})
		}
		for i, c := range cols {
			exprs = append(exprs, &eval.ColRef{Idx: i, T: c.t})
		}
		cols = append(pcols, cols...)
		joined = &projectPlan{input: joined, exprs: exprs, cols: cols}
		rels = append([]*scopeRel{merged}, rels...)
	}
	if j.Alias != nil {
		merged := &scopeRel{name: j.Alias.Name}
		for _, r := range rels {
			for _, c := range r.cols {
				if !c.hidden {
					merged.cols = append(merged.cols, c)
				}
			}
		}
		if err := applyAlias(merged, j.Alias, j.Pos); err != nil {
			return nil, nil, err
		}
		// Keep the row layout: project the visible columns.
		var exprs []eval.Expr
		var pcols []outCol
		off := 0
		for _, r := range rels {
			for i, c := range r.cols {
				if !c.hidden {
					exprs = append(exprs, &eval.ColRef{Idx: off + i, T: c.t})
					pcols = append(pcols, cols[off+i])
				}
			}
			off += len(r.cols)
		}
		return &projectPlan{input: joined, exprs: exprs, cols: pcols}, []*scopeRel{merged}, nil
	}
	return joined, rels, nil
}

// uniqueRelNames refuses a FROM item whose name is already taken at the
// same query level: a name must say which relation a column is from.
func uniqueRelNames(have, added []*scopeRel) error {
	for _, a := range added {
		for _, h := range have {
			if a.name != "" && a.name == h.name {
				return pgerror.New(pgerror.DuplicateAlias, "table name \"%s\" specified more than once", a.name)
			}
		}
	}
	return nil
}

func cloneRel(r *scopeRel) *scopeRel {
	c := *r
	c.cols = append([]scopeCol(nil), r.cols...)
	return &c
}

func findUsingColumn(rels []*scopeRel, name string, j *ast.Join) (int, scopeCol, error) {
	for _, r := range rels {
		for i, c := range r.cols {
			if c.name == name && !c.hidden {
				return r.offset + i, c, nil
			}
		}
	}
	return 0, scopeCol{}, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" specified in USING clause does not exist in %s table", name, sideName(rels, j))
}

func sideName(rels []*scopeRel, j *ast.Join) string {
	if len(rels) > 0 && rels[0].offset == 0 {
		return "left"
	}
	return "right"
}

// equiJoinKeys extracts left = right column equalities from a join
// condition so the join can hash; lw is the left side's width.
func equiJoinKeys(cond eval.Expr, lw int) (left, right []eval.Expr) {
	var visit func(e eval.Expr)
	visit = func(e eval.Expr) {
		switch e := e.(type) {
		case *eval.And:
			visit(e.L)
			visit(e.R)
		case *eval.Compare:
			if e.Op != "=" {
				return
			}
			ls, lok := sideOf(e.L, lw)
			rs, rok := sideOf(e.R, lw)
			if !lok || !rok || ls == rs {
				return
			}
			l, r := e.L, e.R
			if ls == 1 {
				l, r = r, l
			}
			left = append(left, l)
			right = append(right, shiftColumns(r, -lw))
		}
	}
	visit(cond)
	return left, right
}

// sideOf reports which join side (0 left, 1 right) an expression reads,
// when it reads exactly one side's columns at the current level.
func sideOf(e eval.Expr, lw int) (int, bool) {
	switch e := e.(type) {
	case *eval.ColRef:
		if e.Level != 0 {
			return 0, false
		}
		if e.Idx < lw {
			return 0, true
		}
		return 1, true
	case *eval.Cast:
		return sideOf(e.X, lw)
	}
	return 0, false
}

// shiftColumns rebases current-level column references by delta (for
// evaluating right-side keys against right rows alone).
func shiftColumns(e eval.Expr, delta int) eval.Expr {
	switch e := e.(type) {
	case *eval.ColRef:
		if e.Level == 0 {
			c := *e
			c.Idx += delta
			return &c
		}
	case *eval.Cast:
		c := *e
		c.X = shiftColumns(e.X, delta)
		return &c
	}
	return e
}

// cteScan reads a CTE's rows, computed once per execution.
type cteScan struct {
	def *cteDef
}

func (p *cteScan) columns() []outCol { return p.def.cols }

func (p *cteScan) explain(depth int, out *[]string) {
	explainLine(out, depth, "CTE Scan on %s", p.def.name)
}

func (p *cteScan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	if x.cteRows == nil {
		x.cteRows = map[*cteDef][]eval.Row{}
	}
	rows, ok := x.cteRows[p.def]
	if !ok {
		var err error
		if rows, err = drain(x, p.def.plan, outer); err != nil {
			return nil, err
		}
		x.cteRows[p.def] = rows
	}
	return &sliceIter{rows: rows}, nil
}

// drain runs a plan to completion and keeps its rows.
func drain(x *execCtx, p plan, outer *eval.Env) ([]eval.Row, error) {
	it, err := p.open(x, outer)
	if err != nil {
		return nil, err
	}
	defer it.close()
	var rows []eval.Row
	// The rows are accounted to the memory budget while they are
	// reachable: whoever drains holds them with no close to mark the end.
	held := x.rowsAccount("a materialized input")
	for {
		r, err := it.next()
		if err != nil {
			held.close()
			return nil, err
		}
		if r == nil {
			heldBySlice(held, rows)
			return rows, nil
		}
		if err := held.keep(r); err != nil {
			held.close()
			return nil, err
		}
		rows = append(rows, append(eval.Row(nil), r...))
		if err := x.CheckCancel(); err != nil {
			held.close()
			return nil, err
		}
	}
}

// schemaName maps a schema name as written to the catalog's: in the
// Databricks dialect the schema "default" (as in main.default.t) is public.
func (pc *planCtx) schemaName(name string) string {
	if name == "default" && pc.sess.dialect() == parse.DialectDatabricks {
		return "public"
	}
	return pc.sess.ownTempSchema(name)
}
