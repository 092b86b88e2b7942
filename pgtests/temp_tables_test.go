package pgtests

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestTemporaryTablesBelongToTheirSession, on cdcdb and on PostgreSQL 15: a
// temporary table is seen only by the session that made it, shadows a
// permanent table of its name there, cannot be reached by another session
// even by its schema's name, and is gone after DISCARD TEMP and after its
// session ends; two sessions may each have one of the same name.
func TestTemporaryTablesBelongToTheirSession(t *testing.T) {
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			a, b := connect(t, tg.URL), connect(t, tg.URL)
			mustExec(t, a, "CREATE TABLE shared (v text)")
			mustExec(t, a, "INSERT INTO shared VALUES ('everyone')")
			mustExec(t, a, "CREATE TEMP TABLE shared (v text)")
			mustExec(t, a, "INSERT INTO shared VALUES ('a alone')")
			mustExec(t, a, "CREATE TEMPORARY TABLE t (v text, n serial PRIMARY KEY)")
			mustExec(t, a, "INSERT INTO t (v) VALUES ('a1')")
			mustExec(t, a, "CREATE TABLE keys_p (n int PRIMARY KEY)")
			mustExec(t, a, "CREATE TEMP TABLE keys_t (n int PRIMARY KEY)")
			mustExec(t, b, "CREATE TEMP TABLE t (v text, n serial PRIMARY KEY)")
			mustExec(t, b, "INSERT INTO t (v) VALUES ('b1'), ('b2')")

			sees := func(conn *pgx.Conn, query, want string) {
				t.Helper()
				if got := queryString(t, conn, query); got != want {
					t.Errorf("%s: %q, want %q", query, got, want)
				}
			}
			sees(a, "SELECT string_agg(v, ',' ORDER BY n) FROM t", "a1")
			sees(b, "SELECT string_agg(v, ',' ORDER BY n) FROM t", "b1,b2")
			sees(a, "SELECT v FROM shared", "a alone")
			sees(a, "SELECT v FROM public.shared", "everyone")
			sees(a, "SELECT v FROM pg_temp.shared", "a alone")
			sees(b, "SELECT v FROM shared", "everyone")
			sees(a, "SELECT relpersistence::text FROM pg_class WHERE oid = 't'::regclass", "t")
			sees(a, "SELECT relpersistence::text FROM pg_class WHERE oid = 'public.shared'::regclass", "p")
			sees(a, "SELECT table_type::text FROM information_schema.tables WHERE table_name = 't'", "LOCAL TEMPORARY")
			sees(a, "SELECT array_to_string(current_schemas(false), ',')", "public")
			sees(a, "SELECT current_schema()::text", "public")

			schemaA := queryString(t, a, "SELECT pg_my_temp_schema()::regnamespace::text")
			schemaB := queryString(t, b, "SELECT pg_my_temp_schema()::regnamespace::text")
			if !regexp.MustCompile(`^pg_temp_\d+$`).MatchString(schemaA) || schemaA == schemaB {
				t.Fatalf("temporary schemas %q and %q: want two pg_temp_N", schemaA, schemaB)
			}
			sees(a, "SELECT array_to_string(current_schemas(true), ',')", schemaA+",pg_catalog,public")
			for _, q := range []string{"SELECT * FROM " + schemaA + ".t", "INSERT INTO " + schemaA + ".t (v) VALUES ('b')"} {
				_, err := b.Exec(ctx, q)
				requireSQLState(t, err, "0A000")
			}
			sees(b, "SELECT count(*)::text FROM information_schema.tables WHERE table_schema = '"+schemaA+"'", "0")
			sees(b, "SELECT pg_is_other_temp_schema('"+schemaA+"'::regnamespace)::text", "true")
			// Nor may a constraint tie a table to one of the other kind.
			for _, q := range []string{
				"CREATE TEMP TABLE public.x (v text)",
				"CREATE TEMP TABLE x (n int REFERENCES keys_p)",
				"CREATE TABLE x (n int REFERENCES keys_t)",
				"ALTER TABLE keys_p ADD FOREIGN KEY (n) REFERENCES keys_t",
			} {
				_, err := a.Exec(ctx, q)
				requireSQLState(t, err, "42P16")
			}

			mustExec(t, a, "DISCARD TEMP")
			_, err := a.Exec(ctx, "SELECT * FROM t")
			requireSQLState(t, err, "42P01")
			sees(a, "SELECT v FROM shared", "everyone")
			sees(b, "SELECT string_agg(v, ',' ORDER BY n) FROM t", "b1,b2")

			// A session's end takes its temporary tables along.
			mustExec(t, a, "CREATE TEMP TABLE again (v text PRIMARY KEY)")
			mustExec(t, a, "CREATE TEMP TABLE again_child (v text REFERENCES again, w int)")
			mustExec(t, a, "CREATE INDEX ON again_child (w)")
			mustExec(t, a, "INSERT INTO again VALUES ('x')")
			mustExec(t, a, "INSERT INTO again_child VALUES ('x', 1)")
			schemaA = queryString(t, a, "SELECT pg_my_temp_schema()::regnamespace::text")
			if err := a.Close(ctx); err != nil {
				t.Fatal(err)
			}
			left := func() int64 {
				return queryInt64s(t, b, "SELECT count(*) FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = $1", schemaA)[0]
			}
			waitFor(t, 10*time.Second, "the ended session's temporary tables to go", func() bool { return left() == 0 })
			sees(b, "SELECT string_agg(v, ',' ORDER BY n) FROM t", "b1,b2")
		})
	}
}

// TestTemporaryTablesAreGoneAfterAServerCrash: temporary tables whose
// session never ended, because the server was killed, are dropped when it
// starts again, before a new session (whose pid may be the old one's) could
// see them.
func TestTemporaryTablesAreGoneAfterAServerCrash(t *testing.T) {
	srv := startServer(t)
	a := connect(t, srv.URL())
	mustExec(t, a, "CREATE TABLE kept (v int)")
	mustExec(t, a, "INSERT INTO kept VALUES (1)")
	mustExec(t, a, "CREATE TEMP TABLE scratch (v int)")
	mustExec(t, a, "INSERT INTO scratch VALUES (1)")
	if got := queryInt64s(t, a, "SELECT v FROM pg_temp.scratch"); len(got) != 1 {
		t.Fatalf("pg_temp.scratch before the crash: %v, want its one row", got)
	}
	srv.Kill()
	srv.StartAgain()
	b := connect(t, srv.URL())
	if n := queryInt64s(t, b, "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'pg\\_temp\\_%'")[0]; n != 0 {
		t.Errorf("%d temporary schemas after the restart, want none", n)
	}
	if n := queryInt64s(t, b, "SELECT count(*) FROM pg_class WHERE relname = 'scratch'")[0]; n != 0 {
		t.Errorf("%d relations named scratch after the restart, want none", n)
	}
	_, err := b.Exec(testContext(t), "SELECT * FROM pg_temp.scratch")
	requireSQLState(t, err, "42P01")
	if got := queryInt64s(t, b, "SELECT v FROM kept"); len(got) != 1 {
		t.Errorf("permanent table after the restart: %v, want its one row", got)
	}
}

// TestTemporaryTablesStayOutOfViewsAndFlows: cdcdb has no temporary views
// and a flow is applied by whichever session writes its source, so neither
// may read a temporary table (PostgreSQL would make such a view temporary).
func TestTemporaryTablesStayOutOfViewsAndFlows(t *testing.T) {
	conn := connect(t, startServer(t).URL())
	ctx := testContext(t)
	mustExec(t, conn, "CREATE TEMP TABLE changes (id int, v text, seq int)")
	mustExec(t, conn, "CREATE STREAMING TABLE current_v")
	for q, code := range map[string]string{
		"CREATE VIEW v AS SELECT * FROM changes":                                                           "0A000",
		"CREATE VIEW v AS SELECT * FROM (SELECT id FROM changes) s":                                        "0A000",
		"CREATE FLOW f AS AUTO CDC INTO current_v FROM stream(changes) KEYS (id) SEQUENCE BY seq":          "0A000",
		"CREATE STREAMING TABLE pg_temp.st":                                                                "0A000",
		"CREATE FLOW f2 AS AUTO CDC INTO current_v FROM stream(pg_temp.changes) KEYS (id) SEQUENCE BY seq": "0A000",
	} {
		_, err := conn.Exec(ctx, q)
		requireSQLState(t, err, code)
	}
	var n int64
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM cdcdb.flows").Scan(&n); err != nil || n != 0 {
		t.Errorf("flows after the refusals: %d (%v), want 0", n, err)
	}
}
