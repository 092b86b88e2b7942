package builtins

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// PostgreSQL 15's regular expression functions with a start position and
// an occurrence (regexp_replace's extended forms, regexp_count,
// regexp_instr, regexp_substr, regexp_like), and substring's pattern forms
// (substring(s FROM regex) and substring(s SIMILAR pattern ESCAPE e)).
// Positions count characters from 1; the search for a start position looks
// at the text from that character on.

func init() {
	T, I := types.Text, types.Int4
	Register("regexp_replace", overloaded(true,
		sig(T, regexpReplace, T, T, T),
		sig(T, regexpReplace, T, T, T, T),
		sig(T, regexpReplaceN, T, T, T, I),
		sig(T, regexpReplaceN, T, T, T, I, I),
		sig(T, regexpReplaceN, T, T, T, I, I, T)))
	Register("regexp_count", overloaded(true,
		sig(I, regexpCount, T, T),
		sig(I, regexpCount, T, T, I),
		sig(I, regexpCount, T, T, I, T)))
	Register("regexp_instr", overloaded(true,
		sig(I, regexpInstr, T, T),
		sig(I, regexpInstr, T, T, I),
		sig(I, regexpInstr, T, T, I, I),
		sig(I, regexpInstr, T, T, I, I, I),
		sig(I, regexpInstr, T, T, I, I, I, T),
		sig(I, regexpInstr, T, T, I, I, I, T, I)))
	Register("regexp_substr", overloaded(true,
		sig(T, regexpSubstr, T, T),
		sig(T, regexpSubstr, T, T, I),
		sig(T, regexpSubstr, T, T, I, I),
		sig(T, regexpSubstr, T, T, I, I, T),
		sig(T, regexpSubstr, T, T, I, I, T, I)))
	Register("regexp_like", overloaded(true,
		sig(types.Bool, regexpLike, T, T),
		sig(types.Bool, regexpLike, T, T, T)))
	// substring's pattern forms come first, so unknown literals pick them
	// (PostgreSQL prefers the string category for unknowns); integer
	// arguments match the character-position forms exactly.
	Register("substring", overloaded(true,
		sig(T, substringRegex, T, T),
		sig(T, substringSimilar, T, T, T),
		sig(T, substrCall, T, I),
		sig(T, substrCall, T, I, I)))
}

// substrCall runs the substr builtin (character positions).
func substrCall(x eval.Context, a []types.Value) (types.Value, error) {
	return Funcs["substr"].Call(x, a)
}

// regexArgs reads the optional integer arguments of the regexp_*
// functions, validating each as PostgreSQL does ("start" >= 1, "n" >= 1,
// "endoption" and "subexpr" >= 0).
type regexArgs struct {
	src, pattern string
	start, n     int64
	endOption    int64
	flags        string
	subexpr      int64
}

func (r *regexArgs) check(fn string, a []types.Value, names []string) error {
	r.src, r.pattern = a[0].(string), a[1].(string)
	r.start, r.n = 1, 1
	for i, name := range names {
		if 2+i >= len(a) {
			break
		}
		v := a[2+i]
		switch name {
		case "flags":
			r.flags = v.(string)
			continue
		case "start":
			r.start = v.(int64)
			if r.start <= 0 {
				return badRegexParam(name, r.start)
			}
		case "n":
			r.n = v.(int64)
			if r.n <= 0 {
				return badRegexParam(name, r.n)
			}
		case "endoption":
			r.endOption = v.(int64)
			if r.endOption < 0 {
				return badRegexParam(name, r.endOption)
			}
		case "subexpr":
			r.subexpr = v.(int64)
			if r.subexpr < 0 {
				return badRegexParam(name, r.subexpr)
			}
		}
	}
	if strings.Contains(r.flags, "g") {
		return pgerror.New(pgerror.InvalidParameterValue, "%s() does not support the \"global\" option", fn)
	}
	return nil
}

func badRegexParam(name string, v int64) error {
	return pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"%s\": %d", name, v)
}

// runeOffset is the byte offset of character n (from 0) of s, or len(s).
func runeOffset(s string, n int64) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// charPos converts a byte offset into s to a character position from 1.
func charPos(s string, off int) int64 {
	return int64(utf8.RuneCountInString(s[:off])) + 1
}

// matchesFrom returns every non-overlapping match (with groups) of re in
// s at or after character start (from 1), as byte offsets into s.
func matchesFrom(re *regexp.Regexp, s string, start int64) [][]int {
	base := runeOffset(s, start-1)
	ms := re.FindAllStringSubmatchIndex(s[base:], -1)
	for _, m := range ms {
		for i := range m {
			if m[i] >= 0 {
				m[i] += base
			}
		}
	}
	return ms
}

// regexpReplaceN is regexp_replace(source, pattern, replacement, start
// [, n [, flags]]): replaces the n-th match at or after start, or every
// one when n is 0 (or flag g is given without n).
func regexpReplaceN(_ eval.Context, a []types.Value) (types.Value, error) {
	src, pat, repl := a[0].(string), a[1].(string), a[2].(string)
	start := a[3].(int64)
	if start <= 0 {
		return nil, badRegexParam("start", start)
	}
	n, flags := int64(1), ""
	if len(a) > 5 {
		flags = a[5].(string)
	}
	if len(a) > 4 {
		if n = a[4].(int64); n < 0 {
			return nil, badRegexParam("n", n)
		}
	} else if strings.Contains(flags, "g") {
		n = 0
	}
	re, err := regexpFor(pat, flags)
	if err != nil {
		return nil, err
	}
	goRepl := convertReplacement(repl)
	var sb strings.Builder
	last := 0
	for i, m := range matchesFrom(re, src, start) {
		if n != 0 && int64(i+1) != n {
			continue
		}
		sb.WriteString(src[last:m[0]])
		sb.Write(re.ExpandString(nil, goRepl, src, m))
		last = m[1]
		if n != 0 {
			break
		}
	}
	sb.WriteString(src[last:])
	return sb.String(), nil
}

// regexpCount is regexp_count(string, pattern [, start [, flags]]).
func regexpCount(_ eval.Context, a []types.Value) (types.Value, error) {
	var r regexArgs
	if err := r.check("regexp_count", a, []string{"start", "flags"}); err != nil {
		return nil, err
	}
	re, err := regexpFor(r.pattern, r.flags)
	if err != nil {
		return nil, err
	}
	return int64(len(matchesFrom(re, r.src, r.start))), nil
}

// nthMatch finds the n-th match at or after start, nil when there are
// fewer.
func (r *regexArgs) nthMatch() ([]int, *regexp.Regexp, error) {
	re, err := regexpFor(r.pattern, r.flags)
	if err != nil {
		return nil, nil, err
	}
	ms := matchesFrom(re, r.src, r.start)
	if int64(len(ms)) < r.n {
		return nil, re, nil
	}
	return ms[r.n-1], re, nil
}

// regexpInstr is regexp_instr(string, pattern [, start [, n [, endoption
// [, flags [, subexpr]]]]]): where the n-th match (or its subexpr-th
// group) begins, or the character after it ends when endoption is not 0;
// 0 when there is no such match.
func regexpInstr(_ eval.Context, a []types.Value) (types.Value, error) {
	var r regexArgs
	if err := r.check("regexp_instr", a, []string{"start", "n", "endoption", "flags", "subexpr"}); err != nil {
		return nil, err
	}
	m, re, err := r.nthMatch()
	if err != nil || m == nil {
		return int64(0), err
	}
	if r.subexpr > int64(re.NumSubexp()) {
		return int64(0), nil
	}
	lo, hi := m[2*r.subexpr], m[2*r.subexpr+1]
	if lo < 0 {
		return int64(0), nil
	}
	if r.endOption != 0 {
		return charPos(r.src, hi), nil
	}
	return charPos(r.src, lo), nil
}

// regexpSubstr is regexp_substr(string, pattern [, start [, n [, flags
// [, subexpr]]]]): the text of the n-th match or of its subexpr-th group.
func regexpSubstr(_ eval.Context, a []types.Value) (types.Value, error) {
	var r regexArgs
	if err := r.check("regexp_substr", a, []string{"start", "n", "flags", "subexpr"}); err != nil {
		return nil, err
	}
	m, re, err := r.nthMatch()
	if err != nil || m == nil {
		return nil, err
	}
	if r.subexpr > int64(re.NumSubexp()) || m[2*r.subexpr] < 0 {
		return nil, nil
	}
	return r.src[m[2*r.subexpr]:m[2*r.subexpr+1]], nil
}

// regexpLike is regexp_like(string, pattern [, flags]).
func regexpLike(_ eval.Context, a []types.Value) (types.Value, error) {
	var r regexArgs
	if err := r.check("regexp_like", a, []string{"flags"}); err != nil {
		return nil, err
	}
	re, err := regexpFor(r.pattern, r.flags)
	if err != nil {
		return nil, err
	}
	return re.MatchString(r.src), nil
}

// substringRegex is substring(string FROM pattern): the part matching the
// POSIX pattern's first parenthesized group when it has one, else the
// whole match; NULL without a match.
func substringRegex(_ eval.Context, a []types.Value) (types.Value, error) {
	re, err := eval.CompileRegex(&regexpMu, regexpCache, a[1].(string), false)
	if err != nil {
		return nil, err
	}
	s := a[0].(string)
	m := re.FindStringSubmatchIndex(s)
	if m == nil {
		return nil, nil
	}
	if len(m) > 2 {
		if m[2] < 0 {
			return nil, nil
		}
		return s[m[2]:m[3]], nil
	}
	return s[m[0]:m[1]], nil
}

// substringSimilar is substring(string SIMILAR pattern ESCAPE escape)
// (also written substring(string FROM pattern FOR escape)): the pattern
// must match the whole string, and the part matching the section between
// the two escape-double-quote separators is returned; without separators,
// the whole string. As in PostgreSQL, the part before the first separator
// matches as little as possible.
func substringSimilar(_ eval.Context, a []types.Value) (types.Value, error) {
	s, pat, esc := a[0].(string), a[1].(string), a[2].(string)
	if utf8.RuneCountInString(esc) != 1 {
		return nil, pgerror.New(pgerror.InvalidEscapeSequence, "invalid escape string").WithHint("Escape string must be empty or one character.")
	}
	sep := esc + `"`
	parts := strings.Split(pat, sep)
	if len(parts) > 3 {
		return nil, pgerror.New(pgerror.InvalidUseOfEscapeCharacter, "SQL regular expression may not contain more than two escape-double-quote separators")
	}
	var src strings.Builder
	src.WriteString("(?s)^")
	for i, p := range parts {
		r, err := eval.SimilarToRegex(p, esc)
		if err != nil {
			return nil, err
		}
		// similarToRegex anchors its result as (?s)^(?:...)$; keep the
		// group.
		r = strings.TrimSuffix(strings.TrimPrefix(r, "(?s)^"), "$")
		switch {
		case len(parts) == 1:
			src.WriteString("(" + r + ")")
		case i == 0:
			src.WriteString("(?U:" + r + ")")
		case i == 1:
			src.WriteString("(" + r + ")")
		default:
			src.WriteString(r)
		}
	}
	if len(parts) == 2 {
		// One separator: the rest of the string after it is returned.
		src.Reset()
		r0, err := eval.SimilarToRegex(parts[0], esc)
		if err != nil {
			return nil, err
		}
		r1, err := eval.SimilarToRegex(parts[1], esc)
		if err != nil {
			return nil, err
		}
		src.WriteString("(?s)^(?U:" + strings.TrimSuffix(strings.TrimPrefix(r0, "(?s)^"), "$") + ")(" + strings.TrimSuffix(strings.TrimPrefix(r1, "(?s)^"), "$") + ")")
	}
	src.WriteString("$")
	re, err := eval.CompileRegex(&regexpMu, regexpCache, src.String(), false)
	if err != nil {
		return nil, err
	}
	m := re.FindStringSubmatchIndex(s)
	if m == nil || m[2] < 0 {
		return nil, nil
	}
	return s[m[2]:m[3]], nil
}
