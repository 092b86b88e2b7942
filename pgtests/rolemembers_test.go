package pgtests

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdcdb/pgtests/pgserver"
)

// Role membership (docs/security.md, "Role membership"): GRANT role TO
// role, INHERIT and NOINHERIT, SET ROLE and RESET ROLE, current_user and
// session_user, CREATEROLE, pg_auth_members and psql's \du, one script of
// statements by four roles, each answer compared with PostgreSQL 15's.
func TestRoleMembershipMatchesPostgres15(t *testing.T) {
	s := roleSuffix()
	readers, analyst, noinh, ra, sub := "readers_"+s, "analyst_"+s, "noinh_"+s, "ra_"+s, "sub_"+s
	table := "mt_" + s
	const admin = "admin"
	steps := []roleStep{
		{admin, "CREATE ROLE " + readers + " NOLOGIN", "ok"},
		{admin, "CREATE ROLE " + analyst + " LOGIN PASSWORD 'pw'", "ok"},
		{admin, "CREATE ROLE " + noinh + " LOGIN NOINHERIT PASSWORD 'pw'", "ok"},
		{admin, "CREATE ROLE " + ra + " LOGIN CREATEROLE PASSWORD 'pw'", "ok"},
		{admin, "CREATE TABLE " + table + " (a int)", "ok"},
		{admin, "INSERT INTO " + table + " VALUES (1)", "ok"},
		{admin, "GRANT SELECT ON " + table + " TO " + readers, "ok"},
		{admin, "GRANT " + readers + " TO " + analyst + ", " + noinh, "ok"},
		{admin, "GRANT " + readers + " TO " + analyst, "ok"}, // a notice: already a member
		{admin, "GRANT " + analyst + " TO " + readers, "0LP01 role \"" + analyst + "\" is a member of role \"" + readers + "\""},
		{admin, "GRANT " + readers + " TO " + readers, "0LP01 role \"" + readers + "\" is a member of role \"" + readers + "\""},
		{admin, "GRANT nosuch_" + s + " TO " + analyst, "42704 role \"nosuch_" + s + "\" does not exist"},
		{admin, "GRANT " + readers + " TO nosuch_" + s, "42704 role \"nosuch_" + s + "\" does not exist"},

		// analyst inherits readers' SELECT, nothing more.
		{analyst, "SELECT count(*) FROM " + table, "ok"},
		{analyst, "INSERT INTO " + table + " VALUES (2)", "42501 permission denied for table " + table},
		{analyst, "SELECT current_user || ' ' || session_user", "value " + analyst + " " + analyst},
		{analyst, "SET ROLE cdcdb", "42501 permission denied to set role \"cdcdb\""},
		{analyst, "SET ROLE nosuch_" + s, "22023 role \"nosuch_" + s + "\" does not exist"},
		{analyst, "SET ROLE " + readers, "ok"},
		{analyst, "SELECT current_user || ' ' || session_user", "value " + readers + " " + analyst},
		{analyst, "SHOW role", "value " + readers},
		{analyst, "RESET ROLE", "ok"},
		{analyst, "SHOW role", "value none"},
		{analyst, "GRANT " + readers + " TO " + ra, "42501 must have admin option on role \"" + readers + "\""},
		{analyst, "ALTER ROLE " + analyst + " SUPERUSER", "42501 must be superuser to alter superuser roles or change superuser attribute"},
		{analyst, "ALTER ROLE " + analyst + " CREATEROLE", "42501 permission denied"},
		{analyst, "ALTER ROLE " + analyst + " PASSWORD 'pw'", "ok"},

		// noinh must SET ROLE to use readers' rights.
		{noinh, "SELECT count(*) FROM " + table, "42501 permission denied for table " + table},
		{noinh, "SET ROLE " + readers, "ok"},
		{noinh, "SELECT count(*) FROM " + table, "ok"},
		{noinh, "SELECT current_user || ' ' || session_user", "value " + readers + " " + noinh},
		{noinh, "SET ROLE NONE", "ok"},
		{noinh, "SELECT count(*) FROM " + table, "42501 permission denied for table " + table},
		{noinh, "BEGIN", "ok"},
		{noinh, "SET LOCAL ROLE " + readers, "ok"},
		{noinh, "SELECT count(*) FROM " + table, "ok"},
		{noinh, "COMMIT", "ok"},
		{noinh, "SELECT current_user", "value " + noinh},
		{noinh, "BEGIN", "ok"},
		{noinh, "SET ROLE " + readers, "ok"},
		{noinh, "ROLLBACK", "ok"},
		{noinh, "SELECT current_user", "value " + noinh},

		// CREATEROLE: roles, but not superusers.
		{ra, "CREATE ROLE " + sub, "ok"},
		{ra, "CREATE ROLE su_" + s + " SUPERUSER", "42501 must be superuser to create superusers"},
		{ra, "GRANT " + readers + " TO " + sub, "ok"},
		{ra, "GRANT cdcdb TO " + sub, "42501 must be superuser to alter superusers"},
		{ra, "ALTER ROLE " + sub + " LOGIN", "ok"},
		{ra, "ALTER ROLE cdcdb NOLOGIN", "42501 must be superuser to alter superuser roles or change superuser attribute"},
		{ra, "DROP ROLE cdcdb", "42501 must be superuser to drop superusers"},
		{ra, "REVOKE " + readers + " FROM " + sub, "ok"},
		{ra, "REVOKE " + readers + " FROM " + sub, "ok"}, // a warning: not a member
		{ra, "DROP ROLE " + sub, "ok"},
		{analyst, "CREATE ROLE x_" + s, "42501 permission denied to create role"},

		// The admin option lets a member grant the role on.
		{admin, "GRANT " + readers + " TO " + analyst + " WITH ADMIN OPTION", "ok"},
		{analyst, "GRANT " + readers + " TO " + ra, "ok"},
		{admin, "REVOKE ADMIN OPTION FOR " + readers + " FROM " + analyst, "ok"},
		{analyst, "REVOKE " + readers + " FROM " + ra, "42501 must have admin option on role \"" + readers + "\""},
		{admin, "SELECT string_agg(r.rolname || '>' || m.rolname || ':' || a.admin_option, ',' ORDER BY r.rolname, m.rolname) FROM pg_auth_members a " +
			"JOIN pg_roles r ON r.oid = a.roleid JOIN pg_roles m ON m.oid = a.member WHERE r.rolname = '" + readers + "'",
			"value " + readers + ">" + analyst + ":false," + readers + ">" + noinh + ":false," + readers + ">" + ra + ":false"},
		{admin, "SELECT pg_has_role('" + analyst + "', '" + readers + "', 'MEMBER')::text || pg_has_role('" + analyst + "', '" + readers + "', 'USAGE')::text || " +
			"pg_has_role('" + noinh + "', '" + readers + "', 'MEMBER')::text || pg_has_role('" + noinh + "', '" + readers + "', 'USAGE')::text || " +
			"pg_has_role('" + readers + "', '" + analyst + "', 'MEMBER')::text", "value truetruetruefalsefalse"},
		{analyst, "SELECT pg_has_role('" + readers + "', 'MEMBER')::text || pg_has_role('cdcdb', 'USAGE')::text", "value truefalse"},
		{admin, "SELECT has_table_privilege('" + analyst + "', '" + table + "', 'SELECT')::text || has_table_privilege('" + noinh + "', '" + table + "', 'SELECT')::text",
			"value truefalse"},

		// Dropping the group drops its memberships.
		{admin, "REVOKE SELECT ON " + table + " FROM " + readers, "ok"},
		{admin, "DROP ROLE " + readers, "ok"},
		{admin, "SELECT count(*) FROM pg_auth_members a JOIN pg_roles m ON m.oid = a.member WHERE m.rolname IN ('" + analyst + "', '" + noinh + "', '" + ra + "')", "value 0"},
	}
	playRoleScript(t, admin, steps, nil, []string{readers, analyst, noinh, ra, sub})
}

// TestRoleMembershipPsqlDu: psql's \du shows a role's memberships in its
// "Member of" column, as it does on PostgreSQL 15.
func TestRoleMembershipPsqlDu(t *testing.T) {
	s := roleSuffix()
	group, member := "grp_"+s, "mem_"+s
	var outputs []string
	for _, tg := range bothTargets(t) {
		admin := connect(t, tg.URL)
		mustExec(t, admin, "CREATE ROLE "+group)
		mustExec(t, admin, "CREATE ROLE "+member+" LOGIN")
		mustExec(t, admin, "GRANT "+group+" TO "+member)
		if tg.Name != "cdcdb" {
			t.Cleanup(func() {
				admin.Exec(context.Background(), "DROP ROLE IF EXISTS "+member)
				admin.Exec(context.Background(), "DROP ROLE IF EXISTS "+group)
			})
		}
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, psqlPath(t), "-X", "-h", tg.Host, "-p", strconv.Itoa(tg.Port), "-d", tg.DB, "-c", `\du `+member)
		cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8", "PGUSER=cdcdb", "PGSERVICEFILE=/nonexistent", "PGSSLMODE=disable")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		cancel()
		if err != nil {
			t.Fatalf("%s: psql \\du: %v\n%s", tg.Name, err, stderr.String())
		}
		outputs = append(outputs, stdout.String())
		if !strings.Contains(stdout.String(), "{"+group+"}") {
			t.Errorf("%s: \\du does not show the membership:\n%s", tg.Name, stdout.String())
		}
	}
	if len(outputs) == 2 && outputs[0] != outputs[1] {
		t.Errorf("\\du differs:\ncdcdb:\n%s\nPostgreSQL 15:\n%s", outputs[0], outputs[1])
	}
}

// TestRoleMembershipPsycopg3: psycopg 3 logs in as a member of a group
// that may read a table in a schema of its own: it reads through the
// group, is refused a write and a schema it may not use with
// InsufficientPrivilege, and SET ROLE changes current_user only.
func TestRoleMembershipPsycopg3(t *testing.T) {
	requirePythonModule(t, "psycopg", "python3-psycopg")
	srv := startServer(t, pgserver.WithPassword("admin-pw"))
	admin := connect(t, srv.URL())
	for _, sql := range []string{
		"CREATE SCHEMA sales", "CREATE SCHEMA hr",
		"CREATE TABLE sales.orders (id int)", "INSERT INTO sales.orders VALUES (1), (2)",
		"CREATE TABLE hr.pay (id int)",
		"CREATE ROLE readers NOLOGIN", "GRANT USAGE ON SCHEMA sales TO readers", "GRANT SELECT ON sales.orders TO readers",
		"GRANT SELECT ON hr.pay TO readers",
		"CREATE ROLE metabase LOGIN PASSWORD 'mb-pw'", "GRANT readers TO metabase",
	} {
		mustExec(t, admin, sql)
	}
	dsn := fmt.Sprintf("host=%s port=%d user=metabase password=mb-pw dbname=main sslmode=disable", srv.Host(), srv.Port())
	runClient(t, "MEMBERSHIP OK", nil, systemPython, "-c", `
import sys, psycopg
with psycopg.connect(sys.argv[1], autocommit=True) as c:
    assert c.execute("SELECT count(*) FROM sales.orders WHERE id > %s", (0,)).fetchone() == (2,)
    for sql, want in [("INSERT INTO sales.orders VALUES (3)", "permission denied for table orders"),
                      ("SELECT count(*) FROM hr.pay", "permission denied for schema hr")]:
        try:
            c.execute(sql)
            raise SystemExit(sql + " was accepted")
        except psycopg.errors.InsufficientPrivilege as e:
            assert str(e) == want, str(e)
    c.execute("SET ROLE readers")
    assert c.execute("SELECT current_user, session_user").fetchone() == ("readers", "metabase")
    c.execute("RESET ROLE")
    assert c.execute("SELECT current_user").fetchone() == ("metabase",)
print("MEMBERSHIP OK")
`, dsn)
}
