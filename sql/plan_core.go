package sql

import (
	"slices"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// planCore plans SELECT ... FROM ... WHERE ... GROUP BY ... HAVING, with the
// ORDER BY and LIMIT of the query it heads (they may name its FROM columns).
// Binding goes in SQL's order of scopes: the FROM list and WHERE, the
// select list's names, grouping, the window names, the select list's
// expressions, HAVING, then ORDER BY and DISTINCT ON over the output.
func (pc *planCtx) planCore(core *ast.SelectCore, sc *scope, sel *ast.Select) (plan, error) {
	core, srfErr := rewriteTargetSRFs(core) // set-returning calls in the select list
	if srfErr != nil {
		return nil, srfErr
	}
	input, err := pc.planFromWhere(core, sc)
	if err != nil {
		return nil, err
	}
	targets, err := expandSelectList(core, sc)
	if err != nil {
		return nil, err
	}
	b := pc.binder(sc)
	var agg *aggCtx
	if aggregates(core, sel, targets) {
		if agg, err = bindGrouping(b, core, targets); err != nil {
			return nil, err
		}
		b = &binder{pc: pc, sc: sc, agg: agg}
	}
	if core.Having != nil && containsWindow(core.Having) {
		return nil, windowNotAllowed(core.Having, "HAVING")
	}
	// Window calls are allowed from here on: the select list, DISTINCT ON
	// and ORDER BY.
	if b.win, err = namedWindows(core); err != nil {
		return nil, err
	}
	if err := bindSelectList(b, sc, targets, agg != nil); err != nil {
		return nil, err
	}
	var having eval.Expr
	if core.Having != nil {
		if having, err = b.bindCondition(core.Having, "HAVING"); err != nil {
			return nil, err
		}
	}
	out := newSelectOutput(targets)
	keys, err := bindOrderBy(b, core, sel, targets, out)
	if err != nil {
		return nil, err
	}
	distinctOn, err := bindDistinctOn(b, core, targets, out)
	if err != nil {
		return nil, err
	}
	if len(distinctOn) > 0 {
		if keys, err = distinctOnSort(sel.OrderBy, keys, core.DistinctOn, distinctOn); err != nil {
			return nil, err
		}
	}
	p := groupAndProject(input, agg, having, b.win, out)
	if len(keys) > 0 {
		p = &sortPlan{input: p, keys: keys}
	}
	if core.Distinct {
		p = &distinctPlan{input: p, on: distinctOn}
	}
	if p, err = pc.planLimit(p, sel, sc, keys); err != nil {
		return nil, err
	}
	return out.stripHidden(p), nil
}

// planFromWhere plans the rows a SELECT reads: its FROM list (one empty
// row without one), filtered by WHERE, which may hold neither aggregates
// nor window calls.
func (pc *planCtx) planFromWhere(core *ast.SelectCore, sc *scope) (plan, error) {
	var input plan
	if len(core.From) == 0 {
		input = &valuesPlan{rows: [][]eval.Expr{{}}}
	} else {
		var err error
		if input, err = pc.planFrom(core.From, sc); err != nil {
			return nil, err
		}
	}
	if core.Where == nil {
		return input, nil
	}
	if containsAggregate(core.Where) {
		return nil, pgerror.New(pgerror.GroupingError, "aggregate functions are not allowed in WHERE").WithPosition(core.Where.Position() + 1)
	}
	if containsWindow(core.Where) {
		return nil, windowNotAllowed(core.Where, "WHERE")
	}
	cond, err := pc.binder(sc).bindCondition(core.Where, "WHERE")
	if err != nil {
		return nil, err
	}
	return pushFilter(input, cond), nil
}

// selectTarget is one output column of a select list: its expression as
// written and its name, then, once bound, its expression and column. A
// column a * expanded to comes bound already.
type selectTarget struct {
	ast   ast.Expr
	name  string
	bound eval.Expr
	col   outCol
}

// expandSelectList lists a select list's targets, expanding * and t.*
// into the columns of the FROM list's relations.
func expandSelectList(core *ast.SelectCore, sc *scope) ([]selectTarget, error) {
	var targets []selectTarget
	for _, t := range core.Targets {
		if !t.Star {
			name := t.Alias
			if name == "" {
				name = columnName(t.Expr)
			}
			targets = append(targets, selectTarget{ast: t.Expr, name: name})
			continue
		}
		rels := sc.rels
		if t.Table != nil {
			r, err := sc.relByName(t.Table)
			if err != nil {
				return nil, err
			}
			rels = []*scopeRel{r}
		}
		if len(rels) == 0 && t.Table == nil {
			return nil, pgerror.New(pgerror.SyntaxError, "SELECT * with no tables specified is not valid").WithPosition(t.Pos + 1)
		}
		for _, r := range rels {
			for i, c := range r.cols {
				// A JOIN USING side's merged column still belongs to
				// its own table's t.*.
				if c.hidden && (t.Table == nil || c.name == "") {
					continue
				}
				ref := &ast.ColumnRef{Parts: []string{r.name, c.name}, Pos: t.Pos}
				if r.name == "" {
					ref.Parts = ref.Parts[1:]
				}
				targets = append(targets, selectTarget{ast: ref, name: c.name, bound: &eval.ColRef{Idx: r.offset + i, T: c.t, Name: c.name},
					col: outCol{name: c.name, t: c.t, tableOID: c.tableOID, attnum: c.attnum}})
			}
		}
	}
	return targets, nil
}

// aggregates reports whether a SELECT groups its rows: it has GROUP BY or
// HAVING, or an aggregate call in its select list or ORDER BY.
func aggregates(core *ast.SelectCore, sel *ast.Select, targets []selectTarget) bool {
	if len(core.GroupBy) > 0 || core.Having != nil {
		return true
	}
	for _, t := range targets {
		if containsAggregate(t.ast) {
			return true
		}
	}
	for _, o := range sel.OrderBy {
		if containsAggregate(o.Expr) {
			return true
		}
	}
	return false
}

// bindGrouping binds GROUP BY (with grouping sets, each expression once)
// into the aggregation the rest of the SELECT binds against.
func bindGrouping(b *binder, core *ast.SelectCore, targets []selectTarget) (*aggCtx, error) {
	agg := &aggCtx{}
	sets, hasSets, err := expandGroupBy(core.GroupBy)
	if err != nil {
		return nil, err
	}
	if !hasSets {
		for _, g := range core.GroupBy {
			if _, err := bindGroupExpr(b, agg, g, targets, false); err != nil {
				return nil, err
			}
		}
		return agg, nil
	}
	for _, s := range sets {
		idx := []int{}
		for _, g := range s {
			i, err := bindGroupExpr(b, agg, g, targets, true)
			if err != nil {
				return nil, err
			}
			idx = append(idx, i)
		}
		agg.sets = append(agg.sets, idx)
	}
	if len(agg.groupExprs) > 62 {
		return nil, pgerror.New(pgerror.ProgramLimitExceeded, "grouping sets may name at most 62 distinct expressions").WithPosition(core.GroupBy[0].Position() + 1)
	}
	return agg, nil
}

// bindGroupExpr binds one GROUP BY expression and returns its index among
// agg's; GROUP BY n and GROUP BY an output name select select-list
// entries. With grouping sets (shared), an expression several sets name
// is bound once.
func bindGroupExpr(b *binder, agg *aggCtx, g ast.Expr, targets []selectTarget, shared bool) (int, error) {
	ge := g
	if idx, ok, err := outputOrdinal(g, len(targets)); err != nil {
		return 0, err
	} else if ok {
		ge = targets[idx].ast
	} else if ref, ok := g.(*ast.ColumnRef); ok && len(ref.Parts) == 1 {
		if _, _, _, err := b.sc.resolveColumn(ref); err != nil {
			for _, t := range targets {
				if t.name == ref.Parts[0] {
					ge = t.ast
					break
				}
			}
		}
	}
	fp := fingerprint(ge)
	if shared {
		if i := slices.Index(agg.groupFP, fp); i >= 0 {
			return i, nil
		}
	}
	if containsAggregate(ge) {
		return 0, pgerror.New(pgerror.GroupingError, "aggregate functions are not allowed in GROUP BY").WithPosition(g.Position() + 1)
	}
	if containsWindow(ge) {
		return 0, windowNotAllowed(ge, "GROUP BY")
	}
	x, err := b.bind(ge)
	if err != nil {
		return 0, err
	}
	agg.groupFP = append(agg.groupFP, fp)
	agg.groupExprs = append(agg.groupExprs, b.resolveUnknown(x))
	return len(agg.groupExprs) - 1, nil
}

// namedWindows reads the WINDOW clause's named windows, refusing a name
// defined twice.
func namedWindows(core *ast.SelectCore) (*windowCtx, error) {
	win := &windowCtx{named: map[string]*ast.WindowSpec{}}
	for _, w := range core.Windows {
		if _, dup := win.named[w.Name]; dup {
			return nil, pgerror.New(pgerror.WindowingError, "window \"%s\" is already defined", w.Name)
		}
		win.named[w.Name] = w.Spec
	}
	return win, nil
}

// bindSelectList binds the targets not bound yet (grouping binds them
// all again, over the groups) and gives each its output column: its name,
// type, position, and, for a plain column of a FROM table, that table's
// column.
func bindSelectList(b *binder, sc *scope, targets []selectTarget, grouped bool) error {
	for i := range targets {
		t := &targets[i]
		if t.bound != nil && !grouped {
			continue
		}
		x, err := b.bind(t.ast)
		if err != nil {
			return err
		}
		lit, _ := x.(*eval.Const)
		if lit != nil && lit.T.OID != types.Unknown {
			lit = nil
		}
		x = b.resolveUnknown(x)
		t.bound = x
		col := outCol{name: t.name, t: x.Type(), pos: t.ast.Position() + 1, literal: lit}
		if ref, ok := t.ast.(*ast.ColumnRef); ok && !grouped {
			if lvl, _, sc2, err := sc.resolveColumn(ref); err == nil && lvl == 0 {
				col.tableOID, col.attnum = sc2.tableOID, sc2.attnum
			}
		}
		if t.col.tableOID != 0 && !grouped {
			col.tableOID, col.attnum = t.col.tableOID, t.col.attnum
		}
		t.col = col
	}
	return nil
}

// selectOutput is a bound select list: its visible columns, then the
// hidden ones ORDER BY and DISTINCT ON add for expressions it lacks.
type selectOutput struct {
	exprs   []eval.Expr
	cols    []outCol
	visible int
}

func newSelectOutput(targets []selectTarget) *selectOutput {
	out := &selectOutput{exprs: make([]eval.Expr, len(targets)), cols: make([]outCol, len(targets)), visible: len(targets)}
	for i, t := range targets {
		out.exprs[i], out.cols[i] = t.bound, t.col
	}
	return out
}

// addHidden adds a hidden column computing x, of type t, and returns its
// index.
func (o *selectOutput) addHidden(x eval.Expr, t types.T) int {
	o.exprs = append(o.exprs, x)
	o.cols = append(o.cols, outCol{name: "?column?", t: t})
	return len(o.exprs) - 1
}

// ref reads output column idx.
func (o *selectOutput) ref(idx int) *eval.ColRef { return &eval.ColRef{Idx: idx, T: o.cols[idx].t} }

// stripHidden projects p, which yields the output's columns, onto the
// visible ones.
func (o *selectOutput) stripHidden(p plan) plan {
	if len(o.exprs) == o.visible {
		return p
	}
	strip := make([]eval.Expr, o.visible)
	for i := range strip {
		strip[i] = o.ref(i)
	}
	return &projectPlan{input: p, exprs: strip, cols: o.cols[:o.visible]}
}

// bindOrderBy binds ORDER BY into sort keys over the output: an output
// ordinal, an output name (SQL-92's rule), an expression the select list
// computes, or a new expression, added as a hidden column.
func bindOrderBy(b *binder, core *ast.SelectCore, sel *ast.Select, targets []selectTarget, out *selectOutput) ([]sortKey, error) {
	var keys []sortKey
	for _, o := range sel.OrderBy {
		idx, err := orderByOutputColumn(o.Expr, targets, out.visible)
		if err != nil {
			return nil, err
		}
		if idx < 0 {
			x, err := b.bind(o.Expr)
			if err != nil {
				return nil, err
			}
			x = b.resolveUnknown(x)
			if core.Distinct && len(core.DistinctOn) == 0 {
				return nil, pgerror.New(pgerror.InvalidColumnReference, "for SELECT DISTINCT, ORDER BY expressions must appear in select list").WithPosition(o.Expr.Position() + 1)
			}
			idx = out.addHidden(x, x.Type())
		}
		keys = append(keys, sortKey{e: out.ref(idx), desc: o.Desc, nullsFirst: nullsFirst(o)})
	}
	return keys, nil
}

// orderByOutputColumn finds the output column an ORDER BY item names
// (-1: none). A bare name is an output column's first; two output columns
// of that name computing different things are ambiguous.
func orderByOutputColumn(e ast.Expr, targets []selectTarget, visible int) (int, error) {
	idx := -1
	if i, ok, err := outputOrdinal(e, visible); err != nil {
		return 0, err
	} else if ok {
		return i, nil
	} else if ref, ok := e.(*ast.ColumnRef); ok && len(ref.Parts) == 1 {
		for i, t := range targets {
			if t.name != ref.Parts[0] {
				continue
			}
			if idx < 0 {
				idx = i
			} else if !sameOutputExpr(t.bound, targets[idx].bound, t.ast, targets[idx].ast) {
				return 0, pgerror.New(pgerror.AmbiguousColumn, "ORDER BY \"%s\" is ambiguous", ref.Parts[0]).WithPosition(ref.Pos + 1)
			}
		}
	}
	if idx < 0 {
		idx = sameTargetAs(e, targets)
	}
	return idx, nil
}

// sameTargetAs is the select-list entry written as e (-1: none).
func sameTargetAs(e ast.Expr, targets []selectTarget) int {
	fp := fingerprint(e)
	for i, t := range targets {
		if fingerprint(t.ast) == fp {
			return i
		}
	}
	return -1
}

// bindDistinctOn binds DISTINCT ON's expressions over the output: output
// ordinals, select-list expressions, or new hidden columns.
func bindDistinctOn(b *binder, core *ast.SelectCore, targets []selectTarget, out *selectOutput) ([]eval.Expr, error) {
	var distinctOn []eval.Expr
	for _, d := range core.DistinctOn {
		idx := -1
		if i, ok, err := outputOrdinal(d, out.visible); err != nil {
			return nil, err
		} else if ok {
			idx = i
		} else {
			idx = sameTargetAs(d, targets)
		}
		if idx < 0 {
			x, err := b.bind(d)
			if err != nil {
				return nil, err
			}
			idx = out.addHidden(b.resolveUnknown(x), x.Type())
		}
		distinctOn = append(distinctOn, out.ref(idx))
	}
	return distinctOn, nil
}

// groupAndProject stacks on input the aggregation and HAVING (when the
// SELECT groups), the window functions, and the projection onto the
// output's columns.
func groupAndProject(input plan, agg *aggCtx, having eval.Expr, win *windowCtx, out *selectOutput) plan {
	p := input
	if agg != nil {
		aggCols := make([]outCol, 0, len(agg.groupExprs)+len(agg.aggs))
		for _, g := range agg.groupExprs {
			aggCols = append(aggCols, outCol{name: "?column?", t: g.Type()})
		}
		for _, a := range agg.aggs {
			aggCols = append(aggCols, outCol{name: a.fn.name, t: a.t})
		}
		if agg.sets != nil {
			aggCols = append(aggCols, outCol{name: "grouping", t: types.Of(types.Int8)})
		}
		p = &aggPlan{input: p, groupExprs: agg.groupExprs, aggs: agg.aggs, sets: agg.sets, cols: aggCols}
		if having != nil {
			p = &filterPlan{input: p, cond: having}
		}
	}
	if len(win.funcs) > 0 {
		p = newWindowPlan(p, win)
	}
	return &projectPlan{input: p, exprs: out.exprs, cols: out.cols}
}
