package sql

import (
	"bytes"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/storage"
	"cdcdb/types"
)

// A whole-table FOR BUSINESS_TIME AS OF read of an SCD TYPE 2 target can
// hold at most one version per key: a key's versions never overlap, and
// they are stored in business start order under the key (the storage key
// is the KEYS columns' encoding, then the start's: cdcexec's targetRow), so
// only the last version starting at or before the instant can hold it --
// the rule the point read (tableScan.asOf) already uses for one key. The
// walk below applies it to every key: it compares each stored key's start
// with the instant on the key bytes alone and hands the scan only each
// key's last version starting at or before it. The scan then tests and
// filters that row as any other (it may have ended before the instant).

// keyedAsOf reports whether the scan reads a whole SCD TYPE 2 target AS OF
// an instant known before the scan starts, so that asOfKeyWalk applies.
func (s *tableScan) keyedAsOf() bool {
	return s.asOf != nil && s.prefixExprs == nil && s.keyExprs == nil && s.sysTime == nil &&
		s.table.StoredAs == catalog.SCD2 && len(s.table.KeyColumns) > 0 &&
		len(s.table.PrimaryKey) == 0 && rowIndependent(s.asOf)
}

// asOfKeyWalk finds each key's last version starting at or before the
// instant.
type asOfKeyWalk struct {
	cur     *storage.Cursor
	keyCols int
	// at is the encoded instant: a start compares with it as the values
	// would (rowcodec's key encoding preserves order).
	at      []byte
	started bool
	// group is the KEYS prefix of the key being walked; passed is set once
	// one of its versions started after the instant.
	group  []byte
	passed bool
	// candK, candV is the group's last version so far starting at or
	// before the instant; nextK, nextV a row read ahead, from the next
	// group, that made the candidate final. All point into the
	// transaction's pages, which outlive the scan.
	candK, candV []byte
	nextK, nextV []byte
}

// newAsOfKeyWalk prepares the walk, or returns nil when the instant has no
// key encoding of the start's type (the scan then reads every row).
func newAsOfKeyWalk(cur *storage.Cursor, t *catalog.Table, at types.Value) *asOfKeyWalk {
	enc, err := rowcodec.AppendKey(nil, at)
	if err != nil {
		return nil
	}
	return &asOfKeyWalk{cur: cur, keyCols: len(t.KeyColumns), at: enc}
}

// next returns the next candidate row, or a nil key at the end.
func (w *asOfKeyWalk) next(x *execCtx, table string) (k, v []byte, err error) {
	for {
		switch {
		case w.nextK != nil:
			k, v, w.nextK, w.nextV = w.nextK, w.nextV, nil, nil
		case !w.started:
			w.started = true
			k, v = w.cur.First()
		default:
			k, v = w.cur.Next()
		}
		if k == nil {
			k, v, w.candK, w.candV = w.candK, w.candV, nil, nil
			return k, v, nil
		}
		if err := x.CheckCancel(); err != nil {
			return nil, nil, err
		}
		if w.group == nil || !bytes.HasPrefix(k, w.group) {
			if w.candK != nil {
				// A new key: the last one's candidate is final.
				w.nextK, w.nextV = k, v
				k, v, w.candK, w.candV = w.candK, w.candV, nil, nil
				return k, v, nil
			}
			if w.group, err = rowcodec.KeyPrefix(k, w.keyCols); err != nil {
				return nil, nil, pgerror.New(pgerror.DataCorrupted, "corrupt key in table \"%s\": %v", table, err)
			}
			w.passed = false
		}
		if w.passed {
			continue
		}
		// The start: the key's part after the group; one that extends the
		// instant's encoding is equal to it in the start (a longer key).
		if start := k[len(w.group):]; bytes.Compare(start, w.at) <= 0 || bytes.HasPrefix(start, w.at) {
			w.candK, w.candV = k, v
			continue
		}
		w.passed = true
		if w.candK != nil {
			k, v, w.candK, w.candV = w.candK, w.candV, nil, nil
			return k, v, nil
		}
	}
}
