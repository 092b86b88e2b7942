package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// writersWorkload is concurrent write transactions (docs/concurrency.md):
// 1, 8 and 32 clients each commit read-modify-write transactions (a
// transfer between two random accounts: two UPDATEs, durable COMMIT),
// retrying 40001 and 40P01, for writersFor; in the middle of the window one
// more client holds a transaction that wrote a row of another table open,
// idle, for writersHold. It reports each side's commits per second over
// the window and, as a percentage, the others' rate while the idle
// transaction was open against their rate before it: with one writer slot
// held from a transaction's first write, that was 0%.
func (b *bench) writersWorkload(ctx context.Context) error {
	const accounts, initial = 10_000, 1_000
	const ddl = `CREATE TABLE ledger (id int PRIMARY KEY, bal bigint NOT NULL);
CREATE TABLE held (id int PRIMARY KEY);`
	srv, err := b.newCdcdb()
	if err != nil {
		return err
	}
	defer srv.stop()
	if err := b.pg.freshDatabase(ctx, "writers"); err != nil {
		return err
	}
	type side struct{ name, url string }
	sides := []side{{"cdcdb", srv.url()}, {"PostgreSQL", b.pg.URL("writers")}}
	for _, s := range sides {
		conn, err := pgx.Connect(ctx, s.url)
		if err != nil {
			return err
		}
		err = execScript(ctx, conn, ddl)
		if err == nil {
			_, err = conn.Exec(ctx, "INSERT INTO ledger SELECT g, $1::bigint FROM generate_series(1, $2::int) g", initial, accounts)
		}
		conn.Close(ctx)
		if err != nil {
			return fmt.Errorf("%s: %v", s.name, err)
		}
	}
	holdID := 0
	runs := map[string]int64{}
	for _, clients := range []int{1, 8, 32} {
		rates, held := map[string][]float64{}, map[string][]float64{}
		for rep := range b.sz.writersReps {
			order := sides
			if rep%2 == 1 {
				order = []side{sides[1], sides[0]}
			}
			for _, s := range order {
				holdID++
				r, err := runTransfers(ctx, s.url, clients, accounts, b.sz.writersFor, b.sz.writersHold, holdID, uint64(rep))
				if err != nil {
					return fmt.Errorf("%s, %d clients: %v", s.name, clients, err)
				}
				runs[s.name]++
				rates[s.name] = append(rates[s.name], r.rate)
				held[s.name] = append(held[s.name], r.heldPercent)
				b.logf("writers, %d clients, rep %d, %s: %.0f commits/s, %.0f%% of it while a transaction idled, %d retried", clients, rep+1, s.name, r.rate, r.heldPercent, r.retries)
			}
		}
		w := fmt.Sprintf("Transfers (2 UPDATEs, durable), %d client", clients)
		if clients > 1 {
			w += "s"
		}
		var g goal
		if clients > 1 {
			g = ratioAtLeast(1.2) // the goal for 8 and 32 writers
		}
		b.rep.add(figure{workload: w, metric: "commits/s", cdcdb: median(rates["cdcdb"]), pg: median(rates["PostgreSQL"]), unit: "commits/s", higherBetter: true, goal: g})
		b.rep.add(figure{workload: w, metric: "rate while one idles", cdcdb: median(held["cdcdb"]), pg: median(held["PostgreSQL"]), unit: "%", higherBetter: true})
	}
	for _, s := range sides {
		conn, err := pgx.Connect(ctx, s.url)
		if err != nil {
			return err
		}
		var sum, heldRows int64
		err = conn.QueryRow(ctx, "SELECT (SELECT sum(bal)::bigint FROM ledger), (SELECT count(*) FROM held)").Scan(&sum, &heldRows)
		conn.Close(ctx)
		if err != nil {
			return fmt.Errorf("%s: %v", s.name, err)
		}
		if sum != accounts*initial || heldRows != runs[s.name] {
			return fmt.Errorf("%s: the accounts hold %d in all (want %d), %d held rows after %d runs", s.name, sum, accounts*initial, heldRows, runs[s.name])
		}
	}
	b.rep.checks = append(b.rep.checks, fmt.Sprintf("writers: the transfers kept the %d accounts' total on both sides, and every idle transaction's row is there", accounts))
	return srv.stop()
}

// transfersRun is what one run of runTransfers measured.
type transfersRun struct {
	rate        float64 // commits per second over the window
	heldPercent float64 // the rate while the idle transaction was open, % of the rate before it
	retries     int64
}

// runTransfers runs clients committing transfers for d; from d/3 on, one
// more connection holds a transaction that inserted row holdID of held,
// idle, for hold, then commits it.
func runTransfers(ctx context.Context, url string, clients, accounts int, d, hold time.Duration, holdID int, seed uint64) (transfersRun, error) {
	conns := make([]*pgx.Conn, clients+1)
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close(context.Background())
			}
		}
	}()
	for i := range conns {
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			return transfersRun{}, err
		}
		conns[i] = c
	}
	start := time.Now()
	deadline := start.Add(d)
	holdFrom := start.Add(d / 3)
	holdTo := holdFrom.Add(hold)
	var before, during, total, retries atomic.Int64
	errs := make([]error, clients+1)
	var wg sync.WaitGroup
	for w := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, uint64(w)))
			for time.Now().Before(deadline) {
				from, to := 1+rng.IntN(accounts), 1+rng.IntN(accounts-1)
				if to >= from {
					to++
				}
				err := pgx.BeginFunc(ctx, conns[w], func(tx pgx.Tx) error {
					if _, err := tx.Exec(ctx, "UPDATE ledger SET bal = bal - 1 WHERE id = $1", from); err != nil {
						return err
					}
					_, err := tx.Exec(ctx, "UPDATE ledger SET bal = bal + 1 WHERE id = $1", to)
					return err
				})
				var pe *pgconn.PgError
				if errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01") {
					retries.Add(1)
					continue
				}
				if err != nil {
					errs[w] = err
					return
				}
				now := time.Now()
				if now.After(deadline) {
					continue
				}
				total.Add(1)
				switch {
				case now.Before(holdFrom):
					before.Add(1)
				case now.Before(holdTo):
					during.Add(1)
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(time.Until(holdFrom))
		c := conns[clients]
		tx, err := c.Begin(ctx)
		if err == nil {
			if _, err = tx.Exec(ctx, "INSERT INTO held VALUES ($1)", holdID); err == nil {
				time.Sleep(time.Until(holdTo))
				err = tx.Commit(ctx)
			}
		}
		errs[clients] = err
	}()
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return transfersRun{}, err
	}
	r := transfersRun{rate: float64(total.Load()) / d.Seconds(), retries: retries.Load()}
	if b := float64(before.Load()) / holdFrom.Sub(start).Seconds(); b > 0 {
		r.heldPercent = 100 * float64(during.Load()) / hold.Seconds() / b
	}
	return r, nil
}
