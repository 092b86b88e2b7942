// Package storagetest opens storage databases for tests: every test that needs
// a database file gets it from Open, which also checks the file's consistency
// when the test ends.
package storagetest

import (
	"path/filepath"
	"testing"
	"time"

	"cdcdb/storage"
)

// Open opens a fresh database in t.TempDir() with NoSync (tests do not need
// fsync). When the test ends it closes the database, reopens the file
// read-only, runs bbolt's consistency check and fails the test on any problem.
func Open(t testing.TB) *storage.DB {
	t.Helper()
	return OpenOptions(t, storage.Options{NoSync: true})
}

// OpenOptions is Open with explicit options.
func OpenOptions(t testing.TB, opts storage.Options) *storage.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cdcdb.db")
	return open(t, path, opts)
}

// Reopen closes db and opens its file again, as a restart would; the new
// handle is checked on cleanup like one from Open.
func Reopen(t testing.TB, db *storage.DB) *storage.DB {
	t.Helper()
	if err := db.Close(); err != nil {
		t.Fatalf("storagetest: close %s: %v", db.Path(), err)
	}
	return open(t, db.Path(), storage.Options{NoSync: true})
}

func open(t testing.TB, path string, opts storage.Options) *storage.DB {
	t.Helper()
	db, err := storage.Open(path, opts)
	if err != nil {
		t.Fatalf("storagetest: open %s: %v", path, err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("storagetest: close %s: %v", path, err)
		}
		check, err := storage.Open(path, storage.Options{ReadOnly: true, Timeout: 10 * time.Second})
		if err != nil {
			t.Errorf("storagetest: reopen %s for the consistency check: %v", path, err)
			return
		}
		defer check.Close()
		if err := check.Check(); err != nil {
			t.Errorf("storagetest: %v", err)
		}
	})
	return db
}
