package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
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
// Without PostgreSQL 15 the test skips, and without MariaDB it runs every
// workload but the system-versioned one; except under CI=true, where a
// missing server means the benchmark silently stopped being checked, and
// the test fails.
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
	o := options{quick: true}
	workloads := workloadNames
	if err := mariadbInstalled(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %v: .ci/run installs mariadb-server", err)
		}
		t.Logf("leaving the sysver workload out: %v", err)
		workloads = slices.DeleteFunc(slices.Clone(workloadNames), func(w string) bool { return w == "sysver" })
		o.only = workloads
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var log strings.Builder
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
		"Transfers (2 UPDATEs, durable), 32 clients", "Follow a live PostgreSQL", "Snapshot SCD2"} {
		checkFigures(t, rep, want)
	}
	// The system-versioned workload: cdcdb and MariaDB at every client
	// count and batch size, PostgreSQL's floor beside the UPDATEs.
	if slices.Contains(workloads, "sysver") {
		for _, want := range []string{"System-versioned UPDATE, 1 per transaction, 1 client", "System-versioned UPDATE, 1 per transaction, 8 clients",
			"System-versioned UPDATE, 100 per transaction, 1 client", "System-versioned UPDATE, 100 per transaction, 8 clients"} {
			for _, f := range checkFigures(t, rep, want) {
				if f.peer != peerMariaDB || !(f.mariadb > 0) || !(f.pg > 0) {
					t.Errorf("%s: peer %s, MariaDB %v, PostgreSQL %v", want, f.peer, f.mariadb, f.pg)
				}
			}
		}
		for _, want := range []string{"System-time point AS OF", "System-time whole-table AS OF"} {
			for _, f := range checkFigures(t, rep, want) {
				if f.peer != peerMariaDB || !(f.mariadb > 0) {
					t.Errorf("%s %s: peer %s, MariaDB %v", want, f.metric, f.peer, f.mariadb)
				}
			}
		}
	}
	// One check line per workload plus the spec examples: results matched.
	if len(rep.checks) != 1+len(workloads) {
		t.Errorf("checks passed: %d, want %d:\n%s", len(rep.checks), 1+len(workloads), strings.Join(rep.checks, "\n"))
	}
	// The chart renders every throughput figure.
	svg := rep.svg()
	if !strings.HasPrefix(svg, "<svg") || strings.Count(svg, "<rect") < 2 {
		t.Errorf("chart looks empty:\n%s", svg)
	}
}

// checkFigures returns the figures of the workloads named with prefix
// want, failing the test when there is none or one has no cdcdb figure.
func checkFigures(t *testing.T, rep *report, want string) []figure {
	t.Helper()
	var found []figure
	for _, f := range rep.figures {
		if strings.HasPrefix(f.workload, want) {
			found = append(found, f)
			// A rate or a latency measured against a peer is positive; a
			// figure of cdcdb alone, such as a lag or a catch-up time, may
			// be zero on a quick run that never fell behind.
			ok := f.cdcdb > 0
			if !f.higherBetter && !f.hasPeer() {
				ok = f.cdcdb >= 0
			}
			if !ok {
				t.Errorf("%s %s: cdcdb figure %v", f.workload, f.metric, f.cdcdb)
			}
		}
	}
	if len(found) == 0 {
		t.Errorf("no figure for %q", want)
	}
	return found
}
