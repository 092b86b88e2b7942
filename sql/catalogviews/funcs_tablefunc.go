package catalogviews

import (
	"cdcdb/pgerror"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// ProcOutColumns are the OUT columns of a built-in function, read from
// PostgreSQL's pg_proc rows (nil for a function without any).
func ProcOutColumns(name string) []builtins.Column {
	static, err := StaticRows("pg_proc")
	if err != nil {
		return nil
	}
	b := CatalogRowBuilder("pg_proc")
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
		return nil, ProcOutColumns("pg_get_keywords"), nil
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
		return []eval.Expr{r}, ProcOutColumns("pg_partition_ancestors"), nil
	}, Gen: func(eval.Context, []types.Value) ([]eval.Row, error) {
		return nil, nil
	}})
}
