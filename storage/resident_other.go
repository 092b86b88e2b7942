//go:build !linux

package storage

// releaseFilePages is a Linux-only saving (see resident_linux.go).
func (db *DB) releaseFilePages() {}

// mappedFileBytes is never over budget where nothing is released.
func mappedFileBytes() int64 { return 0 }
