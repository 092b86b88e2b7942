package history

import (
	"encoding/binary"
	"strconv"

	"cdcdb/pgerror"
	"cdcdb/storage"
	"cdcdb/types"
)

const (
	metaSpace = "meta"
	clockKey  = "commit_clock"
)

// DataSpace, byKeySpace and byEndSpace name a table's spaces.
func DataSpace(table uint32) string  { return "t/" + strconv.FormatUint(uint64(table), 10) }
func byKeySpace(table uint32) string { return "h/" + strconv.FormatUint(uint64(table), 10) }
func byEndSpace(table uint32) string { return "hx/" + strconv.FormatUint(uint64(table), 10) }

// NextCommitTime reserves the commit time of a write transaction: now, or
// one microsecond after the last one handed out if the clock has not moved
// past it.
func NextCommitTime(tx *storage.Tx, nowMicros int64) (int64, error) {
	sp := tx.Space(metaSpace)
	if sp == nil {
		var err error
		if sp, err = tx.CreateSpace(metaSpace); err != nil {
			return 0, err
		}
	}
	ts := nowMicros
	if v := sp.Get([]byte(clockKey)); len(v) == 8 {
		if last := int64(binary.BigEndian.Uint64(v)); ts <= last {
			ts = last + 1
		}
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(ts))
	return ts, sp.Put([]byte(clockKey), b[:])
}

// Create makes a table's spaces.
func Create(tx *storage.Tx, table uint32) error {
	for _, name := range []string{DataSpace(table), byKeySpace(table), byEndSpace(table)} {
		if tx.Space(name) == nil {
			if _, err := tx.CreateSpace(name); err != nil {
				return err
			}
		}
	}
	return nil
}

// Drop removes a table's spaces, history included.
func Drop(tx *storage.Tx, table uint32) error {
	for _, name := range []string{DataSpace(table), byKeySpace(table), byEndSpace(table)} {
		if tx.Space(name) != nil {
			if err := tx.DropSpace(name); err != nil {
				return err
			}
		}
	}
	return nil
}

// Encode builds a current row's stored value.
func Encode(start int64, tuple []types.Value) ([]byte, error) {
	return AppendEncoded(make([]byte, 0, 64), start, tuple)
}

// AppendEncoded appends a current row's stored value (Encode's) to dst.
func AppendEncoded(dst []byte, start int64, tuple []types.Value) ([]byte, error) {
	return storage.EncodeRow(AppendStart(dst, start), tuple)
}

// AppendStart appends the start of a current row's stored value, for a
// writer that appends the encoded tuple itself (storage.AppendRowHeader and
// its kin).
func AppendStart(dst []byte, start int64) []byte {
	return binary.BigEndian.AppendUint64(dst, uint64(start))
}

// Decode splits a current row's stored value.
func Decode(raw []byte) (start int64, tuple []types.Value, err error) {
	enc, ok := Tuple(raw)
	if !ok {
		return 0, nil, pgerror.New(pgerror.DataCorrupted, "stored row too short")
	}
	tuple, err = storage.DecodeRow(enc)
	return int64(binary.BigEndian.Uint64(raw)), tuple, err
}

// Tuple returns the encoded tuple of a current row's stored value (in
// storage's row format, for storage.SplitRow and its kin), or false when the
// value is too short to hold one.
func Tuple(raw []byte) ([]byte, bool) {
	if len(raw) < 8 {
		return nil, false
	}
	return raw[8:], true
}

// Start reads only the version start of a current row's value.
func Start(raw []byte) int64 {
	if len(raw) < 8 {
		return 0
	}
	return int64(binary.BigEndian.Uint64(raw))
}

// Table writes one table's rows inside a write transaction, archiving the
// versions it replaces.
type Table struct {
	data, byKey, byEnd *storage.Space
	now                int64
	// keep is false for tables whose history is not kept by commit time
	// (BITEMPORAL targets carry their own system period).
	keep bool
	// scratch is reused for the history entries archiving builds, and
	// value for the rows Insert encodes, which Put copies.
	scratch, value []byte
}

// Open returns a writer for a table's rows at commit time now.
func Open(tx *storage.Tx, table uint32, now int64, keep bool) (*Table, error) {
	t := &Table{data: tx.Space(DataSpace(table)), byKey: tx.Space(byKeySpace(table)), byEnd: tx.Space(byEndSpace(table)), now: now, keep: keep}
	if t.data == nil {
		return nil, pgerror.New(pgerror.DataCorrupted, "storage of table %d is missing", table)
	}
	if keep && (t.byKey == nil || t.byEnd == nil) {
		// Tables made before history existed get their spaces on first write.
		if err := Create(tx, table); err != nil {
			return nil, err
		}
		t.byKey, t.byEnd = tx.Space(byKeySpace(table)), tx.Space(byEndSpace(table))
	}
	return t, nil
}

// Data is the table's current-rows space, for reads.
func (t *Table) Data() *storage.Space { return t.data }

// Put makes tuple the current version of key, archiving the version it
// replaces.
func (t *Table) Put(key []byte, tuple []types.Value) error {
	if err := t.archive(key); err != nil {
		return err
	}
	return t.Insert(key, tuple)
}

// Insert makes tuple the current version of key, which has none (the
// caller just looked, or made the key up): Put without the lookup for a
// version to archive, which for an INSERT into a table without a primary
// key would search every memtable layer and the file for a fresh row id.
func (t *Table) Insert(key []byte, tuple []types.Value) error {
	v, err := AppendEncoded(t.value[:0], t.now, tuple)
	if err != nil {
		return err
	}
	t.value = v
	return t.data.Put(key, v)
}

// PutEncoded stores an already encoded current version (its start must be
// this transaction's commit time), archiving the version it replaces.
func (t *Table) PutEncoded(key, value []byte) error {
	if err := t.archive(key); err != nil {
		return err
	}
	return t.data.Put(key, value)
}

// Replace stores an encoded current version over old, the value the caller
// just read under key (nil: none), archiving old without reading it again.
func (t *Table) Replace(key, old, value []byte) error {
	if err := t.archiveValue(key, old); err != nil {
		return err
	}
	return t.data.Put(key, value)
}

// Delete ends the current version of key.
func (t *Table) Delete(key []byte) error {
	if err := t.archive(key); err != nil {
		return err
	}
	return t.data.Delete(key)
}

// Remove ends the current version of key, old, which the caller just read.
func (t *Table) Remove(key, old []byte) error {
	if err := t.archiveValue(key, old); err != nil {
		return err
	}
	return t.data.Delete(key)
}

// Now is the commit time versions written through t start at.
func (t *Table) Now() int64 { return t.now }

// archive moves key's current version, if any, to history with the period
// [its start, now). A version written earlier in this same transaction was
// never visible to anyone and is simply replaced.
func (t *Table) archive(key []byte) error {
	if !t.keep {
		return nil
	}
	return t.archiveValue(key, t.data.Get(key))
}

func (t *Table) archiveValue(key, old []byte) error {
	if !t.keep || old == nil {
		return nil
	}
	start := Start(old)
	if start >= t.now {
		return nil
	}
	b := append(t.scratch[:0], key...)
	b = binary.BigEndian.AppendUint64(b, uint64(start))
	hk := len(b)
	b = binary.BigEndian.AppendUint64(b, uint64(t.now))
	b = append(b, old[8:]...)
	if err := t.byKey.Put(b[:hk], b[hk:]); err != nil {
		return err
	}
	b = binary.BigEndian.AppendUint64(b[:0], uint64(t.now))
	b = append(b, key...)
	b = binary.BigEndian.AppendUint64(b, uint64(start))
	t.scratch = b
	return t.byEnd.Put(b, nil)
}

// Version is one stored version of a row.
type Version struct {
	Key        []byte
	Tuple      []types.Value
	Start, End int64 // End 0: still current
}

// GetAsOf returns key's version that was current at ts, if any: a seek in
// the key's versions.
func GetAsOf(tx *storage.Tx, table uint32, key []byte, ts int64) (Version, bool, error) {
	data := tx.Space(DataSpace(table))
	if data == nil {
		return Version{}, false, nil
	}
	if cur := data.Get(key); cur != nil && Start(cur) <= ts {
		start, tuple, err := Decode(cur)
		return Version{Key: key, Tuple: tuple, Start: start}, err == nil, err
	}
	byKey := tx.Space(byKeySpace(table))
	if byKey == nil {
		return Version{}, false, nil
	}
	seek := make([]byte, 0, len(key)+8)
	seek = append(seek, key...)
	seek = binary.BigEndian.AppendUint64(seek, uint64(ts)+1)
	// The version current at ts is the last one of the key starting at or
	// before ts: one step back from where ts+1 would go.
	c := byKey.Cursor()
	var k, v []byte
	if sk, _ := c.Seek(seek); sk == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	if k == nil || len(k) != len(key)+8 || string(k[:len(key)]) != string(key) {
		return Version{}, false, nil
	}
	start := int64(binary.BigEndian.Uint64(k[len(key):]))
	end := int64(binary.BigEndian.Uint64(v))
	if start > ts || end <= ts {
		return Version{}, false, nil
	}
	tuple, err := storage.DecodeRow(v[8:])
	return Version{Key: key, Tuple: tuple, Start: start, End: end}, err == nil, err
}

// ScanAsOf calls fn for every row version current at ts: the current rows
// that started by ts, and the archived versions that ended after ts (found
// through the by-end index, so older history is not read).
func ScanAsOf(tx *storage.Tx, table uint32, ts int64, fn func(Version) error) error {
	data := tx.Space(DataSpace(table))
	if data == nil {
		return nil
	}
	c := data.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if Start(v) > ts {
			continue
		}
		start, tuple, err := Decode(v)
		if err != nil {
			return err
		}
		if err := fn(Version{Key: k, Tuple: tuple, Start: start}); err != nil {
			return err
		}
	}
	return scanEndedAfter(tx, table, ts, func(ver Version) (bool, error) { return ver.Start <= ts, nil }, fn)
}

// scanEndedAfter visits archived versions whose end is after ts, in end
// order, passing those keep accepts to fn.
func scanEndedAfter(tx *storage.Tx, table uint32, ts int64, keep func(Version) (bool, error), fn func(Version) error) error {
	byEnd, byKey := tx.Space(byEndSpace(table)), tx.Space(byKeySpace(table))
	if byEnd == nil || byKey == nil {
		return nil
	}
	var from [8]byte // ends are commit times, never negative
	if ts >= 0 {
		binary.BigEndian.PutUint64(from[:], uint64(ts)+1)
	}
	c := byEnd.Cursor()
	for k, _ := c.Seek(from[:]); k != nil; k, _ = c.Next() {
		if len(k) < 16 {
			return pgerror.New(pgerror.DataCorrupted, "corrupt history index entry")
		}
		end := int64(binary.BigEndian.Uint64(k))
		rowKey := k[8 : len(k)-8]
		start := int64(binary.BigEndian.Uint64(k[len(k)-8:]))
		ver := Version{Key: rowKey, Start: start, End: end}
		if ok, err := keep(ver); err != nil || !ok {
			if err != nil {
				return err
			}
			continue
		}
		hk := append(append([]byte(nil), rowKey...), k[len(k)-8:]...)
		v := byKey.Get(hk)
		if v == nil {
			return pgerror.New(pgerror.DataCorrupted, "history entry missing for an indexed version")
		}
		tuple, err := storage.DecodeRow(v[8:])
		if err != nil {
			return err
		}
		ver.Tuple = tuple
		if err := fn(ver); err != nil {
			return err
		}
	}
	return nil
}

// ScanOverlapping calls fn for every version whose period [start, end)
// overlaps [from, to) (to < 0: unbounded), current rows included.
func ScanOverlapping(tx *storage.Tx, table uint32, from, to int64, fn func(Version) error) error {
	data := tx.Space(DataSpace(table))
	if data == nil {
		return nil
	}
	c := data.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if to >= 0 && Start(v) >= to {
			continue
		}
		start, tuple, err := Decode(v)
		if err != nil {
			return err
		}
		if err := fn(Version{Key: k, Tuple: tuple, Start: start}); err != nil {
			return err
		}
	}
	return scanEndedAfter(tx, table, from, func(ver Version) (bool, error) {
		return to < 0 || ver.Start < to, nil
	}, fn)
}

// Prune removes archived versions that ended before cutoff, returning how
// many it removed. Only a table's history_retention calls it.
func Prune(tx *storage.Tx, table uint32, cutoff int64) (int, error) {
	byEnd, byKey := tx.Space(byEndSpace(table)), tx.Space(byKeySpace(table))
	if byEnd == nil || byKey == nil {
		return 0, nil
	}
	var doomed [][]byte
	c := byEnd.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if int64(binary.BigEndian.Uint64(k)) >= cutoff {
			break
		}
		doomed = append(doomed, append([]byte(nil), k...))
	}
	for _, k := range doomed {
		hk := append(append([]byte(nil), k[8:len(k)-8]...), k[len(k)-8:]...)
		if err := byKey.Delete(hk); err != nil {
			return 0, err
		}
		if err := byEnd.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(doomed), nil
}

// Count reports how many archived versions a table has.
func Count(tx *storage.Tx, table uint32) int {
	if sp := tx.Space(byKeySpace(table)); sp != nil {
		return sp.Count()
	}
	return 0
}
