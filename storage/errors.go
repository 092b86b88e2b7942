package storage

import (
	"errors"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"cdcdb/pgerror"
)

// Errors returned by this package. They are *pgerror.Error values, so they reach
// a client with a SQLSTATE, and they are sentinels: test for them with errors.Is.
var (
	// ErrSpaceExists is returned by CreateSpace when the name is taken.
	ErrSpaceExists = &pgerror.Error{Code: pgerror.DuplicateObject, Message: "keyspace already exists"}
	// ErrSpaceNotFound is returned by DropSpace when there is no such keyspace.
	ErrSpaceNotFound = &pgerror.Error{Code: pgerror.UndefinedObject, Message: "keyspace does not exist"}
	// ErrTxNotWritable is returned by writes in a read transaction.
	ErrTxNotWritable = &pgerror.Error{Code: pgerror.ReadOnlySQLTransaction, Message: "cannot write in a read-only transaction"}
	// ErrTxClosed is returned when a transaction is used after Commit or Rollback.
	ErrTxClosed = &pgerror.Error{Code: pgerror.InvalidTransactionState, Message: "transaction is closed"}
	// ErrDatabaseReadOnly is returned by Begin(true) on a DB opened ReadOnly.
	ErrDatabaseReadOnly = &pgerror.Error{Code: pgerror.ReadOnlySQLTransaction, Message: "database is opened read-only"}
	// ErrKeyRequired is returned by Put with an empty key.
	ErrKeyRequired = &pgerror.Error{Code: pgerror.InternalError, Message: "storage key must not be empty"}
	// ErrKeyTooLarge is returned by Put with a key longer than MaxKeySize.
	ErrKeyTooLarge = &pgerror.Error{Code: pgerror.ProgramLimitExceeded, Message: "index row size exceeds maximum"}
	// ErrValueTooLarge is returned by Put with a value longer than MaxValueSize.
	ErrValueTooLarge = &pgerror.Error{Code: pgerror.ProgramLimitExceeded, Message: "row is too big"}
	// ErrTimeout is returned by Open when another process holds the file lock
	// for longer than Options.Timeout.
	ErrTimeout = &pgerror.Error{Code: pgerror.ObjectInUse, Message: "could not lock database file: it is in use by another process"}
	// ErrCorrupt is what every report of a damaged file wraps (a
	// *CorruptError says what is damaged): stored bytes that fail their
	// checksum or cannot be decoded, or a file whose structure is broken.
	ErrCorrupt = &pgerror.Error{Code: pgerror.DataCorrupted, Message: "stored data is corrupt"}
)

// CorruptError reports damage found in the file: what is damaged, as far
// as storage can name it. errors.Is(err, ErrCorrupt) holds for it, and it
// reaches a client as SQLSTATE XX001 (data_corrupted) with its message;
// the layers above, which know which table a keyspace holds, find it with
// errors.As to name the table instead.
type CorruptError struct {
	// File is the database file's path, when the damage was found outside
	// a transaction (opening or checking the file).
	File string
	// Space is the keyspace whose data is damaged, "" when the damage is
	// not one keyspace's (the log, the file's own structure).
	Space string
	// Run is the file run the damage is in (0: none); Block its block, or
	// -1 for the run's meta (its block index and filter).
	Run   uint64
	Block int
	// Detail says what is wrong.
	Detail string
}

// Where says what is damaged, without the keyspace: the run and block,
// then what is wrong with them.
func (e *CorruptError) Where() string {
	var b strings.Builder
	if e.Run != 0 {
		if e.Block >= 0 {
			fmt.Fprintf(&b, "run %d, block %d: ", e.Run, e.Block)
		} else {
			fmt.Fprintf(&b, "run %d, its meta: ", e.Run)
		}
	}
	b.WriteString(e.Detail)
	return b.String()
}

// What says what is damaged: the keyspace, then Where.
func (e *CorruptError) What() string {
	if e.Space != "" {
		return fmt.Sprintf("keyspace %q: %s", e.Space, e.Where())
	}
	return e.Where()
}

func (e *CorruptError) Error() string {
	if e.File != "" {
		return fmt.Sprintf("storage: %s is damaged: %s", e.File, e.What())
	}
	return "storage: " + e.What()
}

// Is makes errors.Is(err, ErrCorrupt) hold.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// As gives a client the error with its SQLSTATE and this message.
func (e *CorruptError) As(target any) bool {
	if pe, ok := target.(**pgerror.Error); ok {
		*pe = &pgerror.Error{Code: pgerror.DataCorrupted, Message: strings.TrimPrefix(e.Error(), "storage: ")}
		return true
	}
	return false
}

// inFile returns err with the file's path, when it is a CorruptError that
// has none: what Open and Check report.
func inFile(err error, path string) error {
	var ce *CorruptError
	if errors.As(err, &ce) && ce.File == "" {
		c := *ce
		c.File = path
		return &c
	}
	return err
}

// Size limits of keys and values, bbolt's.
const (
	MaxKeySize   = bolt.MaxKeySize
	MaxValueSize = bolt.MaxValueSize
)

// mapErr turns bbolt's errors into this package's, keeping the ones it does
// not know (I/O errors) as they are, wrapped with what was being done.
func mapErr(op string, err error) error {
	if err == nil {
		return nil
	}
	var target error
	switch {
	case errors.Is(err, berrors.ErrTxNotWritable):
		target = ErrTxNotWritable
	case errors.Is(err, berrors.ErrTxClosed):
		target = ErrTxClosed
	case errors.Is(err, berrors.ErrDatabaseReadOnly):
		target = ErrDatabaseReadOnly
	case errors.Is(err, berrors.ErrKeyRequired):
		target = ErrKeyRequired
	case errors.Is(err, berrors.ErrKeyTooLarge):
		target = ErrKeyTooLarge
	case errors.Is(err, berrors.ErrValueTooLarge):
		target = ErrValueTooLarge
	case errors.Is(err, berrors.ErrTimeout):
		target = ErrTimeout
	case errors.Is(err, berrors.ErrBucketExists):
		target = ErrSpaceExists
	case errors.Is(err, berrors.ErrBucketNotFound):
		target = ErrSpaceNotFound
	default:
		return fmt.Errorf("storage: %s: %w", op, err)
	}
	return fmt.Errorf("storage: %s: %w", op, target)
}

// corrupt reports damage that is not one keyspace's.
func corrupt(format string, args ...any) *CorruptError {
	return &CorruptError{Block: -1, Detail: fmt.Sprintf(format, args...)}
}

// spaceCorrupt reports damage to keyspace space's data: to its run run
// (0: none) and that run's block (-1: its meta).
func spaceCorrupt(space string, run uint64, block int, format string, args ...any) *CorruptError {
	return &CorruptError{Space: space, Run: run, Block: block, Detail: fmt.Sprintf(format, args...)}
}

// detailOf is what err says is wrong, without where.
func detailOf(err error) string {
	var ce *CorruptError
	if errors.As(err, &ce) {
		return ce.Detail
	}
	return err.Error()
}

// boltPanicIsCorrupt, deferred around reads of the file through bbolt,
// turns a panic of bbolt's into a panic with a CorruptError, which the
// statement that read reports as XX001 (as any read that finds the file
// damaged panics: fileRunIter). bbolt panics where a page of its B+trees
// is not what it expects; Open checks them all (pagewalk.go), so this
// takes damage done to the file while it is open.
func boltPanicIsCorrupt(what string) {
	if r := recover(); r != nil {
		if e, ok := r.(error); ok && errors.Is(e, ErrCorrupt) {
			panic(r)
		}
		panic(corrupt("%s: bbolt failed on a damaged page: %v", what, r))
	}
}

// boltPanicAsError is boltPanicIsCorrupt for a caller that returns an
// error: it sets *err instead of panicking.
func boltPanicAsError(what string, err *error) {
	if r := recover(); r != nil {
		if e, ok := r.(error); ok && errors.Is(e, ErrCorrupt) {
			*err = e
			return
		}
		*err = corrupt("%s: bbolt failed on a damaged page: %v", what, r)
	}
}
