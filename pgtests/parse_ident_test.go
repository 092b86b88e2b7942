package pgtests

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestParseIdent: parse_ident (which Grafana sends) answers as PostgreSQL
// 15's, errors and their details included.
func TestParseIdent(t *testing.T) {
	inputs := []string{
		`'"SomeSchema".someTable'`, `'a.b.c'`, `'  "a b" . c '`, `'foo.boo[]', false`, `'foo.boo[]'`,
		`''`, `'.a'`, `'a.'`, `'a..b'`, `'"a""b".c'`, `'"'`, `'""'`, `'a b'`, `'a b', false`,
		`'Ünïcode.X$1'`, `'_x9.$a'`, `'1abc'`, `repeat('A', 70) || '.b'`, `'"' || repeat('A', 70) || '"'`,
		`NULL`, `'a', NULL`, "E'a\\t.\\nb'",
	}
	answer := func(ctx context.Context, conn *pgx.Conn, arg string) string {
		var v []string
		err := conn.QueryRow(ctx, "SELECT parse_ident("+arg+")").Scan(&v)
		var pe *pgconn.PgError
		switch {
		case errors.As(err, &pe):
			return fmt.Sprintf("ERROR %s %s [%s]", pe.Code, pe.Message, pe.Detail)
		case err != nil:
			return "ERROR " + err.Error()
		}
		return fmt.Sprintf("%q", v)
	}
	targets := bothTargets(t)
	ctx := testContext(t)
	var conns []*pgx.Conn
	for _, tg := range targets {
		conns = append(conns, connect(t, tg.URL))
	}
	for _, in := range inputs {
		got := answer(ctx, conns[0], in)
		if len(conns) > 1 {
			if want := answer(ctx, conns[1], in); got != want {
				t.Errorf("parse_ident(%s): cdcdb %s, PostgreSQL %s", in, got, want)
			}
		}
	}
	if got := answer(ctx, conns[0], `'"SomeSchema".someTable'`); got != `["SomeSchema" "sometable"]` {
		t.Errorf("parse_ident: %s", got)
	}
}
