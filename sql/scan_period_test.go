package sql_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"cdcdb/sql/sqltest"
)

// TestPeriodPrefilterMatchesFilter reads random SCD TYPE 2 and BITEMPORAL
// histories, with integer and timestamp periods, through FOR BUSINESS_TIME
// and FOR SYSTEM_TIME clauses whose bounds are literals or parameters
// (which the scan tests on each row's encoded period before decoding it)
// and through the same clauses with the bound written as an expression
// (which only the ordinary filter decides). Both must return the same
// rows, for bounds before, inside and after the history, equal to period
// ends, and NULL.
func TestPeriodPrefilterMatchesFilter(t *testing.T) {
	type shape struct {
		name, seqType, form string
		lit                 func(n int) string // a bound literal
		null                string             // NULL of the period's type
		plusZero            string             // an expression suffix that changes nothing
		keys                string             // the flow's KEYS
	}
	intLit := func(n int) string { return fmt.Sprint(n) }
	tsLit := func(n int) string { return fmt.Sprintf("TIMESTAMP '2025-01-01 %02d:%02d:00'", n/60, n%60) }
	shapes := []shape{
		{"int SCD2", "bigint", "SCD TYPE 2", intLit, "NULL", " + 0", "id"},
		{"int BITEMPORAL", "int", "BITEMPORAL", intLit, "NULL", " + 0", "id"},
		{"timestamp SCD2", "timestamp", "SCD TYPE 2", tsLit, "NULL::timestamp", " + interval '0 minutes'", "id"},
		// Text keys, one the other's prefix, in two columns.
		{"int SCD2 two keys", "int", "SCD TYPE 2", intLit, "NULL", " + 0", "code, id"},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			seed := rand.Uint64()
			t.Logf("seed %d", seed)
			r := rand.New(rand.NewPCG(seed, 7))
			c := sqltest.Open(t).Conn()
			sys, except := "", "op, seq"
			if sh.form == "BITEMPORAL" {
				sys, except = " SYSTEM SEQUENCE BY st", "op, seq, st"
			}
			c.MustExec(fmt.Sprintf("CREATE TABLE ev (id int, code text, v text, op text, seq %s, st %s)", sh.seqType, sh.seqType))
			c.MustExec("CREATE STREAMING TABLE tgt")
			c.MustExec(`CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (` + sh.keys + `)
				APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq` + sys + `
				COLUMNS * EXCEPT (` + except + `) STORED AS ` + sh.form)
			const keys, events, maxSeq = 6, 80, 40
			used := map[[2]int]bool{}
			for i := 0; i < events; i++ {
				id, seq := 1+r.IntN(keys), 1+r.IntN(maxSeq)
				if sh.form == "SCD TYPE 2" && used[[2]int{id, seq}] {
					continue
				}
				used[[2]int{id, seq}] = true
				op := "UPSERT"
				if r.IntN(6) == 0 {
					op = "DELETE"
				}
				code := []string{"", "a", "ab"}[id%3]
				c.MustExec(fmt.Sprintf("INSERT INTO ev VALUES (%d, '%s', 'v%d', '%s', %s, %s)", id, code, r.IntN(3), op, sh.lit(seq), sh.lit(i+1)))
			}
			axes := []string{"BUSINESS_TIME"}
			cols := "id, code, v, __start_at, __end_at"
			if sh.form == "BITEMPORAL" {
				axes = append(axes, "SYSTEM_TIME")
				cols += ", __system_start_at, __system_end_at"
			}
			bound := func(n int) string {
				if n < 0 {
					return sh.null
				}
				return sh.lit(n)
			}
			points := []int{-1, 0, 1, 2, 5, 13, 20, 33, 40, 41, 100}
			for i := 0; i < 8; i++ {
				points = append(points, r.IntN(maxSeq+2))
			}
			compared := 0
			for _, axis := range axes {
				for _, a := range points {
					b := points[r.IntN(len(points))]
					for _, clause := range []string{"AS OF %[1]s", "FROM %[1]s TO %[2]s", "BETWEEN %[1]s AND %[2]s"} {
						fast := fmt.Sprintf(clause, bound(a), bound(b))
						slow := fmt.Sprintf(clause, "("+bound(a)+")"+sh.plusZero, "("+bound(b)+")"+sh.plusZero)
						q := "SELECT " + cols + " FROM tgt FOR " + axis + " %s ORDER BY " + cols
						want := c.MustExec(fmt.Sprintf(q, slow)).String()
						if got := c.MustExec(fmt.Sprintf(q, fast)).String(); got != want {
							t.Errorf("FOR %s %s:\n%s\nwant (as the filter decides it)\n%s", axis, fast, got, want)
						}
						// The same with the bounds as parameters.
						if a >= 0 && b >= 0 && sh.seqType != "timestamp" {
							pq := fmt.Sprintf(q, fmt.Sprintf(clause, "$1", "$2"))
							if clause == "AS OF %[1]s" {
								pq = fmt.Sprintf(q, "AS OF $1")
								if got := c.MustExec(pq, fmt.Sprint(a)).String(); got != want {
									t.Errorf("FOR %s AS OF $1 = %d:\n%s\nwant\n%s", axis, a, got, want)
								}
							} else if got := c.MustExec(pq, fmt.Sprint(a), fmt.Sprint(b)).String(); got != want {
								t.Errorf("FOR %s %s with $1 = %d, $2 = %d:\n%s\nwant\n%s", axis, clause, a, b, got, want)
							}
						}
						compared++
					}
				}
			}
			// With a WHERE clause beside the period, and a key range scan.
			for _, a := range points {
				for _, where := range []string{"v = 'v1'", "id = 3", "id > 2"} {
					q := "SELECT " + cols + " FROM tgt FOR BUSINESS_TIME AS OF %s WHERE " + where + " ORDER BY " + cols
					want := c.MustExec(fmt.Sprintf(q, "("+bound(a)+")"+sh.plusZero)).String()
					if got := c.MustExec(fmt.Sprintf(q, bound(a))).String(); got != want {
						t.Errorf("AS OF %s WHERE %s:\n%s\nwant\n%s", bound(a), where, got, want)
					}
				}
			}
			if compared == 0 {
				t.Fatal("nothing compared")
			}
			// EXPLAIN says which reads walked each key's versions.
			if sh.form == "SCD TYPE 2" {
				walk := "each flow key's last version starting at or before AS OF"
				if plan := c.MustExec("EXPLAIN SELECT * FROM tgt FOR BUSINESS_TIME AS OF " + sh.lit(3)).String(); !strings.Contains(plan, walk) {
					t.Errorf("whole-table AS OF plan:\n%s", plan)
				}
				if plan := c.MustExec("EXPLAIN SELECT * FROM tgt FOR BUSINESS_TIME AS OF " + sh.lit(3) + sh.plusZero).String(); strings.Contains(plan, walk) {
					t.Errorf("AS OF an expression plan:\n%s", plan)
				}
			}
		})
	}
}
