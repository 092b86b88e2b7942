package sql

import (
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// tableFuncScan runs a table function.
type tableFuncScan struct {
	name string
	tf   *builtins.SetFunc
	args []eval.Expr
	cols []outCol
	// ordinal adds WITH ORDINALITY's counter.
	ordinal bool
}

func (p *tableFuncScan) columns() []outCol { return p.cols }

func (p *tableFuncScan) explain(depth int, out *[]string) {
	explainLine(out, depth, "Function Scan on %s", p.name)
}

func (p *tableFuncScan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	env := &eval.Env{Outer: outer, X: x}
	vals := make([]types.Value, len(p.args))
	for i, a := range p.args {
		v, err := a.Eval(env)
		if err != nil {
			return nil, err
		}
		if v == nil && p.tf.Strict {
			return &sliceIter{}, nil
		}
		vals[i] = v
	}
	rows, err := p.tf.Gen(x, vals)
	if err != nil {
		return nil, err
	}
	if p.ordinal {
		for i := range rows {
			rows[i] = append(rows[i], int64(i+1))
		}
	}
	return &sliceIter{rows: rows}, nil
}

// planTableFunc plans a table function in FROM.
func (pc *planCtx) planTableFunc(tf *builtins.SetFunc, t *ast.FuncTable, b eval.Binder, args []eval.Expr) (plan, []*scopeRel, error) {
	name := t.Call.Name.Name()
	coerced, fcols, err := tf.Resolve(b, args)
	if err != nil {
		if err == builtins.ErrNoFunction {
			return nil, nil, noFunctionError(name, args, t.Pos)
		}
		return nil, nil, withPos(err, t.Call)
	}
	cols := outCols(fcols)
	if len(cols) == 1 && t.Alias != nil && len(t.Alias.Columns) == 0 {
		// A function of one column names it after the alias, as
		// generate_subscripts(a, 1) AS g names its column g.
		cols[0].name = t.Alias.Name
	}
	if t.WithOrdinality {
		cols = append(cols, outCol{name: "ordinality", t: eval.Int8T()})
	}
	p := &tableFuncScan{name: name, tf: tf, args: coerced, cols: cols, ordinal: t.WithOrdinality}
	rel := relFromColumns(name, cols)
	if t.Alias != nil && len(t.Alias.Columns) == 0 && len(cols) == 1+boolInt(t.WithOrdinality) {
		// A one-column function's column takes the alias's name too:
		// FROM regexp_split_to_table(...) AS x reads x.
		rel.cols[0].name = t.Alias.Name
	}
	if err := applyAlias(rel, t.Alias, t.Pos); err != nil {
		return nil, nil, err
	}
	return p, []*scopeRel{rel}, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func init() {
	// generate_subscripts(array, dim [, reverse]): the subscripts of a
	// dimension, as SQLAlchemy pairs them with unnest(pg_index.indkey).
	// int2vector and oidvector subscripts start at 0; the lower bound is
	// decided from the argument's type and passed on as a fourth argument.
	builtins.RegisterSet("generate_subscripts", &builtins.SetFunc{Strict: true, Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, []builtins.Column, error) {
		if len(args) < 2 || len(args) > 3 || types.ElemOf(args[0].Type().OID) == 0 {
			return nil, nil, builtins.ErrNoFunction
		}
		d, err := b.Coerce(args[1], eval.Int4T())
		if err != nil {
			return nil, nil, builtins.ErrNoFunction
		}
		var reverse eval.Expr = &eval.Const{V: false, T: eval.BoolT()}
		if len(args) == 3 {
			if reverse, err = b.Coerce(args[2], eval.BoolT()); err != nil {
				return nil, nil, builtins.ErrNoFunction
			}
		}
		lower := int64(1)
		if t := args[0].Type().OID; t == types.Int2Vector || t == types.OidVector {
			lower = 0
		}
		out := []eval.Expr{args[0], d, reverse, &eval.Const{V: lower, T: eval.Int4T()}}
		return out, []builtins.Column{{Name: "generate_subscripts", T: eval.Int4T()}}, nil
	}, Gen: func(_ eval.Context, a []types.Value) ([]eval.Row, error) {
		arr := a[0].(types.ArrayValue)
		dims := arr.Dims
		if dims == nil {
			dims = []int{len(arr.Elems)}
		}
		dim, lower := a[1].(int64), a[3].(int64)
		if dim < 1 || dim > int64(len(dims)) {
			return nil, nil
		}
		n := int64(dims[dim-1])
		rows := make([]eval.Row, 0, n)
		for i := int64(0); i < n; i++ {
			rows = append(rows, eval.Row{lower + i})
		}
		if a[2] == true {
			for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
				rows[i], rows[j] = rows[j], rows[i]
			}
		}
		return rows, nil
	}})
}

// outCols gives a function's output columns as the planner's columns.
func outCols(fcols []builtins.Column) []outCol {
	cols := make([]outCol, len(fcols))
	for i, c := range fcols {
		cols[i] = outCol{name: c.Name, t: c.T}
	}
	return cols
}
