package sql

import (
	"context"
	"strings"
	"testing"

	"cdcdb/sql/ast"
	"cdcdb/sql/parse"
)

// TestStatementStrings: each kind of statement run to completion is a
// named type whose String describes it in one line, the line EXPLAIN
// prints for it (PostgreSQL's top plan node for INSERT, UPDATE and
// DELETE).
func TestStatementStrings(t *testing.T) {
	s := newInternalSession(t)
	for _, q := range []string{
		"CREATE TABLE t (a int, b text)",
		"CREATE TABLE src (id int, v text, seq int, op text)",
		"CREATE STREAMING TABLE tgt",
	} {
		runText(t, s, q)
	}
	for _, c := range []struct{ query, want string }{
		{"INSERT INTO t VALUES (1, 'x')", "Insert on t"},
		{"INSERT INTO t SELECT 1, 'y'", "Insert on t"},
		{"UPDATE t SET a = 2 WHERE b = 'x'", "Update on t"},
		{"DELETE FROM t WHERE a = 2", "Delete on t"},
		{"COPY t TO STDOUT", "COPY t TO STDOUT (FORMAT text)"},
		{"COPY t (b, a) TO STDOUT (FORMAT csv)", "COPY t (b, a) TO STDOUT (FORMAT csv)"},
		{"COPY (SELECT 1) TO STDOUT BINARY", "COPY (query) TO STDOUT (FORMAT binary)"},
		{"COPY t FROM STDIN", "COPY t FROM STDIN (FORMAT text)"},
		{"BEGIN", "BEGIN"},
		{"START TRANSACTION READ ONLY", "START TRANSACTION"},
		{"COMMIT", "COMMIT"},
		{"ROLLBACK", "ROLLBACK"},
		{"SAVEPOINT \"Sp\"", `SAVEPOINT "Sp"`},
		{"RELEASE SAVEPOINT sp", "RELEASE SAVEPOINT sp"},
		{"ROLLBACK TO SAVEPOINT sp", "ROLLBACK TO SAVEPOINT sp"},
		{"SET search_path = public, pg_catalog", "SET search_path = public, pg_catalog"},
		{"SET LOCAL statement_timeout TO 5", "SET LOCAL statement_timeout = 5"},
		{"SET work_mem TO DEFAULT", "SET work_mem TO DEFAULT"},
		{"SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE"},
		{"SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY", "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY"},
		{"SET ROLE NONE", "SET role = none"},
		{"RESET ALL", "RESET all"},
		{"RESET search_path", "RESET search_path"},
		{"SHOW ALL", "SHOW ALL"},
		{"SHOW search_path", "SHOW search_path"},
		{"DISCARD all", "DISCARD ALL"},
		{"DEALLOCATE ALL", "DEALLOCATE ALL"},
		{"DEALLOCATE p1", "DEALLOCATE p1"},
		{"LOCK TABLE t IN ACCESS SHARE MODE", "LOCK TABLE t IN ACCESS SHARE MODE"},
		{"LOCK t", "LOCK TABLE t IN ACCESS EXCLUSIVE MODE"},
		{"LISTEN ch", "LISTEN ch"},
		{"UNLISTEN *", "UNLISTEN *"},
		{"NOTIFY ch, 'secret payload'", "NOTIFY ch"},
		{"DECLARE c SCROLL CURSOR WITH HOLD FOR SELECT 1", "DECLARE c SCROLL CURSOR WITH HOLD"},
		{"CLOSE ALL", "CLOSE ALL"},
		{"CLOSE c", "CLOSE c"},
		{"CREATE SCHEMA s", "CREATE SCHEMA s"},
		{"CREATE TEMP TABLE tt (a int)", "CREATE TEMPORARY TABLE tt"},
		{"CREATE TABLE t2 AS SELECT 1 AS a", "CREATE TABLE t2 AS query"},
		{"CREATE OR REFRESH STREAMING TABLE st2", "CREATE OR REFRESH STREAMING TABLE st2"},
		{"DROP TABLE IF EXISTS t, public.\"T x\" CASCADE", `DROP TABLE IF EXISTS t, public."T x" CASCADE`},
		{"DROP VIEW v", "DROP VIEW v"},
		{"CREATE UNIQUE INDEX t_a ON t (a)", "CREATE UNIQUE INDEX t_a ON t"},
		{"CREATE VIEW v AS SELECT 1", "CREATE VIEW v"},
		{"CREATE OR REPLACE VIEW v AS SELECT 1", "CREATE OR REPLACE VIEW v"},
		{"ALTER TABLE t ADD COLUMN c int", "ALTER TABLE t"},
		{"TRUNCATE t RESTART IDENTITY", "TRUNCATE t RESTART IDENTITY"},
		{"COMMENT ON TABLE t IS 'the t'", "COMMENT ON TABLE t"},
		{"CREATE FLOW f AS AUTO CDC INTO tgt FROM src KEYS (id) SEQUENCE BY seq", "CREATE FLOW f INTO tgt"},
		{"REFRESH STREAMING TABLE tgt FULL", "REFRESH STREAMING TABLE tgt FULL"},
		{"CREATE ROLE r LOGIN PASSWORD 'secret'", "CREATE ROLE r"},
		{"CREATE USER u", "CREATE USER u"},
		{"ALTER ROLE r PASSWORD 'secret'", "ALTER ROLE r"},
		{"DROP ROLE IF EXISTS r, u", "DROP ROLE IF EXISTS r, u"},
		{"GRANT SELECT, INSERT ON t TO r", "GRANT SELECT, INSERT ON TABLE t TO r"},
		{"REVOKE ALL ON t FROM r", "REVOKE ALL ON TABLE t FROM r"},
		{"CREATE CONNECTION up2 TO POSTGRES (HOST 'h', PASSWORD 'secret')", "CREATE CONNECTION up2 TO POSTGRES"},
		{"CREATE SOURCE s1 FROM POSTGRES CONNECTION up (PUBLICATION 'p') FOR TABLES (t)", "CREATE SOURCE s1 FROM POSTGRES CONNECTION up"},
		{"DROP SOURCE IF EXISTS s1", "DROP SOURCE IF EXISTS s1"},
		{"DROP CONNECTION up", "DROP CONNECTION up"},
		{"EXPLAIN SELECT 1", "EXPLAIN"},
		{"EXPLAIN ANALYZE DELETE FROM t", "EXPLAIN ANALYZE"},
	} {
		t.Run(c.query, func(t *testing.T) {
			sts, err := s.Parse(context.Background(), c.query, nil)
			if err != nil {
				t.Fatalf("%s: %v", c.query, err)
			}
			compiled := sts[0].(*preparedStatement).c
			if compiled.run == nil {
				t.Fatalf("%s is planned as a query, not a statement", c.query)
			}
			if got := compiled.run.String(); got != c.want {
				t.Errorf("String() = %q, want %q", got, c.want)
			}
			if strings.Contains(compiled.run.String(), "secret") {
				t.Errorf("String() shows a password or payload: %q", compiled.run.String())
			}
		})
	}
}

// TestFetchStrings: FETCH and MOVE in the parser's canonical form (a
// FETCH plans only once its cursor exists, so these are built from the
// syntax tree).
func TestFetchStrings(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{"FETCH c", "FETCH FORWARD 1 FROM c"},
		{"FETCH 5 FROM c", "FETCH FORWARD 5 FROM c"},
		{"FETCH ALL IN c", "FETCH FORWARD ALL FROM c"},
		{"FETCH BACKWARD ALL FROM c", "FETCH BACKWARD ALL FROM c"},
		{"FETCH ABSOLUTE -2 FROM c", "FETCH ABSOLUTE -2 FROM c"},
		{"MOVE LAST IN \"C\"", `MOVE ABSOLUTE -1 FROM "C"`},
	} {
		sts, err := parse.Parse(c.query)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		if got := (fetchStatement{sts[0].(*ast.FetchCursor)}).String(); got != c.want {
			t.Errorf("%s: String() = %q, want %q", c.query, got, c.want)
		}
	}
}

// TestExplainOfStatements: EXPLAIN of INSERT, UPDATE and DELETE prints
// the statement's node with the plan of its rows below it, and EXPLAIN
// CREATE TABLE AS its query's plan, in PostgreSQL's layout.
func TestExplainOfStatements(t *testing.T) {
	s := newInternalSession(t)
	runText(t, s, "CREATE TABLE t (a int, b text)")
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"EXPLAIN INSERT INTO t VALUES (1, 'x')", []string{"Insert on t", "  ->  Result"}},
		{"EXPLAIN INSERT INTO t VALUES (1, 'x'), (2, 'y')", []string{"Insert on t", `  ->  Values Scan on "*VALUES*"`}},
		{"EXPLAIN INSERT INTO t SELECT a, b FROM t", []string{"Insert on t", "  ->  Seq Scan on t"}},
		{"EXPLAIN UPDATE t SET a = 1", []string{"Update on t", "  ->  Seq Scan on t"}},
		{"EXPLAIN DELETE FROM t", []string{"Delete on t", "  ->  Seq Scan on t"}},
		{"EXPLAIN CREATE TABLE t2 AS SELECT a FROM t", []string{"Seq Scan on t"}},
	} {
		t.Run(c.query, func(t *testing.T) {
			got := explainLines(t, s, c.query)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// planLines collects the rows of an EXPLAIN.
type planLines struct {
	discardWriter
	lines []string
}

func (w *planLines) WriteRow(values [][]byte) error {
	w.lines = append(w.lines, string(values[0]))
	return nil
}

func explainLines(t *testing.T, s *Session, query string) []string {
	t.Helper()
	ctx := context.Background()
	sts, err := s.Parse(ctx, query, nil)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	p, err := sts[0].Bind(ctx, nil, nil, nil)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	w := &planLines{}
	if _, _, err := p.Execute(ctx, 0, w); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	closeAndSync(t, s, p.(*portal))
	return w.lines
}
