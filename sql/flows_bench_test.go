package sql_test

import (
	"fmt"
	"strings"
	"testing"

	"cdcdb/sql/sqltest"
)

// BenchmarkFlowEventCost applies one change event at a time to an SCD TYPE
// 2 target that already holds `keys` keys. The cost of an event depends on
// its key's history, not on the size of the target, so ns/op stays flat as
// the target grows a hundredfold.
func BenchmarkFlowEventCost(b *testing.B) {
	for _, keys := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("keys=%d", keys), func(b *testing.B) {
			c := sqltest.Open(b).Conn()
			c.MustExec("CREATE TABLE ev (id int, v int, seq int)")
			c.MustExec("CREATE STREAMING TABLE tgt")
			c.MustExec("CREATE FLOW f AS AUTO CDC INTO tgt FROM ev KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2")
			for start := 0; start < keys; start += 5000 {
				var vals []string
				for i := start; i < start+5000 && i < keys; i++ {
					vals = append(vals, fmt.Sprintf("(%d, 0, 1)", i))
				}
				c.MustExec("INSERT INTO ev VALUES " + strings.Join(vals, ","))
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c.MustExec(fmt.Sprintf("INSERT INTO ev VALUES (%d, %d, %d)", (i*7919)%keys, i+1, i+2))
			}
		})
	}
}
