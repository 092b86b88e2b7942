package sql

import (
	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

type subqueryKind int

const (
	subScalar subqueryKind = iota
	subExists
	subIn
	subAny
	subAll
	subArray
)

// subqueryExpr evaluates a subquery inside an expression. An uncorrelated
// subquery runs once per statement execution (its rows are cached in the
// execCtx); a correlated one runs for each outer row.
type subqueryExpr struct {
	kind       subqueryKind
	plan       plan
	correlated bool
	t          types.T
	// For IN / ANY / ALL: the left operand, the comparison type and operator.
	x    eval.Expr
	cmpT types.T
	op   string
	not  bool
	// rowTypes, for a row compared with a multi-column subquery, are the
	// types each field pair is compared in (subTypes the subquery's own).
	rowTypes, subTypes []types.T
}

func (e *subqueryExpr) Type() types.T {
	switch e.kind {
	case subScalar, subArray:
		return e.t
	}
	return eval.BoolT()
}

// rows runs the subquery, or returns the rows of its earlier run when it
// does not depend on the outer row. EXISTS and scalar subqueries stop early.
func (e *subqueryExpr) rows(env *eval.Env, limit int) ([]eval.Row, error) {
	x := stmtOf(env.X)
	if !e.correlated {
		if rows, ok := x.subqueryCache[e]; ok {
			return rows, nil
		}
		limit = 0 // cache complete results only
	}
	it, err := e.plan.open(x, env)
	if err != nil {
		return nil, err
	}
	defer it.close()
	var rows []eval.Row
	for {
		r, err := it.next()
		if err != nil {
			return nil, err
		}
		if r == nil {
			break
		}
		rows = append(rows, append(eval.Row(nil), r...))
		if limit > 0 && len(rows) >= limit {
			break
		}
	}
	if !e.correlated {
		if x.subqueryCache == nil {
			x.subqueryCache = map[*subqueryExpr][]eval.Row{}
		}
		x.subqueryCache[e] = rows
	}
	return rows, nil
}

func (e *subqueryExpr) Eval(env *eval.Env) (types.Value, error) {
	switch e.kind {
	case subExists:
		rows, err := e.rows(env, 1)
		if err != nil {
			return nil, err
		}
		return len(rows) > 0, nil
	case subScalar:
		rows, err := e.rows(env, 2)
		if err != nil {
			return nil, err
		}
		if len(rows) > 1 {
			return nil, pgerror.New(pgerror.CardinalityViolation, "more than one row returned by a subquery used as an expression")
		}
		if len(rows) == 0 {
			return nil, nil
		}
		return rows[0][0], nil
	case subArray:
		rows, err := e.rows(env, 0)
		if err != nil {
			return nil, err
		}
		info, _ := types.Lookup(e.t.OID)
		arr := types.ArrayValue{Elem: info.ElemOID, Elems: make([]types.Value, len(rows))}
		for i, r := range rows {
			arr.Elems[i] = r[0]
		}
		return arr, nil
	}
	// IN, ANY, ALL.
	v, err := e.x.Eval(env)
	if err != nil {
		return nil, err
	}
	rows, err := e.rows(env, 0)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		switch e.kind {
		case subIn:
			return e.not, nil
		case subAny:
			return false, nil
		}
		return true, nil
	}
	if v == nil {
		return nil, nil
	}
	test, _ := eval.ComparisonFunc(e.op)
	if e.rowTypes != nil {
		return e.rowIn(env, v.(types.RecordValue), rows)
	}
	sawNull := false
	for _, r := range rows {
		w := r[0]
		if w == nil {
			sawNull = true
			continue
		}
		ok := test(types.Compare(e.cmpT, v, w))
		switch e.kind {
		case subIn:
			if ok {
				return !e.not, nil
			}
		case subAny:
			if ok {
				return true, nil
			}
		case subAll:
			if !ok {
				return false, nil
			}
		}
	}
	if sawNull {
		return nil, nil
	}
	switch e.kind {
	case subIn:
		return e.not, nil
	case subAny:
		return false, nil
	}
	return true, nil
}

// rowIn is (a, b) IN (SELECT x, y ...): true when some row equals the
// row field by field, else NULL when some comparison met a NULL, else
// false (NOT IN the opposite).
func (e *subqueryExpr) rowIn(env *eval.Env, v types.RecordValue, rows []eval.Row) (types.Value, error) {
	sawNull := false
	for _, r := range rows {
		match, unknown := true, false
		for i, t := range e.rowTypes {
			x, y := v.Fields[i], r[i]
			if x == nil || y == nil {
				unknown = true
				continue
			}
			if e.subTypes[i].OID != t.OID {
				var err error
				if y, err = eval.CastValue(env.X, y, e.subTypes[i], t, false); err != nil {
					return nil, err
				}
			}
			if types.Compare(t, x, y) != 0 {
				match = false
				break
			}
		}
		switch {
		case match && !unknown:
			return !e.not, nil
		case match:
			sawNull = true
		}
	}
	if sawNull {
		return nil, nil
	}
	return e.not, nil
}

// anyArrayExpr is x op ANY|ALL (array).
type anyArrayExpr struct {
	x, arr      eval.Expr
	cmpT, elemT types.T
	cmp         func(int) bool
	all         bool
}

func (e *anyArrayExpr) Type() types.T { return eval.BoolT() }

func (e *anyArrayExpr) Eval(env *eval.Env) (types.Value, error) {
	v, err := e.x.Eval(env)
	if err != nil {
		return nil, err
	}
	a, err := e.arr.Eval(env)
	if err != nil || a == nil {
		return nil, err
	}
	arr := a.(types.ArrayValue)
	if len(arr.Elems) == 0 {
		return e.all, nil
	}
	if v == nil {
		return nil, nil
	}
	sawNull := false
	for _, w := range arr.Elems {
		if w == nil {
			sawNull = true
			continue
		}
		if e.elemT.OID != e.cmpT.OID {
			if w, err = eval.CastValue(env.X, w, e.elemT, e.cmpT, false); err != nil {
				return nil, err
			}
		}
		ok := e.cmp(types.Compare(e.cmpT, v, w))
		if ok && !e.all {
			return true, nil
		}
		if !ok && e.all {
			return false, nil
		}
	}
	if sawNull {
		return nil, nil
	}
	return e.all, nil
}

// subscriptExpr is arr[i] or arr[lo:hi] on a one-dimensional array with
// PostgreSQL's default lower bound of 1.
type subscriptExpr struct {
	x             eval.Expr
	index, lo, hi eval.Expr
	elemT         types.T
	slice         bool
}

func (e *subscriptExpr) Type() types.T {
	if e.slice {
		return e.x.Type()
	}
	return e.elemT
}

func (e *subscriptExpr) Eval(env *eval.Env) (types.Value, error) {
	a, err := e.x.Eval(env)
	if err != nil || a == nil {
		return nil, err
	}
	arr := a.(types.ArrayValue)
	n := int64(len(arr.Elems))
	if !e.slice && len(arr.Dims) > 1 {
		return nil, nil // one subscript of a multidimensional array selects nothing
	}
	if !e.slice {
		iv, err := e.index.Eval(env)
		if err != nil || iv == nil {
			return nil, err
		}
		i := iv.(int64)
		if t := e.x.Type().OID; t == types.Int2Vector || t == types.OidVector {
			i++ // int2vector and oidvector count from 0 (pg_index.indkey[0])
		}
		if i < 1 || i > n {
			return nil, nil
		}
		return arr.Elems[i-1], nil
	}
	lo, hi := int64(1), n
	if e.lo != nil {
		v, err := e.lo.Eval(env)
		if err != nil || v == nil {
			return nil, err
		}
		lo = max(v.(int64), 1)
	}
	if e.hi != nil {
		v, err := e.hi.Eval(env)
		if err != nil || v == nil {
			return nil, err
		}
		hi = min(v.(int64), n)
	}
	out := types.ArrayValue{Elem: arr.Elem}
	if lo <= hi {
		out.Elems = append([]types.Value(nil), arr.Elems[lo-1:hi]...)
	}
	return out, nil
}
