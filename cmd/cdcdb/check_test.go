package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdcdb/storage"
)

// TestCheckCommand: cdcdb check -data FILE exits 0 on a sound file, 1 on a
// damaged one, saying what is damaged, and 2 on a file it cannot check.
func TestCheckCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	db, err := storage.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *storage.Tx) error {
		sp, err := tx.CreateSpace("t/16384")
		if err != nil {
			return err
		}
		for i := range 200 {
			if err := sp.Put(fmt.Appendf(nil, "k%04d", i), fmt.Appendf(nil, "needle value %04d", i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	check := func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := runCheck(args, &out, &errOut)
		return code, out.String() + errOut.String()
	}
	// A file a server has open is not checked (nor read while it is
	// written, which could look like damage).
	if code, out := check("-data", path); code != checkCannotRun || !strings.Contains(out, "in use by another process") {
		t.Fatalf("check of a file in use: exit %d\n%s", code, out)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if code, out := check("-data", path); code != checkClean || !strings.Contains(out, "no damage found") || !strings.Contains(out, "1 keyspaces") {
		t.Fatalf("check of a sound file: exit %d\n%s", code, out)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Every copy of a value: the run's block, and the log record that
	// wrote it, which the checkpoint made stale.
	needle := []byte("needle value 0100")
	if bytes.Count(raw, needle) == 0 {
		t.Fatal("the value is not in the file")
	}
	raw = bytes.ReplaceAll(raw, needle, []byte("needle valuf 0100"))
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out := check("-data", path); code != checkDamaged || !strings.Contains(out, "DAMAGED") || !strings.Contains(out, `keyspace "t/16384": run 1, block 0: fails its checksum`) {
		t.Fatalf("check of a damaged file: exit %d\n%s", code, out)
	}
	if code, out := check("-data", filepath.Join(t.TempDir(), "none.db")); code != checkCannotRun || !strings.Contains(out, "cannot check") {
		t.Fatalf("check of no file: exit %d\n%s", code, out)
	}
	if code, _ := check("-data", path, "extra"); code != checkCannotRun {
		t.Fatalf("check with an extra argument: exit %d", code)
	}
}

// TestLogWriteFaultSpec: the test-only variable fails the N-th write of log
// records, before or after it, and nothing else; a malformed value is an
// error.
func TestLogWriteFaultSpec(t *testing.T) {
	if f, err := logWriteFault(""); f != nil || err != nil {
		t.Fatalf("no value: %v, %v", f != nil, err)
	}
	for spec, want := range map[string]storage.LogWriteFault{"before:3": storage.LogWriteFailsBefore, "after:3": storage.LogWriteFailsAfter} {
		f, err := logWriteFault(spec)
		if err != nil {
			t.Fatal(err)
		}
		var got []storage.LogWriteFault
		for range 5 {
			got = append(got, f(0, 512))
		}
		if fmt.Sprint(got) != fmt.Sprint([]storage.LogWriteFault{0, 0, want, 0, 0}) {
			t.Errorf("%s: %v", spec, got)
		}
	}
	for _, bad := range []string{"before", "during:1", "after:0", "after:x"} {
		if _, err := logWriteFault(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
