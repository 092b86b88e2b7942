package pgtests

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// psql's meta-commands (\l \dn \dt \d \d+ \di \dv \du \x \copy \timing) print
// on cdcdb exactly what they print on PostgreSQL 15 for the same schema.
// Each command is a set of catalog queries that psql writes for a real
// PostgreSQL; the outputs are compared whole, so every column, row, footer
// and alignment has to match.
//
// Deliberate differences, kept out of the commands below:
//   - \dn without a pattern also lists schema cdcdb (cdcdb's own views,
//     cdcdb.flows); the test lists \dn s.
//   - \l lists only cdcdb's one database, main; the test lists \l main
//     (the reference server's main database has the same settings).
//   - \d+ of a view whose query is more than columns and simple
//     conditions over one relation (joins, grouping, ...) prints the query
//     as written, where PostgreSQL prints it again from its parse tree.
//   - \dx lists cdcdb, the built-in extension schema cdcdb belongs to
//     (PostgreSQL lists plpgsql).
func TestPsqlMetaCommandsMatchPostgres(t *testing.T) {
	outputs := runOnBothWithSchema(t, "commands.sql")
	got, want := outputs["cdcdb"], outputs["postgres15"]
	for _, must := range []string{`Table "s.tgt"`, "__start_at", `Table "public.customers"`, "List of roles", "Timing is on."} {
		if !strings.Contains(want, must) {
			t.Fatalf("PostgreSQL's output lacks %q; the commands do not test what they should:\n%s", must, want)
		}
	}
	if got != want {
		t.Errorf("psql output differs from PostgreSQL 15's:\n%s", lineDiff(want, got))
	}
}

// The catalog as introspection queries see it (testdata/psqlmeta/
// catalog_queries.sql): pg_catalog's and information_schema's column sets,
// the schema's relations, columns, defaults, indexes, constraints and
// comments through pg_class, pg_attribute, pg_attrdef, pg_index,
// pg_constraint and pg_description, the reg* casts, the catalog functions,
// the system views and the information_schema views, all equal to
// PostgreSQL 15's answers for the same schema.
func TestCatalogQueriesMatchPostgres(t *testing.T) {
	outputs := runOnBothWithSchema(t, "catalog_queries.sql", "-A")
	got, want := outputs["cdcdb"], outputs["postgres15"]
	for _, must := range []string{"pg_class|33|relpartbound|pg_node_tree", "customers|3|email|text",
		"CREATE UNIQUE INDEX orders_customer_placed ON public.orders USING btree (customer_id, placed DESC)",
		"s|tgt|__end_at|5||YES|integer"} {
		if !strings.Contains(want, must) {
			t.Fatalf("PostgreSQL's output lacks %q; the queries do not test what they should:\n%s", must, want)
		}
	}
	if got != want {
		t.Errorf("catalog queries answer differently from PostgreSQL 15:\n%s", lineDiff(want, got))
	}
}

// runOnBothWithSchema makes testdata/psqlmeta/schema.sql (and the
// streaming table s.tgt) on a fresh cdcdb and a fresh PostgreSQL 15
// database, runs a psql script of that directory on both, and returns each
// server's output with \timing's durations normalized.
func runOnBothWithSchema(t *testing.T, script string, psqlArgs ...string) map[string]string {
	t.Helper()
	if againstPostgres() {
		t.Skip("compares cdcdb with PostgreSQL; nothing to compare against itself")
	}
	schema, err := os.ReadFile(filepath.Join("testdata", "psqlmeta", "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	commands, err := filepath.Abs(filepath.Join("testdata", "psqlmeta", script))
	if err != nil {
		t.Fatal(err)
	}
	targets := psqlTargets(t)
	if len(targets) != 2 {
		t.Fatalf("want cdcdb and PostgreSQL, got %v", targets)
	}
	// The streaming table: made by its flow on cdcdb, plain on PostgreSQL,
	// with the columns the flow gives it.
	perTarget := map[string]string{
		"cdcdb": `CREATE STREAMING TABLE s.tgt;
CREATE FLOW f AS AUTO CDC INTO s.tgt FROM stream(s.src) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2;`,
		"postgres15": `CREATE TABLE s.tgt (id int, v text, seq int, __start_at int, __end_at int);`,
	}
	outputs := map[string]string{}
	for _, to := range targets {
		dir := t.TempDir()
		setup := filepath.Join(dir, "setup.sql")
		if err := os.WriteFile(setup, append(schema, []byte("\n"+perTarget[to.name]+"\n")...), 0o644); err != nil {
			t.Fatal(err)
		}
		if res := runPsql(t, to, dir, "-q", "-f", setup); res.exitCode != 0 {
			t.Fatalf("%s: setup failed (exit %d):\n%s%s", to.name, res.exitCode, res.stdout, res.stderr)
		}
		res := runPsql(t, to, dir, append(append([]string(nil), psqlArgs...), "-f", commands)...)
		if res.exitCode != 0 || res.stderr != "" {
			t.Fatalf("%s: psql failed (exit %d):\nstderr:\n%s\nstdout:\n%s", to.name, res.exitCode, res.stderr, res.stdout)
		}
		outputs[to.name] = normalizeTiming(res.stdout)
	}
	return outputs
}

var timingLine = regexp.MustCompile(`(?m)^Time: [0-9.]+ ms$`)

// normalizeTiming replaces \timing's durations, the one part of the output
// that differs from run to run.
func normalizeTiming(s string) string { return timingLine.ReplaceAllString(s, "Time: N ms") }

// lineDiff shows two texts line by line, marking the lines that differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	n := max(len(w), len(g))
	for i := 0; i < n; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl == gl {
			b.WriteString("   " + wl + "\n")
			continue
		}
		b.WriteString("-  " + wl + "\n+  " + gl + "\n")
	}
	return "(- PostgreSQL 15, + cdcdb)\n" + b.String()
}
