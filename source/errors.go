package source

import (
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// permanentError is an error that retrying cannot cure: the Follower stops
// in state failed with it.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Permanent marks err as one that retrying cannot cure. A Sink wraps its
// errors with it when the batch can never be committed (a type it cannot
// store, say): the Follower then stops in state failed instead of
// retrying.
func Permanent(err error) error {
	if err == nil || IsPermanent(err) {
		return err
	}
	return &permanentError{err}
}

// IsPermanent reports whether err, or an error it wraps, was marked with
// Permanent, or is an upstream error that retrying cannot cure.
func IsPermanent(err error) bool {
	var p *permanentError
	if errors.As(err, &p) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return permanentSQLState(pgErr.Code)
	}
	return false
}

// permanentSQLState says which upstream errors mean a setting is wrong
// rather than that upstream is busy, restarting or unreachable. Every
// other error is retried.
func permanentSQLState(code string) bool {
	switch {
	case strings.HasPrefix(code, "28"): // authentication: wrong user or password, pg_hba
		return true
	}
	switch code {
	case "3D000", // the database does not exist
		"42501", // not a superuser or replication role
		"42704", // the publication does not exist (pgoutput says so)
		"42P01", // a table does not exist
		"55000": // a slot that can no longer give changes, or for another database or plugin
		return true
	}
	return false
}

// redactor takes a password out of text before it leaves the Follower.
type redactor struct{ password string }

const redactedPassword = "********"

func (r redactor) text(s string) string {
	if r.password == "" {
		return s
	}
	return strings.ReplaceAll(s, r.password, redactedPassword)
}

// error returns err, or an error with err's message redacted when that
// message held the password. The redacted error keeps err's permanence but
// not its chain, which could still show the password.
func (r redactor) error(err error) error {
	if err == nil || r.password == "" || !strings.Contains(err.Error(), r.password) {
		return err
	}
	clean := errors.New(r.text(err.Error()))
	if IsPermanent(err) {
		return &permanentError{clean}
	}
	return clean
}

// refusedError is a permanent error with the SQLSTATE a client of CREATE
// SOURCE gets for it (see Describe): upstream as it is cannot be followed.
type refusedError struct {
	code string
	msg  string
}

func (e *refusedError) Error() string { return e.msg }

// refusal makes a permanent error with a SQLSTATE.
func refusal(code, format string, args ...any) error {
	return Permanent(&refusedError{code: code, msg: fmt.Sprintf(format, args...)})
}
