package builtins

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// parse_ident(qualified text [, strict bool DEFAULT true]) splits a
// qualified identifier into its parts, as PostgreSQL's does: unquoted
// parts are lower-cased (not cut to 63 bytes), quoted ones kept as
// written with "" read as ", whitespace around the dots skipped. With
// strict false, anything after the last identifier is ignored. Grafana
// sends it to find a table's schema.

func init() {
	call := func(_ eval.Context, a []types.Value) (types.Value, error) {
		strict := true
		if len(a) > 1 {
			strict = a[1].(bool)
		}
		parts, err := parseIdent(a[0].(string), strict)
		if err != nil {
			return nil, err
		}
		return textArray(parts), nil
	}
	Register("parse_ident", overloaded(true,
		sig(types.TextArray, call, types.Text),
		sig(types.TextArray, call, types.Text, types.Bool)))
}

func parseIdent(s string, strict bool) ([]string, error) {
	invalid := func() *pgerror.Error {
		return pgerror.New(pgerror.InvalidParameterValue, "string is not a valid identifier: \"%s\"", s)
	}
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
	isStart := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80 }
	isCont := func(c byte) bool { return isStart(c) || c >= '0' && c <= '9' || c == '$' }
	i := 0
	skipSpace := func() {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
	}
	var parts []string
	afterDot := false
	skipSpace()
	for {
		found := false
		switch {
		case i < len(s) && s[i] == '"':
			var b strings.Builder
			i++
			for {
				end := strings.IndexByte(s[i:], '"')
				if end < 0 {
					return nil, invalid().WithDetail("String has unclosed double quotes.")
				}
				b.WriteString(s[i : i+end])
				i += end + 1
				if i < len(s) && s[i] == '"' {
					b.WriteByte('"')
					i++
					continue
				}
				break
			}
			if b.Len() == 0 {
				return nil, invalid().WithDetail("Quoted identifier must not be empty.")
			}
			parts = append(parts, b.String())
			found = true
		case i < len(s) && isStart(s[i]):
			start := i
			for i++; i < len(s) && isCont(s[i]); i++ {
			}
			name := strings.Map(func(r rune) rune {
				if r >= 'A' && r <= 'Z' {
					return r + 'a' - 'A'
				}
				return r
			}, s[start:i])
			parts = append(parts, name)
			found = true
		}
		if !found {
			switch {
			case i < len(s) && s[i] == '.':
				return nil, invalid().WithDetail("No valid identifier before \".\".")
			case afterDot:
				return nil, invalid().WithDetail("No valid identifier after \".\".")
			}
			return nil, invalid()
		}
		skipSpace()
		switch {
		case i < len(s) && s[i] == '.':
			afterDot = true
			i++
			skipSpace()
		case i >= len(s):
			return parts, nil
		default:
			if strict {
				return nil, invalid()
			}
			return parts, nil
		}
	}
}
