package sql_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"cdcdb/sql/sqltest"
)

// TestAsOfKeyRangeMatchesFullScan checks the key range scan of a point
// FOR BUSINESS_TIME AS OF read (which stops at the instant, and for SCD TYPE
// 2 reads only the last version starting at or before it) against the same
// query made to scan the whole target (id + 0 is no key equality), for every
// key and every instant around a random out-of-order history with deletes,
// identical updates and, for BITEMPORAL, restated business times.
func TestAsOfKeyRangeMatchesFullScan(t *testing.T) {
	for _, form := range []string{"SCD TYPE 2", "BITEMPORAL"} {
		t.Run(form, func(t *testing.T) {
			seed := rand.Uint64()
			t.Logf("seed %d", seed)
			r := rand.New(rand.NewPCG(seed, 1))
			c := sqltest.Open(t).Conn()
			sys, except := "", "op, seq"
			if form == "BITEMPORAL" {
				sys, except = " SYSTEM SEQUENCE BY st", "op, seq, st"
			}
			c.MustExec("CREATE TABLE ev (id bigint, v text, op text, seq bigint, st bigint)")
			c.MustExec("CREATE STREAMING TABLE tgt")
			c.MustExec(`CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (id)
				APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq` + sys + `
				COLUMNS * EXCEPT (` + except + `) STORED AS ` + form)
			const keys, events, maxSeq = 4, 60, 40
			used := map[[3]int]bool{}
			for i := 0; i < events; i++ {
				id, seq, st := 1+r.IntN(keys), 1+r.IntN(maxSeq), i+1
				if form == "SCD TYPE 2" {
					st = 0 // SCD TYPE 2: one event per key and sequence
				}
				if used[[3]int{id, seq, st}] {
					continue
				}
				used[[3]int{id, seq, st}] = true
				op, v := "UPSERT", fmt.Sprintf("'v%d'", r.IntN(3))
				if r.IntN(6) == 0 {
					op, v = "DELETE", "NULL"
				}
				c.MustExec(fmt.Sprintf("INSERT INTO ev VALUES (%d, %s, '%s', %d, %d)", id, v, op, seq, st))
			}
			cols := "id, v, __start_at, __end_at"
			if form == "BITEMPORAL" {
				cols += ", __system_start_at, __system_end_at"
			}
			plan := c.MustExec("EXPLAIN SELECT * FROM tgt FOR BUSINESS_TIME AS OF 5 WHERE id = 1").String()
			if !strings.Contains(plan, "AS OF") {
				t.Errorf("plan does not bound the key range by the instant:\n%s", plan)
			}
			for id := 0; id <= keys+1; id++ {
				for at := 0; at <= maxSeq+1; at++ {
					q := "SELECT " + cols + " FROM tgt FOR BUSINESS_TIME AS OF $1 WHERE %s = $2 ORDER BY 3, 1"
					ranged := c.MustExec(fmt.Sprintf(q, "id"), fmt.Sprint(at), fmt.Sprint(id)).String()
					full := c.MustExec(fmt.Sprintf(q, "id + 0"), fmt.Sprint(at), fmt.Sprint(id)).String()
					if ranged != full {
						t.Fatalf("AS OF %d, id %d: key range scan gave\n%s\nfull scan gave\n%s", at, id, ranged, full)
					}
				}
			}
		})
	}
}
