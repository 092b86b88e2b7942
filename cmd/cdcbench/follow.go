package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"cdcdb/pgtests/pgserver"
)

// followWorkload is workload 6: following a live PostgreSQL. An upstream
// PostgreSQL 15 of its own (default settings but wal_level = logical, so
// fsync on) takes changes from followWriters writers in transactions of 1
// to 100 rows (upserts, and one delete in ten) while cdcdb follows it with
// CREATE SOURCE into an SCD TYPE 2 flow. Reported: the rate upstream
// committed changes at and the rate cdcdb took them in (load and catch-up
// included; their ratio says whether cdcdb keeps up: it nears 1 when the
// lag stays bounded, whatever the load's length), the largest lag in
// bytes (upstream's WAL end minus the slot's confirmed position) and in
// seconds (the wall clock minus the upstream commit time of the last
// transaction cdcdb committed) sampled during the load, the time to catch
// up once the load stops, and cdcdb's peak RSS. Checked: the SCD TYPE 2
// target's current rows equal the upstream table, and the source table
// holds every change once.
func (b *bench) followWorkload(ctx context.Context) error {
	up, err := pgserver.StartPostgresWith(ctx, pgserver.PostgresConfig{
		Settings: []string{"wal_level=logical", "max_wal_senders=10", "max_replication_slots=10"},
		Database: "follow",
	})
	if err != nil {
		return fmt.Errorf("upstream PostgreSQL: %w", err)
	}
	defer func() {
		if err := up.Stop(); err != nil {
			b.logf("stopping the upstream PostgreSQL: %v", err)
		}
	}()
	srv, err := b.newCdcdb()
	if err != nil {
		return err
	}
	defer srv.stop()
	upConn, err := pgx.Connect(ctx, up.URL("follow"))
	if err != nil {
		return err
	}
	defer upConn.Close(ctx)
	cdc, err := pgx.Connect(ctx, srv.url())
	if err != nil {
		return err
	}
	defer cdc.Close(ctx)
	if err := execScript(ctx, upConn, `CREATE TABLE accounts (id bigint PRIMARY KEY, v bigint NOT NULL, note text);
		CREATE PUBLICATION follow_pub FOR TABLE accounts`); err != nil {
		return fmt.Errorf("upstream: %v", err)
	}
	// One statement at a time: CREATE SOURCE runs outside transaction
	// blocks, as a multi-statement query is one.
	for _, stmt := range []string{
		fmt.Sprintf(`CREATE CONNECTION up TO POSTGRES (HOST '%s', PORT %d, USER '%s', DATABASE 'follow', SSL MODE 'disable')`, up.Host(), up.Port(), pgserver.User),
		`CREATE SOURCE follow FROM POSTGRES CONNECTION up (PUBLICATION 'follow_pub') FOR TABLES (public.accounts)`,
		`CREATE STREAMING TABLE accounts_history`,
		`CREATE FLOW accounts_scd2 AS AUTO CDC INTO accounts_history FROM accounts KEYS (id)
			APPLY AS DELETE WHEN _op = 'd' SEQUENCE BY _lsn COLUMNS * EXCEPT (_op, _lsn, _commit_ts) STORED AS SCD TYPE 2`,
	} {
		if _, err := cdc.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("cdcdb: %s: %v", stmt, err)
		}
	}
	if err := waitFollowing(ctx, cdc); err != nil {
		return err
	}

	// The load: writers commit until the changes are made.
	var made atomic.Int64
	total := int64(b.sz.followChanges)
	loadCtx, stopLoad := context.WithCancel(ctx)
	defer stopLoad()
	var wg sync.WaitGroup
	errs := make(chan error, followWriters)
	start := time.Now()
	for w := range followWriters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := followWriter(loadCtx, up.URL("follow"), w, b.sz.followKeys, total, &made); err != nil {
				errs <- err
			}
		}()
	}
	loadDone := make(chan struct{})
	go func() { wg.Wait(); close(loadDone) }()
	var maxLagBytes, maxLagSeconds float64
	ticker := time.NewTicker(250 * time.Millisecond)
	defer ticker.Stop()
sampling:
	for {
		select {
		case <-loadDone:
			break sampling
		case err := <-errs:
			stopLoad()
			return err
		case <-ticker.C:
			lagBytes, lagSeconds, err := followLag(ctx, upConn, cdc)
			if err != nil {
				stopLoad()
				return err
			}
			maxLagBytes, maxLagSeconds = max(maxLagBytes, lagBytes), max(maxLagSeconds, lagSeconds)
		}
	}
	select {
	case err := <-errs:
		return err
	default:
	}
	loadTime := time.Since(start)
	changes := made.Load()

	// Catch-up: until the source table holds every change.
	caughtUp := time.Now()
	for {
		var n int64
		if err := cdc.QueryRow(ctx, `SELECT count(*) FROM accounts`).Scan(&n); err != nil {
			return err
		}
		if n == changes {
			break
		}
		if n > changes {
			return fmt.Errorf("the source table holds %d rows, more than the %d changes made upstream", n, changes)
		}
		if time.Since(caughtUp) > 10*time.Minute {
			return fmt.Errorf("cdcdb did not catch up in 10 minutes: %d of %d changes", n, changes)
		}
		time.Sleep(50 * time.Millisecond)
	}
	catchUp := time.Since(caughtUp)
	peak, err := srv.peakRSS()
	if err != nil {
		return err
	}

	// What cdcdb holds must be what upstream holds.
	want, err := followDigest(ctx, upConn, `SELECT id, v, coalesce(note, '') FROM accounts ORDER BY id`)
	if err != nil {
		return err
	}
	got, err := followDigest(ctx, cdc, `SELECT id, v, coalesce(note, '') FROM accounts_history WHERE __end_at IS NULL ORDER BY id`)
	if err != nil {
		return err
	}
	if got != want {
		return errors.New("the SCD TYPE 2 target's current rows differ from the upstream table")
	}
	var distinct int64
	if err := cdc.QueryRow(ctx, `SELECT count(DISTINCT _lsn) FROM accounts`).Scan(&distinct); err != nil {
		return err
	}
	if distinct != changes {
		return fmt.Errorf("the source table holds %d distinct _lsn for %d changes", distinct, changes)
	}
	b.rep.checks = append(b.rep.checks, fmt.Sprintf("follow: %d upstream changes, each once in the source; the SCD TYPE 2 target's current rows equal the upstream table", changes))

	upRate := float64(changes) / loadTime.Seconds()
	cdcRate := float64(changes) / (loadTime + catchUp).Seconds()
	b.logf("follow: upstream %.0f changes/s for %s; cdcdb %.0f changes/s, caught up %s after; max lag %s, %.1f s; peak RSS %s",
		upRate, loadTime.Round(time.Millisecond), cdcRate, catchUp.Round(time.Millisecond), mib(maxLagBytes), maxLagSeconds, mib(float64(peak)))
	const name = "Follow a live PostgreSQL (SCD2 flow)"
	b.rep.add(figure{workload: name, metric: "changes/s (cdcdb: followed, PostgreSQL: committed)", cdcdb: cdcRate, pg: upRate, unit: "changes/s", higherBetter: true, goal: ratioAtLeast(0.95)})
	b.rep.add(figure{workload: name, metric: "max lag behind upstream", cdcdb: maxLagBytes, pg: math.NaN(), unit: "bytes"})
	b.rep.add(figure{workload: name, metric: "max lag behind upstream, seconds", cdcdb: maxLagSeconds * 1000, pg: math.NaN(), unit: "ms"})
	b.rep.add(figure{workload: name, metric: "catch-up after the load", cdcdb: catchUp.Seconds() * 1000, pg: math.NaN(), unit: "ms"})
	b.rep.add(figure{workload: name, metric: "cdcdb peak RSS", cdcdb: float64(peak), pg: math.NaN(), unit: "bytes", goal: absoluteAtMost(512 << 20)})
	return nil
}

// followWriters is how many upstream clients make the changes.
const followWriters = 4

// waitFollowing waits until the source streams.
func waitFollowing(ctx context.Context, cdc *pgx.Conn) error {
	deadline := time.Now().Add(time.Minute)
	for {
		var state, lastError string
		if err := cdc.QueryRow(ctx, `SELECT state, coalesce(last_error, '') FROM cdcdb.sources`).Scan(&state, &lastError); err != nil {
			return err
		}
		if state == "streaming" {
			return nil
		}
		if state == "failed" || time.Now().After(deadline) {
			return fmt.Errorf("source in state %s: %s", state, lastError)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// followWriter commits transactions of 1 to 100 changes until the
// writers together made total changes (a little more: the last
// transactions finish). Each writer has keys of its own, so that no two
// transactions wait for each other's row locks; made counts the rows the
// statements changed (a delete may find its key gone).
func followWriter(ctx context.Context, url string, writer, keys int, total int64, made *atomic.Int64) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	r := rand.New(rand.NewPCG(uint64(writer), 42))
	for made.Load() < total {
		tx, err := conn.Begin(ctx)
		if err != nil {
			return err
		}
		batch := &pgx.Batch{}
		n := 1 + r.IntN(100)
		for range n {
			id := r.IntN(keys/followWriters)*followWriters + writer
			if r.IntN(10) == 0 {
				batch.Queue(`DELETE FROM accounts WHERE id = $1`, id)
			} else {
				batch.Queue(`INSERT INTO accounts VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET v = excluded.v, note = excluded.note`,
					id, r.Int64(), fmt.Sprintf("w%d", writer))
			}
		}
		br := tx.SendBatch(ctx, batch)
		var changed int64
		for range n {
			tag, err := br.Exec()
			if err != nil {
				_ = br.Close()
				_ = tx.Rollback(ctx)
				return err
			}
			changed += tag.RowsAffected()
		}
		if err := br.Close(); err != nil {
			_ = tx.Rollback(ctx)
			return err
		}
		if err := tx.Commit(ctx); err != nil {
			return err
		}
		made.Add(changed)
	}
	return nil
}

// followLag is how far cdcdb is behind upstream now: bytes of WAL past the
// slot's confirmed position, and seconds since the upstream commit of the
// last transaction cdcdb committed (0 before the first).
func followLag(ctx context.Context, upConn, cdc *pgx.Conn) (bytes, seconds float64, err error) {
	if err := upConn.QueryRow(ctx, `SELECT coalesce(max(pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn)), 0)::float8 FROM pg_replication_slots`).Scan(&bytes); err != nil {
		return 0, 0, err
	}
	var last *time.Time
	if err := cdc.QueryRow(ctx, `SELECT last_commit_time FROM cdcdb.sources`).Scan(&last); err != nil {
		return 0, 0, err
	}
	if last != nil {
		seconds = max(0, time.Since(*last).Seconds())
	}
	return bytes, seconds, nil
}

// followDigest hashes a query's rows, read as text.
func followDigest(ctx context.Context, conn *pgx.Conn, query string) (string, error) {
	rows, err := conn.Query(ctx, query)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return "", err
		}
		fmt.Fprintln(h, vals...)
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	return fmt.Sprintf("%x", h.Sum(nil)), nil
}
