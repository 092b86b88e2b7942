package storage

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"cdcdb/pgerror"
)

// What a commit is told when the file could not be written.
//
// A commit's log record is written by the log writer, in a flush with the
// commits queued beside it (ring.go, DB.flush). When that write or its
// sync fails, part of the flush, or all of it, may be on disk: the next
// Open replays every record it finds whole, in version order. So each
// commit of the failed flush is told that its outcome is unknown (08007,
// transaction_resolution_unknown: what a PostgreSQL client reports when
// the connection is lost during COMMIT), never that it failed: after the
// restart it is there, or not, wholly. The same holds for a flush that
// succeeded after the database had failed meanwhile (a checkpoint's write
// failed while the flush was under way): its records are on disk, but the
// database threw its commits out of memory, and only a restart shows them.
//
// Once the file could not be written the database accepts no more
// changes (DB.fail): a commit still queued then is answered without its
// record having been written, and a later one is refused before it is
// queued. Those are known not to have happened: 58030 (io_error), with
// the first failure's error.
//
// Every failed write or sync of the file is logged (Options.Logger): the
// log ring's with its file offset and length (ring.writeAt), bbolt's as
// bbolt reports them (boltLogger), and the failure that stopped the
// database's writes (DB.fail).

// unknownOutcome is what a commit of a failed flush is answered with:
// err, the flush's error, and the commit's record may be on disk.
type unknownOutcome struct{ err error }

func (u *unknownOutcome) Error() string { return u.err.Error() }
func (u *unknownOutcome) Unwrap() error { return u.err }

// commitError is the error a commit's writer gets for err, the answer its
// pending commit got.
func commitError(err error) error {
	var u *unknownOutcome
	if errors.As(err, &u) {
		return &pgerror.Error{
			Code:    pgerror.TransactionResolutionUnknown,
			Message: fmt.Sprintf("the outcome of this commit is unknown: writing it to the database file failed: %v", u.err),
			Detail:  "The transaction's log record may or may not have reached the disk: it is either wholly there after the server restarts, or wholly absent. The database accepts no further changes until then.",
			Hint:    "Reconnect once the server has restarted and check whether the transaction's changes are there.",
		}
	}
	return failedError(err)
}

// failedError is the error of a commit or a write transaction refused
// because an earlier write of the file failed: nothing of it was written.
func failedError(err error) error {
	return &pgerror.Error{
		Code:    pgerror.IOError,
		Message: fmt.Sprintf("the database file could not be written, so no further changes are accepted until the server restarts: %v", err),
		Detail:  "This transaction was not committed.",
	}
}

// LogWriteFault is what Options.InjectLogWriteFault makes of one write of
// commits' log records into the log ring.
type LogWriteFault int

const (
	// LogWriteOK lets the write go ahead.
	LogWriteOK LogWriteFault = iota
	// LogWriteFailsBefore fails the write with nothing written, as a
	// write refused by a full disk.
	LogWriteFailsBefore
	// LogWriteFailsAfter writes the bytes (durably) and then fails, as a
	// write whose sync reported an error although the bytes reached the
	// disk.
	LogWriteFailsAfter
)

// errInjectedWriteFault is the OS error of a write failed by
// Options.InjectLogWriteFault.
var errInjectedWriteFault = errors.New("input/output error (injected by InjectLogWriteFault)")

// boltLogger passes bbolt's errors and warnings (a failed write or sync of
// a page with its offset, a failed growth of the file) to the database's
// logger, with the file's path; its debug and info messages are dropped.
type boltLogger struct {
	log  *slog.Logger
	path string
}

func (l boltLogger) record(level slog.Level, msg string) {
	l.log.Log(context.Background(), level, "bbolt: "+msg, "file", l.path)
}

func (l boltLogger) Debug(...any)          {}
func (l boltLogger) Debugf(string, ...any) {}
func (l boltLogger) Info(...any)           {}
func (l boltLogger) Infof(string, ...any)  {}
func (l boltLogger) Error(v ...any)        { l.record(slog.LevelError, fmt.Sprint(v...)) }
func (l boltLogger) Errorf(format string, v ...any) {
	l.record(slog.LevelError, fmt.Sprintf(format, v...))
}
func (l boltLogger) Warning(v ...any) { l.record(slog.LevelWarn, fmt.Sprint(v...)) }
func (l boltLogger) Warningf(format string, v ...any) {
	l.record(slog.LevelWarn, fmt.Sprintf(format, v...))
}

// Fatal and Panic keep bbolt's contract for them (it calls neither).
func (l boltLogger) Fatal(v ...any) { l.Error(v...); os.Exit(1) }
func (l boltLogger) Fatalf(format string, v ...any) {
	l.Errorf(format, v...)
	os.Exit(1)
}
func (l boltLogger) Panic(v ...any) { l.Error(v...); panic(fmt.Sprint(v...)) }
func (l boltLogger) Panicf(format string, v ...any) {
	l.Errorf(format, v...)
	panic(fmt.Sprintf(format, v...))
}
