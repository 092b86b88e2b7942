//go:build !linux

package main

import (
	"os"
	"syscall"
)

// childProcAttr: only Linux can tie a child's life to its parent's.
func childProcAttr() *syscall.SysProcAttr { return nil }

// syncDisks: sync(2) where there is one.
func syncDisks() {}

// fdatasync: fsync where fdatasync is not to be had.
func fdatasync(f *os.File) error { return f.Sync() }
