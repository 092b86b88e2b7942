package builtins

import (
	"strings"

	"cdcdb/sql/eval"
	"cdcdb/types"
)

// The bounds of arrays (array_lower, array_upper, array_length,
// cardinality, generate_subscripts) and array_to_string, which psql's \d,
// \l and \dp and SQLAlchemy's reflection call.

func init() {
	// array_to_string(anyarray, delimiter [, null_string]): psql's \l and
	// \dp print ACLs with it. NULL elements are skipped unless a
	// null_string is given.
	Register("array_to_string", &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) < 2 || len(args) > 3 || types.ElemOf(args[0].Type().OID) == 0 {
			return nil, types.T{}, ErrNoFunction
		}
		out := []eval.Expr{args[0]}
		for _, a := range args[1:] {
			c, err := b.Coerce(a, eval.TextT())
			if err != nil {
				return nil, types.T{}, ErrNoFunction
			}
			out = append(out, c)
		}
		return out, eval.TextT(), nil
	}, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
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
			parts = append(parts, types.FormatTextIn(types.Of(arr.Elem), e, ec.Location()))
		}
		return strings.Join(parts, sep), nil
	}})
}

func init() {
	// array_lower, array_upper, array_length and cardinality of a
	// one-dimensional array (all cdcdb's arrays start at 1); psql's \d
	// walks pg_publication_rel.prattrs with array_upper.
	dimFn := func(f func(n int64) types.Value) *Func {
		return &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
			if len(args) != 2 || types.ElemOf(args[0].Type().OID) == 0 {
				return nil, types.T{}, ErrNoFunction
			}
			d, err := b.Coerce(args[1], eval.Int4T())
			if err != nil {
				return nil, types.T{}, ErrNoFunction
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
	Register("array_lower", dimFn(func(int64) types.Value { return int64(1) }))
	Register("array_upper", dimFn(func(n int64) types.Value { return n }))
	Register("array_length", dimFn(func(n int64) types.Value { return n }))
	Register("cardinality", &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != 1 || types.ElemOf(args[0].Type().OID) == 0 {
			return nil, types.T{}, ErrNoFunction
		}
		return args, eval.Int4T(), nil
	}, Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		return int64(len(a[0].(types.ArrayValue).Elems)), nil
	}})
}

func init() {
	// generate_subscripts(array, dim [, reverse]): the subscripts of a
	// dimension, as SQLAlchemy pairs them with unnest(pg_index.indkey).
	// int2vector and oidvector subscripts start at 0; the lower bound is
	// decided from the argument's type and passed on as a fourth argument.
	RegisterSet("generate_subscripts", &SetFunc{Strict: true, Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, []Column, error) {
		if len(args) < 2 || len(args) > 3 || types.ElemOf(args[0].Type().OID) == 0 {
			return nil, nil, ErrNoFunction
		}
		d, err := b.Coerce(args[1], eval.Int4T())
		if err != nil {
			return nil, nil, ErrNoFunction
		}
		var reverse eval.Expr = &eval.Const{V: false, T: eval.BoolT()}
		if len(args) == 3 {
			if reverse, err = b.Coerce(args[2], eval.BoolT()); err != nil {
				return nil, nil, ErrNoFunction
			}
		}
		lower := int64(1)
		if t := args[0].Type().OID; t == types.Int2Vector || t == types.OidVector {
			lower = 0
		}
		out := []eval.Expr{args[0], d, reverse, &eval.Const{V: lower, T: eval.Int4T()}}
		return out, []Column{{Name: "generate_subscripts", T: eval.Int4T()}}, nil
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
