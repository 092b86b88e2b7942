package builtins

import (
	"strconv"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// jsonb_insert(target, path, new_value [, insert_after]): like jsonb_set,
// but at an array position the new value is inserted (before the element
// the path names, or after it), and an existing object key is an error
// rather than replaced. A path through members that do not exist changes
// nothing.

func init() {
	insert := func(_ eval.Context, a []types.Value) (types.Value, error) {
		doc, err := jsonArg(a[0])
		if err != nil {
			return nil, err
		}
		val, err := jsonArg(a[2])
		if err != nil {
			return nil, err
		}
		after := len(a) == 4 && a[3].(bool)
		if doc.Kind != eval.JSONObject && doc.Kind != eval.JSONArray {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot set path in scalar")
		}
		out, err := jsonInsertPath(doc, a[1].(types.ArrayValue).Elems, val, after, 0)
		if err != nil {
			return nil, err
		}
		return eval.AsJSONB(eval.JSONBText(out))
	}
	Register("jsonb_insert", overloaded(true,
		sig(types.JSONB, insert, types.JSONB, types.TextArray, types.JSONB),
		sig(types.JSONB, insert, types.JSONB, types.TextArray, types.JSONB, types.Bool)))
}

func jsonInsertPath(doc *eval.JSONValue, path []types.Value, val *eval.JSONValue, after bool, depth int) (*eval.JSONValue, error) {
	if len(path) == 0 {
		return doc, nil
	}
	if path[0] == nil {
		return nil, pgerror.New(pgerror.NullValueNotAllowed, "path element at position %d is null", depth+1)
	}
	step := path[0].(string)
	last := len(path) == 1
	out := *doc
	switch doc.Kind {
	case eval.JSONObject:
		out.Keys = append([]string(nil), doc.Keys...)
		out.Vals = append([]*eval.JSONValue(nil), doc.Vals...)
		for i, k := range out.Keys {
			if k != step {
				continue
			}
			if last {
				return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot replace existing key").
					WithHint("Try using the function jsonb_set to replace key value.")
			}
			nv, err := jsonInsertPath(out.Vals[i], path[1:], val, after, depth+1)
			if err != nil {
				return nil, err
			}
			out.Vals[i] = nv
			return &out, nil
		}
		if last {
			out.Keys = append(out.Keys, step)
			out.Vals = append(out.Vals, val)
		}
	case eval.JSONArray:
		i, err := strconv.Atoi(step)
		if err != nil {
			return nil, pgerror.New(pgerror.InvalidTextRepresentation, "path element at position %d is not an integer: \"%s\"", depth+1, step)
		}
		n := len(doc.Elems)
		if i < 0 {
			i = max(i+n, -1) // before the first element when too negative
		}
		if !last {
			if i >= 0 && i < n {
				nv, err := jsonInsertPath(doc.Elems[i], path[1:], val, after, depth+1)
				if err != nil {
					return nil, err
				}
				out.Elems = append([]*eval.JSONValue(nil), doc.Elems...)
				out.Elems[i] = nv
			}
			return &out, nil
		}
		at := i
		switch {
		case i < 0:
			at = 0
		case i >= n:
			at = n
		case after:
			at = i + 1
		}
		out.Elems = make([]*eval.JSONValue, 0, n+1)
		out.Elems = append(out.Elems, doc.Elems[:at]...)
		out.Elems = append(out.Elems, val)
		out.Elems = append(out.Elems, doc.Elems[at:]...)
	}
	return &out, nil
}
