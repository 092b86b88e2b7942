package sql_test

import (
	"fmt"
	"strings"
	"testing"

	"cdcdb/pgerror"
	"cdcdb/sql/sqltest"
)

// outcome is what a client sees of one query: columns, rows, or the error.
func outcome(c *sqltest.Conn, q string) string {
	r, err := c.Exec(q)
	if err != nil {
		pe := pgerror.As(err)
		return "ERROR " + pe.Code + " " + pe.Message
	}
	return columnsAndRows(r)
}

// TestNumberedQueriesMeanWhatTheySay runs queries that differ only in
// their numbers three times in one session, so that the third is answered
// by the generic plan of the first two where there is one, and compares
// every answer with a fresh session's, which plans the text itself.
func TestNumberedQueriesMeanWhatTheySay(t *testing.T) {
	db := sqltest.Open(t)
	setup := db.Conn()
	setup.MustExec("CREATE TABLE t (id int PRIMARY KEY, small int2, big int8, v text, n numeric, j jsonb, a int[])")
	for i := 1; i <= 20; i++ {
		setup.MustExec(fmt.Sprintf(`INSERT INTO t VALUES (%d, %d, %d, 'v%d', %d.25, '[%d, {"k": %d}]', ARRAY[%d, %d])`, i, i%5, int64(i)*1e10, i%3, i, i, i, i, i*2))
	}
	setup.MustExec("CREATE TABLE ev (id int, v text, seq bigint)")
	setup.MustExec("CREATE STREAMING TABLE h")
	setup.MustExec("CREATE FLOW f AS AUTO CDC INTO h FROM stream(ev) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2")
	for i := 1; i <= 30; i++ {
		setup.MustExec(fmt.Sprintf("INSERT INTO ev VALUES (%d, 'x%d', %d)", i%4, i, i))
	}
	// {1}, {2} and {3} in a template are the round's three numbers.
	templates := []string{
		"SELECT v FROM t WHERE id = {1}",
		"SELECT id, v FROM t WHERE id > {1} AND id < {2} ORDER BY id",
		// Here a number is an output column, and a parameter would not be.
		"SELECT v, id, v || id FROM t ORDER BY {1}",
		"SELECT v, id % 2, v || 'x', count(*) FROM t GROUP BY {1}, 2, 3 ORDER BY 4, 1, 2",
		"SELECT DISTINCT ON ({1}) v, id % 3, id FROM t ORDER BY {1}, 3",
		"SELECT s.v FROM (SELECT v, id, v || id FROM t ORDER BY {1} LIMIT 5) s",
		"SELECT id FROM t ORDER BY id LIMIT {1} OFFSET {2}",
		"SELECT {1}, {2}.5, -{3}, {1}000000000000, 99999999999999999999{2}",
		"SELECT -2147483648, -2147483648 - {1}",
		"SELECT 2147483647 + {1}",
		"SELECT {1} / ({2} - {2})",
		"SELECT id FROM t WHERE small = {1} ORDER BY id",
		"SELECT id FROM t WHERE small = 70000 + {1}",
		"SELECT id FROM t WHERE big = {1}0000000000",
		"SELECT id FROM t WHERE n = {1}.25 OR id IN ({2}, {3}) ORDER BY id",
		"SELECT j -> {1}, j -> 1 -> 'k', a[{2}], a[1:{3}] FROM t WHERE id = 3",
		"SELECT round(n, {1}), n::numeric(6, 1), v::varchar({2}) FROM t WHERE id = 4",
		"SELECT sum(id) OVER (ORDER BY id ROWS {1} PRECEDING) FROM t WHERE id < 6",
		"SELECT id FROM generate_series({1}, {2}) AS g(id)",
		"SELECT CASE WHEN id > {1} THEN {2} ELSE 0 END FROM t WHERE id < 4 ORDER BY id",
		"SELECT id, v FROM h FOR BUSINESS_TIME AS OF {1} ORDER BY id",
		"SELECT id, v FROM h FOR BUSINESS_TIME AS OF {1} WHERE id = {2}",
		"SELECT (SELECT max(id) FROM t WHERE id < {1}), EXISTS (SELECT 1 FROM t WHERE id = {2})",
		"SELECT v FROM t WHERE id = {1} UNION SELECT 'x' || {2} ORDER BY 1",
		"SELECT {1} AS a ORDER BY a",
		"select id from t where id = {1};",
		"SELECT 1e{1}, {2}.0e-2",
	}
	args := [][3]int{{1, 7, 3}, {2, 9, 2}, {3, 12, 4}}
	c := db.Conn()
	for _, tmpl := range templates {
		for round, a := range args {
			q := strings.NewReplacer("{1}", fmt.Sprint(a[0]), "{2}", fmt.Sprint(a[1]), "{3}", fmt.Sprint(a[2])).Replace(tmpl)
			got := outcome(c, q)
			want := outcome(db.Conn(), q)
			if got != want {
				t.Errorf("round %d: %s\n got  %q\n want %q", round+1, q, got, want)
			}
		}
	}
}

// TestNumberedQueriesFollowDDL: a generic plan is a cached plan like any
// other, and goes with the catalog it was made against.
func TestNumberedQueriesFollowDDL(t *testing.T) {
	c := sqltest.Open(t).Conn()
	c.MustExec("CREATE TABLE t (id int PRIMARY KEY, v text)")
	c.MustExec("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	for i := 1; i <= 3; i++ {
		expectResult(t, c, fmt.Sprintf("SELECT * FROM t WHERE id = %d", i), "id,v\n"+fmt.Sprint(i)+"|"+string(rune('a'+i-1))+"\n")
	}
	c.MustExec("ALTER TABLE t ADD COLUMN w int DEFAULT 7")
	expectResult(t, c, "SELECT * FROM t WHERE id = 2", "id,v,w\n2|b|7\n")
	c.MustExec("BEGIN")
	c.MustExec("ALTER TABLE t DROP COLUMN v")
	expectResult(t, c, "SELECT * FROM t WHERE id = 3", "id,w\n3|7\n")
	c.MustExec("ROLLBACK")
	expectResult(t, c, "SELECT * FROM t WHERE id = 1", "id,v,w\n1|a|7\n")
}
