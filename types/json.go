package types

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"cdcdb/pgerror"
)

func jsonSyntaxError() *pgerror.Error {
	return pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type json")
}

func jsonError(format string, args ...any) *pgerror.Error {
	return jsonSyntaxError().WithDetail(format, args...)
}

// validJSON checks syntax as json_in does; the text is kept as it is.
func validJSON(s string) error {
	p := jsonParser{s: s}
	_, err := p.document(false)
	return err
}

// jsonNode is a parsed JSON value that keeps what jsonb keeps: object members
// (deduplicated, last wins, sorted by key length then bytes) and numbers as
// numeric text.
type jsonNode struct {
	kind    byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	str     string
	keys    []string
	members []*jsonNode
}

// normalizeJSONB reads JSON and prints it as jsonb_out does.
func normalizeJSONB(s string) (Value, error) {
	p := jsonParser{s: s}
	n, err := p.document(true)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	writeJSONB(&b, n)
	return b.String(), nil
}

// jsonParser follows PostgreSQL's JSON lexer and parser closely enough to
// give the same error details.
type jsonParser struct {
	s     string
	pos   int
	build bool // build nodes and de-escape strings (jsonb)
	depth int
}

// maxJSONDepth bounds nesting, where PostgreSQL's bound is its stack.
const maxJSONDepth = 10000

func stackDepthError() error {
	return pgerror.New("54001", "stack depth limit exceeded")
}

type jsonTok struct {
	kind byte // '{' '}' '[' ']' ',' ':' 's' string, 'n' number, 't' true, 'f' false, 'z' null, 0 end
	text string
	str  string // de-escaped string
}

func (p *jsonParser) document(build bool) (*jsonNode, error) {
	p.build = build
	if !utf8.ValidString(p.s) {
		return nil, pgerror.New(pgerror.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\"")
	}
	tok, err := p.lex()
	if err != nil {
		return nil, err
	}
	n, err := p.value(tok)
	if err != nil {
		return nil, err
	}
	end, err := p.lex()
	if err != nil {
		return nil, err
	}
	if end.kind != 0 {
		return nil, jsonError("Expected end of input, but found \"%s\".", end.text)
	}
	return n, nil
}

func (p *jsonParser) value(tok jsonTok) (*jsonNode, error) {
	switch tok.kind {
	case '{', '[':
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxJSONDepth {
			return nil, stackDepthError()
		}
		if tok.kind == '{' {
			return p.object()
		}
		return p.array()
	case 's':
		return &jsonNode{kind: 's', str: tok.str}, nil
	case 'n':
		if !p.build {
			return nil, nil
		}
		d, err := parseNumeric(tok.text)
		if err != nil {
			return nil, err
		}
		return &jsonNode{kind: 'n', str: string(appendNumeric(nil, d))}, nil
	case 't':
		return &jsonNode{kind: 'b', str: "true"}, nil
	case 'f':
		return &jsonNode{kind: 'b', str: "false"}, nil
	case 'z':
		return &jsonNode{kind: 'z'}, nil
	case 0:
		return nil, jsonError("The input string ended unexpectedly.")
	}
	return nil, jsonError("Expected JSON value, but found \"%s\".", tok.text)
}

func (p *jsonParser) object() (*jsonNode, error) {
	n := &jsonNode{kind: 'o'}
	var idx map[string]int
	if p.build {
		idx = map[string]int{}
	}
	tok, err := p.lex()
	if err != nil {
		return nil, err
	}
	if tok.kind == '}' {
		return n, nil
	}
	if tok.kind == 0 {
		return nil, jsonError("The input string ended unexpectedly.")
	}
	if tok.kind != 's' {
		return nil, jsonError("Expected string or \"}\", but found \"%s\".", tok.text)
	}
	for {
		key := tok.str
		colon, err := p.lex()
		if err != nil {
			return nil, err
		}
		if colon.kind == 0 {
			return nil, jsonError("The input string ended unexpectedly.")
		}
		if colon.kind != ':' {
			return nil, jsonError("Expected \":\", but found \"%s\".", colon.text)
		}
		vt, err := p.lex()
		if err != nil {
			return nil, err
		}
		v, err := p.value(vt)
		if err != nil {
			return nil, err
		}
		if p.build {
			if i, dup := idx[key]; dup {
				n.members[i] = v
			} else {
				idx[key] = len(n.keys)
				n.keys = append(n.keys, key)
				n.members = append(n.members, v)
			}
		}
		next, err := p.lex()
		if err != nil {
			return nil, err
		}
		switch next.kind {
		case ',':
		case '}':
			if p.build {
				sortMembers(n)
			}
			return n, nil
		case 0:
			return nil, jsonError("The input string ended unexpectedly.")
		default:
			return nil, jsonError("Expected \",\" or \"}\", but found \"%s\".", next.text)
		}
		if tok, err = p.lex(); err != nil {
			return nil, err
		}
		if tok.kind != 's' {
			if tok.kind == 0 {
				return nil, jsonError("The input string ended unexpectedly.")
			}
			return nil, jsonError("Expected string, but found \"%s\".", tok.text)
		}
	}
}

func (p *jsonParser) array() (*jsonNode, error) {
	n := &jsonNode{kind: 'a'}
	tok, err := p.lex()
	if err != nil {
		return nil, err
	}
	if tok.kind == ']' {
		return n, nil
	}
	for {
		v, err := p.value(tok)
		if err != nil {
			return nil, err
		}
		if p.build {
			n.members = append(n.members, v)
		}
		next, err := p.lex()
		if err != nil {
			return nil, err
		}
		switch next.kind {
		case ',':
		case ']':
			return n, nil
		case 0:
			return nil, jsonError("The input string ended unexpectedly.")
		default:
			return nil, jsonError("Expected \",\" or \"]\", but found \"%s\".", next.text)
		}
		if tok, err = p.lex(); err != nil {
			return nil, err
		}
	}
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isJSONWordChar(c byte) bool {
	return isAlnum(c) || c == '_' || c == '-' || c == '+' || c == '.' || c >= 0x80
}

// lex returns the next token; an invalid token is an error naming it.
func (p *jsonParser) lex() (jsonTok, error) {
	for p.pos < len(p.s) && isJSONSpace(p.s[p.pos]) {
		p.pos++
	}
	if p.pos >= len(p.s) {
		return jsonTok{}, nil
	}
	start := p.pos
	c := p.s[p.pos]
	switch c {
	case '{', '}', '[', ']', ',', ':':
		p.pos++
		return jsonTok{kind: c, text: string(c)}, nil
	case '"':
		return p.lexString()
	}
	// a number or a word: take the whole run, as PostgreSQL reports it
	end := p.pos
	for end < len(p.s) && isJSONWordChar(p.s[end]) {
		end++
	}
	if end == start {
		_, size := utf8.DecodeRuneInString(p.s[start:])
		end = start + size
	}
	word := p.s[start:end]
	p.pos = end
	switch word {
	case "true":
		return jsonTok{kind: 't', text: word}, nil
	case "false":
		return jsonTok{kind: 'f', text: word}, nil
	case "null":
		return jsonTok{kind: 'z', text: word}, nil
	}
	if jsonNumber(word) {
		return jsonTok{kind: 'n', text: word}, nil
	}
	return jsonTok{}, jsonError("Token \"%s\" is invalid.", word)
}

func jsonNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i >= len(s) {
		return false
	}
	if s[i] == '0' {
		i++
	} else if s[i] >= '1' && s[i] <= '9' {
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	} else {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		d := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == d {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == d {
			return false
		}
	}
	return i == len(s)
}

func (p *jsonParser) lexString() (jsonTok, error) {
	start := p.pos
	p.pos++
	var b strings.Builder
	var hiSurrogate rune = -1
	for {
		if p.pos >= len(p.s) {
			return jsonTok{}, jsonError("Token \"%s\" is invalid.", p.s[start:])
		}
		c := p.s[p.pos]
		switch {
		case c == '"':
			p.pos++
			if hiSurrogate >= 0 && p.build {
				return jsonTok{}, pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type json").
					WithDetail("Unicode low surrogate must follow a high surrogate.")
			}
			return jsonTok{kind: 's', text: p.s[start:p.pos], str: b.String()}, nil
		case c < 0x20:
			return jsonTok{}, jsonError("Character with value 0x%02x must be escaped.", c)
		case c == '\\':
			if p.pos+1 >= len(p.s) {
				return jsonTok{}, jsonError("The input string ended unexpectedly.")
			}
			e := p.s[p.pos+1]
			p.pos += 2
			if e == 'u' {
				if p.pos+4 > len(p.s) || !allHex(p.s[p.pos:p.pos+4]) {
					return jsonTok{}, jsonError("\"\\u\" must be followed by four hexadecimal digits.")
				}
				r64, _ := strconv.ParseUint(p.s[p.pos:p.pos+4], 16, 32)
				p.pos += 4
				if !p.build {
					continue
				}
				r := rune(r64)
				switch {
				case r >= 0xD800 && r <= 0xDBFF:
					if hiSurrogate >= 0 {
						return jsonTok{}, jsonError("Unicode high surrogate must not follow a high surrogate.")
					}
					hiSurrogate = r
					continue
				case r >= 0xDC00 && r <= 0xDFFF:
					if hiSurrogate < 0 {
						return jsonTok{}, jsonError("Unicode low surrogate must follow a high surrogate.")
					}
					r = 0x10000 + (hiSurrogate-0xD800)<<10 + (r - 0xDC00)
					hiSurrogate = -1
				case hiSurrogate >= 0:
					return jsonTok{}, jsonError("Unicode low surrogate must follow a high surrogate.")
				case r == 0:
					return jsonTok{}, pgerror.New(pgerror.UntranslatableCharacter, "unsupported Unicode escape sequence").
						WithDetail("\\u0000 cannot be converted to text.")
				}
				b.WriteRune(r)
				continue
			}
			if hiSurrogate >= 0 && p.build {
				return jsonTok{}, jsonError("Unicode low surrogate must follow a high surrogate.")
			}
			var r byte
			switch e {
			case '"', '\\', '/':
				r = e
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 't':
				r = '\t'
			default:
				_, size := utf8.DecodeRuneInString(p.s[p.pos-1:])
				return jsonTok{}, jsonError("Escape sequence \"\\%s\" is invalid.", p.s[p.pos-1:p.pos-1+size])
			}
			if p.build {
				b.WriteByte(r)
			}
		default:
			if hiSurrogate >= 0 && p.build {
				return jsonTok{}, jsonError("Unicode low surrogate must follow a high surrogate.")
			}
			if p.build {
				b.WriteByte(c)
			}
			p.pos++
		}
	}
}

func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if _, ok := unhex(s[i]); !ok {
			return false
		}
	}
	return true
}

// sortMembers orders object keys as jsonb does: shorter keys first, then
// bytewise.
func sortMembers(n *jsonNode) {
	idx := make([]int, len(n.keys))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool {
		ka, kb := n.keys[idx[a]], n.keys[idx[b]]
		if len(ka) != len(kb) {
			return len(ka) < len(kb)
		}
		return ka < kb
	})
	keys := make([]string, len(idx))
	members := make([]*jsonNode, len(idx))
	for i, j := range idx {
		keys[i], members[i] = n.keys[j], n.members[j]
	}
	n.keys, n.members = keys, members
}

func writeJSONB(b *bytes.Buffer, n *jsonNode) {
	switch n.kind {
	case 'o':
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.Write(AppendQuoteJSON(b.AvailableBuffer(), k))
			b.WriteString(": ")
			writeJSONB(b, n.members[i])
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, m := range n.members {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSONB(b, m)
		}
		b.WriteByte(']')
	case 's':
		b.Write(AppendQuoteJSON(b.AvailableBuffer(), n.str))
	case 'z':
		b.WriteString("null")
	default:
		b.WriteString(n.str)
	}
}

// QuoteJSON returns s as a JSON string, escaped as PostgreSQL's escape_json
// escapes it (what to_json of text and jsonb's output write).
func QuoteJSON(s string) string {
	return string(AppendQuoteJSON(make([]byte, 0, len(s)+2), s))
}

// AppendQuoteJSON appends s to dst as QuoteJSON writes it: the quote, the
// backslash and the control characters escaped (\b \f \n \r \t by name,
// the others as \u00XX), every other byte as it is.
func AppendQuoteJSON(dst []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			dst = append(dst, `\"`...)
		case '\\':
			dst = append(dst, `\\`...)
		case '\b':
			dst = append(dst, `\b`...)
		case '\f':
			dst = append(dst, `\f`...)
		case '\n':
			dst = append(dst, `\n`...)
		case '\r':
			dst = append(dst, `\r`...)
		case '\t':
			dst = append(dst, `\t`...)
		default:
			if c < 0x20 {
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			} else {
				dst = append(dst, c)
			}
		}
	}
	return append(dst, '"')
}
