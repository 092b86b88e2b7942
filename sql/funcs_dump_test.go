package sql_test

import (
	"strings"
	"testing"

	"cdcdb/sql/sqltest"
)

// TestWhatPgDumpAsks: the answers pg_dump needs, each PostgreSQL 15's for
// the same objects (cdcdb's one role is the owner of everything it makes).
func TestWhatPgDumpAsks(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec(`CREATE SCHEMA s;
CREATE TABLE s.items (id serial PRIMARY KEY, name text);
CREATE TABLE t (a int);
CREATE VIEW v AS SELECT a FROM t;
INSERT INTO t VALUES (1);
INSERT INTO s.items (name) VALUES ('a'), ('b')`)
	cases := []struct{ query, want string }{
		{`SELECT acldefault('n', 10), acldefault('r', 10), acldefault('c', 10), acldefault('T', 10)`,
			"{cdcdb=UC/cdcdb}|{cdcdb=arwdDxt/cdcdb}|{}|{=U/cdcdb,cdcdb=U/cdcdb}"},
		{`SELECT nspacl FROM pg_namespace WHERE nspname = 'public'`, "{pg_database_owner=UC/pg_database_owner,=U/pg_database_owner}"},
		{`SELECT option_name, option_value FROM pg_options_to_table(ARRAY['a=b=c', 'x'])`, "a|b=c\nx|NULL"},
		{`SELECT typname[0], typname[1], typname[63] = '', typname[64] IS NULL, typname[-1] IS NULL FROM pg_type WHERE typname = '_int4'`,
			"_|i|t|t|t"},
		{`SELECT tableoid = 'pg_type'::regclass FROM pg_type WHERE typname = 'int4'`, "t"},
		{`SELECT x.tableoid = 't'::regclass FROM t x`, "t"},
		{`SELECT tableoid::regclass FROM s.items LIMIT 1`, "s.items"},
		{`SELECT last_value, log_cnt, is_called FROM s.items_id_seq`, "2|0|t"},
		{`SELECT count(*) FROM pg_seclabels`, "0"},
		{`SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 's.items'::regclass`, "nextval('s.items_id_seq'::regclass)"},
		{`SELECT e.extname, n.nspname, e.oid < 16384 FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace`, "cdcdb|cdcdb|t"},
		{`SELECT count(*) FROM pg_depend WHERE deptype = 'e' AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'cdcdb')
		    AND (classid = 'pg_namespace'::regclass OR objid IN (SELECT oid FROM pg_class WHERE relnamespace = 'cdcdb'::regnamespace))`,
			"5"},
	}
	for _, tc := range cases {
		got := strings.TrimSuffix(c.MustExec(tc.query).String(), "\n")
		if got != tc.want {
			t.Errorf("%s\n got: %q\nwant: %q", tc.query, got, tc.want)
		}
	}
	c.ExpectError("42703", `SELECT tableoid FROM v`) // a view has no system columns
	c.MustExec("SET search_path = s")
	if got := c.MustExec(`SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 's.items'::regclass`).String(); got != "nextval('items_id_seq'::regclass)\n" {
		t.Errorf("default with s on search_path: %q", got)
	}
	c.ExpectError("42703", `SELECT tableoid FROM (SELECT 1) q`)
	c.ExpectError("42702", `SELECT tableoid FROM pg_type, pg_class LIMIT 1`)
	c.ExpectError("0A000", `SELECT typname[0:1] FROM pg_type LIMIT 1`)
	c.ExpectError("XX000", `SELECT acldefault('z', 10)`) // as PostgreSQL's elog
}
