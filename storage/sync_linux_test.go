package storage

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteDurably: writeDurably writes its bytes where it is told, with
// RWF_DSYNC where the kernel has it and with a write and fdatasync where
// not, and reports a write that fails.
func TestWriteDurably(t *testing.T) {
	defer noDsyncWrites.Store(false)
	for _, fallback := range []bool{false, true} {
		noDsyncWrites.Store(fallback)
		t.Run(fmt.Sprintf("fallback=%v", fallback), testWriteDurably)
	}
}

func testWriteDurably(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "w"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := make([]byte, 8192+50+100) // to the end of the last write
	write := func(b []byte, off int64) {
		t.Helper()
		if err := writeDurably(f, b, off); err != nil {
			t.Fatal(err)
		}
		copy(want[off:], b)
	}
	write(bytes.Repeat([]byte{1}, 4096), 0)
	write(bytes.Repeat([]byte{2}, 100), 8192+50)
	write(bytes.Repeat([]byte{3}, 5000), 3000) // over the first two
	got := make([]byte, len(want))
	if _, err := f.ReadAt(got, 0); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the file does not hold what was written")
	}
	ro, err := os.Open(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if err := writeDurably(ro, []byte("x"), 0); err == nil {
		t.Fatal("a write to a file open read-only succeeded")
	}
}
