//go:build !linux

package storage

import "os"

// fdatasync makes what was written to f durable.
func fdatasync(f *os.File) error { return f.Sync() }

// writeDurably writes b at off in f and returns once it is durable.
func writeDurably(f *os.File, b []byte, off int64) error { return writeThenSync(f, b, off) }
