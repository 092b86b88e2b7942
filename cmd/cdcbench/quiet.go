package main

import (
	"context"
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

// quiet waits, before a timed run of either side, until srv has finished
// its background work (its checkpoints and compactions after a feed or a
// drop; see cdcdbServer.waitIdle) and then for a quiet disk.
func (b *bench) quiet(ctx context.Context, srv *cdcdbServer) error {
	if !srv.waitIdle(ctx, b.sz.quietAtMost) {
		b.logf("cdcdb still busy after %s; going on", b.sz.quietAtMost)
	}
	return b.quietDisk(ctx)
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
