package types

import (
	"strings"
	"time"

	"cdcdb/pgerror"
)

func malformedArray(s, detail string) *pgerror.Error {
	e := pgerror.New(pgerror.InvalidTextRepresentation, "malformed array literal: \"%s\"", s)
	if detail != "" {
		return e.WithDetail("%s", detail)
	}
	return e
}

// parseArray is array_in for the delimiter ',': '{1,2,NULL,"a b"}', nested
// braces for more dimensions. Dimension decorations ('[0:1]={...}') are not
// read: ArrayValue has no lower bounds.
func parseArray(elem T, s string, in Input) (Value, error) {
	texts, dims, err := splitArray(s)
	if err != nil {
		return nil, err
	}
	a := ArrayValue{Elem: elem.OID, Elems: make([]Value, len(texts))}
	if len(dims) > 1 {
		a.Dims = dims
	}
	for i, t := range texts {
		if t == nil {
			continue
		}
		v, err := ParseTextWith(elem, *t, in)
		if err != nil {
			return nil, err
		}
		a.Elems[i] = v
	}
	return a, nil
}

// splitArray reads an array's text into its elements' texts (nil for NULL)
// and its dimensions, checking its shape but not its elements.
func splitArray(s string) (texts []*string, dims []int, err error) {
	p := arrayParser{src: s, s: s, leaf: -1}
	p.skipSpace()
	var declared []int
	for strings.HasPrefix(p.s, "[") {
		end := strings.IndexByte(p.s, ']')
		if end < 0 {
			return nil, nil, malformedArray(s, "Missing \"]\" after array dimensions.")
		}
		lo, hi, ok := strings.Cut(p.s[1:end], ":")
		if !ok {
			lo, hi = "1", lo
		}
		l, okl, _ := scanInt(trimSpace(lo), 32)
		h, okh, _ := scanInt(trimSpace(hi), 32)
		if !okl || !okh {
			return nil, nil, malformedArray(s, "Array dimension must be an integer.")
		}
		if l != 1 {
			return nil, nil, pgerror.New(pgerror.FeatureNotSupported, "arrays with lower bounds other than 1 are not supported: \"%s\"", s)
		}
		if h < l-1 {
			return nil, nil, malformedArray(s, "Upper bound cannot be less than lower bound.")
		}
		declared = append(declared, int(h-l+1))
		p.s = p.s[end+1:]
		p.skipSpace()
	}
	if declared != nil {
		if !strings.HasPrefix(p.s, "=") {
			return nil, nil, malformedArray(s, "Missing \"=\" after array dimensions.")
		}
		p.s = p.s[1:]
		p.skipSpace()
	}
	if !strings.HasPrefix(p.s, "{") {
		return nil, nil, malformedArray(s, "Array value must start with \"{\" or dimension information.")
	}
	if err := p.parseLevel(0, &dims, &texts); err != nil {
		return nil, nil, err
	}
	p.skipSpace()
	if p.s != "" {
		return nil, nil, malformedArray(s, "Junk after closing right brace.")
	}
	if declared != nil {
		same := len(declared) == len(dims)
		for i := 0; same && i < len(dims); i++ {
			same = declared[i] == dims[i]
		}
		if !same {
			return nil, nil, malformedArray(s, "Specified array dimensions do not match array contents.")
		}
	}
	return texts, dims, nil
}

// maxArrayDims is PostgreSQL's MAXDIM.
const maxArrayDims = 6

type arrayParser struct {
	src, s string
	leaf   int // depth that holds the elements, -1 until one is seen
}

func (p *arrayParser) skipSpace() {
	for p.s != "" && isSpace(p.s[0]) {
		p.s = p.s[1:]
	}
}

// parseLevel reads one brace group at depth, recording the dimension length
// the first time a depth is seen and checking it every later time; a depth
// holds either brace groups or elements, never both.
func (p *arrayParser) parseLevel(depth int, dims *[]int, out *[]*string) error {
	p.s = p.s[1:] // '{'
	if depth >= maxArrayDims {
		return pgerror.New(pgerror.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", depth+1, maxArrayDims)
	}
	mismatch := func() error {
		return malformedArray(p.src, "Multidimensional arrays must have sub-arrays with matching dimensions.")
	}
	for len(*dims) <= depth {
		*dims = append(*dims, -1)
	}
	n := 0
	p.skipSpace()
	if strings.HasPrefix(p.s, "}") {
		p.s = p.s[1:]
		if depth == 0 {
			*dims = nil
			return nil
		}
		return malformedArray(p.src, "Unexpected \"}\" character.")
	}
	for {
		p.skipSpace()
		if strings.HasPrefix(p.s, "{") {
			if p.leaf >= 0 && p.leaf <= depth {
				return malformedArray(p.src, "Unexpected \"{\" character.")
			}
			if err := p.parseLevel(depth+1, dims, out); err != nil {
				return err
			}
		} else {
			if p.leaf >= 0 && p.leaf != depth {
				return malformedArray(p.src, "Unexpected array element.")
			}
			p.leaf = depth
			if p.s == "" {
				return malformedArray(p.src, "Unexpected end of input.")
			}
			t, err := p.element()
			if err != nil {
				return err
			}
			*out = append(*out, t)
		}
		n++
		p.skipSpace()
		if p.s == "" {
			return malformedArray(p.src, "Unexpected end of input.")
		}
		if p.s[0] == ',' {
			p.s = p.s[1:]
			continue
		}
		if p.s[0] != '}' {
			return malformedArray(p.src, "Unexpected array element.")
		}
		p.s = p.s[1:]
		break
	}
	if (*dims)[depth] < 0 {
		(*dims)[depth] = n
	} else if (*dims)[depth] != n {
		return mismatch()
	}
	return nil
}

// element reads a quoted or unquoted element; nil means NULL.
func (p *arrayParser) element() (*string, error) {
	unexpected := func() error { return malformedArray(p.src, "Unexpected array element.") }
	var b strings.Builder
	if p.s[0] == '"' {
		p.s = p.s[1:]
		for {
			if p.s == "" {
				return nil, malformedArray(p.src, "Unexpected end of input.")
			}
			c := p.s[0]
			if c == '\\' && len(p.s) > 1 {
				b.WriteByte(p.s[1])
				p.s = p.s[2:]
				continue
			}
			p.s = p.s[1:]
			if c == '"' {
				break
			}
			b.WriteByte(c)
		}
		p.skipSpace()
		if p.s != "" && p.s[0] != ',' && p.s[0] != '}' {
			return nil, unexpected()
		}
		v := b.String()
		return &v, nil
	}
	escaped := false
	keep := 0 // length up to the last character that is not an unescaped blank
	for p.s != "" {
		c := p.s[0]
		switch {
		case c == '\\':
			if len(p.s) < 2 {
				return nil, malformedArray(p.src, "Unexpected end of input.")
			}
			b.WriteByte(p.s[1])
			p.s = p.s[2:]
			escaped = true
			keep = b.Len()
		case c == ',' || c == '}':
			v := b.String()[:keep]
			if !escaped && strings.EqualFold(v, "NULL") {
				return nil, nil
			}
			if !escaped && v == "" {
				return nil, malformedArray(p.src, "Unexpected \""+string(c)+"\" character.")
			}
			return &v, nil
		case c == '{':
			return nil, malformedArray(p.src, "Unexpected \"{\" character.")
		case c == '"':
			return nil, unexpected()
		default:
			b.WriteByte(c)
			if !isSpace(c) {
				keep = b.Len()
			}
			p.s = p.s[1:]
		}
	}
	return nil, malformedArray(p.src, "Unexpected end of input.")
}

// appendArray is array_out: elements quoted when empty, NULL-looking, or
// holding blanks or any of {}",\.
func appendArray(dst []byte, a ArrayValue, loc *time.Location) []byte {
	dims := a.Dims
	if len(dims) == 0 {
		if len(a.Elems) == 0 {
			return append(dst, "{}"...)
		}
		dims = []int{len(a.Elems)}
	}
	elem := Of(a.Elem)
	i := 0
	var walk func(d int)
	walk = func(d int) {
		dst = append(dst, '{')
		for k := 0; k < dims[d]; k++ {
			if k > 0 {
				dst = append(dst, ',')
			}
			if d+1 < len(dims) {
				walk(d + 1)
				continue
			}
			if i >= len(a.Elems) {
				dst = append(dst, "NULL"...)
				continue
			}
			v := a.Elems[i]
			i++
			if v == nil {
				dst = append(dst, "NULL"...)
				continue
			}
			dst = appendQuoted(dst, AppendText(nil, elem, v, loc), false)
		}
		dst = append(dst, '}')
	}
	walk(0)
	return dst
}

// appendQuoted writes an array element (record=false) or a record field
// (record=true) with PostgreSQL's quoting rules.
func appendQuoted(dst, s []byte, record bool) []byte {
	need := len(s) == 0
	if !record && strings.EqualFold(string(s), "NULL") {
		need = true
	}
	for _, c := range s {
		if c == '"' || c == '\\' || isSpace(c) ||
			(!record && (c == '{' || c == '}' || c == ',')) ||
			(record && (c == '(' || c == ')' || c == ',')) {
			need = true
			break
		}
	}
	if !need {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for _, c := range s {
		if c == '"' || c == '\\' {
			if record {
				dst = append(dst, c)
			} else {
				dst = append(dst, '\\')
			}
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}

// appendRecord is record_out: (a,b,,"x y"), NULL fields empty.
func appendRecord(dst []byte, r RecordValue, loc *time.Location) []byte {
	dst = append(dst, '(')
	for i, f := range r.Fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		if f == nil {
			continue
		}
		t := Of(Text)
		if i < len(r.Types) {
			t = r.Types[i]
		}
		dst = appendQuoted(dst, AppendText(nil, t, f, loc), true)
	}
	return append(dst, ')')
}
