package parse

import (
	"strconv"
	"strings"
)

// NumberConstant is a numeric constant ParameterizeNumbers took out of a
// statement's text.
type NumberConstant struct {
	// Text is the constant as written (digits, a point, an exponent).
	Text string
	// Integer reports an integer that fits int64; any other number is a
	// numeric.
	Integer bool
}

// ParameterizeNumbers returns a statement's text with each numeric constant
// replaced by a parameter, $1, $2, ... in order, and the constants. Texts
// that differ only in their numbers (a client that spells its values out,
// as pgbench -M simple does) then share one rewritten text, and a plan made
// for it can serve them all, given the constants as parameter values.
//
// ok is false when there is nothing to share or it could not be shared
// safely: a text that does not lex, holds parameters of its own or more
// than one statement, has no numeric constant, or has one right after a
// minus sign that changes its type (-2147483648 is an int4, as one
// constant, while 2147483648 is an int8). Whether the rewritten statement
// means the same as the original is the caller's to check: "ORDER BY 1"
// and "ORDER BY $1" do not.
func ParameterizeNumbers(src string, d Dialect) (text string, consts []NumberConstant, ok bool) {
	toks := lex(src, d)
	ended := false // a ';' was seen: anything but more ';' is a second statement
	for i, t := range toks {
		switch t.kind {
		case tkEOF:
		case tkError, tkOther, tkParam:
			return "", nil, false
		case tkOp:
			if t.str == ";" {
				ended = true
				continue
			}
		case tkInteger, tkNumeric:
			if i > 0 && toks[i-1].isOp("-") && numberClass(t.str) != numberClass("-"+t.str) {
				return "", nil, false
			}
			consts = append(consts, NumberConstant{Text: t.str, Integer: t.kind == tkInteger})
		}
		if ended && t.kind != tkEOF {
			return "", nil, false
		}
	}
	if len(consts) == 0 {
		return "", nil, false
	}
	var b strings.Builder
	b.Grow(len(src) + 4*len(consts))
	last, n := 0, 0
	for _, t := range toks {
		if t.kind != tkInteger && t.kind != tkNumeric {
			continue
		}
		n++
		// Spaces keep the parameter a token of its own whatever touches
		// the number (1::int, a[1:2], 5.).
		b.WriteString(src[last:t.pos])
		b.WriteString(" $")
		b.WriteString(strconv.Itoa(n))
		b.WriteByte(' ')
		last = t.end
	}
	b.WriteString(src[last:])
	return b.String(), consts, true
}

// numberClass is the type the binder gives a numeric constant: 4 for an
// int4, 8 for an int8, 0 for a numeric.
func numberClass(s string) int {
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case err != nil:
		return 0
	case n >= -2147483648 && n <= 2147483647:
		return 4
	}
	return 8
}
