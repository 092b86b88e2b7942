package storage

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// fileMapping returns the address range of the memory map of path, from
// /proc/self/maps.
func fileMapping(t *testing.T, path string) (start, end uintptr) {
	t.Helper()
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasSuffix(line, " "+path) {
			continue
		}
		if _, err := fmt.Sscanf(line, "%x-%x", &start, &end); err != nil {
			t.Fatal(err)
		}
		return start, end
	}
	t.Fatalf("%s is not mapped", path)
	return 0, 0
}

// TestReleaseFilePagesStaysInsideTheMap: bbolt grows the file in steps of
// AllocSize beyond what its map covers, so the file can be longer than the
// map. releaseFilePages must not drop pages past the map's end: the memory
// mapped there is someone else's (when it advised the whole file, the Go
// runtime's own memory after the map was zeroed and the process crashed).
func TestReleaseFilePagesStaysInsideTheMap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	// The records (1 MiB) are larger than the log ring (its first segment,
	// which may not grow), so they go to the log bucket and grow the file.
	db, err := Open(path, Options{NoSync: true, MmapSize: 32 << 20, MemtableSize: 1 << 30, CheckpointAfterIdle: time.Hour, ringBytes: 4 << 10, ringMax: 4 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *Tx) error { _, err := tx.CreateSpace("s"); return err }); err != nil {
		t.Fatal(err)
	}
	// Write until the file is longer than its map: the log records alone
	// grow it (no checkpoint runs, so releaseFilePages runs only below).
	var fi os.FileInfo
	var start, end uintptr
	for round := 0; ; round++ {
		if round == 200 {
			t.Fatal("the file never outgrew its map")
		}
		err = db.Update(func(tx *Tx) error {
			for i := range 10 {
				if err := tx.Space("s").Put([]byte(fmt.Sprintf("k%03d-%d", round, i)), bytes.Repeat([]byte{byte(i)}, 100<<10)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if fi, err = os.Stat(path); err != nil {
			t.Fatal(err)
		}
		if start, end = fileMapping(t, path); fi.Size() > int64(end-start) {
			break
		}
	}
	t.Logf("file %d bytes, mapped %d bytes", fi.Size(), end-start)
	m := db.mappedFilePages()
	if p := uintptr(unsafe.Pointer(unsafe.SliceData(m))); p != start || uintptr(len(m)) > end-start {
		t.Fatalf("releaseFilePages would drop [%#x, %#x), the file's map is [%#x, %#x)", p, p+uintptr(len(m)), start, end)
	}
	db.releaseFilePages()
	err = db.View(func(tx *Tx) error {
		if n := tx.Space("s").Count(); n == 0 {
			return fmt.Errorf("no rows")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
