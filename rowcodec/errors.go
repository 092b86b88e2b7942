package rowcodec

import (
	"fmt"

	"cdcdb/storage"
)

// corrupt reports bytes that do not decode as a key or a row. They came
// from the data file, so they are damage to it, and say so in storage's
// terms: a *storage.CorruptError (errors.Is(err, storage.ErrCorrupt)
// holds), which the layers above report as XX001 naming the table.
func corrupt(format string, args ...any) *storage.CorruptError {
	return &storage.CorruptError{Block: -1, Detail: fmt.Sprintf(format, args...)}
}
