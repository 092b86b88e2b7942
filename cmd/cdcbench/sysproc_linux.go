package main

import "syscall"

// childProcAttr makes the kernel kill a server whose benchmark died (a panic,
// Ctrl-C twice), so no cdcdb outlives its run.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// syncDisks writes back everything dirty in the page cache.
func syncDisks() { syscall.Sync() }
