package pgtests

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestNowIsTheTransactionStart: 'now', 'today' and friends read as a date
// or time stand for the start of the transaction reading them, the moment
// now() returns, wherever the text is read: a literal in the query, a
// parameter, a cast at run time, a COPY field; in an implicit transaction
// and in a block, after time has passed in it. Each expectation is checked
// on PostgreSQL 15 too.
func TestNowIsTheTransactionStart(t *testing.T) {
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			conn := connect(t, tg.URL)
			// Parse, Bind and Execute before one Sync: one implicit
			// transaction. (pgx's default mode prepares a statement in a
			// round trip of its own, a transaction that a literal 'now'
			// is read in, on PostgreSQL as here.)
			extended := connectMode(t, tg.URL, pgx.QueryExecModeExec)
			simple := connectMode(t, tg.URL, pgx.QueryExecModeSimpleProtocol)
			for _, c := range []*pgx.Conn{conn, extended, simple} {
				mustExec(t, c, "SET TimeZone = 'America/Mexico_City'")
			}
			mustExec(t, conn, "CREATE TABLE stamps (ts timestamptz, d date)")
			checks := []struct{ name, sql string }{
				{"literals", `SELECT now() = 'now'::timestamptz AND localtimestamp = 'now'::timestamp
					AND current_date = 'today'::date AND current_date + 1 = 'tomorrow'::date
					AND current_date - 1 = 'yesterday'::date AND localtime = 'now'::time`},
				{"array of literals", `SELECT ARRAY[now(), now()] = '{now,now}'::timestamptz[]`},
				{"cast at run time", `SELECT now() = ('n' || 'ow')::timestamptz AND current_date = ('to' || 'day')::date`},
			}
			for _, c := range checks {
				for mode, cn := range map[string]*pgx.Conn{"extended": extended, "simple": simple} {
					var ok bool
					if err := cn.QueryRow(ctx, c.sql).Scan(&ok); err != nil || !ok {
						t.Errorf("%s (%s protocol): %v, %v; want true", c.name, mode, ok, err)
					}
				}
			}
			var ok bool
			if err := conn.QueryRow(ctx, "SELECT now() = $1::timestamptz", "now").Scan(&ok); err != nil || !ok {
				t.Errorf("a parameter 'now': %v, %v; want true", ok, err)
			}

			// In a block, after time has passed: still the block's start.
			tx, err := conn.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback(ctx)
			if _, err := tx.Exec(ctx, "SELECT pg_sleep(0.02)"); err != nil {
				t.Fatal(err)
			}
			if err := tx.QueryRow(ctx, "SELECT now() = 'now'::timestamptz AND 'now'::timestamptz < clock_timestamp() - interval '15 milliseconds'").Scan(&ok); err != nil || !ok {
				t.Errorf("a literal in a block after 20 ms: %v, %v; want the block's start", ok, err)
			}
			if _, err := tx.Conn().PgConn().CopyFrom(ctx, strings.NewReader("now\ttoday\n"), "COPY stamps FROM STDIN"); err != nil {
				t.Fatal(err)
			}
			if err := tx.QueryRow(ctx, "SELECT ts = now() AND d = current_date FROM stamps").Scan(&ok); err != nil || !ok {
				t.Errorf("COPY of 'now' and 'today' in a block: %v, %v; want the block's start", ok, err)
			}
			if err := tx.Commit(ctx); err != nil {
				t.Fatal(err)
			}

			// A multi-statement query is one implicit transaction.
			var results []string
			mrr := simple.PgConn().Exec(ctx, "SELECT now()::text; SELECT pg_sleep(0.02); SELECT 'now'::timestamptz::text")
			all, err := mrr.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range all {
				if len(r.Rows) == 1 && len(r.Rows[0]) == 1 && len(r.Rows[0][0]) > 0 {
					results = append(results, string(r.Rows[0][0]))
				}
			}
			if len(results) != 2 || results[0] != results[1] {
				t.Errorf("now() and a later 'now' in one multi-statement query: %q, want the same moment", results)
			}
		})
	}
}
