package pgtests

import (
	"testing"
)

// A view's unqualified names mean what they meant when it was created, as
// in PostgreSQL, which binds them then: a reader with another search_path
// (or none) reads the same tables through it, never a same-named table of
// another schema. Checked on PostgreSQL 15 first.
func TestViewNamesKeepTheirCreationSearchPath(t *testing.T) {
	for _, tg := range bothTargets(t) {
		t.Run(tg.Name, func(t *testing.T) {
			conn := connect(t, tg.URL)
			for _, q := range []string{
				"CREATE SCHEMA a", "CREATE SCHEMA b",
				"CREATE TABLE a.t (x int)", "INSERT INTO a.t VALUES (1)",
				"CREATE TABLE b.t (x int)", "INSERT INTO b.t VALUES (2)",
				"SET search_path = a",
				"CREATE VIEW public.v AS SELECT x FROM t",
				"SET search_path = b, public",
			} {
				mustExec(t, conn, q)
			}
			if got := queryInt64s(t, conn, "SELECT x FROM v"); len(got) != 1 || got[0] != 1 {
				t.Fatalf("through the view with search_path b, public: %v, want [1] (a.t)", got)
			}
			mustExec(t, conn, "SET search_path = ''")
			if got := queryInt64s(t, conn, "SELECT x FROM public.v"); len(got) != 1 || got[0] != 1 {
				t.Fatalf("through the view with an empty search_path: %v, want [1]", got)
			}
			// The view depends on a.t, not on b.t.
			_, err := conn.Exec(testContext(t), "DROP TABLE a.t")
			requireSQLState(t, err, "2BP01")
			mustExec(t, conn, "DROP TABLE b.t")
			if got := queryInt64s(t, conn, "SELECT x FROM public.v"); len(got) != 1 || got[0] != 1 {
				t.Fatalf("after b.t went: %v, want [1]", got)
			}
		})
	}
}
