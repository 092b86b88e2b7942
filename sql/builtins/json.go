package builtins

import (
	"strconv"
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// The json and jsonb operators and functions. Values are their text (json
// as written, jsonb normalized); see jsonvalue.go for the document model.

// JSONOperators are the operators whose left operand decides for json.
var JSONOperators = map[string]bool{"->": true, "->>": true, "#>": true, "#>>": true, "@>": true, "<@": true,
	"?": true, "?|": true, "?&": true, "-": true, "#-": true}

// JSONDelete is jsonb - text (a key, or matching string elements), jsonb
// - int (an array element) and jsonb - text[] (several keys).
func JSONDelete(doc *eval.JSONValue, arg types.Value) (types.Value, error) {
	switch k := arg.(type) {
	case int64:
		if doc.Kind == eval.JSONObject {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot delete from object using integer index")
		}
		if doc.Kind != eval.JSONArray {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot delete from scalar")
		}
		i := int(k)
		if i < 0 {
			i += len(doc.Elems)
		}
		out := *doc
		out.Elems = nil
		for j, e := range doc.Elems {
			if j != i {
				out.Elems = append(out.Elems, e)
			}
		}
		return eval.AsJSONB(eval.JSONBText(&out))
	case string:
		return JSONDelete(doc, types.ArrayValue{Elem: types.Text, Elems: []types.Value{k}})
	}
	keys := map[string]bool{}
	for _, k := range arg.(types.ArrayValue).Elems {
		if k != nil {
			keys[k.(string)] = true
		}
	}
	out := *doc
	switch doc.Kind {
	case eval.JSONObject:
		out.Keys, out.Vals = nil, nil
		for i, k := range doc.Keys {
			if !keys[k] {
				out.Keys = append(out.Keys, k)
				out.Vals = append(out.Vals, doc.Vals[i])
			}
		}
	case eval.JSONArray:
		out.Elems = nil
		for _, e := range doc.Elems {
			if !(e.Kind == eval.JSONString && keys[e.Str]) {
				out.Elems = append(out.Elems, e)
			}
		}
	default:
		return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot delete from scalar")
	}
	return eval.AsJSONB(eval.JSONBText(&out))
}

// JSONSetPath returns doc with the value at path replaced by val (nil
// deletes it); create adds a missing last key or index.
func JSONSetPath(doc *eval.JSONValue, path []types.Value, val *eval.JSONValue, create bool, depth int) (*eval.JSONValue, error) {
	if len(path) == 0 {
		if val == nil {
			return nil, nil
		}
		return val, nil
	}
	if path[0] == nil {
		return nil, pgerror.New(pgerror.NullValueNotAllowed, "path element at position %d is null", depth+1)
	}
	step := path[0].(string)
	out := *doc
	switch doc.Kind {
	case eval.JSONObject:
		out.Keys = append([]string(nil), doc.Keys...)
		out.Vals = append([]*eval.JSONValue(nil), doc.Vals...)
		for i, k := range out.Keys {
			if k != step {
				continue
			}
			nv, err := JSONSetPath(out.Vals[i], path[1:], val, create, depth+1)
			if err != nil {
				return nil, err
			}
			if nv == nil {
				out.Keys = append(out.Keys[:i], out.Keys[i+1:]...)
				out.Vals = append(out.Vals[:i], out.Vals[i+1:]...)
			} else {
				out.Vals[i] = nv
			}
			return &out, nil
		}
		if create && len(path) == 1 && val != nil {
			out.Keys = append(out.Keys, step)
			out.Vals = append(out.Vals, val)
		}
	case eval.JSONArray:
		i, err := strconv.Atoi(step)
		if err != nil {
			return nil, pgerror.New(pgerror.InvalidTextRepresentation, "path element at position %d is not an integer: \"%s\"", depth+1, step)
		}
		out.Elems = append([]*eval.JSONValue(nil), doc.Elems...)
		if i < 0 {
			i += len(out.Elems)
		}
		if i >= 0 && i < len(out.Elems) {
			nv, err := JSONSetPath(out.Elems[i], path[1:], val, create, depth+1)
			if err != nil {
				return nil, err
			}
			if nv == nil {
				out.Elems = append(out.Elems[:i], out.Elems[i+1:]...)
			} else {
				out.Elems[i] = nv
			}
		} else if create && len(path) == 1 && val != nil {
			if i < 0 {
				out.Elems = append([]*eval.JSONValue{val}, out.Elems...)
			} else {
				out.Elems = append(out.Elems, val)
			}
		}
	}
	return &out, nil
}

// jsonArg is a JSON function's document argument.
func jsonArg(v types.Value) (*eval.JSONValue, error) { return eval.ParseJSONValue(v.(string)) }

func init() {
	for _, binary := range []bool{false, true} {
		prefix, docT := "json", types.JSON
		if binary {
			prefix, docT = "jsonb", types.JSONB
		}
		Register(prefix+"_typeof", overloaded(true, sig(types.Text, func(_ eval.Context, a []types.Value) (types.Value, error) {
			doc, err := jsonArg(a[0])
			if err != nil {
				return nil, err
			}
			return doc.TypeName(), nil
		}, docT)))
		Register(prefix+"_array_length", overloaded(true, sig(types.Int4, func(_ eval.Context, a []types.Value) (types.Value, error) {
			doc, err := jsonArg(a[0])
			if err != nil {
				return nil, err
			}
			if doc.Kind != eval.JSONArray {
				if doc.Kind == eval.JSONObject {
					return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot get array length of a non-array")
				}
				return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot get array length of a scalar")
			}
			return int64(len(doc.Elems)), nil
		}, docT)))
		Register(prefix+"_strip_nulls", overloaded(true, sig(docT, func(_ eval.Context, a []types.Value) (types.Value, error) {
			doc, err := jsonArg(a[0])
			if err != nil {
				return nil, err
			}
			stripped := stripNulls(doc)
			if binary {
				return eval.AsJSONB(eval.JSONBText(stripped))
			}
			return compactJSON(stripped), nil
		}, docT)))
		extract := func(asText bool) func(eval.Context, []types.Value) (types.Value, error) {
			return func(_ eval.Context, a []types.Value) (types.Value, error) {
				doc, err := jsonArg(a[0])
				if err != nil {
					return nil, err
				}
				v := eval.JSONPath(doc, a[1:])
				if v == nil {
					return nil, nil
				}
				if asText {
					return eval.JSONScalarText(v, binary), nil
				}
				return eval.JSONDocText(v, binary), nil
			}
		}
		Register(prefix+"_extract_path", overloaded(true, Overload{Params: []types.OID{docT, types.Text}, Variadic: true, Ret: docT, RetArg: -1, Call: extract(false)}))
		Register(prefix+"_extract_path_text", overloaded(true, Overload{Params: []types.OID{docT, types.Text}, Variadic: true, Ret: types.Text, RetArg: -1, Call: extract(true)}))
		Register("to_"+prefix, &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
			if len(args) != 1 {
				return nil, types.T{}, ErrNoFunction
			}
			return []eval.Expr{&jsonTextExpr{x: b.ResolveUnknown(args[0])}}, types.Of(docT), nil
		}, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
			if a[0] == nil || !binary {
				return a[0], nil
			}
			return eval.AsJSONB(a[0].(string))
		}})
		Register(prefix+"_build_array", &Func{Resolve: jsonArgsResolver(docT, false), Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
			parts := make([]string, len(a))
			for i, v := range a {
				parts[i] = v.(string)
			}
			s := "[" + strings.Join(parts, ", ") + "]"
			if binary {
				return eval.AsJSONB(s)
			}
			return s, nil
		}})
		Register(prefix+"_build_object", &Func{Resolve: jsonArgsResolver(docT, true), Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
			if len(a)%2 != 0 {
				return nil, pgerror.New(pgerror.InvalidParameterValue, "argument list must have even number of elements").
					WithHint("The arguments of %s_build_object() must consist of alternating keys and values.", prefix)
			}
			parts := make([]string, 0, len(a)/2)
			for i := 0; i < len(a); i += 2 {
				if a[i] == "null" {
					return nil, pgerror.New(pgerror.NullValueNotAllowed, "argument %d cannot be null", i+1).WithHint("Object keys should be text.")
				}
				parts = append(parts, JSONKeyText(a[i].(string))+" : "+a[i+1].(string))
			}
			s := "{" + strings.Join(parts, ", ") + "}"
			if binary {
				return eval.AsJSONB(s)
			}
			return s, nil
		}})
		RegisterSet(prefix+"_each", jsonEachFunc(docT, docT, binary))
		RegisterSet(prefix+"_each_text", jsonEachFunc(docT, types.Text, binary))
		RegisterSet(prefix+"_array_elements", jsonElementsFunc(prefix+"_array_elements", docT, docT, binary))
		RegisterSet(prefix+"_array_elements_text", jsonElementsFunc(prefix+"_array_elements_text", docT, types.Text, binary))
		RegisterSet(prefix+"_object_keys", &SetFunc{Strict: true, Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, []Column, error) {
			if len(args) != 1 {
				return nil, nil, ErrNoFunction
			}
			d, err := b.Coerce(args[0], types.Of(docT))
			if err != nil {
				return nil, nil, ErrNoFunction
			}
			return []eval.Expr{d}, []Column{{Name: prefix + "_object_keys", T: eval.TextT()}}, nil
		}, Gen: func(_ eval.Context, a []types.Value) ([]eval.Row, error) {
			doc, err := jsonArg(a[0])
			if err != nil {
				return nil, err
			}
			if doc.Kind != eval.JSONObject {
				what := "a scalar"
				if doc.Kind == eval.JSONArray {
					what = "an array"
				}
				return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot call %s_object_keys on %s", prefix, what)
			}
			var rows []eval.Row
			seen := map[string]bool{}
			for _, k := range doc.Keys {
				if !seen[k] {
					seen[k] = true
					rows = append(rows, eval.Row{k})
				}
			}
			return rows, nil
		}})
	}
	Register("jsonb_pretty", overloaded(true, sig(types.Text, func(_ eval.Context, a []types.Value) (types.Value, error) {
		doc, err := jsonArg(a[0])
		if err != nil {
			return nil, err
		}
		return eval.JSONPretty(doc), nil
	}, types.JSONB)))
	set := func(_ eval.Context, a []types.Value) (types.Value, error) {
		if a[0] == nil || a[1] == nil || a[2] == nil {
			return nil, nil // strict: jsonb_set of NULLs is NULL
		}
		doc, err := jsonArg(a[0])
		if err != nil {
			return nil, err
		}
		val, err := jsonArg(a[2])
		if err != nil {
			return nil, err
		}
		create := true
		if len(a) == 4 && a[3] != nil {
			create = a[3].(bool)
		}
		if doc.Kind != eval.JSONObject && doc.Kind != eval.JSONArray {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot set path in scalar")
		}
		out, err := JSONSetPath(doc, a[1].(types.ArrayValue).Elems, val, create, 0)
		if err != nil {
			return nil, err
		}
		return eval.AsJSONB(eval.JSONBText(out))
	}
	Register("jsonb_set", overloaded(false,
		sig(types.JSONB, set, types.JSONB, types.TextArray, types.JSONB),
		sig(types.JSONB, set, types.JSONB, types.TextArray, types.JSONB, types.Bool)))
	Register("row_to_json", &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != 1 || args[0].Type().OID != types.Record {
			return nil, types.T{}, ErrNoFunction
		}
		return []eval.Expr{&jsonTextExpr{x: args[0]}}, types.Of(types.JSON), nil
	}, Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) { return a[0], nil }})
	Register("array_to_json", &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != 1 || eval.TypeCategory(args[0].Type().OID) != 'A' {
			return nil, types.T{}, ErrNoFunction
		}
		return []eval.Expr{&jsonTextExpr{x: args[0]}}, types.Of(types.JSON), nil
	}, Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) { return a[0], nil }})
}

// jsonTextExpr is a value as to_json writes it.
type jsonTextExpr struct{ x eval.Expr }

func (e *jsonTextExpr) Eval(env *eval.Env) (types.Value, error) {
	v, err := e.x.Eval(env)
	if err != nil {
		return nil, err
	}
	if v == nil && e.x.Type().OID != types.Unknown {
		return nil, nil
	}
	return eval.ToJSON(env.X, e.x.Type(), v), nil
}
func (e *jsonTextExpr) Type() types.T { return types.Of(types.JSON) }

// jsonArgsResolver makes the arguments of json(b)_build_*: each value
// written as to_json would (NULL as null); object keys must be scalars.
func jsonArgsResolver(docT types.OID, object bool) func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
	return func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		out := make([]eval.Expr, len(args))
		for i, a := range args {
			a = b.ResolveUnknown(a)
			if object && i%2 == 0 {
				if t := a.Type().OID; types.IsArray(t) || t == types.Record || t == types.JSON || t == types.JSONB {
					return nil, types.T{}, pgerror.New(pgerror.InvalidParameterValue, "key value must be scalar, not array, composite, or json")
				}
			}
			out[i] = &nullAsJSON{&jsonTextExpr{x: a}}
		}
		return out, types.Of(docT), nil
	}
}

// nullAsJSON writes SQL NULL as JSON null.
type nullAsJSON struct{ x eval.Expr }

func (e *nullAsJSON) Eval(env *eval.Env) (types.Value, error) {
	v, err := e.x.Eval(env)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return "null", nil
	}
	return v, nil
}
func (e *nullAsJSON) Type() types.T { return e.x.Type() }

// JSONKeyText turns a key's JSON text into the key's quoted string: an
// object key is the scalar's text, so 1 becomes "1".
func JSONKeyText(s string) string {
	if strings.HasPrefix(s, `"`) {
		return s
	}
	return types.QuoteJSON(s)
}

// compactJSON writes a value without spaces, as json_strip_nulls does.
func compactJSON(v *eval.JSONValue) string {
	switch v.Kind {
	case eval.JSONObject:
		parts := make([]string, len(v.Keys))
		for i, k := range v.Keys {
			parts[i] = types.QuoteJSON(k) + ":" + compactJSON(v.Vals[i])
		}
		return "{" + strings.Join(parts, ",") + "}"
	case eval.JSONArray:
		parts := make([]string, len(v.Elems))
		for i, e := range v.Elems {
			parts[i] = compactJSON(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return v.Raw
}

// stripNulls drops object members whose value is null, at every depth.
func stripNulls(v *eval.JSONValue) *eval.JSONValue {
	out := *v
	switch v.Kind {
	case eval.JSONObject:
		out.Keys, out.Vals = nil, nil
		for i, k := range v.Keys {
			if v.Vals[i].Kind != eval.JSONNull {
				out.Keys = append(out.Keys, k)
				out.Vals = append(out.Vals, stripNulls(v.Vals[i]))
			}
		}
	case eval.JSONArray:
		out.Elems = make([]*eval.JSONValue, len(v.Elems))
		for i, e := range v.Elems {
			out.Elems[i] = stripNulls(e)
		}
	}
	return &out
}

// jsonEachFunc is json(b)_each(_text): an object's members as rows.
func jsonEachFunc(docT, valT types.OID, binary bool) *SetFunc {
	return &SetFunc{Strict: true, Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, []Column, error) {
		if len(args) != 1 {
			return nil, nil, ErrNoFunction
		}
		d, err := b.Coerce(args[0], types.Of(docT))
		if err != nil {
			return nil, nil, ErrNoFunction
		}
		return []eval.Expr{d}, []Column{{Name: "key", T: eval.TextT()}, {Name: "value", T: types.Of(valT)}}, nil
	}, Gen: func(_ eval.Context, a []types.Value) ([]eval.Row, error) {
		doc, err := jsonArg(a[0])
		if err != nil {
			return nil, err
		}
		if doc.Kind != eval.JSONObject {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot call %s on a non-object", map[bool]string{false: "json_each", true: "jsonb_each"}[binary])
		}
		rows := make([]eval.Row, len(doc.Keys))
		for i, k := range doc.Keys {
			var v types.Value = eval.JSONDocText(doc.Vals[i], binary)
			if valT == types.Text {
				v = eval.JSONScalarText(doc.Vals[i], binary)
			}
			rows[i] = eval.Row{k, v}
		}
		return rows, nil
	}}
}

// jsonElementsFunc is json(b)_array_elements(_text): an array's elements
// as rows.
func jsonElementsFunc(name string, docT, valT types.OID, binary bool) *SetFunc {
	return &SetFunc{Strict: true, Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, []Column, error) {
		if len(args) != 1 {
			return nil, nil, ErrNoFunction
		}
		d, err := b.Coerce(args[0], types.Of(docT))
		if err != nil {
			return nil, nil, ErrNoFunction
		}
		return []eval.Expr{d}, []Column{{Name: "value", T: types.Of(valT)}}, nil
	}, Gen: func(_ eval.Context, a []types.Value) ([]eval.Row, error) {
		doc, err := jsonArg(a[0])
		if err != nil {
			return nil, err
		}
		switch doc.Kind {
		case eval.JSONObject:
			return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot extract elements from an object")
		case eval.JSONArray:
		default:
			return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot extract elements from a scalar")
		}
		rows := make([]eval.Row, len(doc.Elems))
		for i, e := range doc.Elems {
			if valT == types.Text {
				rows[i] = eval.Row{eval.JSONScalarText(e, binary)}
			} else {
				rows[i] = eval.Row{eval.JSONDocText(e, binary)}
			}
		}
		return rows, nil
	}}
}

// JSON aggregates: json_agg / jsonb_agg and json_object_agg /
// jsonb_object_agg, each value written as to_json writes it.
