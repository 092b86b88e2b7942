package storage

import (
	"errors"
	"fmt"

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
	// ErrCorrupt is returned when stored bytes cannot be decoded.
	ErrCorrupt = &pgerror.Error{Code: pgerror.DataCorrupted, Message: "stored data is corrupt"}
)

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

func corrupt(format string, args ...any) error {
	return fmt.Errorf("storage: "+format+": %w", append(args, ErrCorrupt)...)
}
