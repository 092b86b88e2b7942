package cdcexec

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"strings"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
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

// snapshotRow is one snapshot row: its encoded KEYS tuple and its values
// encoded as a row (rowcodec.EncodeRow), decoded when needed.
type snapshotRow struct {
	encKey, enc []byte
	values      []types.Value
}

func (r *snapshotRow) decoded() ([]types.Value, error) {
	if r.values == nil {
		v, err := rowcodec.DecodeRow(r.enc)
		if err != nil {
			return nil, err
		}
		r.values = v
	}
	return r.values, nil
}

// keyStates is what the log knows of one key around the version being
// applied: its last event before it, at or before it, and at or before
// its successor (nil: none).
type keyStates struct {
	encKey              []byte
	before, atV, atNext *logEntry
}

// logEntry is one event of the log as stored: most keys of a big snapshot
// are unchanged, and comparing stored bytes spares decoding them.
type logEntry struct {
	raw []byte
	// live says the event is an upsert; values is the encoding of its
	// data values (the tail of raw, as EncodeRow writes them after the
	// count).
	live   bool
	values []byte
}

// readLogEntry splits a stored event into e.
func readLogEntry(raw []byte, parts *[][]byte, e *logEntry) error {
	p, ok := rowcodec.SplitRow((*parts)[:0], raw)
	*parts = p
	if !ok || len(p) < 4 {
		return pgerror.New(pgerror.DataCorrupted, "corrupt flow event")
	}
	kind, ok1 := rowcodec.RowValueInt(p[0])
	ns, ok2 := rowcodec.RowValueInt(p[1])
	nsys, ok3 := rowcodec.RowValueInt(p[2])
	first := 4 + int(ns) + int(nsys)
	if !ok1 || !ok2 || !ok3 || ns < 0 || nsys < 0 || first > len(p) {
		return pgerror.New(pgerror.DataCorrupted, "corrupt flow event")
	}
	size := 0
	for _, v := range p[first:] {
		size += len(v)
	}
	*e = logEntry{raw: raw, live: temporal.Kind(kind) == temporal.Upsert, values: raw[len(raw)-size:]}
	return nil
}

// decodedValues decodes the entry's data values.
func (e *logEntry) decodedValues() ([]types.Value, error) {
	ev, err := decodeEvent(e.raw)
	return ev.Values, err
}

// snapshotBatch is how many events ApplySnapshot hands Apply at a time.
const snapshotBatch = 4096

// ApplySnapshot applies a whole snapshot of the source at the version rows
// was made for. It compares the snapshot with the one before it in version
// order, key by key, and applies the differences as events at version;
// when the version comes before versions already applied, it also
// re-states at the next version every key whose state there the new
// snapshot would otherwise hide, so the target equals applying every
// snapshot in ascending version order. A version already applied is
// accepted only with an identical snapshot (which changes nothing). Two
// rows for one key are refused. The caller rolls back on error. Memory is
// bounded by rows' budget and one batch of events, whatever the size of
// the snapshot.
func ApplySnapshot(ctx context.Context, tx *storage.Tx, f *Flow, target *history.Table, rows *SnapshotRows,
	cache *StateCache, check RowCheck) (SnapshotStats, error) {
	var out SnapshotStats
	version := rows.version
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
			if next, err = rowcodec.DecodeRow(v); err != nil {
				return out, err
			}
		}
	}
	src, closeSrc, err := rows.sorted()
	if err != nil {
		return out, err
	}
	defer closeSrc()
	log, err := openLog(tx, f)
	if err != nil {
		return out, err
	}
	var events []Event
	flush := func() error {
		if len(events) == 0 {
			return nil
		}
		st, err := Apply(ctx, tx, f, target, events, cache, check)
		if err != nil {
			return err
		}
		out.Stats.add(st)
		events = events[:0]
		return nil
	}
	diff := func(ks keyStates, row *snapshotRow) error {
		if repeat {
			if !sameSnapshotState(ks.atV, row) {
				return f.versionConflict(version, ks.encKey)
			}
			return nil
		}
		upsert := func(seq []types.Value) error {
			vals, err := row.decoded()
			if err != nil {
				return err
			}
			events = append(events, f.snapshotEvent(Upsert, seq, vals))
			return nil
		}
		switch {
		case row != nil && !isLive(ks.before):
			out.Inserted++
			if err := upsert(version); err != nil {
				return err
			}
		case row != nil && !sameSnapshotState(ks.before, row):
			out.Updated++
			if err := upsert(version); err != nil {
				return err
			}
		case row == nil && isLive(ks.before):
			out.Deleted++
			vals, err := ks.before.decodedValues()
			if err != nil {
				return err
			}
			events = append(events, f.snapshotEvent(Delete, version, vals))
		}
		if next != nil && !sameSnapshotState(ks.atNext, row) {
			// The key's state at the next version came from before this
			// one: state it again there, as that snapshot had it.
			if isLive(ks.atNext) {
				vals, err := ks.atNext.decodedValues()
				if err != nil {
					return err
				}
				events = append(events, f.snapshotEvent(Upsert, next, vals))
			} else if row != nil {
				vals, err := row.decoded()
				if err != nil {
					return err
				}
				events = append(events, f.snapshotEvent(Delete, next, vals))
			}
		}
		if len(events) >= snapshotBatch {
			if err := ctx.Err(); err != nil {
				return err
			}
			return flush()
		}
		return nil
	}
	if err := f.mergeWithLog(log, src, rows.collapseIdentical, version, encV, encNext, diff); err != nil {
		return out, err
	}
	out.Repeat = repeat
	if repeat {
		return out, nil
	}
	if err := flush(); err != nil {
		return out, err
	}
	enc, err := rowcodec.EncodeRow(nil, version)
	if err != nil {
		return out, err
	}
	return out, versions.Put(encV, enc)
}

// add sums another Apply's counts into st.
func (st *Stats) add(o Stats) {
	st.Events += o.Events
	st.RowsUpserted += o.RowsUpserted
	st.RowsDeleted += o.RowsDeleted
	if o.MaxSeqKey != nil && bytes.Compare(o.MaxSeqKey, st.MaxSeqKey) > 0 {
		st.MaxSeq, st.MaxSeqKey = o.MaxSeq, o.MaxSeqKey
	}
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

// mergeWithLog walks the log and the sorted snapshot together, calling fn
// once for every key in either, with what the log knows of the key around
// encV (and encNext, when not nil) and the key's snapshot row (nil: none).
// It refuses two snapshot rows for one key, unless collapse is set and
// they are identical (then they are one row).
func (f *Flow) mergeWithLog(log *storage.Space, src rowSource, collapse bool, version []types.Value, encV, encNext []byte, fn func(keyStates, *snapshotRow) error) error {
	c := log.Cursor()
	k, v := c.First()
	var prevKey, prevEnc []byte
	var parts [][]byte
	// The entries kept of the key being walked; fn does not keep them.
	var entry, before, atV, atNext logEntry
	var row *snapshotRow
	advance := func() error {
		key, enc, err := src.next()
		for err == nil && key != nil && collapse && prevKey != nil && bytes.Equal(key, prevKey) && bytes.Equal(enc, prevEnc) {
			key, enc, err = src.next()
		}
		if err != nil {
			return err
		}
		if key == nil {
			row = nil
			return nil
		}
		if prevKey != nil && bytes.Equal(key, prevKey) {
			return pgerror.New(pgerror.UniqueViolation, "found 2 rows for key (%s)=(%s) in snapshot %s of flow \"%s\"",
				strings.Join(f.KeyNames, ", "), f.formatEncodedKey(key), f.FormatSeq(version), f.Name).
				WithHint("A snapshot holds at most one row per key; nothing of the snapshot was applied.")
		}
		prevKey = append(prevKey[:0], key...)
		if collapse {
			prevEnc = append(prevEnc[:0], enc...)
		}
		row = &snapshotRow{encKey: key, enc: enc}
		return nil
	}
	if err := advance(); err != nil {
		return err
	}
	for k != nil || row != nil {
		var ks keyStates
		if k != nil {
			n, err := f.keyPrefixLen(k)
			if err != nil {
				return err
			}
			ks.encKey = k[:n:n] // valid until the transaction ends
		}
		if k == nil || (row != nil && bytes.Compare(row.encKey, ks.encKey) < 0) {
			if err := fn(keyStates{encKey: row.encKey}, row); err != nil {
				return err
			}
			if err := advance(); err != nil {
				return err
			}
			continue
		}
		// Read the key's events, keeping those that matter.
		for ; k != nil && bytes.HasPrefix(k, ks.encKey); k, v = c.Next() {
			seq := k[len(ks.encKey):]
			if bytes.Compare(seq, encV) > 0 && (encNext == nil || bytes.Compare(seq, encNext) > 0) {
				continue
			}
			if err := readLogEntry(v, &parts, &entry); err != nil {
				return err
			}
			if c := bytes.Compare(seq, encV); c < 0 {
				before, atV = entry, entry
				ks.before, ks.atV = &before, &atV
			} else if c == 0 {
				atV = entry
				ks.atV = &atV
			}
			if encNext != nil && bytes.Compare(seq, encNext) <= 0 {
				atNext = entry
				ks.atNext = &atNext
			}
		}
		var match *snapshotRow
		if row != nil && bytes.Equal(row.encKey, ks.encKey) {
			match = row
		}
		if err := fn(ks, match); err != nil {
			return err
		}
		if match != nil {
			if err := advance(); err != nil {
				return err
			}
		}
	}
	return nil
}

// isLive reports whether a key's state is a row (not absent or deleted).
func isLive(e *logEntry) bool { return e != nil && e.live }

// sameSnapshotState reports whether a key's state from the log equals its
// snapshot row (nil: absent), comparing values by their stored encodings.
func sameSnapshotState(e *logEntry, row *snapshotRow) bool {
	if !isLive(e) || row == nil {
		return !isLive(e) && row == nil
	}
	_, k := binary.Uvarint(row.enc)
	return k > 0 && bytes.Equal(e.values, row.enc[k:])
}

func formatKeyValue(v types.Value) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(v)
}

// versionConflict is the error for a version applied before with a
// different snapshot.
func (f *Flow) versionConflict(version []types.Value, encKey []byte) error {
	return pgerror.New(pgerror.CardinalityViolation, "snapshot %s of flow \"%s\" was already applied with different rows", f.FormatSeq(version), f.Name).
		WithDetail("Key (%s)=(%s) differs.", strings.Join(f.KeyNames, ", "), f.formatEncodedKey(encKey)).
		WithHint("A version's rows must arrive in one transaction; an identical repeat is accepted. The statement was not applied.")
}

func decodeKeyTuple(enc []byte, n int) ([]types.Value, error) {
	out := make([]types.Value, 0, n)
	for range n {
		v, rest, err := rowcodec.DecodeKey(enc)
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
	return rowcodec.DecodeRow(v)
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
