package pgtests

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestCatalogFunctionsSeeTheirTransaction runs one script of catalog
// functions (sql/catalogviews' funcs*.go) on cdcdb and on PostgreSQL 15 and
// compares each answer: what they read of the session (search path,
// users) and of the statement's catalog, which includes DDL earlier in
// the same transaction, and the errors they raise for bad arguments.
func TestCatalogFunctionsSeeTheirTransaction(t *testing.T) {
	steps := []struct{ sql, want string }{
		{"BEGIN", ""},
		{"CREATE SCHEMA cf_s", ""},
		{"CREATE TABLE cf_s.items (id serial PRIMARY KEY, note text)", ""},
		{"SET LOCAL search_path = cf_nosuch, cf_s, public", ""},
		{"SELECT current_schema(), array_to_string(current_schemas(false), ','), array_to_string(current_schemas(true), ',')",
			"cf_s|cf_s,public|pg_catalog,cf_s,public"},
		{"SELECT pg_table_is_visible('cf_s.items'::regclass), pg_get_serial_sequence('items', 'id')", "true|cf_s.items_id_seq"},
		{"SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'cf_s.items'::regclass", "nextval('items_id_seq'::regclass)"},
		{"SELECT pg_sequence_last_value('cf_s.items_id_seq')", "<nil>"},
		{"INSERT INTO items (note) VALUES ('a'), ('b')", ""},
		{"SELECT pg_sequence_last_value('cf_s.items_id_seq')", "2"},
		{"COMMIT", ""},
		{"SELECT pg_sequence_last_value('cf_s.items')", "ERROR 42809"},
		{"SELECT current_schema(), pg_table_is_visible('cf_s.items'::regclass)", "public|false"},
		{"SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'cf_s.items'::regclass", "nextval('cf_s.items_id_seq'::regclass)"},
		{"SELECT current_user = session_user, pg_backend_pid() > 0, current_database() = current_catalog", "true|true|true"},
		{"SELECT to_regclass('cf_s.nothing') IS NULL, to_regclass('cf_s.items') = 'cf_s.items'::regclass", "true|true"},
		{"SELECT pg_size_pretty(10239::bigint), pg_size_pretty(10752::bigint), pg_size_pretty(-10752::bigint), pg_size_pretty((-10 * 1024 * 1024)::bigint)",
			"10239 bytes|11 kB|-11 kB|-10 MB"},
		{"SELECT has_table_privilege('cf_s.items', 'SELECT, INSERT WITH GRANT OPTION'), has_database_privilege(current_database(), 'CONNECT, temp')", "true|true"},
		{"SELECT has_database_privilege(current_database(), 'select')", "ERROR 22023"},
		{"SELECT has_sequence_privilege('cf_s.nothing', 'usage')", "ERROR 42P01"},
		{"SELECT option_name, option_value FROM pg_options_to_table(ARRAY['a=b=c', 'x'])", "a|b=c\nx|<nil>"},
		{"SELECT x, n FROM information_schema._pg_expandarray(ARRAY[30, 10]::int2[])", "30|1\n10|2"},
		{"SELECT catcode::text, barelabel FROM pg_get_keywords() WHERE word IN ('select', 'abort') ORDER BY word", "U|true\nR|true"},
		{"SELECT format_type('varchar'::regtype, 14), format_type('int4[]'::regtype, NULL)", "character varying(10)|integer[]"},
	}
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			conn := connect(t, tg.URL)
			for _, st := range steps {
				var got string
				lines, err := rowLines(ctx, conn, "|", func(v any) string { return fmt.Sprint(v) }, st.sql)
				var pe *pgconn.PgError
				switch {
				case errors.As(err, &pe):
					got = "ERROR " + pe.Code // every error step is outside the transaction
				case err != nil:
					t.Fatalf("%s: %v", st.sql, err)
				default:
					got = strings.Join(lines, "\n")
				}
				if got != st.want {
					t.Errorf("%s\n got: %q\nwant: %q", st.sql, got, st.want)
				}
			}
		})
	}
}
