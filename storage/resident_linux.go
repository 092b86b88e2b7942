package storage

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"unsafe"
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
// It must run where bbolt cannot remap the file at the same time (the
// address would no longer be the file's): bbolt remaps only when a write
// transaction grows the file, and only the flusher, which calls this
// between its transactions, writes the file.
func (db *DB) releaseFilePages() {
	if mapped := db.mappedFilePages(); mapped != nil {
		_ = syscall.Madvise(mapped, syscall.MADV_DONTNEED)
	}
}

// mappedFilePages returns the part of bbolt's map that holds the file's
// pages in use: up to the high-water mark of its pages, which bbolt's map
// always covers. Not up to the file's size: bbolt grows the file in steps
// of its AllocSize past what its map covers, and the memory after the map
// belongs to someone else (dropping it zeroed the Go runtime's own memory).
func (db *DB) mappedFilePages() []byte {
	btx, err := db.bolt.Begin(false)
	if err != nil {
		return nil
	}
	size := btx.Size()
	_ = btx.Rollback()
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
