package sql

import (
	"cdcdb/pgerror"
	"cdcdb/types"
)

// Row is one row flowing between operators: a value per output column.
type Row = []types.Value

// evalEnv is the row an expression reads, with the rows of enclosing queries
// for correlated subqueries.
type evalEnv struct {
	row   Row
	outer *evalEnv
	x     evalContext
}

// expr is a bound, typed, executable expression.
type expr interface {
	eval(env *evalEnv) (types.Value, error)
	typ() types.T
}

// constExpr is a constant.
type constExpr struct {
	v types.Value
	t types.T
	// pos is where a string literal was written (1-based, 0 when not
	// known): errors reading it as some type point there, as
	// PostgreSQL's do.
	pos int
}

func (e *constExpr) eval(*evalEnv) (types.Value, error) { return e.v, nil }
func (e *constExpr) typ() types.T                       { return e.t }

// colRef reads column idx of the row level levels out (0 = the current row).
type colRef struct {
	level int
	idx   int
	t     types.T
	name  string
}

func (e *colRef) eval(env *evalEnv) (types.Value, error) {
	for i := 0; i < e.level; i++ {
		env = env.outer
	}
	return env.row[e.idx], nil
}
func (e *colRef) typ() types.T { return e.t }

// paramRef reads a bound parameter ($n, 0-based idx).
type paramRef struct {
	idx int
	t   types.T
}

func (e *paramRef) eval(env *evalEnv) (types.Value, error) {
	if e.idx >= len(env.x.Params()) {
		return nil, pgerror.New(pgerror.UndefinedParameter, "there is no parameter $%d", e.idx+1)
	}
	return env.x.Params()[e.idx], nil
}
func (e *paramRef) typ() types.T { return e.t }

// castExpr converts a value to another type.
type castExpr struct {
	x        expr
	to       types.T
	explicit bool
}

func (e *castExpr) eval(env *evalEnv) (types.Value, error) {
	v, err := e.x.eval(env)
	if err != nil || v == nil {
		return nil, err
	}
	return castValue(env.x, v, e.x.typ(), e.to, e.explicit)
}
func (e *castExpr) typ() types.T { return e.to }

// funcExpr calls a scalar function. Strict functions return NULL when any
// argument is NULL without being called; as in PostgreSQL, every argument
// is evaluated first, so an error in one is not hidden by a NULL in another.
type funcExpr struct {
	name   string
	args   []expr
	fn     func(x evalContext, args []types.Value) (types.Value, error)
	strict bool
	t      types.T
}

func (e *funcExpr) eval(env *evalEnv) (types.Value, error) {
	var buf [4]types.Value
	vals := buf[:0]
	if len(e.args) > len(buf) {
		vals = make([]types.Value, 0, len(e.args))
	}
	sawNull := false
	for _, a := range e.args {
		v, err := a.eval(env)
		if err != nil {
			return nil, err
		}
		sawNull = sawNull || v == nil
		vals = append(vals, v)
	}
	if sawNull && e.strict {
		return nil, nil
	}
	return e.fn(env.x, vals)
}
func (e *funcExpr) typ() types.T { return e.t }

// andExpr and orExpr implement SQL's three-valued logic.
type andExpr struct{ l, r expr }

func (e *andExpr) eval(env *evalEnv) (types.Value, error) {
	l, err := e.l.eval(env)
	if err != nil {
		return nil, err
	}
	if l == false {
		return false, nil
	}
	r, err := e.r.eval(env)
	if err != nil {
		return nil, err
	}
	if r == false {
		return false, nil
	}
	if l == nil || r == nil {
		return nil, nil
	}
	return true, nil
}
func (e *andExpr) typ() types.T { return types.Of(types.Bool) }

type orExpr struct{ l, r expr }

func (e *orExpr) eval(env *evalEnv) (types.Value, error) {
	l, err := e.l.eval(env)
	if err != nil {
		return nil, err
	}
	if l == true {
		return true, nil
	}
	r, err := e.r.eval(env)
	if err != nil {
		return nil, err
	}
	if r == true {
		return true, nil
	}
	if l == nil || r == nil {
		return nil, nil
	}
	return false, nil
}
func (e *orExpr) typ() types.T { return types.Of(types.Bool) }

type notExpr struct{ x expr }

func (e *notExpr) eval(env *evalEnv) (types.Value, error) {
	v, err := e.x.eval(env)
	if err != nil || v == nil {
		return nil, err
	}
	return !v.(bool), nil
}
func (e *notExpr) typ() types.T { return types.Of(types.Bool) }

// isNullExpr is x IS [NOT] NULL. For a row value, IS NULL means every field
// is NULL and IS NOT NULL means none is, as in PostgreSQL.
type isNullExpr struct {
	x   expr
	not bool
}

func (e *isNullExpr) eval(env *evalEnv) (types.Value, error) {
	v, err := e.x.eval(env)
	if err != nil {
		return nil, err
	}
	if rec, ok := v.(types.RecordValue); ok {
		all, none := true, true
		for _, f := range rec.Fields {
			if f == nil {
				none = false
			} else {
				all = false
			}
		}
		if e.not {
			return none, nil
		}
		return all, nil
	}
	return (v == nil) != e.not, nil
}
func (e *isNullExpr) typ() types.T { return types.Of(types.Bool) }

// isBoolExpr is x IS [NOT] TRUE | FALSE | UNKNOWN.
type isBoolExpr struct {
	x    expr
	not  bool
	want types.Value // true, false or nil for UNKNOWN
}

func (e *isBoolExpr) eval(env *evalEnv) (types.Value, error) {
	v, err := e.x.eval(env)
	if err != nil {
		return nil, err
	}
	return (v == e.want) != e.not, nil
}
func (e *isBoolExpr) typ() types.T { return types.Of(types.Bool) }

// caseExpr is a searched CASE (a simple CASE is bound into one).
type caseExpr struct {
	conds   []expr
	results []expr
	els     expr
	t       types.T
}

func (e *caseExpr) eval(env *evalEnv) (types.Value, error) {
	for i, c := range e.conds {
		v, err := c.eval(env)
		if err != nil {
			return nil, err
		}
		if v == true {
			return e.results[i].eval(env)
		}
	}
	if e.els == nil {
		return nil, nil
	}
	return e.els.eval(env)
}
func (e *caseExpr) typ() types.T { return e.t }

// coalesceExpr returns its first non-NULL argument, evaluating lazily.
type coalesceExpr struct {
	args []expr
	t    types.T
}

func (e *coalesceExpr) eval(env *evalEnv) (types.Value, error) {
	for _, a := range e.args {
		v, err := a.eval(env)
		if err != nil || v != nil {
			return v, err
		}
	}
	return nil, nil
}
func (e *coalesceExpr) typ() types.T { return e.t }

// inListExpr is x IN (a, b, ...), with SQL's NULL rules.
type inListExpr struct {
	x    expr
	list []expr
	cmpT types.T
	not  bool
}

func (e *inListExpr) eval(env *evalEnv) (types.Value, error) {
	v, err := e.x.eval(env)
	if err != nil {
		return nil, err
	}
	sawNull := false
	for _, a := range e.list {
		// Each item is compared in turn as PostgreSQL's x = a OR x = b
		// does: evaluated (its errors raised) until one matches, even when
		// x is NULL.
		w, err := a.eval(env)
		if err != nil {
			return nil, err
		}
		if v == nil || w == nil {
			sawNull = true
			continue
		}
		if types.Compare(e.cmpT, v, w) == 0 {
			return !e.not, nil
		}
	}
	if sawNull {
		return nil, nil
	}
	return e.not, nil
}
func (e *inListExpr) typ() types.T { return types.Of(types.Bool) }

// rowExpr builds a record.
type rowExpr struct {
	elems []expr
}

func (e *rowExpr) eval(env *evalEnv) (types.Value, error) {
	rec := types.RecordValue{Types: make([]types.T, len(e.elems)), Fields: make([]types.Value, len(e.elems))}
	for i, el := range e.elems {
		v, err := el.eval(env)
		if err != nil {
			return nil, err
		}
		rec.Types[i] = el.typ()
		rec.Fields[i] = v
	}
	return rec, nil
}
func (e *rowExpr) typ() types.T { return rowExprType(e.elems) }

// arrayExpr builds an array from its elements.
type arrayExpr struct {
	elems []expr
	elem  types.OID
	t     types.T
}

func (e *arrayExpr) eval(env *evalEnv) (types.Value, error) {
	arr := types.ArrayValue{Elem: e.elem, Elems: make([]types.Value, len(e.elems))}
	for i, el := range e.elems {
		v, err := el.eval(env)
		if err != nil {
			return nil, err
		}
		arr.Elems[i] = v
	}
	return arr, nil
}
func (e *arrayExpr) typ() types.T { return e.t }
