package pgtests

import (
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestFlowTargetConstraintErrorsMatchPostgres holds the error a flow's
// target gives for a row breaking its NOT NULL or CHECK constraint to the
// one PostgreSQL gives for inserting that same row into a table with the
// same columns and constraints: SQLSTATE, message, the "Failing row
// contains" detail (values in each type's output form) and the schema,
// table, column and constraint fields a driver reads.
func TestFlowTargetConstraintErrorsMatchPostgres(t *testing.T) {
	ctx := testContext(t)
	const columns = `id bigint, name text NOT NULL, amount numeric(10,2) CHECK (amount > 0),
		at timestamptz, tags text[], ok boolean CONSTRAINT ok_set CHECK (ok IS NOT NULL)`
	cases := []struct {
		name   string
		values string // id, name, amount, at, tags, ok
	}{
		{"null name", `7, NULL, 12.5, '2025-07-18 10:04:59+02', '{a,"b c"}', true`},
		{"amount check", `8, 'Isabel', -3, '2025-07-18 10:04:59.25+00', NULL, false`},
		{"named check", `9, 'Raúl', 0.01, NULL, '{}', NULL`},
	}

	cdc := connect(t, startServer(t).URL())
	pg := connect(t, referenceTarget(t).URL)
	mustExec(t, cdc, "SET TimeZone = 'UTC'")
	mustExec(t, pg, "SET TimeZone = 'UTC'")
	for _, stmt := range []string{
		"CREATE TABLE ev (id bigint, name text, amount numeric(10,2), at timestamptz, tags text[], ok boolean, seq bigint)",
		"CREATE STREAMING TABLE tgt (" + columns + ", __start_at bigint, __end_at bigint)",
		"CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (id) SEQUENCE BY seq COLUMNS * EXCEPT (seq) STORED AS SCD TYPE 2",
	} {
		mustExec(t, cdc, stmt)
	}
	mustExec(t, pg, "CREATE TABLE tgt ("+columns+", __start_at bigint, __end_at bigint)")

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, cdcErr := cdc.Exec(ctx, fmt.Sprintf("INSERT INTO ev VALUES (%s, 100)", tc.values))
			_, pgErr := pg.Exec(ctx, fmt.Sprintf("INSERT INTO tgt VALUES (%s, 100, NULL)", tc.values))
			var got, want *pgconn.PgError
			if !errors.As(cdcErr, &got) || !errors.As(pgErr, &want) {
				t.Fatalf("want errors from both: cdcdb %v, PostgreSQL %v", cdcErr, pgErr)
			}
			fields := func(e *pgconn.PgError) string {
				return fmt.Sprintf("%s %q\ndetail %q\nschema %q table %q column %q constraint %q",
					e.Code, e.Message, e.Detail, e.SchemaName, e.TableName, e.ColumnName, e.ConstraintName)
			}
			if fields(got) != fields(want) {
				t.Errorf("cdcdb:\n%s\nPostgreSQL:\n%s", fields(got), fields(want))
			}
		})
	}
	var n int
	if err := cdc.QueryRow(ctx, "SELECT (SELECT count(*) FROM ev) + (SELECT count(*) FROM tgt)").Scan(&n); err != nil || n != 0 {
		t.Errorf("rows left by the refused events: %d (%v)", n, err)
	}
}
