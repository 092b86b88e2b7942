package storage_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"cdcdb/pgerror"
	"cdcdb/storage"
	"cdcdb/storage/storagetest"
)

func TestSpaceLifecycle(t *testing.T) {
	db := storagetest.Open(t)
	err := db.Update(func(tx *storage.Tx) error {
		if !tx.Writable() {
			t.Error("Update tx not writable")
		}
		for _, n := range []string{"t/b", "t/a", "u/x", "t/c"} {
			if _, err := tx.CreateSpace(n); err != nil {
				return err
			}
		}
		if _, err := tx.CreateSpace("t/a"); !errors.Is(err, storage.ErrSpaceExists) {
			t.Errorf("duplicate CreateSpace: %v, want ErrSpaceExists", err)
		} else if pgerror.CodeOf(err) != pgerror.DuplicateObject {
			t.Errorf("duplicate CreateSpace code %s", pgerror.CodeOf(err))
		}
		if got := fmt.Sprint(tx.Spaces("t/")); got != "[t/a t/b t/c]" {
			t.Errorf("Spaces(t/) = %s", got)
		}
		if got := fmt.Sprint(tx.Spaces("")); got != "[t/a t/b t/c u/x]" {
			t.Errorf("Spaces() = %s", got)
		}
		if tx.Space("nope") != nil {
			t.Error("Space(nope) != nil")
		}
		if err := tx.DropSpace("t/b"); err != nil {
			return err
		}
		if err := tx.DropSpace("t/b"); !errors.Is(err, storage.ErrSpaceNotFound) {
			t.Errorf("second DropSpace: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *storage.Tx) error {
		if got := fmt.Sprint(tx.Spaces("")); got != "[t/a t/c u/x]" {
			t.Errorf("after commit Spaces() = %s", got)
		}
		if _, err := tx.CreateSpace("v"); !errors.Is(err, storage.ErrTxNotWritable) {
			t.Errorf("CreateSpace in read tx: %v", err)
		}
		if err := tx.Space("t/a").Put([]byte("k"), []byte("v")); !errors.Is(err, storage.ErrTxNotWritable) {
			t.Errorf("Put in read tx: %v", err)
		}
		return nil
	})
}

func TestPutGetCursor(t *testing.T) {
	db := storagetest.Open(t)
	buf := make([]byte, 0, 16)
	err := db.Update(func(tx *storage.Tx) error {
		s, err := tx.CreateSpace("s")
		if err != nil {
			return err
		}
		for i := 0; i < 100; i++ {
			// Reuse one buffer: Put must copy.
			buf = fmt.Appendf(buf[:0], "k%03d", i)
			if err := s.Put(buf, buf); err != nil {
				return err
			}
		}
		if err := s.Put(nil, []byte("x")); !errors.Is(err, storage.ErrKeyRequired) {
			t.Errorf("Put(nil): %v", err)
		}
		if n, _ := s.NextSequence(); n != 1 {
			t.Errorf("NextSequence = %d", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *storage.Tx) error {
		s := tx.Space("s")
		if got := s.Get([]byte("k042")); string(got) != "k042" {
			t.Errorf("Get k042 = %q", got)
		}
		if s.Get([]byte("zz")) != nil {
			t.Error("Get absent != nil")
		}
		if s.Count() != 100 {
			t.Errorf("Count = %d", s.Count())
		}
		c := s.Cursor()
		n := 0
		var prev []byte
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if !bytes.Equal(k, v) || (prev != nil && bytes.Compare(prev, k) >= 0) {
				t.Errorf("cursor at %q=%q after %q", k, v, prev)
			}
			prev = append(prev[:0], k...)
			n++
		}
		if n != 100 {
			t.Errorf("cursor saw %d keys", n)
		}
		if k, _ := c.Seek([]byte("k0505")); string(k) != "k051" {
			t.Errorf("Seek = %q", k)
		}
		if k, _ := c.Prev(); string(k) != "k050" {
			t.Errorf("Prev = %q", k)
		}
		if k, _ := c.Last(); string(k) != "k099" {
			t.Errorf("Last = %q", k)
		}
		if s.Sequence() != 1 {
			t.Errorf("Sequence = %d", s.Sequence())
		}
		return nil
	})
	// Cursor.Delete of every other key.
	err = db.Update(func(tx *storage.Tx) error {
		c := tx.Space("s").Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			if k[3]%2 == 0 {
				if err := c.Delete(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *storage.Tx) error {
		if n := tx.Space("s").Count(); n != 50 {
			t.Errorf("after cursor delete Count = %d", n)
		}
		return nil
	})
}

func TestRollbackLeavesNothing(t *testing.T) {
	db := storagetest.Open(t)
	if err := db.Update(func(tx *storage.Tx) error {
		s, err := tx.CreateSpace("s")
		if err != nil {
			return err
		}
		return s.Put([]byte("keep"), []byte("1"))
	}); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("statement failed")
	err := db.Update(func(tx *storage.Tx) error {
		s := tx.Space("s")
		s.Put([]byte("lost"), []byte("2"))
		s.Delete([]byte("keep"))
		s.NextSequence()
		tx.CreateSpace("lost-space")
		return boom
	})
	if err != boom {
		t.Fatalf("Update returned %v", err)
	}
	func() {
		defer func() { recover() }()
		db.Update(func(tx *storage.Tx) error {
			tx.Space("s").Put([]byte("panic"), []byte("3"))
			panic("in statement")
		})
	}()
	tx, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	tx.Space("s").Put([]byte("explicit"), nil)
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Errorf("second Rollback: %v", err)
	}
	if err := tx.Commit(); !errors.Is(err, storage.ErrTxClosed) {
		t.Errorf("Commit after Rollback: %v", err)
	}
	db.View(func(tx *storage.Tx) error {
		s := tx.Space("s")
		if string(s.Get([]byte("keep"))) != "1" || s.Count() != 1 || s.Sequence() != 0 {
			t.Errorf("rolled-back changes are visible: count %d seq %d", s.Count(), s.Sequence())
		}
		if tx.Space("lost-space") != nil {
			t.Error("rolled-back CreateSpace is visible")
		}
		return nil
	})
}

func TestCommitThenRollbackIsNoop(t *testing.T) {
	db := storagetest.Open(t)
	tx, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := tx.CreateSpace("s")
	s.Put([]byte("a"), []byte("b"))
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Errorf("Rollback after Commit: %v", err)
	}
	db = storagetest.Reopen(t, db)
	db.View(func(tx *storage.Tx) error {
		if string(tx.Space("s").Get([]byte("a"))) != "b" {
			t.Error("committed value lost across reopen")
		}
		return nil
	})
}

func TestSnapshotIsolationAndSingleWriter(t *testing.T) {
	db := storagetest.Open(t)
	db.Update(func(tx *storage.Tx) error {
		s, _ := tx.CreateSpace("s")
		return s.Put([]byte("k"), []byte("old"))
	})
	reader, err := db.Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Rollback()

	w1, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	w1.Space("s").Put([]byte("k"), []byte("new"))
	started := make(chan struct{})
	got := make(chan string)
	go func() {
		close(started)
		w2, err := db.Begin(true) // blocks until w1 ends
		if err != nil {
			got <- err.Error()
			return
		}
		defer w2.Rollback()
		got <- string(w2.Space("s").Get([]byte("k")))
	}()
	<-started
	select {
	case v := <-got:
		t.Fatalf("second writer did not wait: %q", v)
	case <-time.After(50 * time.Millisecond):
	}
	if err := w1.Commit(); err != nil {
		t.Fatal(err)
	}
	if v := <-got; v != "new" {
		t.Errorf("second writer saw %q", v)
	}
	if v := string(reader.Space("s").Get([]byte("k"))); v != "old" {
		t.Errorf("snapshot reader saw %q", v)
	}
}

func TestReadOnlyOpen(t *testing.T) {
	db := storagetest.Open(t)
	path := db.Path()
	db.Update(func(tx *storage.Tx) error { _, err := tx.CreateSpace("s"); return err })
	db.Close()
	ro, err := storage.Open(path, storage.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.Begin(true); !errors.Is(err, storage.ErrDatabaseReadOnly) {
		t.Errorf("Begin(true) on read-only: %v", err)
	}
	ro.View(func(tx *storage.Tx) error {
		if tx.Space("s") == nil {
			t.Error("space missing in read-only open")
		}
		return nil
	})
}
