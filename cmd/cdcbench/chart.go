package main

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// svg draws the report as one chart: a bar per throughput figure showing
// cdcdb / PostgreSQL on a log scale (right of the 1x line: cdcdb faster),
// with the goal marked on the bar's row, and cdcdb's own figures
// (peak memory, latency growth) as text below. A log scale because the
// ratios span orders of magnitude and 0.1x is as far from parity as 10x.
//
// Hand-written SVG, a few dozen elements: a plotting dependency would be
// more code to trust than this.
func (r *report) svg() string {
	var bars, notes []figure
	for _, f := range r.figures {
		switch {
		case f.higherBetter && f.hasPeer():
			bars = append(bars, f)
		case f.goal.kind == goalAtMost:
			notes = append(notes, f)
		}
	}
	const (
		width   = 960
		labelW  = 400
		plotW   = 440
		rowH    = 30
		leftPad = 10
	)
	// Under the title, a line each for the machine, how busy it was and
	// its disk, then the legend; the bars start below them.
	var about []string
	for _, line := range []string{r.machine, r.loadText(), r.diskText()} {
		if line != "" {
			about = append(about, capitalize(line))
		}
	}
	legendY := 44 + 14*len(about) + 2
	top := legendY + 22
	// The axis spans every ratio and goal, in whole decades, at least 0.1x..10x.
	lo, hi := -1.0, 1.0
	for _, f := range bars {
		lo = math.Min(lo, math.Floor(math.Log10(f.ratio())))
		hi = math.Max(hi, math.Ceil(math.Log10(f.ratio())))
		if f.goal.kind == goalRatioAtLeast {
			hi = math.Max(hi, math.Ceil(math.Log10(f.goal.value)))
		}
	}
	x := func(ratio float64) float64 {
		return labelW + (math.Log10(ratio)-lo)/(hi-lo)*plotW
	}
	plotH := len(bars) * rowH
	height := top + plotH + 50 + len(notes)*20 + 20

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="16" font-weight="bold">%s</text>`+"\n", leftPad, esc(r.title()))
	for i, line := range about {
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" fill="#555">%s</text>`+"\n", leftPad, 44+14*i, esc(line))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" fill="#555">%s</text>`+"\n", leftPad, legendY,
		esc("cdcdb / PostgreSQL (or the peer a bar names), medians; right of 1x: cdcdb faster; black tick: the issue's goal; green: goal met (or faster, without a goal), red: missed"))

	// Decade grid lines and labels.
	for d := lo; d <= hi; d++ {
		gx := x(math.Pow(10, d))
		stroke, w := "#ddd", 1
		if d == 0 {
			stroke, w = "#333", 2
		}
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="%d"/>`+"\n", gx, top-6, gx, top+plotH, stroke, w)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" font-size="11">%sx</text>`+"\n", gx, top+plotH+16, trimFloat(math.Pow(10, d)))
	}
	for i, f := range bars {
		y := top + i*rowH
		ratio := f.ratio()
		color := "#9aa5b1" // no goal, slower
		if met, ok := f.met(); ok && met || !ok && ratio >= 1 {
			color = "#2e9d5b"
		} else if ok {
			color = "#d64545"
		}
		x0, x1 := x(1), x(ratio)
		label := f.workload + " — " + f.metric
		if f.peer != peerPostgreSQL {
			label += " (vs " + f.peer.String() + ")"
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", leftPad, y+19, esc(label))
		fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n", math.Min(x0, x1), y+6, math.Abs(x1-x0), rowH-12, color)
		if f.goal.kind == goalRatioAtLeast {
			gx := x(f.goal.value)
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black" stroke-width="3"/>`+"\n", gx, y+2, gx, y+rowH-2)
		}
		lx, anchor := math.Max(x0, x1)+6, "start"
		if ratio < 1 {
			lx, anchor = x0+6, "start"
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="%s" font-weight="bold">%.2fx</text>`+"\n", lx, y+19, anchor, ratio)
	}
	y := top + plotH + 44
	for _, f := range notes {
		line := fmt.Sprintf("%s — %s: %s (goal %s: %s)", f.workload, f.metric, formatValue(f.cdcdb, f.unit), f.goalText(), f.status())
		if f.hasPeer() {
			line = fmt.Sprintf("%s — %s: cdcdb %s, %s %s (goal for cdcdb %s: %s)", f.workload, f.metric,
				formatValue(f.cdcdb, f.unit), f.peer, formatValue(f.peerValue(), f.unit), f.goalText(), f.status())
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", leftPad, y, esc(line))
		y += 20
	}
	b.WriteString("</svg>\n")
	return b.String()
}

func esc(s string) string { return html.EscapeString(s) }
