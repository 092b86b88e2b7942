package storage

import (
	"errors"
	"os"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// fdatasync makes what was written to f durable, without its metadata
// beyond what reading the data back needs (as bbolt syncs on Linux).
func fdatasync(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }

// noDsyncWrites is set once the kernel has refused RWF_DSYNC (before
// Linux 4.7), so that writeDurably goes straight to its fallback.
var noDsyncWrites atomic.Bool

// writeDurably writes b at off in f and returns once those bytes are on
// disk. A write with RWF_DSYNC waits for its own range alone (and the
// device's cache flush), where fdatasync waits for everything of the file
// that is dirty: the log ring shares its file with bbolt, whose checkpoint
// and compaction transactions leave megabytes of written but not yet
// synced blocks in the page cache, so a commit's fdatasync used to wait
// for them too.
func writeDurably(f *os.File, b []byte, off int64) error {
	if noDsyncWrites.Load() {
		return writeThenSync(f, b, off)
	}
	fd := int(f.Fd())
	for len(b) > 0 {
		n, err := unix.Pwritev2(fd, [][]byte{b}, off, unix.RWF_DSYNC)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL):
			noDsyncWrites.Store(true)
			return writeThenSync(f, b, off)
		case err != nil:
			return &os.PathError{Op: "pwritev2", Path: f.Name(), Err: err}
		}
		b, off = b[n:], off+int64(n)
	}
	return nil
}
