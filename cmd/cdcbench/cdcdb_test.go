package main

import (
	"os"
	"runtime"
	"testing"
	"time"
)

// TestProcCPUTicks reads this process's CPU time from /proc and sees it
// grow while the test keeps a core busy.
func TestProcCPUTicks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	before, err := procCPUTicks(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	x := 0
	for deadline := time.Now().Add(10 * time.Second); ; x++ {
		if x%(1<<20) == 0 {
			now, err := procCPUTicks(os.Getpid())
			if err != nil {
				t.Fatal(err)
			}
			if now >= before+5 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("CPU ticks went from %d to %d in 10 s of a busy loop", before, now)
			}
		}
	}
}
