package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cdcdb/pgtests/pgserver"
)

// TestQuickBenchmark runs `cdcbench -quick` as CI does, so the benchmark
// never rots: every workload must run against both servers and every result
// check (spec examples, identical targets, identical answers, every commit
// stored) must pass. Timing goals are not asserted: on a shared CI machine
// they would only make the test flaky; the figures are logged instead.
//
// Without PostgreSQL 15 the test skips, except under CI=true, where a
// missing server means the benchmark silently stopped being checked.
func TestQuickBenchmark(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the quick benchmark takes about a minute")
	}
	if _, err := os.Stat(filepath.Join(pgserver.PostgresBinDir, "pgbench")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but PostgreSQL 15 is missing (%v): .ci/run installs postgresql-15", err)
		}
		t.Skipf("PostgreSQL 15 not installed: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var log strings.Builder
	o := options{quick: true}
	rep, err := benchmark(ctx, o, &log)
	t.Log("progress:\n" + log.String())
	if errors.Is(err, pgserver.ErrNoPostgres) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	rep.print(&out)
	t.Log("\n" + out.String())

	// Every workload reported its figures, and each has a cdcdb value.
	for _, want := range []string{"SCD2 ingest", "Bitemporal ingest", "Point AS OF", "Whole-table AS OF", "Change feed window, 1x history", "Change feed window, 10x history",
		"pgbench point select -M simple", "pgbench point select -M extended", "Durable single-row INSERT, 8 writers",
		"Follow a live PostgreSQL", "Snapshot SCD2"} {
		found := false
		for _, f := range rep.figures {
			if strings.HasPrefix(f.workload, want) {
				found = true
				if !(f.cdcdb > 0) {
					t.Errorf("%s %s: cdcdb figure %v", f.workload, f.metric, f.cdcdb)
				}
			}
		}
		if !found {
			t.Errorf("no figure for %q", want)
		}
	}
	// One check line per workload plus the spec examples: results matched.
	if len(rep.checks) != 1+len(workloadNames) {
		t.Errorf("checks passed: %d, want %d:\n%s", len(rep.checks), 1+len(workloadNames), strings.Join(rep.checks, "\n"))
	}
	// The chart renders every throughput figure.
	svg := rep.svg()
	if !strings.HasPrefix(svg, "<svg") || strings.Count(svg, "<rect") < 2 {
		t.Errorf("chart looks empty:\n%s", svg)
	}
}
