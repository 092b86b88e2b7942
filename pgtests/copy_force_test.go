package pgtests

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestCopyForceOptions: COPY's CSV column options FORCE_QUOTE,
// FORCE_NOT_NULL and FORCE_NULL are honoured, and refused where
// PostgreSQL refuses them, with the same output and errors as PostgreSQL
// 15; and COPY (query) TO STDOUT CSV HEADER (psql's \copy) writes the same
// bytes.
func TestCopyForceOptions(t *testing.T) {
	setup := []string{
		"CREATE TABLE cf (id int, name text, note text, d date)",
		`INSERT INTO cf VALUES (1, 'a,b', NULL, '2024-01-02'), (2, 'x"y', '', NULL), (3, 'plain', 'n', '2024-03-04'), (4, 'NULL', 'x', NULL)`,
		"CREATE TABLE cf_in (a text, b text, c text)",
	}
	outs := []string{
		"COPY cf TO STDOUT (FORMAT csv, HEADER, FORCE_QUOTE (name, note))",
		"COPY cf TO STDOUT (FORMAT csv, FORCE_QUOTE *)",
		"COPY cf TO STDOUT (FORMAT csv, NULL 'NULL', FORCE_QUOTE (id, d))",
		"COPY cf (name, id) TO STDOUT WITH CSV HEADER FORCE QUOTE name",
		"COPY (SELECT id, name AS label FROM cf ORDER BY id DESC) TO STDOUT (FORMAT csv, FORCE_QUOTE (label))",
		"COPY (SELECT id, name, note FROM cf ORDER BY id) TO STDOUT CSV HEADER",
		"COPY (SELECT id FROM cf WHERE id > 9) TO STDOUT CSV HEADER",
		"COPY cf TO STDOUT (FORMAT text, FORCE_QUOTE (name))",
		"COPY cf TO STDOUT (FORMAT csv, FORCE_QUOTE (nothere))",
		"COPY cf TO STDOUT (FORMAT csv, FORCE_NOT_NULL (name))",
		"COPY cf TO STDOUT (FORMAT csv, FORCE_NULL (name))",
		"COPY cf (id) TO STDOUT (FORMAT csv, FORCE_QUOTE (name))",
	}
	ins := []struct{ sql, data string }{
		{"COPY cf_in FROM STDIN (FORMAT csv)", "1,,\"\"\n"},
		{"COPY cf_in FROM STDIN (FORMAT csv, FORCE_NOT_NULL (b))", "2,,\"\"\n"},
		{"COPY cf_in FROM STDIN (FORMAT csv, FORCE_NULL (c))", "3,,\"\"\n"},
		{"COPY cf_in FROM STDIN (FORMAT csv, FORCE_NOT_NULL (b, c), FORCE_NULL (b, c))", "4,,\"\"\n"},
		{"COPY cf_in FROM STDIN (FORMAT csv, NULL 'N', FORCE_NULL (a, b))", "\"N\",N,\"N\"\n"},
		{"COPY cf_in FROM STDIN WITH CSV FORCE NOT NULL b", "6,,\n"},
		{"COPY cf_in FROM STDIN (FORMAT csv, FORCE_QUOTE (a))", "x,y,z\n"},
		{"COPY cf_in FROM STDIN (FORMAT text, FORCE_NULL (a))", "x\ty\tz\n"},
		{"COPY cf_in FROM STDIN (FORMAT csv, FORCE_NOT_NULL (nothere))", "x,y,z\n"},
		{"COPY cf_in (a) FROM STDIN (FORMAT csv, FORCE_NULL (b))", "x\n"},
	}
	errText := func(err error) string {
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			return fmt.Sprintf("ERROR %s %s", pe.Code, pe.Message)
		}
		return "ERROR " + err.Error()
	}
	var results [][]string
	for _, tg := range bothTargets(t) {
		ctx := testContext(t)
		conn := connect(t, tg.URL)
		for _, s := range setup {
			mustExec(t, conn, s)
		}
		var got []string
		for _, sql := range outs {
			var buf bytes.Buffer
			if _, err := conn.PgConn().CopyTo(ctx, &buf, sql); err != nil {
				got = append(got, sql+": "+errText(err))
				continue
			}
			got = append(got, sql+":\n"+buf.String())
		}
		for _, in := range ins {
			if _, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(in.data), in.sql); err != nil {
				got = append(got, in.sql+": "+errText(err))
				continue
			}
			got = append(got, in.sql+": ok")
		}
		got = append(got, "rows: "+queryString(t, conn, "SELECT string_agg(coalesce(a, '<null>') || '|' || coalesce(b, '<null>') || '|' || coalesce(c, '<null>'), ' ' ORDER BY a) FROM cf_in"))
		results = append(results, got)
	}
	if len(results) == 2 {
		for i := range results[0] {
			if results[0][i] != results[1][i] {
				t.Errorf("cdcdb:\n%s\nPostgreSQL:\n%s", results[0][i], results[1][i])
			}
		}
	}
	if want := `"1","a,b",,"2024-01-02"`; !strings.Contains(strings.Join(results[0], "\n"), want) {
		t.Errorf("FORCE_QUOTE * wrote no %s:\n%s", want, strings.Join(results[0], "\n"))
	}
}
