package sql

import (
	"strconv"
	"strings"
	"sync"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
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
	_, ok := tableFuncs[name]
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

func (p *zipPlan) open(x *execCtx, outer *evalEnv) (rowIter, error) {
	var all [][]Row
	longest := 0
	for _, in := range p.inputs {
		rows, err := drain(x, in, outer)
		if err != nil {
			return nil, err
		}
		all = append(all, rows)
		longest = max(longest, len(rows))
	}
	out := make([]Row, longest)
	for i := range out {
		row := make(Row, 0, len(p.cols))
		for k, rows := range all {
			if i < len(rows) {
				row = append(row, rows[i]...)
			} else {
				row = append(row, make(Row, len(p.inputs[k].columns()))...)
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
	if cols := procOutColumns(name); len(cols) > 1 {
		names := make([]string, len(cols))
		for i, c := range cols {
			names[i] = c.name
		}
		return names, nil
	}
	if _, ok := tableFuncs[name]; ok {
		return []string{alias}, nil
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "set-returning function %s is not supported in a select list", name).WithPosition(fc.Pos + 1)
}

// Anonymous record types with named fields. A row of named columns (as the
// rewrite above makes, or ROW(t.a, t.b)) gets a record type whose type
// modifier identifies its field names and types, as PostgreSQL's record
// type cache does, so that a field can be selected by name from the record
// wherever it travels (a subquery's output, a CTE).

type recordShape struct {
	names []string
	types []types.T
}

var recordShapes struct {
	sync.Mutex
	byKey map[string]int32
	list  []recordShape
}

// namedRecordType registers a record shape and returns its type.
func namedRecordType(names []string, ts []types.T) types.T {
	var b strings.Builder
	for i, n := range names {
		b.WriteString(n)
		b.WriteByte(0)
		b.WriteString(strconv.FormatUint(uint64(ts[i].OID), 10))
		b.WriteByte(':')
		b.WriteString(strconv.FormatInt(int64(ts[i].Typmod), 10))
		b.WriteByte(0)
	}
	key := b.String()
	recordShapes.Lock()
	defer recordShapes.Unlock()
	if recordShapes.byKey == nil {
		recordShapes.byKey = map[string]int32{}
	}
	if m, ok := recordShapes.byKey[key]; ok {
		return types.T{OID: types.Record, Typmod: m}
	}
	m := int32(len(recordShapes.list))
	recordShapes.list = append(recordShapes.list, recordShape{names: append([]string(nil), names...), types: append([]types.T(nil), ts...)})
	recordShapes.byKey[key] = m
	return types.T{OID: types.Record, Typmod: m}
}

// recordShapeOf returns the field names and types of a named record type.
func recordShapeOf(t types.T) (recordShape, bool) {
	if t.OID != types.Record || t.Typmod < 0 {
		return recordShape{}, false
	}
	recordShapes.Lock()
	defer recordShapes.Unlock()
	if int(t.Typmod) >= len(recordShapes.list) {
		return recordShape{}, false
	}
	return recordShapes.list[t.Typmod], true
}

// rowExprType is the type of a row: a named record when every element is
// a named column reference, else an anonymous one.
func rowExprType(elems []expr) types.T {
	names := make([]string, len(elems))
	ts := make([]types.T, len(elems))
	for i, el := range elems {
		c, ok := el.(*colRef)
		if !ok || c.name == "" {
			return types.Of(types.Record)
		}
		names[i], ts[i] = c.name, c.t
	}
	return namedRecordType(names, ts)
}

// recordFieldExpr selects a field of a named record by position.
type recordFieldExpr struct {
	x expr
	i int
	t types.T
}

func (e *recordFieldExpr) eval(env *evalEnv) (types.Value, error) {
	v, err := e.x.eval(env)
	if err != nil || v == nil {
		return nil, err
	}
	rec, ok := v.(types.RecordValue)
	if !ok || e.i >= len(rec.Fields) {
		return nil, pgerror.New(pgerror.InternalError, "record field %d of a %T", e.i, v)
	}
	return rec.Fields[e.i], nil
}

func (e *recordFieldExpr) typ() types.T { return e.t }

// bindRecordField selects a field by name from an expression of a named
// record type; false when x is no such record.
func bindRecordField(x expr, field string) (expr, bool) {
	shape, ok := recordShapeOf(x.typ())
	if !ok {
		return nil, false
	}
	for i, n := range shape.names {
		if n == field {
			return &recordFieldExpr{x: x, i: i, t: shape.types[i]}, true
		}
	}
	return nil, false
}
