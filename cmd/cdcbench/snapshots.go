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

// snapshotShape is the snapshot workload's feed: rows in the first
// snapshot, then versions-1 more, each with changed, deleted and new rows
// in the given fractions of the snapshot.
type snapshotShape struct {
	rows, versions             int
	changed, deleted, inserted float64
	seed                       uint64
}

// snapshotFeed makes each version of the snapshot table as COPY text, one
// at a time (a full-size version is tens of MB; holding ten would be the
// benchmark's own memory, not the servers').
type snapshotFeed struct {
	shape  snapshotShape
	rng    *rand.Rand
	ids, b []int64
	nextID int64
	made   int
}

func newSnapshotFeed(shape snapshotShape) *snapshotFeed {
	f := &snapshotFeed{shape: shape, rng: rand.New(rand.NewPCG(shape.seed, 11)), nextID: 1}
	for range shape.rows {
		f.ids = append(f.ids, f.nextID)
		f.b = append(f.b, f.nextID)
		f.nextID++
	}
	return f
}

// next returns the next version's rows as COPY text (id, a, b).
func (f *snapshotFeed) next() []byte {
	if f.made > 0 {
		n := len(f.ids)
		for range int(f.shape.changed * float64(n)) {
			f.b[f.rng.IntN(n)]++
		}
		keep := f.ids[:0]
		keepB := f.b[:0]
		for i, id := range f.ids {
			if f.rng.Float64() >= f.shape.deleted {
				keep = append(keep, id)
				keepB = append(keepB, f.b[i])
			}
		}
		f.ids, f.b = keep, keepB
		for range int(f.shape.inserted * float64(n)) {
			f.ids = append(f.ids, f.nextID)
			f.b = append(f.b, 0)
			f.nextID++
		}
	}
	f.made++
	var out bytes.Buffer
	out.Grow(len(f.ids) * 32)
	var num []byte
	for i, id := range f.ids {
		num = strconv.AppendInt(num[:0], id, 10)
		out.Write(num)
		out.WriteString("\tname ")
		out.Write(num)
		out.WriteByte('\t')
		num = strconv.AppendInt(num[:0], f.b[i], 10)
		out.Write(num)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// cdcdb's side: a table the loader empties and refills, the version it
// holds in a one-row table, and Lakeflow's WITH VERSION flow over them.
const cdcdbSnapshotDDL = `CREATE TABLE snap (id bigint PRIMARY KEY, a text, b bigint);
CREATE TABLE snap_version (v int);
INSERT INTO snap_version VALUES (0);
CREATE STREAMING TABLE dim;
CREATE FLOW dim_flow AS AUTO CDC INTO dim
  FROM SNAPSHOT snap
  WITH VERSION (SELECT v AS version FROM snap_version
                WHERE v > coalesce((SELECT version FROM last_snapshot_version()), 0))
  KEYS (id) STORED AS SCD TYPE 2;`

// PostgreSQL's side: the same snapshot table and an SCD2 target with an
// index on the open versions; each snapshot is one statement, a FULL OUTER
// JOIN of the snapshot with the open versions that closes the versions of
// changed and deleted keys and opens those of changed and new ones.
const pgSnapshotDDL = `CREATE TABLE snap (id bigint PRIMARY KEY, a text, b bigint);
CREATE TABLE dim (id bigint NOT NULL, a text, b bigint, start_at int NOT NULL, end_at int);
CREATE INDEX dim_open ON dim (id) WHERE end_at IS NULL;`

const pgSnapshotApply = `WITH open AS (SELECT id, a, b FROM dim WHERE end_at IS NULL),
diff AS (
  SELECT coalesce(s.id, o.id) AS id, s.a, s.b, o.id IS NOT NULL AS had, s.id IS NOT NULL AS has
  FROM snap s FULL OUTER JOIN open o ON s.id = o.id
  WHERE s.id IS NULL OR o.id IS NULL OR s.a IS DISTINCT FROM o.a OR s.b IS DISTINCT FROM o.b),
closed AS (
  UPDATE dim SET end_at = $1 FROM diff
  WHERE diff.had AND dim.id = diff.id AND dim.end_at IS NULL)
INSERT INTO dim SELECT id, a, b, $1, NULL FROM diff WHERE has`

const (
	cdcdbSnapshotTarget = `SELECT id, a, b, __start_at, __end_at FROM dim`
	pgSnapshotTarget    = `SELECT id, a, b, start_at, end_at FROM dim`
)

// snapshotsWorkload is the AUTO CDC FROM SNAPSHOT workload: versions of a
// table loaded (untimed) into both servers, each then applied to an SCD
// TYPE 2 target (timed): cdcdb by REFRESH STREAMING TABLE, PostgreSQL by
// its FULL OUTER JOIN statement. The targets must be identical.
func (b *bench) snapshotsWorkload(ctx context.Context) error {
	shape := b.sz.snapshots
	srv, err := b.newCdcdb()
	if err != nil {
		return err
	}
	defer srv.stop()
	var cdcRates, pgRates, rss []float64
	var rows int64
	for rep := range b.sz.snapshotReps {
		if err := b.pg.freshDatabase(ctx, "snapshots"); err != nil {
			return err
		}
		cdcConn, err := pgx.Connect(ctx, srv.url())
		if err != nil {
			return err
		}
		defer cdcConn.Close(ctx)
		pgConn, err := pgx.Connect(ctx, b.pg.URL("snapshots"))
		if err != nil {
			return err
		}
		defer pgConn.Close(ctx)
		if err := execScript(ctx, cdcConn, cdcdbSnapshotDDL); err != nil {
			return fmt.Errorf("cdcdb DDL: %v", err)
		}
		if err := execScript(ctx, pgConn, pgSnapshotDDL); err != nil {
			return fmt.Errorf("PostgreSQL DDL: %v", err)
		}
		feed := newSnapshotFeed(shape)
		wait := b.profile(srv, "snapshots", rep)
		var cdcTime, pgTime time.Duration
		for v := 1; v <= shape.versions; v++ {
			data := feed.next()
			srv.resident.setPhase(fmt.Sprintf("rep %d: loading version %d", rep+1, v))
			if err := loadCdcdbSnapshot(ctx, cdcConn, data, v); err != nil {
				return fmt.Errorf("cdcdb loading version %d: %v", v, err)
			}
			if err := loadPGSnapshot(ctx, pgConn, data); err != nil {
				return fmt.Errorf("PostgreSQL loading version %d: %v", v, err)
			}
			cdcSide := func() error {
				srv.resident.setPhase(fmt.Sprintf("rep %d: applying version %d", rep+1, v))
				t0 := time.Now()
				if _, err := cdcConn.Exec(ctx, "REFRESH STREAMING TABLE dim"); err != nil {
					return fmt.Errorf("cdcdb applying version %d: %v", v, err)
				}
				cdcTime += time.Since(t0)
				return nil
			}
			pgSide := func() error {
				t0 := time.Now()
				if _, err := pgConn.Exec(ctx, pgSnapshotApply, v); err != nil {
					return fmt.Errorf("PostgreSQL applying version %d: %v", v, err)
				}
				pgTime += time.Since(t0)
				return nil
			}
			first, second := cdcSide, pgSide
			if v%2 == 0 {
				first, second = pgSide, cdcSide
			}
			if err := first(); err != nil {
				return err
			}
			if err := second(); err != nil {
				return err
			}
		}
		if err := wait(); err != nil {
			return err
		}
		peak, err := srv.peakRSS()
		if err != nil {
			return err
		}
		b.logResident(srv, "snapshots", rep)
		d, err := compareTables(ctx, cdcConn, pgConn, cdcdbSnapshotTarget, pgSnapshotTarget, "snapshot targets")
		if err != nil {
			return err
		}
		rows = d.rows
		if err := execScript(ctx, cdcConn, "DROP FLOW dim_flow; DROP TABLE dim; DROP TABLE snap; DROP TABLE snap_version;"); err != nil {
			return fmt.Errorf("cdcdb dropping the repetition's tables: %v", err)
		}
		cdcRates = append(cdcRates, float64(shape.versions)/cdcTime.Seconds())
		pgRates = append(pgRates, float64(shape.versions)/pgTime.Seconds())
		rss = append(rss, float64(peak))
		b.logf("snapshots rep %d: cdcdb %.2f snapshots/s (peak RSS %s), PostgreSQL %.2f snapshots/s; targets identical (%d rows)",
			rep+1, cdcRates[len(cdcRates)-1], mib(float64(peak)), pgRates[len(pgRates)-1], rows)
	}
	name := fmt.Sprintf("Snapshot SCD2, %d rows", shape.rows)
	b.rep.add(figure{workload: name, metric: "snapshots/s", cdcdb: median(cdcRates), pg: median(pgRates), unit: "snapshots/s",
		higherBetter: true, goal: ratioAtLeast(5)})
	b.rep.add(figure{workload: name, metric: "cdcdb peak RSS", cdcdb: maxOf(rss), unit: "bytes", goal: absoluteAtMost(512 << 20)})
	b.rep.checks = append(b.rep.checks, fmt.Sprintf("snapshots: %d versions of %d rows (%.1f%% changed, %.1f%% deleted, %.1f%% new each), both targets identical: %d rows",
		shape.versions, shape.rows, 100*shape.changed, 100*shape.deleted, 100*shape.inserted, rows))
	return srv.stop()
}

// loadCdcdbSnapshot replaces cdcdb's snapshot table with a version, in one
// transaction with its version number.
func loadCdcdbSnapshot(ctx context.Context, conn *pgx.Conn, data []byte, v int) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "TRUNCATE snap"); err != nil {
		return err
	}
	if _, err := conn.PgConn().CopyFrom(ctx, bytes.NewReader(data), "COPY snap FROM STDIN"); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "UPDATE snap_version SET v = $1", v); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// loadPGSnapshot replaces PostgreSQL's snapshot table with a version and
// gathers its statistics, so that the planner sees the table as it is.
func loadPGSnapshot(ctx context.Context, conn *pgx.Conn, data []byte) error {
	if _, err := conn.Exec(ctx, "TRUNCATE snap"); err != nil {
		return err
	}
	if _, err := conn.PgConn().CopyFrom(ctx, bytes.NewReader(data), "COPY snap FROM STDIN"); err != nil {
		return err
	}
	return execScript(ctx, conn, "ANALYZE snap; ANALYZE dim;")
}
