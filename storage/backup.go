package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// An online backup copies the database as one read transaction sees it
// into a new file, while writers go on: every keyspace with its keys,
// values and sequence, whether they are in the file's runs, in a frozen
// layer waiting for its checkpoint or in the active memtable layer. A read
// transaction is the durable view of one commit, so the copy holds every
// commit up to that one and nothing after it. The copy is a database of its
// own, written through a DB opened on it, so it has what a fresh file has
// (its runs sealed, its state, an empty log) and a server starts on it as
// on any file. Puts ahead (ahead.go) are in no keyspace a reader sees and
// are not copied: the commits they cover are, once readers see them.
//
// The copy is written under a temporary name beside the output and given
// the output's name (a hard link, which refuses a name taken meanwhile)
// only once it is complete and on disk, so a backup cut short by a crash
// never sits under the name asked for. What a crash leaves is the
// temporary file, named path + BackupPartialSuffix + a random part.

// BackupPartialSuffix ends the name of a backup being written.
const BackupPartialSuffix = ".partial"

// Errors of Backup that the layers above tell apart.
var (
	// ErrBackupRelativePath: the output path is not absolute (a server's
	// working directory is no place a user can name).
	ErrBackupRelativePath = errors.New("storage: a backup's path must be absolute")
	// ErrBackupExists: something already has the output's name.
	ErrBackupExists = errors.New("storage: a backup's path already exists")
)

// backupChunk bounds the bytes of keys and values each transaction writing
// the copy holds, so the copy's memtable layers are checkpointed as it goes.
const backupChunk = 4 << 20

// BackupStats says what a backup copied.
type BackupStats struct {
	// Version is the commit the copy is as of (the read transaction's).
	Version uint64
	// Spaces, Entries and Bytes count the keyspaces, keys and bytes of
	// keys and values copied.
	Spaces, Entries, Bytes int64
}

// Backup writes a copy of the database as of its newest durable commit to
// a new file at path, which must be absolute and not exist yet; its
// directory must. It runs beside writers and checkpoints and takes no
// writer slot. A failed backup leaves nothing at path. path may not be the
// database's own file. Once ctx ends the copy stops, with ctx's error.
func (db *DB) Backup(ctx context.Context, path string) (stats BackupStats, err error) {
	if !filepath.IsAbs(path) {
		return stats, fmt.Errorf("%w: %q", ErrBackupRelativePath, path)
	}
	path = filepath.Clean(path)
	if _, err := os.Lstat(path); err == nil {
		return stats, fmt.Errorf("%w: %q", ErrBackupExists, path)
	} else if !errors.Is(err, os.ErrNotExist) {
		return stats, err
	}
	tmpFile, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+BackupPartialSuffix+"*")
	if err != nil {
		return stats, err
	}
	tmp := tmpFile.Name()
	tmpFile.Close()
	keep := false
	defer func() {
		if !keep {
			os.Remove(tmp)
		}
	}()
	// The empty file CreateTemp made has no bbolt structure: Open starts
	// one in it as in a new file.
	if err := os.Remove(tmp); err != nil {
		return stats, err
	}

	src, err := db.Begin(false)
	if err != nil {
		return stats, err
	}
	defer src.Rollback()
	stats.Version = src.Version()

	dst, err := Open(tmp, Options{
		// The copy is synced once, whole, before it gets its name.
		NoSync:              true,
		MemtableSize:        16 << 20,
		BlockCacheSize:      NoBlockCache,
		Logger:              db.log,
		MmapSize:            64 << 20,
		CheckpointAfterIdle: DefaultCheckpointAfterIdle,
	})
	if err != nil {
		return stats, err
	}
	if err := copySpaces(ctx, src, dst, &stats); err != nil {
		dst.Close()
		return stats, err
	}
	if err := dst.Close(); err != nil {
		return stats, err
	}
	if err := syncFile(tmp); err != nil {
		return stats, err
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return stats, fmt.Errorf("%w: %q", ErrBackupExists, path)
		}
		return stats, err
	}
	keep = true
	if err := os.Remove(tmp); err != nil {
		// The copy is whole under its name; a second name for it, which
		// says it is partial, is only clutter.
		db.log.Warn("a backup is complete, but its temporary name could not be removed", "backup", path, "temporary", tmp, "error", err)
	}
	return stats, syncFile(filepath.Dir(path))
}

// copySpaces copies every keyspace src sees into dst, in transactions of
// about backupChunk bytes each.
func copySpaces(ctx context.Context, src *Tx, dst *DB, stats *BackupStats) (err error) {
	defer catchCorrupt(&err)
	for _, name := range src.Spaces("") {
		if err := ctx.Err(); err != nil {
			return err
		}
		s := src.Space(name)
		if s == nil {
			continue
		}
		stats.Spaces++
		tx, err := dst.Begin(true)
		if err != nil {
			return err
		}
		d, err := tx.CreateSpace(name)
		if err != nil {
			tx.Rollback()
			return err
		}
		if seq := s.Sequence(); seq != 0 {
			if err := d.SetSequence(seq); err != nil {
				tx.Rollback()
				return err
			}
		}
		held := 0
		c := s.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if err := d.Put(k, v); err != nil {
				tx.Rollback()
				return fmt.Errorf("storage: backup of keyspace %q: %w", name, err)
			}
			stats.Entries++
			stats.Bytes += int64(len(k) + len(v))
			held += len(k) + len(v)
			if held >= backupChunk {
				if err := ctx.Err(); err != nil {
					tx.Rollback()
					return err
				}
				if err := tx.Commit(); err != nil {
					return err
				}
				if tx, err = dst.Begin(true); err != nil {
					return err
				}
				d = tx.Space(name)
				held = 0
			}
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// syncFile fsyncs a file or directory by name.
func syncFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
