package main

import (
	"fmt"
	"os"
	"time"
)

// A durable commit waits for the disk, and on virtual machines how long
// depends less on what is written than on how recently the disk was used:
// on the AMD EPYC VM of the benchmark's runs a 4 KiB write made durable took
// 0.17 ms right after another and 0.5 to 0.7 ms after a 5 ms pause,
// whatever else the machine was doing (docs/findings.md). Every
// COPY batch of the ingests ends in one such write after milliseconds of
// work, and every single-row INSERT in one after a client's round trip,
// so a run's figures read better next to its machine's own. probeDisk
// measures both, in the directory the servers' data goes to, before
// either server starts.
const (
	probeWriteSize  = 4 << 10
	probeBackToBack = 50
	probeAfterPause = 30
	probePause      = 5 * time.Millisecond
)

// diskLatency is what probeDisk measured: the median durable 4 KiB write
// right after another and after probePause of nothing.
type diskLatency struct {
	backToBack, afterPause time.Duration
}

// probeDisk writes 4 KiB blocks into a file in dir and makes each durable
// with fdatasync, as both servers make their logs durable, and returns
// the medians. The file is written whole and synced first, so the probe's
// writes overwrite blocks the file already has (as a log ring, or a
// recycled WAL segment, does) and change neither its size nor its
// metadata. The file is removed before probeDisk returns.
func probeDisk(dir string) (diskLatency, error) {
	f, err := os.CreateTemp(dir, "diskprobe-")
	if err != nil {
		return diskLatency{}, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	blocks := probeBackToBack + probeAfterPause
	if _, err := f.Write(make([]byte, blocks*probeWriteSize)); err != nil {
		return diskLatency{}, err
	}
	if err := fdatasync(f); err != nil {
		return diskLatency{}, err
	}
	block := make([]byte, probeWriteSize)
	next := 0
	durableWrite := func() (time.Duration, error) {
		block[0]++ // each write changes what is on disk
		t0 := time.Now()
		if _, err := f.WriteAt(block, int64(next*probeWriteSize)); err != nil {
			return 0, err
		}
		if err := fdatasync(f); err != nil {
			return 0, err
		}
		next++
		return time.Since(t0), nil
	}
	var quick, paused []time.Duration
	for range probeBackToBack {
		d, err := durableWrite()
		if err != nil {
			return diskLatency{}, err
		}
		quick = append(quick, d)
	}
	for range probeAfterPause {
		time.Sleep(probePause)
		d, err := durableWrite()
		if err != nil {
			return diskLatency{}, err
		}
		paused = append(paused, d)
	}
	return diskLatency{backToBack: percentile(quick, 0.5), afterPause: percentile(paused, 0.5)}, nil
}

// String says what was measured, for the report's header.
func (d diskLatency) String() string {
	return fmt.Sprintf("a 4 KiB write made durable (fdatasync) on the servers' disk takes %.2f ms right after another, %.2f ms after %d ms idle (medians)",
		d.backToBack.Seconds()*1000, d.afterPause.Seconds()*1000, probePause.Milliseconds())
}
