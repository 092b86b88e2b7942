package storage

import (
	"fmt"
	"testing"
	"time"
)

// TestFiltersForPointReadKeyspaces checks which runs get a Bloom filter
// (pointreads.go): a keyspace written in bulk and never point-read gets
// none, one whose every put follows a Get (an INSERT into a table with a
// primary key) gets them, Gets through unfiltered runs find what they
// should, a keyspace that starts being point-read gets filters in its next
// runs, and a keyspace dropped and made again starts afresh.
func TestFiltersForPointReadKeyspaces(t *testing.T) {
	db, err := Open(checkedPath(t, "filters.db"), Options{NoSync: true, CheckpointAfterIdle: time.Hour, blockSize: 256})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	key := func(i int) []byte { return fmt.Appendf(nil, "k%05d", i) }
	// runs says of each of a keyspace's runs, newest first, whether it
	// has a filter.
	runs := func(name string) (filtered []bool) {
		t.Helper()
		err := db.View(func(tx *Tx) error {
			for _, r := range tx.Space(name).fileRuns {
				filtered = append(filtered, len(r.filter.bits) > 0)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return filtered
	}
	write := func(from, to int, pkGets bool) {
		t.Helper()
		err := db.Update(func(tx *Tx) error {
			bulk, err := spaceOrCreate(tx, "bulk")
			if err != nil {
				return err
			}
			pk, err := spaceOrCreate(tx, "pk")
			if err != nil {
				return err
			}
			for i := from; i < to; i++ {
				if err := bulk.Put(key(i), []byte("v")); err != nil {
					return err
				}
				if pkGets && pk.Get(key(i)) != nil {
					return fmt.Errorf("pk holds %s already", key(i))
				}
				if err := pk.Put(key(i), []byte("v")); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		db.checkpointAll(t)
	}
	for r := range 3 {
		write(r*500, (r+1)*500, true)
	}
	if got := runs("bulk"); len(got) == 0 || got[0] {
		t.Fatalf("bulk keyspace's runs filtered: %v, want none", got)
	}
	if got := runs("pk"); len(got) == 0 || !got[0] {
		t.Fatalf("point-read keyspace's runs filtered: %v, want all", got)
	}

	// Gets through unfiltered runs: every key present found, absent ones
	// not. 400 Gets for 1500 entries is more than one in 16.
	err = db.View(func(tx *Tx) error {
		sp := tx.Space("bulk")
		for i := 0; i < 1500; i += 5 {
			if v := sp.Get(key(i)); string(v) != "v" {
				return fmt.Errorf("Get %s = %q, want v", key(i), v)
			}
		}
		for i := 1500; i < 1600; i++ {
			if v := sp.Get(key(i)); v != nil {
				return fmt.Errorf("Get %s = %q, want nothing", key(i), v)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	write(1500, 1600, false)
	if got := runs("bulk"); !got[0] {
		t.Fatalf("bulk keyspace's runs filtered once point-read: %v, want the newest", got)
	}

	// Made again, a keyspace starts with nothing known.
	err = db.Update(func(tx *Tx) error {
		if err := tx.DropSpace("pk"); err != nil {
			return err
		}
		sp, err := tx.CreateSpace("pk")
		if err != nil {
			return err
		}
		for i := range 1000 {
			if err := sp.Put(key(i), []byte("w")); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.checkpointAll(t)
	if got := runs("pk"); len(got) != 1 || got[0] {
		t.Fatalf("runs of the keyspace made again: filtered %v, want one without", got)
	}
}
