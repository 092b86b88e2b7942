package builtins

import (
	"crypto/md5"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

func textFn(f func(s string) types.Value) *Func {
	return &Func{Resolve: Signature(types.Text, types.Text), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		return f(a[0].(string)), nil
	}}
}

func init() {
	// Case mapping follows the C locale cdcdb collates in: ASCII letters
	// only, as PostgreSQL with LC_CTYPE=C.
	Register("lower", textFn(func(s string) types.Value { return asciiCase(s, unicode.ToLower) }))
	Register("upper", textFn(func(s string) types.Value { return asciiCase(s, unicode.ToUpper) }))
	Register("initcap", textFn(func(s string) types.Value {
		var sb strings.Builder
		prevAlnum := false
		for _, r := range s {
			if prevAlnum {
				sb.WriteString(asciiCase(string(r), unicode.ToLower))
			} else {
				sb.WriteString(asciiCase(string(r), unicode.ToUpper))
			}
			// In the C locale only ASCII letters and digits are
			// alphanumeric, so é starts a new word.
			prevAlnum = r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r))
		}
		return sb.String()
	}))
	lengthFn := &Func{Resolve: Signature(types.Int4, types.Text), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		return int64(utf8.RuneCountInString(a[0].(string))), nil
	}}
	Register("length", overloaded(true,
		sig(types.Int4, lengthFn.Call, types.Text),
		sig(types.Int4, func(_ eval.Context, a []types.Value) (types.Value, error) {
			return int64(len(a[0].([]byte))), nil
		}, types.Bytea)))
	Register("char_length", lengthFn)
	Register("character_length", lengthFn)
	// octet_length of a character(n) counts its padding, as PostgreSQL's
	// bpchar variant does.
	octets := func(_ eval.Context, a []types.Value) (types.Value, error) {
		if b, ok := a[0].([]byte); ok {
			return int64(len(b)), nil
		}
		return int64(len(a[0].(string))), nil
	}
	Register("octet_length", overloaded(true,
		sig(types.Int4, octets, types.Text), sig(types.Int4, octets, types.Bpchar), sig(types.Int4, octets, types.Bytea)))
	bits := func(x eval.Context, a []types.Value) (types.Value, error) {
		n, err := octets(x, a)
		if err != nil {
			return nil, err
		}
		return n.(int64) * 8, nil
	}
	Register("bit_length", overloaded(true, sig(types.Int4, bits, types.Text), sig(types.Int4, bits, types.Bytea)))
	Register("reverse", textFn(func(s string) types.Value {
		r := []rune(s)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return string(r)
	}))
	Register("md5", textFn(func(s string) types.Value {
		h := md5.Sum([]byte(s))
		return hex.EncodeToString(h[:])
	}))
	Register("quote_ident", textFn(func(s string) types.Value { return parse.QuoteIdent(s) }))
	Register("quote_literal", textFn(func(s string) types.Value { return parse.QuoteLiteral(s) }))
	substr := &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) == 2 {
			return Signature(types.Text, types.Text, types.Int4)(b, args)
		}
		return Signature(types.Text, types.Text, types.Int4, types.Int4)(b, args)
	}, Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		r := []rune(a[0].(string))
		start := a[1].(int64)
		end := int64(len(r)) + 1
		if len(a) == 3 {
			n := a[2].(int64)
			if n < 0 {
				return nil, pgerror.New(pgerror.SubstringError, "negative substring length not allowed")
			}
			end = start + n
		}
		if start < 1 {
			start = 1
		}
		if end > int64(len(r))+1 {
			end = int64(len(r)) + 1
		}
		if start >= end {
			return "", nil
		}
		return string(r[start-1 : end-1]), nil
	}}
	Register("substr", substr) // substring's overloads are in regexp.go
	strpos := func(s, sub string) int64 {
		i := strings.Index(s, sub)
		if i < 0 {
			return 0
		}
		return int64(utf8.RuneCountInString(s[:i])) + 1
	}
	Register("strpos", &Func{Resolve: Signature(types.Int4, types.Text, types.Text), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		return strpos(a[0].(string), a[1].(string)), nil
	}})
	// The parser turns POSITION(a IN b) into position(a, b).
	Register("position", &Func{Resolve: Signature(types.Int4, types.Text, types.Text), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		return strpos(a[1].(string), a[0].(string)), nil
	}})
	Register("replace", &Func{Resolve: Signature(types.Text, types.Text, types.Text, types.Text), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		if a[1].(string) == "" {
			return a[0], nil
		}
		return strings.ReplaceAll(a[0].(string), a[1].(string), a[2].(string)), nil
	}})
	trimFn := func(f func(s, cut string) string) *Func {
		return &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
			if len(args) == 1 {
				return Signature(types.Text, types.Text)(b, args)
			}
			return Signature(types.Text, types.Text, types.Text)(b, args)
		}, Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
			cut := " "
			if len(a) == 2 {
				cut = a[1].(string)
			}
			return f(a[0].(string), cut), nil
		}}
	}
	Register("btrim", trimFn(strings.Trim))
	Register("trim", trimFn(strings.Trim))
	Register("ltrim", trimFn(strings.TrimLeft))
	Register("rtrim", trimFn(strings.TrimRight))
	// concat and concat_ws take any types, each turned into text by its
	// output function, and skip NULLs.
	anyAsText := func(min int) func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		return func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
			if len(args) < min {
				return nil, types.T{}, ErrNoFunction
			}
			out := make([]eval.Expr, len(args))
			for i, a := range args {
				out[i] = asOutputText(b.ResolveUnknown(a))
			}
			return out, eval.TextT(), nil
		}
	}
	Register("concat", &Func{Resolve: anyAsText(1), Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		var sb strings.Builder
		for _, v := range a {
			if v != nil {
				sb.WriteString(v.(string))
			}
		}
		return sb.String(), nil
	}})
	Register("concat_ws", &Func{Resolve: anyAsText(2), Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		if a[0] == nil {
			return nil, nil
		}
		var parts []string
		for _, v := range a[1:] {
			if v != nil {
				parts = append(parts, v.(string))
			}
		}
		return strings.Join(parts, a[0].(string)), nil
	}})
	Register("left", &Func{Resolve: Signature(types.Text, types.Text, types.Int4), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		r := []rune(a[0].(string))
		n := int(a[1].(int64))
		if n < 0 {
			n = max(len(r)+n, 0)
		}
		return string(r[:min(n, len(r))]), nil
	}})
	Register("right", &Func{Resolve: Signature(types.Text, types.Text, types.Int4), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		r := []rune(a[0].(string))
		n := int(a[1].(int64))
		if n < 0 {
			n = max(len(r)+n, 0)
		}
		n = min(n, len(r))
		return string(r[len(r)-n:]), nil
	}})
	Register("repeat", &Func{Resolve: Signature(types.Text, types.Text, types.Int4), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		n := a[1].(int64)
		if n <= 0 {
			return "", nil
		}
		if int64(len(a[0].(string)))*n > 1<<28 {
			return nil, pgerror.New(pgerror.ProgramLimitExceeded, "requested length too large")
		}
		return strings.Repeat(a[0].(string), int(n)), nil
	}})
	pad := func(left bool) *Func {
		return &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
			if len(args) == 2 {
				return Signature(types.Text, types.Text, types.Int4)(b, args)
			}
			return Signature(types.Text, types.Text, types.Int4, types.Text)(b, args)
		}, Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
			r := []rune(a[0].(string))
			n := int(a[1].(int64))
			fill := []rune(" ")
			if len(a) == 3 {
				fill = []rune(a[2].(string))
			}
			if n <= len(r) || len(fill) == 0 {
				return string(r[:max(min(n, len(r)), 0)]), nil
			}
			padding := make([]rune, 0, n-len(r))
			for i := 0; len(padding) < n-len(r); i++ {
				padding = append(padding, fill[i%len(fill)])
			}
			if left {
				return string(padding) + string(r), nil
			}
			return string(r) + string(padding), nil
		}}
	}
	Register("lpad", pad(true))
	Register("rpad", pad(false))
	Register("split_part", &Func{Resolve: Signature(types.Text, types.Text, types.Text, types.Int4), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		n := a[2].(int64)
		if n == 0 {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "field position must not be zero")
		}
		parts := []string{a[0].(string)}
		if a[1].(string) != "" {
			parts = strings.Split(a[0].(string), a[1].(string))
		}
		if n < 0 {
			n = int64(len(parts)) + n + 1
		}
		if n < 1 || n > int64(len(parts)) {
			return "", nil
		}
		return parts[n-1], nil
	}})
	Register("starts_with", &Func{Resolve: Signature(types.Bool, types.Text, types.Text), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		return strings.HasPrefix(a[0].(string), a[1].(string)), nil
	}})
	Register("chr", &Func{Resolve: Signature(types.Text, types.Int4), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		n := a[0].(int64)
		if n <= 0 || n > unicode.MaxRune {
			return nil, pgerror.New(pgerror.ProgramLimitExceeded, "requested character too large for encoding: %d", n)
		}
		return string(rune(n)), nil
	}})
	Register("ascii", &Func{Resolve: Signature(types.Int4, types.Text), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		r, _ := utf8.DecodeRuneInString(a[0].(string))
		if a[0].(string) == "" {
			return int64(0), nil
		}
		return int64(r), nil
	}})
	Register("to_hex", overloaded(true,
		sig(types.Text, func(_ eval.Context, a []types.Value) (types.Value, error) {
			return strconv.FormatUint(uint64(uint32(a[0].(int64))), 16), nil
		}, types.Int4),
		sig(types.Text, func(_ eval.Context, a []types.Value) (types.Value, error) {
			return strconv.FormatUint(uint64(a[0].(int64)), 16), nil
		}, types.Int8)))
}

var (
	regexpMu    sync.Mutex
	regexpCache = map[string]*regexp.Regexp{}
)

// regexpReplace is regexp_replace(source, pattern, replacement [, flags]):
// flag g replaces every match, i ignores case; \1..\9 and \& in the
// replacement insert groups as in PostgreSQL.
func regexpReplace(_ eval.Context, a []types.Value) (types.Value, error) {
	src, pat, repl := a[0].(string), a[1].(string), a[2].(string)
	flags := ""
	if len(a) == 4 {
		flags = a[3].(string)
	}
	re, err := regexpFor(pat, flags)
	if err != nil {
		return nil, err
	}
	goRepl := convertReplacement(repl)
	if strings.Contains(flags, "g") {
		return re.ReplaceAllString(src, goRepl), nil
	}
	loc := re.FindStringSubmatchIndex(src)
	if loc == nil {
		return src, nil
	}
	var dst []byte
	dst = re.ExpandString(dst, goRepl, src, loc)
	return src[:loc[0]] + string(dst) + src[loc[1]:], nil
}

// convertReplacement turns PostgreSQL's \1 and \& into Go's ${1} and ${0},
// and escapes Go's $.
func convertReplacement(r string) string {
	var sb strings.Builder
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == '$':
			sb.WriteString("$$")
		case c == '\\' && i+1 < len(r) && r[i+1] >= '0' && r[i+1] <= '9':
			sb.WriteString("${" + string(r[i+1]) + "}")
			i++
		case c == '\\' && i+1 < len(r) && r[i+1] == '&':
			sb.WriteString("${0}")
			i++
		case c == '\\' && i+1 < len(r) && r[i+1] == '\\':
			sb.WriteByte('\\')
			i++
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// asciiCase maps the case of ASCII letters and leaves every other
// character as it is.
func asciiCase(s string, to func(rune) rune) string {
	return strings.Map(func(r rune) rune {
		if r < 128 {
			return to(r)
		}
		return r
	}, s)
}
