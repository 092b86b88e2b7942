package sql

import (
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// bindJSONOrArrayOp resolves the json operators (see bindJSONOp) and the
// array ones (@>, <@, &&).
func bindJSONOrArrayOp(b *binder, op string, l, r eval.Expr) (eval.Expr, error) {
	lt := l.Type().OID
	if lt == types.Unknown && (op == "->" || op == "->>") {
		var err error
		if l, err = b.resolveUnknownAs(l, types.Of(types.JSONB)); err != nil {
			return nil, err
		}
		lt = types.JSONB
	}
	if lt == types.JSON || lt == types.JSONB {
		return bindJSONOp(b, op, l, r)
	}
	if eval.TypeCategory(lt) == 'A' || eval.TypeCategory(r.Type().OID) == 'A' {
		if l.Type().OID == types.Unknown {
			var err error
			if l, err = b.coerce(l, r.Type()); err != nil {
				return nil, err
			}
		}
		if r.Type().OID == types.Unknown {
			var err error
			if r, err = b.coerce(r, l.Type()); err != nil {
				return nil, err
			}
		}
		if l.Type().OID != r.Type().OID {
			return nil, eval.OperatorError(op, l.Type(), r.Type())
		}
		info, _ := types.Lookup(l.Type().OID)
		et := types.Of(info.ElemOID)
		contains := func(a, b types.ArrayValue) bool {
			for _, y := range b.Elems {
				found := false
				for _, x := range a.Elems {
					if x != nil && y != nil && types.Compare(et, x, y) == 0 {
						found = true
						break
					}
				}
				if !found {
					return false
				}
			}
			return true
		}
		var fn func(a, b types.ArrayValue) bool
		switch op {
		case "@>":
			fn = contains
		case "<@":
			fn = func(a, b types.ArrayValue) bool { return contains(b, a) }
		case "&&":
			fn = func(a, b types.ArrayValue) bool {
				for _, y := range b.Elems {
					for _, x := range a.Elems {
						if x != nil && y != nil && types.Compare(et, x, y) == 0 {
							return true
						}
					}
				}
				return false
			}
		default:
			return nil, eval.OperatorError(op, l.Type(), r.Type())
		}
		return &eval.FuncCall{Name: op, Args: []eval.Expr{l, r}, Strict: true, T: eval.BoolT(), Fn: func(_ eval.Context, a []types.Value) (types.Value, error) {
			return fn(a[0].(types.ArrayValue), a[1].(types.ArrayValue)), nil
		}}, nil
	}
	return nil, eval.OperatorError(op, l.Type(), r.Type())
}

// bindArrayConcat is array || array, array || element and element || array.
func bindArrayConcat(b *binder, l, r eval.Expr) (eval.Expr, error) {
	lt, rt := l.Type(), r.Type()
	la, ra := eval.TypeCategory(lt.OID) == 'A', eval.TypeCategory(rt.OID) == 'A'
	var at types.T
	var err error
	switch {
	case la && ra:
		at = lt
		if r, err = b.coerce(r, at); err != nil {
			return nil, eval.OperatorError("||", lt, rt)
		}
	case la:
		at = lt
		info, _ := types.Lookup(at.OID)
		if rt.OID == types.Unknown {
			// 'x' beside an array is read as an array literal, as in PostgreSQL.
			if r, err = b.resolveUnknownAs(r, at); err != nil {
				return nil, err
			}
			break
		}
		if r, err = b.coerce(r, types.Of(info.ElemOID)); err != nil {
			return nil, eval.OperatorError("||", lt, rt)
		}
		r = &eval.ArrayCtor{Elems: []eval.Expr{r}, Elem: info.ElemOID, T: at}
	default:
		at = rt
		info, _ := types.Lookup(at.OID)
		if lt.OID == types.Unknown {
			if l, err = b.resolveUnknownAs(l, at); err != nil {
				return nil, err
			}
			break
		}
		if l, err = b.coerce(l, types.Of(info.ElemOID)); err != nil {
			return nil, eval.OperatorError("||", lt, rt)
		}
		l = &eval.ArrayCtor{Elems: []eval.Expr{l}, Elem: info.ElemOID, T: at}
	}
	return &eval.FuncCall{Name: "array_cat", Args: []eval.Expr{l, r}, T: at, Fn: func(_ eval.Context, a []types.Value) (types.Value, error) {
		if a[0] == nil {
			return a[1], nil
		}
		if a[1] == nil {
			return a[0], nil
		}
		x, y := a[0].(types.ArrayValue), a[1].(types.ArrayValue)
		return types.ArrayValue{Elem: x.Elem, Elems: append(append([]types.Value(nil), x.Elems...), y.Elems...)}, nil
	}}, nil
}
