package cdcexec

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/storage"
	"cdcdb/temporal"
	"cdcdb/types"
)

// Spaces of a flow's private state.
const (
	eventsPart   = "events"
	truncatePart = "truncate"
)

// Prepare creates a new flow's private state spaces.
func Prepare(tx *storage.Tx, f *Flow) error {
	for _, part := range []string{eventsPart, truncatePart} {
		if tx.Space(catalog.FlowSpace(f.OID, part)) == nil {
			if _, err := tx.CreateSpace(catalog.FlowSpace(f.OID, part)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Drop removes a flow's private state.
func Drop(tx *storage.Tx, flow catalog.OID) error {
	for _, part := range []string{eventsPart, truncatePart} {
		if tx.Space(catalog.FlowSpace(flow, part)) != nil {
			if err := tx.DropSpace(catalog.FlowSpace(flow, part)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Reset forgets every event of a flow and empties its target, for a full
// refresh. The target's rows end now (its history keeps them); the rebuild
// then writes new versions.
func Reset(tx *storage.Tx, f *Flow, target *history.Table) error {
	if err := Drop(tx, f.OID); err != nil {
		return err
	}
	if err := Prepare(tx, f); err != nil {
		return err
	}
	var keys [][]byte
	c := target.Data().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		keys = append(keys, append([]byte(nil), k...))
	}
	for _, k := range keys {
		if err := target.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// keyGroup collects one key's new events of a batch.
type keyGroup struct {
	encKey []byte
	key    []types.Value
	events []temporal.Event
}

// Apply applies a batch of events, in any order. It fails, leaving the
// caller to roll back, on a NULL key or sequence, or on two different
// events for one key and sequence value.
func Apply(ctx context.Context, tx *storage.Tx, f *Flow, target *history.Table, batch []Event) (Stats, error) {
	st, err := apply(ctx, tx, f, target, batch)
	if err == nil && st.MaxSeq != nil {
		st.MaxSeqKey, err = encodeSeq(nil, st.MaxSeq)
	}
	return st, err
}

func apply(ctx context.Context, tx *storage.Tx, f *Flow, target *history.Table, batch []Event) (Stats, error) {
	var st Stats
	groups := map[string]*keyGroup{}
	var order []*keyGroup
	var truncateMark temporal.Seq
	for _, ev := range batch {
		if err := f.validate(ev); err != nil {
			return st, err
		}
		st.Events++
		if st.MaxSeq == nil || f.Rules.Compare(temporal.Seq(ev.Seq), temporal.Seq(st.MaxSeq)) > 0 {
			st.MaxSeq = ev.Seq
		}
		if ev.Kind == Truncate {
			truncateMark = f.Rules.LaterTruncateMark(truncateMark, temporal.Seq(ev.Seq))
			continue
		}
		enc, err := encodeKey(ev.Key)
		if err != nil {
			return st, err
		}
		g, ok := groups[string(enc)]
		if !ok {
			g = &keyGroup{encKey: enc, key: ev.Key}
			groups[string(enc)] = g
			order = append(order, g)
		}
		te := temporal.Event{Seq: temporal.Seq(ev.Seq), Kind: temporal.Upsert, Values: ev.Values, Writes: ev.Writes}
		if ev.Kind == Delete {
			te.Kind = temporal.Delete
		}
		if f.StoredAs == Bitemporal {
			te.SysSeq = temporal.Seq(ev.SysSeq)
		}
		g.events = append(g.events, te)
	}
	events := tx.Space(catalog.FlowSpace(f.OID, eventsPart))
	if events == nil {
		return st, pgerror.New(pgerror.DataCorrupted, "storage of flow \"%s\" is missing", f.Name)
	}
	mark, err := f.truncateMark(tx)
	if err != nil {
		return st, err
	}
	if truncateMark != nil {
		newMark := f.Rules.LaterTruncateMark(mark, truncateMark)
		if mark == nil || f.Rules.Compare(newMark, mark) != 0 {
			mark = newMark
			if err := f.storeTruncateMark(tx, mark); err != nil {
				return st, err
			}
			// A truncate affects every key: merge the batch's events first,
			// then replay every key of the flow under the new mark.
			for _, g := range order {
				if err := ctx.Err(); err != nil {
					return st, err
				}
				if _, err := f.mergeKey(events, g); err != nil {
					return st, err
				}
			}
			return st, f.replayAll(ctx, events, target, mark, &st)
		}
	}
	for _, g := range order {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		hist, err := f.mergeKey(events, g)
		if err != nil {
			return st, err
		}
		if err := f.rewriteKey(target, g.encKey, hist, mark, &st); err != nil {
			return st, err
		}
	}
	return st, nil
}

// validate refuses events the contract cannot order.
func (f *Flow) validate(ev Event) error {
	for i, v := range ev.Seq {
		if v == nil {
			what := "SEQUENCE BY value"
			if len(ev.Seq) > 1 {
				what = fmt.Sprintf("SEQUENCE BY field %d", i+1)
			}
			return pgerror.New(pgerror.NotNullViolation, "%s is NULL in a change event for flow \"%s\"", what, f.Name).
				WithHint("Every change event needs a sequence value to be ordered; the statement was not applied.")
		}
	}
	if f.StoredAs == Bitemporal {
		for _, v := range ev.SysSeq {
			if v == nil {
				return pgerror.New(pgerror.NotNullViolation, "SYSTEM SEQUENCE BY value is NULL in a change event for flow \"%s\"", f.Name)
			}
		}
	}
	if ev.Kind == Truncate {
		return nil
	}
	for i, v := range ev.Key {
		if v == nil {
			return pgerror.New(pgerror.NotNullViolation, "key column \"%s\" is NULL in a change event for flow \"%s\"", f.KeyNames[i], f.Name).
				WithHint("Only a TRUNCATE event may have NULL keys; the statement was not applied.")
		}
	}
	return nil
}

// encodeKey is the order-preserving encoding of a KEYS tuple: the prefix of
// every stored event and target row of that key.
func encodeKey(key []types.Value) ([]byte, error) {
	var out []byte
	var err error
	for _, v := range key {
		if out, err = storage.AppendKey(out, v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func encodeSeq(dst []byte, seq []types.Value) ([]byte, error) {
	var err error
	for _, v := range seq {
		if dst, err = storage.AppendKey(dst, v); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// encodeEvent stores what replay needs: kind, sequence lengths, sequences,
// the written-columns set and the values.
func encodeEvent(e temporal.Event) ([]byte, error) {
	vals := []types.Value{int64(e.Kind), int64(len(e.Seq)), int64(len(e.SysSeq))}
	vals = append(vals, seqValues(e.Seq)...)
	vals = append(vals, seqValues(e.SysSeq)...)
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
	return storage.EncodeRow(nil, vals)
}

func seqValues(s temporal.Seq) []types.Value {
	out := make([]types.Value, len(s))
	copy(out, s)
	return out
}

func decodeEvent(b []byte) (temporal.Event, error) {
	vals, err := storage.DecodeRow(b)
	if err != nil || len(vals) < 4 {
		return temporal.Event{}, pgerror.New(pgerror.DataCorrupted, "corrupt flow event: %v", err)
	}
	kind, _ := vals[0].(int64)
	ns, _ := vals[1].(int64)
	nsys, _ := vals[2].(int64)
	p := 3
	e := temporal.Event{Kind: temporal.Kind(kind)}
	e.Seq = temporal.Seq(vals[p : p+int(ns)])
	p += int(ns)
	if nsys > 0 {
		e.SysSeq = temporal.Seq(vals[p : p+int(nsys)])
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

// A key's history is stored as one value under its encoded KEYS tuple: its
// events in sequence order, each length-prefixed. One value per key keeps
// the number of stored entries at the number of keys (bbolt moves a node's
// entries on every insert within a transaction, so inserting an entry per
// event made large single-transaction loads quadratic), and a key's history
// is read and written in one step, at a cost proportional to its length.

// loadHistory reads a key's stored events in sequence order.
func loadHistory(events *storage.Space, encKey []byte) ([]temporal.Event, error) {
	return decodeHistory(events.Get(encKey))
}

func decodeHistory(b []byte) ([]temporal.Event, error) {
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

func encodeHistory(events []temporal.Event) ([]byte, error) {
	var out []byte
	for _, e := range events {
		v, err := encodeEvent(e)
		if err != nil {
			return nil, err
		}
		out = binary.AppendUvarint(out, uint64(len(v)))
		out = append(out, v...)
	}
	return out, nil
}

// mergeKey adds a key's new events to its stored history and returns the
// merged history. Identical retries are dropped by Merge; a conflicting
// event fails the whole statement.
func (f *Flow) mergeKey(events *storage.Space, g *keyGroup) ([]temporal.Event, error) {
	hist, err := loadHistory(events, g.encKey)
	if err != nil {
		return nil, err
	}
	merged, err := f.Rules.Merge(hist, g.events)
	if err != nil {
		return nil, f.conflictError(err)
	}
	if len(merged) == len(hist) {
		return merged, nil // only retries: nothing new to store
	}
	v, err := encodeHistory(merged)
	if err != nil {
		return nil, err
	}
	return merged, events.Put(g.encKey, v)
}

func (f *Flow) conflictError(err error) error {
	ce, ok := err.(*temporal.ConflictError)
	if !ok {
		return err
	}
	keyVals := make([]string, len(ce.Key))
	for i, v := range ce.Key {
		keyVals[i] = fmt.Sprint(v)
		if v == nil {
			keyVals[i] = "null"
		}
	}
	seq := f.FormatSeq(ce.Seq)
	if ce.SysSeq != nil {
		seq += ", system sequence " + f.FormatSeq(ce.SysSeq)
	}
	return pgerror.New(pgerror.CardinalityViolation, "flow \"%s\" received two different change events for one key and sequence value", f.Name).
		WithDetail("Key (%s)=(%s) at sequence %s.", strings.Join(f.KeyNames, ", "), strings.Join(keyVals, ", "), seq).
		WithHint("Events for a key need distinct sequence values; an identical retry is accepted. The statement was not applied.")
}

// rewriteKey replaces a key's target rows with the replay of its history,
// touching only the rows that change (so unchanged rows keep their commit-time
// version).
func (f *Flow) rewriteKey(target *history.Table, encKey []byte, events []temporal.Event, mark temporal.Seq, st *Stats) error {
	var old [][]byte
	c := target.Data().Cursor()
	for k, _ := c.Seek(encKey); k != nil && strings.HasPrefix(string(k), string(encKey)); k, _ = c.Next() {
		old = append(old, append([]byte(nil), k...))
	}
	rows, err := f.replay(events, mark)
	if err != nil {
		return err
	}
	fresh := make(map[string][]byte, len(rows))
	for _, r := range rows {
		k, v, err := f.targetRow(encKey, r, target.Now())
		if err != nil {
			return err
		}
		fresh[string(k)] = v
	}
	for _, k := range old {
		if _, keep := fresh[string(k)]; !keep {
			if err := target.Delete(k); err != nil {
				return err
			}
			st.RowsDeleted++
		}
	}
	for k, v := range fresh {
		// Compare past the version start: same values, same row.
		if prev := target.Data().Get([]byte(k)); prev != nil && string(prev[8:]) == string(v[8:]) {
			continue
		}
		if err := target.PutEncoded([]byte(k), v); err != nil {
			return err
		}
		st.RowsUpserted++
	}
	return nil
}

// targetRowValues is one target row before encoding: data values and the
// period bounds the form has.
type targetRowValues struct {
	values                       []types.Value
	start, end, sysStart, sysEnd temporal.Seq
}

func (f *Flow) replay(history []temporal.Event, mark temporal.Seq) ([]targetRowValues, error) {
	switch f.StoredAs {
	case SCD1:
		row, exists, err := f.Rules.ReplaySCD1(history, mark)
		if err != nil || !exists {
			return nil, err
		}
		return []targetRowValues{{values: row}}, nil
	case SCD2:
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

// targetRow encodes one target row and its storage key: the key, then the
// business start and system start that tell a key's versions apart.
func (f *Flow) targetRow(encKey []byte, r targetRowValues, now int64) ([]byte, []byte, error) {
	k := append([]byte(nil), encKey...)
	var err error
	if f.StoredAs != SCD1 {
		if k, err = storage.AppendKey(k, f.seqValue(r.start, false)); err != nil {
			return nil, nil, err
		}
	}
	if f.StoredAs == Bitemporal {
		if k, err = storage.AppendKey(k, f.seqValue(r.sysStart, true)); err != nil {
			return nil, nil, err
		}
	}
	tuple := make([]types.Value, f.Target.NextAttnum-1)
	for i, a := range f.DataAttnums {
		if i < len(r.values) {
			tuple[a-1] = r.values[i]
		}
	}
	if f.StartAttnum > 0 {
		tuple[f.StartAttnum-1] = f.seqValue(r.start, false)
		tuple[f.EndAttnum-1] = f.seqValue(r.end, false)
	}
	if f.SysStartAttnum > 0 {
		tuple[f.SysStartAttnum-1] = f.seqValue(r.sysStart, true)
		tuple[f.SysEndAttnum-1] = f.seqValue(r.sysEnd, true)
	}
	v, err := history.Encode(now, tuple)
	return k, v, err
}

// seqValue turns a sequence into a period column value: the value itself,
// or a record for a STRUCT sequence; NULL for an open end.
func (f *Flow) seqValue(s temporal.Seq, system bool) types.Value {
	if s == nil {
		return nil
	}
	if len(s) == 1 {
		return s[0]
	}
	t := f.SeqType
	if system {
		t = f.SysSeqType
	}
	_ = t
	rec := types.RecordValue{Fields: append([]types.Value(nil), s...)}
	return rec
}

// replayAll replays every key of the flow, after a truncate moved the
// mark: each key's rows are rewritten where they change. Every target row
// comes from some key's events, so visiting the histories visits every row.
// The cursor walks the events space while rewriteKey writes only the target
// space, which bbolt allows.
func (f *Flow) replayAll(ctx context.Context, events *storage.Space, target *history.Table, mark temporal.Seq, st *Stats) error {
	ec := events.Cursor()
	for k, v := ec.First(); k != nil; k, v = ec.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		h, err := decodeHistory(v)
		if err != nil {
			return err
		}
		if err := f.rewriteKey(target, k, h, mark, st); err != nil {
			return err
		}
	}
	return nil
}

// truncateMark reads the flow's latest truncate mark (nil if none).
func (f *Flow) truncateMark(tx *storage.Tx) (temporal.Seq, error) {
	sp := tx.Space(catalog.FlowSpace(f.OID, truncatePart))
	if sp == nil {
		return nil, nil
	}
	v := sp.Get([]byte("mark"))
	if v == nil {
		return nil, nil
	}
	vals, err := storage.DecodeRow(v)
	if err != nil {
		return nil, err
	}
	return temporal.Seq(vals), nil
}

func (f *Flow) storeTruncateMark(tx *storage.Tx, mark temporal.Seq) error {
	sp := tx.Space(catalog.FlowSpace(f.OID, truncatePart))
	v, err := storage.EncodeRow(nil, []types.Value(mark))
	if err != nil {
		return err
	}
	return sp.Put([]byte("mark"), v)
}
