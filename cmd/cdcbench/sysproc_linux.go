package main

import (
	"os"
	"syscall"
)

// childProcAttr makes the kernel kill a server whose benchmark died (a panic,
// Ctrl-C twice), so no cdcdb outlives its run.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// syncDisks writes back everything dirty in the page cache.
func syncDisks() { syscall.Sync() }

// fdatasync makes what was written to f durable, as both servers make
// their logs durable on Linux.
func fdatasync(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }
