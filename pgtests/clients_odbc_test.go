package pgtests

import (
	"strconv"
	"testing"
)

// psqlODBC (Debian's odbc-postgresql, through unixODBC and pyodbc) against
// cdcdb: the AUTO CDC SCD TYPE 2 flow, parameterized writes (psqlODBC
// prepares them as named statements and drops them with SQL DEALLOCATE),
// the target and a FOR BUSINESS_TIME AS OF read, and the catalog calls BI
// tools make through ODBC: SQLTables, SQLColumns, SQLPrimaryKeys (which
// subscripts pg_index.indkey from 0), SQLStatistics, SQLForeignKeys,
// SQLGetTypeInfo. See
// testdata/clients/cdcdb_odbc.py.
func TestODBC(t *testing.T) {
	requireFile(t, "/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so", "odbc-postgresql")
	requirePythonModule(t, "pyodbc", "python3-pyodbc")
	s := startServer(t)
	runClient(t, "ODBC OK", nil, systemPython, clientProgram(t, "cdcdb_odbc.py"), s.Host(), strconv.Itoa(s.Port()))
}

// psqlODBC with UseDeclareFetch=1 and statement-level rollback, in
// manual-commit mode: results read through cursors a few rows per FETCH,
// and a failing statement rolled back to the savepoint the driver set
// before it while the transaction goes on. See
// testdata/clients/cdcdb_odbc_declarefetch.py.
func TestODBCUseDeclareFetch(t *testing.T) {
	requireFile(t, "/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so", "odbc-postgresql")
	requirePythonModule(t, "pyodbc", "python3-pyodbc")
	s := startServer(t)
	runClient(t, "ODBC DECLAREFETCH OK", nil, systemPython, clientProgram(t, "cdcdb_odbc_declarefetch.py"), s.Host(), strconv.Itoa(s.Port()))
}
