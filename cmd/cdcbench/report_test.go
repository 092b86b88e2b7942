package main

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fixedReport is a run's results as the workloads would record them: goals
// met and missed both ways, a figure of cdcdb's alone, a growth factor.
func fixedReport() *report {
	r := &report{
		machine:    "AMD EPYC, 2 cores, 24 GiB RAM, Linux 6.18.44, go1.26.8",
		cores:      2,
		disk:       &diskLatency{backToBack: 210 * time.Microsecond, afterPause: 460 * time.Microsecond},
		pgSettings: "fsync=on shared_buffers=128MB",
		checks:     []string{"SCD2 ingest: both targets identical in every repetition: 862909 rows"},
		elapsed:    30*time.Minute + 33*time.Second + 400*time.Millisecond,
	}
	r.addLoad(1.2)
	r.addLoad(2.6)
	for _, f := range []figure{
		{workload: "SCD2 ingest", metric: "events/s", cdcdb: 177702, pg: 17254, unit: "events/s", higherBetter: true, goal: ratioAtLeast(10)},
		{workload: "SCD2 ingest", metric: "batch p99", cdcdb: 15.6, pg: 89.9, unit: "ms"},
		{workload: "SCD2 ingest", metric: "written to disk per event", cdcdb: 716.8, pg: 921.6, unit: "bytes/event"},
		{workload: "SCD2 ingest", metric: "cdcdb peak RSS", cdcdb: 426 << 20, pg: math.NaN(), unit: "bytes", goal: absoluteAtMost(512 << 20)},
		{workload: "Bitemporal ingest", metric: "cdcdb peak RSS", cdcdb: 600 << 20, pg: math.NaN(), unit: "bytes", goal: absoluteAtMost(512 << 20)},
		{workload: "Point AS OF (8 clients)", metric: "QPS", cdcdb: 35000, pg: 36400, unit: "q/s", higherBetter: true, goal: ratioAtLeast(1)},
		{workload: "Point AS OF, 10x history", metric: "p50 growth", cdcdb: 1.13, pg: 4.09, unit: "x", goal: absoluteAtMost(1.5)},
	} {
		r.add(f)
	}
	return r
}

// TestMarkdownReport: -markdown renders the same table as the text report,
// medians, ratios, goals and status, as the Markdown docs/benchmarks.md
// shows, after a paragraph on the machine and settings.
func TestMarkdownReport(t *testing.T) {
	want := "cdcbench: cdcdb vs PostgreSQL 15, full sizes, on AMD EPYC, 2 cores, 24 GiB RAM, Linux 6.18.44, go1.26.8. " +
		"PostgreSQL: `fsync=on shared_buffers=128MB`. Medians over repetitions; ratio = cdcdb / PostgreSQL. " +
		"1-minute load average during the run: mean 1.9, max 2.6, on 2 cores. " +
		"A 4 KiB write made durable (fdatasync) on the servers' disk takes 0.21 ms right after another, 0.46 ms after 5 ms idle (medians).\n" +
		"\n" +
		"| workload | metric | cdcdb | PostgreSQL | ratio | goal | status |\n" +
		"| --- | --- | ---: | ---: | ---: | --- | --- |\n" +
		"| SCD2 ingest | events/s | 177,702 events/s | 17,254 events/s | 10.30x | ≥ 10x PostgreSQL | met |\n" +
		"| SCD2 ingest | batch p99 | 15.6 ms | 89.9 ms | 0.17x |  |  |\n" +
		"| SCD2 ingest | written to disk per event | 0.7 KiB/event | 0.9 KiB/event | 0.78x |  |  |\n" +
		"| SCD2 ingest | cdcdb peak RSS | 426 MiB | — | — | ≤ 512 MiB | met |\n" +
		"| Bitemporal ingest | cdcdb peak RSS | 600 MiB | — | — | ≤ 512 MiB | NOT met: 1.17x over |\n" +
		"| Point AS OF (8 clients) | QPS | 35,000 q/s | 36,400 q/s | 0.96x | ≥ 1x PostgreSQL | NOT met: 1.04x short |\n" +
		"| Point AS OF, 10x history | p50 growth | 1.13x | 4.09x | — | ≤ 1.50x | met |\n" +
		"\n" +
		"Checked in the same run:\n" +
		"\n" +
		"- SCD2 ingest: both targets identical in every repetition: 862909 rows\n" +
		"\n" +
		"The run took 30m33s.\n"
	got := fixedReport().markdown()
	if got != want {
		t.Errorf("markdown:\n%s\nwant:\n%s", got, want)
	}
}

// TestMarkdownOutput: -markdown - prints the Markdown instead of the text
// table; -markdown FILE writes it there and prints the text table.
func TestMarkdownOutput(t *testing.T) {
	rep := fixedReport()
	var stdout strings.Builder
	printReport(&stdout, rep, options{markdown: markdownToStdout})
	if stdout.String() != rep.markdown() {
		t.Errorf("-markdown - printed:\n%s\nwant the Markdown:\n%s", stdout.String(), rep.markdown())
	}

	file := filepath.Join(t.TempDir(), "bench.md")
	stdout.Reset()
	o := options{markdown: file}
	printReport(&stdout, rep, o)
	var text strings.Builder
	rep.print(&text)
	if stdout.String() != text.String() {
		t.Errorf("-markdown FILE printed:\n%s\nwant the text table:\n%s", stdout.String(), text.String())
	}
	if err := writeReportFiles(rep, o, io.Discard); err != nil {
		t.Fatal(err)
	}
	if written, err := os.ReadFile(file); err != nil || string(written) != rep.markdown() {
		t.Errorf("-markdown FILE wrote %q (%v), want the Markdown", written, err)
	}
}

// TestMarkdownReportWithMariaDB: once a workload ran against MariaDB, the
// table gains its column, a figure's ratio and goal are against the peer
// it names, and PostgreSQL's figure, where there is one, stays beside it.
func TestMarkdownReportWithMariaDB(t *testing.T) {
	r := &report{machine: "AMD EPYC, 2 cores", cores: 2, pgSettings: "fsync=on", mariadbSettings: "10.11.19-MariaDB innodb_flush_log_at_trx_commit=1"}
	for _, f := range []figure{
		{workload: "Point AS OF (8 clients)", metric: "QPS", cdcdb: 35000, pg: 36400, unit: "q/s", higherBetter: true, goal: ratioAtLeast(1)},
		{workload: "System-versioned UPDATE, 1 per transaction, 1 client", metric: "updates/s", cdcdb: 1500, pg: 2500, mariadb: 2000,
			peer: peerMariaDB, unit: "updates/s", higherBetter: true, goal: ratioAtLeast(1)},
		{workload: "System-time point AS OF (8 clients)", metric: "p50", cdcdb: 0.1, mariadb: 0.2, peer: peerMariaDB, unit: "ms"},
		{workload: "System-time whole-table AS OF (8 clients)", metric: "reads/s", cdcdb: 1.234, mariadb: 45.67, peer: peerMariaDB,
			unit: "reads/s", higherBetter: true, goal: ratioAtLeast(1.5)},
	} {
		r.add(f)
	}
	want := "cdcbench: cdcdb vs PostgreSQL 15 and MariaDB, full sizes, on AMD EPYC, 2 cores. PostgreSQL: `fsync=on`. " +
		"MariaDB: `10.11.19-MariaDB innodb_flush_log_at_trx_commit=1`. " +
		"Medians over repetitions; ratio = cdcdb / the peer the goal names (PostgreSQL unless MariaDB is named).\n" +
		"\n" +
		"| workload | metric | cdcdb | PostgreSQL | MariaDB | ratio | goal | status |\n" +
		"| --- | --- | ---: | ---: | ---: | ---: | --- | --- |\n" +
		"| Point AS OF (8 clients) | QPS | 35,000 q/s | 36,400 q/s | — | 0.96x | ≥ 1x PostgreSQL | NOT met: 1.04x short |\n" +
		"| System-versioned UPDATE, 1 per transaction, 1 client | updates/s | 1,500 updates/s | 2,500 updates/s | 2,000 updates/s | 0.75x | ≥ 1x MariaDB | NOT met: 1.33x short |\n" +
		"| System-time point AS OF (8 clients) | p50 | 0.100 ms | — | 0.200 ms | 0.50x |  |  |\n" +
		"| System-time whole-table AS OF (8 clients) | reads/s | 1.23 reads/s | — | 45.7 reads/s | 0.03x | ≥ 1.5x MariaDB | NOT met: 55.51x short |\n"
	if got := r.markdown(); got != want {
		t.Errorf("markdown:\n%s\nwant:\n%s", got, want)
	}
	if svg := r.svg(); !strings.Contains(svg, "(vs MariaDB)") {
		t.Errorf("chart does not name MariaDB as the peer of its bars:\n%s", svg)
	}
}
