package cdcexec

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/storage"
	"cdcdb/temporal"
	"cdcdb/types"
)

// A snapshot flow (spec §7) keeps, besides its event log, the versions it
// has applied: one entry per version under its encoded value, holding the
// value itself. The log of a snapshot flow holds only full-state events (an
// upsert with every data value, or a delete), one per key and version at
// which the key changed, so a key's state at any version is its last event
// at or before that version: the log is the flow's memory of every
// snapshot, and no snapshot is stored whole.
const versionsPart = "versions"

// SnapshotStats counts what one snapshot did at its own version.
type SnapshotStats struct {
	Stats
	Inserted, Updated, Deleted uint64
	// Repeat says the version was already applied (and the snapshot was
	// identical to it, or ApplySnapshot would have refused it).
	Repeat bool
}

// keyedRow is one snapshot row with its encoded KEYS tuple.
type keyedRow struct {
	encKey []byte
	values []types.Value
}

// keyStates is what the log knows of one key around the version being
// applied: its last event before it, at or before it, and at or before
// its successor (nil: none).
type keyStates struct {
	encKey              []byte
	before, atV, atNext *temporal.Event
}

// ApplySnapshot applies a whole snapshot of the source at version: rows
// holds each row's data values (the layout of Event.Values). It compares
// the snapshot with the one before it in version order, key by key, and
// applies the differences as events at version; when the version comes
// before versions already applied, it also re-states at the next version
// every key whose state there the new snapshot would otherwise hide, so the
// target equals applying every snapshot in ascending version order. A
// version already applied is accepted only with an identical snapshot
// (which changes nothing). A NULL key or two rows for one key are refused.
// The caller rolls back on error.
func ApplySnapshot(ctx context.Context, tx *storage.Tx, f *Flow, target *history.Table, version []types.Value,
	rows [][]types.Value, cache *StateCache, check RowCheck) (SnapshotStats, error) {
	var out SnapshotStats
	for _, v := range version {
		if v == nil {
			return out, pgerror.New(pgerror.NotNullViolation, "snapshot version is NULL for flow \"%s\"", f.Name).
				WithHint("Every snapshot needs a version; nothing of it was applied.")
		}
	}
	encV, err := encodeSeq(nil, version)
	if err != nil {
		return out, err
	}
	versions, err := openVersions(tx, f.OID)
	if err != nil {
		return out, err
	}
	repeat := versions.Get(encV) != nil
	// The next version applied after this one, if any.
	var next []types.Value
	var encNext []byte
	if !repeat {
		c := versions.Cursor()
		if k, v := c.Seek(encV); k != nil {
			encNext = bytes.Clone(k)
			if next, err = storage.DecodeRow(v); err != nil {
				return out, err
			}
		}
	}
	snap, err := f.sortedSnapshot(rows, version)
	if err != nil {
		return out, err
	}
	log, err := openLog(tx, f)
	if err != nil {
		return out, err
	}
	var events []Event
	diff := func(ks keyStates, row *keyedRow) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if repeat {
			if !sameSnapshotState(ks.atV, row) {
				return f.versionConflict(version, ks.encKey, row)
			}
			return nil
		}
		switch {
		case row != nil && !isLive(ks.before):
			out.Inserted++
			events = append(events, f.snapshotEvent(Upsert, version, row.values))
		case row != nil && !sameSnapshotState(ks.before, row):
			out.Updated++
			events = append(events, f.snapshotEvent(Upsert, version, row.values))
		case row == nil && isLive(ks.before):
			out.Deleted++
			events = append(events, f.snapshotEvent(Delete, version, ks.before.Values))
		}
		if next != nil && !sameSnapshotState(ks.atNext, row) {
			// The key's state at the next version came from before this
			// one: state it again there, as that snapshot had it.
			if isLive(ks.atNext) {
				events = append(events, f.snapshotEvent(Upsert, next, ks.atNext.Values))
			} else if row != nil {
				events = append(events, f.snapshotEvent(Delete, next, row.values))
			}
		}
		return nil
	}
	if err := f.mergeWithLog(log, snap, encV, encNext, diff); err != nil {
		return out, err
	}
	out.Repeat = repeat
	if repeat {
		return out, nil
	}
	if len(events) > 0 {
		if out.Stats, err = Apply(ctx, tx, f, target, events, cache, check); err != nil {
			return out, err
		}
	}
	enc, err := storage.EncodeRow(nil, version)
	if err != nil {
		return out, err
	}
	return out, versions.Put(encV, enc)
}

// snapshotEvent makes a full-state event of a key; the key is read from
// the values (a delete carries the last values the key had).
func (f *Flow) snapshotEvent(kind EventKind, version, values []types.Value) Event {
	key := make([]types.Value, len(f.KeyPositions))
	for i, p := range f.KeyPositions {
		key[i] = values[p]
	}
	ev := Event{Kind: kind, Key: key, Seq: version}
	if kind == Upsert {
		ev.Values = values
	}
	return ev
}

// sortedSnapshot encodes each row's key, refusing NULL keys, sorts the rows
// by key and refuses two rows for one key.
func (f *Flow) sortedSnapshot(rows [][]types.Value, version []types.Value) ([]keyedRow, error) {
	out := make([]keyedRow, len(rows))
	var buf []byte
	for i, r := range rows {
		start := len(buf)
		for k, p := range f.KeyPositions {
			if r[p] == nil {
				return nil, pgerror.New(pgerror.NotNullViolation, "key column \"%s\" is NULL in snapshot %s of flow \"%s\"", f.KeyNames[k], f.FormatSeq(version), f.Name).
					WithHint("Every row of a snapshot needs a key; nothing of the snapshot was applied.")
			}
			var err error
			if buf, err = storage.AppendKey(buf, r[p]); err != nil {
				return nil, err
			}
		}
		out[i] = keyedRow{encKey: buf[start:len(buf):len(buf)], values: r}
	}
	slices.SortFunc(out, func(a, b keyedRow) int { return bytes.Compare(a.encKey, b.encKey) })
	for i := 1; i < len(out); i++ {
		if bytes.Equal(out[i].encKey, out[i-1].encKey) {
			n := 2
			for i+n-1 < len(out) && bytes.Equal(out[i+n-1].encKey, out[i].encKey) {
				n++
			}
			return nil, pgerror.New(pgerror.UniqueViolation, "found %d rows for key (%s)=(%s) in snapshot %s of flow \"%s\"", n,
				strings.Join(f.KeyNames, ", "), f.formatKey(out[i].values), f.FormatSeq(version), f.Name).
				WithHint("A snapshot holds at most one row per key; nothing of the snapshot was applied.")
		}
	}
	return out, nil
}

// mergeWithLog walks the log and the sorted snapshot together, calling fn
// once for every key in either, with what the log knows of the key around
// encV (and encNext, when not nil) and the key's snapshot row (nil: none).
func (f *Flow) mergeWithLog(log *storage.Space, snap []keyedRow, encV, encNext []byte, fn func(keyStates, *keyedRow) error) error {
	c := log.Cursor()
	k, v := c.First()
	i := 0
	for k != nil || i < len(snap) {
		var ks keyStates
		var err error
		if k != nil {
			n, err := f.keyPrefixLen(k)
			if err != nil {
				return err
			}
			ks.encKey = bytes.Clone(k[:n])
		}
		if k == nil || (i < len(snap) && bytes.Compare(snap[i].encKey, ks.encKey) < 0) {
			if err := fn(keyStates{encKey: snap[i].encKey}, &snap[i]); err != nil {
				return err
			}
			i++
			continue
		}
		// Read the key's events, keeping those that matter.
		for ; k != nil && bytes.HasPrefix(k, ks.encKey); k, v = c.Next() {
			seq := k[len(ks.encKey):]
			if bytes.Compare(seq, encV) > 0 && (encNext == nil || bytes.Compare(seq, encNext) > 0) {
				continue
			}
			e, derr := decodeEvent(v)
			if derr != nil {
				return derr
			}
			ev := &e
			if c := bytes.Compare(seq, encV); c < 0 {
				ks.before, ks.atV = ev, ev
			} else if c == 0 {
				ks.atV = ev
			}
			if encNext != nil && bytes.Compare(seq, encNext) <= 0 {
				ks.atNext = ev
			}
		}
		var row *keyedRow
		if i < len(snap) && bytes.Equal(snap[i].encKey, ks.encKey) {
			row = &snap[i]
			i++
		}
		if err = fn(ks, row); err != nil {
			return err
		}
	}
	return nil
}

// isLive reports whether a key's state is a row (not absent or deleted).
func isLive(e *temporal.Event) bool { return e != nil && e.Kind == temporal.Upsert }

// sameSnapshotState reports whether a key's state from the log equals its snapshot
// row (nil: absent), comparing values by their stored encodings.
func sameSnapshotState(e *temporal.Event, row *keyedRow) bool {
	if !isLive(e) || row == nil {
		return !isLive(e) && row == nil
	}
	if len(e.Values) != len(row.values) {
		return false
	}
	var a, b []byte
	for i := range row.values {
		var err1, err2 error
		a, err1 = storage.AppendRowValue(a[:0], e.Values[i])
		b, err2 = storage.AppendRowValue(b[:0], row.values[i])
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			return false
		}
	}
	return true
}

func (f *Flow) formatKey(values []types.Value) string {
	parts := make([]string, len(f.KeyPositions))
	for i, p := range f.KeyPositions {
		parts[i] = fmt.Sprint(values[p])
	}
	return strings.Join(parts, ", ")
}

// versionConflict is the error for a version applied before with a
// different snapshot.
func (f *Flow) versionConflict(version []types.Value, encKey []byte, row *keyedRow) error {
	key := ""
	if row != nil {
		key = f.formatKey(row.values)
	} else if vals, err := decodeKeyTuple(encKey, len(f.KeyPositions)); err == nil {
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = fmt.Sprint(v)
		}
		key = strings.Join(parts, ", ")
	}
	return pgerror.New(pgerror.CardinalityViolation, "snapshot %s of flow \"%s\" was already applied with different rows", f.FormatSeq(version), f.Name).
		WithDetail("Key (%s)=(%s) differs.", strings.Join(f.KeyNames, ", "), key).
		WithHint("A version's rows must arrive in one transaction; an identical repeat is accepted. The statement was not applied.")
}

func decodeKeyTuple(enc []byte, n int) ([]types.Value, error) {
	out := make([]types.Value, 0, n)
	for range n {
		v, rest, err := storage.DecodeKey(enc)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		enc = rest
	}
	return out, nil
}

// openVersions returns a snapshot flow's space of applied versions,
// creating it on first use.
func openVersions(tx *storage.Tx, flow catalog.OID) (*storage.Space, error) {
	name := catalog.FlowSpace(flow, versionsPart)
	if sp := tx.Space(name); sp != nil {
		return sp, nil
	}
	return tx.CreateSpace(name)
}

// LastVersion returns the newest version a snapshot flow has applied (nil:
// none yet).
func LastVersion(tx *storage.Tx, flow catalog.OID) ([]types.Value, error) {
	sp := tx.Space(catalog.FlowSpace(flow, versionsPart))
	if sp == nil {
		return nil, nil
	}
	k, v := sp.Cursor().Last()
	if k == nil {
		return nil, nil
	}
	return storage.DecodeRow(v)
}

// HasVersion reports whether a snapshot flow has applied version.
func HasVersion(tx *storage.Tx, flow catalog.OID, version []types.Value) (bool, error) {
	sp := tx.Space(catalog.FlowSpace(flow, versionsPart))
	if sp == nil {
		return false, nil
	}
	enc, err := encodeSeq(nil, version)
	if err != nil {
		return false, err
	}
	return sp.Get(enc) != nil, nil
}
