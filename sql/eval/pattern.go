package eval

import (
	"regexp"
	"strings"
	"sync"

	"cdcdb/pgerror"
	"cdcdb/types"
)

// Like matches text against a LIKE, ILIKE or SIMILAR TO pattern. A
// constant pattern is compiled once; a computed one is compiled per distinct
// value through a small cache.
type Like struct {
	X, Pattern, Escape  Expr
	Not, Ilike, Similar bool

	mu    sync.Mutex
	cache map[string]*regexp.Regexp
}

func NewLike(x, pattern, escape Expr, not, ilike, similar bool) *Like {
	return &Like{X: x, Pattern: pattern, Escape: escape, Not: not, Ilike: ilike, Similar: similar, cache: map[string]*regexp.Regexp{}}
}

func (e *Like) Type() types.T { return BoolT() }

func (e *Like) Eval(env *Env) (types.Value, error) {
	s, err := e.X.Eval(env)
	if err != nil {
		return nil, err
	}
	p, err := e.Pattern.Eval(env)
	if err != nil {
		return nil, err
	}
	esc := types.Value("\\")
	if e.Escape != nil {
		if esc, err = e.Escape.Eval(env); err != nil {
			return nil, err
		}
	}
	if s == nil || p == nil || esc == nil {
		return nil, nil
	}
	re, err := e.compile(p.(string), esc.(string))
	if err != nil {
		return nil, err
	}
	return re.MatchString(s.(string)) != e.Not, nil
}

func (e *Like) compile(pattern, esc string) (*regexp.Regexp, error) {
	key := esc + "\x00" + pattern
	e.mu.Lock()
	re, ok := e.cache[key]
	e.mu.Unlock()
	if ok {
		return re, nil
	}
	var src string
	var err error
	if e.Similar {
		src, err = SimilarToRegex(pattern, esc)
	} else {
		src, err = likeToRegex(pattern, esc)
	}
	if err != nil {
		return nil, err
	}
	if e.Ilike {
		src = "(?i)" + src
	}
	re, err = regexp.Compile(src)
	if err != nil {
		return nil, regexError(err)
	}
	e.mu.Lock()
	if len(e.cache) > 64 {
		e.cache = map[string]*regexp.Regexp{}
	}
	e.cache[key] = re
	e.mu.Unlock()
	return re, nil
}

// likeToRegex translates a LIKE pattern: % is any string, _ any one
// character, the escape character quotes the next one.
func likeToRegex(p, esc string) (string, error) {
	escRune := rune(-1)
	if esc != "" {
		rs := []rune(esc)
		if len(rs) != 1 {
			return "", pgerror.New(pgerror.InvalidEscapeSequence, "invalid escape string").WithHint("Escape string must be empty or one character.")
		}
		escRune = rs[0]
	}
	var sb strings.Builder
	sb.WriteString("(?s)^")
	rs := []rune(p)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == escRune:
			if i+1 >= len(rs) {
				return "", pgerror.New(pgerror.InvalidEscapeSequence, "LIKE pattern must not end with escape character")
			}
			i++
			sb.WriteString(regexp.QuoteMeta(string(rs[i])))
		case r == '%':
			sb.WriteString(".*")
		case r == '_':
			sb.WriteString(".")
		default:
			sb.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	sb.WriteString("$")
	return sb.String(), nil
}

// SimilarToRegex translates SQL's SIMILAR TO pattern to a regular
// expression anchored at both ends.
func SimilarToRegex(p, esc string) (string, error) {
	var sb strings.Builder
	sb.WriteString("(?s)^(?:")
	rs := []rune(p)
	escRune := rune(-1)
	if esc != "" {
		escRune = []rune(esc)[0]
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == escRune && i+1 < len(rs):
			i++
			sb.WriteString(regexp.QuoteMeta(string(rs[i])))
		case r == '%':
			sb.WriteString(".*")
		case r == '_':
			sb.WriteString(".")
		case r == '.' || r == '^' || r == '$':
			sb.WriteString("\\" + string(r))
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteString(")$")
	return sb.String(), nil
}

// RegexMatch is ~, ~*, !~ and !~*: POSIX-style regular expression matching
// (RE2 syntax, which covers the expressions clients send).
type RegexMatch struct {
	L, R                 Expr
	Not, CaseInsensitive bool
	mu                   sync.Mutex
	compiled             map[string]*regexp.Regexp
}

func NewRegexMatch(op string, l, r Expr) *RegexMatch {
	return &RegexMatch{L: l, R: r, Not: strings.HasPrefix(op, "!"), CaseInsensitive: strings.HasSuffix(op, "*"), compiled: map[string]*regexp.Regexp{}}
}

func (e *RegexMatch) Type() types.T { return BoolT() }

func (e *RegexMatch) Eval(env *Env) (types.Value, error) {
	s, err := e.L.Eval(env)
	if err != nil || s == nil {
		return nil, err
	}
	p, err := e.R.Eval(env)
	if err != nil || p == nil {
		return nil, err
	}
	re, err := CompileRegex(&e.mu, e.compiled, p.(string), e.CaseInsensitive)
	if err != nil {
		return nil, err
	}
	return re.MatchString(s.(string)) != e.Not, nil
}

// CompileRegex compiles a PostgreSQL regular expression through a cache.
func CompileRegex(mu *sync.Mutex, cache map[string]*regexp.Regexp, p string, ci bool) (*regexp.Regexp, error) {
	src := p
	if ci {
		src = "(?i)" + src
	}
	mu.Lock()
	re, ok := cache[src]
	mu.Unlock()
	if ok {
		return re, nil
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, regexError(err)
	}
	mu.Lock()
	if len(cache) > 64 {
		clear(cache)
	}
	cache[src] = re
	mu.Unlock()
	return re, nil
}
