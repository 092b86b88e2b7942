package pgerror

import (
	"errors"
	"fmt"
)

// Severity values as PostgreSQL spells them in ErrorResponse and NoticeResponse.
const (
	SeverityError   = "ERROR"
	SeverityFatal   = "FATAL"
	SeverityNotice  = "NOTICE"
	SeverityWarning = "WARNING"
)

// Error is a PostgreSQL-style error: a SQLSTATE with PostgreSQL's message and,
// where they apply, a detail, a hint and a 1-based character position in the
// statement text the client sent.
type Error struct {
	Severity string // empty means ERROR
	Code     string
	Message  string
	Detail   string
	Hint     string
	Position int // 1-based character offset into the query; 0 when none applies
	// Where is the error's context (ErrorResponse's 'W' field, psql's
	// CONTEXT line): where in the work it happened, such as COPY's line,
	// innermost first, one per line.
	Where string
	// Table, Column and Constraint name the object involved, as PostgreSQL's
	// ErrorResponse fields do, so drivers can show them.
	Schema, Table, Column, Constraint string
}

func (e *Error) Error() string {
	if e.Severity != "" && e.Severity != SeverityError {
		return e.Severity + ": " + e.Message + " (SQLSTATE " + e.Code + ")"
	}
	return "ERROR: " + e.Message + " (SQLSTATE " + e.Code + ")"
}

// New returns an error with the given SQLSTATE and a formatted message.
func New(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithPosition returns a copy of e that points at a 1-based character position.
func (e *Error) WithPosition(pos int) *Error {
	c := *e
	c.Position = pos
	return &c
}

// WithDetail returns a copy of e with a detail line.
func (e *Error) WithDetail(format string, args ...any) *Error {
	c := *e
	c.Detail = fmt.Sprintf(format, args...)
	return &c
}

// WithHint returns a copy of e with a hint line.
func (e *Error) WithHint(format string, args ...any) *Error {
	c := *e
	c.Hint = fmt.Sprintf(format, args...)
	return &c
}

// As finds the *Error in err's chain. An error that carries no SQLSTATE becomes
// an internal error (XX000) so a client always receives a well-formed response.
func As(err error) *Error {
	if err == nil {
		return nil
	}
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	return &Error{Code: InternalError, Message: err.Error()}
}

// CodeOf returns the SQLSTATE of err, or "" for nil.
func CodeOf(err error) string {
	if err == nil {
		return ""
	}
	return As(err).Code
}
