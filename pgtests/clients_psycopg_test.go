package pgtests

import (
	"fmt"
	"strconv"
	"testing"
)

// psycopg2 and psycopg 3 (Debian's python3-psycopg2 and python3-psycopg)
// against cdcdb: DDL with an AUTO CDC SCD TYPE 2 flow, parameterized writes
// (psycopg 3 with server-side prepared statements), COPY in both
// directions, server-side cursors (DECLARE / FETCH; psycopg 3 also
// describes the cursor as a portal and reads pg_cursors), the target and a FOR BUSINESS_TIME AS OF read, result
// descriptions, binary results, the table OID and column number in result
// metadata, psycopg 3's TypeInfo catalog lookup, and the change feed with
// parameters. See
// testdata/clients/cdcdb_psycopg.py.
func TestPsycopg2(t *testing.T) {
	requirePythonModule(t, "psycopg2", "python3-psycopg2")
	s := startServer(t)
	runClient(t, "PSYCOPG OK", nil, systemPython, clientProgram(t, "cdcdb_psycopg.py"), "psycopg2", s.KeyValueDSN())
}

func TestPsycopg3(t *testing.T) {
	requirePythonModule(t, "psycopg", "python3-psycopg")
	s := startServer(t)
	runClient(t, "PSYCOPG OK", nil, systemPython, clientProgram(t, "cdcdb_psycopg.py"), "psycopg", s.KeyValueDSN())
}

// psycopg 3 with its default sslmode=prefer against -tls auto: the
// connection is encrypted without any setting.
func TestPsycopg3PrefersTLS(t *testing.T) {
	requirePythonModule(t, "psycopg", "python3-psycopg")
	s := startServer(t, withTLSAuto())
	dsn := fmt.Sprintf("host=%s port=%d user=cdcdb dbname=main", s.Host(), s.Port())
	// libpq's default, stated so that no PGSSLMODE of the caller's changes it.
	out := runClient(t, "TLS OK", []string{"PGSSLMODE=prefer"}, systemPython, "-c", `
import sys, psycopg
with psycopg.connect(sys.argv[1]) as c:
    assert c.pgconn.ssl_in_use, "not encrypted"
    assert c.execute("SELECT 1").fetchone() == (1,)
print("TLS OK")
`, dsn)
	if out == "" {
		t.Fatal("no output")
	}
}

// Django 3.2's ORM (Debian's python3-django, over psycopg2) against
// cdcdb: nested transaction.atomic blocks, which Django runs as
// savepoints, the inner one failing on a duplicate key while the outer one
// commits, and savepoints set and rolled back by hand. See
// testdata/clients/cdcdb_django.py.
func TestDjangoNestedAtomic(t *testing.T) {
	requirePythonModule(t, "psycopg2", "python3-psycopg2")
	requirePythonModule(t, "django", "python3-django")
	s := startServer(t)
	runClient(t, "DJANGO OK", nil, systemPython, clientProgram(t, "cdcdb_django.py"), s.Host(), strconv.Itoa(s.Port()))
}
