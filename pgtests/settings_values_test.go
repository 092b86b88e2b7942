package pgtests

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestSettingValuesAsPostgres: SET takes a parameter's value as PostgreSQL
// 15 does, and SHOW and pg_settings show it as PostgreSQL does: numbers
// with units ("1.5s", "8192", "65536B") in the largest unit that holds
// them whole, bounds and unit names checked, bad values refused with
// 22023 and PostgreSQL's message and hint, parameters their context keeps
// from SET with 55P02, a superuser's parameter set by another role with
// 42501, unknown parameters with 42704. Each step runs on PostgreSQL 15 too.
func TestSettingValuesAsPostgres(t *testing.T) {
	steps := []struct{ sql, want string }{
		{"SET statement_timeout = 60000", ""},
		{"SHOW statement_timeout", "1min"},
		{"SET statement_timeout = ' 1500 ms '", ""},
		{"SHOW statement_timeout", "1500ms"},
		{"SELECT setting || unit FROM pg_settings WHERE name = 'statement_timeout'", "1500ms"},
		{"SET statement_timeout = '.5s'", ""},
		{"SHOW statement_timeout", "500ms"},
		{"SET statement_timeout = '3600s'", ""},
		{"SELECT current_setting('statement_timeout')", "1h"},
		{"SET statement_timeout = '2500us'", ""},
		{"SHOW statement_timeout", "2ms"},
		{"SET statement_timeout = '1MIN'", `ERROR 22023 invalid value for parameter "statement_timeout": "1MIN" HINT Valid units for this parameter are "us", "ms", "s", "min", "h", and "d".`},
		{"SET statement_timeout = -1", `ERROR 22023 -1 ms is outside the valid range for parameter "statement_timeout" (0 .. 2147483647)`},
		{"SET lock_timeout = '25d'", `ERROR 22023 invalid value for parameter "lock_timeout": "25d" HINT Value exceeds integer range.`},
		{"RESET statement_timeout", ""},
		{"SHOW statement_timeout", "0"},

		{"SET work_mem = 8192", ""},
		{"SHOW work_mem", "8MB"},
		{"SET work_mem = '65536B'", ""},
		{"SHOW work_mem", "64kB"},
		{"SET work_mem = '1024kB'", ""},
		{"SELECT setting || ' ' || unit FROM pg_settings WHERE name = 'work_mem'", "1024 kB"},
		{"SHOW work_mem", "1MB"},
		{"SET work_mem = '32kB'", `ERROR 22023 32 kB is outside the valid range for parameter "work_mem" (64 .. 2147483647)`},
		{"SET work_mem = '4mb'", `ERROR 22023 invalid value for parameter "work_mem": "4mb" HINT Valid units for this parameter are "B", "kB", "MB", "GB", and "TB".`},
		{"SET work_mem = 'lots'", `ERROR 22023 invalid value for parameter "work_mem": "lots"`},
		{"SELECT set_config('work_mem', '16384', false)", "16MB"},
		{"SELECT set_config('statement_timeout', '90s', false)", "90s"},
		{"SELECT current_setting('statement_timeout')", "90s"},
		{"RESET statement_timeout", ""},
		{"RESET work_mem", ""},
		{"SHOW work_mem", "4MB"},

		{"SET extra_float_digits = '2.6'", ""},
		{"SHOW extra_float_digits", "3"},
		{"SET extra_float_digits = 4", `ERROR 22023 4 is outside the valid range for parameter "extra_float_digits" (-15 .. 3)`},
		{"SET row_security = maybe", `ERROR 22023 parameter "row_security" requires a Boolean value`},
		{"SET client_min_messages = loud", `ERROR 22023 invalid value for parameter "client_min_messages": "loud" HINT Available values: debug5, debug4, debug3, debug2, debug1, log, notice, warning, error.`},
		{"SET default_transaction_isolation = 'snapshot'", `ERROR 22023 invalid value for parameter "default_transaction_isolation": "snapshot" HINT Available values: serializable, repeatable read, read committed, read uncommitted.`},
		{"SET block_size = 1", `ERROR 55P02 parameter "block_size" cannot be changed`},
		{"SET max_connections = 10", `ERROR 55P02 parameter "max_connections" cannot be changed without restarting the server`},
		{"CREATE ROLE settings_plain", ""},
		{"SET ROLE settings_plain", ""},
		{"SET lc_messages = 'C'", `ERROR 42501 permission denied to set parameter "lc_messages"`},
		{"RESET lc_messages", `ERROR 42501 permission denied to set parameter "lc_messages"`},
		{"SET work_mem = '2MB'", ""},
		{"RESET ROLE", ""},
		{"SET lc_messages = 'C'", ""},
		{"SHOW work_mem", "2MB"},
		{"DROP ROLE settings_plain", ""},
		{"SET no_such_parameter = 1", `ERROR 42704 unrecognized configuration parameter "no_such_parameter"`},
		{"RESET no_such_parameter", `ERROR 42704 unrecognized configuration parameter "no_such_parameter"`},
	}
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			cfg, err := pgx.ParseConfig(tg.URL)
			if err != nil {
				t.Fatal(err)
			}
			cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
			conn := connectConfig(t, cfg)
			for _, st := range steps {
				if got := valueOrError(ctx, conn, st.sql); got != st.want {
					t.Errorf("%s:\n got %s\nwant %s", st.sql, got, st.want)
				}
			}
		})
	}
}

// valueOrError is the statement's last row's first value, "" for none, or
// its error as "ERROR code message [HINT hint]".
func valueOrError(ctx context.Context, conn *pgx.Conn, sql string) string {
	var value any
	rows, _ := conn.Query(ctx, sql)
	for rows.Next() {
		vals, err := rows.Values()
		if err == nil && len(vals) > 0 {
			value = vals[0]
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		var pe *pgconn.PgError
		if !errors.As(err, &pe) {
			return "ERROR " + err.Error()
		}
		out := "ERROR " + pe.Code + " " + pe.Message
		if pe.Hint != "" {
			out += " HINT " + pe.Hint
		}
		return out
	}
	if value == nil {
		return ""
	}
	return fmt.Sprint(value)
}
