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
// (keys).x still find them. All such calls of one select list must be the
// same call (PostgreSQL would run different ones in lockstep; cdcdb refuses
// that rather than cross them).

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

// rewriteTargetSRFs returns core with select-list set-returning calls moved
// to FROM, or core itself when it has none. core is not changed.
func rewriteTargetSRFs(core *ast.SelectCore) (*ast.SelectCore, error) {
	var call *ast.FuncCall
	var key string
	var err error
	find := func(e ast.Expr) {
		fc := srfIn(e)
		if fc == nil || err != nil {
			return
		}
		k := deparseExpr(fc)
		switch {
		case call == nil:
			call, key = fc, k
		case k != key:
			err = pgerror.New(pgerror.FeatureNotSupported, "set-returning functions %s and %s in one select list are not supported", key, k).WithPosition(fc.Pos + 1)
		}
	}
	for _, t := range core.Targets {
		if !t.Star {
			find(t.Expr)
		}
	}
	if err != nil || call == nil {
		return core, err
	}
	alias := "__srf_" + strconv.Itoa(call.Pos)
	cols, err := srfColumnNames(call, alias)
	if err != nil {
		return nil, err
	}
	var repl ast.Expr
	if len(cols) == 1 {
		repl = &ast.ColumnRef{Parts: []string{alias, cols[0]}, Pos: call.Pos}
	} else {
		row := &ast.RowExpr{Pos: call.Pos}
		for _, c := range cols {
			row.Elems = append(row.Elems, &ast.ColumnRef{Parts: []string{alias, c}, Pos: call.Pos})
		}
		repl = row
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
			out.Targets[i].Expr = replaceSRF(t.Expr, repl)
		}
	}
	out.From = append(append([]ast.TableExpr(nil), core.From...),
		&ast.FuncTable{Call: call, Lateral: true, Alias: &ast.Alias{Name: alias}, Pos: call.Pos})
	return &out, nil
}

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
	case "unnest", "generate_series":
		return []string{alias}, nil // a one-column function's column takes the alias
	case "_pg_expandarray":
		return []string{"x", "n"}, nil
	}
	if cols := procOutColumns(name); len(cols) > 0 {
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
