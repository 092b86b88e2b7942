package storage

import (
	"testing"
)

func TestGetCommittedLeavesOutTheWritersOwnChanges(t *testing.T) {
	db, err := Open(checkedPath(t, "db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *Tx) error {
		sp, err := tx.CreateSpace("s")
		if err != nil {
			return err
		}
		return sp.Put([]byte("k"), []byte("old"))
	}); err != nil {
		t.Fatal(err)
	}
	db.checkpointAll(t) // the committed value comes from the file's runs
	w, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Rollback()
	sp := w.Space("s")
	if err := sp.Put([]byte("k"), []byte("mine")); err != nil {
		t.Fatal(err)
	}
	if err := sp.Put([]byte("new"), []byte("mine")); err != nil {
		t.Fatal(err)
	}
	if got := string(sp.Get([]byte("k"))); got != "mine" {
		t.Fatalf("Get = %q", got)
	}
	if got := string(sp.GetCommitted([]byte("k"))); got != "old" {
		t.Errorf("GetCommitted(k) = %q, want the committed %q", got, "old")
	}
	if got := sp.GetCommitted([]byte("new")); got != nil {
		t.Errorf("GetCommitted(new) = %q, want nothing: only this writer wrote it", got)
	}
}
