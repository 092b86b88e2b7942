package pgtests

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cdcdb/pgtests/pgserver"
)

// Schema privileges and ownership (docs/security.md, "Schemas and
// ownership"): USAGE and CREATE on schemas, GRANT and REVOKE of them,
// ALTER TABLE ... OWNER TO with its checks and its effect on the ACL, and
// owners' rights through membership: one script by a superuser and a
// member of a group, each answer compared with PostgreSQL 15's.
func TestSchemaPrivilegesMatchPostgres15(t *testing.T) {
	s := roleSuffix()
	sc, u, g := "sp_"+s, "u_"+s, "g_"+s
	const admin = "admin"
	steps := []roleStep{
		{admin, "CREATE SCHEMA " + sc, "ok"},
		{admin, "CREATE TABLE " + sc + ".t (a int)", "ok"},
		{admin, "INSERT INTO " + sc + ".t VALUES (1)", "ok"},
		{admin, "CREATE ROLE " + u + " LOGIN PASSWORD 'pw'", "ok"},
		{admin, "CREATE ROLE " + g + " NOLOGIN", "ok"},
		{admin, "GRANT " + g + " TO " + u, "ok"},
		{admin, "GRANT SELECT ON " + sc + ".t TO " + u, "ok"},

		{u, "SELECT count(*) FROM " + sc + ".t", "42501 permission denied for schema " + sc},
		{u, "SELECT has_schema_privilege('" + sc + "', 'USAGE')::text || has_schema_privilege('" + sc + "', 'CREATE')::text || has_schema_privilege('public', 'USAGE')::text", "value falsefalsetrue"},
		{admin, "SELECT has_schema_privilege('" + u + "', '" + sc + "', 'USAGE, CREATE')::text || has_schema_privilege('" + sc + "', 'CREATE')::text", "value falsetrue"},
		{admin, "GRANT USAGE ON SCHEMA " + sc + " TO " + u, "ok"},
		{u, "SELECT has_schema_privilege('" + sc + "', 'USAGE')::text || has_schema_privilege('" + sc + "', 'CREATE')::text", "value truefalse"},
		{admin, "SELECT array_to_string(nspacl, ',') FROM pg_namespace WHERE nspname = '" + sc + "'", "value cdcdb=UC/cdcdb," + u + "=U/cdcdb"},
		{u, "SELECT count(*) FROM " + sc + ".t", "value 1"},
		{u, "INSERT INTO " + sc + ".t VALUES (2)", "42501 permission denied for table t"},
		{u, "CREATE TABLE " + sc + ".mine (a int)", "42501 permission denied for schema " + sc},
		{u, "CREATE TABLE public.mine_" + s + " (a int)", "42501 permission denied for schema public"},
		{admin, "GRANT CREATE ON SCHEMA " + sc + " TO " + g, "ok"},
		{u, "CREATE TABLE " + sc + ".mine (a int)", "ok"},
		{u, "INSERT INTO " + sc + ".mine VALUES (1)", "ok"},
		{admin, "CREATE TABLE " + sc + ".parent (id int PRIMARY KEY)", "ok"},
		{admin, "GRANT SELECT ON " + sc + ".parent TO " + u, "ok"},
		{u, "CREATE TABLE " + sc + ".child (pid int REFERENCES " + sc + ".parent)", "42501 permission denied for table parent"},
		{admin, "GRANT ALL ON " + sc + ".parent TO " + u, "ok"},
		{u, "CREATE TABLE " + sc + ".child (pid int REFERENCES " + sc + ".parent)", "ok"},
		{u, "DROP TABLE " + sc + ".child", "ok"},
		// A view reads with its owner's rights: a REVOKE from the owner
		// reaches the view's readers.
		{u, "CREATE VIEW " + sc + ".pv AS SELECT count(*) AS n FROM " + sc + ".parent", "ok"},
		{u, "GRANT SELECT ON " + sc + ".pv TO " + g, "ok"},
		{u, "SELECT n FROM " + sc + ".pv", "value 0"},
		{admin, "REVOKE ALL ON " + sc + ".parent FROM " + u, "ok"},
		{u, "SELECT n FROM " + sc + ".pv", "42501 permission denied for table parent"},
		{admin, "SELECT n FROM " + sc + ".pv", "42501 permission denied for table parent"},
		{u, "DROP VIEW " + sc + ".pv", "ok"},
		{u, "ALTER TABLE " + sc + ".mine OWNER TO " + g, "ok"},
		{u, "SELECT tableowner FROM pg_tables WHERE schemaname = '" + sc + "' AND tablename = 'mine'", "value " + g},
		{u, "ALTER TABLE " + sc + ".mine ADD COLUMN b int", "ok"}, // as a member of the owner
		{u, "SELECT count(*) FROM " + sc + ".mine", "value 1"},
		{u, "ALTER TABLE " + sc + ".mine OWNER TO cdcdb", "42501 must be member of role \"cdcdb\""},
		{u, "ALTER TABLE " + sc + ".t OWNER TO " + u, "42501 must be owner of table t"},
		{u, "ALTER TABLE " + sc + ".mine OWNER TO nosuch_" + s, "42704 role \"nosuch_" + s + "\" does not exist"},
		{u, "GRANT USAGE ON SCHEMA " + sc + " TO " + g, "ok"}, // a warning: no privileges were granted
		{admin, "GRANT SELECT ON SCHEMA " + sc + " TO " + u, "0LP01 invalid privilege type SELECT for schema"},
		{admin, "GRANT USAGE ON SCHEMA nosuch_" + s + " TO " + u, "3F000 schema \"nosuch_" + s + "\" does not exist"},

		{admin, "REVOKE USAGE ON SCHEMA " + sc + " FROM " + u, "ok"},
		{u, "SELECT count(*) FROM " + sc + ".t", "42501 permission denied for schema " + sc},
		{u, "DROP TABLE " + sc + ".mine", "42501 permission denied for schema " + sc},
		{admin, "GRANT USAGE ON SCHEMA " + sc + " TO PUBLIC", "ok"},
		{u, "SELECT count(*) FROM " + sc + ".t", "value 1"},
		{admin, "REVOKE CREATE ON SCHEMA " + sc + " FROM " + g, "ok"},
		{u, "CREATE TABLE " + sc + ".mine2 (a int)", "42501 permission denied for schema " + sc},
		{u, "DROP TABLE " + sc + ".mine", "ok"},

		// The owner's grants pass to the new owner.
		{admin, "ALTER TABLE " + sc + ".t OWNER TO " + u, "ok"},
		{admin, "SELECT array_to_string(relacl, ',') FROM pg_class WHERE relname = 't' AND relnamespace = '" + sc + "'::regnamespace", "value " + u + "=arwdDxt/" + u},
		{u, "INSERT INTO " + sc + ".t VALUES (2)", "ok"},
		{admin, "ALTER TABLE " + sc + ".t OWNER TO cdcdb", "ok"},
		{admin, "SELECT array_to_string(relacl, ',') FROM pg_class WHERE relname = 't' AND relnamespace = '" + sc + "'::regnamespace", "value cdcdb=arwdDxt/cdcdb"},
		{u, "SELECT count(*) FROM " + sc + ".t", "42501 permission denied for table t"},
	}
	playRoleScript(t, admin, steps, []string{sc}, []string{u, g})
}

// TestDefaultPrivilegesMatchPostgres15: ALTER DEFAULT PRIVILEGES for a
// role, in every schema and in one, gives that role's new tables their
// grants (merged as PostgreSQL merges them), is refused to a role that
// may not act for the target, and is listed in pg_default_acl.
func TestDefaultPrivilegesMatchPostgres15(t *testing.T) {
	s := roleSuffix()
	sc, w, r := "dp_"+s, "w_"+s, "r_"+s
	const admin = "admin"
	acl := func(table string) string {
		return "SELECT coalesce(array_to_string(relacl, ','), 'null') FROM pg_class WHERE relname = '" + table + "' AND relnamespace = '" + sc + "'::regnamespace"
	}
	count := "SELECT count(*) FROM pg_default_acl d JOIN pg_roles o ON o.oid = d.defaclrole WHERE o.rolname = '" + w + "'"
	steps := []roleStep{
		{admin, "CREATE ROLE " + w + " LOGIN PASSWORD 'pw'", "ok"},
		{admin, "CREATE ROLE " + r + " LOGIN PASSWORD 'pw'", "ok"},
		{admin, "CREATE SCHEMA " + sc, "ok"},
		{admin, "GRANT USAGE, CREATE ON SCHEMA " + sc + " TO " + w, "ok"},
		{admin, "GRANT USAGE ON SCHEMA " + sc + " TO " + r, "ok"},
		{admin, "ALTER DEFAULT PRIVILEGES FOR ROLE " + w + " IN SCHEMA " + sc + " GRANT SELECT ON TABLES TO " + r, "ok"},
		{w, "CREATE TABLE " + sc + ".t1 (a int)", "ok"},
		{w, "INSERT INTO " + sc + ".t1 VALUES (1)", "ok"},
		{r, "SELECT count(*) FROM " + sc + ".t1", "value 1"},
		{r, "INSERT INTO " + sc + ".t1 VALUES (2)", "42501 permission denied for table t1"},
		{admin, acl("t1"), "value " + w + "=arwdDxt/" + w + "," + r + "=r/" + w},
		{w, "ALTER DEFAULT PRIVILEGES GRANT INSERT ON TABLES TO " + r, "ok"},
		{w, "CREATE TABLE " + sc + ".t2 (a int)", "ok"},
		{admin, acl("t2"), "value " + w + "=arwdDxt/" + w + "," + r + "=ar/" + w},
		{r, "INSERT INTO " + sc + ".t2 VALUES (1)", "ok"},
		{admin, acl("t1"), "value " + w + "=arwdDxt/" + w + "," + r + "=r/" + w},
		{admin, count, "value 2"},
		{r, "ALTER DEFAULT PRIVILEGES FOR ROLE " + w + " GRANT ALL ON TABLES TO " + r, "42501 must be member of role \"" + w + "\""},
		{admin, "ALTER DEFAULT PRIVILEGES FOR ROLE " + w + " IN SCHEMA nosuch_" + s + " GRANT SELECT ON TABLES TO " + r, "3F000 schema \"nosuch_" + s + "\" does not exist"},
		{admin, "ALTER DEFAULT PRIVILEGES FOR ROLE " + w + " REVOKE INSERT ON TABLES FROM " + r, "ok"},
		{admin, "ALTER DEFAULT PRIVILEGES FOR ROLE " + w + " IN SCHEMA " + sc + " REVOKE SELECT ON TABLES FROM " + r, "ok"},
		{admin, count, "value 0"},
		{w, "CREATE TABLE " + sc + ".t3 (a int)", "ok"},
		{admin, acl("t3"), "value null"},
		{w, "ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO PUBLIC", "ok"},
		{w, "CREATE VIEW " + sc + ".v AS SELECT 1 AS a", "ok"},
		{admin, acl("v"), "value =r/" + w + "," + w + "=arwdDxt/" + w},
		{w, "ALTER DEFAULT PRIVILEGES REVOKE SELECT ON TABLES FROM PUBLIC", "ok"},
		{admin, count, "value 0"},
		// A role named in default privileges, or holding a schema
		// privilege, cannot be dropped.
		{admin, "CREATE ROLE z_" + s, "ok"},
		{admin, "ALTER DEFAULT PRIVILEGES FOR ROLE " + w + " GRANT SELECT ON TABLES TO z_" + s, "ok"},
		{admin, "DROP ROLE z_" + s, "2BP01 role \"z_" + s + "\" cannot be dropped because some objects depend on it"},
		{admin, "ALTER DEFAULT PRIVILEGES FOR ROLE " + w + " REVOKE SELECT ON TABLES FROM z_" + s, "ok"},
		{admin, "GRANT USAGE ON SCHEMA " + sc + " TO z_" + s, "ok"},
		{admin, "DROP ROLE z_" + s, "2BP01 role \"z_" + s + "\" cannot be dropped because some objects depend on it"},
		{admin, "REVOKE USAGE ON SCHEMA " + sc + " FROM z_" + s, "ok"},
		{admin, "DROP ROLE z_" + s, "ok"},
	}
	playRoleScript(t, admin, steps, []string{sc}, []string{w, r, "z_" + s})
}

// TestPgDumpallCarriesMembershipsAndGrants: PostgreSQL 15's pg_dumpall
// reads memberships, schema grants, default privileges and owners from
// cdcdb's catalogs and writes them as the statements that make them.
func TestPgDumpallCarriesMembershipsAndGrants(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.URL())
	for _, sql := range []string{
		"CREATE ROLE readers NOLOGIN", "CREATE ROLE bi LOGIN", "CREATE ROLE pipeline LOGIN",
		"GRANT readers TO bi",
		"CREATE SCHEMA sales", "GRANT USAGE ON SCHEMA sales TO readers", "GRANT CREATE ON SCHEMA sales TO pipeline",
		"CREATE TABLE sales.orders (id int)", "ALTER TABLE sales.orders OWNER TO pipeline",
		"ALTER DEFAULT PRIVILEGES FOR ROLE pipeline IN SCHEMA sales GRANT SELECT ON TABLES TO readers",
	} {
		mustExec(t, conn, sql)
	}
	pgDumpPath(t)
	cmd := exec.Command(filepath.Join(pgserver.PostgresBinDir, "pg_dumpall"), "-h", srv.Host(), "-p", strconv.Itoa(srv.Port()), "-U", "cdcdb")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pg_dumpall: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{
		"GRANT readers TO bi GRANTED BY cdcdb;",
		"GRANT USAGE ON SCHEMA sales TO readers;",
		"GRANT CREATE ON SCHEMA sales TO pipeline;",
		"ALTER TABLE sales.orders OWNER TO pipeline;",
		"ALTER DEFAULT PRIVILEGES FOR ROLE pipeline IN SCHEMA sales GRANT SELECT ON TABLES  TO readers;",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("pg_dumpall's script lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("pg_dumpall's script:\n%s", out)
	}
}
