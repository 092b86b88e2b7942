package sql

import (
	"strings"

	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

func init() {
	// array_to_string(anyarray, delimiter [, null_string]): psql's \l and
	// \dp print ACLs with it. NULL elements are skipped unless a
	// null_string is given.
	builtins.Register("array_to_string", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) < 2 || len(args) > 3 || types.ElemOf(args[0].Type().OID) == 0 {
			return nil, types.T{}, builtins.ErrNoFunction
		}
		out := []eval.Expr{args[0]}
		for _, a := range args[1:] {
			c, err := b.Coerce(a, eval.TextT())
			if err != nil {
				return nil, types.T{}, builtins.ErrNoFunction
			}
			out = append(out, c)
		}
		return out, eval.TextT(), nil
	}, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		if a[0] == nil || a[1] == nil {
			return nil, nil
		}
		arr := a[0].(types.ArrayValue)
		sep := a[1].(string)
		var parts []string
		for _, e := range arr.Elems {
			if e == nil {
				if len(a) == 3 && a[2] != nil {
					parts = append(parts, a[2].(string))
				}
				continue
			}
			parts = append(parts, types.FormatTextIn(types.Of(arr.Elem), e, x.Location()))
		}
		return strings.Join(parts, sep), nil
	}})
}

func init() {
	// array_lower, array_upper, array_length and cardinality of a
	// one-dimensional array (all cdcdb's arrays start at 1); psql's \d
	// walks pg_publication_rel.prattrs with array_upper.
	dimFn := func(f func(n int64) types.Value) *builtins.Func {
		return &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
			if len(args) != 2 || types.ElemOf(args[0].Type().OID) == 0 {
				return nil, types.T{}, builtins.ErrNoFunction
			}
			d, err := b.Coerce(args[1], eval.Int4T())
			if err != nil {
				return nil, types.T{}, builtins.ErrNoFunction
			}
			return []eval.Expr{args[0], d}, eval.Int4T(), nil
		}, Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
			arr := a[0].(types.ArrayValue)
			dim := a[1].(int64)
			dims := arr.Dims
			if dims == nil {
				dims = []int{len(arr.Elems)}
			}
			if dim < 1 || dim > int64(len(dims)) || dims[dim-1] == 0 {
				return nil, nil
			}
			return f(int64(dims[dim-1])), nil
		}}
	}
	builtins.Register("array_lower", dimFn(func(int64) types.Value { return int64(1) }))
	builtins.Register("array_upper", dimFn(func(n int64) types.Value { return n }))
	builtins.Register("array_length", dimFn(func(n int64) types.Value { return n }))
	builtins.Register("cardinality", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != 1 || types.ElemOf(args[0].Type().OID) == 0 {
			return nil, types.T{}, builtins.ErrNoFunction
		}
		return args, eval.Int4T(), nil
	}, Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		return int64(len(a[0].(types.ArrayValue).Elems)), nil
	}})
}
