package sql_test

import (
	"strings"
	"testing"

	"cdcdb/pgerror"
	"cdcdb/sql/sqltest"
)

// The statements of sources, as far as they go without an upstream (the
// rest is in pgtests, against a real PostgreSQL).
func TestSourceStatementsWithoutUpstream(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec(`CREATE CONNECTION pg TO POSTGRES (HOST '127.0.0.1', PORT 1, USER 'u', PASSWORD 'hunter2-secret', DATABASE 'd')`)
	for _, tc := range []struct{ sql, code string }{
		{`CREATE CONNECTION pg TO POSTGRES (HOST 'h', USER 'u', DATABASE 'd')`, pgerror.DuplicateObject},
		{`CREATE CONNECTION c TO POSTGRES (HOST 'h', USER 'u', DATABASE 'd', TIMEOUT 3)`, pgerror.SyntaxError},
		{`CREATE CONNECTION c TO POSTGRES (HOST 'h', USER 'u', DATABASE 'd', USER 'v')`, pgerror.SyntaxError},
		{`CREATE CONNECTION c TO POSTGRES (HOST 'h', USER 'u', DATABASE 'd', PORT 0)`, pgerror.InvalidParameterValue},
		{`CREATE CONNECTION c TO POSTGRES (HOST 'h', USER 'u', DATABASE 'd', PORT '5432')`, pgerror.InvalidParameterValue},
		{`CREATE CONNECTION c TO POSTGRES (HOST 5, USER 'u', DATABASE 'd')`, pgerror.InvalidParameterValue},
		{`CREATE CONNECTION c TO POSTGRES (HOST 'h', USER 'u', DATABASE 'd', SSL MODE 'maybe')`, pgerror.InvalidParameterValue},
		{`CREATE CONNECTION c TO POSTGRES (HOST 'h', DATABASE 'd')`, pgerror.InvalidParameterValue},
		{`CREATE CONNECTION c TO POSTGRES (HOST '', USER 'u', DATABASE 'd')`, pgerror.InvalidParameterValue},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION missing (PUBLICATION 'p') FOR TABLES (t)`, pgerror.UndefinedObject},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION pg (PUBLICATION 'p', PUBLICATION 'q') FOR TABLES (t)`, pgerror.SyntaxError},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION pg (PUBLICATION 5) FOR TABLES (t)`, pgerror.InvalidParameterValue},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION pg (SLOT 'x') FOR TABLES (t)`, pgerror.InvalidParameterValue},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION pg (PUBLICATION 'p', SLOT 'UPPER') FOR TABLES (t)`, pgerror.InvalidName},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION pg (PUBLICATION 'p') FOR TABLES (t, u AS t)`, pgerror.DuplicateTable},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION pg (PUBLICATION 'p') FOR TABLES (t)`, pgerror.SQLClientUnableToEstablishConnection},
		{`BEGIN; CREATE SOURCE s FROM POSTGRES CONNECTION pg (PUBLICATION 'p') FOR TABLES (t)`, pgerror.ActiveSQLTransaction},
		{`CREATE SOURCE s FROM POSTGRES CONNECTION pg (PUBLICATION 'p') FOR TABLES (t); SELECT 1`, pgerror.ActiveSQLTransaction},
		{`SET default_transaction_read_only = on; CREATE SOURCE s FROM POSTGRES CONNECTION pg (PUBLICATION 'p') FOR TABLES (t)`, pgerror.ActiveSQLTransaction},
		{`DROP SOURCE s`, pgerror.UndefinedObject},
		{`DROP CONNECTION c`, pgerror.UndefinedObject},
	} {
		e := c.ExpectError(tc.code, tc.sql)
		if strings.Contains(e.Message+e.Detail+e.Hint, "hunter2-secret") {
			t.Errorf("%s: the error shows the password: %s", tc.sql, e.Message)
		}
		c.MustExec(`ROLLBACK`)
	}
	c.MustExec(`SET default_transaction_read_only = on`)
	c.ExpectError(pgerror.ReadOnlySQLTransaction, `CREATE SOURCE s FROM POSTGRES CONNECTION pg (PUBLICATION 'p') FOR TABLES (t)`)
	c.ExpectError(pgerror.ReadOnlySQLTransaction, `DROP SOURCE IF EXISTS s`)
	c.MustExec(`SET default_transaction_read_only = off`)
	got := c.MustExec(`SELECT name, kind, host, port, "user", database, ssl_mode FROM cdcdb.connections`).String()
	if want := "pg|postgres|127.0.0.1|1|u|d|prefer\n"; got != want {
		t.Errorf("cdcdb.connections: %q, want %q", got, want)
	}
	if got := c.MustExec(`SELECT count(*) FROM cdcdb.sources`).String(); got != "0\n" {
		t.Errorf("cdcdb.sources after refusals: %q", got)
	}
	// A connection is transactional, like any catalog object.
	c.MustExec(`BEGIN`)
	c.MustExec(`DROP CONNECTION pg`)
	c.MustExec(`ROLLBACK`)
	c.MustExec(`DROP CONNECTION IF EXISTS pg, nope`)
	if got := c.MustExec(`SELECT count(*) FROM cdcdb.connections`).String(); got != "0\n" {
		t.Errorf("cdcdb.connections after DROP: %q", got)
	}
}
