package history

import (
	"testing"

	"cdcdb/rowcodec"
	"cdcdb/storage"
	"cdcdb/storage/storagetest"
	"cdcdb/types"
)

// BenchmarkChangesWindow reads the latest 10 commits' 1,000 changes of a
// table of 1,000 keys with 20 versions each.
func BenchmarkChangesWindow(b *testing.B) {
	db := storagetest.Open(b)
	const table = 9
	now := int64(1_000_000)
	keyOf := func(i int) []byte { k, _ := rowcodec.AppendKey(nil, int64(i)); return k }
	for round := 0; round < 20; round++ {
		for lo := 0; lo < 1000; lo += 100 {
			now += 10
			err := db.Update(func(tx *storage.Tx) error {
				if err := Create(tx, table); err != nil {
					return err
				}
				tb, err := Open(tx, table, now, true, false)
				if err != nil {
					return err
				}
				for i := lo; i < lo+100; i++ {
					if err := tb.Put(keyOf(i), []types.Value{int64(i), int64(round)}); err != nil {
						return err
					}
				}
				return LogChanges(tx, table, now)
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	from := now - 95
	b.ResetTimer()
	for b.Loop() {
		n := 0
		err := db.View(func(tx *storage.Tx) error {
			return Changes(tx, table, from, now, func(Change) error { n++; return nil })
		})
		if err != nil || n != 1000 {
			b.Fatal(n, err)
		}
	}
}
