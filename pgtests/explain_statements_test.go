package pgtests

import (
	"strings"
	"testing"
)

// TestExplainOfDataChangingStatements: EXPLAIN of INSERT, UPDATE and
// DELETE prints PostgreSQL 15's top node (Insert on t, ...) with the plan
// of the rows below it, and EXPLAIN of CREATE TABLE AS its query's plan,
// line for line as PostgreSQL prints them without costs. EXPLAIN changes
// nothing: the table is as it was.
func TestExplainOfDataChangingStatements(t *testing.T) {
	queries := []string{
		"EXPLAIN (COSTS OFF) INSERT INTO ex VALUES (1, 'x')",
		"EXPLAIN (COSTS OFF) INSERT INTO ex VALUES (1, 'x'), (2, 'y')",
		"EXPLAIN (COSTS OFF) INSERT INTO ex SELECT a, b FROM ex_src",
		"EXPLAIN (COSTS OFF) UPDATE ex SET a = 1",
		"EXPLAIN (COSTS OFF) DELETE FROM ex",
		"EXPLAIN (COSTS OFF) CREATE TABLE ex2 AS SELECT a FROM ex",
		"SELECT count(*) FROM ex",
	}
	var results []string
	for _, tg := range bothTargets(t) {
		conn := connect(t, tg.URL)
		mustExec(t, conn, "CREATE TABLE ex (a int, b text)")
		mustExec(t, conn, "INSERT INTO ex VALUES (7, 'seven')")
		mustExec(t, conn, "CREATE TABLE ex_src (a int, b text)")
		var got []string
		for _, q := range queries {
			got = append(got, q+"\n"+strings.Join(queryStrings(t, conn, q), "\n"))
		}
		results = append(results, strings.Join(got, "\n\n"))
		if tg.Name != "cdcdb" {
			continue
		}
		for _, want := range []string{"Insert on ex\n  ->  Result", "Update on ex\n  ->  Seq Scan on ex", "\n1"} {
			if !strings.Contains(results[0], want) {
				t.Errorf("cdcdb's EXPLAIN lacks %q:\n%s", want, results[0])
			}
		}
	}
	if len(results) == 2 && results[0] != results[1] {
		t.Errorf("cdcdb:\n%s\n\nPostgreSQL 15:\n%s", results[0], results[1])
	}
}
