package storage_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"cdcdb/storage"
	"cdcdb/storage/storagetest"
)

// TestBackupUnderWriters takes backups while a writer commits numbered
// transactions across checkpoints, and checks that each copy is the
// database as of exactly one commit: commit n put key n in "rows", set
// "meta"'s key "last" to n and its sequence to n, and deleted key n-50, so
// a copy that mixes commits has a hole, an extra key or a sequence that
// disagrees. Each copy must pass CheckFile and open as a database.
func TestBackupUnderWriters(t *testing.T) {
	// A small memtable makes the writer's commits cross several
	// checkpoints while the backups run.
	db := storagetest.OpenOptions(t, storage.Options{MemtableSize: 1 << 20})
	if err := db.Update(func(tx *storage.Tx) error {
		if _, err := tx.CreateSpace("rows"); err != nil {
			return err
		}
		_, err := tx.CreateSpace("meta")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	done := make(chan error, 1)
	var committed atomic.Int64
	go func() {
		pad := make([]byte, 2000)
		for n := 1; !stop.Load(); n++ {
			err := db.Update(func(tx *storage.Tx) error {
				if err := tx.Space("rows").Put(key(n), pad); err != nil {
					return err
				}
				if n > 50 {
					if err := tx.Space("rows").Delete(key(n - 50)); err != nil {
						return err
					}
				}
				meta := tx.Space("meta")
				if err := meta.Put([]byte("last"), []byte(strconv.Itoa(n))); err != nil {
					return err
				}
				return meta.SetSequence(uint64(n))
			})
			if err != nil {
				done <- err
				return
			}
			committed.Store(int64(n))
		}
		done <- nil
	}()
	dir := t.TempDir()
	for i := 0; i < 4; i++ {
		for committed.Load() < int64(300*(i+1)) {
			time.Sleep(time.Millisecond) // for the writer to get further
		}
		before := committed.Load()
		out := filepath.Join(dir, fmt.Sprintf("copy%d.db", i))
		stats, err := db.Backup(context.Background(), out)
		if err != nil {
			t.Fatalf("backup %d: %v", i, err)
		}
		checkCopy(t, out, before, stats)
	}
	stop.Store(true)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("the backups' directory holds %d files, want the 4 copies: %v", len(entries), entries)
	}
}

func key(n int) []byte { return []byte(fmt.Sprintf("%09d", n)) }

// checkCopy opens the copy at path and checks that it is the database as
// of one commit n >= atLeast.
func checkCopy(t *testing.T, path string, atLeast int64, stats storage.BackupStats) {
	t.Helper()
	report, err := storage.CheckFile(path)
	if err != nil || len(report.Problems) > 0 {
		t.Fatalf("CheckFile(%s): %v %v", path, err, report)
	}
	copyDB, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer copyDB.Close()
	err = copyDB.View(func(tx *storage.Tx) error {
		meta := tx.Space("meta")
		last, err := strconv.Atoi(string(meta.Get([]byte("last"))))
		if err != nil {
			return err
		}
		if int64(last) < atLeast {
			t.Errorf("copy as of commit %d, but commit %d was acknowledged before the backup began", last, atLeast)
		}
		if meta.Sequence() != uint64(last) {
			t.Errorf("copy's sequence %d, its last commit %d", meta.Sequence(), last)
		}
		want := max(1, last-49)
		c := tx.Space("rows").Cursor()
		n := 0
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			if string(k) != string(key(want+n)) {
				return fmt.Errorf("copy's key %d is %q, want %q (as of commit %d)", n, k, key(want+n), last)
			}
			n++
		}
		if want+n-1 != last {
			t.Errorf("copy's keys end at %d, its last commit is %d", want+n-1, last)
		}
		if stats.Spaces != 2 {
			t.Errorf("stats.Spaces = %d, want 2", stats.Spaces)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestBackupRefusesPaths(t *testing.T) {
	db := storagetest.Open(t)
	dir := t.TempDir()
	existing := filepath.Join(dir, "there.db")
	if err := os.WriteFile(existing, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want func(error) bool
	}{
		{"relative.db", func(err error) bool { return errors.Is(err, storage.ErrBackupRelativePath) }},
		{existing, func(err error) bool { return errors.Is(err, storage.ErrBackupExists) }},
		{db.Path(), func(err error) bool { return errors.Is(err, storage.ErrBackupExists) }},
		{filepath.Join(dir, "no", "such", "dir.db"), func(err error) bool { return errors.Is(err, os.ErrNotExist) }},
	} {
		_, err := db.Backup(context.Background(), tc.path)
		if err == nil || !tc.want(err) {
			t.Errorf("Backup(%q) = %v", tc.path, err)
		}
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep me" {
		t.Errorf("an existing file was changed: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("refused backups left files: %v", entries)
	}
}

// TestBackupStopsWhenCancelled: a backup whose context ends stops with the
// context's error and leaves no file behind, neither at its path nor its
// partial copy.
func TestBackupStopsWhenCancelled(t *testing.T) {
	db := storagetest.Open(t)
	if err := db.Update(func(tx *storage.Tx) error {
		for i := range 3 {
			sp, err := tx.CreateSpace(fmt.Sprintf("s%d", i))
			if err != nil {
				return err
			}
			if err := sp.Put([]byte("k"), []byte("v")); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	if _, err := db.Backup(ctx, filepath.Join(dir, "copy.db")); !errors.Is(err, context.Canceled) {
		t.Fatalf("Backup with a cancelled context: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a cancelled backup left files: %v", entries)
	}
}
