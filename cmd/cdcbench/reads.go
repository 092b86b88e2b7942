package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
)

// The time-travel queries, in each system's words. PostgreSQL's point query
// is the issue's, verbatim; both read the same columns.
const (
	cdcdbPointAsOf = `SELECT id, name, city, __start_at, __end_at FROM tgt FOR BUSINESS_TIME AS OF $1 WHERE id = $2`
	pgPointAsOf    = `SELECT id, name, city, __start_at, __end_at FROM tgt WHERE id = $2 AND __start_at <= $1 AND (__end_at > $1 OR __end_at IS NULL)`
	cdcdbTableAsOf = `SELECT id, name, city, __start_at, __end_at FROM tgt FOR BUSINESS_TIME AS OF $1`
	pgTableAsOf    = `SELECT id, name, city, __start_at, __end_at FROM tgt WHERE __start_at <= $1 AND (__end_at > $1 OR __end_at IS NULL)`
)

// pgReadIndex is PostgreSQL's best index for the point query: equality on
// the key, a range on the start, and the end and values INCLUDEd so the
// (end > x OR end IS NULL) filter and the row come from an index-only scan
// (the table is vacuumed after each load, so the visibility map is set).
const pgReadIndex = `CREATE INDEX tgt_asof ON tgt (id, __start_at) INCLUDE (__end_at, name, city)`

// pgSCD2FullBuild is pgSCD2Rebuild's replay over every key at once: how the
// PostgreSQL side builds a read-only history in one statement.
const pgSCD2FullBuild = `
INSERT INTO tgt (id, name, city, __start_at, __end_at)
SELECT id, name, city, seq, next_seq
FROM (
	SELECT id, name, city, seq, del, lead(seq) OVER (PARTITION BY id ORDER BY seq) AS next_seq
	FROM (
		SELECT id, name, city, seq, del,
		       lag(seq) OVER w AS prev_seq, lag(del) OVER w AS prev_del,
		       lag(name) OVER w AS prev_name, lag(city) OVER w AS prev_city
		FROM (SELECT id, name, city, seq, coalesce(op = 'DELETE', false) AS del FROM ev_log) e
		WINDOW w AS (PARTITION BY id ORDER BY seq)
	) e
	WHERE del OR prev_seq IS NULL OR prev_del OR (name, city) IS DISTINCT FROM (prev_name, prev_city)
) b
WHERE NOT del`

// readsWorkload is workload 3: an SCD TYPE 2 history of readKeys keys,
// queried AS OF a business time — per key and over the whole table — by
// concurrent clients; then the history grows readGrowth-fold per key and the
// point query runs again, since point latency should barely notice.
func (b *bench) readsWorkload(ctx context.Context) error {
	total := b.sz.readEvents * b.sz.readGrowth
	// Large COPY batches: loading is not measured here, and cdcdb rewrites
	// each touched key's stored history once per batch, so fewer, larger
	// batches load the grown history several times faster.
	shape := feedShape{events: total, keys: b.sz.readKeys, batch: 25_000, deletes: 0.10, seed: 3}
	batches := generate(shape)
	baseBatches := b.sz.readEvents / shape.batch
	if baseBatches == 0 { // quick sizes: smaller batches
		shape.batch = b.sz.readEvents
		batches, baseBatches = generate(shape), 1
	}

	srv, err := b.newCdcdb()
	if err != nil {
		return err
	}
	defer srv.stop()
	cdc, err := pgx.Connect(ctx, srv.url())
	if err != nil {
		return err
	}
	defer cdc.Close(ctx)
	if err := execScript(ctx, cdc, cdcdbSCD2DDL); err != nil {
		return err
	}
	if err := b.pg.freshDatabase(ctx, "reads"); err != nil {
		return err
	}
	pg, err := pgx.Connect(ctx, b.pg.URL("reads"))
	if err != nil {
		return err
	}
	defer pg.Close(ctx)
	if err := execScript(ctx, pg, pgSCD2Schema+pgReadIndex); err != nil {
		return err
	}

	load := func(batches [][]changeEvent) error {
		t0 := time.Now()
		for _, batch := range batches {
			rows := copyText(nil, batch, false)
			if err := copyEvents(ctx, cdc, rows); err != nil {
				return fmt.Errorf("cdcdb COPY: %v", err)
			}
			if _, err := pg.PgConn().CopyFrom(ctx, bytes.NewReader(rows), "COPY ev_log FROM STDIN"); err != nil {
				return fmt.Errorf("PostgreSQL COPY: %v", err)
			}
		}
		if err := execScript(ctx, pg, "TRUNCATE tgt; "+pgSCD2FullBuild); err != nil {
			return fmt.Errorf("PostgreSQL build: %v", err)
		}
		if err := execScript(ctx, pg, "VACUUM ANALYZE tgt"); err != nil {
			return fmt.Errorf("PostgreSQL vacuum: %v", err)
		}
		d, err := compareTables(ctx, cdc, pg, scd2TargetQuery, scd2TargetQuery, "read targets")
		if err != nil {
			return err
		}
		b.logf("reads: loaded %d batches in %s; targets identical (%d rows)", len(batches), time.Since(t0).Round(time.Second), d.rows)
		// The reads start on a quiet disk, as each side of an ingest does:
		// the load's writes, and in a full run the ingest workloads'
		// (PostgreSQL's spread checkpoint, the page cache's write-back of
		// gigabytes), are not the reads' to share the cores with.
		return b.quietDisk(ctx)
	}

	// Parameters: a random key and a random business time up to the latest
	// sequence loaded, so a point query lands anywhere in a key's history.
	maxSeq := int64(b.sz.readEvents)
	point := func(r *rand.Rand) []any { return []any{1 + r.Int64N(maxSeq), 1 + r.Int64N(int64(b.sz.readKeys))} }
	table := func(r *rand.Rand) []any { return []any{1 + r.Int64N(maxSeq)} }
	sample := func(n int, gen func(*rand.Rand) []any) [][]string {
		r := rand.New(rand.NewPCG(99, uint64(maxSeq)))
		out := make([][]string, n)
		for i := range out {
			for _, v := range gen(r) {
				out[i] = append(out[i], strconv.FormatInt(v.(int64), 10))
			}
		}
		return out
	}
	check := func() error {
		if err := compareQueries(ctx, cdc, pg, cdcdbPointAsOf, pgPointAsOf, sample(b.sz.readSample, point)); err != nil {
			return fmt.Errorf("point AS OF: %v", err)
		}
		if err := compareQueries(ctx, cdc, pg, cdcdbTableAsOf, pgTableAsOf, sample(3, table)); err != nil {
			return fmt.Errorf("whole-table AS OF: %v", err)
		}
		return nil
	}

	if err := load(batches[:baseBatches]); err != nil {
		return err
	}
	if err := check(); err != nil {
		return err
	}
	type measured struct{ cdc, pg []loadResult }
	var pt1, whole, pt10 measured
	measure := func(m *measured, rep int, cdcQ, pgQ string, gen func(*rand.Rand) []any, what string) error {
		sides := []func() error{
			func() error {
				r, err := runLoad(ctx, srv.url(), b.sz.readClients, b.sz.readFor, cdcQ, gen)
				m.cdc = append(m.cdc, r)
				return err
			},
			func() error {
				r, err := runLoad(ctx, b.pg.URL("reads"), b.sz.readClients, b.sz.readFor, pgQ, gen)
				m.pg = append(m.pg, r)
				return err
			},
		}
		if rep%2 == 1 {
			sides[0], sides[1] = sides[1], sides[0]
		}
		for _, side := range sides {
			if err := side(); err != nil {
				return fmt.Errorf("%s: %v", what, err)
			}
		}
		c, p := m.cdc[len(m.cdc)-1], m.pg[len(m.pg)-1]
		b.logf("reads %s rep %d: cdcdb %.0f q/s (p50 %s, p99 %s), PostgreSQL %.0f q/s (p50 %s, p99 %s)",
			what, rep+1, c.qps, c.p50, c.p99, p.qps, p.p50, p.p99)
		return nil
	}
	for rep := range b.sz.readReps {
		wait := b.profile(srv, "reads-point", rep)
		if err := measure(&pt1, rep, cdcdbPointAsOf, pgPointAsOf, point, "point AS OF"); err != nil {
			return err
		}
		if err := wait(); err != nil {
			return err
		}
		wait = b.profile(srv, "reads-table", rep)
		if err := measure(&whole, rep, cdcdbTableAsOf, pgTableAsOf, table, "whole-table AS OF"); err != nil {
			return err
		}
		if err := wait(); err != nil {
			return err
		}
	}

	if err := load(batches[baseBatches:]); err != nil {
		return err
	}
	maxSeq = int64(total)
	if err := check(); err != nil {
		return err
	}
	for rep := range b.sz.readReps {
		if err := measure(&pt10, rep, cdcdbPointAsOf, pgPointAsOf, point, fmt.Sprintf("point AS OF, %dx history", b.sz.readGrowth)); err != nil {
			return err
		}
	}

	grown := fmt.Sprintf("point AS OF, %dx history", b.sz.readGrowth)
	b.addLoadFigures("Point AS OF", pt1.cdc, pt1.pg, ratioAtLeast(1))
	b.addLoadFigures("Whole-table AS OF", whole.cdc, whole.pg, ratioAtLeast(1))
	b.addLoadFigures(capitalize(grown), pt10.cdc, pt10.pg, goal{})
	growth := func(before, after []loadResult) float64 {
		return median(p50s(after)) / median(p50s(before))
	}
	b.rep.add(figure{workload: capitalize(grown), metric: "p50 growth", cdcdb: growth(pt1.cdc, pt10.cdc), pg: growth(pt1.pg, pt10.pg),
		unit: "x", goal: absoluteAtMost(1.5)})
	b.rep.checks = append(b.rep.checks, fmt.Sprintf("time-travel reads: %d keys, %d then %d events; targets identical at both sizes; %d point and 3 whole-table AS OF answers identical at each size",
		b.sz.readKeys, b.sz.readEvents, total, b.sz.readSample))
	return srv.stop()
}

// addLoadFigures reports a concurrent-read measurement: QPS (judged by g),
// p50 and p99.
func (b *bench) addLoadFigures(workload string, cdc, pg []loadResult, g goal) {
	qps := func(rs []loadResult) []float64 {
		var out []float64
		for _, r := range rs {
			out = append(out, r.qps)
		}
		return out
	}
	p99s := func(rs []loadResult) []float64 {
		var out []float64
		for _, r := range rs {
			out = append(out, r.p99.Seconds()*1000)
		}
		return out
	}
	w := fmt.Sprintf("%s (%d clients)", workload, b.sz.readClients)
	b.rep.add(figure{workload: w, metric: "QPS", cdcdb: median(qps(cdc)), pg: median(qps(pg)), unit: "q/s", higherBetter: true, goal: g})
	b.rep.add(figure{workload: w, metric: "p50", cdcdb: median(p50s(cdc)), pg: median(p50s(pg)), unit: "ms"})
	b.rep.add(figure{workload: w, metric: "p99", cdcdb: median(p99s(cdc)), pg: median(p99s(pg)), unit: "ms"})
}

func p50s(rs []loadResult) []float64 {
	var out []float64
	for _, r := range rs {
		out = append(out, r.p50.Seconds()*1000)
	}
	return out
}
