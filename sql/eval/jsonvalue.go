package eval

import (
	"strconv"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/types"
)

// A parsed JSON document for the json and jsonb functions. json keeps its
// text as written (its operators return pieces of it verbatim), so every
// node remembers its raw text; jsonb values arrive normalized (keys unique
// and sorted), and results meant as jsonb are normalized again through the
// jsonb input function.

type jsonKind uint8

const (
	JSONNull jsonKind = iota
	jsonBool
	jsonNumber
	JSONString
	JSONArray
	JSONObject
)

type JSONValue struct {
	Kind  jsonKind
	Raw   string // the text as written
	Str   string // a string's decoded value; a number's or bool's text
	Elems []*JSONValue
	Keys  []string // object members, in document order
	Vals  []*JSONValue
}

// Member returns an object's value for key (the last one, as PostgreSQL's
// json operators find it), nil when absent.
func (v *JSONValue) Member(key string) *JSONValue {
	for i := len(v.Keys) - 1; i >= 0; i-- {
		if v.Keys[i] == key {
			return v.Vals[i]
		}
	}
	return nil
}

func (v *JSONValue) TypeName() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[v.Kind]
}

// ParseJSONValue reads a document already validated by the json or jsonb
// input function.
func ParseJSONValue(s string) (*JSONValue, error) {
	p := &jsonReader{s: s}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, jsonSyntax()
	}
	return v, nil
}

func jsonSyntax() error {
	return pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type json")
}

type jsonReader struct {
	s string
	i int
}

func (p *jsonReader) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *jsonReader) value() (*JSONValue, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, jsonSyntax()
	}
	start := p.i
	v := &JSONValue{}
	switch c := p.s[p.i]; {
	case c == '{':
		v.Kind = JSONObject
		p.i++
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			break
		}
		for {
			p.space()
			k, err := p.value()
			if err != nil || k.Kind != JSONString {
				return nil, jsonSyntax()
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, jsonSyntax()
			}
			p.i++
			val, err := p.value()
			if err != nil {
				return nil, err
			}
			v.Keys = append(v.Keys, k.Str)
			v.Vals = append(v.Vals, val)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				break
			}
			return nil, jsonSyntax()
		}
	case c == '[':
		v.Kind = JSONArray
		p.i++
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			break
		}
		for {
			el, err := p.value()
			if err != nil {
				return nil, err
			}
			v.Elems = append(v.Elems, el)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				break
			}
			return nil, jsonSyntax()
		}
	case c == '"':
		v.Kind = JSONString
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		v.Str = s
	case strings.HasPrefix(p.s[p.i:], "true"), strings.HasPrefix(p.s[p.i:], "false"):
		v.Kind = jsonBool
		n := 4
		if c == 'f' {
			n = 5
		}
		v.Str = p.s[p.i : p.i+n]
		p.i += n
	case strings.HasPrefix(p.s[p.i:], "null"):
		v.Kind = JSONNull
		p.i += 4
	default:
		v.Kind = jsonNumber
		for p.i < len(p.s) && strings.IndexByte("+-0123456789.eE", p.s[p.i]) >= 0 {
			p.i++
		}
		if p.i == start {
			return nil, jsonSyntax()
		}
		v.Str = p.s[start:p.i]
	}
	v.Raw = p.s[start:p.i]
	return v, nil
}

// str reads a string literal, resolving escapes.
func (p *jsonReader) str() (string, error) {
	p.i++ // opening quote
	var sb strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return sb.String(), nil
		case c == '\\' && p.i+1 < len(p.s):
			p.i++
			switch e := p.s[p.i]; e {
			case 'b':
				sb.WriteByte('\b')
			case 'f':
				sb.WriteByte('\f')
			case 'n':
				sb.WriteByte('\n')
			case 'r':
				sb.WriteByte('\r')
			case 't':
				sb.WriteByte('\t')
			case 'u':
				if p.i+4 >= len(p.s) {
					return "", jsonSyntax()
				}
				r, err := strconv.ParseUint(p.s[p.i+1:p.i+5], 16, 32)
				if err != nil {
					return "", jsonSyntax()
				}
				p.i += 4
				if r >= 0xD800 && r < 0xDC00 && p.i+6 < len(p.s) && p.s[p.i+1] == '\\' && p.s[p.i+2] == 'u' {
					lo, err := strconv.ParseUint(p.s[p.i+3:p.i+7], 16, 32)
					if err == nil && lo >= 0xDC00 && lo < 0xE000 {
						r = (r-0xD800)<<10 + (lo - 0xDC00) + 0x10000
						p.i += 6
					}
				}
				sb.WriteRune(rune(r))
			default:
				sb.WriteByte(e)
			}
			p.i++
		default:
			sb.WriteByte(c)
			p.i++
		}
	}
	return "", jsonSyntax()
}

// JSONBText writes a value in jsonb's output form.
func JSONBText(v *JSONValue) string {
	var b strings.Builder
	writeJSONBText(&b, v)
	return b.String()
}

func writeJSONBText(b *strings.Builder, v *JSONValue) {
	switch v.Kind {
	case JSONObject:
		b.WriteByte('{')
		for i, k := range v.Keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(types.QuoteJSON(k))
			b.WriteString(": ")
			writeJSONBText(b, v.Vals[i])
		}
		b.WriteByte('}')
	case JSONArray:
		b.WriteByte('[')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSONBText(b, e)
		}
		b.WriteByte(']')
	case JSONString:
		b.WriteString(types.QuoteJSON(v.Str))
	case JSONNull:
		b.WriteString("null")
	default:
		b.WriteString(v.Str)
	}
}

// AsJSONB normalizes JSON text into a jsonb value (sorted, deduplicated
// keys, jsonb's spacing).
func AsJSONB(s string) (types.Value, error) {
	return types.ParseText(types.Of(types.JSONB), s)
}

// JSONDocText is a json or jsonb value's text for one of its pieces: json
// keeps what was written, jsonb prints its normal form.
func JSONDocText(v *JSONValue, binary bool) string {
	if binary {
		return JSONBText(v)
	}
	return v.Raw
}

// JSONScalarText is ->> and #>>: a string's value, NULL for null, else the
// value's text.
func JSONScalarText(v *JSONValue, binary bool) types.Value {
	switch v.Kind {
	case JSONString:
		return v.Str
	case JSONNull:
		return nil
	}
	return JSONDocText(v, binary)
}

// ToJSON writes a SQL value as to_json does: numbers and booleans as JSON
// scalars, arrays as JSON arrays, rows as objects, json as it is, dates
// and times in ISO 8601, anything else as its text in a JSON string.
func ToJSON(x Context, t types.T, v types.Value) string {
	if v == nil {
		return "null"
	}
	switch t.OID {
	case types.Unknown:
		if s, ok := v.(string); ok {
			return types.QuoteJSON(s)
		}
		t = types.Of(GoValueType(v))
	case types.JSON, types.JSONB:
		return v.(string)
	case types.Bool:
		if v.(bool) {
			return "true"
		}
		return "false"
	case types.Int2, types.Int4, types.Int8, types.Oid:
		return strconv.FormatInt(v.(int64), 10)
	case types.Float4, types.Float8:
		s := types.FormatText(t, v)
		if s == "NaN" || s == "Infinity" || s == "-Infinity" {
			return types.QuoteJSON(s)
		}
		return s
	case types.Numeric:
		d := v.(*apd.Decimal)
		if d.Form != apd.Finite {
			return types.QuoteJSON(types.FormatText(t, v))
		}
		return types.FormatText(t, v)
	case types.Date:
		return types.QuoteJSON(types.FormatText(t, v))
	case types.Timestamp:
		return types.QuoteJSON(isoTimestamp(v.(time.Time), nil))
	case types.Timestamptz:
		loc := time.UTC
		if x != nil {
			loc = x.Location()
		}
		return types.QuoteJSON(isoTimestamp(v.(time.Time), loc))
	case types.Record:
		rec := v.(types.RecordValue)
		shape, named := RecordShapeOf(t)
		var b strings.Builder
		b.WriteByte('{')
		for i, f := range rec.Fields {
			if i > 0 {
				b.WriteByte(',')
			}
			name := "f" + strconv.Itoa(i+1)
			if named && i < len(shape.Names) {
				name = shape.Names[i]
			}
			ft := rec.Types[i]
			if named && i < len(shape.Types) {
				ft = shape.Types[i]
			}
			b.WriteString(types.QuoteJSON(name) + ":" + ToJSON(x, ft, f))
		}
		b.WriteByte('}')
		return b.String()
	}
	if arr, ok := v.(types.ArrayValue); ok {
		// record[] is known by no array type of its own: its value says
		// what its elements are.
		elem := types.ElemOf(t.OID)
		if elem == 0 {
			elem = arr.Elem
		}
		return arrayToJSON(x, types.Of(elem), arr.Elems, ArrayDims(arr))
	}
	s := types.FormatText(t, v)
	if x != nil {
		s = x.FormatValue(t, v)
	}
	return types.QuoteJSON(s)
}

// arrayToJSON writes a (possibly multidimensional) array's elements.
func arrayToJSON(x Context, elem types.T, elems []types.Value, dims []int) string {
	if len(dims) <= 1 {
		parts := make([]string, len(elems))
		for i, e := range elems {
			parts[i] = ToJSON(x, elem, e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	per := len(elems) / max(dims[0], 1)
	parts := make([]string, dims[0])
	for i := range parts {
		parts[i] = arrayToJSON(x, elem, elems[i*per:(i+1)*per], dims[1:])
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// isoTimestamp is a timestamp in JSON's ISO 8601 form; loc adds the
// offset (a timestamptz).
func isoTimestamp(t time.Time, loc *time.Location) string {
	if types.IsInfinite(t) != 0 {
		if types.IsInfinite(t) > 0 {
			return "infinity"
		}
		return "-infinity"
	}
	if loc != nil {
		t = t.In(loc)
	}
	s := t.Format("2006-01-02T15:04:05.999999")
	if loc != nil {
		_, off := t.Zone()
		sign := "+"
		if off < 0 {
			sign, off = "-", -off
		}
		s += sign + twoDigits(off/3600) + ":" + twoDigits(off%3600/60)
	}
	return s
}

// JSONContains is jsonb's @>: every member or element of b is in a.
func JSONContains(a, b *JSONValue) bool {
	switch {
	case a.Kind == JSONObject && b.Kind == JSONObject:
		for i, k := range b.Keys {
			av := a.Member(k)
			if av == nil || !JSONContains(av, b.Vals[i]) {
				return false
			}
		}
		return true
	case a.Kind == JSONArray && b.Kind == JSONArray:
		for _, be := range b.Elems {
			found := false
			for _, ae := range a.Elems {
				if (ae.Kind == JSONArray || ae.Kind == JSONObject) != (be.Kind == JSONArray || be.Kind == JSONObject) {
					continue
				}
				if JSONContains(ae, be) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case a.Kind == JSONArray && b.Kind != JSONObject:
		// A top-level array contains a scalar it holds.
		for _, ae := range a.Elems {
			if jsonScalarEqual(ae, b) {
				return true
			}
		}
		return false
	}
	return jsonScalarEqual(a, b)
}

func jsonScalarEqual(a, b *JSONValue) bool {
	if a.Kind != b.Kind || a.Kind == JSONArray || a.Kind == JSONObject {
		return false
	}
	if a.Kind == jsonNumber {
		x, _, errX := apd.NewFromString(a.Str)
		y, _, errY := apd.NewFromString(b.Str)
		return errX == nil && errY == nil && x.Cmp(y) == 0
	}
	return a.Str == b.Str
}

// JSONHasKey is jsonb's ?: an object key, or a string element of an array,
// or the string itself.
func JSONHasKey(v *JSONValue, key string) bool {
	switch v.Kind {
	case JSONObject:
		return v.Member(key) != nil
	case JSONArray:
		for _, e := range v.Elems {
			if e.Kind == JSONString && e.Str == key {
				return true
			}
		}
	case JSONString:
		return v.Str == key
	}
	return false
}

// JSONPath follows a path of keys and array indexes (#>, #>>,
// jsonb_extract_path); nil when it leads nowhere.
func JSONPath(v *JSONValue, path []types.Value) *JSONValue {
	for _, p := range path {
		if p == nil || v == nil {
			return nil
		}
		step := p.(string)
		switch v.Kind {
		case JSONObject:
			v = v.Member(step)
		case JSONArray:
			i, err := strconv.Atoi(step)
			if err != nil {
				return nil
			}
			if i < 0 {
				i += len(v.Elems)
			}
			if i < 0 || i >= len(v.Elems) {
				return nil
			}
			v = v.Elems[i]
		default:
			return nil
		}
	}
	return v
}

// JSONPretty is jsonb_pretty: four spaces per level, one member per line.
func JSONPretty(v *JSONValue) string {
	var b strings.Builder
	var write func(v *JSONValue, indent int)
	pad := func(n int) { b.WriteString(strings.Repeat("    ", n)) }
	write = func(v *JSONValue, indent int) {
		switch v.Kind {
		case JSONObject:
			if len(v.Keys) == 0 {
				b.WriteString("{\n")
				pad(indent)
				b.WriteString("}")
				return
			}
			b.WriteString("{\n")
			for i, k := range v.Keys {
				pad(indent + 1)
				b.WriteString(types.QuoteJSON(k) + ": ")
				write(v.Vals[i], indent+1)
				if i < len(v.Keys)-1 {
					b.WriteByte(',')
				}
				b.WriteByte('\n')
			}
			pad(indent)
			b.WriteByte('}')
		case JSONArray:
			if len(v.Elems) == 0 {
				b.WriteString("[\n")
				pad(indent)
				b.WriteString("]")
				return
			}
			b.WriteString("[\n")
			for i, e := range v.Elems {
				pad(indent + 1)
				write(e, indent+1)
				if i < len(v.Elems)-1 {
					b.WriteByte(',')
				}
				b.WriteByte('\n')
			}
			pad(indent)
			b.WriteByte(']')
		default:
			writeJSONBText(&b, v)
		}
	}
	write(v, 0)
	return b.String()
}
