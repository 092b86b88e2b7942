//go:build unix

package storage

import (
	"errors"
	"os"
	"syscall"
	"time"

	berrors "go.etcd.io/bbolt/errors"
)

// lockWhileWalking takes the lock bbolt takes on the file (shared for a
// read-only open, exclusive for a writable one) for the walk of its pages,
// so that a file another process has open for writing is reported as in
// use, as bbolt reports it, and not read while it is written, which could
// look like damage. It waits up to timeout (zero: for ever) and returns
// the lock's release. (bbolt takes its own lock on its own descriptor
// after the walk.)
func lockWhileWalking(f *os.File, exclusive bool, timeout time.Duration) (release func(), err error) {
	how := syscall.LOCK_NB | syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_NB | syscall.LOCK_EX
	}
	start := time.Now()
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err == nil {
			return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, err
		}
		if timeout != 0 && time.Since(start) > timeout {
			return nil, berrors.ErrTimeout
		}
		time.Sleep(50 * time.Millisecond)
	}
}
