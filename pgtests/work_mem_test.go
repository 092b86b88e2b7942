package pgtests

import (
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestWorkMemAsPostgres sets work_mem as clients do, in each unit, and
// checks what SHOW prints and what a bad value gets, on PostgreSQL 15 and
// on cdcdb alike.
func TestWorkMemAsPostgres(t *testing.T) {
	cases := []struct {
		set, show string // show "": the SET fails
		code, msg string
	}{
		{set: "'64kB'", show: "64kB"},
		{set: "1024", show: "1MB"},
		{set: "'1.5MB'", show: "1536kB"},
		{set: "'2GB'", show: "2GB"},
		{set: "'4 MB'", show: "4MB"},
		{set: "'65537B'", show: "64kB"},
		{set: "'10kB'", code: "22023", msg: `10 kB is outside the valid range for parameter "work_mem" (64 .. 2147483647)`},
		{set: "'abc'", code: "22023", msg: `invalid value for parameter "work_mem": "abc"`},
		{set: "'4mb'", code: "22023", msg: `invalid value for parameter "work_mem": "4mb"`},
	}
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			ctx := testContext(t)
			conn := connect(t, tg.URL)
			for _, c := range cases {
				_, err := conn.Exec(ctx, "SET work_mem = "+c.set)
				if c.show == "" {
					var pe *pgconn.PgError
					if !errors.As(err, &pe) || pe.Code != c.code || pe.Message != c.msg {
						t.Fatalf("SET work_mem = %s: got %v, want %s %q", c.set, err, c.code, c.msg)
					}
					continue
				}
				if err != nil {
					t.Fatalf("SET work_mem = %s: %v", c.set, err)
				}
				var got string
				if err := conn.QueryRow(ctx, "SHOW work_mem").Scan(&got); err != nil {
					t.Fatal(err)
				}
				if got != c.show {
					t.Fatalf("SET work_mem = %s: SHOW says %q, want %q", c.set, got, c.show)
				}
			}
		})
	}
}
