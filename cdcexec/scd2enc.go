package cdcexec

import (
	"bytes"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/temporal"
	"cdcdb/types"
)

// The SCD TYPE 2 continuation on encoded rows.
//
// Most SCD TYPE 2 flows have no IGNORE NULL UPDATES, no TRACK HISTORY and
// no COLUMNS TO UPDATE, and their targets no constraints: every event
// writes every column, and every change opens a new version. For them the
// continuation of a key (continueSCD2) needs no replay state beyond the
// open version's values, and those are compared as they are stored: the
// events' data values are encoded once (for the log entry too), a version
// the events close is its stored row with the end put in, and a new version
// is put together from the encodings. Nothing is decoded into boxed values
// and encoded again, which was most of an in-order event's cost. The rows
// are byte for byte those continueSCD2 writes (TestEncodedSCD2MatchesGeneral).

// encodedSCD2 reports whether a key's new events can be continued on
// encoded rows.
func (a *applier) encodedSCD2(events []temporal.Event) bool {
	f := a.f
	if f.FastPathsOff.EncodedSCD2 || f.StoredAs != catalog.SCD2 || f.check != nil || f.Rules.IgnoreNullUpdates != nil || f.Rules.TrackHistory != nil {
		return false
	}
	for _, e := range events {
		if e.Writes != nil {
			return false
		}
	}
	return true
}

// Roles of a target column in a row put together from encodings.
const (
	roleStart = -1
	roleEnd   = -2
	roleNone  = -3
)

// layout returns, for each target column by attnum, the data value it
// holds (its index in DataAttnums) or its role.
func (a *applier) layout() []int {
	if a.roles != nil {
		return a.roles
	}
	f := a.f
	a.roles = make([]int, f.Target.NextAttnum-1)
	for i := range a.roles {
		a.roles[i] = roleNone
	}
	for i, at := range f.DataAttnums {
		a.roles[at-1] = i
	}
	a.roles[f.StartAttnum-1], a.roles[f.EndAttnum-1] = roleStart, roleEnd
	return a.roles
}

// continueSCD2Encoded is continueSCD2 on encoded rows, for events
// encodedSCD2 accepts whose data values encodeValues has encoded (a.vals).
func (a *applier) continueSCD2Encoded(encKey []byte, events []temporal.Event, known *keyState) (keyState, error) {
	f, target := a.f, a.target
	lastKey, lastRaw := f.lastTargetRow(target, encKey, known)
	after := keyState{lastKey: lastKey, lastRow: lastRaw}
	roles := a.layout()
	// The open version: its data values' encodings and its start's (open
	// nil: none). stored says it is the key's last stored row, which a
	// close rewrites; otherwise one of these events opened it and nothing
	// of it is stored yet.
	var open [][]byte
	var start []byte
	var startSeq temporal.Seq
	stored := false
	if lastRaw != nil {
		tuple, ok := history.Tuple(lastRaw)
		if ok {
			a.split, ok = rowcodec.SplitRow(a.split[:0], tuple)
		}
		if !ok {
			return keyState{}, pgerror.New(pgerror.DataCorrupted, "corrupt row in the target of flow \"%s\"", f.Name)
		}
		if rowcodec.RowValueIsNull(valueAt(a.split, f.EndAttnum)) {
			a.open = a.open[:0]
			for _, at := range f.DataAttnums {
				a.open = append(a.open, valueAt(a.split, at))
			}
			open, start, stored = a.open, valueAt(a.split, f.StartAttnum), true
		}
	}
	// write stores a version: open's values from start, ending at end (nil:
	// open), under its key; prev is what it replaces (nil: a new row).
	write := func(key []byte, end temporal.Seq, prev []byte) error {
		row, err := a.assemble(roles, open, start, end)
		if err != nil {
			return err
		}
		a.st.RowsUpserted++
		// Versions are written in business order, so the last one
		// written is the key's last row, as stored.
		after.lastKey = key
		after.lastRow, err = target.Replace(key, prev, row)
		return err
	}
	// closeOpen ends the open version at seq.
	closeOpen := func(seq temporal.Seq) error {
		if stored {
			return write(lastKey, seq, lastRaw)
		}
		key, err := a.versionKey(encKey, startSeq)
		if err != nil {
			return err
		}
		return write(key, seq, nil)
	}
	for i, e := range events {
		if e.Kind == temporal.Delete {
			if open != nil {
				if err := closeOpen(e.Seq); err != nil {
					return keyState{}, err
				}
				open, stored = nil, false
			}
			continue
		}
		if open != nil {
			same, err := a.sameValues(open, a.vals[i])
			if err != nil {
				return keyState{}, err
			}
			if same {
				continue
			}
			if err := closeOpen(e.Seq); err != nil {
				return keyState{}, err
			}
		}
		enc, err := rowcodec.AppendRowValue(nil, f.seqValue(e.Seq))
		if err != nil {
			return keyState{}, err
		}
		open, start, startSeq, stored = a.vals[i], enc, e.Seq, false
	}
	if open != nil && !stored {
		key, err := a.versionKey(encKey, startSeq)
		if err != nil {
			return keyState{}, err
		}
		if err := write(key, nil, nil); err != nil {
			return keyState{}, err
		}
	}
	return after, nil
}

// versionKey returns the storage key of the key's version starting at
// start, in a.versionKeyBuf (valid until the next call).
func (a *applier) versionKey(encKey []byte, start temporal.Seq) ([]byte, error) {
	var err error
	a.versionKeyBuf, err = encodeSeq(append(a.versionKeyBuf[:0], encKey...), []types.Value{a.f.seqValue(start)})
	return a.versionKeyBuf, err
}

// valueAt is the encoding of the value of column attnum in a split row,
// NULL for a column the row predates.
func valueAt(split [][]byte, attnum int16) []byte {
	if int(attnum) <= len(split) {
		return split[attnum-1]
	}
	return rowcodec.RowNull
}

// assemble encodes a target row as targetRow would: every column by
// attnum, the data columns from vals, the period from start (an encoding)
// and end (nil: open), the rest NULL; behind the commit time.
func (a *applier) assemble(roles []int, vals [][]byte, start []byte, end temporal.Seq) ([]byte, error) {
	// One buffer serves every row: storage copies what it is given, and of
	// the rows a key's events make only the last is kept (by the cache,
	// which copies it too).
	row := history.AppendStart(a.rowBuf[:0], a.target.Now())
	row = rowcodec.AppendRowHeader(row, len(roles))
	for _, r := range roles {
		switch {
		case r >= 0:
			row = append(row, vals[r]...)
		case r == roleStart:
			row = append(row, start...)
		case r == roleEnd && end != nil:
			var err error
			if row, err = rowcodec.AppendRowValue(row, a.f.seqValue(end)); err != nil {
				return nil, err
			}
		default:
			row = append(row, rowcodec.RowNull...)
		}
	}
	a.rowBuf = row
	return row, nil
}

// sameValues reports whether two versions' data values are the same, as
// the flow's rules compare them: equal encodings are equal values, and so
// are unequal ones only when one may encode a value in several ways
// (rowcodec.RowValueCanonical), which decoding them tells.
func (a *applier) sameValues(x, y [][]byte) (bool, error) {
	for i := range x {
		if bytes.Equal(x[i], y[i]) {
			continue
		}
		if rowcodec.RowValueCanonical(x[i]) && rowcodec.RowValueCanonical(y[i]) {
			return false, nil
		}
		vx, err := rowcodec.DecodeRowValue(x[i])
		if err != nil {
			return false, err
		}
		vy, err := rowcodec.DecodeRowValue(y[i])
		if err != nil {
			return false, err
		}
		if !a.f.Rules.SameValue(vx, vy) {
			return false, nil
		}
	}
	return true, nil
}
