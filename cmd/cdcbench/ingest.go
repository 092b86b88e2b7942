package main

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// The cdcdb side of the ingest workloads: a source table and an AUTO CDC
// flow, nothing else. Column names match the PostgreSQL side's (pg.go), so
// the same query reads both targets.
const (
	cdcdbSCD2DDL = `
CREATE TABLE ev (id bigint, name text, city text, op text, seq bigint);
CREATE STREAMING TABLE tgt;
CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (id)
  APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq
  COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2;`
	cdcdbBitemporalDDL = `
CREATE TABLE ev (id bigint, name text, city text, op text, seq bigint, st bigint);
CREATE STREAMING TABLE tgt;
CREATE FLOW f AS AUTO CDC INTO tgt FROM stream(ev) KEYS (id)
  APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq SYSTEM SEQUENCE BY st
  COLUMNS * EXCEPT (op, seq, st) STORED AS BITEMPORAL;`

	// cdcdbIngestDrop empties the server for the next repetition, as a
	// fresh database does PostgreSQL's side.
	cdcdbIngestDrop = `DROP FLOW f; DROP STREAMING TABLE tgt; DROP TABLE ev;`

	scd2TargetQuery       = `SELECT id, name, city, __start_at, __end_at FROM tgt`
	bitemporalTargetQuery = `SELECT id, name, city, __start_at, __end_at, __system_start_at, __system_end_at FROM tgt`
)

// ingestRun is one side's figures for one repetition.
type ingestRun struct {
	elapsed  time.Duration
	batchLat []time.Duration
	written  int64 // bytes the disks took in during the run (diskio.go)
}

func (r ingestRun) rate(events int) float64 { return float64(events) / r.elapsed.Seconds() }

// ingestWorkload is workloads 1 (SCD TYPE 2) and 2 (BITEMPORAL): the same
// feed, COPYed batch by batch into cdcdb's flow and into the PostgreSQL
// log-and-rebuild, then the two targets compared row for row.
//
// Both servers are warm when timed, and each repetition starts on empty
// tables: PostgreSQL's cluster has taken the feed once (warmUpPostgres) and
// each repetition gets a new database in it; one cdcdb server takes the
// feed once (warmUpCdcdb), and each repetition creates the tables and flow
// anew and drops them after the comparison. Neither side's timed run pays
// for its process or files starting cold.
func (b *bench) ingestWorkload(ctx context.Context, bitemporal bool) error {
	shape, reps, name, key := b.sz.scd2, b.sz.scd2Reps, "SCD2 ingest", "scd2"
	ddl, query := cdcdbSCD2DDL, scd2TargetQuery
	if bitemporal {
		shape, reps, name, key = b.sz.bitemporal, b.sz.bitemporalReps, "Bitemporal ingest", "bitemporal"
		ddl, query = cdcdbBitemporalDDL, bitemporalTargetQuery
	}
	batches := generate(shape)
	copies := make([][]byte, len(batches))
	late := 0
	for i, batch := range batches {
		copies[i] = copyText(nil, batch, bitemporal)
		for _, e := range batch {
			if e.st < int64(i*shape.batch)+1 {
				late++
			}
		}
	}
	b.logf("%s: %d events over %d keys in %d batches of %d", name, shape.events, shape.keys, len(batches), shape.batch)

	srv, err := b.newCdcdb()
	if err != nil {
		return err
	}
	defer srv.stop()
	pgFirst, err := b.warmUpPostgres(ctx, copies, shape.events, bitemporal)
	if err != nil {
		return err
	}
	srv.resident.setPhase("warm-up")
	cdcFirst, err := b.warmUpCdcdb(ctx, srv, copies, ddl, shape.events)
	if err != nil {
		return err
	}
	var cdcRates, pgRates, rss, cdcP99, pgP99, cdcWritten, pgWritten []float64
	var rows int64
	var peakAnon, peakFile int64 // sampled, over the same span as VmHWM
	for rep := range reps {
		cdcConn, pgConn, cdcRun, pgRun, err := b.ingestBoth(ctx, srv, copies, ddl, bitemporal, key, rep)
		if err != nil {
			return err
		}
		peak, err := srv.peakRSS()
		if err == nil {
			peakAnon, peakFile = b.logResident(srv, name, rep)
			srv.resident.setPhase(fmt.Sprintf("rep %d: comparing the targets", rep+1))
			var d digest
			d, err = compareTables(ctx, cdcConn, pgConn, query, query, name+" targets")
			rows = d.rows
		}
		if err == nil {
			srv.resident.setPhase(fmt.Sprintf("rep %d: dropping the tables", rep+1))
			if err = execScript(ctx, cdcConn, cdcdbIngestDrop); err != nil {
				err = fmt.Errorf("cdcdb dropping the repetition's tables: %v", err)
			}
		}
		cdcConn.Close(ctx)
		pgConn.Close(ctx)
		if err != nil {
			return err
		}
		cdcRates = append(cdcRates, cdcRun.rate(shape.events))
		pgRates = append(pgRates, pgRun.rate(shape.events))
		rss = append(rss, float64(peak))
		cdcP99 = append(cdcP99, percentile(cdcRun.batchLat, 0.99).Seconds()*1000)
		pgP99 = append(pgP99, percentile(pgRun.batchLat, 0.99).Seconds()*1000)
		cdcWritten = append(cdcWritten, float64(cdcRun.written)/float64(shape.events))
		pgWritten = append(pgWritten, float64(pgRun.written)/float64(shape.events))
		b.logf("%s rep %d: cdcdb %.0f events/s (peak RSS %s), PostgreSQL %.0f events/s; targets identical (%d rows)",
			name, rep+1, cdcRun.rate(shape.events), mib(float64(peak)), pgRun.rate(shape.events), rows)
	}
	b.rep.add(figure{workload: name, metric: "events/s", cdcdb: median(cdcRates), pg: median(pgRates), unit: "events/s",
		higherBetter: true, goal: ratioAtLeast(10)})
	b.rep.add(figure{workload: name, metric: "batch p99", cdcdb: median(cdcP99), pg: median(pgP99), unit: "ms"})
	b.rep.add(figure{workload: name, metric: "written to disk per event", cdcdb: median(cdcWritten), pg: median(pgWritten), unit: "bytes/event"})
	// VmHWM: the process's peak since it started, the warm-up included.
	b.rep.add(figure{workload: name, metric: "cdcdb peak RSS", cdcdb: maxOf(rss), unit: "bytes", goal: absoluteAtMost(512 << 20)})
	// What the peak was made of, from the sampler (every 20 ms, so at or a
	// little under VmHWM): the Go heap and runtime, and the data file's
	// pages mapped in. Each part's own highest, which need not coincide.
	if peakAnon > 0 {
		b.rep.add(figure{workload: name, metric: "cdcdb peak RSS, anonymous part", cdcdb: float64(peakAnon), unit: "bytes"})
		b.rep.add(figure{workload: name, metric: "cdcdb peak RSS, file part", cdcdb: float64(peakFile), unit: "bytes"})
	}
	// The untimed first feeds, for the record: what each side does cold
	// (PostgreSQL's only in the run's first ingest workload).
	b.rep.add(figure{workload: name, metric: "first feed, untimed warm-up", cdcdb: cdcFirst, pg: pgFirst, unit: "events/s"})
	b.rep.checks = append(b.rep.checks, fmt.Sprintf("%s: %d events (%d arrived after later-sequenced ones), both targets identical in every repetition: %d rows",
		name, shape.events, late, rows))
	return srv.stop()
}

// ingestBoth feeds the batches to cdcdb and to PostgreSQL (alternating
// which goes first between repetitions, so neither always meets a cold or a
// warm disk, each starting on a quiet one: quietDisk) and returns open
// connections for comparing the targets.
func (b *bench) ingestBoth(ctx context.Context, srv *cdcdbServer, copies [][]byte, ddl string, bitemporal bool, key string, rep int) (cdcConn, pgConn *pgx.Conn, cdcRun, pgRun ingestRun, err error) {
	cdcSide := func() error {
		if cdcConn, err = pgx.Connect(ctx, srv.url()); err != nil {
			return err
		}
		if err := execScript(ctx, cdcConn, ddl); err != nil {
			return fmt.Errorf("cdcdb flow DDL: %v", err)
		}
		if err := b.quiet(ctx); err != nil {
			return err
		}
		srv.resident.setPhase(fmt.Sprintf("rep %d: cdcdb's feed", rep+1))
		defer srv.resident.setPhase(fmt.Sprintf("rep %d: after cdcdb's feed", rep+1))
		// The profile starts half-way: the first batches meet small tables
		// and would not show where a long ingest spends its time.
		wait := func() error { return nil }
		before, err := diskBytesWritten()
		if err != nil {
			return err
		}
		cdcRun, err = timeBatches(copies, func(i int, rows []byte) error {
			if i == len(copies)/2 {
				wait = b.profile(srv, key, rep)
			}
			return copyEvents(ctx, cdcConn, rows)
		})
		if err != nil {
			return fmt.Errorf("cdcdb COPY: %v", err)
		}
		after, err := diskBytesWritten()
		if err != nil {
			return err
		}
		cdcRun.written = after - before
		b.logStorage(ctx, cdcConn)
		return wait()
	}
	pgSide := func() error {
		f, err := b.freshPGFlow(ctx, bitemporal)
		if err != nil {
			return err
		}
		pgConn = f.conn
		if err := b.quiet(ctx); err != nil {
			return err
		}
		srv.resident.setPhase(fmt.Sprintf("rep %d: PostgreSQL's feed", rep+1))
		defer srv.resident.setPhase(fmt.Sprintf("rep %d: after PostgreSQL's feed", rep+1))
		before, err := diskBytesWritten()
		if err != nil {
			return err
		}
		pgRun, err = timeBatches(copies, func(_ int, rows []byte) error { return f.apply(ctx, rows) })
		if err != nil {
			return fmt.Errorf("PostgreSQL batch: %v", err)
		}
		after, err := diskBytesWritten()
		pgRun.written = after - before
		return err
	}
	first, second := cdcSide, pgSide
	if rep%2 == 1 {
		first, second = pgSide, cdcSide
	}
	if err = first(); err == nil {
		err = second()
	}
	if err != nil {
		if cdcConn != nil {
			cdcConn.Close(ctx)
		}
		if pgConn != nil {
			pgConn.Close(ctx)
		}
	}
	return cdcConn, pgConn, cdcRun, pgRun, err
}

// freshPGFlow makes PostgreSQL's side of an ingest on a new "bench"
// database: the event log, the target and the SQL that applies a batch.
func (b *bench) freshPGFlow(ctx context.Context, bitemporal bool) (*pgFlow, error) {
	if err := b.pg.freshDatabase(ctx, "bench"); err != nil {
		return nil, err
	}
	f, err := newPGFlow(ctx, b.pg.URL("bench"), bitemporal)
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL schema: %v", err)
	}
	return f, nil
}

// warmUpPostgres feeds the batches through PostgreSQL's SQL once, untimed,
// before the first timed ingest of the run, and returns the rate it took
// them at (0 when the cluster was already warm). PostgreSQL gets faster
// over its first ingests in a cluster (some of it likely its WAL: the first
// large ingest creates the segment files, 16 MiB each, zero-filled and
// synced as they are reached, which later ones recycle): measured on the
// benchmark's machine, a fresh cluster took the SCD2 feed at 8,962
// events/s and the next three repetitions at 16,859 to 18,123. Without
// this, the first repetition would time PostgreSQL's setup rather than its
// SQL; with it the first may still be slower, but the median of three is a
// warm one.
func (b *bench) warmUpPostgres(ctx context.Context, copies [][]byte, events int, bitemporal bool) (float64, error) {
	if b.pgWarm {
		return 0, nil
	}
	f, err := b.freshPGFlow(ctx, bitemporal)
	if err != nil {
		return 0, err
	}
	defer f.close(ctx)
	run, err := timeBatches(copies, func(_ int, rows []byte) error { return f.apply(ctx, rows) })
	if err != nil {
		return 0, fmt.Errorf("PostgreSQL warm-up batch: %v", err)
	}
	b.pgWarm = true
	b.logf("PostgreSQL warm-up (untimed): the feed once at %.0f events/s", run.rate(events))
	return run.rate(events), nil
}

// warmUpCdcdb feeds the batches into a flow on srv once, untimed, drops the
// tables, and returns the rate it took them at. A cdcdb server, like
// PostgreSQL's cluster, is faster from its second large ingest on: its
// heap has grown (the first feed's page faults on this kind of VM cost
// about half a second of CPU), its log ring has reached the size the feed
// needs, and its file has pages to reuse. In alternating runs of the
// benchmark's feed on its machine, the second feed into a server ran
// faster than the first in 7 of 8 servers, by 11% on average.
func (b *bench) warmUpCdcdb(ctx context.Context, srv *cdcdbServer, copies [][]byte, ddl string, events int) (float64, error) {
	conn, err := pgx.Connect(ctx, srv.url())
	if err != nil {
		return 0, err
	}
	defer conn.Close(ctx)
	if err := execScript(ctx, conn, ddl); err != nil {
		return 0, fmt.Errorf("cdcdb flow DDL: %v", err)
	}
	run, err := timeBatches(copies, func(_ int, rows []byte) error { return copyEvents(ctx, conn, rows) })
	if err != nil {
		return 0, fmt.Errorf("cdcdb warm-up COPY: %v", err)
	}
	if err := execScript(ctx, conn, cdcdbIngestDrop); err != nil {
		return 0, fmt.Errorf("cdcdb dropping the warm-up's tables: %v", err)
	}
	b.logf("cdcdb warm-up (untimed): the feed once at %.0f events/s", run.rate(events))
	return run.rate(events), nil
}

// copyEvents sends one batch of events, as COPY text, into cdcdb's source
// table ev.
func copyEvents(ctx context.Context, conn *pgx.Conn, rows []byte) error {
	_, err := conn.PgConn().CopyFrom(ctx, bytes.NewReader(rows), "COPY ev FROM STDIN")
	return err
}

// timeBatches applies every batch in order and times the whole and each.
func timeBatches(copies [][]byte, apply func(i int, rows []byte) error) (ingestRun, error) {
	r := ingestRun{batchLat: make([]time.Duration, 0, len(copies))}
	start := time.Now()
	for i, rows := range copies {
		t0 := time.Now()
		if err := apply(i, rows); err != nil {
			return r, fmt.Errorf("batch %d: %w", i+1, err)
		}
		r.batchLat = append(r.batchLat, time.Since(t0))
	}
	r.elapsed = time.Since(start)
	return r, nil
}

// logStorage logs cdcdb's storage counters (cdcdb.storage): how many
// checkpoints the server took and how long commits waited for them, since
// it started (the warm-up and earlier repetitions included).
func (b *bench) logStorage(ctx context.Context, conn *pgx.Conn) {
	var commits, flushes, ringFlushes, ringBytes, checkpoints, steps, compactions, compSteps, layers, memtable int64
	var ckptSecs, compSecs, waitSecs, flushSecs, durableSecs float64
	err := conn.QueryRow(ctx, `SELECT commits, flushes, log_ring_flushes, log_ring_bytes, checkpoints, checkpoint_transactions,
		checkpoint_seconds, compactions, compaction_transactions, compaction_seconds,
		commit_wait_seconds, flush_seconds, durable_wait_seconds, memtable_bytes, memtable_layers FROM cdcdb.storage`).Scan(
		&commits, &flushes, &ringFlushes, &ringBytes, &checkpoints, &steps, &ckptSecs, &compactions, &compSteps, &compSecs,
		&waitSecs, &flushSecs, &durableSecs, &memtable, &layers)
	if err != nil {
		b.logf("cdcdb.storage: %v", err)
		return
	}
	b.logf("cdcdb storage, since the server started: %d commits in %d flushes, %d through the log ring of %s (%.1fs writing, %.1fs waited by commits); "+
		"%d checkpoints in %d transactions taking %.1fs; %d compactions in %d transactions taking %.1fs; commits waited %.1fs for room; memtable now %s in %d layers",
		commits, flushes, ringFlushes, mib(float64(ringBytes)), flushSecs, durableSecs, checkpoints, steps, ckptSecs,
		compactions, compSteps, compSecs, waitSecs, mib(float64(memtable)), layers)
}
