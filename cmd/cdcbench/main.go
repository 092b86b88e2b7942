package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// workloadNames are the workloads in the order they run; -only picks some.
var workloadNames = []string{"scd2", "bitemporal", "reads", "changes", "pgbench", "commits", "writers", "follow", "snapshots", "sysver"}

// markdownToStdout, as -markdown's file, prints the report as Markdown
// instead of the text table.
const markdownToStdout = "-"

// options are the command line.
type options struct {
	quick      bool
	only       []string
	cdcdbBin   string
	chart      string
	markdown   string
	profileDir string
	profileFor time.Duration
	reps       int
	cdcdbFlags []string
}

func run(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := flag.NewFlagSet("cdcbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&o.quick, "quick", false, "tiny sizes, under two minutes (what CI runs)")
	only := fs.String("only", "", "comma-separated workloads to run (default all): "+strings.Join(workloadNames, ","))
	fs.StringVar(&o.cdcdbBin, "cdcdb", "", "cdcdb binary to measure (default: go build ./cmd/cdcdb of this module)")
	fs.StringVar(&o.chart, "chart", "cdcbench.svg", "write the SVG chart here (empty: none)")
	fs.StringVar(&o.markdown, "markdown", "", "also write the results as Markdown to this file (as docs/benchmarks.md shows them); -: print them as Markdown instead of the text table")
	fs.StringVar(&o.profileDir, "cpuprofile", "", "save a CPU profile of cdcdb during each workload's first repetition into this directory")
	fs.DurationVar(&o.profileFor, "cpuprofile-for", 20*time.Second, "length of each CPU profile")
	fs.IntVar(&o.reps, "reps", 0, "repetitions of every measurement (default: 3 full, 1 quick)")
	flags := fs.String("cdcdb-flags", "", "extra flags for every cdcdb started, space-separated (e.g. \"-memtable 32MiB\"); the report lists them")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	o.cdcdbFlags = strings.Fields(*flags)
	if *only != "" {
		for _, w := range strings.Split(*only, ",") {
			if !slices.Contains(workloadNames, w) {
				fmt.Fprintf(stderr, "cdcbench: unknown workload %q (have %s)\n", w, strings.Join(workloadNames, ", "))
				return 2
			}
			o.only = append(o.only, w)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := benchmark(ctx, o, stderr)
	if rep != nil {
		printReport(stdout, rep, o)
	}
	if err != nil {
		fmt.Fprintln(stderr, "cdcbench:", err)
		return 1
	}
	if err := writeReportFiles(rep, o, stderr); err != nil {
		fmt.Fprintln(stderr, "cdcbench:", err)
		return 1
	}
	return 0
}

// printReport prints the results, a partial run's too: as the text table,
// or as Markdown with -markdown -.
func printReport(stdout io.Writer, rep *report, o options) {
	if o.markdown == markdownToStdout {
		fmt.Fprint(stdout, rep.markdown())
		return
	}
	rep.print(stdout)
}

// writeReportFiles writes the chart and the Markdown to the files the
// command line names, once a run has finished.
func writeReportFiles(rep *report, o options, log io.Writer) error {
	if o.chart != "" {
		if err := os.WriteFile(o.chart, []byte(rep.svg()), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(log, "chart written to %s\n", o.chart)
	}
	if o.markdown != "" && o.markdown != markdownToStdout {
		if err := os.WriteFile(o.markdown, []byte(rep.markdown()), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(log, "Markdown written to %s\n", o.markdown)
	}
	return nil
}

// bench is what every workload needs: the servers' whereabouts, the sizes
// and a place to log progress.
type bench struct {
	o       options
	sz      sizes
	pg      *pgServer
	bin     string
	tmp     string
	log     io.Writer
	started time.Time
	rep     *report
	// pgWarm is set once PostgreSQL has ingested a feed untimed
	// (warmUpPostgres).
	pgWarm bool
}

func (b *bench) logf(format string, args ...any) {
	fmt.Fprintf(b.log, "[%6.1fs] %s\n", time.Since(b.started).Seconds(), fmt.Sprintf(format, args...))
}

// newCdcdb starts a fresh cdcdb (new process, empty data file).
func (b *bench) newCdcdb() (*cdcdbServer, error) {
	return startCdcdb(b.bin, b.tmp, b.o.profileDir != "", b.o.cdcdbFlags)
}

// profile starts a CPU profile of srv for the workload's first repetition
// when -cpuprofile is set; wait blocks until it is saved.
func (b *bench) profile(srv *cdcdbServer, name string, rep int) (wait func() error) {
	if b.o.profileDir == "" || rep != 0 {
		return func() error { return nil }
	}
	path := filepath.Join(b.o.profileDir, name+".pprof")
	done := srv.cpuProfile(b.o.profileFor, path)
	return func() error {
		if err := <-done; err != nil {
			return fmt.Errorf("CPU profile %s: %v", path, err)
		}
		b.logf("CPU profile of cdcdb written to %s", path)
		return nil
	}
}

// benchmark runs the selected workloads and returns the report, even a
// partial one when a workload fails (its error says which and why).
func benchmark(ctx context.Context, o options, log io.Writer) (*report, error) {
	b := &bench{o: o, sz: fullSizes(), log: log, started: time.Now()}
	if o.quick {
		b.sz = quickSizes()
	}
	if o.reps > 0 {
		b.sz.setReps(o.reps)
	}
	b.rep = &report{quick: o.quick, machine: machineDescription(), cores: runtime.NumCPU(), cdcdbFlags: strings.Join(o.cdcdbFlags, " ")}
	// Other processes competing for the CPUs skew both sides' figures (and
	// not by the same amount): record how busy the machine was.
	stopLoad := sampleLoad(b.rep)
	defer stopLoad()
	var err error
	if b.tmp, err = os.MkdirTemp("", "cdcbench-"); err != nil {
		return nil, err
	}
	defer os.RemoveAll(b.tmp)
	disk, err := probeDisk(b.tmp)
	if err != nil {
		return nil, fmt.Errorf("probing the disk: %w", err)
	}
	b.rep.disk = &disk
	b.logf("disk: %s", disk)
	if o.profileDir != "" {
		if err := os.MkdirAll(o.profileDir, 0o755); err != nil {
			return nil, err
		}
	}
	b.bin = o.cdcdbBin
	if b.bin == "" {
		b.logf("building ./cmd/cdcdb")
		if b.bin, err = buildCdcdb(ctx, b.tmp); err != nil {
			return nil, err
		}
	}
	b.logf("starting PostgreSQL 15")
	if b.pg, err = startPostgres(ctx); err != nil {
		return nil, err
	}
	defer func() {
		if err := b.pg.Stop(); err != nil {
			b.logf("stopping PostgreSQL: %v", err)
		}
	}()
	if b.rep.pgSettings, err = b.pg.settings(ctx); err != nil {
		return nil, err
	}
	b.logf("PostgreSQL settings: %s", b.rep.pgSettings)

	b.logf("checking both sides against the spec's worked examples")
	if err := b.checkSpecExamples(ctx); err != nil {
		return b.rep, fmt.Errorf("spec examples: %w", err)
	}
	b.rep.checks = append(b.rep.checks, "spec §4 and §5 worked examples: cdcdb and the PostgreSQL SQL give the expected rows")

	steps := map[string]func(context.Context) error{
		"scd2":       func(ctx context.Context) error { return b.ingestWorkload(ctx, false) },
		"bitemporal": func(ctx context.Context) error { return b.ingestWorkload(ctx, true) },
		"reads":      b.readsWorkload,
		"changes":    b.changesWorkload,
		"pgbench":    b.pgbenchWorkload,
		"commits":    b.commitsWorkload,
		"writers":    b.writersWorkload,
		"follow":     b.followWorkload,
		"snapshots":  b.snapshotsWorkload,
		"sysver":     b.sysverWorkload,
	}
	for _, name := range workloadNames {
		if len(o.only) > 0 && !slices.Contains(o.only, name) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return b.rep, err
		}
		t0 := time.Now()
		b.logf("workload %s", name)
		if err := steps[name](ctx); err != nil {
			return b.rep, fmt.Errorf("workload %s: %w", name, err)
		}
		b.logf("workload %s done in %s", name, time.Since(t0).Round(time.Second))
	}
	b.rep.elapsed = time.Since(b.started)
	return b.rep, nil
}

// machineDescription names the CPU, cores, memory and kernel: figures mean
// little without them.
func machineDescription() string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		if _, err := fmt.Sscanf(string(b), "MemTotal: %d kB", &kb); err == nil {
			mem = fmt.Sprintf(", %.0f GiB RAM", float64(kb)/(1<<20))
		}
	}
	kernel := ""
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		kernel = ", Linux " + strings.TrimSpace(string(b))
	}
	return fmt.Sprintf("%s, %d cores%s%s, %s", cpu, runtime.NumCPU(), mem, kernel, runtime.Version())
}

// sampleLoad records the 1-minute load average every few seconds into the
// report until the returned function is called.
func sampleLoad(r *report) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			if l, err := loadAverage(); err == nil {
				r.addLoad(l)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

func loadAverage() (float64, error) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, err
	}
	var l float64
	_, err = fmt.Sscan(string(b), &l)
	return l, err
}
