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

func TestWrittenKeysListsEachKeyTheTransactionWroteOnceInOrder(t *testing.T) {
	db := storagetest.Open(t)
	if err := db.Update(func(tx *storage.Tx) error {
		if _, err := tx.CreateSpace("a"); err != nil {
			return err
		}
		_, err := tx.CreateSpace("b")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		writes func(tx *storage.Tx) error
		want   string
	}{
		{"none", func(tx *storage.Tx) error { return nil }, ""},
		{"puts and deletes, some twice", func(tx *storage.Tx) error {
			sp := tx.Space("a")
			for _, k := range []string{"k3", "k1", "k3", "k2"} {
				if err := sp.Put([]byte(k), []byte("v")); err != nil {
					return err
				}
			}
			if err := tx.Space("b").Put([]byte("other"), nil); err != nil {
				return err
			}
			if err := sp.Put([]byte("k0"), []byte("v")); err != nil {
				return err
			}
			return sp.Delete([]byte("k0")) // a put undone is still a key written

		}, "-k0,k1,k2,k3,"},
		{"a fork's keys after its join", func(tx *storage.Tx) error {
			if err := tx.Space("a").Put([]byte("k5"), []byte("v")); err != nil {
				return err
			}
			f, err := tx.Fork()
			if err != nil {
				return err
			}
			if err := f.Space("b").Put([]byte("k4"), []byte("v")); err != nil {
				return err
			}
			if err := tx.Space("a").Put([]byte("k6"), []byte("v")); err != nil {
				return err
			}
			if err := tx.Join(f); err != nil {
				return err
			}
			return tx.Space("a").Put([]byte("k1"), []byte("v"))
		}, "k1,k5,k6,"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tx, err := db.Begin(true)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if err := tc.writes(tx); err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := tx.WrittenKeys("a", func(k, v []byte) error {
				if v == nil {
					got += "-"
				}
				got += string(k) + ","
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("WrittenKeys(a) = %q, want %q", got, tc.want)
			}
		})
	}
}
