package main

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// commitsWorkload is workload 5: durable commits. Each writer sends
// single-row INSERTs, each its own transaction, with fsync on for both
// servers; with 1 writer this is the fsync round trip of each engine, with 8
// it shows whether concurrent commits share a flush (group commit).
func (b *bench) commitsWorkload(ctx context.Context) error {
	const ddl = `CREATE TABLE commits (id bigint PRIMARY KEY, writer int NOT NULL, v text NOT NULL)`
	srv, err := b.newCdcdb()
	if err != nil {
		return err
	}
	defer srv.stop()
	if err := b.pg.freshDatabase(ctx, "commits"); err != nil {
		return err
	}
	type side struct {
		name, url string
		next      int64 // first unused id
	}
	cdcSide := &side{name: "cdcdb", url: srv.url()}
	pgSide := &side{name: "PostgreSQL", url: b.pg.URL("commits")}
	for _, s := range []*side{cdcSide, pgSide} {
		conn, err := pgx.Connect(ctx, s.url)
		if err != nil {
			return err
		}
		err = execScript(ctx, conn, ddl)
		conn.Close(ctx)
		if err != nil {
			return fmt.Errorf("%s: %v", s.name, err)
		}
	}
	total := map[*side]int64{}
	for _, writers := range []int{1, 8} {
		var cdcRate, pgRate, cdcP99, pgP99 []float64
		for rep := range b.sz.commitReps {
			wait := b.profile(srv, fmt.Sprintf("commits-%d", writers), rep)
			order := []*side{cdcSide, pgSide}
			if rep%2 == 1 {
				order = []*side{pgSide, cdcSide}
			}
			for _, s := range order {
				n, stored, p99, err := runCommits(ctx, s.url, writers, b.sz.commitFor, s.next)
				if err != nil {
					return fmt.Errorf("%s, %d writers: %v", s.name, writers, err)
				}
				s.next += 1 << 32
				total[s] += stored
				rate := float64(n) / b.sz.commitFor.Seconds()
				if s == cdcSide {
					cdcRate, cdcP99 = append(cdcRate, rate), append(cdcP99, p99.Seconds()*1000)
				} else {
					pgRate, pgP99 = append(pgRate, rate), append(pgP99, p99.Seconds()*1000)
				}
			}
			if err := wait(); err != nil {
				return err
			}
			b.logf("commits, %d writers, rep %d: cdcdb %.0f/s, PostgreSQL %.0f/s", writers, rep+1, cdcRate[len(cdcRate)-1], pgRate[len(pgRate)-1])
		}
		w := fmt.Sprintf("Durable single-row INSERT, %d writer", writers)
		if writers > 1 {
			w += "s"
		}
		b.rep.add(figure{workload: w, metric: "commits/s", cdcdb: median(cdcRate), pg: median(pgRate), unit: "commits/s", higherBetter: true})
		b.rep.add(figure{workload: w, metric: "commit p99", cdcdb: median(cdcP99), pg: median(pgP99), unit: "ms"})
	}
	// Every acknowledged commit must be there, and nothing else.
	for _, s := range []*side{cdcSide, pgSide} {
		conn, err := pgx.Connect(ctx, s.url)
		if err != nil {
			return err
		}
		var n int64
		err = conn.QueryRow(ctx, "SELECT count(*) FROM commits").Scan(&n)
		conn.Close(ctx)
		if err != nil {
			return fmt.Errorf("%s: %v", s.name, err)
		}
		if n != total[s] {
			return fmt.Errorf("%s holds %d rows after %d acknowledged commits", s.name, n, total[s])
		}
	}
	b.rep.checks = append(b.rep.checks, fmt.Sprintf("commits: every acknowledged INSERT is in the table (cdcdb %d rows, PostgreSQL %d rows)", total[cdcSide], total[pgSide]))
	return srv.stop()
}

// runCommits runs writers connections inserting one row per transaction for
// d (ids from firstID) and returns how many commits were acknowledged inside
// the window, how many rows it stored in all (the last commit of a writer
// may end after the window), and the window's p99 commit latency.
func runCommits(ctx context.Context, url string, writers int, d time.Duration, firstID int64) (inWindow, stored int64, p99 time.Duration, err error) {
	conns := make([]*pgx.Conn, writers)
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close(context.Background())
			}
		}
	}()
	const insert = "INSERT INTO commits (id, writer, v) VALUES ($1, $2, $3)"
	for i := range conns {
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			return 0, 0, 0, err
		}
		conns[i] = c
		if _, err := c.Prepare(ctx, "ins", insert); err != nil {
			return 0, 0, 0, err
		}
	}
	lats := make([][]time.Duration, writers)
	late := make([]int64, writers) // acknowledged after the window
	errs := make([]error, writers)
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := firstID + int64(w)<<24
			for {
				t0 := time.Now()
				if t0.After(deadline) {
					return
				}
				if _, err := conns[w].Exec(ctx, "ins", id, w, "payload"); err != nil {
					errs[w] = err
					return
				}
				id++
				if t1 := time.Now(); t1.After(deadline) {
					late[w]++
				} else {
					lats[w] = append(lats[w], t1.Sub(t0))
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return 0, 0, 0, err
		}
	}
	all := slices.Concat(lats...)
	stored = int64(len(all))
	for _, n := range late {
		stored += n
	}
	return int64(len(all)), stored, percentile(all, 0.99), nil
}
