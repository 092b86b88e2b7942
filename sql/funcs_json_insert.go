package sql

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
		if doc.kind != jsonObject && doc.kind != jsonArray {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot set path in scalar")
		}
		out, err := jsonInsertPath(doc, a[1].(types.ArrayValue).Elems, val, after, 0)
		if err != nil {
			return nil, err
		}
		return asJSONB(jsonbText(out))
	}
	register("jsonb_insert", overloaded(true,
		sig(types.JSONB, insert, types.JSONB, types.TextArray, types.JSONB),
		sig(types.JSONB, insert, types.JSONB, types.TextArray, types.JSONB, types.Bool)))
}

func jsonInsertPath(doc *jsonVal, path []types.Value, val *jsonVal, after bool, depth int) (*jsonVal, error) {
	if len(path) == 0 {
		return doc, nil
	}
	if path[0] == nil {
		return nil, pgerror.New(pgerror.NullValueNotAllowed, "path element at position %d is null", depth+1)
	}
	step := path[0].(string)
	last := len(path) == 1
	out := *doc
	switch doc.kind {
	case jsonObject:
		out.keys = append([]string(nil), doc.keys...)
		out.vals = append([]*jsonVal(nil), doc.vals...)
		for i, k := range out.keys {
			if k != step {
				continue
			}
			if last {
				return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot replace existing key").
					WithHint("Try using the function jsonb_set to replace key value.")
			}
			nv, err := jsonInsertPath(out.vals[i], path[1:], val, after, depth+1)
			if err != nil {
				return nil, err
			}
			out.vals[i] = nv
			return &out, nil
		}
		if last {
			out.keys = append(out.keys, step)
			out.vals = append(out.vals, val)
		}
	case jsonArray:
		i, err := strconv.Atoi(step)
		if err != nil {
			return nil, pgerror.New(pgerror.InvalidTextRepresentation, "path element at position %d is not an integer: \"%s\"", depth+1, step)
		}
		n := len(doc.elems)
		if i < 0 {
			i = max(i+n, -1) // before the first element when too negative
		}
		if !last {
			if i >= 0 && i < n {
				nv, err := jsonInsertPath(doc.elems[i], path[1:], val, after, depth+1)
				if err != nil {
					return nil, err
				}
				out.elems = append([]*jsonVal(nil), doc.elems...)
				out.elems[i] = nv
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
		out.elems = make([]*jsonVal, 0, n+1)
		out.elems = append(out.elems, doc.elems[:at]...)
		out.elems = append(out.elems, val)
		out.elems = append(out.elems, doc.elems[at:]...)
	}
	return &out, nil
}
