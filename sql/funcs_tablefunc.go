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

// outCols gives a function's output columns as the planner's columns.
func outCols(fcols []builtins.Column) []outCol {
	cols := make([]outCol, len(fcols))
	for i, c := range fcols {
		cols[i] = outCol{name: c.Name, t: c.T}
	}
	return cols
}
