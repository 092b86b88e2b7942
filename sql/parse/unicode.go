package parse

import (
	"strings"
	"unicode/utf8"

	"cdcdb/pgerror"
)

// This file lexes the SQL-standard Unicode forms U&'...' and U&"...", with an
// optional UESCAPE 'c' clause. They are rare, but drivers and dump tools emit
// them, and PostgreSQL accepts them whenever standard_conforming_strings is
// on (always, in cdcdb).

// uBody is the raw body of a U& literal with, for each byte, its offset in
// the source, so errors can point into the user's text even across
// 'a'<newline>'b' continuations.
type uBody struct {
	b   []byte
	off []int
}

// unicodeString lexes U&'...' [UESCAPE 'c'].
func (lx *lexer) unicodeString(start int) token {
	src := lx.src
	var body uBody
	i := start + 3
	for {
		if i >= len(src) {
			return lx.errTok(lx.errorAt(pgerror.SyntaxError, "unterminated quoted string", start, len(src)), start)
		}
		if src[i] == '\'' {
			if i+1 < len(src) && src[i+1] == '\'' {
				body.b = append(body.b, '\'')
				body.off = append(body.off, i)
				i += 2
				continue
			}
			i++
			if next, ok := lx.continuation(i); ok {
				i = next + 1
				continue
			}
			break
		}
		body.b = append(body.b, src[i])
		body.off = append(body.off, i)
		i++
	}
	end := i
	esc, after, errTok, ok := lx.uescape(end)
	if !ok {
		return errTok
	}
	s, e := lx.uDeescape(body, esc, end-1)
	if e != nil {
		return lx.errTok(e, start)
	}
	lx.pos = after
	return token{kind: tkString, str: s, pos: start, end: after}
}

// unicodeIdent lexes U&"..." [UESCAPE 'c'].
func (lx *lexer) unicodeIdent(start int) token {
	src := lx.src
	var body uBody
	i := start + 3
	for {
		if i >= len(src) {
			return lx.errTok(lx.errorAt(pgerror.SyntaxError, "unterminated quoted identifier", start, len(src)), start)
		}
		if src[i] == '"' {
			if i+1 < len(src) && src[i+1] == '"' {
				body.b = append(body.b, '"')
				body.off = append(body.off, i)
				i += 2
				continue
			}
			i++
			break
		}
		body.b = append(body.b, src[i])
		body.off = append(body.off, i)
		i++
	}
	end := i
	if len(body.b) == 0 {
		return lx.errTok(lx.errorAt(pgerror.SyntaxError, "zero-length delimited identifier", start, end), start)
	}
	esc, after, errTok, ok := lx.uescape(end)
	if !ok {
		return errTok
	}
	s, e := lx.uDeescape(body, esc, end-1)
	if e != nil {
		return lx.errTok(e, start)
	}
	lx.pos = after
	return token{kind: tkQIdent, str: truncateIdent(s), pos: start, end: after}
}

// uescape looks past the literal ending at offset i for UESCAPE 'c'. It
// returns the escape character and where the token ends.
func (lx *lexer) uescape(i int) (byte, int, token, bool) {
	src := lx.src
	save := lx.pos
	lx.pos = i
	if t, ok := lx.skipSpace(); !ok {
		return 0, 0, t, false
	}
	j := lx.pos
	lx.pos = save
	k := j
	for k < len(src) && isIdentCont(src[k]) {
		k++
	}
	if k == j || !strings.EqualFold(src[j:k], "uescape") {
		return '\\', i, token{}, true
	}
	lx.pos = k
	if t, ok := lx.skipSpace(); !ok {
		return 0, 0, t, false
	}
	q := lx.pos
	lx.pos = save
	if q >= len(src) || src[q] != '\'' {
		// Show the next token (or the end of the input), as PostgreSQL does.
		sub := &lexer{src: src, pos: q, databricks: lx.databricks}
		t := sub.next()
		if t.kind == tkError {
			return 0, 0, t, false
		}
		e := lx.errorAt(pgerror.SyntaxError, "UESCAPE must be followed by a simple string literal", t.pos, t.end)
		return 0, 0, lx.errTok(e, q), false
	}
	sub := &lexer{src: src, pos: q, databricks: lx.databricks}
	t := sub.next()
	if t.kind == tkError {
		return 0, 0, t, false
	}
	if len(t.str) != 1 || isHex(t.str[0]) || strings.IndexByte("+'\" \t\n\r\f\v", t.str[0]) >= 0 {
		e := lx.errorAt(pgerror.SyntaxError, "invalid Unicode escape character", t.pos, t.end)
		return 0, 0, lx.errTok(e, q), false
	}
	return t.str[0], t.end, token{}, true
}

// uDeescape resolves the escapes of a U& body: e followed by four hex digits,
// e+ followed by six, ee for e itself. closeQuote is the offset of the
// closing quote, where an unpaired surrogate at the end is reported.
func (lx *lexer) uDeescape(body uBody, e byte, closeQuote int) (string, *pgerror.Error) {
	b := body.b
	out := make([]byte, 0, len(b))
	pairFirst := 0
	posErr := func(off int, msg string) *pgerror.Error {
		return pgerror.New(pgerror.SyntaxError, "%s", msg).WithPosition(runePosition(lx.src, off))
	}
	for i := 0; i < len(b); {
		if b[i] != e {
			if pairFirst != 0 {
				return "", posErr(body.off[i], "invalid Unicode surrogate pair")
			}
			out = append(out, b[i])
			i++
			continue
		}
		if i+1 < len(b) && b[i+1] == e {
			if pairFirst != 0 {
				return "", posErr(body.off[i], "invalid Unicode surrogate pair")
			}
			out = append(out, e)
			i += 2
			continue
		}
		n, skip := 4, 1
		if i+1 < len(b) && b[i+1] == '+' {
			n, skip = 6, 2
		}
		if i+skip+n > len(b) || !allHex(b[i+skip:i+skip+n]) {
			return "", posErr(body.off[i], "invalid Unicode escape").WithHint(`Unicode escapes must be \XXXX or \+XXXXXX.`)
		}
		cp := 0
		for _, c := range b[i+skip : i+skip+n] {
			cp = cp*16 + hexVal(c)
		}
		if cp == 0 || cp > 0x10FFFF {
			return "", posErr(body.off[i], "invalid Unicode escape value")
		}
		switch {
		case cp >= 0xD800 && cp <= 0xDBFF:
			if pairFirst != 0 {
				return "", posErr(body.off[i], "invalid Unicode surrogate pair")
			}
			pairFirst = cp
		case cp >= 0xDC00 && cp <= 0xDFFF:
			if pairFirst == 0 {
				return "", posErr(body.off[i], "invalid Unicode surrogate pair")
			}
			cp = 0x10000 + ((pairFirst - 0xD800) << 10) + (cp - 0xDC00)
			pairFirst = 0
			out = utf8.AppendRune(out, rune(cp))
		default:
			if pairFirst != 0 {
				return "", posErr(body.off[i], "invalid Unicode surrogate pair")
			}
			out = utf8.AppendRune(out, rune(cp))
		}
		i += skip + n
	}
	if pairFirst != 0 {
		return "", posErr(closeQuote, "invalid Unicode surrogate pair")
	}
	return string(out), nil
}

func allHex(b []byte) bool {
	for _, c := range b {
		if !isHex(c) {
			return false
		}
	}
	return true
}
