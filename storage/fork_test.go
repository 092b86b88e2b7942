package storage

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// spaceContents lists a keyspace as "k=v" pairs in key order.
func spaceContents(t *testing.T, sp *Space) string {
	t.Helper()
	var kvs []string
	c := sp.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		kvs = append(kvs, string(k)+"="+string(v))
	}
	return strings.Join(kvs, " ")
}

// checkContents fails t unless db's keyspaces names hold want, as
// "name: k=v k=v; name: ..." (spaceContents); when says at which point.
func checkContents(t *testing.T, db *DB, when, want string, names ...string) {
	t.Helper()
	err := db.View(func(tx *Tx) error {
		var parts []string
		for _, name := range names {
			parts = append(parts, name+": "+spaceContents(t, tx.Space(name)))
		}
		if got := strings.Join(parts, "; "); got != want {
			t.Errorf("%s: %s, want %s", when, got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// forkFixture makes keyspaces a, b and src, with a's and b's first keys in
// the file and the rest in the memtable, so a fork reads both.
func forkFixture(t *testing.T) (*DB, string, Options) {
	t.Helper()
	path := checkedPath(t, "fork.db")
	opts := Options{NoSync: true, CheckpointAfterIdle: time.Hour}
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	put := func(names []string, keys ...string) {
		t.Helper()
		err := db.Update(func(tx *Tx) error {
			for _, name := range names {
				sp := tx.Space(name)
				if sp == nil {
					var err error
					if sp, err = tx.CreateSpace(name); err != nil {
						return err
					}
				}
				for _, k := range keys {
					if err := sp.Put([]byte(k), []byte(name+k)); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	put([]string{"a", "b", "src"}, "k1", "k3")
	db.checkpointAll(t)
	put([]string{"a", "b"}, "k5", "k7")
	return db, path, opts
}

func TestForkJoinsItsChangesToTheTransaction(t *testing.T) {
	db, path, opts := forkFixture(t)
	err := db.Update(func(tx *Tx) error {
		// The parent has written src before forking: the fork may not
		// read it. It writes a after forking, which the fork does not see.
		if err := tx.Space("src").Put([]byte("k9"), []byte("src9")); err != nil {
			return err
		}
		if tx.Wrote("a") || !tx.Wrote("src") {
			t.Errorf("Wrote(a) = %v, Wrote(src) = %v before the fork, want false, true", tx.Wrote("a"), tx.Wrote("src"))
		}
		f, err := tx.Fork()
		if err != nil {
			return err
		}
		if err := tx.Space("a").Put([]byte("k2"), []byte("parent2")); err != nil {
			return err
		}
		fa, fb := f.Space("a"), f.Space("b")
		if got, want := spaceContents(t, fa), "k1=ak1 k3=ak3 k5=ak5 k7=ak7"; got != want {
			t.Errorf("the fork reads a as %q, want %q (what the parent had when it forked)", got, want)
		}
		for _, op := range []func() error{
			func() error { return fb.Put([]byte("k4"), []byte("fork4")) },
			func() error { return fb.Put([]byte("k1"), []byte("fork1")) },
			func() error { return fb.Delete([]byte("k5")) },
			func() error { return fb.Delete([]byte("k6")) }, // absent: nothing to hide
			func() error { return fa.Put([]byte("k8"), []byte("fork8")) },
		} {
			if err := op(); err != nil {
				return err
			}
		}
		if got, want := spaceContents(t, fb), "k1=fork1 k3=bk3 k4=fork4 k7=bk7"; got != want {
			t.Errorf("the fork reads b as %q after its writes, want %q", got, want)
		}
		if got, want := spaceContents(t, tx.Space("b")), "k1=bk1 k3=bk3 k5=bk5 k7=bk7"; got != want {
			t.Errorf("before the join the parent reads b as %q, want %q", got, want)
		}
		if err := tx.Join(f); err != nil {
			return err
		}
		if got, want := spaceContents(t, tx.Space("a")), "k1=ak1 k2=parent2 k3=ak3 k5=ak5 k7=ak7 k8=fork8"; got != want {
			t.Errorf("after the join the parent reads a as %q, want %q", got, want)
		}
		if err := tx.Join(f); !errors.Is(err, ErrTxClosed) {
			t.Errorf("a second join: %v, want ErrTxClosed", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "a: k1=ak1 k2=parent2 k3=ak3 k5=ak5 k7=ak7 k8=fork8; b: k1=fork1 k3=bk3 k4=fork4 k7=bk7; src: k1=srck1 k3=srck3 k9=src9"
	checkContents(t, db, "committed", want, "a", "b", "src")
	// The joined changes are in the parent's log record: a crash before
	// any checkpoint keeps them.
	db = crashAndReopen(t, db, path, opts)
	checkContents(t, db, "after a crash", want, "a", "b", "src")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestForkRules(t *testing.T) {
	db, _, _ := forkFixture(t)
	defer db.Close()
	err := db.Update(func(tx *Tx) error {
		if err := tx.Space("src").Put([]byte("k2"), []byte("x")); err != nil {
			return err
		}
		f, err := tx.Fork()
		if err != nil {
			return err
		}
		if _, err := f.Fork(); !errors.Is(err, ErrForkChange) {
			t.Errorf("fork of a fork: %v, want ErrForkChange", err)
		}
		if _, err := f.CreateSpace("c"); !errors.Is(err, ErrForkChange) {
			t.Errorf("CreateSpace in a fork: %v, want ErrForkChange", err)
		}
		if err := f.DropSpace("a"); !errors.Is(err, ErrForkChange) {
			t.Errorf("DropSpace in a fork: %v, want ErrForkChange", err)
		}
		if _, err := f.Space("a").NextSequence(); !errors.Is(err, ErrForkChange) {
			t.Errorf("NextSequence in a fork: %v, want ErrForkChange", err)
		}
		if err := f.Commit(); !errors.Is(err, ErrForkChange) {
			t.Errorf("Commit of a fork: %v, want ErrForkChange", err)
		}
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `"src"`) {
					t.Errorf("a fork reading what its parent wrote: recovered %v, want a panic naming src", r)
				}
			}()
			f.Space("src")
		}()
		if got, want := strings.Join(f.Spaces(""), " "), "a b"; got != want {
			t.Errorf("a fork's Spaces: %q, want %q (not src, which it may not read)", got, want)
		}
		if err := tx.Commit(); !errors.Is(err, ErrForkChange) {
			t.Errorf("Commit with a live fork: %v, want ErrForkChange", err)
		}
		// A fork rolled back leaves the parent as it was, and free to
		// commit.
		rolledBack := false
		f.OnRollback(func() { rolledBack = true })
		if err := f.Space("a").Put([]byte("k2"), []byte("gone")); err != nil {
			return err
		}
		if err := f.Rollback(); err != nil {
			return err
		}
		if !rolledBack {
			t.Error("a fork's Rollback did not run its OnRollback functions")
		}
		if err := tx.Join(f); !errors.Is(err, ErrTxClosed) {
			t.Errorf("join of a rolled-back fork: %v, want ErrTxClosed", err)
		}
		if got, want := spaceContents(t, tx.Space("a")), "k1=ak1 k3=ak3 k5=ak5 k7=ak7"; got != want {
			t.Errorf("after the fork's rollback the parent reads a as %q, want %q", got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestForkWorksBesideItsParent has a fork read and write keyspace b on its
// own goroutine while the parent writes a and b, which it had not written
// before the fork (as a flow's helper and session share a batch): the fork
// sees b as it was, and after the join b holds both's keys. Run with
// -race, it fails if the two share anything that changes.
func TestForkWorksBesideItsParent(t *testing.T) {
	db, _, _ := forkFixture(t)
	defer db.Close()
	const n = 2000
	err := db.Update(func(tx *Tx) error {
		if err := tx.Space("src").Put([]byte("k2"), []byte("x")); err != nil {
			return err
		}
		f, err := tx.Fork()
		if err != nil {
			return err
		}
		var wg sync.WaitGroup
		var forkErr error
		wg.Go(func() {
			fb := f.Space("b")
			for i := range n {
				if fb.Get([]byte("k3")) == nil || fb.Get([]byte("k5")) == nil {
					forkErr = errors.New("the fork lost a key of b")
					return
				}
				if fb.Get([]byte("p00000")) != nil {
					forkErr = errors.New("the fork saw the parent's write after the fork")
					return
				}
				if err := fb.Put(fmt.Appendf(nil, "f%05d", i), []byte("fork")); err != nil {
					forkErr = err
					return
				}
				if i%100 == 0 {
					c := fb.Cursor()
					for k, _ := c.First(); k != nil; k, _ = c.Next() {
					}
				}
			}
		})
		pa, pb := tx.Space("a"), tx.Space("b")
		for i := range n {
			for _, sp := range []*Space{pa, pb} {
				if err := sp.Put(fmt.Appendf(nil, "p%05d", i), []byte("parent")); err != nil {
					return err
				}
				if sp.Get([]byte("k3")) == nil {
					return errors.New("the parent lost a key")
				}
			}
		}
		wg.Wait()
		if forkErr != nil {
			return forkErr
		}
		if err := tx.Join(f); err != nil {
			return err
		}
		if got, want := tx.Space("a").Count(), n+4; got != want {
			t.Errorf("a holds %d keys, want %d", got, want)
		}
		if got, want := tx.Space("b").Count(), 2*n+4; got != want {
			t.Errorf("b holds %d keys, want %d", got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestJoinAdoptsAKeyspaceOnlyTheForkWrote: a keyspace the parent has only
// taken sequence numbers from while the fork put into it is taken over
// whole at the join (Tx.Join); the parent then goes on writing into it,
// and the result, committed and after a crash's replay of the log, is what
// one goroutine would have written.
func TestJoinAdoptsAKeyspaceOnlyTheForkWrote(t *testing.T) {
	db, path, opts := forkFixture(t)
	err := db.Update(func(tx *Tx) error {
		f, err := tx.Fork()
		if err != nil {
			return err
		}
		b := tx.Space("b")
		n, err := b.NextSequence()
		if err != nil {
			return err
		}
		fb := f.Space("b")
		for _, k := range []string{"k2", "k4"} {
			if err := fb.Put([]byte(k), []byte("fork"+k)); err != nil {
				return err
			}
		}
		if err := fb.Delete([]byte("k3")); err != nil {
			return err
		}
		c := b.Cursor()
		if k, _ := c.First(); string(k) != "k1" {
			t.Errorf("before the join the parent's cursor starts at %q, want k1", k)
		}
		if err := tx.Join(f); err != nil {
			return err
		}
		if !tx.ws.touched["b"].hasSeq || len(tx.ws.adopted) != 1 {
			t.Errorf("the join did not adopt b's tree (adopted %d arenas) or lost its sequence", len(tx.ws.adopted))
		}
		if k, _ := c.Next(); string(k) != "k2" {
			t.Errorf("after the join the parent's cursor moves to %q, want k2 (the fork's)", k)
		}
		if err := b.Put([]byte("k6"), []byte("parent6")); err != nil {
			return err
		}
		if m, err := b.NextSequence(); err != nil || m != n+1 {
			t.Errorf("sequence after the join: %d, %v; want %d", m, err, n+1)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "a: k1=ak1 k3=ak3 k5=ak5 k7=ak7; b: k1=bk1 k2=forkk2 k4=forkk4 k5=bk5 k6=parent6 k7=bk7"
	checkContents(t, db, "committed", want, "a", "b")
	seq := func(when string) {
		t.Helper()
		if err := db.View(func(tx *Tx) error {
			if got := tx.Space("b").Sequence(); got != 2 {
				t.Errorf("%s: b's sequence is %d, want 2", when, got)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	seq("committed")
	db = crashAndReopen(t, db, path, opts)
	checkContents(t, db, "after a crash", want, "a", "b")
	seq("after a crash")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestJoinOrdersTheForksChangesBetweenTheParents: when the parent and its
// forks write the same keyspace, a join puts the fork's changes after the
// parent's so far and before its later ones, for reads, for the commit and
// for the log record replayed after a crash.
func TestJoinOrdersTheForksChangesBetweenTheParents(t *testing.T) {
	db, path, opts := forkFixture(t)
	err := db.Update(func(tx *Tx) error {
		f, err := tx.Fork()
		if err != nil {
			return err
		}
		g, err := tx.Fork()
		if err != nil {
			return err
		}
		a, fa, ga := tx.Space("a"), f.Space("a"), g.Space("a")
		steps := []func() error{
			// f numbers b before a in its record, the parent a first.
			func() error { return f.Space("b").Put([]byte("k2"), []byte("f2")) },
			func() error { return a.Put([]byte("k2"), []byte("p2")) },
			func() error { return a.Put([]byte("k4"), []byte("p4")) },
			func() error { return a.Put([]byte("k6"), []byte("p6")) },
			func() error { return fa.Put([]byte("k4"), []byte("f4")) },
			func() error { return fa.Put([]byte("k6"), []byte("f6")) },
			func() error { return fa.Delete([]byte("k5")) },
			func() error { return fa.Put([]byte("k8"), []byte("f8")) },
			func() error { return ga.Put([]byte("k9"), []byte("g9")) },
			func() error { return ga.Put([]byte("k6"), []byte("g6")) },
			func() error { return tx.Join(f) },
			func() error { return a.Put([]byte("k8"), []byte("p8")) },
			func() error { return a.Delete([]byte("k2")) },
			func() error { return tx.Join(g) },
		}
		for i, step := range steps {
			if err := step(); err != nil {
				return fmt.Errorf("step %d: %w", i, err)
			}
		}
		if n := len(tx.ws.touched["a"].runs); n != 4 {
			t.Errorf("a has %d runs in the transaction, want 4 (the parent's writes before each join, and each fork's)", n)
		}
		want := "k1=ak1 k3=ak3 k4=f4 k6=g6 k7=ak7 k8=p8 k9=g9"
		if got := spaceContents(t, a); got != want {
			t.Errorf("after the joins the parent reads a as %q, want %q", got, want)
		}
		var backward []string
		c := a.Cursor()
		for k, v := c.Last(); k != nil; k, v = c.Prev() {
			backward = append([]string{string(k) + "=" + string(v)}, backward...)
		}
		if got := strings.Join(backward, " "); got != want {
			t.Errorf("read backward, a is %q, want %q", got, want)
		}
		for k, v := range map[string]string{"k2": "", "k4": "f4", "k5": "", "k6": "g6", "k8": "p8", "k9": "g9"} {
			if got := string(a.Get([]byte(k))); got != v {
				t.Errorf("Get(%s) = %q, want %q", k, got, v)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "a: k1=ak1 k3=ak3 k4=f4 k6=g6 k7=ak7 k8=p8 k9=g9; b: k1=bk1 k2=f2 k3=bk3 k5=bk5 k7=bk7"
	checkContents(t, db, "committed", want, "a", "b")
	db = crashAndReopen(t, db, path, opts)
	checkContents(t, db, "after a crash", want, "a", "b")
	db.checkpointAll(t)
	checkContents(t, db, "checkpointed", want, "a", "b")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}
