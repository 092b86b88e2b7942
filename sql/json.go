package sql

import (
	"cdcdb/pgerror"
	"cdcdb/sql/builtins"
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

// bindJSONOp binds an operator with a json or jsonb left operand.
func bindJSONOp(b *binder, op string, l, r eval.Expr) (eval.Expr, error) {
	lt := l.Type()
	binary := lt.OID == types.JSONB
	fail := func() error { return eval.OperatorError(op, l.Type(), r.Type()) }
	coerce := func(t types.OID) error {
		if t != types.Text {
			if r.Type().OID == types.Unknown {
				c, err := b.ResolveUnknownAs(r, types.Of(t))
				if err != nil {
					return err
				}
				r = c
			}
		}
		c, err := b.Coerce(b.ResolveUnknown(r), types.Of(t))
		if err != nil {
			return fail()
		}
		r = c
		return nil
	}
	mk := func(t types.OID, fn func(doc *eval.JSONValue, arg types.Value) (types.Value, error)) (eval.Expr, error) {
		return &eval.FuncCall{Name: op, Args: []eval.Expr{l, r}, Strict: true, T: types.Of(t), Fn: func(_ eval.Context, a []types.Value) (types.Value, error) {
			doc, err := eval.ParseJSONValue(a[0].(string))
			if err != nil {
				return nil, err
			}
			return fn(doc, a[1])
		}}, nil
	}
	switch op {
	case "->", "->>":
		if r.Type().OID == types.Unknown {
			r = b.ResolveUnknown(r)
		}
		if eval.IsIntType(r.Type().OID) {
			if err := coerce(types.Int4); err != nil {
				return nil, err
			}
		} else if err := coerce(types.Text); err != nil {
			return nil, err
		}
		out := lt.OID
		if op == "->>" {
			out = types.Text
		}
		return mk(out, func(doc *eval.JSONValue, arg types.Value) (types.Value, error) {
			var v *eval.JSONValue
			switch k := arg.(type) {
			case string:
				if doc.Kind == eval.JSONObject {
					v = doc.Member(k)
				}
			case int64:
				if doc.Kind == eval.JSONArray {
					i := int(k)
					if i < 0 {
						i += len(doc.Elems)
					}
					if i >= 0 && i < len(doc.Elems) {
						v = doc.Elems[i]
					}
				}
			}
			if v == nil {
				return nil, nil
			}
			if op == "->>" {
				return eval.JSONScalarText(v, binary), nil
			}
			return eval.JSONDocText(v, binary), nil
		})
	case "#>", "#>>":
		if err := coerce(types.TextArray); err != nil {
			return nil, err
		}
		out := lt.OID
		if op == "#>>" {
			out = types.Text
		}
		return mk(out, func(doc *eval.JSONValue, arg types.Value) (types.Value, error) {
			v := eval.JSONPath(doc, arg.(types.ArrayValue).Elems)
			if v == nil {
				return nil, nil
			}
			if op == "#>>" {
				return eval.JSONScalarText(v, binary), nil
			}
			return eval.JSONDocText(v, binary), nil
		})
	}
	if !binary {
		return nil, fail()
	}
	switch op {
	case "@>", "<@":
		if err := coerce(types.JSONB); err != nil {
			return nil, err
		}
		return mk(types.Bool, func(doc *eval.JSONValue, arg types.Value) (types.Value, error) {
			other, err := eval.ParseJSONValue(arg.(string))
			if err != nil {
				return nil, err
			}
			if op == "<@" {
				return eval.JSONContains(other, doc), nil
			}
			return eval.JSONContains(doc, other), nil
		})
	case "?":
		if err := coerce(types.Text); err != nil {
			return nil, err
		}
		return mk(types.Bool, func(doc *eval.JSONValue, arg types.Value) (types.Value, error) {
			return eval.JSONHasKey(doc, arg.(string)), nil
		})
	case "?|", "?&":
		if err := coerce(types.TextArray); err != nil {
			return nil, err
		}
		return mk(types.Bool, func(doc *eval.JSONValue, arg types.Value) (types.Value, error) {
			all := op == "?&"
			for _, k := range arg.(types.ArrayValue).Elems {
				if k == nil {
					continue
				}
				if eval.JSONHasKey(doc, k.(string)) != all {
					return !all, nil
				}
			}
			return all, nil
		})
	case "-":
		r = b.ResolveUnknown(r)
		switch rt := r.Type().OID; {
		case eval.IsIntType(rt):
			if err := coerce(types.Int4); err != nil {
				return nil, err
			}
		case rt == types.TextArray:
		default:
			if err := coerce(types.Text); err != nil {
				return nil, err
			}
		}
		return mk(types.JSONB, func(doc *eval.JSONValue, arg types.Value) (types.Value, error) {
			return builtins.JSONDelete(doc, arg)
		})
	case "#-":
		if err := coerce(types.TextArray); err != nil {
			return nil, err
		}
		return mk(types.JSONB, func(doc *eval.JSONValue, arg types.Value) (types.Value, error) {
			if doc.Kind != eval.JSONObject && doc.Kind != eval.JSONArray {
				return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot delete path in scalar")
			}
			path := arg.(types.ArrayValue).Elems
			if len(path) == 0 {
				// Deleting nothing (found by FuzzQuery: the document itself
				// was deleted, and then printed).
				return eval.AsJSONB(eval.JSONBText(doc))
			}
			out, err := builtins.JSONSetPath(doc, path, nil, false, 0)
			if err != nil {
				return nil, err
			}
			return eval.AsJSONB(eval.JSONBText(out))
		})
	}
	return nil, fail()
}
