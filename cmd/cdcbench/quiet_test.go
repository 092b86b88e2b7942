package main

import (
	"runtime"
	"testing"
	"time"
)

// TestBusyCPUTicks reads the machine's busy CPU time from /proc/stat and
// sees it grow while the test keeps a core busy.
func TestBusyCPUTicks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/stat")
	}
	before, err := busyCPUTicks()
	if err != nil {
		t.Fatal(err)
	}
	for x, deadline := 0, time.Now().Add(10*time.Second); ; x++ {
		if x%(1<<20) != 0 {
			continue
		}
		now, err := busyCPUTicks()
		if err != nil {
			t.Fatal(err)
		}
		if now >= before+5 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("busy CPU ticks went from %d to %d in 10 s of a busy loop", before, now)
		}
	}
}
