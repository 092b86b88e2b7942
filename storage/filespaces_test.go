package storage

import (
	"testing"
	"time"
)

// TestFileSpacesFollowTheSnapshot: whether a keyspace is in the file is
// remembered per state of the file, so a reader still on an older snapshot
// gets its snapshot's answer after a checkpoint created or dropped the
// keyspace, and readers after the checkpoint get the new answer, even when
// the old reader asks last.
func TestFileSpacesFollowTheSnapshot(t *testing.T) {
	db, err := Open(checkedPath(t, "spaces.db"), Options{NoSync: true, CheckpointAfterIdle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	update := func(fn func(tx *Tx) error) {
		t.Helper()
		if err := db.Update(fn); err != nil {
			t.Fatal(err)
		}
		db.checkpointAll(t)
	}
	exists := func(tx *Tx, name string) bool {
		t.Helper()
		return tx.Space(name) != nil
	}
	begin := func() *Tx {
		t.Helper()
		tx, err := db.Begin(false)
		if err != nil {
			t.Fatal(err)
		}
		return tx
	}

	update(func(tx *Tx) error {
		sp, err := tx.CreateSpace("a")
		if err != nil {
			return err
		}
		return sp.Put([]byte("k"), []byte("v"))
	})
	before := begin()
	defer before.Rollback()
	if !exists(before, "a") || exists(before, "b") {
		t.Fatal("before: want a and not b")
	}

	update(func(tx *Tx) error {
		if err := tx.DropSpace("a"); err != nil {
			return err
		}
		sp, err := tx.CreateSpace("b")
		if err != nil {
			return err
		}
		return sp.Put([]byte("k"), []byte("v"))
	})
	after := begin()
	defer after.Rollback()
	if exists(after, "a") || !exists(after, "b") {
		t.Error("after the checkpoint: want b and not a")
	}
	fresh := begin()
	defer fresh.Rollback()
	if exists(fresh, "a") || !exists(fresh, "b") {
		t.Error("a reader after the checkpoint: want b and not a")
	}
	// The old snapshot, asking after the newer state was remembered, and
	// about a keyspace it had not asked about.
	again := before.Space("a")
	if again == nil || string(again.Get([]byte("k"))) != "v" {
		t.Error("the old snapshot lost keyspace a")
	}
	if exists(before, "b") {
		t.Error("the old snapshot sees keyspace b, created after it began")
	}
}
