package cdcexec

import (
	"bytes"
	"slices"
	"sync"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/temporal"
	"cdcdb/types"
)

// A key's target rows are stored under the key's encoded KEYS tuple, then
// (SCD TYPE 2 and BITEMPORAL) the business start and (BITEMPORAL) the
// system start that tell its versions apart, so they sort in business order.

// rewriteKey replaces a key's target rows with the replay of its history,
// touching only the rows that change (so unchanged rows keep their commit-time
// version). It returns the key's last row after it (nil: none), with its
// stored value. stored false says the target holds no rows of the key,
// which spares looking.
func (f *Flow) rewriteKey(target *history.Table, encKey []byte, events []temporal.Event, mark temporal.Seq, stored bool, st *Stats) (lastKey, lastRow []byte, err error) {
	var old []storedRow
	if stored {
		c := target.Data().Cursor()
		for k, v := c.Seek(encKey); k != nil && bytes.HasPrefix(k, encKey); k, v = c.Next() {
			old = append(old, storedRow{k, v})
		}
	}
	rows, err := f.replay(events, mark)
	if err != nil {
		return nil, nil, err
	}
	fresh := make([]storedRow, len(rows))
	// The row in-order events continue from: the last one, or for
	// BITEMPORAL the last of the latest business timeline (system end open).
	cont := -1
	var contStart temporal.Seq
	for i, r := range rows {
		k, v, err := f.targetRow(encKey, r, target.Now())
		if err != nil {
			return nil, nil, err
		}
		fresh[i] = storedRow{k, v}
		if f.StoredAs != catalog.Bitemporal {
			if cont < 0 || bytes.Compare(k, fresh[cont].key) > 0 {
				cont = i
			}
		} else if r.sysEnd == nil && (contStart == nil || f.Rules.Compare(r.start, contStart) > 0) {
			cont, contStart = i, r.start
		}
	}
	if cont >= 0 {
		lastKey = fresh[cont].key
	}
	fresh = sortedRows(fresh)
	// Both lists are in key order now: walk them together. A stored row
	// the replay no longer makes goes; a row it makes that is stored with
	// the same values past the version start stays as it is stored (so it
	// keeps its commit-time version); the rest are written.
	i, j := 0, 0
	for i < len(old) || j < len(fresh) {
		order := -1
		switch {
		case i == len(old):
			order = 1
		case j < len(fresh):
			order = bytes.Compare(old[i].key, fresh[j].key)
		}
		switch {
		case order < 0:
			if err := target.Remove(old[i].key, old[i].value); err != nil {
				return nil, nil, err
			}
			st.RowsDeleted++
			i++
		case order > 0:
			if _, err := target.Replace(fresh[j].key, nil, fresh[j].value); err != nil {
				return nil, nil, err
			}
			st.RowsUpserted++
			j++
		default:
			if p := old[i].value; sameTuple(p, fresh[j].value) {
				fresh[j].value = bytes.Clone(p) // what stays stored
			} else {
				stored, err := target.Replace(fresh[j].key, p, fresh[j].value)
				if err != nil {
					return nil, nil, err
				}
				// With the version it replaced embedded: what the cache
				// must have of the last row.
				fresh[j].value = bytes.Clone(stored)
				st.RowsUpserted++
			}
			i++
			j++
		}
	}
	if lastKey == nil {
		return nil, nil, nil
	}
	at, _ := slices.BinarySearchFunc(fresh, lastKey, func(r storedRow, k []byte) int { return bytes.Compare(r.key, k) })
	return lastKey, fresh[at].value, nil
}

// sameTuple reports whether two stored target rows hold the same tuple,
// whatever their versions' starts (and what they embed).
func sameTuple(a, b []byte) bool {
	ta, okA := history.Tuple(a)
	tb, okB := history.Tuple(b)
	return okA && okB && bytes.Equal(ta, tb)
}

// storedRow is one target row: its storage key and stored value.
type storedRow struct{ key, value []byte }

// sortedRows sorts rows by key and keeps, of rows with one key, the last
// given: the one that would be stored had they been written in turn.
func sortedRows(rows []storedRow) []storedRow {
	slices.SortStableFunc(rows, func(a, b storedRow) int { return bytes.Compare(a.key, b.key) })
	out := rows[:0]
	for i, r := range rows {
		if i+1 < len(rows) && bytes.Equal(r.key, rows[i+1].key) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// continueBitemporal applies a key's new events, all later than its history
// on both axes, to the last row of its latest business timeline (known's):
// that row gets a system end if they change it, the rows they make enter,
// and every other row keeps its system period (temporal.ContinueBitemporal).
// The caller sets the returned state's sequence values.
func (f *Flow) continueBitemporal(target *history.Table, encKey []byte, events []temporal.Event, known keyState, st *Stats) (keyState, error) {
	var last *temporal.BiVersion
	if known.lastRow != nil {
		tuple, err := f.decodeTargetRow(known.lastRow)
		if err != nil {
			return keyState{}, err
		}
		last = &temporal.BiVersion{Values: f.dataValues(tuple), Start: f.seqOf(tuple[f.StartAttnum-1]),
			SysStart: temporal.Seq{tuple[f.SysStartAttnum-1]}}
		if end := tuple[f.EndAttnum-1]; end != nil {
			last.End = f.seqOf(end)
		}
	}
	retired, added, err := f.Rules.ContinueBitemporal(last, events)
	if err != nil {
		return keyState{}, err
	}
	after := keyState{lastSysSeq: known.lastSysSeq, lastKey: known.lastKey, lastRow: known.lastRow}
	write := func(r temporal.BiVersion, prev []byte) ([]byte, []byte, error) {
		k, v, err := f.targetRow(encKey, targetRowValues{values: r.Values, start: r.Start, end: r.End, sysStart: r.SysStart, sysEnd: r.SysEnd}, target.Now())
		if err != nil {
			return nil, nil, err
		}
		st.RowsUpserted++
		stored, err := target.Replace(k, prev, v)
		return k, stored, err
	}
	for _, r := range retired {
		// Only ever the row the continuation started from.
		if _, _, err := write(r, known.lastRow); err != nil {
			return keyState{}, err
		}
	}
	for _, r := range added {
		k, v, err := write(r, nil)
		if err != nil {
			return keyState{}, err
		}
		if r.SysEnd == nil {
			// v is valid until the next write: kept past those.
			after.lastKey, after.lastRow = k, bytes.Clone(v)
		}
	}
	return after, nil
}

// continueSCD1 applies a key's new events, all later than its history, to
// its SCD TYPE 1 row. known is what the cache has of the key (nil: read
// it); it returns what the cache should have after, but for the sequence
// values, which the caller sets.
func (f *Flow) continueSCD1(target *history.Table, encKey []byte, events []temporal.Event, mark temporal.Seq, known *keyState, st *Stats) (keyState, error) {
	var raw []byte
	if known != nil {
		raw = known.lastRow
	} else {
		raw = bytes.Clone(target.Data().Get(encKey))
	}
	var row []any
	if raw != nil {
		tuple, err := f.decodeTargetRow(raw)
		if err != nil {
			return keyState{}, err
		}
		row = f.dataValues(tuple)
	}
	next, exists, err := f.Rules.ContinueSCD1(row, raw != nil, events, mark)
	if err != nil {
		return keyState{}, err
	}
	after := keyState{lastKey: encKey}
	if !exists {
		if raw != nil {
			st.RowsDeleted++
			return after, target.Remove(encKey, raw)
		}
		return after, nil
	}
	k, v, err := f.targetRow(encKey, targetRowValues{values: next}, target.Now())
	if err != nil {
		return keyState{}, err
	}
	if raw != nil && sameTuple(raw, v) {
		after.lastRow = raw
		return after, nil
	}
	st.RowsUpserted++
	// What the cache keeps is what is stored: the row with the version it
	// replaced embedded, which the next change archives.
	after.lastRow, err = target.Replace(k, raw, v)
	return after, err
}

// continueSCD2 applies a key's new events, all later than its history, to
// its open SCD TYPE 2 version (the key's last row, when its end is open):
// the versions they close are rewritten or added, and the new open version
// added. Earlier versions do not change. known is what the cache has of
// the key (nil: read it); it returns what the cache should have after, but
// for the sequence values, which the caller sets.
func (f *Flow) continueSCD2(target *history.Table, encKey []byte, events []temporal.Event, known *keyState, st *Stats) (keyState, error) {
	lastKey, lastRaw := f.lastTargetRow(target, encKey, known)
	var open *temporal.Version
	if lastRaw != nil {
		tuple, err := f.decodeTargetRow(lastRaw)
		if err != nil {
			return keyState{}, err
		}
		if tuple[f.EndAttnum-1] == nil {
			open = &temporal.Version{Values: f.dataValues(tuple), Start: f.seqOf(tuple[f.StartAttnum-1])}
		}
	}
	closed, next, err := f.Rules.ContinueSCD2(open, events)
	if err != nil {
		return keyState{}, err
	}
	after := keyState{lastKey: lastKey, lastRow: lastRaw}
	write := func(v temporal.Version) error {
		k, val, err := f.targetRow(encKey, targetRowValues{values: v.Values, start: v.Start, end: v.End}, target.Now())
		if err != nil {
			return err
		}
		var prev []byte
		if open != nil && bytes.Equal(k, lastKey) {
			// The open version, now closed or changed in place.
			if sameTuple(lastRaw, val) {
				return nil
			}
			prev = lastRaw
		}
		// Versions are written in business order, so the last one
		// written is the key's last row, as stored.
		st.RowsUpserted++
		after.lastKey = k
		after.lastRow, err = target.Replace(k, prev, val)
		return err
	}
	for _, v := range closed {
		if err := write(v); err != nil {
			return keyState{}, err
		}
	}
	if next != nil {
		if err := write(*next); err != nil {
			return keyState{}, err
		}
	}
	return after, nil
}

// lastTargetRow returns a key's last target row: known's (the cache's), or
// when known is nil the one in storage (nil: none), valid until the
// transaction ends.
func (f *Flow) lastTargetRow(target *history.Table, encKey []byte, known *keyState) (key, value []byte) {
	if known != nil {
		return known.lastKey, known.lastRow
	}
	return lastUnder(target.Data(), encKey)
}

// decodeTargetRow reads a stored target row as a full tuple (every column
// of the target, by attnum).
func (f *Flow) decodeTargetRow(raw []byte) ([]types.Value, error) {
	_, tuple, err := history.Decode(raw)
	if err != nil {
		return nil, err
	}
	if n := int(f.Target.NextAttnum - 1); len(tuple) < n {
		tuple = append(tuple, make([]types.Value, n-len(tuple))...)
	}
	return tuple, nil
}

// dataValues picks the flow's data columns out of a target tuple, in the
// order of Event.Values.
func (f *Flow) dataValues(tuple []types.Value) []any {
	out := make([]any, len(f.DataAttnums))
	for i, a := range f.DataAttnums {
		out[i] = tuple[a-1]
	}
	return out
}

// seqOf is the inverse of seqValue: a period column's value as a sequence.
func (f *Flow) seqOf(v types.Value) temporal.Seq {
	if rec, ok := v.(types.RecordValue); ok && f.SeqType.OID == types.Record {
		return temporal.Seq(rec.Fields)
	}
	return temporal.Seq{v}
}

// targetRowValues is one target row before encoding: data values and the
// period bounds the form has.
type targetRowValues struct {
	values                       []types.Value
	start, end, sysStart, sysEnd temporal.Seq
}

func (f *Flow) replay(history []temporal.Event, mark temporal.Seq) ([]targetRowValues, error) {
	switch f.StoredAs {
	case catalog.SCD1:
		row, exists, err := f.Rules.ReplaySCD1(history, mark)
		if err != nil || !exists {
			return nil, err
		}
		return []targetRowValues{{values: row}}, nil
	case catalog.SCD2:
		vs, err := f.Rules.ReplaySCD2(history)
		if err != nil {
			return nil, err
		}
		out := make([]targetRowValues, len(vs))
		for i, v := range vs {
			out[i] = targetRowValues{values: v.Values, start: v.Start, end: v.End}
		}
		return out, nil
	}
	vs, err := f.Rules.ReplayBitemporal(history)
	if err != nil {
		return nil, err
	}
	out := make([]targetRowValues, len(vs))
	for i, v := range vs {
		out[i] = targetRowValues{values: v.Values, start: v.Start, end: v.End, sysStart: v.SysStart, sysEnd: v.SysEnd}
	}
	return out, nil
}

// targetRow encodes one target row and its storage key, once the Apply's
// RowCheck (if any) has accepted the row. Both go into one allocation,
// sized for a usual row of the target's columns (a larger value moves to
// one of its own as it grows); the key is capped, so appending to it never
// runs into the value.
func (f *Flow) targetRow(encKey []byte, r targetRowValues, now int64) ([]byte, []byte, error) {
	n := f.Target.NextAttnum - 1
	buf := append(make([]byte, 0, len(encKey)+targetRowRoom+16*int(n)), encKey...)
	var err error
	if f.StoredAs != catalog.SCD1 {
		if buf, err = encodeSeq(buf, []types.Value{f.seqValue(r.start)}); err != nil {
			return nil, nil, err
		}
	}
	if f.StoredAs == catalog.Bitemporal {
		if buf, err = encodeSeq(buf, []types.Value{f.seqValue(r.sysStart)}); err != nil {
			return nil, nil, err
		}
	}
	k := buf[:len(buf):len(buf)]
	scratch := tuples.Get().(*[]types.Value)
	tuple := append((*scratch)[:0], make([]types.Value, n)...)
	for i, a := range f.DataAttnums {
		if i < len(r.values) {
			tuple[a-1] = r.values[i]
		}
	}
	if f.StartAttnum > 0 {
		tuple[f.StartAttnum-1] = f.seqValue(r.start)
		tuple[f.EndAttnum-1] = f.seqValue(r.end)
	}
	if f.SysStartAttnum > 0 {
		tuple[f.SysStartAttnum-1] = f.seqValue(r.sysStart)
		tuple[f.SysEndAttnum-1] = f.seqValue(r.sysEnd)
	}
	var v []byte
	if f.check != nil {
		err = f.check(tuple)
	}
	if err == nil {
		v, err = history.AppendEncoded(buf[len(buf):], now, tuple)
	}
	clear(tuple) // hold on to no values while pooled
	*scratch = tuple
	tuples.Put(scratch)
	if err != nil {
		return nil, nil, err
	}
	return k, v, nil
}

// targetRowRoom is what targetRow allows for a row's key after the KEYS
// tuple and for its value's fixed part; each column gets 16 bytes more.
const targetRowRoom = 48

// tuples holds targetRow's scratch tuples: a row's values are encoded and
// the tuple is done with, and a batch encodes thousands of rows.
var tuples = sync.Pool{New: func() any { return new([]types.Value) }}

// seqValue turns a sequence into a period column value: the value itself,
// or a record for a STRUCT sequence; NULL for an open end.
func (f *Flow) seqValue(s temporal.Seq) types.Value {
	if s == nil {
		return nil
	}
	if len(s) == 1 {
		return s[0]
	}
	return types.RecordValue{Fields: append([]types.Value(nil), s...)}
}
