package sql_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"cdcdb/sql"
	"cdcdb/sql/sqltest"
	"cdcdb/wire"
)

// The read benchmarks run cmd/cdcbench's read workloads in process, through
// the same Parse / Bind / Execute / Sync calls the wire server makes, so a
// change to the read path can be measured without sockets and without the
// noise of a shared machine.

// countRows is a ResultWriter that only counts rows.
type countRows struct{ n int }

func (w *countRows) WriteRow([][]byte) error                    { w.n++; return nil }
func (w *countRows) Notice(*wire.NoticeInfo)                    {}
func (w *countRows) CopyIn(bool, int) (wire.CopyReader, error)  { return nil, nil }
func (w *countRows) CopyOut(bool, int) (wire.CopyWriter, error) { return nil, nil }

// runOnce sends one query the way a driver does: Parse (unless ps is
// given), Bind, Execute, Sync. It returns the number of rows.
func runOnce(b *testing.B, sess wire.Session, ps wire.PreparedStatement, query string, paramTypes []uint32, params [][]byte) int {
	ctx := context.Background()
	if ps == nil {
		sts, err := sess.Parse(ctx, query, paramTypes)
		if err != nil || len(sts) != 1 {
			b.Fatalf("parse %s: %v", query, err)
		}
		ps = sts[0]
	}
	p, err := ps.Bind(ctx, params, nil, nil)
	if err != nil {
		b.Fatalf("bind: %v", err)
	}
	w := &countRows{}
	if _, _, err := p.Execute(ctx, 0, w); err != nil {
		b.Fatalf("execute: %v", err)
	}
	p.Close()
	if err := sess.(wire.SyncSession).Sync(ctx, false); err != nil {
		b.Fatalf("sync: %v", err)
	}
	return w.n
}

// BenchmarkPointSelect is pgbench's select-only script against a kv table
// of 100,000 rows: the text with the key spelt out (-M simple), the same
// text with $1 re-parsed as the unnamed statement each time (-M extended),
// and a statement prepared once (-M prepared, and pgx).
func BenchmarkPointSelect(b *testing.B) {
	db := sqltest.Open(b)
	c := db.Conn()
	c.MustExec("CREATE TABLE kv (id int PRIMARY KEY, v int)")
	const rows = 100_000
	for start := 1; start <= rows; start += 10_000 {
		var vals []string
		for i := start; i < start+10_000; i++ {
			vals = append(vals, fmt.Sprintf("(%d, %d)", i, i*7))
		}
		c.MustExec("INSERT INTO kv VALUES " + strings.Join(vals, ","))
	}
	sess := newBenchSession(b, db)
	r := rand.New(rand.NewPCG(1, 2))
	b.Run("simple", func(b *testing.B) {
		for b.Loop() {
			q := "SELECT v FROM kv WHERE id = " + strconv.Itoa(1+r.IntN(rows)) + ";"
			if runOnce(b, sess, nil, q, nil, nil) != 1 {
				b.Fatal("want one row")
			}
		}
	})
	b.Run("extended", func(b *testing.B) {
		for b.Loop() {
			id := []byte(strconv.Itoa(1 + r.IntN(rows)))
			if runOnce(b, sess, nil, "SELECT v FROM kv WHERE id = $1;", nil, [][]byte{id}) != 1 {
				b.Fatal("want one row")
			}
		}
	})
	b.Run("prepared", func(b *testing.B) {
		sts, err := sess.Parse(context.Background(), "SELECT v FROM kv WHERE id = $1;", nil)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			id := []byte(strconv.Itoa(1 + r.IntN(rows)))
			if runOnce(b, sess, sts[0], "", nil, [][]byte{id}) != 1 {
				b.Fatal("want one row")
			}
		}
	})
}

// BenchmarkAsOf is cdcbench's time-travel reads: an SCD TYPE 2 target of
// 10,000 keys built from 100,000 events (a tenth of them deletes), read AS
// OF a random instant for one key and for the whole table, by a statement
// prepared once, as pgx does.
func BenchmarkAsOf(b *testing.B) { benchAsOf(b, sql.Options{}) }

// BenchmarkAsOfGeneralPaths is BenchmarkAsOf with every fast path of the
// engine off (sql.FastPathsOff, docs/fast-paths.md).
func BenchmarkAsOfGeneralPaths(b *testing.B) {
	benchAsOf(b, sql.Options{FastPathsOff: sql.FastPathsOff{CopyAhead: true, SourceSpool: true, NumberedPlans: true, StoredRowScans: true}})
}

func benchAsOf(b *testing.B, opts sql.Options) {
	db := sqltest.OpenWith(b, opts)
	c := db.Conn()
	c.MustExec("CREATE TABLE ev (id bigint, name text, city text, op text, seq bigint)")
	c.MustExec("CREATE STREAMING TABLE tgt")
	c.MustExec(`CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (id)
		APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq
		COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2`)
	const keys, events = 10_000, 100_000
	r := rand.New(rand.NewPCG(3, 4))
	cities := []string{"Tijuana", "Guadalajara", "Mexicali", "Monterrey", "Puebla"}
	for start := 1; start <= events; start += 10_000 {
		var vals []string
		for seq := start; seq < start+10_000; seq++ {
			op := "UPSERT"
			if r.IntN(10) == 0 {
				op = "DELETE"
			}
			vals = append(vals, fmt.Sprintf("(%d, 'name%d', '%s', '%s', %d)", 1+r.IntN(keys), r.IntN(1000), cities[r.IntN(len(cities))], op, seq))
		}
		c.MustExec("INSERT INTO ev VALUES " + strings.Join(vals, ","))
	}
	sess := newBenchSession(b, db)
	prepare := func(b *testing.B, q string) wire.PreparedStatement {
		sts, err := sess.Parse(context.Background(), q, nil)
		if err != nil {
			b.Fatal(err)
		}
		return sts[0]
	}
	b.Run("point", func(b *testing.B) {
		ps := prepare(b, `SELECT id, name, city, __start_at, __end_at FROM tgt FOR BUSINESS_TIME AS OF $1 WHERE id = $2`)
		for b.Loop() {
			at, id := []byte(strconv.Itoa(1+r.IntN(events))), []byte(strconv.Itoa(1+r.IntN(keys)))
			runOnce(b, sess, ps, "", nil, [][]byte{at, id})
		}
	})
	b.Run("table", func(b *testing.B) {
		ps := prepare(b, `SELECT id, name, city, __start_at, __end_at FROM tgt FOR BUSINESS_TIME AS OF $1`)
		rows := 0
		for b.Loop() {
			rows += runOnce(b, sess, ps, "", nil, [][]byte{[]byte(strconv.Itoa(1 + r.IntN(events)))})
		}
		b.ReportMetric(float64(rows)/float64(b.N), "rows/op")
	})
}

func newBenchSession(b *testing.B, db *sqltest.DB) wire.Session {
	s, err := db.Engine.NewSession(context.Background(), wire.StartupInfo{User: "cdcdb", Database: "main"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	return s
}
