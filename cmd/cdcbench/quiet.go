package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Each side of an ingest repetition starts on a quiet disk. Both servers
// leave writes behind their timed runs: PostgreSQL its checkpoint of the
// pages the run dirtied, which it spreads over minutes
// (checkpoint_completion_target), and cdcdb the write-back of its file
// when it stops and its last checkpoint. Left alone, those writes can
// land in the other side's timed run, where every commit waits for the
// disk. So before each side runs, PostgreSQL checkpoints now, the kernel
// writes back everything dirty (sync), and the benchmark waits until the
// disks have written next to nothing for quietFor.
const (
	quietFor     = 2 * time.Second
	quietPoll    = 250 * time.Millisecond
	quietSectors = 2048 // 1 MiB: what a poll may see written and still be quiet
)

// quiet waits, before a timed run of either side, until the machine's
// CPUs are idle (both servers have finished their background work:
// cdcdb's checkpoints and compactions after a feed or a drop, PostgreSQL's
// autovacuum after its feed) and then for a quiet disk.
func (b *bench) quiet(ctx context.Context) error {
	if !waitForIdleCPUs(ctx, b.sz.quietAtMost) {
		b.logf("the CPUs were still busy after %s; going on", b.sz.quietAtMost)
	}
	return b.quietDisk(ctx)
}

// Idle CPUs have done at most idleTicks of work (in the kernel's clock
// ticks, 10 ms on Linux, summed over all CPUs) in idleWindow: the servers'
// timers wake now and then and find nothing to do, and the system's own
// daemons take about 4 ticks a second on the benchmark's machine, where a
// server's checkpoint, compaction or vacuum keeps a core busy (100).
const (
	idleWindow = time.Second
	idleTicks  = 10
	idlePoll   = 100 * time.Millisecond
)

// waitForIdleCPUs waits until the machine's CPUs have been idle for
// idleWindow, or until atMost has passed (then it reports false). Where
// /proc/stat cannot be read it returns at once.
func waitForIdleCPUs(ctx context.Context, atMost time.Duration) bool {
	type sample struct {
		at    time.Time
		ticks int64
	}
	var window []sample
	for deadline := time.Now().Add(atMost); ; {
		ticks, err := busyCPUTicks()
		if err != nil {
			return true
		}
		now := time.Now()
		window = append(window, sample{now, ticks})
		// window[0] is the newest sample at least idleWindow old.
		for len(window) > 1 && now.Sub(window[1].at) >= idleWindow {
			window = window[1:]
		}
		if now.Sub(window[0].at) >= idleWindow && ticks-window[0].ticks <= idleTicks {
			return true
		}
		if now.After(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(idlePoll):
		}
	}
}

// busyCPUTicks is the CPU time the machine's CPUs have spent working, in
// clock ticks: user, nice, system, irq and softirq from the first line of
// /proc/stat (not idle, I/O wait, or time the hypervisor stole).
func busyCPUTicks() (int64, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		return 0, fmt.Errorf("/proc/stat: %q", line)
	}
	var total int64
	for _, i := range []int{1, 2, 3, 6, 7} { // user nice system irq softirq
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/stat: %q", line)
		}
		total += n
	}
	return total, nil
}

// quietDisk makes the disk quiet as the comment above says, giving up
// (without an error: the run goes on, only less undisturbed) after the
// sizes' quietAtMost.
func (b *bench) quietDisk(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, b.pg.URL("postgres"))
	if err != nil {
		return err
	}
	_, err = conn.Exec(ctx, "CHECKPOINT")
	conn.Close(ctx)
	if err != nil {
		return err
	}
	syncDisks()
	deadline := time.Now().Add(b.sz.quietAtMost)
	last, ok := sectorsWritten()
	if !ok {
		return nil // no /proc/diskstats: nothing to wait on
	}
	quietSince := time.Now()
	for time.Since(quietSince) < quietFor && time.Now().Before(deadline) {
		time.Sleep(quietPoll)
		now, _ := sectorsWritten()
		if now-last > quietSectors {
			quietSince = time.Now()
		}
		last = now
	}
	return nil
}

// sectorsWritten sums the sectors written to the machine's disks (whole
// devices, not partitions, which /proc/diskstats lists as well).
func sectorsWritten() (int64, bool) {
	b, err := os.ReadFile("/proc/diskstats")
	if err != nil {
		return 0, false
	}
	var total int64
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 10 {
			continue
		}
		if _, err := os.Stat("/sys/block/" + f[2]); err != nil {
			continue // a partition, or gone
		}
		if strings.HasPrefix(f[2], "loop") || strings.HasPrefix(f[2], "ram") {
			continue
		}
		n, err := strconv.ParseInt(f[9], 10, 64)
		if err == nil {
			total += n
		}
	}
	return total, true
}
