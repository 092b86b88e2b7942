package history

import (
	"encoding/binary"
	"strconv"

	"cdcdb/pgerror"
	"cdcdb/rowcodec"
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

// Create makes a table's spaces. A new table (one without its data space)
// gets its change log too, covering its whole life; a table made before the
// change log existed gets it at its next write (LogChanges).
func Create(tx *storage.Tx, table uint32) error {
	if tx.Space(DataSpace(table)) == nil && tx.Space(changeLogSpace(table)) == nil {
		if _, err := tx.CreateSpace(changeLogSpace(table)); err != nil {
			return err
		}
	}
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
	if err := dropChangeLog(tx, table); err != nil {
		return err
	}
	if meta := tx.Space(metaSpace); meta != nil {
		return meta.Delete(prunedKey(table))
	}
	return nil
}

// A current row's stored value is its version's start (the commit time it
// became current, 8 bytes, big-endian) and its tuple. In a table that keeps
// the version before (Open's embed), the value that replaced a visible
// version carries that version too, unarchived: the start's top bit is set,
// and the tuple's length (uvarint) comes before the tuple, the previous
// version's start and tuple after it:
//
//	start                  tuple
//	start|previousFlag     uvarint len(tuple)  tuple  previous start  previous tuple
//
// An SCD TYPE 2 flow closes a version by rewriting it once with its end,
// and that version is then never replaced: archiving what it replaced, the
// same row open-ended, would be two more writes per change event. Kept in
// the value, it costs only its bytes; it moves to the history spaces when
// its row changes again (archiving is then one version behind) or goes.
const previousFlag = 1 << 63

// Encode builds a current row's stored value.
func Encode(start int64, tuple []types.Value) ([]byte, error) {
	return AppendEncoded(make([]byte, 0, 64), start, tuple)
}

// AppendEncoded appends a current row's stored value (Encode's) to dst.
func AppendEncoded(dst []byte, start int64, tuple []types.Value) ([]byte, error) {
	return rowcodec.EncodeRow(AppendStart(dst, start), tuple)
}

// AppendStart appends the start of a current row's stored value, for a
// writer that appends the encoded tuple itself (rowcodec.AppendRowHeader and
// its kin).
func AppendStart(dst []byte, start int64) []byte {
	return binary.BigEndian.AppendUint64(dst, uint64(start))
}

// stored is a current row's value taken apart.
type stored struct {
	start     int64
	tuple     []byte
	prev      bool // the previous version is embedded
	prevStart int64
	prevTuple []byte
}

func parse(raw []byte) (stored, bool) {
	if len(raw) < 8 {
		return stored{}, false
	}
	head := binary.BigEndian.Uint64(raw)
	v := stored{start: int64(head &^ previousFlag), tuple: raw[8:]}
	if head&previousFlag == 0 {
		return v, true
	}
	n, w := binary.Uvarint(raw[8:])
	if w <= 0 || n > uint64(len(raw)-8-w) || uint64(len(raw)-8-w)-n < 8 {
		return stored{}, false
	}
	end := 8 + w + int(n)
	v.tuple = raw[8+w : end : end]
	v.prev, v.prevStart, v.prevTuple = true, int64(binary.BigEndian.Uint64(raw[end:])), raw[end+8:]
	return v, true
}

// Decode splits a current row's stored value.
func Decode(raw []byte) (start int64, tuple []types.Value, err error) {
	v, ok := parse(raw)
	if !ok {
		return 0, nil, pgerror.New(pgerror.DataCorrupted, "stored row too short")
	}
	tuple, err = rowcodec.DecodeRow(v.tuple)
	return v.start, tuple, err
}

// Tuple returns the encoded tuple of a current row's stored value (in
// rowcodec's row format, for rowcodec.SplitRow and its kin), or false when the
// value is too short to hold one.
func Tuple(raw []byte) ([]byte, bool) {
	v, ok := parse(raw)
	return v.tuple, ok
}

// Start reads only the version start of a current row's value.
func Start(raw []byte) int64 {
	if len(raw) < 8 {
		return 0
	}
	return int64(binary.BigEndian.Uint64(raw) &^ previousFlag)
}

// WithTuple returns raw with its tuple replaced by the encoding of tuple,
// its start and embedded previous version as they were: a rewrite that
// does not start a version (ALTER TABLE filling a new column).
func WithTuple(raw []byte, tuple []types.Value) ([]byte, error) {
	v, ok := parse(raw)
	if !ok {
		return nil, pgerror.New(pgerror.DataCorrupted, "stored row too short")
	}
	enc, err := rowcodec.EncodeRow(nil, tuple)
	if err != nil {
		return nil, err
	}
	return appendValue(nil, v.start, enc, v.prev, v.prevStart, v.prevTuple), nil
}

// appendValue appends a stored value from its parts.
func appendValue(dst []byte, start int64, tuple []byte, prev bool, prevStart int64, prevTuple []byte) []byte {
	if !prev {
		return append(AppendStart(dst, start), tuple...)
	}
	dst = binary.BigEndian.AppendUint64(dst, uint64(start)|previousFlag)
	dst = append(binary.AppendUvarint(dst, uint64(len(tuple))), tuple...)
	return append(AppendStart(dst, prevStart), prevTuple...)
}

// Table writes one table's rows inside a write transaction, archiving the
// versions it replaces.
type Table struct {
	tx                 *storage.Tx
	table              uint32
	data, byKey, byEnd *storage.Space
	now                int64
	// prunedThrough is the table's (0 until looked up, with
	// prunedKnown).
	prunedThrough int64
	prunedKnown   bool
	// keep is false for tables whose history is not kept by commit time
	// (BITEMPORAL targets carry their own system period); embed keeps
	// the version a write replaces in the new value instead of archiving
	// it at once (see previousFlag).
	keep, embed bool
	// scratch is reused for the history entries archiving builds, and
	// value for the values Insert and the embedding build, which Put
	// copies.
	scratch, value []byte
}

// Open returns a writer for a table's rows at commit time now; keep and
// embed are Table's.
func Open(tx *storage.Tx, table uint32, now int64, keep, embed bool) (*Table, error) {
	t := &Table{tx: tx, table: table, data: tx.Space(DataSpace(table)), byKey: tx.Space(byKeySpace(table)), byEnd: tx.Space(byEndSpace(table)), now: now, keep: keep, embed: keep && embed}
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

// Wrote reports whether t's transaction has written the table's rows or
// history, which a fork of it may then not read (storage.Tx.Fork).
func (t *Table) Wrote() bool {
	for _, sp := range []*storage.Space{t.data, t.byKey, t.byEnd} {
		if sp != nil && t.tx.Wrote(sp.Name()) {
			return true
		}
	}
	return false
}

// Fork returns a writer of the same table's rows, at the same commit
// time, in fork, a fork of t's transaction (storage.Tx.Fork), for use
// beside t on another goroutine. Wrote must be false.
func (t *Table) Fork(fork *storage.Tx) *Table {
	if t.keep {
		// Looked up here, in t's transaction: the fork may not read the
		// table's metadata, which its parent may have written.
		t.pruned()
	}
	f := &Table{tx: fork, table: t.table, data: fork.Space(t.data.Name()), now: t.now, prunedThrough: t.prunedThrough, prunedKnown: t.prunedKnown, keep: t.keep, embed: t.embed}
	if t.byKey != nil {
		f.byKey = fork.Space(t.byKey.Name())
	}
	if t.byEnd != nil {
		f.byEnd = fork.Space(t.byEnd.Name())
	}
	return f
}

// Put makes tuple the current version of key, archiving the version it
// replaces.
func (t *Table) Put(key []byte, tuple []types.Value) error {
	v, err := AppendEncoded(nil, t.now, tuple)
	if err != nil {
		return err
	}
	return t.PutEncoded(key, v)
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
	_, err := t.Replace(key, t.data.Get(key), value)
	return err
}

// Replace stores an encoded current version (Encode's form, starting at
// this transaction's commit time) over old, the value the caller just read
// under key (nil: none), archiving old without reading it again. It
// returns what it stored, which is value, or value with the version it
// replaces embedded: what a caller that keeps the key's row (to pass as old
// next time) must keep, or that version is lost. The bytes are valid until
// the next write through t.
func (t *Table) Replace(key, old, value []byte) (stored []byte, err error) {
	v, err := t.supersede(key, old, value)
	if err != nil {
		return nil, err
	}
	return v, t.data.Put(key, v)
}

// Delete ends the current version of key.
func (t *Table) Delete(key []byte) error {
	old := t.data.Get(key)
	if old == nil {
		return nil
	}
	return t.Remove(key, old)
}

// Remove ends the current version of key, old, which the caller just read.
func (t *Table) Remove(key, old []byte) error {
	if _, err := t.supersede(key, old, nil); err != nil {
		return err
	}
	return t.data.Delete(key)
}

// Now is the commit time versions written through t start at.
func (t *Table) Now() int64 { return t.now }

// supersede ends old, key's current value (nil: none), for value (nil: a
// delete), and returns what to store: value, or with embed value with the
// version it replaces. A version old embedded, and old itself unless value
// takes it in, go to history. A version written earlier in this same
// transaction was never visible to anyone and is simply replaced (what it
// embedded passes on).
func (t *Table) supersede(key, old, value []byte) ([]byte, error) {
	if !t.keep || old == nil {
		return value, nil
	}
	o, ok := parse(old)
	if !ok {
		return nil, pgerror.New(pgerror.DataCorrupted, "stored row too short")
	}
	if o.start >= t.now {
		if !o.prev {
			return value, nil
		}
		if value != nil {
			return t.embedIn(value, o.prevStart, o.prevTuple), nil
		}
		return nil, t.archiveVersion(key, o.prevStart, t.now, o.prevTuple)
	}
	if o.prev && o.start >= t.pruned() {
		// (A version that ended before the table's pruned-through time
		// was pruned, only hidden where it was kept: it goes now.)
		if err := t.archiveVersion(key, o.prevStart, o.start, o.prevTuple); err != nil {
			return nil, err
		}
	}
	if value != nil && t.embed {
		return t.embedIn(value, o.start, o.tuple), nil
	}
	return value, t.archiveVersion(key, o.start, t.now, o.tuple)
}

// pruned returns the table's pruned-through time, looked up once.
func (t *Table) pruned() int64 {
	if !t.prunedKnown {
		t.prunedThrough, t.prunedKnown = prunedThrough(t.tx, t.table), true
	}
	return t.prunedThrough
}

// embedIn returns value (Encode's form) with the version [prevStart, its
// start) of tuple prevTuple embedded, in a buffer the next call reuses.
func (t *Table) embedIn(value []byte, prevStart int64, prevTuple []byte) []byte {
	t.value = appendValue(t.value[:0], Start(value), value[8:], true, prevStart, prevTuple)
	return t.value
}

// archiveVersion writes the version [start, end) of key, tuple, to the
// history spaces.
func (t *Table) archiveVersion(key []byte, start, end int64, tuple []byte) error {
	b := append(t.scratch[:0], key...)
	b = binary.BigEndian.AppendUint64(b, uint64(start))
	hk := len(b)
	b = binary.BigEndian.AppendUint64(b, uint64(end))
	b = append(b, tuple...)
	if err := t.byKey.Put(b[:hk], b[hk:]); err != nil {
		return err
	}
	b = binary.BigEndian.AppendUint64(b[:0], uint64(end))
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

// GetAsOf returns key's version that was current at ts, if any: the
// current one, the one it embeds, or a seek in the key's archived versions.
func GetAsOf(tx *storage.Tx, table uint32, key []byte, ts int64) (Version, bool, error) {
	data := tx.Space(DataSpace(table))
	if data == nil {
		return Version{}, false, nil
	}
	if cur := data.Get(key); cur != nil {
		v, ok := parse(cur)
		if !ok {
			return Version{}, false, pgerror.New(pgerror.DataCorrupted, "stored row too short")
		}
		if v.start <= ts {
			tuple, err := rowcodec.DecodeRow(v.tuple)
			return Version{Key: key, Tuple: tuple, Start: v.start}, err == nil, err
		}
		if v.prev && v.prevStart <= ts && v.start >= prunedThrough(tx, table) {
			tuple, err := rowcodec.DecodeRow(v.prevTuple)
			return Version{Key: key, Tuple: tuple, Start: v.prevStart, End: v.start}, err == nil, err
		}
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
	tuple, err := rowcodec.DecodeRow(v[8:])
	return Version{Key: key, Tuple: tuple, Start: start, End: end}, err == nil, err
}

// ScanAsOf calls fn for every row version current at ts: the current rows
// that started by ts, or else the versions they embed that did, and the
// archived versions that ended after ts (found through the by-end index,
// so older history is not read).
func ScanAsOf(tx *storage.Tx, table uint32, ts int64, fn func(Version) error) error {
	return scanCurrent(tx, table,
		func(start int64) bool { return start <= ts },
		func(start, end int64) bool { return start <= ts && end > ts },
		fn, func() error {
			return scanEndedAfter(tx, table, ts, func(ver Version) (bool, error) { return ver.Start <= ts, nil }, fn)
		})
}

// scanCurrent calls fn for the current versions of a table's rows that
// current accepts (by start) and the embedded versions that embedded
// accepts (by start and end), then runs then (nil: nothing).
func scanCurrent(tx *storage.Tx, table uint32, current func(start int64) bool, embedded func(start, end int64) bool, fn func(Version) error, then func() error) error {
	data := tx.Space(DataSpace(table))
	if data == nil {
		return nil
	}
	pruned := prunedThrough(tx, table)
	c := data.Cursor()
	for k, raw := c.First(); k != nil; k, raw = c.Next() {
		v, ok := parse(raw)
		if !ok {
			return pgerror.New(pgerror.DataCorrupted, "stored row too short")
		}
		if current(v.start) {
			tuple, err := rowcodec.DecodeRow(v.tuple)
			if err != nil {
				return err
			}
			if err := fn(Version{Key: k, Tuple: tuple, Start: v.start}); err != nil {
				return err
			}
		}
		if v.prev && v.start >= pruned && embedded(v.prevStart, v.start) {
			tuple, err := rowcodec.DecodeRow(v.prevTuple)
			if err != nil {
				return err
			}
			if err := fn(Version{Key: k, Tuple: tuple, Start: v.prevStart, End: v.start}); err != nil {
				return err
			}
		}
	}
	if then == nil {
		return nil
	}
	return then()
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
		tuple, err := rowcodec.DecodeRow(v[8:])
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
	before := func(start int64) bool { return to < 0 || start < to }
	return scanCurrent(tx, table, before,
		func(start, end int64) bool { return before(start) && end > from },
		fn, func() error {
			return scanEndedAfter(tx, table, from, func(ver Version) (bool, error) { return before(ver.Start), nil }, fn)
		})
}

// Prune removes archived versions that ended before cutoff, returning how
// many it removed. Only a table's history_retention calls it. Embedded
// versions that ended before cutoff stay in their rows' values until those
// change, but are not read any more: the table's pruned-through time
// (prunedThrough) hides them.
func Prune(tx *storage.Tx, table uint32, cutoff int64) (int, error) {
	byEnd, byKey := tx.Space(byEndSpace(table)), tx.Space(byKeySpace(table))
	if byEnd == nil || byKey == nil {
		return 0, nil
	}
	if cutoff > prunedThrough(tx, table) {
		meta := tx.Space(metaSpace)
		if meta == nil {
			var err error
			if meta, err = tx.CreateSpace(metaSpace); err != nil {
				return 0, err
			}
		}
		if err := meta.Put(prunedKey(table), binary.BigEndian.AppendUint64(nil, uint64(cutoff))); err != nil {
			return 0, err
		}
	}
	if err := pruneChangeLog(tx, table, cutoff); err != nil {
		return 0, err
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

// prunedKey is the key in metaSpace of a table's pruned-through time: the
// latest cutoff Prune applied. Versions that ended before it are gone.
func prunedKey(table uint32) []byte { return []byte("pruned/" + strconv.FormatUint(uint64(table), 10)) }

// prunedThrough returns the table's pruned-through time (0: never pruned).
func prunedThrough(tx *storage.Tx, table uint32) int64 {
	sp := tx.Space(metaSpace)
	if sp == nil {
		return 0
	}
	if v := sp.Get(prunedKey(table)); len(v) == 8 {
		return int64(binary.BigEndian.Uint64(v))
	}
	return 0
}

// Count reports how many archived versions a table has (not counting those
// embedded in its rows' values).
func Count(tx *storage.Tx, table uint32) int {
	if sp := tx.Space(byKeySpace(table)); sp != nil {
		return sp.Count()
	}
	return 0
}
