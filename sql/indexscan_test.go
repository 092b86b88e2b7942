package sql_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdcdb/sql/sqltest"
)

// TestIndexScanMatchesTableScan is a property test of index scans: the
// same random rows go to a table with ascending, descending and composite
// indexes and to one without any, and random equality/range filters
// (boundaries, NULLs, duplicates, empty ranges, IN lists, mixed integer
// types) must
// give the same rows from both. INDEXSCAN_SEED=n replays a run.
func TestIndexScanMatchesTableScan(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("INDEXSCAN_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (INDEXSCAN_SEED=%d replays it)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	c := sqltest.Open(t).Conn()
	for _, tbl := range []string{"ix", "plain"} {
		c.MustExec(`CREATE TABLE ` + tbl + ` (id int PRIMARY KEY, a int, b bigint, s text)`)
	}
	c.MustExec(`CREATE INDEX ix_a ON ix (a)`)
	c.MustExec(`CREATE INDEX ix_b_desc ON ix (b DESC)`)
	c.MustExec(`CREATE INDEX ix_s_a ON ix (s, a)`)
	val := func(n int) string {
		if rng.IntN(8) == 0 {
			return "NULL"
		}
		return strconv.Itoa(rng.IntN(n) - n/4)
	}
	var rows []string
	for id := 1; id <= 400; id++ {
		s := "NULL"
		if rng.IntN(6) != 0 {
			s = "'k" + strconv.Itoa(rng.IntN(5)) + "'"
		}
		rows = append(rows, fmt.Sprintf("(%d, %s, %s, %s)", id, val(40), val(40), s))
	}
	for _, tbl := range []string{"ix", "plain"} {
		c.MustExec(`INSERT INTO ` + tbl + ` VALUES ` + strings.Join(rows, ", "))
	}
	ops := []string{"=", "<", "<=", ">", ">="}
	cond := func(col string) string {
		op := ops[rng.IntN(len(ops))]
		v := strconv.Itoa(rng.IntN(50) - 15)
		switch rng.IntN(4) {
		case 0:
			v += "::int8"
		case 1:
			v += "::int2"
		}
		return col + " " + op + " " + v
	}
	for i := 0; i < 300; i++ {
		inList := func() string {
			var vals []string
			for n := rng.IntN(4); n >= 0; n-- {
				if rng.IntN(6) == 0 {
					vals = append(vals, "NULL")
				} else {
					vals = append(vals, strconv.Itoa(rng.IntN(50)-15))
				}
			}
			return "(" + strings.Join(vals, ", ") + ")"
		}
		var where string
		switch rng.IntN(8) {
		case 6:
			where = "a IN " + inList()
		case 7:
			where = "s = 'k" + strconv.Itoa(rng.IntN(6)) + "' AND a IN " + inList()
		case 0:
			where = cond("a")
		case 1:
			where = cond("a") + " AND " + cond("a")
		case 2:
			where = cond("b") + " AND " + cond("b")
		case 3:
			where = "s = 'k" + strconv.Itoa(rng.IntN(6)) + "' AND " + cond("a")
		case 4:
			where = cond("id") + " AND " + cond("id")
		default:
			where = cond("a") + " AND " + cond("b")
		}
		q := "SELECT id FROM %s WHERE " + where + " ORDER BY id"
		got := c.MustExec(fmt.Sprintf(q, "ix")).String()
		want := c.MustExec(fmt.Sprintf(q, "plain")).String()
		if got != want {
			plan := c.MustExec("EXPLAIN " + fmt.Sprintf(q, "ix")).String()
			t.Fatalf("WHERE %s\nthrough %s got  %q\nscanning gives %q", where, strings.TrimSpace(plan), got, want)
		}
	}
	// The plans did use the indexes.
	for _, q := range []string{"SELECT id FROM ix WHERE a > 3", "SELECT id FROM ix WHERE b <= 3", "SELECT id FROM ix WHERE s = 'k1' AND a < 0",
		"SELECT id FROM ix WHERE id >= 100", "SELECT id FROM ix WHERE a IN (1, 5, 1)", "SELECT id FROM ix WHERE b IN (2, 3)"} {
		if plan := c.MustExec("EXPLAIN " + q).String(); !strings.Contains(plan, "Index Scan") {
			t.Errorf("EXPLAIN %s: %s", q, plan)
		}
	}
}
