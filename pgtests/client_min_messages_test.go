package pgtests

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestClientMinMessages: notices below client_min_messages are not sent,
// in both protocols, as in PostgreSQL 15.
func TestClientMinMessages(t *testing.T) {
	steps := []struct {
		sql  string
		want string // the notices' severities, in order
	}{
		{"DROP TABLE IF EXISTS nothere", "[NOTICE]"},
		{"BEGIN", "[]"},
		{"BEGIN", "[WARNING]"},
		{"COMMIT", "[]"},
		{"SET client_min_messages = warning", "[]"},
		{"DROP TABLE IF EXISTS nothere", "[]"},
		{"COMMIT", "[WARNING]"},
		{"SET client_min_messages TO 'ERROR'", "[]"},
		{"COMMIT", "[]"},
		{"DROP TABLE IF EXISTS nothere", "[]"},
		{"SET client_min_messages = log", "[]"},
		{"DROP TABLE IF EXISTS nothere", "[NOTICE]"},
		{"BEGIN", "[]"},
		{"SET LOCAL client_min_messages = error", "[]"},
		{"DROP TABLE IF EXISTS nothere", "[]"},
		{"COMMIT", "[]"},
		{"DROP TABLE IF EXISTS nothere", "[NOTICE]"},
	}
	for _, tg := range bothTargets(t) {
		for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeExec} {
			t.Run(fmt.Sprintf("%s/%v", tg.Name, mode), func(t *testing.T) {
				cfg, err := pgx.ParseConfig(tg.URL)
				if err != nil {
					t.Fatal(err)
				}
				cfg.DefaultQueryExecMode = mode
				var got []string
				cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { got = append(got, n.Severity) }
				conn := connectConfig(t, cfg)
				for _, st := range steps {
					got = nil
					mustExec(t, conn, st.sql)
					if fmt.Sprint(got) != st.want {
						t.Errorf("%s: notices %v, want %s", st.sql, got, st.want)
					}
				}
			})
		}
	}
}
