package storage

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"unsafe"

	bolt "go.etcd.io/bbolt"
)

// releaseFilePages tells the kernel this process no longer needs the pages
// of the file it has mapped. bbolt reads the file through a shared,
// read-only memory map, so every page a lookup or a checkpoint touched
// stays mapped into the process and counts as its memory, though it is only
// the OS page cache: after a checkpoint has rewritten most of a large
// file, that is as much memory as the file is big. MADV_DONTNEED drops the
// mappings, not the cached data: the next read of a page maps it again from
// the cache, as PostgreSQL reads its data files through the OS cache.
//
// bbolt remaps the file when a write transaction grows it past the map
// (the flusher's, or the log writer's with a record too large for the
// ring), and the address would then no longer be the file's: the release
// holds a read transaction, which keeps the map in place (a remap waits
// for every read transaction to end).
func (db *DB) releaseFilePages() {
	btx, err := db.bolt.Begin(false)
	if err != nil {
		return
	}
	defer func() { _ = btx.Rollback() }()
	if mapped := db.mappedFilePages(btx); mapped != nil {
		if hook := db.hookRelease.Load(); hook != nil {
			(*hook)()
		}
		_ = syscall.Madvise(mapped, syscall.MADV_DONTNEED)
	}
}

// mappedFilePages returns the part of bbolt's map that holds the file's
// pages in use, as of btx (which keeps the map in place while it lives): up
// to the high-water mark of its pages, which bbolt's map always covers.
// Not up to the file's size: bbolt grows the file in steps of its
// AllocSize past what its map covers, and the memory after the map
// belongs to someone else (dropping it zeroed the Go runtime's own memory).
func (db *DB) mappedFilePages(btx *bolt.Tx) []byte {
	size := btx.Size()
	info := db.bolt.Info()
	size &^= int64(info.PageSize - 1)
	if size <= 0 || info.Data == 0 {
		return nil
	}
	// Info gives the map's address as a uintptr. Turning it back into a
	// pointer is sound here because the memory is the kernel's mapping,
	// which the garbage collector never moves or frees; the indirection
	// only says so to go vet, whose rule is about Go's own memory.
	base := *(*unsafe.Pointer)(unsafe.Pointer(&info.Data))
	return unsafe.Slice((*byte)(base), size)
}

// mappedFileBytes returns how many bytes of files the process has mapped
// in memory: the third field of /proc/self/statm (resident shared pages,
// which are file pages, shared memory aside), in bytes. That counts the
// program's own code too, a few megabytes. On an error it returns 0, so
// that nothing is released for want of a count.
func mappedFileBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := bytes.Fields(b)
	if len(fields) < 3 {
		return 0
	}
	pages, err := strconv.ParseInt(string(fields[2]), 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
