package sql_test

import (
	"fmt"
	"strings"
	"testing"

	"cdcdb/sql/sqltest"
)

// BenchmarkFlowIngestCopy copies batches of 1,000 change events (over
// 10,000 keys) into a source read by an SCD TYPE 2 flow; ns/op is per
// batch.
func BenchmarkFlowIngestCopy(b *testing.B) {
	c := sqltest.Open(b).Conn()
	c.CopyChunk = 64 << 10
	c.MustExec("CREATE TABLE ev (id bigint, name text, city text, op text, seq bigint)")
	c.MustExec("CREATE STREAMING TABLE tgt")
	c.MustExec("CREATE FLOW f AS AUTO CDC INTO tgt FROM ev KEYS (id) APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2")
	seq := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var sb strings.Builder
		for j := 0; j < 1000; j++ {
			seq++
			op := "UPDATE"
			if seq%10 == 0 {
				op = "DELETE"
			}
			fmt.Fprintf(&sb, "%d\tname%d\tcity%d\t%s\t%d\n", seq%10000, seq%7, seq%13, op, seq)
		}
		if _, err := c.Copy("COPY ev FROM STDIN", sb.String()); err != nil {
			b.Fatal(err)
		}
	}
}
