package storage_test

import (
	"testing"

	"cdcdb/storage"
	"cdcdb/storage/storagetest"
)

func TestChangedAfterNamesTheKeyspacesLaterCommitsChanged(t *testing.T) {
	db := storagetest.Open(t)
	update := func(fn func(tx *storage.Tx) error) {
		t.Helper()
		if err := db.Update(fn); err != nil {
			t.Fatal(err)
		}
	}
	put := func(name string) func(tx *storage.Tx) error {
		return func(tx *storage.Tx) error { return tx.Space(name).Put([]byte("k"), []byte(name)) }
	}
	update(func(tx *storage.Tx) error {
		for _, n := range []string{"a", "b", "c", "d"} {
			if _, err := tx.CreateSpace(n); err != nil {
				return err
			}
		}
		return nil
	})
	snap, err := db.Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Rollback()
	at := snap.Version()

	update(put("b"))
	update(func(tx *storage.Tx) error { // c made again: its old contents are gone
		if err := tx.DropSpace("c"); err != nil {
			return err
		}
		_, err := tx.CreateSpace("c")
		return err
	})
	update(func(tx *storage.Tx) error { return tx.DropSpace("d") })
	update(func(tx *storage.Tx) error { // a write transaction that only reads a
		tx.Space("a").Get([]byte("k"))
		return tx.Space("b").Put([]byte("k2"), []byte("b"))
	})

	w, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Rollback()
	for name, want := range map[string]bool{"a": false, "b": true, "c": true, "d": false, "never": false} {
		if got := w.ChangedAfter(name, at); got != want {
			t.Errorf("ChangedAfter(%q, snapshot) = %v, want %v", name, got, want)
		}
	}
	if w.ChangedAfter("b", w.Version()) {
		t.Error("b changed after the head the writer builds on")
	}
}
