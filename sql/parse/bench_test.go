package parse

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkParse measures the statements a server parses most: pgbench's
// select-only and TPC-B-like transactions, a 1,000-row INSERT, the longest
// psql describe query, and a flow definition.
func BenchmarkParse(b *testing.B) {
	var insert strings.Builder
	insert.WriteString("INSERT INTO pgbench_accounts (aid, bid, abalance, filler) VALUES ")
	for i := 0; i < 1000; i++ {
		if i > 0 {
			insert.WriteString(", ")
		}
		fmt.Fprintf(&insert, "(%d, %d, 0, '%s')", i+1, i/100+1, strings.Repeat(" ", 84))
	}
	describe := ""
	for _, q := range readCorpus(b, "psql_describe.sql") {
		if len(q) > len(describe) {
			describe = q
		}
	}
	cases := []struct{ name, sql string }{
		{"pgbench-select", "SELECT abalance FROM pgbench_accounts WHERE aid = $1;"},
		{"pgbench-tpcb", "BEGIN;" +
			"UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2;" +
			"SELECT abalance FROM pgbench_accounts WHERE aid = $2;" +
			"UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $3;" +
			"UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $4;" +
			"INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($3, $4, $2, $1, CURRENT_TIMESTAMP);" +
			"END;"},
		{"insert-1000-rows", insert.String()},
		{"psql-describe", describe},
		{"create-flow", "CREATE FLOW apply_cdc AS AUTO CDC INTO users_current FROM stream(users_cdf) KEYS (userId) " +
			"APPLY AS DELETE WHEN operation = 'DELETE' SEQUENCE BY sequenceNum COLUMNS * EXCEPT (operation, sequenceNum) STORED AS SCD TYPE 2"},
	}
	for _, c := range cases {
		if _, err := Parse(c.sql); err != nil {
			b.Fatalf("%s: %v", c.name, err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.sql)))
			for i := 0; i < b.N; i++ {
				if _, err := Parse(c.sql); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
