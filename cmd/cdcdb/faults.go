package main

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"cdcdb/storage"
)

// injectLogWriteFaultEnv names the variable of the environment by which the
// end-to-end tests make the server's N-th write of commits' log records
// fail (storage.Options.InjectLogWriteFault): "before:N" fails it with
// nothing written, as a full disk does; "after:N" writes it and then fails,
// as a sync that reports an error although the bytes reached the disk.
// Later writes go ahead (the database accepts none after a failed one).
// It is for tests of what a failed write does, and nothing else.
const injectLogWriteFaultEnv = "CDCDB_TEST_FAIL_LOG_WRITE"

// logWriteFault reads the variable's value: nil when it is empty.
func logWriteFault(spec string) (func(off int64, n int) storage.LogWriteFault, error) {
	if spec == "" {
		return nil, nil
	}
	mode, count, ok := strings.Cut(spec, ":")
	nth, err := strconv.ParseInt(count, 10, 64)
	fault := map[string]storage.LogWriteFault{"before": storage.LogWriteFailsBefore, "after": storage.LogWriteFailsAfter}[mode]
	if !ok || err != nil || nth < 1 || fault == storage.LogWriteOK {
		return nil, fmt.Errorf("$%s %q: want before:N or after:N, N from 1", injectLogWriteFaultEnv, spec)
	}
	var writes atomic.Int64
	return func(int64, int) storage.LogWriteFault {
		if writes.Add(1) == nth {
			return fault
		}
		return storage.LogWriteOK
	}, nil
}
