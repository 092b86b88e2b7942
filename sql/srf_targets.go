package sql

import (
	"strconv"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// Set-returning functions in a select list, as pgjdbc's getPrimaryKeys and
// getIndexInfo write them:
//
//	SELECT ..., (information_schema._pg_expandarray(i.indkey)).n AS key_seq,
//	       information_schema._pg_expandarray(i.indkey) AS keys FROM ...
//
// Each input row yields one output row per row of the function, which is
// what a LATERAL function in FROM gives. So the select list's calls are
// moved to FROM as one LATERAL item, and each call is replaced by the
// item's columns: its one column for a single-column function, else a row
// of its columns whose fields keep their names, so (call).n and a later
// (keys).x still find them. Different calls run in lockstep, as in
// PostgreSQL (SQLAlchemy pairs unnest(indkey) with generate_subscripts).

// targetSRF reports whether a call is a set-returning function cdcdb runs
// in FROM.
func targetSRF(fc *ast.FuncCall) bool {
	if fc.Over != nil || fc.Star {
		return false
	}
	name := fc.Name.Name()
	_, ok := builtins.SetFuncs[name]
	return ok || name == "unnest" || name == "generate_series"
}

// planRowsFrom plans the zipped set-returning calls of a select list: each
// call is planned as a FROM function of its own (reading the items before
// it, laterally), and their rows are paired up by position.
func (pc *planCtx) planRowsFrom(t *ast.FuncTable, sc, left *scope) (plan, []*scopeRel, error) {
	z := &zipPlan{}
	lateral := false
	for i, a := range t.Call.Args {
		call, ok := a.(*ast.FuncCall)
		if !ok {
			return nil, nil, pgerror.New(pgerror.InternalError, "%s: argument %d is not a call", rowsFromName, i+1)
		}
		p, rels, err := pc.planFuncTable(&ast.FuncTable{Call: call, Lateral: t.Lateral, Pos: call.Pos,
			Alias: &ast.Alias{Name: t.Alias.Name}}, sc, left)
		if err != nil {
			return nil, nil, err
		}
		if l, ok := p.(*lateralInput); ok {
			p, lateral = l.plan, true
		}
		z.inputs = append(z.inputs, p)
		for _, r := range rels {
			for _, c := range r.cols {
				col := outCol{name: zippedColumnName(i, c.name), t: c.t}
				z.cols = append(z.cols, col)
			}
		}
	}
	rel := relFromColumns(t.Alias.Name, z.cols)
	var p plan = z
	if lateral {
		p = &lateralInput{z}
	}
	return p, []*scopeRel{rel}, nil
}

// zipPlan pairs the rows of its inputs by position, padding the inputs
// that run out first with NULLs, until all have run out.
type zipPlan struct {
	inputs []plan
	cols   []outCol
}

func (p *zipPlan) columns() []outCol { return p.cols }

func (p *zipPlan) explain(depth int, out *[]string) {
	explainLine(out, depth, "ProjectSet")
	for _, in := range p.inputs {
		in.explain(depth+1, out)
	}
}

func (p *zipPlan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	var all [][]eval.Row
	longest := 0
	for _, in := range p.inputs {
		rows, err := drain(x, in, outer)
		if err != nil {
			return nil, err
		}
		all = append(all, rows)
		longest = max(longest, len(rows))
	}
	out := make([]eval.Row, longest)
	for i := range out {
		row := make(eval.Row, 0, len(p.cols))
		for k, rows := range all {
			if i < len(rows) {
				row = append(row, rows[i]...)
			} else {
				row = append(row, make(eval.Row, len(p.inputs[k].columns()))...)
			}
		}
		out[i] = row
	}
	return &sliceIter{rows: out}, nil
}

// rewriteTargetSRFs returns core with select-list set-returning calls moved
// to FROM, or core itself when it has none. core is not changed. Different
// calls run in lockstep, as PostgreSQL runs them: one FROM item zips their
// rows (see planRowsFrom), the shorter ones padded with NULLs.
func rewriteTargetSRFs(core *ast.SelectCore) (*ast.SelectCore, error) {
	var calls []*ast.FuncCall
	index := map[string]int{}
	for _, t := range core.Targets {
		if t.Star {
			continue
		}
		if fc := srfIn(t.Expr); fc != nil {
			if _, seen := index[deparseExpr(fc)]; !seen {
				index[deparseExpr(fc)] = len(calls)
				calls = append(calls, fc)
			}
		}
	}
	if len(calls) == 0 {
		return core, nil
	}
	alias := "__srf_" + strconv.Itoa(calls[0].Pos)
	// Each call's columns, as the zipped item names them: the call's own
	// column names, or for one-column functions a name per call.
	repls := make([]ast.Expr, len(calls))
	for i, call := range calls {
		cols, err := srfColumnNames(call, alias)
		if err != nil {
			return nil, err
		}
		if len(calls) > 1 {
			for j := range cols {
				cols[j] = zippedColumnName(i, cols[j])
			}
		}
		if len(cols) == 1 {
			repls[i] = &ast.ColumnRef{Parts: []string{alias, cols[0]}, Pos: call.Pos}
			continue
		}
		row := &ast.RowExpr{Pos: call.Pos}
		for _, c := range cols {
			row.Elems = append(row.Elems, &ast.ColumnRef{Parts: []string{alias, c}, Pos: call.Pos})
		}
		repls[i] = row
	}
	out := *core
	out.Targets = make([]ast.Target, len(core.Targets))
	for i, t := range core.Targets {
		out.Targets[i] = t
		if t.Star {
			continue
		}
		if fc := srfIn(t.Expr); fc != nil {
			if t.Alias == "" {
				// The column keeps the function's name, as in PostgreSQL.
				out.Targets[i].Alias = srfOutputName(t.Expr, fc)
			}
			out.Targets[i].Expr = replaceSRF(t.Expr, repls[index[deparseExpr(fc)]])
		}
	}
	call := calls[0]
	if len(calls) > 1 {
		args := make([]ast.Expr, len(calls))
		for i, c := range calls {
			args[i] = c
		}
		call = &ast.FuncCall{Name: ast.QualifiedName{Parts: []string{rowsFromName}}, Args: args, Pos: calls[0].Pos}
	}
	out.From = append(append([]ast.TableExpr(nil), core.From...),
		&ast.FuncTable{Call: call, Lateral: true, Alias: &ast.Alias{Name: alias}, Pos: call.Pos})
	return &out, nil
}

// rowsFromName is the internal function whose arguments are the
// set-returning calls one FROM item zips; no user can call it (its name
// cannot be written unquoted).
const rowsFromName = "__rows_from"

// zippedColumnName names column col of the i-th zipped call.
func zippedColumnName(i int, col string) string { return "f" + strconv.Itoa(i+1) + "_" + col }

// srfIn finds a set-returning call at the top of a target, under field
// selections and casts.
func srfIn(e ast.Expr) *ast.FuncCall {
	switch e := e.(type) {
	case *ast.FuncCall:
		if targetSRF(e) {
			return e
		}
	case *ast.FieldAccess:
		return srfIn(e.X)
	case *ast.Cast:
		return srfIn(e.X)
	}
	return nil
}

// replaceSRF rebuilds the path from a target down to its call.
func replaceSRF(e ast.Expr, repl ast.Expr) ast.Expr {
	switch e := e.(type) {
	case *ast.FuncCall:
		return repl
	case *ast.FieldAccess:
		c := *e
		c.X = replaceSRF(e.X, repl)
		return &c
	case *ast.Cast:
		c := *e
		c.X = replaceSRF(e.X, repl)
		return &c
	}
	return e
}

// srfOutputName is the column name PostgreSQL gives an unaliased target:
// the selected field, or the function's name.
func srfOutputName(e ast.Expr, fc *ast.FuncCall) string {
	switch e := e.(type) {
	case *ast.FieldAccess:
		return e.Field
	case *ast.Cast:
		return srfOutputName(e.X, fc)
	}
	return fc.Name.Name()
}

// srfColumnNames are the output columns of a set-returning function, as
// its FROM form with the given alias names them.
func srfColumnNames(fc *ast.FuncCall, alias string) ([]string, error) {
	name := fc.Name.Name()
	switch name {
	case "unnest", "generate_series", "generate_subscripts":
		return []string{alias}, nil // a one-column function's column takes the alias
	case "_pg_expandarray":
		return []string{"x", "n"}, nil
	}
	if cols := catalogviews.ProcOutColumns(name); len(cols) > 1 {
		names := make([]string, len(cols))
		for i, c := range cols {
			names[i] = c.Name
		}
		return names, nil
	}
	if _, ok := builtins.SetFuncs[name]; ok {
		return []string{alias}, nil
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "set-returning function %s is not supported in a select list", name).WithPosition(fc.Pos + 1)
}

// recordFieldExpr selects a field of a named record by position.
type recordFieldExpr struct {
	x eval.Expr
	i int
	t types.T
}

func (e *recordFieldExpr) Eval(env *eval.Env) (types.Value, error) {
	v, err := e.x.Eval(env)
	if err != nil || v == nil {
		return nil, err
	}
	rec, ok := v.(types.RecordValue)
	if !ok || e.i >= len(rec.Fields) {
		return nil, pgerror.New(pgerror.InternalError, "record field %d of a %T", e.i, v)
	}
	return rec.Fields[e.i], nil
}

func (e *recordFieldExpr) Type() types.T { return e.t }

// bindRecordField selects a field by name from an expression of a named
// record type; false when x is no such record.
func bindRecordField(x eval.Expr, field string) (eval.Expr, bool) {
	shape, ok := eval.RecordShapeOf(x.Type())
	if !ok {
		return nil, false
	}
	for i, n := range shape.Names {
		if n == field {
			return &recordFieldExpr{x: x, i: i, t: shape.Types[i]}, true
		}
	}
	return nil, false
}
