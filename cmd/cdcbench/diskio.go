package main

import "fmt"

// Bytes written to storage explain much of an ingest's cost: every change
// reaches the disk at least twice (cdcdb: a record in its log ring, then a
// checkpoint's sorted run, rewritten by compactions; PostgreSQL: WAL, then
// the data pages at checkpoints). Each side of an ingest runs alone on a
// disk made quiet first (quietDisk), so what the disks take in during its
// timed run is its servers' writes: their data and log, and the file
// system's journal and metadata they cause.
//
// The disks' own counter (/proc/diskstats), not the processes' write_bytes
// in /proc/PID/io: on this machine's kernel write_bytes counts the whole
// page-cache folio a write dirties (a thousand 4 KiB writes scattered over
// a file written before counted 7.6 MiB), so it grows with how scattered
// the writes are. It counted cdcdb's SCD2 feed as 2.4 KiB per event while
// the device took in 0.65 to 0.67 KiB per event and cdcdb's pwrite calls,
// counted under strace, had written 0.68 KiB.
//
// PostgreSQL leaves pages dirty at the end of a run for its checkpointer;
// those are not in its figure, the WAL that made them durable is.

// diskBytesWritten returns the bytes the machine's disks have taken in
// since boot.
func diskBytesWritten() (int64, error) {
	sectors, ok := sectorsWritten()
	if !ok {
		return 0, fmt.Errorf("bytes written to disk: /proc/diskstats is not readable")
	}
	return sectors * 512, nil // diskstats counts 512-byte sectors whatever the device's
}
