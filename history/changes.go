package history

import (
	"encoding/binary"
	"math"
	"strconv"

	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/storage"
	"cdcdb/types"
)

// The change log: what each commit changed of a table, so that a question
// about a window of commits (the change feed, cdcdb.table_changes) costs
// what the window holds, not what the table's history holds. The versions
// themselves are in the history spaces already; the log only names, per
// commit, the keys whose version that commit started or ended:
//
//	c/<table>  commit time (8 bytes, big-endian) + part (4 bytes) -> keys
//
// where keys is, for each key, its length (uvarint), its bytes and the
// start of the version the commit ended (uvarint, 0 for none), and a commit
// that changed many keys spreads them over parts of at most maxLogEntry
// bytes. The change of one key at commit time ts is then the version that
// started at ts (after) and the one that ended at ts (before, found by its
// start), each a point read: nothing is searched, so the cost of a change
// does not grow with the key's history.
//
// A table made since the log existed has it from its first commit on. A
// table made before gets its log at its first write since: metaSpace's
// logStartKey records that commit time, and the log answers only from it.
// Prune removes the log's entries with the versions they name.

// changeLogSpace names a table's change log.
func changeLogSpace(table uint32) string { return "c/" + strconv.FormatUint(uint64(table), 10) }

// logStartKey is the key in metaSpace of the commit time a table's change
// log started at, for tables made before the log existed (absent: the log
// covers the table's whole life).
func logStartKey(table uint32) []byte {
	return []byte("changelog/" + strconv.FormatUint(uint64(table), 10))
}

// logPrunedKey is the key in metaSpace of the commit time from which a
// table's change log is whole again after Prune removed entries: one past
// the latest entry removed.
func logPrunedKey(table uint32) []byte {
	return []byte("changelog-pruned/" + strconv.FormatUint(uint64(table), 10))
}

// maxLogEntry bounds the keys one log entry holds, in bytes, so that a
// commit of a million rows writes many moderate values, not one huge one.
const maxLogEntry = 32 << 10

// Change is one key's change in one commit: the version the commit ended
// (Before, nil for an insert) and the one it started (After, nil for a
// delete).
type Change struct {
	Commit        int64 // the commit time, microseconds since the Unix epoch
	Key           []byte
	Before, After []types.Value
}

// LogChanges records in a table's change log the keys whose versions the
// write transaction, committing at now, started or ended. Called once per
// table the transaction wrote, just before its commit; a table the
// transaction dropped is skipped. Tables whose history is not kept by
// commit time (Open's keep) have no change log.
func LogChanges(tx *storage.Tx, table uint32, now int64) error {
	data := tx.Space(DataSpace(table))
	if data == nil {
		return nil
	}
	log := tx.Space(changeLogSpace(table))
	if log == nil {
		var err error
		if log, err = tx.CreateSpace(changeLogSpace(table)); err != nil {
			return err
		}
		meta, err := metaSpaceOf(tx)
		if err != nil {
			return err
		}
		// A table older than the log: its changes are known from now on.
		if err := meta.Put(logStartKey(table), binary.BigEndian.AppendUint64(nil, uint64(now))); err != nil {
			return err
		}
	}
	ended, err := endedAt(tx, table, now)
	if err != nil {
		return err
	}
	var entry []byte
	part := uint32(0)
	flush := func() error {
		if len(entry) == 0 {
			return nil
		}
		k := binary.BigEndian.AppendUint64(make([]byte, 0, 12), uint64(now))
		k = binary.BigEndian.AppendUint32(k, part)
		part++
		err := log.Put(k, entry)
		entry = entry[:0]
		return err
	}
	err = tx.WrittenKeys(DataSpace(table), func(key, value []byte) error {
		if !changedAt(data, key, value, now) {
			return nil
		}
		entry = binary.AppendUvarint(entry, uint64(len(key)))
		entry = append(entry, key...)
		entry = binary.AppendUvarint(entry, uint64(endedStart(ended, key, value, now)))
		if len(entry) >= maxLogEntry {
			return flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// changedAt reports whether the write transaction committing at now
// started or ended a version of key, to which it wrote value last (nil: a
// delete): a version starting now, or a delete of a row the commits before
// it had. (A rewrite that keeps the version, WithTuple's, and a row made and
// deleted in the same transaction, change nothing anyone saw.)
func changedAt(data *storage.Space, key, value []byte, now int64) bool {
	if value != nil {
		return Start(value) == now
	}
	return data.GetCommitted(key) != nil
}

// endedAt maps the keys of the versions the write transaction, committing
// at now, archived as ending now to those versions' starts: it reads the
// transaction's own writes to the table's by-end index, not storage.
func endedAt(tx *storage.Tx, table uint32, now int64) (map[string]int64, error) {
	var ended map[string]int64
	err := tx.WrittenKeys(byEndSpace(table), func(k, v []byte) error {
		if v == nil || len(k) < 16 || int64(binary.BigEndian.Uint64(k)) != now {
			return nil
		}
		if ended == nil {
			ended = map[string]int64{}
		}
		ended[string(k[8:len(k)-8])] = int64(binary.BigEndian.Uint64(k[len(k)-8:]))
		return nil
	})
	return ended, err
}

// endedStart is the start of key's version that the commit at now ended
// (0: none): archived now (ended), or embedded in the value it wrote.
func endedStart(ended map[string]int64, key, value []byte, now int64) int64 {
	if s, ok := ended[string(key)]; ok {
		return s
	}
	if value != nil {
		if v, ok := parse(value); ok && v.prev && v.start == now {
			return v.prevStart
		}
	}
	return 0
}

// metaSpaceOf returns metaSpace, made on first use.
func metaSpaceOf(tx *storage.Tx) (*storage.Space, error) {
	if sp := tx.Space(metaSpace); sp != nil {
		return sp, nil
	}
	return tx.CreateSpace(metaSpace)
}

// ChangesFrom returns the earliest commit time from which a table's
// changes are all known: when its change log started (0 for a table made
// since the log existed), or just after the latest commit whose changes
// its history_retention pruned, whichever is later. (A retention window
// longer than the table's life prunes nothing, and the feed then goes back
// to the table's start.) ok is false when the table has no change log yet
// (a table made before the log existed and not written since).
func ChangesFrom(tx *storage.Tx, table uint32) (from int64, ok bool) {
	if tx.Space(changeLogSpace(table)) == nil {
		return math.MaxInt64, false
	}
	if meta := tx.Space(metaSpace); meta != nil {
		for _, k := range [][]byte{logStartKey(table), logPrunedKey(table)} {
			if v := meta.Get(k); len(v) == 8 {
				from = max(from, int64(binary.BigEndian.Uint64(v)))
			}
		}
	}
	return from, true
}

// Changes calls fn for every change a table's commits from through to
// (commit times, both included) made, in commit order and within a commit
// in key order. It reads the log's entries for the window and, per change,
// the key's current value, at most one point read and one seek among the
// key's versions, whatever the size of the table or its history. The
// caller checks from against ChangesFrom: changes before it are partly or
// wholly gone.
func Changes(tx *storage.Tx, table uint32, from, to int64, fn func(Change) error) error {
	log := tx.Space(changeLogSpace(table))
	if log == nil || to < from {
		return nil
	}
	r := newChangeReader(tx, table)
	var seek [8]byte
	if from > 0 {
		binary.BigEndian.PutUint64(seek[:], uint64(from))
	}
	c := log.Cursor()
	for k, v := c.Seek(seek[:]); k != nil; k, v = c.Next() {
		if len(k) != 12 {
			return pgerror.New(pgerror.DataCorrupted, "corrupt change log entry of table %d", table)
		}
		ts := int64(binary.BigEndian.Uint64(k))
		if ts > to {
			return nil
		}
		for len(v) > 0 {
			n, w := binary.Uvarint(v)
			if w <= 0 || n > uint64(len(v)-w) {
				return pgerror.New(pgerror.DataCorrupted, "corrupt change log entry of table %d", table)
			}
			key := append([]byte(nil), v[w:w+int(n)]...)
			v = v[w+int(n):]
			before, w := binary.Uvarint(v)
			if w <= 0 {
				return pgerror.New(pgerror.DataCorrupted, "corrupt change log entry of table %d", table)
			}
			v = v[w:]
			ch, ok, err := r.changeOf(key, ts, int64(before))
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			if err := fn(ch); err != nil {
				return err
			}
		}
	}
	return nil
}

// PendingChanges calls fn, in key order, for every change the write
// transaction, to commit at now, has made so far to a table: what its
// commit will log. A flow that reads the table's change feed applies them
// in the same transaction.
func PendingChanges(tx *storage.Tx, table uint32, now int64, fn func(Change) error) error {
	data := tx.Space(DataSpace(table))
	if data == nil {
		return nil
	}
	ended, err := endedAt(tx, table, now)
	if err != nil {
		return err
	}
	type written struct {
		key    []byte
		before int64
	}
	var keys []written
	err = tx.WrittenKeys(DataSpace(table), func(key, value []byte) error {
		if changedAt(data, key, value, now) {
			keys = append(keys, written{append([]byte(nil), key...), endedStart(ended, key, value, now)})
		}
		return nil
	})
	if err != nil {
		return err
	}
	r := newChangeReader(tx, table)
	for _, k := range keys {
		ch, ok, err := r.changeOf(k.key, now, k.before)
		if err != nil {
			return err
		}
		if ok {
			if err := fn(ch); err != nil {
				return err
			}
		}
	}
	return nil
}

// changeReader reads changes of one table.
type changeReader struct {
	data, byKey *storage.Space
	pruned      int64
	scratch     []byte
}

func newChangeReader(tx *storage.Tx, table uint32) *changeReader {
	return &changeReader{data: tx.Space(DataSpace(table)), byKey: tx.Space(byKeySpace(table)), pruned: prunedThrough(tx, table)}
}

// changeOf finds the version of key that started at ts (the current one,
// the one it embeds, or an archived one) and the one that started at
// beforeStart and ended at ts (0: none), each by a point read.
func (r *changeReader) changeOf(key []byte, ts, beforeStart int64) (Change, bool, error) {
	ch := Change{Commit: ts, Key: key}
	if r.data == nil {
		return ch, false, nil
	}
	var cur stored
	hasCur := false
	if raw := r.data.Get(key); raw != nil {
		var ok bool
		if cur, ok = parse(raw); !ok {
			return ch, false, pgerror.New(pgerror.DataCorrupted, "stored row too short")
		}
		hasCur = true
	}
	embedded := hasCur && cur.prev && cur.start >= r.pruned
	archived := func(start, end int64) []byte {
		if r.byKey == nil {
			return nil
		}
		r.scratch = binary.BigEndian.AppendUint64(append(r.scratch[:0], key...), uint64(start))
		if v := r.byKey.Get(r.scratch); len(v) >= 8 && (end == 0 || int64(binary.BigEndian.Uint64(v)) == end) {
			return v[8:]
		}
		return nil
	}
	var after, before []byte // encoded tuples
	switch {
	case hasCur && cur.start == ts:
		after = cur.tuple
	case embedded && cur.prevStart == ts:
		after = cur.prevTuple
	case hasCur && cur.start < ts:
		// Current since before ts: nothing started at ts.
	default:
		after = archived(ts, 0)
	}
	switch {
	case beforeStart == 0:
	case embedded && cur.start == ts && cur.prevStart == beforeStart:
		before = cur.prevTuple
	default:
		before = archived(beforeStart, ts)
	}
	if before == nil && after == nil {
		return ch, false, nil
	}
	var err error
	if after != nil {
		if ch.After, err = rowcodec.DecodeRow(after); err != nil {
			return ch, false, err
		}
	}
	if before != nil {
		if ch.Before, err = rowcodec.DecodeRow(before); err != nil {
			return ch, false, err
		}
	}
	return ch, true, nil
}

// dropChangeLog removes a table's change log and its start.
func dropChangeLog(tx *storage.Tx, table uint32) error {
	if tx.Space(changeLogSpace(table)) != nil {
		if err := tx.DropSpace(changeLogSpace(table)); err != nil {
			return err
		}
	}
	if meta := tx.Space(metaSpace); meta != nil {
		if err := meta.Delete(logStartKey(table)); err != nil {
			return err
		}
		return meta.Delete(logPrunedKey(table))
	}
	return nil
}

// pruneChangeLog removes the log's entries of commits before cutoff, whose
// versions Prune removes.
func pruneChangeLog(tx *storage.Tx, table uint32, cutoff int64) error {
	log := tx.Space(changeLogSpace(table))
	if log == nil {
		return nil
	}
	var doomed [][]byte
	c := log.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) < 8 || int64(binary.BigEndian.Uint64(k)) >= cutoff {
			break
		}
		doomed = append(doomed, append([]byte(nil), k...))
	}
	if len(doomed) == 0 {
		return nil
	}
	for _, k := range doomed {
		if err := log.Delete(k); err != nil {
			return err
		}
	}
	// Changes from just after the last commit removed are all still known.
	whole := int64(binary.BigEndian.Uint64(doomed[len(doomed)-1])) + 1
	meta, err := metaSpaceOf(tx)
	if err != nil {
		return err
	}
	return meta.Put(logPrunedKey(table), binary.BigEndian.AppendUint64(nil, uint64(whole)))
}
