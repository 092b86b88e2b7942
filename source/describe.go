package source

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"

	"cdcdb/pgerror"
)

// Describe connects upstream the way a Follower of cfg would and returns
// the source tables it would make, without creating a slot or reading a
// row. CREATE SOURCE calls it so that a wrong password, a missing
// publication or table, a role without REPLICATION or an unreachable
// server is the statement's error, and so that the source tables exist,
// with their columns, as soon as the statement returns (flows can be
// created on them at once).
//
// Errors carry a SQLSTATE: upstream's own when upstream sent one, 08001
// when it could not be reached, 55000 when upstream cannot be followed as
// it is (wal_level, a publication that leaves out a kind of change, a
// partitioned table). None holds the password.
func Describe(ctx context.Context, cfg Config) ([]Table, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.setDefaults()
	redact := redactor{cfg.Connection.Password}
	fail := func(err error) error { return describeError(cfg.Connection, redact, err) }

	plain, err := connect(ctx, cfg.Connection, false)
	if err != nil {
		return nil, fail(err)
	}
	defer closeConn(plain)
	version, err := checkServer(ctx, plain)
	if err != nil {
		return nil, fail(err)
	}
	if err := checkPublication(ctx, plain, cfg.Publication); err != nil {
		return nil, fail(err)
	}
	tables := make([]Table, 0, len(cfg.Tables))
	for _, ref := range cfg.Tables {
		st, err := readTable(ctx, plain, version, cfg.Publication, ref)
		if err != nil {
			return nil, fail(err)
		}
		tables = append(tables, st.table)
	}
	// The replication connection is what a role without REPLICATION, or
	// a pg_hba.conf without a replication line, refuses.
	repl, err := connect(ctx, cfg.Connection, true)
	if err != nil {
		return nil, fail(err)
	}
	closeConn(repl)
	return tables, nil
}

// describeError gives err a SQLSTATE for the client of CREATE SOURCE,
// without the password.
func describeError(c Connection, redact redactor, err error) error {
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		return err
	}
	msg := redact.text(err.Error())
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr):
		e := pgerror.New(pgErr.Code, "upstream PostgreSQL at %s: %s", c.address(), redact.text(pgErr.Message))
		if pgErr.Detail != "" {
			e = e.WithDetail("%s", redact.text(pgErr.Detail))
		}
		return e
	}
	var refused *refusedError
	switch {
	case errors.As(err, &refused):
		return pgerror.New(refused.code, "%s", redact.text(refused.msg))
	case IsPermanent(err):
		return pgerror.New(pgerror.ObjectNotInPrerequisiteState, "%s", msg)
	}
	return pgerror.New(pgerror.SQLClientUnableToEstablishConnection, "could not connect to the upstream PostgreSQL at %s: %s", c.address(), msg)
}
