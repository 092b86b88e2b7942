package sql

import (
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// procOutColumns reads the OUT columns of a built-in function from
// PostgreSQL's pg_proc rows.
func procOutColumns(name string) []builtins.Column {
	static, err := catalogviews.StaticRows("pg_proc")
	if err != nil {
		return nil
	}
	b := catalogviews.CatalogRowBuilder("pg_proc")
	for _, r := range static {
		if r[b.Col("proname")] != name {
			continue
		}
		all, ok := r[b.Col("proallargtypes")].(types.ArrayValue)
		if !ok {
			continue
		}
		modes, _ := r[b.Col("proargmodes")].(types.ArrayValue)
		names, _ := r[b.Col("proargnames")].(types.ArrayValue)
		var cols []builtins.Column
		for i, t := range all.Elems {
			if i >= len(modes.Elems) || (modes.Elems[i] != "o" && modes.Elems[i] != "t" && modes.Elems[i] != "b") {
				continue
			}
			n := ""
			if i < len(names.Elems) {
				n, _ = names.Elems[i].(string)
			}
			cols = append(cols, builtins.Column{Name: n, T: types.Of(types.OID(t.(int64)))})
		}
		return cols
	}
	return nil
}

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

func init() {
	// _pg_expandarray(anyarray) returns (x anyelement, n int): each element
	// with its 1-based position. JDBC's getPrimaryKeys and getIndexInfo
	// expand pg_index.indkey with it.
	builtins.RegisterSet("_pg_expandarray", &builtins.SetFunc{Strict: true, Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, []builtins.Column, error) {
		if len(args) != 1 {
			return nil, nil, builtins.ErrNoFunction
		}
		elem := types.ElemOf(args[0].Type().OID)
		if elem == 0 {
			return nil, nil, builtins.ErrNoFunction
		}
		return args, []builtins.Column{{Name: "x", T: types.Of(elem)}, {Name: "n", T: eval.Int4T()}}, nil
	}, Gen: func(_ eval.Context, a []types.Value) ([]eval.Row, error) {
		arr, ok := a[0].(types.ArrayValue)
		if !ok {
			return nil, pgerror.New(pgerror.InternalError, "_pg_expandarray: not an array")
		}
		rows := make([]eval.Row, len(arr.Elems))
		for i, e := range arr.Elems {
			rows[i] = eval.Row{e, int64(i + 1)}
		}
		return rows, nil
	}})
}

func init() {
	// pg_get_keywords() lists the keywords of the SQL front end, with
	// PostgreSQL's category codes and descriptions (psql's tab completion
	// and tools that quote identifiers read it).
	catDesc := map[byte]string{'U': "unreserved", 'C': "unreserved (cannot be function or type name)",
		'T': "reserved (can be function or type name)", 'R': "reserved"}
	builtins.RegisterSet("pg_get_keywords", &builtins.SetFunc{Resolve: func(_ eval.Binder, args []eval.Expr) ([]eval.Expr, []builtins.Column, error) {
		if len(args) != 0 {
			return nil, nil, builtins.ErrNoFunction
		}
		return nil, procOutColumns("pg_get_keywords"), nil
	}, Gen: func(eval.Context, []types.Value) ([]eval.Row, error) {
		var rows []eval.Row
		for _, k := range parse.Keywords() {
			bareDesc := "requires AS"
			if k.BareLabel {
				bareDesc = "can be bare label"
			}
			rows = append(rows, eval.Row{k.Word, string(k.CatCode), k.BareLabel, catDesc[k.CatCode], bareDesc})
		}
		return rows, nil
	}})
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

func init() {
	// pg_partition_ancestors(regclass): a partition and the tables it is a
	// partition of. cdcdb has no partitioned tables, so no relation is a
	// partition, and PostgreSQL answers no rows for those.
	builtins.RegisterSet("pg_partition_ancestors", &builtins.SetFunc{Strict: true, Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, []builtins.Column, error) {
		if len(args) != 1 {
			return nil, nil, builtins.ErrNoFunction
		}
		r, err := b.Coerce(args[0], types.Of(types.Regclass))
		if err != nil {
			return nil, nil, builtins.ErrNoFunction
		}
		return []eval.Expr{r}, procOutColumns("pg_partition_ancestors"), nil
	}, Gen: func(eval.Context, []types.Value) ([]eval.Row, error) {
		return nil, nil
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
