package sql_test

import (
	"fmt"
	"testing"
	"time"

	"cdcdb/sql/sqltest"
)

func TestZZSnapPerf(t *testing.T) {
	c := sqltest.Open(t).Conn()
	n := 300000
	c.MustExec(`CREATE TABLE src (id bigint PRIMARY KEY, a text, b bigint)`)
	c.MustExec(fmt.Sprintf(`INSERT INTO src SELECT g, 'name ' || g, g FROM generate_series(1, %d) g`, n))
	c.MustExec(`CREATE STREAMING TABLE dim`)
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO dim FROM SNAPSHOT (SELECT id, a, b FROM src) KEYS (id) STORED AS SCD TYPE 2`)
	for v := 0; v < 3; v++ {
		c.MustExec(fmt.Sprintf(`BEGIN; UPDATE src SET b = b + 1 WHERE id %% 100 = %d; DELETE FROM src WHERE id %% 200 = %d; INSERT INTO src SELECT g, 'x', 1 FROM generate_series(%d, %d) g; COMMIT`, v, v+50, n+1+v*1500, n+v*1500+1500))
		t1 := time.Now()
		c.MustExec(`REFRESH STREAMING TABLE dim`)
		t.Logf("snapshot %d: %v", v, time.Since(t1))
	}
}
