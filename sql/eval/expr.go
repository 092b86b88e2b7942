package eval

import (
	"cdcdb/pgerror"
	"cdcdb/types"
)

// Row is one row flowing between operators: a value per output column.
type Row = []types.Value

// Env is the row an expression reads, with the rows of enclosing queries
// for correlated subqueries.
type Env struct {
	Row   Row
	Outer *Env // the enclosing query's row, for correlated subqueries
	X     Context
}

// Expr is a bound, typed, executable expression.
type Expr interface {
	Eval(env *Env) (types.Value, error)
	Type() types.T
}

// Const is a constant.
type Const struct {
	V types.Value
	T types.T
	// Pos is where a string literal was written (1-based, 0 when not
	// known): errors reading it as some type point there, as
	// PostgreSQL's do.
	Pos int
}

func (e *Const) Eval(*Env) (types.Value, error) { return e.V, nil }
func (e *Const) Type() types.T                  { return e.T }

// ColRef reads column idx of the row level levels out (0 = the current row).
type ColRef struct {
	Level int
	Idx   int
	T     types.T
	Name  string
}

func (e *ColRef) Eval(env *Env) (types.Value, error) {
	for i := 0; i < e.Level; i++ {
		env = env.Outer
	}
	return env.Row[e.Idx], nil
}
func (e *ColRef) Type() types.T { return e.T }

// Param reads a bound parameter ($n, 0-based idx).
type Param struct {
	Idx int
	T   types.T
}

func (e *Param) Eval(env *Env) (types.Value, error) {
	if e.Idx >= len(env.X.Params()) {
		return nil, pgerror.New(pgerror.UndefinedParameter, "there is no parameter $%d", e.Idx+1)
	}
	return env.X.Params()[e.Idx], nil
}
func (e *Param) Type() types.T { return e.T }

// Cast converts a value to another type.
type Cast struct {
	X        Expr
	To       types.T
	Explicit bool
}

func (e *Cast) Eval(env *Env) (types.Value, error) {
	v, err := e.X.Eval(env)
	if err != nil || v == nil {
		return nil, err
	}
	return CastValue(env.X, v, e.X.Type(), e.To, e.Explicit)
}
func (e *Cast) Type() types.T { return e.To }

// FuncCall calls a scalar function. Strict functions return NULL when any
// argument is NULL without being called; as in PostgreSQL, every argument
// is evaluated first, so an error in one is not hidden by a NULL in another.
type FuncCall struct {
	Name   string
	Args   []Expr
	Fn     func(x Context, args []types.Value) (types.Value, error)
	Strict bool
	T      types.T
}

func (e *FuncCall) Eval(env *Env) (types.Value, error) {
	var buf [4]types.Value
	vals := buf[:0]
	if len(e.Args) > len(buf) {
		vals = make([]types.Value, 0, len(e.Args))
	}
	sawNull := false
	for _, a := range e.Args {
		v, err := a.Eval(env)
		if err != nil {
			return nil, err
		}
		sawNull = sawNull || v == nil
		vals = append(vals, v)
	}
	if sawNull && e.Strict {
		return nil, nil
	}
	return e.Fn(env.X, vals)
}
func (e *FuncCall) Type() types.T { return e.T }

// And and orExpr implement SQL's three-valued logic.
type And struct{ L, R Expr }

func (e *And) Eval(env *Env) (types.Value, error) {
	l, err := e.L.Eval(env)
	if err != nil {
		return nil, err
	}
	if l == false {
		return false, nil
	}
	r, err := e.R.Eval(env)
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
func (e *And) Type() types.T { return types.Of(types.Bool) }

type Or struct{ L, R Expr }

func (e *Or) Eval(env *Env) (types.Value, error) {
	l, err := e.L.Eval(env)
	if err != nil {
		return nil, err
	}
	if l == true {
		return true, nil
	}
	r, err := e.R.Eval(env)
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
func (e *Or) Type() types.T { return types.Of(types.Bool) }

type Not struct{ X Expr }

func (e *Not) Eval(env *Env) (types.Value, error) {
	v, err := e.X.Eval(env)
	if err != nil || v == nil {
		return nil, err
	}
	return !v.(bool), nil
}
func (e *Not) Type() types.T { return types.Of(types.Bool) }

// IsNull is x IS [NOT] NULL. For a row value, IS NULL means every field
// is NULL and IS NOT NULL means none is, as in PostgreSQL.
type IsNull struct {
	X   Expr
	Not bool
}

func (e *IsNull) Eval(env *Env) (types.Value, error) {
	v, err := e.X.Eval(env)
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
		if e.Not {
			return none, nil
		}
		return all, nil
	}
	return (v == nil) != e.Not, nil
}
func (e *IsNull) Type() types.T { return types.Of(types.Bool) }

// IsBool is x IS [NOT] TRUE | FALSE | UNKNOWN.
type IsBool struct {
	X    Expr
	Not  bool
	Want types.Value // true, false or nil for UNKNOWN
}

func (e *IsBool) Eval(env *Env) (types.Value, error) {
	v, err := e.X.Eval(env)
	if err != nil {
		return nil, err
	}
	return (v == e.Want) != e.Not, nil
}
func (e *IsBool) Type() types.T { return types.Of(types.Bool) }

// Case is a searched CASE (a simple CASE is bound into one).
type Case struct {
	Conds   []Expr
	Results []Expr
	Els     Expr
	T       types.T
}

func (e *Case) Eval(env *Env) (types.Value, error) {
	for i, c := range e.Conds {
		v, err := c.Eval(env)
		if err != nil {
			return nil, err
		}
		if v == true {
			return e.Results[i].Eval(env)
		}
	}
	if e.Els == nil {
		return nil, nil
	}
	return e.Els.Eval(env)
}
func (e *Case) Type() types.T { return e.T }

// Coalesce returns its first non-NULL argument, evaluating lazily.
type Coalesce struct {
	Args []Expr
	T    types.T
}

func (e *Coalesce) Eval(env *Env) (types.Value, error) {
	for _, a := range e.Args {
		v, err := a.Eval(env)
		if err != nil || v != nil {
			return v, err
		}
	}
	return nil, nil
}
func (e *Coalesce) Type() types.T { return e.T }

// InList is x IN (a, b, ...), with SQL's NULL rules.
type InList struct {
	X    Expr
	List []Expr
	CmpT types.T
	Not  bool
}

func (e *InList) Eval(env *Env) (types.Value, error) {
	v, err := e.X.Eval(env)
	if err != nil {
		return nil, err
	}
	sawNull := false
	for _, a := range e.List {
		// Each item is compared in turn as PostgreSQL's x = a OR x = b
		// does: evaluated (its errors raised) until one matches, even when
		// x is NULL.
		w, err := a.Eval(env)
		if err != nil {
			return nil, err
		}
		if v == nil || w == nil {
			sawNull = true
			continue
		}
		if types.Compare(e.CmpT, v, w) == 0 {
			return !e.Not, nil
		}
	}
	if sawNull {
		return nil, nil
	}
	return e.Not, nil
}
func (e *InList) Type() types.T { return types.Of(types.Bool) }

// RowCtor builds a record.
type RowCtor struct {
	Elems []Expr
}

func (e *RowCtor) Eval(env *Env) (types.Value, error) {
	rec := types.RecordValue{Types: make([]types.T, len(e.Elems)), Fields: make([]types.Value, len(e.Elems))}
	for i, el := range e.Elems {
		v, err := el.Eval(env)
		if err != nil {
			return nil, err
		}
		rec.Types[i] = el.Type()
		rec.Fields[i] = v
	}
	return rec, nil
}
func (e *RowCtor) Type() types.T { return rowExprType(e.Elems) }

// ArrayCtor builds an array from its elements.
type ArrayCtor struct {
	Elems []Expr
	Elem  types.OID
	T     types.T
}

func (e *ArrayCtor) Eval(env *Env) (types.Value, error) {
	arr := types.ArrayValue{Elem: e.Elem, Elems: make([]types.Value, len(e.Elems))}
	for i, el := range e.Elems {
		v, err := el.Eval(env)
		if err != nil {
			return nil, err
		}
		arr.Elems[i] = v
	}
	return arr, nil
}
func (e *ArrayCtor) Type() types.T { return e.T }
