package parse

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"cdcdb/pgerror"
)

// tokKind is the lexical class of a token.
type tokKind uint8

const (
	tkEOF       tokKind = iota
	tkIdent             // an unquoted word: identifier or keyword; str is lower-cased
	tkQIdent            // a "quoted" identifier (`quoted` in Databricks); str exact
	tkString            // a string constant; str is its value, escapes resolved
	tkBitString         // B'0101' or X'1F'; str is "b0101" or "x1F", as bit_in reads it
	tkInteger           // an integer constant that fits int64
	tkNumeric           // any other numeric constant
	tkParam             // $n; num is n
	tkOp                // operators and punctuation; str is the canonical text
	tkOther             // a character no rule accepts (\, {, a lone $): always a syntax error
	tkError             // a scanner error, reported when the grammar reaches it
)

// token is one lexical unit. pos and end are byte offsets into the source, so
// the parser can point at the token and slice the user's text.
type token struct {
	kind tokKind
	kw   kwCat // for tkIdent: the keyword category, or notKeyword
	bare bool  // for keywords: may be a column alias without AS
	str  string
	num  int
	pos  int
	end  int
	err  *pgerror.Error
}

// is reports whether t is the unquoted word w (lower-case).
func (t *token) is(w string) bool { return t.kind == tkIdent && t.str == w }

// isOp reports whether t is the operator or punctuation op.
func (t *token) isOp(op string) bool { return t.kind == tkOp && t.str == op }

// namedataLen is PostgreSQL's NAMEDATALEN: identifiers are cut to 63 bytes.
const namedataLen = 64

// lexer turns SQL text into tokens by PostgreSQL's scan.l rules. It keeps
// going until the end of the input or the first error, which becomes an
// error token: PostgreSQL's scanner runs lazily, one token ahead of the
// grammar, so an earlier syntax error must win over a later scanner error.
type lexer struct {
	src        string
	pos        int
	databricks bool
	toks       []token
}

func lex(src string, d Dialect) []token {
	lx := &lexer{src: src, databricks: d == DialectDatabricks}
	// A statement averages a token every five or six bytes; guessing the
	// capacity avoids most regrowth on large INSERTs.
	lx.toks = make([]token, 0, len(src)/5+2)
	for {
		t := lx.next()
		lx.toks = append(lx.toks, t)
		switch t.kind {
		case tkEOF:
			return lx.toks
		case tkError:
			lx.toks = append(lx.toks, token{kind: tkEOF, pos: len(src), end: len(src)})
			return lx.toks
		}
	}
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func isIdentCont(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9' || c == '$'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isHex(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// isOpChar is PostgreSQL's op_chars class. A backquote is an identifier
// quote in the Databricks dialect, never an operator there.
func (lx *lexer) isOpChar(c byte) bool {
	switch c {
	case '~', '!', '@', '#', '^', '&', '|', '?', '+', '-', '*', '/', '%', '<', '>', '=':
		return true
	case '`':
		return !lx.databricks
	}
	return false
}

func (lx *lexer) errTok(e *pgerror.Error, pos int) token {
	return token{kind: tkError, err: e, pos: pos, end: pos}
}

// skipSpace skips whitespace and comments. It returns an error token for an
// unterminated block comment (and ok=false).
func (lx *lexer) skipSpace() (token, bool) {
	src := lx.src
	for lx.pos < len(src) {
		c := src[lx.pos]
		switch {
		case isSpace(c):
			lx.pos++
		case c == '-' && lx.pos+1 < len(src) && src[lx.pos+1] == '-':
			for lx.pos < len(src) && src[lx.pos] != '\n' && src[lx.pos] != '\r' {
				lx.pos++
			}
		case c == '/' && lx.pos+1 < len(src) && src[lx.pos+1] == '*':
			// Block comments nest in PostgreSQL, unlike the SQL standard.
			start := lx.pos
			depth := 0
			for {
				if lx.pos >= len(src) {
					return lx.errTok(lx.errorAt(pgerror.SyntaxError, "unterminated /* comment", start, len(src)), start), false
				}
				if src[lx.pos] == '/' && lx.pos+1 < len(src) && src[lx.pos+1] == '*' {
					depth++
					lx.pos += 2
				} else if src[lx.pos] == '*' && lx.pos+1 < len(src) && src[lx.pos+1] == '/' {
					depth--
					lx.pos += 2
					if depth == 0 {
						break
					}
				} else {
					lx.pos++
				}
			}
		default:
			return token{}, true
		}
	}
	return token{}, true
}

func (lx *lexer) next() token {
	if t, ok := lx.skipSpace(); !ok {
		return t
	}
	src := lx.src
	start := lx.pos
	if start >= len(src) {
		return token{kind: tkEOF, pos: len(src), end: len(src)}
	}
	c := src[start]
	var c1 byte
	if start+1 < len(src) {
		c1 = src[start+1]
	}
	switch {
	case isIdentStart(c):
		if c1 == '\'' {
			switch c {
			case 'e', 'E':
				return lx.quotedString(start, start+1, escapeBackslash)
			case 'b', 'B':
				return lx.bitString(start, 'b')
			case 'x', 'X':
				return lx.bitString(start, 'x')
			case 'n', 'N':
				// N'...' is PostgreSQL's national character literal: the
				// scanner hands the grammar NCHAR followed by the string.
				lx.pos = start + 1
				return token{kind: tkIdent, kw: colNameKeyword, str: "nchar", pos: start, end: start + 1}
			}
		}
		if (c == 'u' || c == 'U') && c1 == '&' && start+2 < len(src) {
			switch src[start+2] {
			case '\'':
				return lx.unicodeString(start)
			case '"':
				return lx.unicodeIdent(start)
			}
		}
		return lx.word(start)
	case isDigit(c) || c == '.' && isDigit(c1):
		return lx.number(start)
	case c == '\'':
		return lx.quotedString(start, start, escapeNone)
	case c == '"':
		if lx.databricks {
			return lx.delimited(start, '"', tkString)
		}
		return lx.delimited(start, '"', tkQIdent)
	case c == '`' && lx.databricks:
		// Databricks identifiers are case-insensitive even when
		// backquoted: `userId` names the column userid.
		tok := lx.delimited(start, '`', tkQIdent)
		if tok.kind == tkQIdent {
			tok.str = strings.ToLower(tok.str)
		}
		return tok
	case c == '$':
		return lx.dollar(start)
	case c == ':':
		switch c1 {
		case ':':
			lx.pos = start + 2
			return token{kind: tkOp, str: "::", pos: start, end: start + 2}
		case '=':
			lx.pos = start + 2
			return token{kind: tkOp, str: ":=", pos: start, end: start + 2}
		}
		lx.pos = start + 1
		return token{kind: tkOp, str: ":", pos: start, end: start + 1}
	case c == '.':
		if c1 == '.' {
			lx.pos = start + 2
			return token{kind: tkOp, str: "..", pos: start, end: start + 2}
		}
		lx.pos = start + 1
		return token{kind: tkOp, str: ".", pos: start, end: start + 1}
	case c == ',' || c == '(' || c == ')' || c == '[' || c == ']' || c == ';':
		lx.pos = start + 1
		return token{kind: tkOp, str: src[start : start+1], pos: start, end: start + 1}
	case lx.isOpChar(c):
		return lx.operator(start)
	}
	// Any other character is a token of its own that no rule accepts, so
	// the grammar reports "syntax error at or near" it. Take the whole
	// UTF-8 sequence so the message shows a whole character.
	_, n := utf8.DecodeRuneInString(src[start:])
	lx.pos = start + n
	return token{kind: tkOther, str: src[start : start+n], pos: start, end: start + n}
}

// word lexes an identifier or keyword. Unquoted identifiers fold to lower
// case; PostgreSQL folds only ASCII letters (in UTF8 databases).
func (lx *lexer) word(start int) token {
	src := lx.src
	i := start
	upper := false
	for i < len(src) && isIdentCont(src[i]) {
		if src[i] >= 'A' && src[i] <= 'Z' {
			upper = true
		}
		i++
	}
	lx.pos = i
	s := src[start:i]
	if upper {
		s = lowerASCII(s)
	}
	if k, ok := lookupKeyword(s); ok {
		return token{kind: tkIdent, kw: k.cat, bare: k.bare, str: s, pos: start, end: i}
	}
	return token{kind: tkIdent, str: truncateIdent(s), pos: start, end: i}
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// truncateIdent cuts an identifier to NAMEDATALEN-1 bytes without splitting
// a character, as PostgreSQL does (with a NOTICE we cannot send from here).
func truncateIdent(s string) string {
	if len(s) < namedataLen {
		return s
	}
	n := namedataLen - 1
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// number lexes a numeric constant. PostgreSQL 15 rejects a number directly
// followed by identifier characters ("123abc", "0x1F", "1_000") instead of
// splitting it into a number and an alias.
func (lx *lexer) number(start int) token {
	src := lx.src
	i := start
	for i < len(src) && isDigit(src[i]) {
		i++
	}
	isInt := true
	if i < len(src) && src[i] == '.' {
		if i+1 < len(src) && src[i+1] == '.' {
			// "1..2": the integer ends before "..", as in PostgreSQL.
		} else {
			isInt = false
			i++
			for i < len(src) && isDigit(src[i]) {
				i++
			}
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
			if j >= len(src) || !isDigit(src[j]) {
				return lx.junk(start, j, "trailing junk after numeric literal")
			}
		}
		if j < len(src) && isDigit(src[j]) {
			isInt = false
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			i = j
		}
	}
	if i < len(src) && isIdentStart(src[i]) {
		for i < len(src) && isIdentCont(src[i]) {
			i++
		}
		return lx.junk(start, i, "trailing junk after numeric literal")
	}
	lx.pos = i
	text := src[start:i]
	if isInt {
		if _, err := strconv.ParseInt(text, 10, 64); err == nil {
			return token{kind: tkInteger, str: text, pos: start, end: i}
		}
	}
	return token{kind: tkNumeric, str: text, pos: start, end: i}
}

func (lx *lexer) junk(start, end int, msg string) token {
	return lx.errTok(lx.errorAt(pgerror.SyntaxError, msg, start, end), start)
}

// dollar lexes $n parameters and $tag$...$tag$ strings.
func (lx *lexer) dollar(start int) token {
	src := lx.src
	i := start + 1
	if i < len(src) && isDigit(src[i]) {
		for i < len(src) && isDigit(src[i]) {
			i++
		}
		if i < len(src) && isIdentStart(src[i]) {
			for i < len(src) && isIdentCont(src[i]) {
				i++
			}
			return lx.junk(start, i, "trailing junk after parameter")
		}
		n, err := strconv.ParseInt(src[start+1:i], 10, 32)
		if err != nil {
			return lx.junk(start, i, "parameter number too large")
		}
		lx.pos = i
		return token{kind: tkParam, num: int(n), pos: start, end: i}
	}
	// A dollar-quote delimiter: $$ or $tag$ where tag is an identifier
	// without '$'.
	for i < len(src) && src[i] != '$' && (isIdentStart(src[i]) || i > start+1 && isDigit(src[i])) {
		i++
	}
	if i < len(src) && src[i] == '$' {
		delim := src[start : i+1]
		body := i + 1
		k := strings.Index(src[body:], delim)
		if k < 0 {
			return lx.errTok(lx.errorAt(pgerror.SyntaxError, "unterminated dollar-quoted string", start, len(src)), start)
		}
		lx.pos = body + k + len(delim)
		return token{kind: tkString, str: src[body : body+k], pos: start, end: lx.pos}
	}
	// A lone '$' (or "$abc" without a closing '$'): PostgreSQL hands the
	// grammar the '$' alone, which no rule accepts.
	lx.pos = start + 1
	return token{kind: tkOther, str: "$", pos: start, end: start + 1}
}

// operator lexes a run of operator characters by PostgreSQL's rules: the
// run stops before a comment start, and a multi-character operator may end
// in + or - only if it contains one of ~ ! @ # % ^ & | ` ?, so that "a*-b"
// reads as a * (-b) rather than an unknown operator *-.
func (lx *lexer) operator(start int) token {
	src := lx.src
	i := start
	for i < len(src) && lx.isOpChar(src[i]) {
		if i > start && (src[i-1] == '/' && src[i] == '*' || src[i-1] == '-' && src[i] == '-') {
			i--
			break
		}
		i++
	}
	n := i - start
	if n > 1 && (src[i-1] == '+' || src[i-1] == '-') {
		special := false
		for _, c := range []byte(src[start : i-1]) {
			if strings.IndexByte("~!@#^&|`?%", c) >= 0 {
				special = true
				break
			}
		}
		if !special {
			for n > 1 && (src[start+n-1] == '+' || src[start+n-1] == '-') {
				n--
			}
		}
	}
	end := start + n
	lx.pos = end
	text := src[start:end]
	if text == "!=" {
		text = "<>" // the grammar reads != as <>
	}
	if n >= namedataLen {
		return lx.errTok(lx.errorAt(pgerror.SyntaxError, "operator too long", start, end), start)
	}
	return token{kind: tkOp, str: text, pos: start, end: end}
}

// delimited lexes "quoted identifiers" ("" stands for one quote), or in the
// Databricks dialect "strings" and `identifiers`.
func (lx *lexer) delimited(start int, q byte, kind tokKind) token {
	src := lx.src
	var b strings.Builder
	i := start + 1
	for {
		k := strings.IndexByte(src[i:], q)
		if k < 0 {
			if kind == tkString {
				return lx.errTok(lx.errorAt(pgerror.SyntaxError, "unterminated quoted string", start, len(src)), start)
			}
			return lx.errTok(lx.errorAt(pgerror.SyntaxError, "unterminated quoted identifier", start, len(src)), start)
		}
		b.WriteString(src[i : i+k])
		i += k + 1
		if i < len(src) && src[i] == q {
			b.WriteByte(q)
			i++
			continue
		}
		break
	}
	lx.pos = i
	s := b.String()
	if kind == tkQIdent {
		if s == "" {
			return lx.errTok(lx.errorAt(pgerror.SyntaxError, "zero-length delimited identifier", start, i), start)
		}
		s = truncateIdent(s)
	}
	return token{kind: kind, str: s, pos: start, end: i}
}

// escapeMode says how backslashes inside a quoted string are read.
type escapeMode uint8

const (
	escapeNone      escapeMode = iota // '...' (standard_conforming_strings on)
	escapeBackslash                   // E'...'
)

// quotedString lexes '...' and E'...' literals, including PostgreSQL's
// concatenation of literals separated by whitespace containing a newline
// ('a'<newline>'b' is 'ab'). quote is the offset of the opening quote.
func (lx *lexer) quotedString(start, quote int, mode escapeMode) token {
	src := lx.src
	sb := &stringBuf{}
	i := quote + 1
	for {
		if i >= len(src) {
			return lx.errTok(lx.errorAt(pgerror.SyntaxError, "unterminated quoted string", start, len(src)), start)
		}
		c := src[i]
		switch {
		case c == '\'':
			if i+1 < len(src) && src[i+1] == '\'' {
				sb.b = append(sb.b, '\'')
				i += 2
				continue
			}
			i++
			if next, ok := lx.continuation(i); ok {
				i = next + 1
				continue
			}
			lx.pos = i
			if sb.rawBytes {
				if e := checkUTF8(sb.b); e != nil {
					return lx.errTok(e, start)
				}
			}
			return token{kind: tkString, str: string(sb.b), pos: start, end: i}
		case c == '\\' && mode == escapeBackslash:
			next, err := lx.backslashEscape(sb, i)
			if err != nil {
				return lx.errTok(err, i)
			}
			i = next
		default:
			// Copy a run of ordinary characters at once.
			j := i + 1
			for j < len(src) && src[j] != '\'' && !(src[j] == '\\' && mode == escapeBackslash) {
				j++
			}
			sb.b = append(sb.b, src[i:j]...)
			i = j
		}
	}
}

// stringBuf collects the value of a string literal.
type stringBuf struct {
	b []byte
	// rawBytes is set when an escape produced a byte that may not be valid
	// UTF-8 on its own (\xff, \0): the whole value is checked at the end.
	rawBytes bool
}

// continuation reports whether the literal that just closed before offset i
// continues: whitespace holding at least one newline (line comments allowed)
// and then another quote. It returns the offset of that quote.
func (lx *lexer) continuation(i int) (int, bool) {
	src := lx.src
	sawNewline := false
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n' || c == '\r':
			sawNewline = true
			i++
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
			i++
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			for i < len(src) && src[i] != '\n' && src[i] != '\r' {
				i++
			}
		case c == '\'' && sawNewline:
			return i, true
		default:
			return 0, false
		}
	}
	return 0, false
}

// backslashEscape reads one backslash escape of an E” string at src[i] and
// returns the offset after it.
func (lx *lexer) backslashEscape(sb *stringBuf, i int) (int, *pgerror.Error) {
	src := lx.src
	if i+1 >= len(src) {
		// A backslash at the very end escapes nothing: the string is open,
		// and the caller reports it unterminated.
		return len(src), nil
	}
	c := src[i+1]
	switch c {
	case 'b':
		sb.b = append(sb.b, '\b')
		return i + 2, nil
	case 'f':
		sb.b = append(sb.b, '\f')
		return i + 2, nil
	case 'n':
		sb.b = append(sb.b, '\n')
		return i + 2, nil
	case 'r':
		sb.b = append(sb.b, '\r')
		return i + 2, nil
	case 't':
		sb.b = append(sb.b, '\t')
		return i + 2, nil
	case 'x':
		j := i + 2
		v := 0
		for j < len(src) && j < i+4 && isHex(src[j]) {
			v = v*16 + hexVal(src[j])
			j++
		}
		if j == i+2 {
			sb.b = append(sb.b, 'x') // \x without digits is just x
			return i + 2, nil
		}
		sb.addByte(byte(v))
		return j, nil
	case 'u', 'U':
		return lx.unicodeEscape(sb, i)
	}
	if c >= '0' && c <= '7' {
		j := i + 1
		v := 0
		for j < len(src) && j < i+4 && src[j] >= '0' && src[j] <= '7' {
			v = v*8 + int(src[j]-'0')
			j++
		}
		sb.addByte(byte(v))
		return j, nil
	}
	// Any other escaped character stands for itself (\' \\ \q ...); keep a
	// multi-byte character whole.
	_, n := utf8.DecodeRuneInString(src[i+1:])
	sb.b = append(sb.b, src[i+1:i+1+n]...)
	return i + 1 + n, nil
}

func (sb *stringBuf) addByte(v byte) {
	sb.b = append(sb.b, v)
	if v == 0 || v >= 0x80 {
		sb.rawBytes = true
	}
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	default:
		return int(c-'A') + 10
	}
}

// unicodeEscape reads \uXXXX or \UXXXXXXXX in an E” string, joining UTF-16
// surrogate pairs as PostgreSQL does.
func (lx *lexer) unicodeEscape(sb *stringBuf, i int) (int, *pgerror.Error) {
	cp, j, ok := lx.readUnicode(i)
	if !ok {
		return i, pgerror.New(pgerror.InvalidEscapeSequence, "invalid Unicode escape").
			WithHint(`Unicode escapes must be \uXXXX or \UXXXXXXXX.`).
			WithPosition(runePosition(lx.src, i))
	}
	switch {
	case cp >= 0xD800 && cp <= 0xDBFF:
		// A first surrogate must be followed at once by a second one.
		lo, k, ok2 := lx.readUnicode(j)
		if !ok2 || lo < 0xDC00 || lo > 0xDFFF {
			return i, lx.errorAt(pgerror.SyntaxError, "invalid Unicode surrogate pair", j, lx.escapeUnitEnd(j))
		}
		cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)
		j = k
	case cp >= 0xDC00 && cp <= 0xDFFF:
		return i, lx.errorAt(pgerror.SyntaxError, "invalid Unicode surrogate pair", i, j)
	case cp == 0 || cp > 0x10FFFF:
		return i, lx.errorAt(pgerror.SyntaxError, "invalid Unicode escape value", i, j)
	}
	sb.b = utf8.AppendRune(sb.b, rune(cp))
	return j, nil
}

// readUnicode reads \uXXXX or \UXXXXXXXX at src[i].
func (lx *lexer) readUnicode(i int) (int, int, bool) {
	src := lx.src
	if i+1 >= len(src) || src[i] != '\\' || (src[i+1] != 'u' && src[i+1] != 'U') {
		return 0, i, false
	}
	n := 4
	if src[i+1] == 'U' {
		n = 8
	}
	if i+2+n > len(src) {
		return 0, i, false
	}
	v := 0
	for k := i + 2; k < i+2+n; k++ {
		if !isHex(src[k]) {
			return 0, i, false
		}
		v = v*16 + hexVal(src[k])
	}
	return v, i + 2 + n, true
}

// escapeUnitEnd is where the scanner unit starting at src[i] ends, for the
// "at or near" text of an error: a quote, one backslash escape, or a run of
// plain characters.
func (lx *lexer) escapeUnitEnd(i int) int {
	src := lx.src
	if i >= len(src) {
		return i
	}
	switch src[i] {
	case '\'':
		return i + 1
	case '\\':
		if _, j, ok := lx.readUnicode(i); ok {
			return j
		}
		if i+1 < len(src) {
			return i + 2
		}
		return i + 1
	}
	j := i
	for j < len(src) && src[j] != '\'' && src[j] != '\\' {
		j++
	}
	return j
}

// checkUTF8 verifies a literal built from byte escapes, with PostgreSQL's
// message (which carries no position).
func checkUTF8(b []byte) *pgerror.Error {
	for i := 0; i < len(b); {
		if b[i] == 0 {
			return pgerror.New(pgerror.CharacterNotInRepertoire, `invalid byte sequence for encoding "UTF8": 0x00`)
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return pgerror.New(pgerror.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": %s", badSequence(b[i:]))
		}
		i += n
	}
	return nil
}

// badSequence formats the bytes of a broken UTF-8 character the way
// PostgreSQL's report_invalid_encoding does: as many bytes as the lead byte
// announces, "0xc3 0x28".
func badSequence(b []byte) string {
	n := 1
	switch c := b[0]; {
	case c&0xe0 == 0xc0:
		n = 2
	case c&0xf0 == 0xe0:
		n = 3
	case c&0xf8 == 0xf0:
		n = 4
	}
	if n > len(b) {
		n = len(b)
	}
	parts := make([]string, n)
	for k := 0; k < n; k++ {
		parts[k] = fmt.Sprintf("0x%02x", b[k])
	}
	return strings.Join(parts, " ")
}

// bitString lexes B'0101' and X'1F'. PostgreSQL checks the digits later, in
// bit_in, so any characters are accepted here.
func (lx *lexer) bitString(start int, prefix byte) token {
	src := lx.src
	i := start + 2
	var b []byte
	b = append(b, prefix)
	for {
		k := strings.IndexByte(src[i:], '\'')
		if k < 0 {
			msg := "unterminated bit string literal"
			if prefix == 'x' {
				msg = "unterminated hexadecimal string literal"
			}
			return lx.errTok(lx.errorAt(pgerror.SyntaxError, msg, start, len(src)), start)
		}
		b = append(b, src[i:i+k]...)
		i += k + 1
		if next, ok := lx.continuation(i); ok {
			i = next + 1
			continue
		}
		break
	}
	lx.pos = i
	return token{kind: tkBitString, str: string(b), pos: start, end: i}
}
