//go:build !linux

package storage

// releaseFilePages is a Linux-only saving (see resident_linux.go).
func (db *DB) releaseFilePages() {}
