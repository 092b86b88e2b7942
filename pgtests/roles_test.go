package pgtests

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"cdcdb/pgtests/pgserver"
)

// Roles and table privileges (docs/security.md): a read-only BI role, a
// pipeline role that may only insert into a flow's source, logins by role,
// role passwords across a restart.

// roleSuffix makes role names unique within a run: roles are global to
// the reference PostgreSQL, which every test shares.
func roleSuffix() string { return strconv.FormatInt(time.Now().UnixNano()%1e9, 36) }

// connectAs connects to url as role with password.
func connectAs(t testing.TB, url, role, password string) *pgx.Conn {
	t.Helper()
	conn, err := tryConnectAs(url, role, password)
	if err != nil {
		t.Fatalf("connect as %s: %v", role, err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func tryConnectAs(url, role, password string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	cfg.User, cfg.Password = role, password
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return pgx.ConnectConfig(ctx, cfg)
}

// outcome is what a statement got: its SQLSTATE and message, or "ok".
func outcome(conn *pgx.Conn, sql string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := conn.Exec(ctx, sql)
	if err == nil {
		return "ok"
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code + " " + pgErr.Message
	}
	return err.Error()
}

// biStatements are what a read-only role tries on a plain table, with what
// PostgreSQL 15 answers (each checked against it).
var biStatements = []struct{ sql, want string }{
	{"SELECT count(*) FROM acct", "ok"},
	{"SELECT * FROM acct WHERE id = 1", "ok"},
	{"INSERT INTO acct VALUES (9, 'x')", "42501 permission denied for table acct"},
	{"UPDATE acct SET v = 'y'", "42501 permission denied for table acct"},
	{"DELETE FROM acct WHERE id = 1", "42501 permission denied for table acct"},
	{"TRUNCATE acct", "42501 permission denied for table acct"},
	{"COPY acct FROM STDIN", "42501 permission denied for table acct"},
	{"DROP TABLE acct", "42501 must be owner of table acct"},
	{"ALTER TABLE acct ADD COLUMN z int", "42501 must be owner of table acct"},
	{"CREATE INDEX acct_v ON acct (v)", "42501 must be owner of table acct"},
	{"COMMENT ON TABLE acct IS 'mine'", "42501 must be owner of table acct"},
	{"CREATE TABLE mine (a int)", "42501 permission denied for schema public"},
	{"CREATE VIEW mine AS SELECT 1", "42501 permission denied for schema public"},
	{"GRANT INSERT ON acct TO PUBLIC", "ok"}, // a warning: no privileges were granted
	{"GRANT INSERT ON secret TO PUBLIC", "42501 permission denied for table secret"},
	{"SELECT count(*) FROM secret", "42501 permission denied for table secret"},
	{"EXPLAIN SELECT * FROM secret", "42501 permission denied for table secret"},
	{"SELECT * FROM acct a JOIN secret s ON a.id = s.id", "42501 permission denied for table secret"},
	{"SELECT (SELECT count(*) FROM secret)", "42501 permission denied for table secret"},
	{"WITH x AS (SELECT * FROM secret) SELECT count(*) FROM x", "42501 permission denied for table secret"},
	{"SELECT rolname FROM pg_authid", "42501 permission denied for table pg_authid"},
	{"CREATE ROLE sneaky", "42501 permission denied to create role"},
}

func TestRolesReadOnlyRoleMatchesPostgres15(t *testing.T) {
	suffix := roleSuffix()
	bi := "bi_" + suffix
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			admin := connect(t, tg.URL)
			mustExec(t, admin, "CREATE ROLE "+bi+" LOGIN PASSWORD 'bi-pw'")
			if tg.Name != "cdcdb" {
				t.Cleanup(func() {
					ctx := context.Background()
					if _, err := admin.Exec(ctx, "DROP OWNED BY "+bi); err != nil {
						t.Errorf("DROP OWNED BY: %v", err)
					}
					if _, err := admin.Exec(ctx, "DROP ROLE "+bi); err != nil {
						t.Errorf("DROP ROLE: %v", err)
					}
				})
			}
			mustExec(t, admin, "CREATE TABLE acct (id int PRIMARY KEY, v text)")
			mustExec(t, admin, "CREATE TABLE secret (id int)")
			mustExec(t, admin, "INSERT INTO acct VALUES (1, 'a'), (2, 'b')")
			mustExec(t, admin, "GRANT SELECT ON acct TO "+bi)

			if got := queryString(t, admin, "SELECT array_to_string(relacl, ',') FROM pg_class WHERE relname = 'acct'"); got != "cdcdb=arwdDxt/cdcdb,"+bi+"=r/cdcdb" {
				t.Errorf("relacl = %q", got)
			}
			if got := queryString(t, admin, fmt.Sprintf("SELECT has_table_privilege('%s', 'acct', 'SELECT')::text || has_table_privilege('%s', 'acct', 'INSERT')::text", bi, bi)); got != "truefalse" {
				t.Errorf("has_table_privilege SELECT, INSERT = %q", got)
			}

			conn := connectAs(t, tg.URL, bi, "bi-pw")
			if got := queryString(t, conn, "SELECT current_user || ' ' || session_user"); got != bi+" "+bi {
				t.Errorf("current_user, session_user = %q", got)
			}
			for _, s := range biStatements {
				if got := outcome(conn, s.sql); got != s.want {
					t.Errorf("%s\n got  %s\n want %s", s.sql, got, s.want)
				}
			}
			if got := queryString(t, conn, "SELECT rolpassword FROM pg_roles WHERE rolname = '"+bi+"'"); got != "********" {
				t.Errorf("pg_roles shows the password as %q", got)
			}

			// REVOKE takes the right away again.
			mustExec(t, admin, "REVOKE SELECT ON acct FROM "+bi)
			if got := outcome(conn, "SELECT count(*) FROM acct"); got != "42501 permission denied for table acct" {
				t.Errorf("after REVOKE: %s", got)
			}
			mustExec(t, admin, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO "+bi)
			if got := outcome(conn, "SELECT count(*) FROM secret"); got != "ok" {
				t.Errorf("after GRANT ON ALL TABLES IN SCHEMA: %s", got)
			}
		})
	}
}

// TestRolesStatementsMatchPostgres15: a superuser's role statements, and
// what they refuse, as PostgreSQL 15 answers them.
func TestRolesStatementsMatchPostgres15(t *testing.T) {
	s := roleSuffix()
	r, r2, nobody := "r_"+s, "r2_"+s, "nobody_"+s
	steps := []struct{ sql, want string }{
		{"CREATE ROLE " + r, "ok"},
		{"CREATE USER " + r2 + " WITH PASSWORD 'pw' NOSUPERUSER NOCREATEDB", "ok"},
		{"CREATE ROLE " + r, "42710 role \"" + r + "\" already exists"},
		{"CREATE ROLE pg_x" + s, "42939 role name \"pg_x" + s + "\" is reserved"},
		{"CREATE ROLE x" + s + " LOGIN NOLOGIN", "42601 conflicting or redundant options"},
		{"ALTER ROLE " + nobody + " LOGIN", "42704 role \"" + nobody + "\" does not exist"},
		{"DROP ROLE " + nobody, "42704 role \"" + nobody + "\" does not exist"},
		{"DROP ROLE IF EXISTS " + nobody, "ok"},
		{"DROP ROLE cdcdb", "55006 current user cannot be dropped"},
		{"CREATE TABLE acct2 (id int)", "ok"},
		{"GRANT SELECT ON acct2 TO " + nobody, "42704 role \"" + nobody + "\" does not exist"},
		{"GRANT SELECT ON nosuch TO " + r, "42P01 relation \"nosuch\" does not exist"},
		{"GRANT SELECT, INSERT ON TABLE acct2 TO " + r + ", PUBLIC", "ok"},
		{"GRANT ALL PRIVILEGES ON acct2 TO " + r2, "ok"},
		{"REVOKE INSERT ON acct2 FROM PUBLIC", "ok"},
		{"CREATE VIEW v2 AS SELECT 1 AS a", "ok"},
		{"GRANT SELECT ON v2 TO " + r2, "ok"},
		{"CREATE OR REPLACE VIEW v2 AS SELECT 2 AS a", "ok"},
		{"DROP ROLE " + r, "2BP01 role \"" + r + "\" cannot be dropped because some objects depend on it"},
		{"REVOKE ALL ON acct2 FROM " + r, "ok"},
		{"DROP ROLE " + r, "ok"},
		{"ALTER ROLE " + r2 + " NOLOGIN", "ok"},
	}
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			admin := connect(t, tg.URL)
			if tg.Name != "cdcdb" {
				t.Cleanup(func() {
					ctx := context.Background()
					for _, role := range []string{r, r2} {
						admin.Exec(ctx, "DROP OWNED BY "+role)
						admin.Exec(ctx, "DROP ROLE IF EXISTS "+role)
					}
				})
			}
			for _, st := range steps {
				if got := outcome(admin, st.sql); got != st.want {
					t.Errorf("%s\n got  %s\n want %s", st.sql, got, st.want)
				}
			}
			if got, want := queryString(t, admin, "SELECT array_to_string(relacl, ',') FROM pg_class WHERE relname = 'acct2'"), "cdcdb=arwdDxt/cdcdb,=r/cdcdb,"+r2+"=arwdDxt/cdcdb"; got != want {
				t.Errorf("relacl = %q, want %q", got, want)
			}
			privs := queryString(t, admin, "SELECT string_agg(grantor || '>' || grantee || ':' || privilege_type || ':' || is_grantable || with_hierarchy, ' ' ORDER BY grantee, privilege_type) FROM information_schema.table_privileges WHERE table_schema = 'public' AND table_name = 'acct2'")
			want := "cdcdb>PUBLIC:SELECT:NOYES " +
				"cdcdb>cdcdb:DELETE:YESNO cdcdb>cdcdb:INSERT:YESNO cdcdb>cdcdb:REFERENCES:YESNO cdcdb>cdcdb:SELECT:YESYES cdcdb>cdcdb:TRIGGER:YESNO cdcdb>cdcdb:TRUNCATE:YESNO cdcdb>cdcdb:UPDATE:YESNO " +
				"cdcdb>" + r2 + ":DELETE:NONO cdcdb>" + r2 + ":INSERT:NONO cdcdb>" + r2 + ":REFERENCES:NONO cdcdb>" + r2 + ":SELECT:NOYES cdcdb>" + r2 + ":TRIGGER:NONO cdcdb>" + r2 + ":TRUNCATE:NONO cdcdb>" + r2 + ":UPDATE:NONO"
			if privs != want {
				t.Errorf("information_schema.table_privileges:\n got  %s\n want %s", privs, want)
			}
			if got, want := queryString(t, admin, "SELECT array_to_string(relacl, ',') FROM pg_class WHERE relname = 'v2'"), "cdcdb=arwdDxt/cdcdb,"+r2+"=r/cdcdb"; got != want {
				t.Errorf("relacl of a replaced view = %q, want %q", got, want)
			}
			if got := queryString(t, admin, "SELECT rolcanlogin::text || rolsuper::text || rolinherit::text FROM pg_roles WHERE rolname = '"+r2+"'"); got != "falsefalsetrue" {
				t.Errorf("pg_roles of %s: %q", r2, got)
			}
		})
	}
}

// TestRolesReadOnlyRoleAndHistory: a BI role reads a flow's target, its
// history and the change feed, and every write, DDL, flow statement and
// history trick it tries is refused with 42501.
func TestRolesReadOnlyRoleAndHistory(t *testing.T) {
	srv := startServer(t, pgserver.WithPassword("admin-pw"))
	admin := connect(t, srv.URL())
	for _, sql := range []string{
		"CREATE ROLE bi LOGIN PASSWORD 'bi-pw'",
		"CREATE USER pipeline PASSWORD 'pipe-pw'",
		"CREATE TABLE events (id int, v text, seq int)",
		"CREATE STREAMING TABLE accounts",
		"CREATE FLOW accounts_flow AS AUTO CDC INTO accounts FROM events KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2",
		"CREATE TABLE ledger (id int)",
		"GRANT SELECT ON accounts TO bi",
		"GRANT INSERT ON events TO pipeline",
	} {
		mustExec(t, admin, sql)
	}

	// The pipeline may only insert into the source; its flow still writes
	// the target, with its owner's rights.
	pipe := connectAs(t, srv.URL(), "pipeline", "pipe-pw")
	mustExec(t, pipe, "INSERT INTO events VALUES (1, 'a', 1), (2, 'b', 1)")
	mustExec(t, pipe, "INSERT INTO events VALUES (1, 'a2', 2)")
	if _, err := pipe.CopyFrom(testContext(t), pgx.Identifier{"events"}, []string{"id", "v", "seq"}, pgx.CopyFromRows([][]any{{int32(3), "c", int32(1)}})); err != nil {
		t.Fatalf("COPY by the pipeline: %v", err)
	}
	for _, s := range []struct{ sql, want string }{
		{"SELECT count(*) FROM events", "42501 permission denied for table events"},
		{"SELECT count(*) FROM accounts", "42501 permission denied for table accounts"},
		{"INSERT INTO events VALUES (4, 'd', 1) RETURNING id", "42501 permission denied for table events"},
		{"INSERT INTO ledger VALUES (1)", "42501 permission denied for table ledger"},
	} {
		if got := outcome(pipe, s.sql); got != s.want {
			t.Errorf("pipeline: %s\n got  %s\n want %s", s.sql, got, s.want)
		}
	}
	if got := queryInt64s(t, admin, "SELECT count(*) FROM accounts"); got[0] != 4 {
		t.Errorf("the flow wrote %d versions for the pipeline's inserts, want 4", got[0])
	}

	bi := connectAs(t, srv.URL(), "bi", "bi-pw")
	if got := queryInt64s(t, bi, "SELECT count(*) FROM accounts WHERE __END_AT IS NULL"); got[0] != 3 {
		t.Errorf("bi reads %d current rows, want 3", got[0])
	}
	if got := queryInt64s(t, bi, "SELECT count(*) FROM accounts FOR SYSTEM_TIME AS OF now()"); got[0] != 4 {
		t.Errorf("bi reads %d rows FOR SYSTEM_TIME AS OF now(), want 4", got[0])
	}
	if got := queryInt64s(t, bi, "SELECT count(*) FROM cdcdb.table_changes('accounts', 0)"); got[0] == 0 {
		t.Errorf("bi reads no change feed of accounts")
	}
	for _, s := range []struct{ sql, want string }{
		{"SELECT count(*) FROM events", "42501 permission denied for table events"},
		{"SELECT count(*) FROM events FOR SYSTEM_TIME AS OF now()", "42501 permission denied for table events"},
		{"SELECT count(*) FROM cdcdb.table_changes('events', 0)", "42501 permission denied for table events"},
		{"INSERT INTO events VALUES (9, 'x', 9)", "42501 permission denied for table events"},
		{"TRUNCATE accounts", "42501 permission denied for table accounts"},
		{"DROP STREAMING TABLE accounts", "42501 must be owner of streaming table accounts"},
		{"DROP FLOW accounts_flow", "42501 must be owner of flow accounts_flow"},
		{"REFRESH STREAMING TABLE accounts", "42501 must be owner of streaming table accounts"},
		{"CREATE STREAMING TABLE mine", "42501 permission denied for schema public"},
		{"CREATE FLOW f2 AS AUTO CDC INTO accounts FROM events KEYS (id) SEQUENCE BY seq", "42501 permission denied for schema public"},
		{"CREATE VIEW peek AS SELECT * FROM events", "42501 permission denied for schema public"},
		{"CREATE TEMP TABLE copy_of AS SELECT * FROM events", "42501 permission denied for table events"},
		{"GRANT SELECT ON events TO bi", "42501 permission denied for table events"},
		{"ALTER ROLE bi SUPERUSER", "42501 must be superuser to alter superuser roles or change superuser attribute"},
		{"DROP ROLE pipeline", "42501 permission denied to drop role"},
		{"CREATE SCHEMA mine", "42501 permission denied for database main"},
		{"SELECT rolpassword FROM pg_authid", "42501 permission denied for table pg_authid"},
		{"SELECT passwd FROM pg_shadow", "42501 permission denied for view pg_shadow"},
		{"SELECT cdcdb.backup('/nonexistent/roles-test-backup.db')", "42501 permission denied for function backup"},
		{"BEGIN ISOLATION LEVEL REPEATABLE READ; LOCK TABLE events IN ACCESS SHARE MODE", "42501 permission denied for table events"},
		{"ROLLBACK", "ok"},
		{"SET ROLE cdcdb", "42501 permission denied to set role \"cdcdb\""},
		{"SET SESSION AUTHORIZATION cdcdb", "0A000 SET SESSION AUTHORIZATION to another role is not supported"},
	} {
		if got := outcome(bi, s.sql); got != s.want {
			t.Errorf("bi: %s\n got  %s\n want %s", s.sql, got, s.want)
		}
	}
	// Other roles' sessions are out of reach, the superuser's most of all.
	adminPID := queryInt64s(t, admin, "SELECT pg_backend_pid()::int8")[0]
	pipePID := queryInt64s(t, pipe, "SELECT pg_backend_pid()::int8")[0]
	for _, s := range []struct{ sql, want string }{
		{fmt.Sprintf("SELECT pg_cancel_backend(%d)", adminPID), "42501 must be a superuser to cancel superuser query"},
		{fmt.Sprintf("SELECT pg_terminate_backend(%d)", adminPID), "42501 must be a superuser to terminate superuser process"},
		{fmt.Sprintf("SELECT pg_terminate_backend(%d)", pipePID), "42501 must be a member of the role whose process is being terminated or member of pg_signal_backend"},
	} {
		if got := outcome(bi, s.sql); got != s.want {
			t.Errorf("bi: %s\n got  %s\n want %s", s.sql, got, s.want)
		}
	}
	if got := queryString(t, admin, "SELECT 'still here'"); got != "still here" {
		t.Errorf("admin after bi's attempts: %q", got)
	}
	// A role may change its own password.
	mustExec(t, bi, "ALTER ROLE bi PASSWORD 'bi-pw2'")
	connectAs(t, srv.URL(), "bi", "bi-pw2")
}

// TestRolesLogin: a login as a role that does not exist, or that may not
// log in, is refused as PostgreSQL refuses it; passwords are stored as
// SCRAM-SHA-256 verifiers and survive a restart.
func TestRolesLogin(t *testing.T) {
	t.Run("Trust", func(t *testing.T) {
		srv := startServer(t)
		admin := connect(t, srv.URL())
		mustExec(t, admin, "CREATE ROLE nologin_role")
		for _, c := range []struct{ role, code, msg string }{
			{"mallory", "28000", `role "mallory" does not exist`},
			{"nologin_role", "28000", `role "nologin_role" is not permitted to log in`},
		} {
			_, err := tryConnectAs(srv.URL(), c.role, "")
			pgErr := requireSQLState(t, err, c.code)
			if pgErr.Message != c.msg || pgErr.Severity != "FATAL" {
				t.Errorf("login as %s: %s %q, want FATAL %q", c.role, pgErr.Severity, pgErr.Message, c.msg)
			}
		}
	})
	t.Run("PasswordsSurviveRestart", func(t *testing.T) {
		srv := startServer(t, pgserver.WithPassword("admin-pw"))
		admin := connect(t, srv.URL())
		mustExec(t, admin, "CREATE ROLE analyst LOGIN PASSWORD 'an-pw'")
		mustExec(t, admin, "CREATE ROLE auditor LOGIN PASSWORD 'au-pw'")
		mustExec(t, admin, "CREATE ROLE grouprole")
		mustExec(t, admin, "ALTER ROLE auditor PASSWORD 'au-pw2'")
		verifier := queryString(t, admin, "SELECT rolpassword FROM pg_authid WHERE rolname = 'analyst'")
		if !strings.HasPrefix(verifier, "SCRAM-SHA-256$4096:") || strings.Contains(verifier, "an-pw") {
			t.Errorf("analyst's stored password is %q, want a SCRAM-SHA-256 verifier", verifier)
		}
		// A verifier given as the password is stored as it is (pg_dumpall).
		mustExec(t, admin, "CREATE ROLE copied LOGIN PASSWORD '"+verifier+"'")

		srv.Restart()
		for _, c := range []struct{ role, password string }{
			{"analyst", "an-pw"}, {"auditor", "au-pw2"}, {"copied", "an-pw"}, {pgserver.User, "admin-pw"},
		} {
			conn := connectAs(t, srv.URL(), c.role, c.password)
			if got := queryString(t, conn, "SELECT current_user"); got != c.role {
				t.Errorf("logged in as %s, current_user %q", c.role, got)
			}
		}
		for _, c := range []struct{ role, password, code, msg string }{
			{"auditor", "au-pw", "28P01", `password authentication failed for user "auditor"`},
			// As PostgreSQL: with passwords on, a role that does not exist
			// fails like a wrong password, so names cannot be probed.
			{"mallory", "admin-pw", "28P01", `password authentication failed for user "mallory"`},
			{"grouprole", "", "28P01", `password authentication failed for user "grouprole"`},
		} {
			_, err := tryConnectAs(srv.URL(), c.role, c.password)
			pgErr := requireSQLState(t, err, c.code)
			if pgErr.Message != c.msg {
				t.Errorf("login as %s: %q, want %q", c.role, pgErr.Message, c.msg)
			}
		}
		admin = connect(t, srv.URL())
		mustExec(t, admin, "ALTER ROLE analyst NOLOGIN")
		_, err := tryConnectAs(srv.URL(), "analyst", "an-pw")
		if pgErr := requireSQLState(t, err, "28000"); pgErr.Message != `role "analyst" is not permitted to log in` {
			t.Errorf("NOLOGIN: %q", pgErr.Message)
		}
	})
}

// TestRolesPsql: psql's \du lists the roles, \dp their privileges, and a
// denied statement shows PostgreSQL's error.
func TestRolesPsql(t *testing.T) {
	srv := startServer(t, pgserver.WithPassword("admin-pw"))
	admin := connect(t, srv.URL())
	mustExec(t, admin, "CREATE ROLE bi LOGIN PASSWORD 'bi-pw'")
	mustExec(t, admin, "CREATE ROLE pipeline NOINHERIT LOGIN PASSWORD 'p'")
	mustExec(t, admin, "CREATE TABLE t (a int)")

	run := func(role, password string, args ...string) (string, string) {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		base := []string{"-X", "-h", srv.Host(), "-p", strconv.Itoa(srv.Port()), "-U", role, "-d", pgserver.Database}
		cmd := exec.CommandContext(ctx, psqlPath(t), append(base, args...)...)
		cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8", "PGPASSWORD="+password, "PGSERVICEFILE=/nonexistent", "PGSSLMODE=disable")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		_ = cmd.Run()
		return stdout.String(), stderr.String()
	}
	out, _ := run(pgserver.User, "admin-pw", "-c", `\du`)
	for _, want := range []string{
		" bi        |                                                            | {}",
		" cdcdb     | Superuser, Create role, Create DB, Replication, Bypass RLS | {}",
		" pipeline  | No inheritance                                             | {}",
	} {
		if !strings.Contains(out, want) {
			t.Errorf(`\du lacks %q:\n%s`, want, out)
		}
	}
	mustExec(t, admin, "GRANT SELECT ON t TO bi")
	mustExec(t, admin, "GRANT INSERT ON t TO PUBLIC")
	out, _ = run(pgserver.User, "admin-pw", "-c", `\dp t`)
	for _, want := range []string{
		" public | t    | table | cdcdb=arwdDxt/cdcdb+|                   | ",
		"        |      |       | bi=r/cdcdb         +|                   | ",
		"        |      |       | =a/cdcdb            |                   | ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf(`\dp lacks %q:\n%s`, want, out)
		}
	}
	_, errOut := run("bi", "bi-pw", "-c", "UPDATE t SET a = 1")
	if want := "ERROR:  permission denied for table t\n"; errOut != want {
		t.Errorf("psql as bi: %q, want %q", errOut, want)
	}
	_, errOut = run("nobody", "x", "-c", "SELECT 1")
	if want := `FATAL:  password authentication failed for user "nobody"`; !strings.Contains(errOut, want) {
		t.Errorf("psql as an unknown role: %q, want %q", errOut, want)
	}
}

// TestRolesPsycopg3: psycopg 3 logs in as a read-only role with its own
// password, reads a table and its history, and gets 42501 for a write.
func TestRolesPsycopg3(t *testing.T) {
	requirePythonModule(t, "psycopg", "python3-psycopg")
	srv := startServer(t, pgserver.WithPassword("admin-pw"))
	admin := connect(t, srv.URL())
	mustExec(t, admin, "CREATE ROLE bi LOGIN PASSWORD 'bi-pw'")
	mustExec(t, admin, "CREATE TABLE t (a int)")
	mustExec(t, admin, "INSERT INTO t VALUES (1), (2)")
	mustExec(t, admin, "GRANT SELECT ON t TO bi")
	dsn := fmt.Sprintf("host=%s port=%d user=bi password=bi-pw dbname=main sslmode=disable", srv.Host(), srv.Port())
	runClient(t, "ROLES OK", nil, systemPython, "-c", `
import sys, psycopg
with psycopg.connect(sys.argv[1]) as c:
    assert c.execute("SELECT current_user").fetchone() == ("bi",)
    assert c.execute("SELECT count(*) FROM t WHERE a > %s", (0,)).fetchone() == (2,)
    assert c.execute("SELECT count(*) FROM t FOR SYSTEM_TIME AS OF now()").fetchone() == (2,)
    try:
        c.execute("INSERT INTO t VALUES (%s)", (3,))
        raise SystemExit("the insert was accepted")
    except psycopg.errors.InsufficientPrivilege as e:
        assert str(e) == "permission denied for table t", str(e)
print("ROLES OK")
`, dsn)
}

// TestRolesJDBC: pgjdbc as a read-only role and as a pipeline role that
// feeds a flow it cannot read. See testdata/clients/CdcdbJdbcRoles.java.
func TestRolesJDBC(t *testing.T) {
	requireFile(t, pgjdbcJar, "libpostgresql-jdbc-java")
	if _, err := exec.LookPath("java"); err != nil {
		requireTool(t, fmt.Errorf("java: %v (Debian package openjdk-17-jdk-headless)", err))
	}
	srv := startServer(t, pgserver.WithPassword("admin-pw"))
	admin := connect(t, srv.URL())
	for _, sql := range []string{
		"CREATE ROLE bi LOGIN PASSWORD 'bi-pw'",
		"CREATE ROLE pipeline LOGIN PASSWORD 'pipe-pw'",
		"CREATE TABLE events (id int, v text, seq int)",
		"CREATE STREAMING TABLE accounts",
		"CREATE FLOW accounts_flow AS AUTO CDC INTO accounts FROM events KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2",
		"GRANT SELECT ON accounts TO bi",
		"GRANT INSERT ON events TO pipeline",
	} {
		mustExec(t, admin, sql)
	}
	url := fmt.Sprintf("jdbc:postgresql://%s/main?sslmode=disable", srv.Addr())
	// Java 11+ runs a single source file without javac.
	runClient(t, "ROLES OK", nil, "java", "-cp", pgjdbcJar, clientProgram(t, "CdcdbJdbcRoles.java"), url)
}

// TestRolesPasswordFile: -password-file keeps the password out of the
// command line; with -password as well the server refuses to start.
func TestRolesPasswordFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(path, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, pgserver.WithArgs("-password-file", path))
	conn := connectAs(t, srv.URL(), pgserver.User, "from-file")
	if got := queryString(t, conn, "SELECT current_user"); got != pgserver.User {
		t.Errorf("current_user = %q", got)
	}
	if _, err := tryConnectAs(srv.URL(), pgserver.User, "wrong"); err == nil {
		t.Error("a wrong password was accepted")
	}
	out, err := exec.Command(cdcdbBin, "-password", "x", "-password-file", path, "-listen", "127.0.0.1:0", "-data", filepath.Join(t.TempDir(), "d.db")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "give -password or -password-file, not both") {
		t.Errorf("both flags: %v\n%s", err, out)
	}
}

// pg_stat_activity names each session's role, and shows a role without
// superuser rights what other roles' sessions are doing no more than
// PostgreSQL 15 does: who and which, with "<insufficient privilege>" for
// the query and nothing else. Checked on PostgreSQL 15 too.
func TestRolesSeeOnlyTheirOwnActivity(t *testing.T) {
	suffix := roleSuffix()
	viewer := "viewer_" + suffix
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			admin := connect(t, tg.URL)
			mustExec(t, admin, "CREATE ROLE "+viewer+" LOGIN PASSWORD 'v-pw'")
			if tg.Name != "cdcdb" {
				t.Cleanup(func() {
					if _, err := admin.Exec(context.Background(), "DROP ROLE "+viewer); err != nil {
						t.Errorf("DROP ROLE: %v", err)
					}
				})
			}
			adminPID := int64(admin.PgConn().PID())
			conn := connectAs(t, tg.URL, viewer, "v-pw")
			viewerPID := int64(conn.PgConn().PID())
			mustExec(t, admin, "SELECT 'admin was here'")

			// The viewer sees the admin's session as the admin's, and not
			// what it runs.
			var usename, query string
			var state, backendStart *string
			if err := conn.QueryRow(testContext(t), "SELECT usename::text, query, state, backend_start::text FROM pg_stat_activity WHERE pid = $1", adminPID).Scan(&usename, &query, &state, &backendStart); err != nil {
				t.Fatal(err)
			}
			if usename == viewer || query != "<insufficient privilege>" || state != nil || backendStart != nil {
				t.Errorf("the viewer sees the admin's session as %q running %q (state %v, started %v)", usename, query, state, backendStart)
			}
			// Its own session it sees whole.
			if got := queryString(t, conn, "SELECT usename::text || ' ' || query FROM pg_stat_activity WHERE pid = pg_backend_pid()"); !strings.HasPrefix(got, viewer+" SELECT usename") {
				t.Errorf("the viewer's own row: %q", got)
			}
			// A superuser sees the viewer's session whole, under its role.
			if got := queryString(t, admin, "SELECT usename::text || ' ' || state FROM pg_stat_activity WHERE pid = $1", viewerPID); got != viewer+" idle" {
				t.Errorf("the admin sees the viewer's session as %q", got)
			}
		})
	}
}
