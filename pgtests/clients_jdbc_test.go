package pgtests

import (
	"fmt"
	"os"
	"os/exec"
	"testing"

	"cdcdb/pgtests/pgserver"
)

// pgjdbcJar is Debian's libpostgresql-jdbc-java.
const pgjdbcJar = "/usr/share/java/postgresql.jar"

// compileJDBCProgram compiles testdata/clients/CdcdbJdbc.java into a
// directory of the test.
func compileJDBCProgram(t *testing.T) string {
	t.Helper()
	requireFile(t, pgjdbcJar, "libpostgresql-jdbc-java")
	for _, tool := range []string{"javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			requireTool(t, fmt.Errorf("%s: %v (Debian package openjdk-17-jdk-headless)", tool, err))
		}
	}
	dir := t.TempDir()
	out, err := exec.Command("javac", "-d", dir, "-cp", pgjdbcJar, clientProgram(t, "CdcdbJdbc.java")).CombinedOutput()
	if err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	return dir
}

// pgjdbc against cdcdb, in the default extended-protocol mode, with
// preferQueryMode=simple, and over TLS from -tls auto: the AUTO CDC SCD
// TYPE 2 flow, PreparedStatement writes, CopyManager, the target and a FOR
// BUSINESS_TIME AS OF read, ResultSetMetaData (table and column found from
// the table OID and column number of the result), batch insert with
// generated keys, and the DatabaseMetaData calls BI tools make:
// getCatalogs, getSchemas, getTables, getColumns, getPrimaryKeys,
// getIndexInfo, getImportedKeys, getTypeInfo. See testdata/clients/CdcdbJdbc.java.
func TestJDBC(t *testing.T) {
	classes := compileJDBCProgram(t)
	cp := classes + string(os.PathListSeparator) + pgjdbcJar
	for _, c := range []struct {
		name   string
		opts   []pgserver.Option
		params string
	}{
		{"extended", nil, "sslmode=disable"},
		{"simple", nil, "sslmode=disable&preferQueryMode=simple"},
		{"tls", []pgserver.Option{withTLSAuto()}, "sslmode=require&sslfactory=org.postgresql.ssl.NonValidatingFactory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := startServer(t, c.opts...)
			url := fmt.Sprintf("jdbc:postgresql://%s/main?user=%s&%s", s.Addr(), pgserver.User, c.params)
			runClient(t, "JDBC OK", nil, "java", "-cp", cp, "CdcdbJdbc", url)
		})
	}
}
