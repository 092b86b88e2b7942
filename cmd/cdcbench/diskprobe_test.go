package main

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestProbeDiskMeasuresDurableWrites: the probe returns a median for each
// kind of write, waits its pauses, and leaves nothing behind in the
// directory it was given.
func TestProbeDiskMeasuresDurableWrites(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Now()
	d, err := probeDisk(dir)
	if err != nil {
		t.Fatal(err)
	}
	if took, least := time.Since(t0), probeAfterPause*probePause; took < least {
		t.Errorf("probe took %v, less than its pauses alone (%v)", took, least)
	}
	if d.backToBack <= 0 || d.afterPause <= 0 {
		t.Errorf("medians %v and %v: want both positive", d.backToBack, d.afterPause)
	}
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("probe left %d files behind, first %q", len(left), left[0].Name())
	}
	t.Logf("%s", d)
}

// TestReportShowsTheDisk: a probed disk is in the printed report, the
// Markdown and the chart; an unprobed one in none of them.
func TestReportShowsTheDisk(t *testing.T) {
	probed := &report{machine: "test machine", disk: &diskLatency{backToBack: 170 * time.Microsecond, afterPause: 620 * time.Microsecond}}
	var printed strings.Builder
	probed.print(&printed)
	for name, out := range map[string]string{"print": printed.String(), "markdown": probed.markdown(), "svg": probed.svg()} {
		if !strings.Contains(out, "0.17 ms right after another, 0.62 ms after 5 ms idle") {
			t.Errorf("%s output lacks the disk's latencies:\n%s", name, out)
		}
	}
	var bare strings.Builder
	unprobed := &report{machine: "test machine"}
	unprobed.print(&bare)
	for name, out := range map[string]string{"print": bare.String(), "markdown": unprobed.markdown(), "svg": unprobed.svg()} {
		if strings.Contains(out, "made durable") {
			t.Errorf("%s output mentions a disk that was not probed:\n%s", name, out)
		}
	}
}
