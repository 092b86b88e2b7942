package history

import (
	"encoding/binary"

	"cdcdb/storage"
)

// ProvisionalCommitTime is the commit time a write transaction that does
// not know its commit time yet (a detached one, which learns it only when
// it commits) writes its versions at: above every real commit time, so
// that the versions it supersedes, whoever committed them, end before it
// and the ones it wrote itself are known as its own. Restamp moves them to
// the real time before the commit.
const ProvisionalCommitTime int64 = 1 << 62

// Restamp moves the versions the write transaction started or ended at
// commit time from in table's spaces (its current rows, and the archived
// versions it ended) to commit time to. Only the transaction's own
// changes are visited, so its cost is that of what it wrote.
func Restamp(tx *storage.Tx, table uint32, from, to int64) error {
	type entry struct{ key, value []byte }
	var moved []entry
	collect := func(space string, fn func(key, value []byte) (entry, bool)) error {
		moved = moved[:0]
		err := tx.PendingEntries(space, func(key, value []byte, live bool) error {
			if !live {
				return nil
			}
			if e, ok := fn(key, value); ok {
				moved = append(moved, e)
			}
			return nil
		})
		return err
	}
	// Current rows: the start at the head of the value (its flag kept).
	if err := collect(DataSpace(table), func(key, value []byte) (entry, bool) {
		if len(value) < 8 || Start(value) != from {
			return entry{}, false
		}
		v := append([]byte(nil), value...)
		head := binary.BigEndian.Uint64(v)
		binary.BigEndian.PutUint64(v, uint64(to)|head&previousFlag)
		return entry{append([]byte(nil), key...), v}, true
	}); err != nil {
		return err
	}
	if err := putAll(tx.Space(DataSpace(table)), moved, func(sp *storage.Space, e entry) error { return sp.Put(e.key, e.value) }); err != nil {
		return err
	}
	// A key's archived versions: rowKey+start -> end+tuple.
	if err := collect(byKeySpace(table), func(key, value []byte) (entry, bool) {
		if len(value) < 8 || int64(binary.BigEndian.Uint64(value)) != from {
			return entry{}, false
		}
		v := binary.BigEndian.AppendUint64(nil, uint64(to))
		return entry{append([]byte(nil), key...), append(v, value[8:]...)}, true
	}); err != nil {
		return err
	}
	if err := putAll(tx.Space(byKeySpace(table)), moved, func(sp *storage.Space, e entry) error { return sp.Put(e.key, e.value) }); err != nil {
		return err
	}
	// Versions by end: end+rowKey+start, the end in the key.
	if err := collect(byEndSpace(table), func(key, _ []byte) (entry, bool) {
		if len(key) < 8 || int64(binary.BigEndian.Uint64(key)) != from {
			return entry{}, false
		}
		return entry{key: append([]byte(nil), key...)}, true
	}); err != nil {
		return err
	}
	return putAll(tx.Space(byEndSpace(table)), moved, func(sp *storage.Space, e entry) error {
		if err := sp.Delete(e.key); err != nil {
			return err
		}
		k := binary.BigEndian.AppendUint64(nil, uint64(to))
		return sp.Put(append(k, e.key[8:]...), nil)
	})
}

// putAll applies fn to each entry in sp (nothing when there are none, so
// a missing keyspace is not an error then).
func putAll[E any](sp *storage.Space, entries []E, fn func(*storage.Space, E) error) error {
	if len(entries) == 0 {
		return nil
	}
	for _, e := range entries {
		if err := fn(sp, e); err != nil {
			return err
		}
	}
	return nil
}
