package catalogviews_test

import (
	"strconv"
	"strings"
	"testing"

	"cdcdb/sql/pgdefs"
	"cdcdb/sql/sqltest"
)

// Every system relation can be read, with PostgreSQL 15's columns.
func TestSystemRelationsAreReadable(t *testing.T) {
	c := sqltest.Open(t).Conn()
	for _, cat := range pgdefs.Catalogs() {
		switch cat.Name {
		case "pg_statistic_ext_data":
			continue // types cdcdb has no values for
		}
		if _, err := c.Exec("SELECT * FROM pg_catalog." + cat.Name); err != nil {
			t.Errorf("%s: %v", cat.Name, err)
		}
	}
	for _, v := range pgdefs.SystemViews() {
		if _, err := c.Exec("SELECT * FROM pg_catalog." + v.Name); err != nil {
			t.Errorf("%s: %v", v.Name, err)
		}
	}
	for _, v := range pgdefs.InfoSchemaViews() {
		if _, err := c.Exec("SELECT * FROM information_schema." + v.Name); err != nil {
			t.Errorf("information_schema.%s: %v", v.Name, err)
		}
	}
}

// The catalog functions, casts and engine forms that introspection uses,
// with the answers PostgreSQL 15 gives for the same objects (the pgtests
// comparison checks many of them against a live PostgreSQL too).
func TestCatalogFunctions(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec(`CREATE SCHEMA s;
CREATE TABLE s.items (id int PRIMARY KEY, name varchar(20) NOT NULL DEFAULT 'x', qty int8 DEFAULT 5, price numeric(8,2));
CREATE UNIQUE INDEX items_name_qty ON s.items (name, qty DESC);
CREATE TABLE t (a int, b text);
CREATE TABLE ser (id serial, v text);
INSERT INTO ser (v) VALUES ('a'), ('b'), ('c');
COMMENT ON TABLE s.items IS 'things';
COMMENT ON COLUMN s.items.name IS 'what it is called';
INSERT INTO t VALUES (1, 'one'), (2, 'two');`)
	cases := []struct{ query, want string }{
		// Casts to and from the object identifier types.
		{`SELECT 's.items'::regclass, 't'::regclass::oid > 16383, 'pg_class'::regclass::oid`, "s.items|t|1259"},
		{`SELECT 'integer'::regtype, 'character varying'::regtype::oid, '1043'::oid::regtype`, "integer|1043|character varying"},
		{`SELECT 's'::regnamespace::text, 'pg_catalog'::regnamespace::oid, 'now'::regproc::oid, 10::regrole`, "s|11|1299|cdcdb"},
		{`SELECT '123'::oid, to_regclass('nope'), to_regclass('t')::text`, "123|NULL|t"},
		// int2vector and oidvector subscripts count from 0.
		{`SELECT i.indkey[0], i.indkey[1], i.indkey[2] IS NULL, i.indoption[1], array_length(i.indclass, 1)
		  FROM pg_index i WHERE i.indexrelid = 's.items_name_qty'::regclass`, "2|3|t|3|2"},
		{`SELECT format_type('s.items'::regclass::oid, NULL) IS NULL, format_type(1700, 524294), format_type(1043, 24)`,
			"f|numeric(8,2)|character varying(20)"},
		{`SELECT pg_get_indexdef('s.items_name_qty'::regclass), pg_get_indexdef('s.items_name_qty'::regclass, 2, true)`,
			"CREATE UNIQUE INDEX items_name_qty ON s.items USING btree (name, qty DESC)|qty"},
		{`SELECT pg_get_constraintdef(oid), contype FROM pg_constraint WHERE conrelid = 's.items'::regclass`, "PRIMARY KEY (id)|p"},
		{`SELECT adnum, pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 's.items'::regclass ORDER BY 1`,
			"2|'x'::character varying\n3|5"},
		{`SELECT obj_description('s.items'::regclass, 'pg_class'), col_description('s.items'::regclass, 2),
		  col_description('s.items'::regclass, 1), obj_description('now'::regproc, 'pg_proc')`,
			"things|what it is called|NULL|current transaction time"},
		{`SELECT pg_table_is_visible('t'::regclass), pg_table_is_visible('s.items'::regclass), pg_table_is_visible('pg_class'::regclass)`,
			"t|f|t"},
		{`SELECT has_table_privilege('s.items', 'SELECT, INSERT'), has_schema_privilege(10, 's', 'USAGE'), pg_has_role('cdcdb', 'MEMBER')`,
			"t|t|t"},
		{`SELECT current_schemas(true), pg_get_userbyid(10), pg_get_userbyid(6171), pg_encoding_to_char(6), pg_is_in_recovery()`,
			"{pg_catalog,public}|cdcdb|pg_database_owner|UTF8|f"},
		{`SELECT array_to_string(ARRAY['a', NULL, 'c'], ','), array_to_string(ARRAY[1, NULL], ',', '*'), quote_ident('a b')`,
			`a,c|1,*|"a b"`},
		{`SELECT pg_relation_size('t') > 0, pg_total_relation_size('t') >= pg_relation_size('t'), pg_size_pretty(10240::int8), pg_size_pretty(20971520::int8)`,
			"t|t|10 kB|20 MB"},
		{`SELECT count(*) FROM pg_get_keywords() WHERE catcode = 'R'`, "77"},
		{`SELECT pg_stat_get_live_tuples('t'::regclass), n_live_tup, seq_scan FROM pg_stat_user_tables WHERE relname = 't'`, "2|2|0"},
		{`SELECT rolname, rolsuper FROM pg_roles WHERE oid = 10`, "cdcdb|t"},
		{`SELECT setting, unit, context FROM pg_settings WHERE name = 'statement_timeout'`, "0|ms|user"},
		{`SELECT tablename, hasindexes FROM pg_tables WHERE schemaname = 's'`, "items|t"},
		// A serial column's sequence is a relation of its own to clients.
		{`SELECT c.relkind, s.seqtypid::regtype, s.seqmax, pg_sequence_last_value(c.oid), d.refobjid::regclass, d.refobjsubid
		  FROM pg_class c JOIN pg_sequence s ON s.seqrelid = c.oid JOIN pg_depend d ON d.objid = c.oid AND d.deptype = 'a'
		  WHERE c.oid = 'ser_id_seq'::regclass`, "S|integer|2147483647|3|ser|1"},
		// Built-in functions described from PostgreSQL's pg_proc rows.
		{`SELECT 'generate_series(integer, integer)'::regprocedure::oid, pg_get_function_result('pg_get_keywords'::regproc)`,
			"1067|SETOF record"},
		{`SELECT pg_get_functiondef('lower(text)'::regprocedure)`,
			"CREATE OR REPLACE FUNCTION pg_catalog.lower(text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$lower$function$\n"},
		// Set-returning functions in a select list, named record fields.
		{`SELECT (information_schema._pg_expandarray(ARRAY[7, 8])).n, information_schema._pg_expandarray(ARRAY[7, 8])`, "1|(7,1)\n2|(8,2)"},
		{`SELECT r.k, (r.k).x FROM (SELECT information_schema._pg_expandarray(ARRAY['p']) AS k) r`, "(p,1)|p"},
		{`SELECT a, generate_series(1, a) AS g FROM t ORDER BY 1, 2`, "1|1\n2|1\n2|2"},
		// Different calls run in lockstep, the shorter padded with NULLs;
		// SQLAlchemy reads primary key columns in order so.
		{`SELECT unnest(ARRAY[1, 2, 3]) AS u, generate_series(1, 2) AS g`, "1|1\n2|2\n3|NULL"},
		{`SELECT a.attname FROM pg_attribute a JOIN (SELECT unnest(ix.indkey) attnum, generate_subscripts(ix.indkey, 1) ord
		  FROM pg_index ix WHERE ix.indrelid = 's.items'::regclass AND ix.indisprimary) k ON a.attnum = k.attnum
		  WHERE a.attrelid = 's.items'::regclass ORDER BY k.ord`, "id"},
		{`SELECT generate_subscripts(indkey, 1) FROM pg_index WHERE indexrelid = 's.items_name_qty'::regclass`, "0\n1"},
		// Integer bitwise operators.
		{`SELECT 6::int2 & 3::int2, 4 | 1, 5 # 1, 1 << 3, -16 >> 2, pg_typeof(1::int2 | 2::int2)`, "2|5|4|8|-4|smallint"},
		// A FROM list joined where its WHERE conjuncts meet gives what a
		// cross join filtered at the end gives.
		{`SELECT x.a, y.b FROM t x, t y, t z WHERE x.a = y.a AND y.a = z.a AND z.b <> 'two' ORDER BY 1`, "1|one"},
		{`SELECT count(*) FROM t x, t y, t z WHERE x.a < y.a`, "2"},
	}
	for _, tc := range cases {
		got := strings.TrimSuffix(c.MustExec(tc.query).String(), "\n")
		if got != tc.want {
			t.Errorf("%s\n got: %q\nwant: %q", tc.query, got, tc.want)
		}
	}
	c.ExpectError("42725", `SELECT 'pg_get_expr'::regproc`)
	// max_index_keys, which clients read as the bound on key columns, holds.
	if r := c.MustExec("SHOW max_index_keys"); r.String() != "32\n" {
		t.Errorf("max_index_keys: %q", r.String())
	}
	var cols, keys []string
	for i := 0; i < 33; i++ {
		cols = append(cols, "c"+strconv.Itoa(i)+" int")
		keys = append(keys, "c"+strconv.Itoa(i))
	}
	c.MustExec("CREATE TABLE wide (" + strings.Join(cols, ", ") + ")")
	c.ExpectError("54011", "CREATE INDEX wide_ix ON wide ("+strings.Join(keys, ", ")+")")
	c.ExpectError("54011", "CREATE TABLE wider ("+strings.Join(cols, ", ")+", PRIMARY KEY ("+strings.Join(keys, ", ")+"))")
	c.ExpectError("42P01", `SELECT 'nope'::regclass`)
	c.ExpectError("22023", `SELECT has_table_privilege('t', 'FLY')`)
}

// TestStorageView: cdcdb.storage counts this server's commits and shows the
// memtable holding them until a checkpoint.
func TestStorageView(t *testing.T) {
	c := sqltest.Open(t).Conn()
	count := func() (commits, memtable int64) {
		t.Helper()
		res := c.MustExec("SELECT commits, memtable_bytes, memtable_layers >= 1 FROM cdcdb.storage")
		if len(res.Rows) != 1 || res.Rows[0][2] != "t" {
			t.Fatalf("cdcdb.storage: %v", res.Rows)
		}
		commits, _ = strconv.ParseInt(res.Rows[0][0], 10, 64)
		memtable, _ = strconv.ParseInt(res.Rows[0][1], 10, 64)
		return commits, memtable
	}
	before, _ := count()
	c.MustExec("CREATE TABLE t (id int PRIMARY KEY, v text)")
	c.MustExec("INSERT INTO t VALUES (1, '" + strings.Repeat("x", 1000) + "')")
	c.MustExec("INSERT INTO t VALUES (2, 'y')")
	after, memtable := count()
	if after != before+3 {
		t.Errorf("commits went from %d to %d over three writing statements", before, after)
	}
	if memtable < 1000 {
		t.Errorf("memtable holds %d bytes after a 1000-byte row", memtable)
	}
	if got := c.MustExec("SELECT count(*) FROM cdcdb.storage WHERE checkpoints >= 0 AND flushes >= 1 AND checkpoint_seconds >= 0 AND commit_wait_seconds >= 0").String(); got != "1\n" {
		t.Errorf("counters: %q", got)
	}
	// The commits went through the log ring, which the file reserved.
	if got := c.MustExec("SELECT log_ring_flushes >= 3, log_ring_bytes >= 1048576, compactions >= 0, file_releases >= 0, covered_commits = 0 FROM cdcdb.storage").String(); got != "t|t|t|t|t\n" {
		t.Errorf("log ring and compaction counters: %q", got)
	}
}
