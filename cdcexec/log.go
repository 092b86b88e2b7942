package cdcexec

import (
	"bytes"
	"encoding/binary"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/storage"
	"cdcdb/temporal"
	"cdcdb/types"
)

// A flow's event log keeps every event it ever applied, one entry each,
// under its key's encoded KEYS tuple followed by its encoded sequence value
// (and system sequence value): the entries of one key are contiguous and in
// the order Merge sorts a history, so a key's history is a range scan and
// its last event one seek. A new event is one more entry; nothing already
// stored is rewritten. (Flows made before the log kept each key's whole
// history as one value in the "events" space; migrateLegacyHistories moves
// them over on first use.)
const (
	logPart      = "log"
	legacyPart   = "events"
	truncatePart = "truncate"
)

// logKey is an event's log key.
func logKey(encKey []byte, e temporal.Event) ([]byte, error) {
	k := append(make([]byte, 0, len(encKey)+16), encKey...)
	var err error
	if k, err = encodeSeq(k, []types.Value(e.Seq)); err != nil {
		return nil, err
	}
	if e.SysSeq != nil {
		k, err = encodeSeq(k, []types.Value(e.SysSeq))
	}
	return k, err
}

// prefixEnd is the smallest key greater than every key that starts with
// prefix (nil: there is none), for seeking to the end of a key's range.
func prefixEnd(prefix []byte) []byte {
	end := bytes.Clone(prefix)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

// lastUnder returns the last entry of sp whose key starts with prefix.
func lastUnder(sp *storage.Space, prefix []byte) (key, value []byte) {
	c := sp.Cursor()
	var k, v []byte
	if end := prefixEnd(prefix); end == nil {
		k, v = c.Last()
	} else {
		k, v = c.SeekBefore(end)
	}
	if k == nil || !bytes.HasPrefix(k, prefix) {
		return nil, nil
	}
	return k, v
}

// lastEvent returns a key's latest event in the log.
func lastEvent(log *storage.Space, encKey []byte) (temporal.Event, bool, error) {
	_, v := lastUnder(log, encKey)
	if v == nil {
		return temporal.Event{}, false, nil
	}
	e, err := decodeEvent(v)
	return e, err == nil, err
}

// loadHistory reads a key's events in sequence order.
func loadHistory(log *storage.Space, encKey []byte) ([]temporal.Event, error) {
	var out []temporal.Event
	c := log.Cursor()
	for k, v := c.Seek(encKey); k != nil && bytes.HasPrefix(k, encKey); k, v = c.Next() {
		e, err := decodeEvent(v)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// appendEvent stores one event of a key.
func appendEvent(log *storage.Space, encKey []byte, e temporal.Event) error {
	k, err := logKey(encKey, e)
	if err != nil {
		return err
	}
	v, err := encodeEvent(e)
	if err != nil {
		return err
	}
	return log.Put(k, v)
}

// encodeEvent stores what replay needs: kind, sequence lengths, sequences,
// the written-columns set and the values.
func encodeEvent(e temporal.Event) ([]byte, error) {
	vals := make([]types.Value, 0, 4+len(e.Seq)+len(e.SysSeq)+len(e.Values))
	vals = append(vals, int64(e.Kind), int64(len(e.Seq)), int64(len(e.SysSeq)))
	vals = append(vals, e.Seq...)
	vals = append(vals, e.SysSeq...)
	if e.Writes == nil {
		vals = append(vals, nil)
	} else {
		b := make([]byte, len(e.Writes))
		for i, w := range e.Writes {
			if w {
				b[i] = 1
			}
		}
		vals = append(vals, b)
	}
	vals = append(vals, e.Values...)
	// Room for most rows at once: growing the buffer value by value
	// cost more allocations than the rest of an event's logging.
	return storage.EncodeRow(make([]byte, 0, 16*len(vals)), vals)
}

func decodeEvent(b []byte) (temporal.Event, error) {
	vals, err := storage.DecodeRow(b)
	if err != nil || len(vals) < 4 {
		return temporal.Event{}, pgerror.New(pgerror.DataCorrupted, "corrupt flow event: %v", err)
	}
	kind, _ := vals[0].(int64)
	ns, _ := vals[1].(int64)
	nsys, _ := vals[2].(int64)
	if ns < 0 || nsys < 0 || int(3+ns+nsys) >= len(vals) {
		return temporal.Event{}, pgerror.New(pgerror.DataCorrupted, "corrupt flow event")
	}
	p := 3
	e := temporal.Event{Kind: temporal.Kind(kind)}
	e.Seq = temporal.Seq(vals[p : p+int(ns) : p+int(ns)])
	p += int(ns)
	if nsys > 0 {
		e.SysSeq = temporal.Seq(vals[p : p+int(nsys) : p+int(nsys)])
	}
	p += int(nsys)
	if w, ok := vals[p].([]byte); ok {
		e.Writes = make(temporal.ColumnSet, len(w))
		for i, c := range w {
			e.Writes[i] = c == 1
		}
	}
	p++
	e.Values = vals[p:]
	return e, nil
}

// openLog returns a flow's log, moving a flow made before the log to it.
func openLog(tx *storage.Tx, f *Flow) (*storage.Space, error) {
	name := catalog.FlowSpace(f.OID, logPart)
	if log := tx.Space(name); log != nil && tx.Space(catalog.FlowSpace(f.OID, legacyPart)) == nil {
		return log, nil
	}
	if tx.Space(catalog.FlowSpace(f.OID, legacyPart)) == nil {
		return nil, pgerror.New(pgerror.DataCorrupted, "storage of flow \"%s\" is missing", f.Name)
	}
	log := tx.Space(name)
	if log == nil {
		var err error
		if log, err = tx.CreateSpace(name); err != nil {
			return nil, err
		}
	}
	return log, migrateLegacyHistories(tx, f, log)
}

// migrateLegacyHistories moves a flow's histories from the one-value-per-key
// "events" space, if it still has one, into its log.
func migrateLegacyHistories(tx *storage.Tx, f *Flow, log *storage.Space) error {
	name := catalog.FlowSpace(f.OID, legacyPart)
	old := tx.Space(name)
	if old == nil {
		return nil
	}
	type keyHistory struct {
		key    []byte
		events []temporal.Event
	}
	var all []keyHistory
	c := old.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		h, err := decodeLegacyHistory(v)
		if err != nil {
			return err
		}
		all = append(all, keyHistory{bytes.Clone(k), h})
	}
	for _, kh := range all {
		for _, e := range kh.events {
			if err := appendEvent(log, kh.key, e); err != nil {
				return err
			}
		}
	}
	return tx.DropSpace(name)
}

// decodeLegacyHistory reads a history stored as one value: its events in
// sequence order, each length-prefixed.
func decodeLegacyHistory(b []byte) ([]temporal.Event, error) {
	var out []temporal.Event
	for len(b) > 0 {
		n, w := binary.Uvarint(b)
		if w <= 0 || uint64(len(b)-w) < n {
			return nil, pgerror.New(pgerror.DataCorrupted, "corrupt flow history")
		}
		e, err := decodeEvent(b[w : w+int(n)])
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		b = b[w+int(n):]
	}
	return out, nil
}
