package history

import (
	"testing"

	"cdcdb/rowcodec"
	"cdcdb/storage"
	"cdcdb/storage/storagetest"
	"cdcdb/types"
)

// TestRestampMovesTheTransactionsVersions writes at the provisional commit
// time (an update that archives a committed version, an insert, a row
// written twice) in a detached transaction, restamps to the real time and
// commits: point and whole-table AS OF reads on either side of it, and the
// versions by end, see the transaction at the real time only.
func TestRestampMovesTheTransactionsVersions(t *testing.T) {
	const table = 7
	db := storagetest.Open(t)
	key := func(i int64) []byte { k, _ := rowcodec.AppendKey(nil, i); return k }
	if err := db.Update(func(tx *storage.Tx) error {
		if err := Create(tx, table); err != nil {
			return err
		}
		tb, err := Open(tx, table, 100, true, false)
		if err != nil {
			return err
		}
		return tb.Put(key(1), []types.Value{int64(10)})
	}); err != nil {
		t.Fatal(err)
	}
	tx, err := db.BeginDetached()
	if err != nil {
		t.Fatal(err)
	}
	tb, err := Open(tx, table, ProvisionalCommitTime, true, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		k, v int64
	}{{1, 11}, {2, 20}, {2, 21}} {
		if err := tb.Put(key(w.k), []types.Value{w.v}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Attach(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := Restamp(tx, table, ProvisionalCommitTime, 200); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := db.View(func(tx *storage.Tx) error {
		for _, c := range []struct {
			k, at int64
			want  int64 // -1: no version
			start int64
		}{{1, 150, 10, 100}, {1, 199, 10, 100}, {1, 200, 11, 200}, {2, 199, -1, 0}, {2, 200, 21, 200}} {
			v, ok, err := GetAsOf(tx, table, key(c.k), c.at)
			if err != nil {
				return err
			}
			if !ok {
				if c.want != -1 {
					t.Errorf("key %d AS OF %d: no version, want %d", c.k, c.at, c.want)
				}
				continue
			}
			if c.want == -1 || v.Tuple[0] != c.want || v.Start != c.start {
				t.Errorf("key %d AS OF %d: %v from %d, want %d from %d", c.k, c.at, v.Tuple, v.Start, c.want, c.start)
			}
		}
		for at, want := range map[int64]int{150: 1, 250: 2} {
			n := 0
			if err := ScanAsOf(tx, table, at, func(v Version) error {
				if at == 150 && (v.Tuple[0] != int64(10) || v.End != 200) {
					t.Errorf("AS OF 150: %v [%d, %d), want 10 ending at 200", v.Tuple, v.Start, v.End)
				}
				n++
				return nil
			}); err != nil {
				return err
			}
			if n != want {
				t.Errorf("AS OF %d: %d rows, want %d", at, n, want)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
