package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// loadResult is one timed run of concurrent clients.
type loadResult struct {
	qps      float64
	p50, p99 time.Duration
}

// runLoad runs query from clients connections at once for d, each client
// drawing its parameters from its own seeded generator, and reads every
// row of every result (a server that is fast at producing rows nobody reads
// would not count). Connections are made and statements prepared before
// the clock starts; only queries that finish inside the window count.
func runLoad(ctx context.Context, url string, clients int, d time.Duration, query string, params func(*rand.Rand) []any) (loadResult, error) {
	conns := make([]*pgx.Conn, clients)
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
			return loadResult{}, err
		}
		conns[i] = c
		// Warm up: prepares the statement (pgx caches it) and the caches.
		for j := range 3 {
			if err := readAll(ctx, c, query, params(rand.New(rand.NewPCG(uint64(i), uint64(j))))); err != nil {
				return loadResult{}, fmt.Errorf("warm-up: %v", err)
			}
		}
	}
	return timeClients(ctx, clients, d, func(i int, rng *rand.Rand) error {
		return readAll(ctx, conns[i], query, params(rng))
	})
}

// timeClients runs clients goroutines calling query over and over for d,
// each with its own seeded generator, and times every call; only calls
// that finish inside the window count.
func timeClients(ctx context.Context, clients int, d time.Duration, query func(client int, rng *rand.Rand) error) (loadResult, error) {
	lats := make([][]time.Duration, clients)
	errs := make([]error, clients)
	start := time.Now()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i)+1000, 7))
			for {
				t0 := time.Now()
				if t0.After(deadline) || ctx.Err() != nil {
					return
				}
				if err := query(i, rng); err != nil {
					errs[i] = err
					return
				}
				if t1 := time.Now(); !t1.After(deadline) {
					lats[i] = append(lats[i], t1.Sub(t0))
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return loadResult{}, err
		}
	}
	if err := ctx.Err(); err != nil {
		return loadResult{}, err
	}
	all := slices.Concat(lats...)
	if len(all) == 0 {
		return loadResult{}, fmt.Errorf("no query finished within %v", d)
	}
	return loadResult{
		qps: float64(len(all)) / d.Seconds(),
		p50: percentile(all, 0.50),
		p99: percentile(all, 0.99),
	}, nil
}

func readAll(ctx context.Context, c *pgx.Conn, query string, args []any) error {
	rows, err := c.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	for rows.Next() {
		_ = rows.RawValues()
	}
	rows.Close()
	return rows.Err()
}

// queryText runs query with text parameters and text results and returns
// the rows as rowText strings, sorted: the form in which two servers'
// answers are compared.
func queryText(ctx context.Context, c *pgx.Conn, query string, args ...string) ([]string, error) {
	params := make([][]byte, len(args))
	for i, a := range args {
		params[i] = []byte(a)
	}
	res := c.PgConn().ExecParams(ctx, query, params, nil, nil, nil).Read()
	if res.Err != nil {
		return nil, res.Err
	}
	out := make([]string, len(res.Rows))
	for i, r := range res.Rows {
		out[i] = rowText(r)
	}
	slices.Sort(out)
	return out, nil
}

// compareQueries runs the same parameters through cdcdb's and PostgreSQL's
// forms of one query and fails on the first answer that differs.
func compareQueries(ctx context.Context, cdc, pg *pgx.Conn, cdcQuery, pgQuery string, samples [][]string) error {
	for _, args := range samples {
		a, err := queryText(ctx, cdc, cdcQuery, args...)
		if err != nil {
			return fmt.Errorf("cdcdb %s %v: %v", cdcQuery, args, err)
		}
		b, err := queryText(ctx, pg, pgQuery, args...)
		if err != nil {
			return fmt.Errorf("PostgreSQL %s %v: %v", pgQuery, args, err)
		}
		if !slices.Equal(a, b) {
			return fmt.Errorf("answers differ for parameters %v:\n  cdcdb:      %s\n  PostgreSQL: %s",
				args, strings.Join(a, "; "), strings.Join(b, "; "))
		}
	}
	return nil
}
