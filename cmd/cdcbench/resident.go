package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// residentEvery is how often a residentSampler reads the server's
// /proc/PID/status: often enough to catch a spike of a few hundred
// milliseconds, rarely enough to cost the server's two cores nothing
// measurable (one read is a few microseconds of the benchmark's own CPU).
const residentEvery = 20 * time.Millisecond

// residentSample is one reading of a process's resident memory, split the
// way the kernel counts it: anonymous pages (the Go heap, stacks, the
// runtime's own) and file pages (for cdcdb, mostly its memory-mapped data
// file, which is the OS page cache mapped into the process).
type residentSample struct {
	rss, anon, file int64 // bytes
	phase           string
	at              time.Duration // since the sampler started
}

// when says when the sample was taken: seconds into the server's life and
// the benchmark's phase.
func (r residentSample) when() string {
	return fmt.Sprintf("at %.1fs (%s)", r.at.Seconds(), r.phase)
}

// residentSampler follows a process's resident memory while it runs. VmHWM
// says how high it went, not what it was made of nor when; this keeps the
// sample with the highest RSS, the highest of each part on its own, and
// the phase of the benchmark each was taken in (setPhase).
type residentSampler struct {
	pid   int
	start time.Time
	done  chan struct{}

	mu       sync.Mutex
	phase    string
	peak     residentSample // the highest VmRSS sampled
	peakAnon residentSample
	peakFile residentSample
	readErr  error // the first failed read, if any
	closed   bool
}

// sampleResident starts sampling pid until stop is called or the process
// has gone (exited is closed).
func sampleResident(pid int, exited <-chan struct{}) *residentSampler {
	s := &residentSampler{pid: pid, start: time.Now(), done: make(chan struct{}), phase: "start"}
	go func() {
		t := time.NewTicker(residentEvery)
		defer t.Stop()
		for {
			s.sample()
			select {
			case <-t.C:
			case <-s.done:
				return
			case <-exited:
				return
			}
		}
	}()
	return s
}

// setPhase names what the benchmark is doing from now on, for the peaks
// sampled during it.
func (s *residentSampler) setPhase(phase string) {
	s.mu.Lock()
	s.phase = phase
	s.mu.Unlock()
}

// peaks returns the sample with the highest RSS and the samples with the
// highest anonymous and file parts, so far.
func (s *residentSampler) peaks() (rss, anon, file residentSample, err error) {
	s.sample() // the moment asked about counts too
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak, s.peakAnon, s.peakFile, s.readErr
}

func (s *residentSampler) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.done)
	}
}

func (s *residentSampler) sample() {
	r, err := readResident(s.pid)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		if s.readErr == nil && !s.closed {
			s.readErr = err
		}
		return
	}
	r.phase, r.at = s.phase, time.Since(s.start)
	if r.rss > s.peak.rss {
		s.peak = r
	}
	if r.anon > s.peakAnon.anon {
		s.peakAnon = r
	}
	if r.file > s.peakFile.file {
		s.peakFile = r
	}
}

// readResident reads VmRSS, RssAnon and RssFile (kB) of /proc/PID/status.
// RssShmem, the third part of VmRSS, is left out: cdcdb maps no shared
// memory.
func readResident(pid int) (residentSample, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return residentSample{}, err
	}
	var r residentSample
	found := 0
	for _, line := range strings.Split(string(b), "\n") {
		name, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		var dst *int64
		switch name {
		case "VmRSS":
			dst = &r.rss
		case "RssAnon":
			dst = &r.anon
		case "RssFile":
			dst = &r.file
		default:
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return residentSample{}, fmt.Errorf("/proc/%d/status %s: %q", pid, name, rest)
		}
		*dst = kb << 10
		found++
	}
	if found != 3 {
		return residentSample{}, fmt.Errorf("/proc/%d/status lacks VmRSS, RssAnon or RssFile", pid)
	}
	return r, nil
}

// logResident logs what the server's sampled peaks of resident memory were
// made of and when they were reached, so far in an ingest workload, and
// returns the highest anonymous and file parts (0 if sampling failed).
func (b *bench) logResident(srv *cdcdbServer, name string, rep int) (anon, file int64) {
	rss, a, f, err := srv.resident.peaks()
	if err != nil {
		b.logf("%s rep %d: sampling cdcdb's resident memory: %v", name, rep+1, err)
		return 0, 0
	}
	b.logf("%s rep %d: cdcdb's highest sampled RSS so far %s = anonymous %s + file %s %s; highest anonymous part %s %s; highest file part %s %s",
		name, rep+1, mib(float64(rss.rss)), mib(float64(rss.anon)), mib(float64(rss.file)), rss.when(),
		mib(float64(a.anon)), a.when(), mib(float64(f.file)), f.when())
	return a.anon, f.file
}
