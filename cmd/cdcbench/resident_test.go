//go:build linux

package main

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// TestResidentSamplerSeesWhatAPhaseAllocates: the sampler's highest
// anonymous part rises by what this process touches, and carries the phase
// it was touched in; the parts add up to at most the RSS they split.
func TestResidentSamplerSeesWhatAPhaseAllocates(t *testing.T) {
	exited := make(chan struct{})
	s := sampleResident(os.Getpid(), exited)
	defer s.stop()
	_, before, _, err := s.peaks()
	if err != nil {
		t.Fatal(err)
	}
	s.setPhase("touching 64 MiB")
	// Memory of its own, not the Go heap's: a heap may already hold
	// pages it freed, and reuse them without the RSS rising.
	const size = 64 << 20
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	for i := 0; i < len(mem); i += 4096 {
		mem[i] = 1
	}
	time.Sleep(5 * residentEvery) // a sample or more while it is held
	rss, anon, _, err := s.peaks()
	if err != nil {
		t.Fatal(err)
	}
	if got := anon.anon - before.anon; got < size*3/4 {
		t.Fatalf("the highest anonymous part rose by %d bytes after touching %d", got, size)
	}
	if anon.phase != "touching 64 MiB" {
		t.Fatalf("highest anonymous part sampled in phase %q", anon.phase)
	}
	if rss.anon+rss.file > rss.rss || rss.anon <= 0 || rss.file <= 0 {
		t.Fatalf("sample %+v: anonymous and file parts do not split the RSS", rss)
	}
}
