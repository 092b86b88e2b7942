package storage

import (
	"os"
	"syscall"
)

// fdatasync makes what was written to f durable, without its metadata
// beyond what reading the data back needs (as bbolt syncs on Linux).
func fdatasync(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }
