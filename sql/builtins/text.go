package builtins

import (
	"encoding/base64"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/sql/parse"
	"cdcdb/types"
)

// More string functions: format, regexp_match(es), regexp_split_to_*,
// translate, encode/decode, string_to_array,
// quote_nullable, num_nulls / num_nonnulls.

func init() {
	Register("format", &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) == 0 {
			return nil, types.T{}, ErrNoFunction
		}
		f, err := b.Coerce(args[0], eval.TextT())
		if err != nil {
			return nil, types.T{}, ErrNoFunction
		}
		out := []eval.Expr{f}
		for _, a := range args[1:] {
			out = append(out, asOutputText(b.ResolveUnknown(a)))
		}
		return out, eval.TextT(), nil
	}, Call: formatFunc})
	Register("quote_nullable", &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != 1 {
			return nil, types.T{}, ErrNoFunction
		}
		return []eval.Expr{asOutputText(b.ResolveUnknown(args[0]))}, eval.TextT(), nil
	}, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		if a[0] == nil {
			return "NULL", nil
		}
		return parse.QuoteLiteral(a[0].(string)), nil
	}})
	Register("translate", &Func{Resolve: Signature(types.Text, types.Text, types.Text, types.Text), Strict: true, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		from, to := []rune(a[1].(string)), []rune(a[2].(string))
		return strings.Map(func(r rune) rune {
			for i, f := range from {
				if f == r {
					if i < len(to) {
						return to[i]
					}
					return -1
				}
			}
			return r
		}, a[0].(string)), nil
	}})
	Register("regexp_match", overloaded(true,
		sig(types.TextArray, regexpMatch, types.Text, types.Text),
		sig(types.TextArray, regexpMatch, types.Text, types.Text, types.Text)))
	Register("regexp_split_to_array", overloaded(true,
		sig(types.TextArray, func(_ eval.Context, a []types.Value) (types.Value, error) {
			parts, err := regexpSplit(a)
			if err != nil {
				return nil, err
			}
			return textArray(parts), nil
		}, types.Text, types.Text),
		sig(types.TextArray, func(_ eval.Context, a []types.Value) (types.Value, error) {
			parts, err := regexpSplit(a)
			if err != nil {
				return nil, err
			}
			return textArray(parts), nil
		}, types.Text, types.Text, types.Text)))
	RegisterSet("regexp_matches", &SetFunc{Strict: true, Resolve: textTableFunc("regexp_matches", types.TextArray, 2, 3), Gen: func(_ eval.Context, a []types.Value) ([]eval.Row, error) {
		flags := ""
		if len(a) == 3 {
			flags = a[2].(string)
		}
		re, err := regexpFor(a[1].(string), flags)
		if err != nil {
			return nil, err
		}
		n := 1
		if strings.Contains(flags, "g") {
			n = -1
		}
		var rows []eval.Row
		for _, m := range re.FindAllStringSubmatchIndex(a[0].(string), n) {
			rows = append(rows, eval.Row{matchGroups(a[0].(string), m)})
		}
		return rows, nil
	}})
	RegisterSet("regexp_split_to_table", &SetFunc{Strict: true, Resolve: textTableFunc("regexp_split_to_table", types.Text, 2, 3), Gen: func(_ eval.Context, a []types.Value) ([]eval.Row, error) {
		parts, err := regexpSplit(a)
		if err != nil {
			return nil, err
		}
		rows := make([]eval.Row, len(parts))
		for i, p := range parts {
			rows[i] = eval.Row{p}
		}
		return rows, nil
	}})
	Register("string_to_array", overloaded(false,
		sig(types.TextArray, stringToArray, types.Text, types.Text),
		sig(types.TextArray, stringToArray, types.Text, types.Text, types.Text)))
	Register("encode", overloaded(true, sig(types.Text, func(_ eval.Context, a []types.Value) (types.Value, error) {
		b := a[0].([]byte)
		switch strings.ToLower(a[1].(string)) {
		case "hex":
			return hex.EncodeToString(b), nil
		case "base64":
			return wrapBase64(base64.StdEncoding.EncodeToString(b)), nil
		case "escape":
			return types.FormatText(types.Of(types.Bytea), b), nil
		}
		return nil, pgerror.New(pgerror.InvalidParameterValue, "unrecognized encoding: \"%s\"", a[1].(string))
	}, types.Bytea, types.Text)))
	Register("decode", overloaded(true, sig(types.Bytea, func(_ eval.Context, a []types.Value) (types.Value, error) {
		s := a[0].(string)
		switch strings.ToLower(a[1].(string)) {
		case "hex":
			b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
			if err != nil {
				return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid hexadecimal data: odd number of digits")
			}
			return b, nil
		case "base64":
			b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
			if err != nil {
				return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid base64 end sequence").WithHint("Input data is missing padding, is truncated, or is otherwise corrupted.")
			}
			return b, nil
		case "escape":
			return types.ParseText(types.Of(types.Bytea), s)
		}
		return nil, pgerror.New(pgerror.InvalidParameterValue, "unrecognized encoding: \"%s\"", a[1].(string))
	}, types.Text, types.Text)))
	Register("convert_to", overloaded(true, sig(types.Bytea, func(_ eval.Context, a []types.Value) (types.Value, error) {
		if err := checkUTF8Name(a[1].(string)); err != nil {
			return nil, err
		}
		return []byte(a[0].(string)), nil
	}, types.Text, types.Text)))
	Register("convert_from", overloaded(true, sig(types.Text, func(_ eval.Context, a []types.Value) (types.Value, error) {
		if err := checkUTF8Name(a[1].(string)); err != nil {
			return nil, err
		}
		return types.ParseText(types.Of(types.Text), string(a[0].([]byte)))
	}, types.Bytea, types.Text)))
	counter := func(nulls bool) *Func {
		return &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
			if len(args) == 0 {
				return nil, types.T{}, ErrNoFunction
			}
			out := make([]eval.Expr, len(args))
			for i, a := range args {
				out[i] = b.ResolveUnknown(a)
			}
			return out, eval.Int4T(), nil
		}, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
			n := int64(0)
			for _, v := range a {
				if (v == nil) == nulls {
					n++
				}
			}
			return n, nil
		}}
	}
	Register("num_nulls", counter(true))
	Register("num_nonnulls", counter(false))
}

// outputTextExpr is a value as its type's output function writes it
// (true as t, a date in the session's DateStyle), which is what concat and
// format insert; a cast to text differs for booleans.
type outputTextExpr struct{ x eval.Expr }

func (e *outputTextExpr) Eval(env *eval.Env) (types.Value, error) {
	v, err := e.x.Eval(env)
	if err != nil || v == nil {
		return nil, err
	}
	if s, ok := v.(string); ok && eval.TypeCategory(e.x.Type().OID) == 'S' {
		return s, nil
	}
	return env.X.FormatValue(e.x.Type(), v), nil
}
func (e *outputTextExpr) Type() types.T { return eval.TextT() }

func asOutputText(x eval.Expr) eval.Expr {
	if x.Type().OID == types.Text {
		return x
	}
	return &outputTextExpr{x: x}
}

// formatFunc is format(fmt, args...): %s, %I, %L and %%, with argument
// positions (%2$s), widths (%-10s, %*s) as PostgreSQL's format().
func formatFunc(_ eval.Context, a []types.Value) (types.Value, error) {
	if a[0] == nil {
		return nil, nil
	}
	f := a[0].(string)
	args := a[1:]
	var sb strings.Builder
	next := 0
	arg := func(i int) (types.Value, error) {
		if i >= len(args) {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "too few arguments for format()")
		}
		return args[i], nil
	}
	readNum := func(i int) (int, int) {
		j := i
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		n, _ := strconv.Atoi(f[i:j])
		return n, j
	}
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			sb.WriteByte(c)
			continue
		}
		i++
		if i >= len(f) {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "unterminated format() type specifier").WithHint("For a single \"%%\" use \"%%%%\".")
		}
		if f[i] == '%' {
			sb.WriteByte('%')
			continue
		}
		// [argpos$][flags][width]type
		pos := -1
		if n, j := readNum(i); j > i && j < len(f) && f[j] == '$' {
			if n == 0 {
				return nil, pgerror.New(pgerror.InvalidParameterValue, "format specifies argument 0, but arguments are numbered from 1")
			}
			pos, i = n-1, j+1
		}
		left := false
		if i < len(f) && f[i] == '-' {
			left, i = true, i+1
		}
		width := 0
		switch {
		case i < len(f) && f[i] == '*':
			i++
			wpos := next
			if n, j := readNum(i); j > i && j < len(f) && f[j] == '$' {
				wpos, i = n-1, j+1
			} else {
				next++
			}
			wv, err := arg(wpos)
			if err != nil {
				return nil, err
			}
			if wv != nil {
				w, err := strconv.Atoi(wv.(string))
				if err != nil {
					return nil, pgerror.New(pgerror.InvalidParameterValue, "width argument must be an integer")
				}
				if w < 0 {
					left, w = true, -w
				}
				width = w
			}
		default:
			var j int
			width, j = readNum(i)
			i = j
		}
		if i >= len(f) {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "unterminated format() type specifier").WithHint("For a single \"%%\" use \"%%%%\".")
		}
		if pos < 0 {
			pos = next
		}
		next = pos + 1
		v, err := arg(pos)
		if err != nil {
			return nil, err
		}
		var s string
		switch f[i] {
		case 's':
			if v != nil {
				s = v.(string)
			}
		case 'I':
			if v == nil {
				return nil, pgerror.New(pgerror.NullValueNotAllowed, "null values cannot be formatted as an SQL identifier")
			}
			s = parse.QuoteIdent(v.(string))
		case 'L':
			s = "NULL"
			if v != nil {
				s = parse.QuoteLiteral(v.(string))
			}
		default:
			return nil, pgerror.New(pgerror.InvalidParameterValue, "unrecognized format() type specifier \"%c\"", f[i]).WithHint("For a single \"%%\" use \"%%%%\".")
		}
		if pad := width - len([]rune(s)); pad > 0 {
			if left {
				s += strings.Repeat(" ", pad)
			} else {
				s = strings.Repeat(" ", pad) + s
			}
		}
		sb.WriteString(s)
	}
	return sb.String(), nil
}

// regexpFor compiles a pattern with PostgreSQL's regexp flags (i, g, ...).
func regexpFor(pattern, flags string) (*regexp.Regexp, error) {
	for _, f := range flags {
		if !strings.ContainsRune("igcnpswxqbe", f) {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid regular expression option: \"%c\"", f)
		}
	}
	return eval.CompileRegex(&regexpMu, regexpCache, pattern, strings.Contains(flags, "i"))
}

// matchGroups is a match as regexp_match returns it: the capture groups,
// or the whole match when the pattern has none.
func matchGroups(s string, m []int) types.Value {
	var elems []types.Value
	if len(m) == 2 {
		elems = []types.Value{s[m[0]:m[1]]}
	}
	for g := 2; g+1 < len(m); g += 2 {
		if m[g] < 0 {
			elems = append(elems, nil)
		} else {
			elems = append(elems, s[m[g]:m[g+1]])
		}
	}
	return types.ArrayValue{Elem: types.Text, Elems: elems}
}

func regexpMatch(_ eval.Context, a []types.Value) (types.Value, error) {
	flags := ""
	if len(a) == 3 {
		flags = a[2].(string)
		if strings.Contains(flags, "g") {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "regexp_match() does not support the \"global\" option").WithHint("Use the regexp_matches function instead.")
		}
	}
	re, err := regexpFor(a[1].(string), flags)
	if err != nil {
		return nil, err
	}
	m := re.FindStringSubmatchIndex(a[0].(string))
	if m == nil {
		return nil, nil
	}
	return matchGroups(a[0].(string), m), nil
}

// regexpSplit splits text at the pattern's matches; an empty match splits
// between characters.
func regexpSplit(a []types.Value) ([]string, error) {
	flags := ""
	if len(a) == 3 {
		flags = a[2].(string)
	}
	re, err := regexpFor(a[1].(string), flags)
	if err != nil {
		return nil, err
	}
	s := a[0].(string)
	var parts []string
	start := 0
	for _, m := range re.FindAllStringIndex(s, -1) {
		if m[1] == m[0] {
			if m[0] == 0 || m[0] >= len(s) {
				continue
			}
		}
		if m[0] == m[1] && m[0] == start {
			continue
		}
		parts = append(parts, s[start:m[0]])
		start = m[1]
	}
	return append(parts, s[start:]), nil
}

func textArray(parts []string) types.ArrayValue {
	elems := make([]types.Value, len(parts))
	for i, p := range parts {
		elems[i] = p
	}
	return types.ArrayValue{Elem: types.Text, Elems: elems}
}

// textTableFunc resolves a set-returning function of min..max text
// arguments with one output column.
func textTableFunc(name string, out types.OID, min, max int) func(b eval.Binder, args []eval.Expr) ([]eval.Expr, []Column, error) {
	return func(b eval.Binder, args []eval.Expr) ([]eval.Expr, []Column, error) {
		if len(args) < min || len(args) > max {
			return nil, nil, ErrNoFunction
		}
		coerced := make([]eval.Expr, len(args))
		for i, a := range args {
			c, err := b.Coerce(a, eval.TextT())
			if err != nil {
				return nil, nil, ErrNoFunction
			}
			coerced[i] = c
		}
		return coerced, []Column{{Name: name, T: types.Of(out)}}, nil
	}
}

// stringToArray is string_to_array(text, delimiter [, null string]): a NULL
// delimiter splits into characters, an empty one gives the whole string.
func stringToArray(_ eval.Context, a []types.Value) (types.Value, error) {
	if a[0] == nil {
		return nil, nil
	}
	s := a[0].(string)
	var parts []string
	switch {
	case s == "":
		parts = nil
	case a[1] == nil:
		for _, r := range s {
			parts = append(parts, string(r))
		}
	case a[1].(string) == "":
		parts = []string{s}
	default:
		parts = strings.Split(s, a[1].(string))
	}
	arr := textArray(parts)
	if len(a) == 3 && a[2] != nil {
		for i, p := range parts {
			if p == a[2].(string) {
				arr.Elems[i] = nil
			}
		}
	}
	return arr, nil
}

// wrapBase64 breaks base64 text into lines of 76 characters, as
// PostgreSQL's encode() does.
func wrapBase64(s string) string {
	var sb strings.Builder
	for len(s) > 76 {
		sb.WriteString(s[:76])
		sb.WriteByte('\n')
		s = s[76:]
	}
	sb.WriteString(s)
	return sb.String()
}

// checkUTF8Name accepts the names of the one encoding cdcdb stores.
func checkUTF8Name(name string) error {
	switch strings.ToUpper(strings.ReplaceAll(strings.ReplaceAll(name, "-", ""), "_", "")) {
	case "UTF8", "UNICODE":
		return nil
	}
	return pgerror.New(pgerror.InvalidParameterValue, "invalid destination encoding name \"%s\"", name)
}
