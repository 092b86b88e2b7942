package builtins

import (
	"strconv"
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// Array functions, multidimensional ARRAY[...] constructors and subscripts.
//
// A multidimensional array is one ArrayValue with Dims (lengths, outermost
// first) and its elements flattened in row-major order, as PostgreSQL
// stores it; every array here has lower bounds 1.

func init() {
	// unnest(array, ...) gives one row per element, the arrays side by
	// side (a shorter one, or a NULL one, runs out as NULLs).
	RegisterSet("unnest", &SetFunc{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, []Column, error) {
		if len(args) == 0 {
			return nil, nil, ErrNoFunction
		}
		out := make([]eval.Expr, len(args))
		cols := make([]Column, len(args))
		for i, a := range args {
			elem := types.ElemOf(a.Type().OID)
			if elem == 0 {
				return nil, nil, ErrNoFunction
			}
			out[i] = a
			cols[i] = Column{Name: "unnest", T: types.Of(elem)}
		}
		return out, cols, nil
	}, Gen: func(x eval.Context, a []types.Value) ([]eval.Row, error) {
		n := 0
		for _, v := range a {
			if v != nil {
				n = max(n, len(v.(types.ArrayValue).Elems))
			}
		}
		rows := make([]eval.Row, n)
		for i := range rows {
			if err := x.CheckCancel(); err != nil {
				return nil, err
			}
			row := make(eval.Row, len(a))
			for j, v := range a {
				if v != nil && i < len(v.(types.ArrayValue).Elems) {
					row[j] = v.(types.ArrayValue).Elems[i]
				}
			}
			rows[i] = row
		}
		return rows, nil
	}})
	Register("array_append", arrayFn(func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		return arrayAndElem(b, args[0], args[1], 0)
	}, func(_ eval.Context, a []types.Value) (types.Value, error) {
		arr, ok := optArray(a[0])
		if !ok {
			return nil, oneDimOnly()
		}
		arr.Elems = append(append([]types.Value(nil), arr.Elems...), a[1])
		arr.Dims = nil
		return arr, nil
	}, 2))
	Register("array_prepend", arrayFn(func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		return arrayAndElem(b, args[1], args[0], 1)
	}, func(_ eval.Context, a []types.Value) (types.Value, error) {
		arr, ok := optArray(a[1])
		if !ok {
			return nil, oneDimOnly()
		}
		arr.Elems = append([]types.Value{a[0]}, arr.Elems...)
		arr.Dims = nil
		return arr, nil
	}, 2))
	Register("array_cat", arrayFn(func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		t, err := eval.CommonType(args, "array_cat")
		if err != nil || !types.IsArray(t.OID) {
			return nil, types.T{}, ErrNoFunction
		}
		out := make([]eval.Expr, 2)
		for i, a := range args {
			if out[i], err = b.Coerce(a, t); err != nil {
				return nil, types.T{}, ErrNoFunction
			}
		}
		return out, t, nil
	}, func(_ eval.Context, a []types.Value) (types.Value, error) {
		switch {
		case a[0] == nil:
			return a[1], nil
		case a[1] == nil:
			return a[0], nil
		}
		x, y := a[0].(types.ArrayValue), a[1].(types.ArrayValue)
		if len(x.Dims) > 1 || len(y.Dims) > 1 {
			return nil, oneDimOnly()
		}
		return types.ArrayValue{Elem: x.Elem, Elems: append(append([]types.Value(nil), x.Elems...), y.Elems...)}, nil
	}, 2))
	Register("array_remove", arrayFn(func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		return arrayAndElem(b, args[0], args[1], 0)
	}, func(_ eval.Context, a []types.Value) (types.Value, error) {
		if a[0] == nil {
			return nil, nil
		}
		arr := a[0].(types.ArrayValue)
		if len(arr.Dims) > 1 {
			return nil, pgerror.New(pgerror.FeatureNotSupported, "removing elements from multidimensional arrays is not supported")
		}
		out := types.ArrayValue{Elem: arr.Elem, Elems: []types.Value{}}
		for _, v := range arr.Elems {
			if !arrayElemsEqual(arr.Elem, v, a[1]) {
				out.Elems = append(out.Elems, v)
			}
		}
		return out, nil
	}, 2))
	Register("array_replace", arrayFn(func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		out, t, err := arrayAndElem(b, args[0], args[1], 0)
		if err != nil {
			return nil, t, err
		}
		r, err := b.Coerce(args[2], types.Of(types.ElemOf(t.OID)))
		if err != nil {
			return nil, types.T{}, ErrNoFunction
		}
		return append(out, r), t, nil
	}, func(_ eval.Context, a []types.Value) (types.Value, error) {
		if a[0] == nil {
			return nil, nil
		}
		arr := a[0].(types.ArrayValue)
		out := types.ArrayValue{Elem: arr.Elem, Dims: arr.Dims, Elems: make([]types.Value, len(arr.Elems))}
		for i, v := range arr.Elems {
			out.Elems[i] = v
			if arrayElemsEqual(arr.Elem, v, a[1]) {
				out.Elems[i] = a[2]
			}
		}
		return out, nil
	}, 3))
	position := func(all bool) *Func {
		return &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
			if len(args) < 2 || len(args) > 3 || (all && len(args) != 2) {
				return nil, types.T{}, ErrNoFunction
			}
			out, _, err := arrayAndElem(b, args[0], args[1], 0)
			if err != nil {
				return nil, types.T{}, err
			}
			if len(args) == 3 {
				s, err := b.Coerce(args[2], eval.Int4T())
				if err != nil {
					return nil, types.T{}, ErrNoFunction
				}
				out = append(out, s)
			}
			if all {
				return out, types.Of(types.Int4Array), nil
			}
			return out, eval.Int4T(), nil
		}, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
			if a[0] == nil {
				return nil, nil
			}
			arr := a[0].(types.ArrayValue)
			if len(arr.Dims) > 1 {
				return nil, pgerror.New(pgerror.FeatureNotSupported, "searching for elements in multidimensional arrays is not supported")
			}
			start := 0
			if len(a) == 3 {
				if a[2] == nil {
					return nil, pgerror.New(pgerror.NullValueNotAllowed, "initial position must not be null")
				}
				start = int(a[2].(int64)) - 1
			}
			found := types.ArrayValue{Elem: types.Int4, Elems: []types.Value{}}
			for i := max(start, 0); i < len(arr.Elems); i++ {
				if arrayElemsEqual(arr.Elem, arr.Elems[i], a[1]) {
					if !all {
						return int64(i + 1), nil
					}
					found.Elems = append(found.Elems, int64(i+1))
				}
			}
			if all {
				return found, nil
			}
			return nil, nil
		}}
	}
	Register("array_position", position(false))
	Register("array_positions", position(true))
	Register("array_ndims", arrayFn(func(_ eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		return args, eval.Int4T(), nil
	}, func(_ eval.Context, a []types.Value) (types.Value, error) {
		arr := a[0].(types.ArrayValue)
		if len(arr.Elems) == 0 {
			return nil, nil
		}
		return int64(max(len(arr.Dims), 1)), nil
	}, 1))
	Register("array_dims", arrayFn(func(_ eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		return args, eval.TextT(), nil
	}, func(_ eval.Context, a []types.Value) (types.Value, error) {
		arr := a[0].(types.ArrayValue)
		if len(arr.Elems) == 0 {
			return nil, nil
		}
		var sb strings.Builder
		for _, d := range eval.ArrayDims(arr) {
			sb.WriteString("[1:" + strconv.Itoa(d) + "]")
		}
		return sb.String(), nil
	}, 1))
}

// arrayFn makes a builtin whose first argument must be an array (for
// array_prepend the second), with n arguments.
func arrayFn(resolve func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error), call func(eval.Context, []types.Value) (types.Value, error), n int) *Func {
	strict := n == 1
	return &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != n {
			return nil, types.T{}, ErrNoFunction
		}
		if n == 1 && !types.IsArray(args[0].Type().OID) {
			return nil, types.T{}, ErrNoFunction
		}
		return resolve(b, args)
	}, Call: call, Strict: strict}
}

// arrayAndElem resolves (anyarray, anyelement): the element takes the
// array's element type, or an unknown array the element's array type.
func arrayAndElem(b eval.Binder, arr, elem eval.Expr, elemPos int) ([]eval.Expr, types.T, error) {
	at := arr.Type()
	if at.OID == types.Unknown {
		et := b.ResolveUnknown(elem).Type()
		at = eval.ArrayOf(et)
		if at.OID == 0 {
			return nil, types.T{}, ErrNoFunction
		}
	}
	et := types.ElemOf(at.OID)
	if et == 0 {
		return nil, types.T{}, ErrNoFunction
	}
	a, err := b.Coerce(arr, at)
	if err != nil {
		return nil, types.T{}, ErrNoFunction
	}
	e, err := b.Coerce(elem, types.Of(et))
	if err != nil {
		return nil, types.T{}, ErrNoFunction
	}
	if elemPos == 1 {
		return []eval.Expr{e, a}, at, nil
	}
	return []eval.Expr{a, e}, at, nil
}

// optArray reads a possibly NULL array argument as a one-dimensional array
// (a NULL array is empty); ok is false for a multidimensional one.
func optArray(v types.Value) (types.ArrayValue, bool) {
	if v == nil {
		return types.ArrayValue{Elems: []types.Value{}}, true
	}
	arr := v.(types.ArrayValue)
	return arr, len(arr.Dims) <= 1
}

func oneDimOnly() error {
	return pgerror.New(pgerror.DataException, "argument must be empty or one-dimensional array")
}

// arrayElemsEqual is IS NOT DISTINCT FROM between array elements, the
// comparison array_remove, array_replace and array_position use.
func arrayElemsEqual(elem types.OID, a, b types.Value) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return types.Compare(types.Of(elem), a, b) == 0
}

// NestedArray is ARRAY[[...], [...]] or ARRAY[arr, arr]: a
// multidimensional array from sub-arrays of matching dimensions.
type NestedArray struct {
	Elems []eval.Expr
	T     types.T
}

func (e *NestedArray) Type() types.T { return e.T }

func (e *NestedArray) Eval(env *eval.Env) (types.Value, error) {
	out := types.ArrayValue{Elem: types.ElemOf(e.T.OID), Elems: []types.Value{}}
	var sub []int
	for i, el := range e.Elems {
		v, err := el.Eval(env)
		if err != nil {
			return nil, err
		}
		var arr types.ArrayValue
		if v != nil {
			arr = v.(types.ArrayValue)
		}
		d := eval.ArrayDims(arr)
		if len(arr.Elems) == 0 {
			d = nil
		}
		if i == 0 {
			sub = d
		} else if !sameDims(sub, d) {
			return nil, pgerror.New(pgerror.ArraySubscriptError, "multidimensional arrays must have array expressions with matching dimensions")
		}
		out.Elems = append(out.Elems, arr.Elems...)
	}
	if len(sub) == 0 {
		return out, nil // sub-arrays all empty: an empty array
	}
	out.Dims = append([]int{len(e.Elems)}, sub...)
	return out, nil
}

func sameDims(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// MultiSubscript is arr[i][j]...: one element of a multidimensional
// array; fewer subscripts than dimensions, or one out of range, give NULL.
type MultiSubscript struct {
	X       eval.Expr
	Indexes []eval.Expr
	ElemT   types.T
}

func (e *MultiSubscript) Type() types.T { return e.ElemT }

func (e *MultiSubscript) Eval(env *eval.Env) (types.Value, error) {
	v, err := e.X.Eval(env)
	if err != nil || v == nil {
		return nil, err
	}
	arr := v.(types.ArrayValue)
	dims := eval.ArrayDims(arr)
	if len(dims) != len(e.Indexes) {
		return nil, nil
	}
	pos := 0
	for k, ie := range e.Indexes {
		iv, err := ie.Eval(env)
		if err != nil || iv == nil {
			return nil, err
		}
		i := iv.(int64)
		if i < 1 || i > int64(dims[k]) {
			return nil, nil
		}
		pos = pos*dims[k] + int(i-1)
	}
	return arr.Elems[pos], nil
}

func init() {
	// array_fill(value, dims [, lower bounds]) is an array of dims filled
	// with value (NULL too). cdcdb's arrays all start at 1, so lower bounds
	// other than 1 are refused.
	fill := func(_ eval.Context, a []types.Value) (types.Value, error) {
		// resolve appended the element type.
		elem := types.OID(a[len(a)-1].(int64))
		a = a[:len(a)-1]
		if a[1] == nil || len(a) == 3 && a[2] == nil {
			return nil, pgerror.New(pgerror.NullValueNotAllowed, "dimension array or low bound array cannot be null")
		}
		dimsArr := a[1].(types.ArrayValue)
		if len(eval.ArrayDims(dimsArr)) > 1 || len(a) == 3 && (len(eval.ArrayDims(a[2].(types.ArrayValue))) > 1 || len(a[2].(types.ArrayValue).Elems) != len(dimsArr.Elems)) {
			return nil, pgerror.New(pgerror.ArraySubscriptError, "wrong number of array subscripts")
		}
		if len(a) == 3 {
			for _, lb := range a[2].(types.ArrayValue).Elems {
				if lb == nil {
					return nil, pgerror.New(pgerror.NullValueNotAllowed, "dimension values cannot be null")
				}
				if lb.(int64) != 1 {
					return nil, pgerror.New(pgerror.FeatureNotSupported, "array lower bounds other than 1 are not supported")
				}
			}
		}
		const maxElems = 134217727 // PostgreSQL's MaxArraySize
		dims := make([]int, len(dimsArr.Elems))
		total := int64(1)
		for i, d := range dimsArr.Elems {
			if d == nil {
				return nil, pgerror.New(pgerror.NullValueNotAllowed, "dimension values cannot be null")
			}
			n := d.(int64)
			if n < 0 || total*n > maxElems {
				return nil, pgerror.New(pgerror.ProgramLimitExceeded, "array size exceeds the maximum allowed (%d)", maxElems)
			}
			dims[i], total = int(n), total*n
		}
		out := types.ArrayValue{Elem: elem}
		if total == 0 || len(dims) == 0 {
			return out, nil
		}
		out.Elems = make([]types.Value, total)
		for i := range out.Elems {
			out.Elems[i] = a[0]
		}
		if len(dims) > 1 {
			out.Dims = dims
		}
		return out, nil
	}
	Register("array_fill", &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != 2 && len(args) != 3 {
			return nil, types.T{}, ErrNoFunction
		}
		if args[0].Type().OID == types.Unknown {
			return nil, types.T{}, pgerror.New(pgerror.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")
		}
		at := eval.ArrayOf(args[0].Type())
		if at.OID == 0 {
			return nil, types.T{}, ErrNoFunction
		}
		for i := 1; i < len(args); i++ {
			x, err := b.Coerce(args[i], types.Of(types.Int4Array))
			if err != nil {
				return nil, types.T{}, ErrNoFunction
			}
			args[i] = x
		}
		return append(args, &eval.Const{V: int64(args[0].Type().OID), T: eval.Int4T()}), at, nil
	}, Call: fill})
}
