package cdcexec

import (
	"bytes"
	"encoding/binary"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
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

// appendSeqs appends an event's log key suffix: its encoded sequence value,
// then (BITEMPORAL) its encoded system sequence value. Both encodings sort
// as the values do, so a key's entries sort in sequence order.
func appendSeqs(dst []byte, e temporal.Event) ([]byte, error) {
	dst, err := encodeSeq(dst, []types.Value(e.Seq))
	if err == nil && e.SysSeq != nil {
		dst, err = encodeSeq(dst, []types.Value(e.SysSeq))
	}
	return dst, err
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

// lastLogged returns the log key suffix (the encoded sequence values) of a
// key's latest event in the log, nil when it has none. It is valid until
// the transaction ends, as what storage returns is.
func lastLogged(log *storage.Space, encKey []byte) []byte {
	k, _ := lastUnder(log, encKey)
	if k == nil {
		return nil
	}
	return k[len(encKey):]
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

// eventWriter stores a key's events in the log, with buffers it reuses
// (Put copies what it is given).
type eventWriter struct {
	log      *storage.Space
	key, val []byte
}

// append stores event e of the key encKey, whose log key suffix is seqs
// (appendSeqs) and whose data values are encoded in vals (nil: encode them).
func (w *eventWriter) append(encKey []byte, e temporal.Event, seqs []byte, vals [][]byte) error {
	w.key = append(append(w.key[:0], encKey...), seqs...)
	var err error
	if w.val, err = appendEncodedEvent(w.val[:0], e, vals); err != nil {
		return err
	}
	return w.log.Put(w.key, w.val)
}

// appendEvent stores one event of a key.
func appendEvent(log *storage.Space, encKey []byte, e temporal.Event) error {
	seqs, err := appendSeqs(nil, e)
	if err != nil {
		return err
	}
	w := eventWriter{log: log}
	return w.append(encKey, e, seqs, nil)
}

// appendEncodedEvent appends what replay needs of an event, as one row:
// kind, sequence lengths, sequences, the written-columns set and the values
// (from their encodings in vals when given).
func appendEncodedEvent(dst []byte, e temporal.Event, vals [][]byte) ([]byte, error) {
	nvals := len(e.Values)
	if vals != nil {
		nvals = len(vals)
	}
	dst = rowcodec.AppendRowHeader(dst, 4+len(e.Seq)+len(e.SysSeq)+nvals)
	var err error
	dst, _ = rowcodec.AppendRowValue(dst, int64(e.Kind))
	dst, _ = rowcodec.AppendRowValue(dst, int64(len(e.Seq)))
	dst, _ = rowcodec.AppendRowValue(dst, int64(len(e.SysSeq)))
	for _, v := range e.Seq {
		if dst, err = rowcodec.AppendRowValue(dst, v); err != nil {
			return nil, err
		}
	}
	for _, v := range e.SysSeq {
		if dst, err = rowcodec.AppendRowValue(dst, v); err != nil {
			return nil, err
		}
	}
	if e.Writes == nil {
		dst = append(dst, rowcodec.RowNull...)
	} else {
		b := make([]byte, len(e.Writes))
		for i, w := range e.Writes {
			if w {
				b[i] = 1
			}
		}
		dst, _ = rowcodec.AppendRowValue(dst, b)
	}
	if vals != nil {
		for _, v := range vals {
			dst = append(dst, v...)
		}
		return dst, nil
	}
	for _, v := range e.Values {
		if dst, err = rowcodec.AppendRowValue(dst, v); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

func decodeEvent(b []byte) (temporal.Event, error) {
	vals, err := rowcodec.DecodeRow(b)
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
