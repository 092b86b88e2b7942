package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"cdcdb/pgtests/pgserver"
)

// pgbenchWorkload is workload 4: wire round trips. pgbench, PostgreSQL's own
// load generator, runs a one-statement point select from 8 clients against
// each server, once with the simple protocol (Query) and once with the
// extended protocol (Parse/Bind/Execute of an unnamed statement every
// time), so the figure is mostly parsing, planning and the protocol.
func (b *bench) pgbenchWorkload(ctx context.Context) error {
	n := b.sz.kvRows
	var rows []byte
	for id := 1; id <= n; id++ {
		rows = fmt.Appendf(rows, "%d\tvalue-%08d-%x\n", id, id, uint32(id)*2654435761)
	}
	const ddl = `CREATE TABLE kv (id bigint PRIMARY KEY, v text NOT NULL)`
	fill := func(conn *pgx.Conn) error {
		if err := execScript(ctx, conn, ddl); err != nil {
			return err
		}
		_, err := conn.PgConn().CopyFrom(ctx, bytes.NewReader(rows), "COPY kv FROM STDIN")
		return err
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
	if err := fill(cdc); err != nil {
		return fmt.Errorf("cdcdb kv: %v", err)
	}
	if err := b.pg.freshDatabase(ctx, "kvbench"); err != nil {
		return err
	}
	pg, err := pgx.Connect(ctx, b.pg.URL("kvbench"))
	if err != nil {
		return err
	}
	defer pg.Close(ctx)
	if err := fill(pg); err != nil {
		return fmt.Errorf("PostgreSQL kv: %v", err)
	}
	if err := execScript(ctx, pg, "VACUUM ANALYZE kv"); err != nil {
		return err
	}
	if _, err := compareTables(ctx, cdc, pg, "SELECT id, v FROM kv", "SELECT id, v FROM kv", "kv tables"); err != nil {
		return err
	}
	var samples [][]string
	r := rand.New(rand.NewPCG(5, 5))
	for range 200 {
		samples = append(samples, []string{strconv.Itoa(1 + r.IntN(n))})
	}
	const q = "SELECT v FROM kv WHERE id = $1"
	if err := compareQueries(ctx, cdc, pg, q, q, samples); err != nil {
		return err
	}

	script := filepath.Join(b.tmp, "point-select.sql")
	if err := os.WriteFile(script, fmt.Appendf(nil, "\\set id random(1, %d)\nSELECT v FROM kv WHERE id = :id;\n", n), 0o644); err != nil {
		return err
	}
	cdcHost, cdcPort := srv.hostPort()
	secs := max(1, int(b.sz.pgbenchFor.Seconds()))
	for _, mode := range []string{"simple", "extended"} {
		var cdcTPS, pgTPS, cdcLat, pgLat []float64
		for rep := range b.sz.pgbenchReps {
			wait := b.profile(srv, "pgbench-"+mode, rep)
			sides := []struct {
				name, host, port, db string
				tps, lat             *[]float64
			}{
				{"cdcdb", cdcHost, cdcPort, "main", &cdcTPS, &cdcLat},
				{"PostgreSQL", "127.0.0.1", strconv.Itoa(b.pg.Port()), "kvbench", &pgTPS, &pgLat},
			}
			if rep%2 == 1 {
				sides[0], sides[1] = sides[1], sides[0]
			}
			for _, s := range sides {
				res, err := runPgbench(ctx, script, mode, secs, s.host, s.port, s.db)
				if err != nil {
					return fmt.Errorf("pgbench -M %s against %s: %v", mode, s.name, err)
				}
				*s.tps = append(*s.tps, res.tps)
				*s.lat = append(*s.lat, res.latencyMs)
			}
			if err := wait(); err != nil {
				return err
			}
			b.logf("pgbench -M %s rep %d: cdcdb %.0f tps, PostgreSQL %.0f tps", mode, rep+1, cdcTPS[len(cdcTPS)-1], pgTPS[len(pgTPS)-1])
		}
		w := fmt.Sprintf("pgbench point select -M %s (8 clients)", mode)
		b.rep.add(figure{workload: w, metric: "TPS", cdcdb: median(cdcTPS), pg: median(pgTPS), unit: "tps", higherBetter: true, goal: ratioAtLeast(1)})
		b.rep.add(figure{workload: w, metric: "latency avg", cdcdb: median(cdcLat), pg: median(pgLat), unit: "ms"})
	}
	b.rep.checks = append(b.rep.checks, fmt.Sprintf("pgbench: kv tables of %d rows identical, 200 sampled point selects identical, no failed transactions", n))
	return srv.stop()
}

type pgbenchResult struct {
	tps       float64
	latencyMs float64
}

var (
	pgbenchTPS       = regexp.MustCompile(`(?m)^tps = ([0-9.]+) \(without initial connection time\)`)
	pgbenchLatency   = regexp.MustCompile(`(?m)^latency average = ([0-9.]+) ms`)
	pgbenchProcessed = regexp.MustCompile(`(?m)^number of transactions actually processed: (\d+)`)
	pgbenchFailed    = regexp.MustCompile(`(?m)^number of failed transactions: (\d+)`)
)

// runPgbench runs pgbench for secs seconds, 8 clients on 2 threads, without
// its vacuum of the built-in tables (-n; the script uses none of them).
func runPgbench(ctx context.Context, script, mode string, secs int, host, port, db string) (pgbenchResult, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(pgserver.PostgresBinDir, "pgbench"),
		"-n", "-c", "8", "-j", "2", "-T", strconv.Itoa(secs), "-M", mode, "-f", script,
		"-h", host, "-p", port, "-U", "cdcdb", db)
	cmd.Env = append(os.Environ(), "PGCONNECT_TIMEOUT=10")
	out, err := cmd.CombinedOutput()
	text := string(out)
	if err != nil {
		return pgbenchResult{}, fmt.Errorf("%v\n%s", err, text)
	}
	var res pgbenchResult
	m := pgbenchTPS.FindStringSubmatch(text)
	l := pgbenchLatency.FindStringSubmatch(text)
	p := pgbenchProcessed.FindStringSubmatch(text)
	if m == nil || l == nil || p == nil {
		return res, fmt.Errorf("unexpected pgbench output:\n%s", text)
	}
	if f := pgbenchFailed.FindStringSubmatch(text); f != nil && f[1] != "0" {
		return res, fmt.Errorf("%s failed transactions:\n%s", f[1], text)
	}
	if p[1] == "0" {
		return res, fmt.Errorf("no transaction processed:\n%s", text)
	}
	if strings.Contains(text, "aborted") {
		return res, fmt.Errorf("clients aborted:\n%s", text)
	}
	res.tps, _ = strconv.ParseFloat(m[1], 64)
	res.latencyMs, _ = strconv.ParseFloat(l[1], 64)
	return res, nil
}
