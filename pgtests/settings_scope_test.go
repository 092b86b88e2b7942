package pgtests

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Run-time parameters keep their scope as in PostgreSQL: SET LOCAL and
// set_config(..., true) end with the transaction, a SET in a transaction
// that rolls back (or fails) is undone, and the client is told of each
// reported parameter's value when it changes, undoing included. Each step
// is checked on PostgreSQL 15 too.

func TestSettingsFollowTheirTransaction(t *testing.T) {
	steps := []struct{ sql, want string }{
		{"SHOW statement_timeout", "0"},
		{"BEGIN", ""},
		{"SET LOCAL statement_timeout = '1s'", ""},
		{"SHOW statement_timeout", "1s"},
		{"COMMIT", ""},
		{"SHOW statement_timeout", "0"},

		{"BEGIN", ""},
		{"SET search_path = bar", ""},
		{"ROLLBACK", ""},
		{"SHOW search_path", `"$user", public`},

		{"BEGIN", ""},
		{"SET search_path = bar", ""},
		{"COMMIT", ""},
		{"SHOW search_path", "bar"},
		{"RESET search_path", ""},

		{"BEGIN", ""},
		{"SET search_path = bar", ""},
		{"SET LOCAL search_path = baz", ""},
		{"SHOW search_path", "baz"},
		{"COMMIT", ""},
		{"SHOW search_path", "bar"},

		{"BEGIN", ""},
		{"SET LOCAL search_path = baz", ""},
		{"SET search_path = qux", ""},
		{"COMMIT", ""},
		{"SHOW search_path", "qux"},
		{"RESET search_path", ""},

		// An error aborts the block, and its changes with it.
		{"BEGIN", ""},
		{"SET extra_float_digits = 3", ""},
		{"SELECT 1/0", "ERROR 22012"},
		{"SHOW extra_float_digits", "ERROR 25P02"},
		{"ROLLBACK", ""},
		{"SHOW extra_float_digits", "1"},

		// set_config follows the same rules.
		{"BEGIN", ""},
		{"SELECT set_config('search_path', 'x1', true)", "x1"},
		{"SHOW search_path", "x1"},
		{"COMMIT", ""},
		{"SHOW search_path", `"$user", public`},
		{"BEGIN", ""},
		{"SELECT set_config('search_path', 'x2', false)", "x2"},
		{"ROLLBACK", ""},
		{"SHOW search_path", `"$user", public`},
		{"SELECT set_config('search_path', 'x3', true)", "x3"}, // its statement's transaction only
		{"SHOW search_path", `"$user", public`},
		{"SELECT set_config('search_path', 'x4', false)", "x4"},
		{"SHOW search_path", "x4"},
		{"RESET ALL", ""},
		{"SHOW search_path", `"$user", public`},

		// Outside a block SET LOCAL warns and changes nothing.
		{"SET LOCAL statement_timeout = '1s'", ""},
		{"SHOW statement_timeout", "0"},

		// RESET in a block is undone by ROLLBACK like any SET.
		{"SET TimeZone = 'Asia/Tokyo'", ""},
		{"BEGIN", ""},
		{"RESET TimeZone", ""},
		{"ROLLBACK", ""},
		{"SHOW TimeZone", "Asia/Tokyo"},
		{"SELECT extract(timezone_hour FROM timestamptz '2026-01-01 00:00+00')::int", "9"},
		{"BEGIN", ""},
		{"SET LOCAL TimeZone = 'America/Mexico_City'", ""},
		{"SELECT extract(timezone_hour FROM timestamptz '2026-01-01 00:00+00')::int", "-6"},
		{"COMMIT", ""},
		{"SELECT extract(timezone_hour FROM timestamptz '2026-01-01 00:00+00')::int", "9"},
	}
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			cfg, err := pgx.ParseConfig(tg.URL)
			if err != nil {
				t.Fatal(err)
			}
			cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
			var warnings []string
			cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
				warnings = append(warnings, n.Severity+" "+n.Code+" "+n.Message)
			}
			conn := connectConfig(t, cfg)
			for _, st := range steps {
				if got := oneValue(ctx, conn, st.sql); got != st.want {
					t.Errorf("%s: got %q, want %q", st.sql, got, st.want)
				}
			}
			want := "WARNING 25P01 SET LOCAL can only be used in transaction blocks"
			if len(warnings) != 1 || warnings[0] != want {
				t.Errorf("notices %q, want one %q", warnings, want)
			}
		})
	}
}

// TestSettingsInOneQuery: the statements of one simple Query are one
// transaction, so SET LOCAL lasts to its end, and an error in it undoes a
// SET made before.
func TestSettingsInOneQuery(t *testing.T) {
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			conn := connectMode(t, tg.URL, pgx.QueryExecModeSimpleProtocol)
			results, err := conn.PgConn().Exec(ctx, "SET LOCAL search_path = z; SHOW search_path").ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if got := string(results[1].Rows[0][0]); got != "z" {
				t.Errorf("SET LOCAL inside one query: search_path %q, want z", got)
			}
			if got := queryString(t, conn, "SHOW search_path"); got != `"$user", public` {
				t.Errorf("after the query: search_path %q", got)
			}
			if _, err := conn.PgConn().Exec(ctx, "SET search_path = y; SELECT 1/0").ReadAll(); err == nil {
				t.Fatal("1/0 did not fail")
			}
			if got := queryString(t, conn, "SHOW search_path"); got != `"$user", public` {
				t.Errorf("after a failed query: search_path %q, want the SET undone", got)
			}
			// A lone SET LOCAL over the extended protocol is a transaction of
			// its own: no effect.
			ext := connectMode(t, tg.URL, pgx.QueryExecModeExec)
			mustExec(t, ext, "SET LOCAL search_path = w")
			if got := queryString(t, ext, "SHOW search_path"); got != `"$user", public` {
				t.Errorf("extended protocol: search_path %q after SET LOCAL", got)
			}
		})
	}
}

// TestSettingsReportedToTheClient: the client hears of a reported
// parameter's change, and of its undoing, before ReadyForQuery.
func TestSettingsReportedToTheClient(t *testing.T) {
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			conn := connectMode(t, tg.URL, pgx.QueryExecModeSimpleProtocol)
			status := func() string { return conn.PgConn().ParameterStatus("TimeZone") }
			before := status()
			mustExec(t, conn, "BEGIN")
			mustExec(t, conn, "SET TimeZone = 'Europe/Paris'")
			if got := status(); got != "Europe/Paris" {
				t.Errorf("after SET: the client was told TimeZone %q", got)
			}
			mustExec(t, conn, "ROLLBACK")
			if got := status(); got != before {
				t.Errorf("after ROLLBACK: the client was told TimeZone %q, want %q again", got, before)
			}
			mustExec(t, conn, "BEGIN")
			mustExec(t, conn, "SET LOCAL TimeZone = 'Asia/Tokyo'")
			mustExec(t, conn, "COMMIT")
			if got := status(); got != before {
				t.Errorf("after SET LOCAL and COMMIT: TimeZone %q, want %q", got, before)
			}
			mustExec(t, conn, "SET TimeZone = 'Asia/Tokyo'")
			if got := status(); got != "Asia/Tokyo" {
				t.Errorf("after SET outside a block: TimeZone %q", got)
			}
		})
	}
}

// TestStatementTimeoutEndsWithSetLocal: SET LOCAL statement_timeout times
// the block's statements and none after it.
func TestStatementTimeoutEndsWithSetLocal(t *testing.T) {
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := context.Background()
			conn := connect(t, tg.URL)
			mustExec(t, conn, "BEGIN")
			mustExec(t, conn, "SET LOCAL statement_timeout = '200ms'")
			_, err := conn.Exec(ctx, "SELECT pg_sleep(1)")
			if err == nil || !strings.Contains(err.Error(), "57014") {
				t.Errorf("pg_sleep(1) under a 200ms SET LOCAL timeout: %v, want 57014", err)
			}
			mustExec(t, conn, "ROLLBACK")
			mustExec(t, conn, "SELECT pg_sleep(0.5)") // no timeout any more
		})
	}
}
