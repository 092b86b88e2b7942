package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
)

// goalKind is how a figure is judged against the goal.
type goalKind int

const (
	noGoal           goalKind = iota
	goalRatioAtLeast          // cdcdb / the figure's peer >= value (throughput)
	goalAtMost                // cdcdb's own figure <= value (memory, growth)
)

type goal struct {
	kind  goalKind
	value float64
}

// ratioAtLeast: cdcdb must reach v times the peer's figure.
func ratioAtLeast(v float64) goal { return goal{goalRatioAtLeast, v} }

// absoluteAtMost: cdcdb's own figure must not exceed v.
func absoluteAtMost(v float64) goal { return goal{goalAtMost, v} }

// peerName is the system a figure's ratio and goal compare cdcdb with.
type peerName int

const (
	peerPostgreSQL peerName = iota
	peerMariaDB
)

func (p peerName) String() string {
	if p == peerMariaDB {
		return "MariaDB"
	}
	return "PostgreSQL"
}

// figure is one line of the report: a median over repetitions for cdcdb,
// PostgreSQL and MariaDB (pg is NaN or 0 when PostgreSQL has no such
// figure, mariadb 0 when MariaDB has none). The ratio and the goal are
// against peer's figure; the other's, when there, is shown beside it (the
// system-versioned UPDATEs show PostgreSQL's plain UPDATEs as the floor).
type figure struct {
	workload, metric string
	cdcdb, pg        float64
	mariadb          float64
	peer             peerName
	unit             string
	// higherBetter marks throughputs; the chart draws only figures whose
	// ratio has a direction.
	higherBetter bool
	goal         goal
}

func present(v float64) bool { return !math.IsNaN(v) && v != 0 }

// peerValue is the figure the ratio is taken against.
func (f figure) peerValue() float64 {
	if f.peer == peerMariaDB {
		return f.mariadb
	}
	return f.pg
}

func (f figure) hasPeer() bool { return present(f.peerValue()) }

// ratio is cdcdb / the peer.
func (f figure) ratio() float64 {
	if !f.hasPeer() {
		return math.NaN()
	}
	return f.cdcdb / f.peerValue()
}

func (f figure) goalText() string {
	switch f.goal.kind {
	case goalRatioAtLeast:
		return "≥ " + trimFloat(f.goal.value) + "x " + f.peer.String()
	case goalAtMost:
		return "≤ " + formatValue(f.goal.value, f.unit)
	}
	return ""
}

// met reports whether the goal is met; ok is false when there is no goal.
func (f figure) met() (met, ok bool) {
	switch f.goal.kind {
	case goalRatioAtLeast:
		return f.ratio() >= f.goal.value, true
	case goalAtMost:
		return f.cdcdb <= f.goal.value, true
	}
	return false, false
}

// status says met, or by how much the goal is missed.
func (f figure) status() string {
	met, ok := f.met()
	switch {
	case !ok:
		return ""
	case met:
		return "met"
	case f.goal.kind == goalRatioAtLeast:
		return fmt.Sprintf("NOT met: %.2fx short", f.goal.value/f.ratio())
	default:
		return fmt.Sprintf("NOT met: %.2fx over", f.cdcdb/f.goal.value)
	}
}

// report collects a run's figures and what was checked.
type report struct {
	quick   bool
	machine string
	// cores is how many CPUs the machine has, which the load average is
	// read against.
	cores      int
	disk       *diskLatency // nil until probed
	pgSettings string
	// mariadbSettings is MariaDB's version and settings, empty when no
	// workload ran against it.
	mariadbSettings string
	cdcdbFlags      string
	figures         []figure
	checks          []string
	elapsed         time.Duration

	loadMu           sync.Mutex
	loadSum, loadMax float64
	loadSamples      int
}

func (r *report) add(f figure) { r.figures = append(r.figures, f) }

func (r *report) addLoad(l float64) {
	r.loadMu.Lock()
	defer r.loadMu.Unlock()
	r.loadSum += l
	r.loadMax = max(r.loadMax, l)
	r.loadSamples++
}

// loadText says how busy the machine was, with a warning when other work
// kept the CPUs busier than the benchmark alone can (about one runnable
// process per core: the client and one server at a time).
func (r *report) loadText() string {
	r.loadMu.Lock()
	defer r.loadMu.Unlock()
	if r.loadSamples == 0 {
		return ""
	}
	mean := r.loadSum / float64(r.loadSamples)
	s := fmt.Sprintf("1-minute load average during the run: mean %.1f, max %.1f, on %d cores", mean, r.loadMax, r.cores)
	if mean > 1.5*float64(r.cores) {
		s += " — other processes competed for the CPUs; figures are noisy"
	}
	return s
}

// capitalize starts s with a capital, as a sentence or a heading does
// (the report's texts are ASCII; one that starts capitalized stays as it is).
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// diskText says how fast the disk makes a write durable, or nothing when
// it was not probed.
func (r *report) diskText() string {
	if r.disk == nil {
		return ""
	}
	return r.disk.String()
}

func (r *report) title() string {
	mode := "full sizes"
	if r.quick {
		mode = "-quick sizes (too small for conclusions)"
	}
	peers := "PostgreSQL 15"
	if r.mariadbSettings != "" {
		peers += " and MariaDB"
	}
	return "cdcbench: cdcdb vs " + peers + ", " + mode
}

// ratioLegend says what the ratio column divides by.
func (r *report) ratioLegend() string {
	if r.mariadbSettings != "" {
		return "ratio = cdcdb / the peer the goal names (PostgreSQL unless MariaDB is named)"
	}
	return "ratio = cdcdb / PostgreSQL"
}

// peerColumns are the table's columns of peers' figures: MariaDB's only
// when a workload ran against it.
func (r *report) peerColumns() []peerName {
	if r.mariadbSettings != "" {
		return []peerName{peerPostgreSQL, peerMariaDB}
	}
	return []peerName{peerPostgreSQL}
}

// peerCell is peer's figure in its column, or a dash.
func peerCell(f figure, p peerName) string {
	v := f.pg
	if p == peerMariaDB {
		v = f.mariadb
	}
	if !present(v) {
		return "—"
	}
	return formatValue(v, f.unit)
}

func (r *report) print(w io.Writer) {
	fmt.Fprintln(w, r.title())
	fmt.Fprintln(w, "machine:", r.machine)
	if d := r.diskText(); d != "" {
		fmt.Fprintln(w, "disk:", d)
	}
	fmt.Fprintln(w, "PostgreSQL:", r.pgSettings)
	if r.mariadbSettings != "" {
		fmt.Fprintln(w, "MariaDB:", r.mariadbSettings)
	}
	if r.cdcdbFlags != "" {
		fmt.Fprintln(w, "cdcdb flags:", r.cdcdbFlags)
	}
	if l := r.loadText(); l != "" {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w, "medians over repetitions; "+r.ratioLegend())
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	header := []string{"workload", "metric", "cdcdb"}
	for _, p := range r.peerColumns() {
		header = append(header, p.String())
	}
	fmt.Fprintln(tw, strings.Join(append(header, "ratio", "goal", "status"), "\t"))
	for _, f := range r.figures {
		fmt.Fprintln(tw, strings.Join(r.cells(f), "\t"))
	}
	tw.Flush()
	if len(r.checks) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "checked:")
		for _, c := range r.checks {
			fmt.Fprintln(w, "  -", c)
		}
	}
	if r.elapsed > 0 {
		fmt.Fprintf(w, "\nrun took %s\n", r.elapsed.Round(time.Second))
	}
}

// markdown renders the report as Markdown, as docs/benchmarks.md shows the
// latest full run: a paragraph on the machine and the settings, the table
// print writes (medians, ratios, goals), the checks and the run's length.
func (r *report) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, on %s. PostgreSQL: `%s`.", r.title(), r.machine, r.pgSettings)
	if r.cdcdbFlags != "" {
		fmt.Fprintf(&b, " cdcdb: `%s`.", r.cdcdbFlags)
	}
	if r.mariadbSettings != "" {
		fmt.Fprintf(&b, " MariaDB: `%s`.", r.mariadbSettings)
	}
	fmt.Fprintf(&b, " Medians over repetitions; %s.", r.ratioLegend())
	for _, l := range []string{r.loadText(), r.diskText()} {
		if l != "" {
			fmt.Fprintf(&b, " %s.", capitalize(l))
		}
	}
	b.WriteString("\n\n")
	header, align := []string{"workload", "metric", "cdcdb"}, []string{"---", "---", "---:"}
	for _, p := range r.peerColumns() {
		header, align = append(header, p.String()), append(align, "---:")
	}
	header, align = append(header, "ratio", "goal", "status"), append(align, "---:", "---", "---")
	fmt.Fprintf(&b, "| %s |\n| %s |\n", strings.Join(header, " | "), strings.Join(align, " | "))
	for _, f := range r.figures {
		fmt.Fprintf(&b, "| %s |\n", strings.Join(r.cells(f), " | "))
	}
	if len(r.checks) > 0 {
		b.WriteString("\nChecked in the same run:\n\n")
		for _, c := range r.checks {
			fmt.Fprintf(&b, "- %s\n", c)
		}
	}
	if r.elapsed > 0 {
		fmt.Fprintf(&b, "\nThe run took %s.\n", r.elapsed.Round(time.Second))
	}
	return b.String()
}

// cells are a figure's row of the table, in the columns print and
// markdown write.
func (r *report) cells(f figure) []string {
	row := []string{f.workload, f.metric, formatValue(f.cdcdb, f.unit)}
	for _, p := range r.peerColumns() {
		row = append(row, peerCell(f, p))
	}
	return append(row, ratioText(f), f.goalText(), f.status())
}

func ratioText(f figure) string {
	if !f.hasPeer() || f.unit == "x" {
		return "—"
	}
	return fmt.Sprintf("%.2fx", f.ratio())
}

// formatValue prints a figure in its unit: thousands separated for rates
// (two decimals under 10, one under 100), MiB for memory.
func formatValue(v float64, unit string) string {
	switch unit {
	case "bytes":
		return mib(v)
	case "ms":
		if v < 10 {
			return fmt.Sprintf("%.3f ms", v)
		}
		return fmt.Sprintf("%.1f ms", v)
	case "x":
		return fmt.Sprintf("%.2fx", v)
	case "bytes/event":
		return fmt.Sprintf("%.1f KiB/event", v/1024)
	}
	if v < 100 { // a slow rate (whole-table reads of a long history): keep its digits
		return strconv.FormatFloat(v, 'f', 2-btoi(v >= 10), 64) + " " + unit
	}
	return thousands(int64(math.Round(v))) + " " + unit
}

func mib(v float64) string { return fmt.Sprintf("%.0f MiB", v/(1<<20)) }

func trimFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var out []byte
	for i, c := range []byte(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, c)
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// median of a non-empty sample (the mean of the middle two when even).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func maxOf(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return slices.Max(xs)
}

// percentile by nearest rank; it sorts its argument.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	i := int(math.Ceil(p*float64(len(ds)))) - 1
	return ds[min(max(i, 0), len(ds)-1)]
}
