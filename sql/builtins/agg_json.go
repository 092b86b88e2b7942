package builtins

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// The JSON aggregates: json_agg, jsonb_agg, json_object_agg and
// jsonb_object_agg, which build their text as PostgreSQL's transition
// functions do (spacing and line breaks included).

func init() {
	aggregate("json_agg", jsonAggregate(false, false))
	aggregate("jsonb_agg", jsonAggregate(true, false))
	aggregate("json_object_agg", jsonAggregate(false, true))
	aggregate("jsonb_object_agg", jsonAggregate(true, true))
}

type jsonAggState struct {
	binary bool
	object bool
	t, kt  types.T
	parts  []string
	some   bool
	// nulls marks the parts that are NULL values (json_agg's separators
	// differ for them).
	nulls []bool
}

func (s *jsonAggState) Add(x eval.Context, args []types.Value) error {
	s.some = true
	if !s.object {
		s.parts = append(s.parts, eval.ToJSON(x, s.t, args[0]))
		s.nulls = append(s.nulls, args[0] == nil)
		return nil
	}
	if args[0] == nil {
		return pgerror.New(pgerror.InvalidParameterValue, "field name must not be null")
	}
	key := JSONKeyText(eval.ToJSON(x, s.kt, args[0]))
	if s.binary {
		s.parts = append(s.parts, key+": "+eval.ToJSON(x, s.t, args[1]))
	} else {
		s.parts = append(s.parts, key+" : "+eval.ToJSON(x, s.t, args[1]))
	}
	return nil
}

func (s *jsonAggState) Result(eval.Context) (types.Value, error) {
	if !s.some {
		return nil, nil
	}
	var out string
	switch {
	case s.object && s.binary:
		out = "{" + strings.Join(s.parts, ", ") + "}"
	case s.object:
		out = "{ " + strings.Join(s.parts, ", ") + " }"
	case !s.binary && (s.t.OID == types.Record || eval.TypeCategory(s.t.OID) == 'A'):
		// json_agg puts a line break before each array or row after the
		// first, as PostgreSQL's json_agg_transfn does (not before NULLs).
		var b strings.Builder
		b.WriteByte('[')
		for i, p := range s.parts {
			if i > 0 {
				b.WriteString(", ")
				if !s.nulls[i] {
					b.WriteString("\n ")
				}
			}
			b.WriteString(p)
		}
		b.WriteByte(']')
		out = b.String()
	default:
		out = "[" + strings.Join(s.parts, ", ") + "]"
	}
	if s.binary {
		return eval.AsJSONB(out)
	}
	return out, nil
}

// jsonAggregate resolves json_agg and jsonb_agg (one value of any type) or
// json_object_agg and jsonb_object_agg (a key and a value).
func jsonAggregate(binary, object bool) func(b eval.Binder, args []eval.Expr, _ bool) (AggCall, error) {
	return func(b eval.Binder, args []eval.Expr, _ bool) (AggCall, error) {
		want := 1
		if object {
			want = 2
		}
		if len(args) != want {
			return AggCall{}, ErrNoFunction
		}
		if !object && isUnknown(args[0]) {
			// json_agg(anyelement); the object aggregates take "any".
			return AggCall{}, ErrUnknownPolymorphic
		}
		resolveUnknowns(b, args)
		vt, kt := args[len(args)-1].Type(), args[0].Type()
		rt := types.JSON
		if binary {
			rt = types.JSONB
		}
		return AggCall{Args: args, T: types.Of(rt), NewState: func() AggState {
			return &jsonAggState{binary: binary, object: object, t: vt, kt: kt}
		}}, nil
	}
}
