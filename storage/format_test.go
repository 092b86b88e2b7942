package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// legacyFile is a copy, in t's temporary directory, of testdata/format-v3.db:
// a file written by the cdcdb before sealed values (run metas of version 3,
// blocks, state numbers, log records and the ring's salt without seals),
// with 4 KiB pages and small blocks. Its writer filled keyspaces t/1 and i/2
// across checkpoints and compactions, rewrote and deleted keys of t/1,
// created q/1/1 with its sequence at 77, created and dropped "gone", then
// committed 22 puts into t/3 and crashed: the last 6 were never
// checkpointed (one, "big", too large for the log ring, in the log bucket). want is what the
// file holds then, from testdata/format-v3.json, with "big" made again.
func legacyFile(t *testing.T) (path string, want map[string]map[string]string, seqs map[string]uint64) {
	t.Helper()
	raw, err := os.ReadFile("testdata/format-v3.db")
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "v3.db")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile("testdata/format-v3.json")
	if err != nil {
		t.Fatal(err)
	}
	var expected struct {
		Spaces    map[string]map[string]string
		Sequences map[string]uint64
	}
	if err := json.Unmarshal(js, &expected); err != nil {
		t.Fatal(err)
	}
	big := make([]byte, 100<<10)
	for i := range big {
		big[i] = byte('a' + i%26)
	}
	expected.Spaces["t/3"]["big"] = string(big)
	return path, expected.Spaces, expected.Sequences
}

// holdsExactly checks that db holds exactly want's keyspaces (and no
// other), entries and sequences.
func holdsExactly(db *DB, want map[string]map[string]string, seqs map[string]uint64) error {
	return db.View(func(tx *Tx) error {
		if got := tx.Spaces(""); len(got) != len(want) {
			return fmt.Errorf("keyspaces %v, want %d of them", got, len(want))
		}
		for name, m := range want {
			sp := tx.Space(name)
			if sp == nil {
				return fmt.Errorf("keyspace %s is missing", name)
			}
			if got := sp.Sequence(); got != seqs[name] {
				return fmt.Errorf("keyspace %s: sequence %d, want %d", name, got, seqs[name])
			}
			n := 0
			c := sp.Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				n++
				if w, ok := m[string(k)]; !ok || w != string(v) {
					return fmt.Errorf("keyspace %s: %q holds %.30q, want %.30q (there: %v)", name, k, v, w, ok)
				}
			}
			if n != len(m) {
				return fmt.Errorf("keyspace %s: %d entries, want %d", name, n, len(m))
			}
			for k, v := range m {
				if got := sp.Get([]byte(k)); string(got) != v {
					return fmt.Errorf("keyspace %s: Get(%q) = %.30q, want %.30q", name, k, got, v)
				}
			}
		}
		return nil
	})
}

// TestFilesOfTheVersionBeforeSealsOpen: a file written before sealed values
// is refused read-only (it must be converted first), and opened writable
// is converted - its runs rewritten sealed, its log replayed, its
// keyspaces given records - and reads exactly as it did, then and after a
// restart; the converted file passes the whole check.
func TestFilesOfTheVersionBeforeSealsOpen(t *testing.T) {
	path, want, seqs := legacyFile(t)
	if db, err := Open(path, Options{ReadOnly: true}); err == nil {
		db.Close()
		t.Fatal("a read-only open of a file in the format before seals succeeded")
	} else if !strings.Contains(err.Error(), "open it writable once") {
		t.Fatalf("read-only open of a file in the format before seals: %v", err)
	}
	for restart := range 2 {
		db, err := Open(path, Options{NoSync: true, blockSize: 1024})
		if err != nil {
			t.Fatalf("open %d: %v", restart, err)
		}
		if err := holdsExactly(db, want, seqs); err != nil {
			t.Fatalf("open %d: %v", restart, err)
		}
		if restart == 0 {
			if db.replayed != 6 {
				t.Fatalf("the first open replayed %d log records, want the 6 the file's writer left", db.replayed)
			}
			// A write after the conversion, which the next open finds.
			if err := putIn(db, "t/1", "after", "conversion"); err != nil {
				t.Fatal(err)
			}
			want["t/1"]["after"] = "conversion"
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		report, err := CheckFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(report.Problems) > 0 || report.Keyspaces != len(want) || report.Runs == 0 {
			t.Fatalf("check after open %d: %+v", restart, report)
		}
	}
	// No run of the old format is left.
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	err = bdb.View(func(btx *bolt.Tx) error {
		runs := btx.Bucket(runsBucket)
		return runs.ForEachBucket(func(name []byte) error {
			return runs.Bucket(name).ForEach(func(k, v []byte) error {
				_, err := decodeRunMeta(string(name), binary.BigEndian.Uint64(k), v)
				return err
			})
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOldLogRecordsReplay: files written before log records had buckets of
// their own kept each record's parts directly in the log's bucket, under
// version and part number; a crash left some there, and opening the file
// converts and replays them, after the records of the ring.
func TestOldLogRecordsReplay(t *testing.T) {
	path, want, seqs := legacyFile(t)
	// The versions the file's log reaches, from a copy of it.
	probe, _, _ := legacyFile(t)
	db, err := Open(probe, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	version := db.durable.Load().version
	db.Close()
	bdb, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = bdb.Update(func(btx *bolt.Tx) error {
		wal := btx.Bucket(walBucket)
		// Two records of the old kind after the file's, the first in two
		// parts.
		for i, kv := range [][2]string{{"c", "3"}, {"k00100", "4"}} {
			space := map[int]string{0: "t/3", 1: "t/1"}[i]
			var rec walRecord
			rec.put(space, []byte(kv[0]), []byte(kv[1]))
			body := bytes.Join(rec.parts(), nil)
			parts := [][]byte{body}
			if i == 0 {
				parts = [][]byte{body[:3], body[3:]}
			}
			for p, part := range parts {
				k := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint64(nil, version+1+uint64(i)), uint32(p))
				if err := wal.Put(k, part); err != nil {
					return err
				}
			}
			want[space][kv[0]] = kv[1]
		}
		return nil
	})
	bdb.Close()
	if err != nil {
		t.Fatal(err)
	}
	db, err = Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := holdsExactly(db, want, seqs); err != nil {
		t.Fatal(err)
	}
}

// TestAnUnconvertedRunsDamageFailsTheConversion: a run written before
// seals has no checksum, but its rewrite checks what it can (the blocks
// parse, their keys are in order, the counts add up to the meta's), and a
// file that fails that is refused rather than converted with the damage
// sealed in.
func TestAnUnconvertedRunsDamageFailsTheConversion(t *testing.T) {
	path, _, _ := legacyFile(t)
	bdb, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = bdb.Update(func(btx *bolt.Tx) error {
		// Swap two keys' places in a block of t/1's first run.
		c := btx.Bucket(runsBucket).Bucket([]byte("t/1")).Cursor()
		k, _ := c.First()
		bk := runBlockKey(binary.BigEndian.Uint64(k), 0)
		blk := bytes.Clone(btx.Bucket(blocksBucket).Get(bk[:]))
		i := bytes.Index(blk, []byte("k0000"))
		j := bytes.Index(blk[i+1:], []byte("k0000")) + i + 1
		blk[i+5], blk[j+5] = blk[j+5], blk[i+5]
		return btx.Bucket(blocksBucket).Put(bk[:], blk)
	})
	bdb.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(path, Options{NoSync: true})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), `keyspace "t/1"`) {
		t.Fatalf("open of a file whose unsealed run is damaged: %v", err)
	}
}
