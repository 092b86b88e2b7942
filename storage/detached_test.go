package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"cdcdb/storage"
	"cdcdb/storage/storagetest"
)

// TestDetachedWriters runs two detached write transactions beside each
// other and beside an attached writer: neither waits for the others until
// it commits, each reads its snapshot with its own changes, sequences never
// hand out a number twice, Refresh shows what was committed since, and both
// commits keep everything every transaction wrote.
func TestDetachedWriters(t *testing.T) {
	db := storagetest.Open(t)
	if err := db.Update(func(tx *storage.Tx) error {
		sp, err := tx.CreateSpace("k")
		if err != nil {
			return err
		}
		return sp.Put([]byte("base"), []byte("0"))
	}); err != nil {
		t.Fatal(err)
	}
	a, err := db.BeginDetached()
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.BeginDetached()
	if err != nil {
		t.Fatal(err)
	}
	if !a.Detached() || !a.Writable() {
		t.Fatal("a detached transaction reports itself as not detached or not writable")
	}
	// An attached writer begins and commits while both are open.
	w, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Space("k").Put([]byte("w"), []byte("w1")); err != nil {
		t.Fatal(err)
	}
	na, err := a.Space("k").NextSequence()
	if err != nil {
		t.Fatal(err)
	}
	nb, err := b.Space("k").NextSequence()
	if err != nil {
		t.Fatal(err)
	}
	nw, err := w.Space("k").NextSequence()
	if err != nil {
		t.Fatal(err)
	}
	if na == nb || na == nw || nb == nw {
		t.Fatalf("sequence numbers drawn twice: a %d, b %d, attached %d", na, nb, nw)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := a.Space("k").Put([]byte("a"), []byte("a1")); err != nil {
		t.Fatal(err)
	}
	if err := b.Space("k").Put([]byte("b"), []byte("b1")); err != nil {
		t.Fatal(err)
	}
	if got := a.Space("k").Get([]byte("b")); got != nil {
		t.Fatalf("a sees b's uncommitted put: %q", got)
	}
	if got := a.Space("k").Get([]byte("w")); got != nil {
		t.Fatalf("a sees a commit newer than its snapshot before Refresh: %q", got)
	}
	if err := a.Refresh(); err != nil {
		t.Fatal(err)
	}
	if got := string(a.Space("k").Get([]byte("w"))); got != "w1" {
		t.Fatalf("after Refresh a reads w = %q, want w1", got)
	}
	if got := string(a.Space("k").Get([]byte("a"))); got != "a1" {
		t.Fatalf("after Refresh a lost its own put: %q", got)
	}
	// While b is attached, a cannot attach; its context's end says so.
	if err := b.Attach(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	err = a.Attach(ctx)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || !a.Detached() {
		t.Fatalf("attach while another writer holds the slot: %v (detached %v)", err, a.Detached())
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := db.View(func(tx *storage.Tx) error {
		sp := tx.Space("k")
		for k, want := range map[string]string{"base": "0", "w": "w1", "a": "a1", "b": "b1"} {
			if got := string(sp.Get([]byte(k))); got != want {
				t.Errorf("%s = %q, want %q", k, got, want)
			}
		}
		if seq := sp.Sequence(); seq != max(na, nb, nw) {
			t.Errorf("sequence after the commits %d, want the largest drawn, %d", seq, max(na, nb, nw))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// A detached transaction rolled back, or committed with nothing to
	// publish, never takes the slot: a writer holding it does not stop it.
	w, err = db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.BeginDetached()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Commit(); err != nil {
		t.Fatal(err)
	}
	c, err = db.BeginDetached()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Space("k").Put([]byte("c"), []byte("c1")); err != nil {
		t.Fatal(err)
	}
	if err := c.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := w.Rollback(); err != nil {
		t.Fatal(err)
	}
}

// TestParkedDetachedWriterReadsTheNewestState parks a detached transaction
// (its snapshot of the file let go, as between READ COMMITTED statements)
// and reads through a Space taken before: the read moves it onto the
// newest durable state, with its own changes still on top.
func TestParkedDetachedWriterReadsTheNewestState(t *testing.T) {
	db := storagetest.Open(t)
	if err := db.Update(func(tx *storage.Tx) error {
		_, err := tx.CreateSpace("k")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	d, err := db.BeginDetached()
	if err != nil {
		t.Fatal(err)
	}
	sp := d.Space("k")
	if err := sp.Put([]byte("mine"), []byte("1")); err != nil {
		t.Fatal(err)
	}
	d.Park()
	if err := db.Update(func(tx *storage.Tx) error {
		return tx.Space("k").Put([]byte("theirs"), []byte("2"))
	}); err != nil {
		t.Fatal(err)
	}
	if got := string(sp.Get([]byte("theirs"))); got != "2" {
		t.Fatalf("a parked transaction's next read sees theirs = %q, want the newest commit's 2", got)
	}
	if got := string(sp.Get([]byte("mine"))); got != "1" {
		t.Fatalf("a parked transaction lost its own put: %q", got)
	}
	d.Park()
	if got := d.Spaces(""); len(got) != 1 || got[0] != "k" {
		t.Fatalf("Spaces after parking: %v", got)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := db.View(func(tx *storage.Tx) error {
		if got := string(tx.Space("k").Get([]byte("mine"))); got != "1" {
			t.Errorf("after commit mine = %q", got)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
