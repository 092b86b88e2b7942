package sql

import (
	"strconv"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// A parsed JSON document for the json and jsonb functions. json keeps its
// text as written (its operators return pieces of it verbatim), so every
// node remembers its raw text; jsonb values arrive normalized (keys unique
// and sorted), and results meant as jsonb are normalized again through the
// jsonb input function.

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

type jsonVal struct {
	kind  jsonKind
	raw   string // the text as written
	str   string // a string's decoded value; a number's or bool's text
	elems []*jsonVal
	keys  []string // object members, in document order
	vals  []*jsonVal
}

// member returns an object's value for key (the last one, as PostgreSQL's
// json operators find it), nil when absent.
func (v *jsonVal) member(key string) *jsonVal {
	for i := len(v.keys) - 1; i >= 0; i-- {
		if v.keys[i] == key {
			return v.vals[i]
		}
	}
	return nil
}

func (v *jsonVal) typeName() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[v.kind]
}

// parseJSONValue reads a document already validated by the json or jsonb
// input function.
func parseJSONValue(s string) (*jsonVal, error) {
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

func (p *jsonReader) value() (*jsonVal, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, jsonSyntax()
	}
	start := p.i
	v := &jsonVal{}
	switch c := p.s[p.i]; {
	case c == '{':
		v.kind = jsonObject
		p.i++
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			break
		}
		for {
			p.space()
			k, err := p.value()
			if err != nil || k.kind != jsonString {
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
			v.keys = append(v.keys, k.str)
			v.vals = append(v.vals, val)
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
		v.kind = jsonArray
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
			v.elems = append(v.elems, el)
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
		v.kind = jsonString
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		v.str = s
	case strings.HasPrefix(p.s[p.i:], "true"), strings.HasPrefix(p.s[p.i:], "false"):
		v.kind = jsonBool
		n := 4
		if c == 'f' {
			n = 5
		}
		v.str = p.s[p.i : p.i+n]
		p.i += n
	case strings.HasPrefix(p.s[p.i:], "null"):
		v.kind = jsonNull
		p.i += 4
	default:
		v.kind = jsonNumber
		for p.i < len(p.s) && strings.IndexByte("+-0123456789.eE", p.s[p.i]) >= 0 {
			p.i++
		}
		if p.i == start {
			return nil, jsonSyntax()
		}
		v.str = p.s[start:p.i]
	}
	v.raw = p.s[start:p.i]
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

// jsonbText writes a value in jsonb's output form.
func jsonbText(v *jsonVal) string {
	var b strings.Builder
	writeJSONBText(&b, v)
	return b.String()
}

func writeJSONBText(b *strings.Builder, v *jsonVal) {
	switch v.kind {
	case jsonObject:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(types.QuoteJSON(k))
			b.WriteString(": ")
			writeJSONBText(b, v.vals[i])
		}
		b.WriteByte('}')
	case jsonArray:
		b.WriteByte('[')
		for i, e := range v.elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSONBText(b, e)
		}
		b.WriteByte(']')
	case jsonString:
		b.WriteString(types.QuoteJSON(v.str))
	case jsonNull:
		b.WriteString("null")
	default:
		b.WriteString(v.str)
	}
}

// asJSONB normalizes JSON text into a jsonb value (sorted, deduplicated
// keys, jsonb's spacing).
func asJSONB(s string) (types.Value, error) {
	return types.ParseText(types.Of(types.JSONB), s)
}

// docText is a json or jsonb value's text for one of its pieces: json
// keeps what was written, jsonb prints its normal form.
func docText(v *jsonVal, binary bool) string {
	if binary {
		return jsonbText(v)
	}
	return v.raw
}

// scalarText is ->> and #>>: a string's value, NULL for null, else the
// value's text.
func scalarText(v *jsonVal, binary bool) types.Value {
	switch v.kind {
	case jsonString:
		return v.str
	case jsonNull:
		return nil
	}
	return docText(v, binary)
}

// toJSON writes a SQL value as to_json does: numbers and booleans as JSON
// scalars, arrays as JSON arrays, rows as objects, json as it is, dates
// and times in ISO 8601, anything else as its text in a JSON string.
func toJSON(x eval.Context, t types.T, v types.Value) string {
	if v == nil {
		return "null"
	}
	switch t.OID {
	case types.Unknown:
		if s, ok := v.(string); ok {
			return types.QuoteJSON(s)
		}
		t = types.Of(goValueType(v))
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
		shape, named := eval.RecordShapeOf(t)
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
			b.WriteString(types.QuoteJSON(name) + ":" + toJSON(x, ft, f))
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
		return arrayToJSON(x, types.Of(elem), arr.Elems, arrayDims(arr))
	}
	s := types.FormatText(t, v)
	if x != nil {
		s = x.FormatValue(t, v)
	}
	return types.QuoteJSON(s)
}

// arrayToJSON writes a (possibly multidimensional) array's elements.
func arrayToJSON(x eval.Context, elem types.T, elems []types.Value, dims []int) string {
	if len(dims) <= 1 {
		parts := make([]string, len(elems))
		for i, e := range elems {
			parts[i] = toJSON(x, elem, e)
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

// jsonContains is jsonb's @>: every member or element of b is in a.
func jsonContains(a, b *jsonVal) bool {
	switch {
	case a.kind == jsonObject && b.kind == jsonObject:
		for i, k := range b.keys {
			av := a.member(k)
			if av == nil || !jsonContains(av, b.vals[i]) {
				return false
			}
		}
		return true
	case a.kind == jsonArray && b.kind == jsonArray:
		for _, be := range b.elems {
			found := false
			for _, ae := range a.elems {
				if (ae.kind == jsonArray || ae.kind == jsonObject) != (be.kind == jsonArray || be.kind == jsonObject) {
					continue
				}
				if jsonContains(ae, be) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case a.kind == jsonArray && b.kind != jsonObject:
		// A top-level array contains a scalar it holds.
		for _, ae := range a.elems {
			if jsonScalarEqual(ae, b) {
				return true
			}
		}
		return false
	}
	return jsonScalarEqual(a, b)
}

func jsonScalarEqual(a, b *jsonVal) bool {
	if a.kind != b.kind || a.kind == jsonArray || a.kind == jsonObject {
		return false
	}
	if a.kind == jsonNumber {
		x, _, errX := apd.NewFromString(a.str)
		y, _, errY := apd.NewFromString(b.str)
		return errX == nil && errY == nil && x.Cmp(y) == 0
	}
	return a.str == b.str
}

// jsonHasKey is jsonb's ?: an object key, or a string element of an array,
// or the string itself.
func jsonHasKey(v *jsonVal, key string) bool {
	switch v.kind {
	case jsonObject:
		return v.member(key) != nil
	case jsonArray:
		for _, e := range v.elems {
			if e.kind == jsonString && e.str == key {
				return true
			}
		}
	case jsonString:
		return v.str == key
	}
	return false
}

// jsonPath follows a path of keys and array indexes (#>, #>>,
// jsonb_extract_path); nil when it leads nowhere.
func jsonPath(v *jsonVal, path []types.Value) *jsonVal {
	for _, p := range path {
		if p == nil || v == nil {
			return nil
		}
		step := p.(string)
		switch v.kind {
		case jsonObject:
			v = v.member(step)
		case jsonArray:
			i, err := strconv.Atoi(step)
			if err != nil {
				return nil
			}
			if i < 0 {
				i += len(v.elems)
			}
			if i < 0 || i >= len(v.elems) {
				return nil
			}
			v = v.elems[i]
		default:
			return nil
		}
	}
	return v
}

// jsonPretty is jsonb_pretty: four spaces per level, one member per line.
func jsonPretty(v *jsonVal) string {
	var b strings.Builder
	var write func(v *jsonVal, indent int)
	pad := func(n int) { b.WriteString(strings.Repeat("    ", n)) }
	write = func(v *jsonVal, indent int) {
		switch v.kind {
		case jsonObject:
			if len(v.keys) == 0 {
				b.WriteString("{\n")
				pad(indent)
				b.WriteString("}")
				return
			}
			b.WriteString("{\n")
			for i, k := range v.keys {
				pad(indent + 1)
				b.WriteString(types.QuoteJSON(k) + ": ")
				write(v.vals[i], indent+1)
				if i < len(v.keys)-1 {
					b.WriteByte(',')
				}
				b.WriteByte('\n')
			}
			pad(indent)
			b.WriteByte('}')
		case jsonArray:
			if len(v.elems) == 0 {
				b.WriteString("[\n")
				pad(indent)
				b.WriteString("]")
				return
			}
			b.WriteString("[\n")
			for i, e := range v.elems {
				pad(indent + 1)
				write(e, indent+1)
				if i < len(v.elems)-1 {
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
