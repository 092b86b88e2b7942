package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Bytes written to storage explain much of an ingest's cost: every change
// reaches the disk at least twice (cdcdb: a record in its log ring, then a
// checkpoint's sorted run, rewritten by compactions; PostgreSQL: WAL, then
// the data pages at checkpoints). /proc/PID/io's write_bytes
// counts what a process caused to be written to the block layer, page cache
// write-back included, which is what both kinds of write cost in the end.
// PostgreSQL defers data pages to checkpoints: pages still dirty when a run
// ends are not in its figure, the WAL that makes them durable is.

// processWriteBytes reads write_bytes of /proc/PID/io.
func processWriteBytes(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "write_bytes: "); ok {
			return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	return 0, fmt.Errorf("/proc/%d/io has no write_bytes", pid)
}

// writeBytes sums write_bytes over the postmaster and its children (the
// backends, the WAL writer, the checkpointer, the background writer). A
// child that exits between two readings (an autovacuum worker) takes its
// count with it, so differences slightly undercount PostgreSQL's writes.
func (p *pgServer) writeBytes() (int64, error) {
	b, err := os.ReadFile(filepath.Join(p.DataDir(), "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	first, _, _ := strings.Cut(string(b), "\n")
	postmaster, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil {
		return 0, fmt.Errorf("postmaster.pid: %q", first)
	}
	total, err := processWriteBytes(postmaster)
	if err != nil {
		return 0, err
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue // gone already
		}
		// The command may contain spaces and parentheses: fields resume
		// after the last ')'. Then: state, ppid.
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(stat[i+1:]))
		if len(fields) < 2 || fields[1] != strconv.Itoa(postmaster) {
			continue
		}
		if n, err := processWriteBytes(pid); err == nil {
			total += n
		}
	}
	return total, nil
}
