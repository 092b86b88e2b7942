package pgtests

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cdcdb/pgtests/pgserver"
)

// pg_dump of a cdcdb database (issue 46, item 1(a)), so far of plain
// tables: their columns, defaults, constraints, indexes, serial sequences
// and rows. Schema cdcdb, a built-in extension's, is not dumped.

const dumpSchema = `
CREATE TABLE fruit (id int PRIMARY KEY, name text NOT NULL, price numeric(6,2) DEFAULT 1, CHECK (price > 0));
CREATE INDEX fruit_name ON fruit (name);
CREATE TABLE basket (id serial PRIMARY KEY, fruit_id int REFERENCES fruit (id), qty int UNIQUE);
CREATE TABLE odd (k int8 PRIMARY KEY, t text, at timestamptz, ok bool, b bytea, j jsonb, a int8[], f float8);
INSERT INTO fruit VALUES (1, 'apple', 2.5), (2, 'pear', 3), (3, 'fig', DEFAULT);
INSERT INTO basket (fruit_id, qty) VALUES (1, 5), (2, 7), (NULL, NULL);
INSERT INTO odd VALUES
  (1, E'tab\there\nnew line \\ backslash', '2026-12-07 10:00:00.123456+00', true, '\x00ff', '{"a": [1, null]}', '{1,NULL,3}', 1.5e300),
  (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (3, '', '-infinity', false, '', '[]', '{}', 'NaN')`

func pgDumpPath(t *testing.T) string {
	t.Helper()
	p := filepath.Join(pgserver.PostgresBinDir, "pg_dump")
	if _, err := os.Stat(p); err != nil {
		requireTool(t, err)
	}
	return p
}

// runPgDump dumps a database in plain format and returns the script.
func runPgDump(t *testing.T, host string, port int, db string, args ...string) string {
	t.Helper()
	all := append([]string{"-h", host, "-p", strconv.Itoa(port), "-U", "cdcdb", "-d", db}, args...)
	cmd := exec.Command(pgDumpPath(t), all...)
	cmd.Env = append(os.Environ(), "PGCONNECT_TIMEOUT=10")
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("pg_dump %v: %v\n%s", args, err, stderr)
	}
	return string(out)
}

// restrictLine is the \restrict and \unrestrict meta-commands pg_dump
// writes with a random key; comments name the server.
var restrictLine = regexp.MustCompile(`(?m)^(\\(un)?restrict .*|--.*)$`)

// normalizedDump drops what differs between two dumps of the same schema
// from different servers: the random keys, the comments, blank lines.
func normalizedDump(s string) []string {
	var out []string
	for _, line := range strings.Split(restrictLine.ReplaceAllString(s, ""), "\n") {
		if strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}

// TestPgDumpOfCdcdbRestoresIntoPostgres dumps a cdcdb database with
// PostgreSQL 15's pg_dump, plain format, restores the script into a fresh
// PostgreSQL 15 database with psql -v ON_ERROR_STOP=1, and checks that
// every table has the same rows, the serial's sequence goes on from the
// same value, and pg_dump --schema-only of the restored database is the
// same script as of cdcdb; then the custom and directory formats, each
// restored with pg_restore --exit-on-error, give the same rows.
func TestPgDumpOfCdcdbRestoresIntoPostgres(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.URL())
	for _, stmt := range strings.Split(dumpSchema, ";") {
		mustExec(t, conn, stmt)
	}
	script := runPgDump(t, srv.Host(), srv.Port(), pgserver.Database)
	for _, want := range []string{"CREATE TABLE public.odd", "COPY public.fruit", "ADD CONSTRAINT basket_fruit_id_fkey FOREIGN KEY", "CREATE INDEX fruit_name", "SELECT pg_catalog.setval('public.basket_id_seq', 3, true);"} {
		if !strings.Contains(script, want) {
			t.Errorf("the dump lacks %q", want)
		}
	}
	if strings.Contains(script, "cdcdb.") || strings.Contains(script, "SCHEMA cdcdb") {
		t.Errorf("the dump holds schema cdcdb, the server's own:\n%s", script)
	}
	if strings.Contains(script, "REVOKE") || strings.Contains(script, "GRANT") {
		t.Errorf("the dump changes privileges cdcdb does not have:\n%s", script)
	}
	ref := referenceTarget(t)
	path := filepath.Join(t.TempDir(), "dump.sql")
	if err := os.WriteFile(path, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(psqlPath(t), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", ref.Host, "-p", strconv.Itoa(ref.Port), "-U", "cdcdb", "-d", ref.DB, "-f", path).CombinedOutput()
	if err != nil {
		t.Fatalf("psql restoring the dump into PostgreSQL 15: %v\n%s", err, out)
	}
	pg := connect(t, ref.URL)
	for _, q := range []string{
		"SELECT * FROM fruit ORDER BY id", "SELECT * FROM basket ORDER BY id", "SELECT * FROM odd ORDER BY k",
		"SELECT nextval('basket_id_seq')",
	} {
		a, b := queryStrings(t, conn, q), queryStrings(t, pg, q)
		if !slices.Equal(a, b) {
			t.Errorf("%s:\ncdcdb:       %q\npostgres 15: %q", q, a, b)
		}
	}
	// The custom and directory formats, restored with pg_restore.
	for _, format := range []string{"c", "d"} {
		archive := filepath.Join(t.TempDir(), "dump."+format)
		runPgDump(t, srv.Host(), srv.Port(), pgserver.Database, "-F", format, "-f", archive)
		into := referenceTarget(t)
		out, err := exec.Command(filepath.Join(pgserver.PostgresBinDir, "pg_restore"), "--exit-on-error", "-h", into.Host, "-p", strconv.Itoa(into.Port), "-U", "cdcdb", "-d", into.DB, archive).CombinedOutput()
		if err != nil {
			t.Fatalf("pg_restore of the -F %s archive: %v\n%s", format, err, out)
		}
		restored := connect(t, into.URL)
		for _, q := range []string{"SELECT * FROM fruit ORDER BY id", "SELECT * FROM basket ORDER BY id", "SELECT * FROM odd ORDER BY k"} {
			if a, b := queryStrings(t, conn, q), queryStrings(t, restored, q); !slices.Equal(a, b) {
				t.Errorf("-F %s, %s:\ncdcdb:       %q\npostgres 15: %q", format, q, a, b)
			}
		}
	}
	fromCdcdb := normalizedDump(runPgDump(t, srv.Host(), srv.Port(), pgserver.Database, "--schema-only"))
	fromPostgres := normalizedDump(runPgDump(t, ref.Host, ref.Port, ref.DB, "--schema-only"))
	if !slices.Equal(fromCdcdb, fromPostgres) {
		t.Errorf("pg_dump --schema-only differs:\ncdcdb:\n%s\n\npostgres 15, restored from cdcdb's dump:\n%s", strings.Join(fromCdcdb, "\n"), strings.Join(fromPostgres, "\n"))
	}
}

// TestPgDumpallOfCdcdb: pg_dumpall (roles, then the one database) runs
// against cdcdb and holds the database's tables and rows.
func TestPgDumpallOfCdcdb(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.URL())
	for _, stmt := range strings.Split(dumpSchema, ";") {
		mustExec(t, conn, stmt)
	}
	pgDumpPath(t)
	cmd := exec.Command(filepath.Join(pgserver.PostgresBinDir, "pg_dumpall"), "-h", srv.Host(), "-p", strconv.Itoa(srv.Port()), "-U", "cdcdb")
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("pg_dumpall: %v\n%s", err, stderr)
	}
	for _, want := range []string{"CREATE ROLE cdcdb;", "CREATE DATABASE main", "\\connect main", "CREATE TABLE public.fruit", "COPY public.odd"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("pg_dumpall's script lacks %q", want)
		}
	}
}

// TestLockTable: pg_dump's LOCK TABLE ... IN ACCESS SHARE MODE is taken in
// a REPEATABLE READ or SERIALIZABLE transaction, whose snapshot keeps the
// tables as they were; every other use is refused, as cdcdb takes no table
// locks.
func TestLockTable(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.URL())
	mustExec(t, conn, "CREATE TABLE a (id int PRIMARY KEY)")
	mustExec(t, conn, "CREATE TABLE b (id int)")
	for _, c := range []struct {
		begin, lock, code string
	}{
		{"", "LOCK TABLE a IN ACCESS SHARE MODE", "25P01"},
		{"BEGIN ISOLATION LEVEL REPEATABLE READ", "LOCK TABLE public.a, b IN ACCESS SHARE MODE", ""},
		{"BEGIN ISOLATION LEVEL SERIALIZABLE", "LOCK a IN ACCESS SHARE MODE NOWAIT", ""},
		{"BEGIN", "LOCK TABLE a IN ACCESS SHARE MODE", "0A000"},
		{"BEGIN ISOLATION LEVEL REPEATABLE READ", "LOCK TABLE a", "0A000"},
		{"BEGIN ISOLATION LEVEL REPEATABLE READ", "LOCK TABLE a IN ROW EXCLUSIVE MODE", "0A000"},
		{"BEGIN ISOLATION LEVEL REPEATABLE READ", "LOCK TABLE nosuch IN ACCESS SHARE MODE", "42P01"},
	} {
		if c.begin != "" {
			mustExec(t, conn, c.begin)
		}
		tag, err := conn.Exec(testContext(t), c.lock)
		switch {
		case c.code == "" && err != nil:
			t.Errorf("%s; %s: %v", c.begin, c.lock, err)
		case c.code == "" && tag.String() != "LOCK TABLE":
			t.Errorf("%s; %s: tag %q", c.begin, c.lock, tag.String())
		case c.code != "":
			requireSQLState(t, err, c.code)
		}
		if c.begin != "" {
			mustExec(t, conn, "ROLLBACK")
		}
	}
}
