package history

import (
	"encoding/binary"

	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/storage"
	"cdcdb/types"
)

// RewriteTuples replaces the tuple of every version of a table's rows, the
// current ones, those embedded in them and the archived ones, by what
// convert returns for it, keeping every version's period: ALTER TABLE ...
// ALTER COLUMN TYPE converting the past as it converts the present, so that
// a FOR SYSTEM_TIME read sees old versions in the column's new type. key is
// the row's storage key (without a version's start); current says whether
// the tuple is a current row's rather than a past version's. convert may fail, and
// then nothing is written. The change log holds only keys and times, so it
// stays as it is.
func RewriteTuples(tx *storage.Tx, table uint32, convert func(key []byte, tuple []types.Value, current bool) ([]types.Value, error)) error {
	type put struct {
		sp   *storage.Space
		k, v []byte
	}
	var puts []put
	rewrite := func(key, encoded []byte, current bool) ([]byte, error) {
		tuple, err := rowcodec.DecodeRow(encoded)
		if err != nil {
			return nil, err
		}
		tuple, err = convert(key, tuple, current)
		if err != nil {
			return nil, err
		}
		return rowcodec.EncodeRow(nil, tuple)
	}
	if data := tx.Space(DataSpace(table)); data != nil {
		cur := data.Cursor()
		for k, v := cur.First(); k != nil; k, v = cur.Next() {
			s, ok := parse(v)
			if !ok {
				return pgerror.New(pgerror.DataCorrupted, "stored row too short")
			}
			tuple, err := rewrite(k, s.tuple, true)
			if err != nil {
				return err
			}
			prevTuple := s.prevTuple
			if s.prev {
				if prevTuple, err = rewrite(k, s.prevTuple, false); err != nil {
					return err
				}
			}
			puts = append(puts, put{data, append([]byte(nil), k...), appendValue(nil, s.start, tuple, s.prev, s.prevStart, prevTuple)})
		}
	}
	if byKey := tx.Space(byKeySpace(table)); byKey != nil {
		// rowKey + start -> end + tuple
		cur := byKey.Cursor()
		for k, v := cur.First(); k != nil; k, v = cur.Next() {
			if len(k) < 8 || len(v) < 8 {
				return pgerror.New(pgerror.DataCorrupted, "archived version too short")
			}
			tuple, err := rewrite(k[:len(k)-8], v[8:], false)
			if err != nil {
				return err
			}
			value := binary.BigEndian.AppendUint64(nil, binary.BigEndian.Uint64(v))
			puts = append(puts, put{byKey, append([]byte(nil), k...), append(value, tuple...)})
		}
	}
	for _, p := range puts {
		if err := p.sp.Put(p.k, p.v); err != nil {
			return err
		}
	}
	return nil
}
