package parse

import (
	"unicode/utf8"

	"cdcdb/pgerror"
)

// runePosition turns a 0-based byte offset into the 1-based character
// position PostgreSQL reports: the server counts characters of the query
// text (pg_mbstrlen_with_len), and clients such as psql use it to draw the
// caret under the right character. An invalid byte counts as one character,
// as utf8.RuneCountInString counts it.
func runePosition(src string, off int) int {
	if off < 0 {
		off = 0
	}
	if off > len(src) {
		off = len(src)
	}
	return utf8.RuneCountInString(src[:off]) + 1
}

// errorAt builds a PostgreSQL-style "msg at or near "text"" error, the form
// the PostgreSQL scanner uses for every error that has a token to show. At
// the end of the input PostgreSQL says "at end of input" instead.
func (lx *lexer) errorAt(code, msg string, start, end int) *pgerror.Error {
	return errorNear(lx.src, code, msg, start, end)
}

func errorNear(src, code, msg string, start, end int) *pgerror.Error {
	if start >= len(src) {
		return &pgerror.Error{Code: code, Message: msg + " at end of input", Position: runePosition(src, len(src))}
	}
	if end > len(src) {
		end = len(src)
	}
	return &pgerror.Error{
		Code:     code,
		Message:  msg + ` at or near "` + src[start:end] + `"`,
		Position: runePosition(src, start),
	}
}

// syntaxErrorAt is PostgreSQL's generic grammar error, pointing at the token
// the grammar could not accept. An error token carries the scanner's own
// error, which wins: PostgreSQL's scanner reports it as soon as the grammar
// asks for that token.
func (p *parser) syntaxErrorAt(t *token) *pgerror.Error {
	if t.kind == tkError {
		return t.err
	}
	if t.kind == tkEOF {
		return errorNear(p.src, pgerror.SyntaxError, "syntax error", len(p.src), len(p.src))
	}
	return errorNear(p.src, pgerror.SyntaxError, "syntax error", t.pos, t.end)
}

// errorAtToken is a 42601 error with PostgreSQL's "at or near" suffix, for
// the grammar's own wordier complaints (a clause given twice, ...).
func (p *parser) errorAtToken(t *token, msg string) *pgerror.Error {
	if t.kind == tkError {
		return t.err
	}
	if t.kind == tkEOF {
		return errorNear(p.src, pgerror.SyntaxError, msg, len(p.src), len(p.src))
	}
	return errorNear(p.src, pgerror.SyntaxError, msg, t.pos, t.end)
}

// errorAtPos is an error with a plain position and no "at or near" text,
// the form PostgreSQL's grammar actions use (parser_errposition).
func (p *parser) errorAtPos(code string, pos int, format string, args ...any) *pgerror.Error {
	return pgerror.New(code, format, args...).WithPosition(runePosition(p.src, pos))
}

// bail aborts the parse with err. The parser is recursive descent; unwinding
// with panic keeps every production free of error plumbing, and Parse turns
// the panic back into an error (see parseError).
func (p *parser) bail(err *pgerror.Error) {
	panic(parseError{err})
}

// parseError wraps the error a production bails out with, so that Parse can
// tell it from a genuine bug (which must not be swallowed).
type parseError struct{ err *pgerror.Error }
