package storage_test

import (
	"errors"
	"fmt"
	"maps"
	"math/rand"
	"testing"
	"time"

	"cdcdb/storage"
	"cdcdb/storage/storagetest"
)

// markModel is the reference a transaction with marks is held to: each
// keyspace's keys and values and its sequence, copied at each mark.
type markModel struct {
	spaces map[string]map[string]string
	seqs   map[string]uint64
}

func (m markModel) clone() markModel {
	c := markModel{spaces: map[string]map[string]string{}, seqs: maps.Clone(m.seqs)}
	for name, kv := range m.spaces {
		c.spaces[name] = maps.Clone(kv)
	}
	return c
}

// TestRollbackToMarkProperty makes random puts, deletes, sequence steps,
// keyspace creations and drops, forks joined, marks and rollbacks to marks in write
// transactions, and checks after each step, after each commit and after a
// reopen (which replays the log records) that the database holds what the
// reference model says.
func TestRollbackToMarkProperty(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	db := storagetest.Open(t)
	committed := markModel{spaces: map[string]map[string]string{}, seqs: map[string]uint64{}}
	names := []string{"a", "b", "c"}
	joins, rollbacks := 0, 0
	check := func(tx *storage.Tx, want markModel, when string) {
		t.Helper()
		for _, name := range names {
			sp := tx.Space(name)
			kv, ok := want.spaces[name]
			if (sp != nil) != ok {
				t.Fatalf("%s: keyspace %s exists %v, want %v", when, name, sp != nil, ok)
			}
			if sp == nil {
				continue
			}
			got := map[string]string{}
			c := sp.Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				got[string(k)] = string(v)
			}
			if !maps.Equal(got, kv) {
				t.Fatalf("%s: keyspace %s holds %v, want %v", when, name, got, kv)
			}
			if sp.Sequence() != want.seqs[name] {
				t.Fatalf("%s: keyspace %s sequence %d, want %d", when, name, sp.Sequence(), want.seqs[name])
			}
		}
	}
	for round := 0; round < 40; round++ {
		tx, err := db.Begin(true)
		if err != nil {
			t.Fatal(err)
		}
		cur := committed.clone()
		type savedMark struct {
			mark  storage.Mark
			state markModel
		}
		var marks []savedMark
		for step := 0; step < 60; step++ {
			name := names[rng.Intn(len(names))]
			sp := tx.Space(name)
			switch op := rng.Intn(10); {
			case sp == nil:
				if _, err := tx.CreateSpace(name); err != nil {
					t.Fatal(err)
				}
				cur.spaces[name], cur.seqs[name] = map[string]string{}, 0
			case op < 4:
				k, v := fmt.Sprintf("k%d", rng.Intn(20)), fmt.Sprintf("v%d-%d", round, step)
				if err := sp.Put([]byte(k), []byte(v)); err != nil {
					t.Fatal(err)
				}
				cur.spaces[name][k] = v
			case op < 5:
				k := fmt.Sprintf("k%d", rng.Intn(20))
				if err := sp.Delete([]byte(k)); err != nil {
					t.Fatal(err)
				}
				delete(cur.spaces[name], k)
			case op < 6:
				n, err := sp.NextSequence()
				if err != nil {
					t.Fatal(err)
				}
				cur.seqs[name] = n
			case op < 7 && rng.Intn(4) == 0:
				if err := tx.DropSpace(name); err != nil {
					t.Fatal(err)
				}
				delete(cur.spaces, name)
				delete(cur.seqs, name)
			case op < 8:
				m, err := tx.Mark()
				if err != nil {
					t.Fatal(err)
				}
				marks = append(marks, savedMark{m, cur.clone()})
			case op == 9 && !tx.Wrote(name):
				// A fork's puts, joined: the record gets the fork's own,
				// between renumberings, which a rollback must cut right.
				f, err := tx.Fork()
				if err != nil {
					t.Fatal(err)
				}
				fsp := f.Space(name)
				for i := rng.Intn(4); i >= 0; i-- {
					k, v := fmt.Sprintf("k%d", rng.Intn(20)), fmt.Sprintf("f%d-%d-%d", round, step, i)
					if err := fsp.Put([]byte(k), []byte(v)); err != nil {
						t.Fatal(err)
					}
					cur.spaces[name][k] = v
				}
				if err := tx.Join(f); err != nil {
					t.Fatal(err)
				}
				joins++
			case op < 9 && len(marks) > 0:
				i := rng.Intn(len(marks))
				if err := tx.RollbackTo(marks[i].mark); err != nil {
					t.Fatal(err)
				}
				marks = marks[:i+1] // later marks are gone, as later savepoints are
				rollbacks++
				cur = marks[i].state.clone()
			}
			check(tx, cur, fmt.Sprintf("round %d step %d", round, step))
		}
		if rng.Intn(4) == 0 {
			if err := tx.Rollback(); err != nil {
				t.Fatal(err)
			}
		} else {
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			committed = cur
		}
		if err := db.View(func(tx *storage.Tx) error {
			check(tx, committed, fmt.Sprintf("after round %d", round))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d forks joined, %d rollbacks to a mark", joins, rollbacks)
	if joins == 0 || rollbacks == 0 {
		t.Errorf("%d forks joined, %d rollbacks to a mark: the test does not exercise them", joins, rollbacks)
	}
	db = storagetest.Reopen(t, db)
	if err := db.View(func(tx *storage.Tx) error {
		check(tx, committed, "after reopen")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func TestRollbackToRefusesOtherTransactionsMark(t *testing.T) {
	db := storagetest.Open(t)
	tx, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tx.Mark()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	tx2, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	defer tx2.Rollback()
	if err := tx2.RollbackTo(m); !errors.Is(err, storage.ErrMarkInvalid) {
		t.Errorf("RollbackTo another transaction's mark: %v", err)
	}
	ro, err := db.Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Rollback()
	if _, err := ro.Mark(); !errors.Is(err, storage.ErrTxNotWritable) {
		t.Errorf("Mark in a read transaction: %v", err)
	}
}

func TestRollbackToRunsHooksAndRefusesLiveForks(t *testing.T) {
	db := storagetest.Open(t)
	tx, err := db.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	sp, err := tx.CreateSpace("s")
	if err != nil {
		t.Fatal(err)
	}
	m, err := tx.Mark()
	if err != nil {
		t.Fatal(err)
	}
	hooks := 0
	tx.OnRollbackTo(func() { hooks++ })
	sp.Put([]byte("k"), []byte("v"))
	fork, err := tx.Fork()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Mark(); !errors.Is(err, storage.ErrMarkInvalid) {
		t.Errorf("Mark with a live fork: %v", err)
	}
	if err := tx.RollbackTo(m); !errors.Is(err, storage.ErrMarkInvalid) {
		t.Errorf("RollbackTo with a live fork: %v", err)
	}
	if _, err := fork.Mark(); err == nil {
		t.Error("Mark in a fork succeeded")
	}
	if err := fork.Rollback(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := tx.RollbackTo(m); err != nil {
			t.Fatal(err)
		}
	}
	if hooks != 2 {
		t.Errorf("OnRollbackTo ran %d times, want 2", hooks)
	}
	if got := sp.Get([]byte("k")); got != nil {
		t.Errorf("a put after the mark is still there: %q", got)
	}
	if tx.Space("s") == nil {
		t.Error("the keyspace made before the mark is gone")
	}
}
