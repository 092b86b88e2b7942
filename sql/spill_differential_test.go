package sql_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"cdcdb/sql"
	"cdcdb/sql/sqltest"
)

// spillQueries are run twice on random data, with work_mem at its least
// (64kB: sorts, hash tables and partitions go to temporary files) and at
// 1GB (all in memory), and must answer the same, byte for byte.
// spills says the query must have gone to temporary files at 64kB.
var spillQueries = []struct {
	query  string
	spills bool
}{
	{`SELECT * FROM t ORDER BY a, b`, true},
	{`SELECT * FROM t ORDER BY c DESC NULLS LAST, id`, true},
	{`SELECT a, b FROM t ORDER BY b`, true}, // ties keep the scan's order: a stable sort
	{`SELECT * FROM t ORDER BY d, id LIMIT 17`, false},
	{`SELECT id, b FROM t ORDER BY b DESC, id LIMIT 2500 OFFSET 30`, true},
	{`SELECT id FROM t ORDER BY a LIMIT 0`, false},
	{`SELECT * FROM t ORDER BY e NULLS FIRST, id OFFSET 3990`, true},
	{`SELECT a, g FROM t ORDER BY g, id LIMIT 50`, false},
	// Hash aggregation: groups come out in the order of their first rows.
	{`SELECT a, count(*), sum(c), max(b) FROM t GROUP BY a`, false},
	{`SELECT id, count(*), sum(c), max(b), min(e) FROM t GROUP BY id`, true},
	{`SELECT b, count(*), array_agg(id ORDER BY id), string_agg(DISTINCT a::text, ',') FROM t GROUP BY b`, true},
	{`SELECT id % 1500, avg(d), min(e), count(DISTINCT a), array_agg(b) FROM t GROUP BY 1`, true},
	{`SELECT a, b, count(*) FROM t GROUP BY a, b HAVING count(*) > 0`, true},
	{`SELECT id / 3, sum(c) FILTER (WHERE a > 50), count(*), string_agg(b, '-') FROM t GROUP BY id / 3`, true},
	{`SELECT x.id % 700, count(*), sum(y.c) FROM t x JOIN t y ON y.id = x.a GROUP BY 1 ORDER BY 2 DESC, 1`, true},
	{`SELECT c, e, count(*) FROM t GROUP BY c, e`, true},
	{`SELECT a, id % 50, count(*), sum(c), GROUPING(a, id % 50) FROM t GROUP BY ROLLUP (a, id % 50)`, true},
	{`SELECT b, a, count(*), max(e) FROM t GROUP BY CUBE (b, a)`, true},
	{`SELECT a, b, count(*) FROM t GROUP BY GROUPING SETS ((a), (b), ())`, true},
	{`SELECT a, count(*) FROM t WHERE id < 0 GROUP BY GROUPING SETS ((a), ())`, false},
	// DISTINCT streams its first rows, then the partitions' in input order.
	{`SELECT DISTINCT a FROM t`, false},
	{`SELECT DISTINCT b, a FROM t`, true},
	{`SELECT DISTINCT id % 2000, c FROM t`, true},
	{`SELECT DISTINCT ON (b) b, id, c FROM t ORDER BY b, id DESC`, true},
	{`SELECT DISTINCT e FROM t ORDER BY e NULLS FIRST LIMIT 100`, true},
	{`SELECT count(*) FROM (SELECT DISTINCT a, b, c FROM t) s`, true},
	// Set operations: the left input's order, as in memory.
	{`SELECT a, b FROM t UNION ALL SELECT a, b FROM t WHERE id % 3 = 0`, false},
	{`SELECT a, b FROM t WHERE id % 2 = 0 UNION SELECT a, b FROM t`, true},
	{`SELECT b, c FROM t INTERSECT SELECT b, c FROM t WHERE id % 3 = 0`, true},
	{`SELECT b, c FROM t EXCEPT SELECT b, c FROM t WHERE id % 3 = 0`, true},
	{`SELECT a, b FROM t INTERSECT ALL SELECT a, b FROM t WHERE id % 2 = 1`, true},
	{`SELECT a, e FROM t EXCEPT ALL SELECT a, e FROM t WHERE id % 2 = 1`, true},
	{`SELECT a FROM t INTERSECT SELECT a FROM t WHERE id < 100`, false},
	// Window functions: each window sorted through files, partition by
	// partition, then the rows back in input order.
	{`SELECT id, a, row_number() OVER (PARTITION BY a ORDER BY b), sum(c) OVER (PARTITION BY a) FROM t`, true},
	{`SELECT id, rank() OVER (ORDER BY b), lag(c) OVER (ORDER BY d, id), count(*) OVER () FROM t`, true},
	{`SELECT id, sum(d) OVER (PARTITION BY a % 7 ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING),
		first_value(b) OVER w, last_value(b) OVER w FROM t WINDOW w AS (PARTITION BY g ORDER BY e RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`, true},
	{`SELECT a, count(*), sum(count(*)) OVER (ORDER BY a) FROM t GROUP BY a`, false},
	// Hash joins: both sides partitioned, the rows back in the in-memory
	// join's order.
	{`SELECT x.id, y.id, y.b FROM t x JOIN t y ON y.a = x.a AND y.id < x.id + 50 WHERE x.id % 10 = 0`, true},
	{`SELECT x.id, y.id FROM (SELECT * FROM t WHERE id % 7 = 0) x LEFT JOIN t y ON y.a = x.a AND y.c > x.c + 400`, true},
	{`SELECT x.id, y.id FROM (SELECT * FROM t WHERE id % 5 = 0) x RIGHT JOIN t y ON y.a = x.id`, true},
	{`SELECT x.id, y.id, x.b FROM (SELECT * FROM t WHERE id % 4 = 0) x FULL JOIN (SELECT * FROM t WHERE id % 6 = 0) y ON y.b = x.b AND y.e = x.e`, true},
	{`SELECT x.a, y.b FROM t x JOIN t y ON y.id = x.id WHERE x.id < 10`, false},
}

// TestSpillingMatchesInMemory holds every spilling path to the in-memory
// one it stands in for (docs/memory.md).
func TestSpillingMatchesInMemory(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	db := sqltest.Open(t)
	c := db.Conn()
	c.MustExec(`CREATE TABLE t (id int PRIMARY KEY, a int, b text, c numeric, d float8, e timestamptz, g int[])`)
	var sb strings.Builder
	for id := range 4000 {
		if sb.Len() == 0 {
			sb.WriteString("INSERT INTO t VALUES ")
		} else {
			sb.WriteString(", ")
		}
		null := func(s string) string {
			if rng.IntN(10) == 0 {
				return "NULL"
			}
			return s
		}
		fmt.Fprintf(&sb, "(%d, %s, %s, %s, %s, %s, %s)", id,
			null(fmt.Sprint(rng.IntN(100))),
			null(fmt.Sprintf("'%s'", strings.Repeat(string(rune('a'+rng.IntN(26))), 1+rng.IntN(30)))),
			null(fmt.Sprintf("%d.%02d", rng.IntN(1000)-500, rng.IntN(100))),
			null(fmt.Sprintf("%g", rng.NormFloat64()*1e3)),
			null(fmt.Sprintf("'2026-01-01'::timestamptz + interval '%d seconds'", rng.IntN(1e7))),
			null(fmt.Sprintf("ARRAY[%d, %d]", rng.IntN(5), rng.IntN(5))))
		if id%500 == 499 {
			c.MustExec(sb.String())
			sb.Reset()
		}
	}
	for _, sq := range spillQueries {
		q := sq.query
		c.MustExec(`SET work_mem = '1GB'`)
		before := sql.SpillsMade()
		inMemory := c.MustExec(q).String()
		if sql.SpillsMade() != before {
			t.Fatalf("%s: spilled with work_mem 1GB", q)
		}
		c.MustExec(`SET work_mem = '64kB'`)
		before = sql.SpillsMade()
		start := time.Now()
		spilled := c.MustExec(q).String()
		t.Logf("%v spilling: %s", time.Since(start), q)
		if did := sql.SpillsMade() != before; did != sq.spills {
			t.Fatalf("%s: spilled %v at work_mem 64kB, want %v", q, did, sq.spills)
		}
		if inMemory != spilled {
			t.Fatalf("%s: the spilling path answers differently\nin memory:\n%.2000s\nspilling:\n%.2000s", q, inMemory, spilled)
		}
	}
}
