package rowcodec

import (
	"encoding/binary"

	"cdcdb/types"
)

// Reading single values of an encoded row without decoding the row.
//
// DecodeRow boxes every value into an interface, an allocation each. A
// scan whose filter rejects most rows on one or two columns (the period of
// a FOR BUSINESS_TIME AS OF) wants to look at those columns first and decode
// the rest only for the rows it keeps, and a result of integers and text can
// go from the stored bytes to the client's format with no value in between.
// These functions give the encodings of a row's values (a value's tag and
// payload, as EncodeRow wrote them) and read the common kinds out of them;
// they live beside the codec so that the format is known in one place.

// SplitRow appends the encodings of an encoded row's values to dst, one per
// stored position (they alias row). It reports false for a malformed row;
// DecodeRow then says what is wrong with it.
func SplitRow(dst [][]byte, row []byte) ([][]byte, bool) {
	n, k := binary.Uvarint(row)
	if k <= 0 || n > uint64(len(row)) {
		return dst, false
	}
	if free := cap(dst) - len(dst); uint64(free) < n {
		dst = append(make([][]byte, 0, len(dst)+int(n)), dst...) // one allocation, not one per doubling
	}
	p := k
	for range n {
		size, ok := rowValueSize(row[p:], 0)
		if !ok {
			return dst, false
		}
		dst = append(dst, row[p:p+size:p+size])
		p += size
	}
	return dst, p == len(row)
}

// RowValuePair locates two values of an encoded row by position (first <
// second) and returns their encodings, nil for a position past the row's end
// (a column added after the row was written: NULL). It reports false for a
// malformed row; DecodeRow then says what is wrong with it.
func RowValuePair(row []byte, first, second int) (a, b []byte, ok bool) {
	n, k := binary.Uvarint(row)
	if k <= 0 {
		return nil, nil, false
	}
	p := k
	for pos := 0; pos <= second; pos++ {
		if uint64(pos) >= n {
			return a, nil, true
		}
		if p >= len(row) {
			return nil, nil, false
		}
		// The common kinds first, without a call: this runs for every
		// value before the ones a scan tests, on every row.
		var size int
		switch tag := row[p]; {
		case smallIntTag(tag):
			size = 1
		case tag == rowString && p+1 < len(row) && row[p+1] < 0x80:
			size = 2 + int(row[p+1])
			if p+size > len(row) {
				return nil, nil, false
			}
		case tag == rowInt:
			q := p + 1
			for q < len(row) && row[q] >= 0x80 {
				q++
			}
			if q >= len(row) || q-p > binary.MaxVarintLen64 {
				return nil, nil, false
			}
			size = q + 1 - p
		default:
			var ok bool
			if size, ok = rowValueSize(row[p:], 0); !ok {
				return nil, nil, false
			}
		}
		switch pos {
		case first:
			a = row[p : p+size]
		case second:
			b = row[p : p+size]
		}
		p += size
	}
	return a, b, true
}

// DecodeRowValue decodes one value's encoding (as SplitRow or RowValuePair
// found it).
func DecodeRowValue(enc []byte) (types.Value, error) {
	d := rowDecoder{b: enc}
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	if len(d.b) != 0 {
		return nil, corrupt("row: %d bytes after the value", len(d.b))
	}
	return v, nil
}

// RowValueCanonical reports whether a value's encoding is the only one of
// its value, so that two canonical encodings are equal exactly when they are
// the same value of the same kind: NULL, integers, text, bytes, Booleans,
// instants, times of day and UUIDs. Numerics (1.0 and
// 1.00), floats (0 and -0), intervals ('1 mon' and '30 days') and the
// composite kinds may encode one value in several ways.
func RowValueCanonical(enc []byte) bool {
	if len(enc) == 0 {
		return true
	}
	switch tag := enc[0]; tag {
	case rowNull, rowFalse, rowTrue, rowInt, rowString, rowBytes, rowTime, rowTimeOfDay, rowUUID:
		return true
	default:
		return smallIntTag(tag)
	}
}

// RowValueIsNull reports whether a value's encoding is NULL; nil (a
// position past the row's end) is too.
func RowValueIsNull(enc []byte) bool { return len(enc) == 0 || enc[0] == rowNull }

// RowValueInt reads a value's encoding as an integer; false for any other
// kind (or a malformed one).
func RowValueInt(enc []byte) (int64, bool) {
	if len(enc) == 0 {
		return 0, false
	}
	switch tag := enc[0]; {
	case smallIntTag(tag):
		return int64(tag) - rowIntSmall + rowIntSmallLo, true
	case tag == rowInt:
		v, k := binary.Varint(enc[1:])
		return v, k > 0
	}
	return 0, false
}

// RowValueTime reads a value's encoding as an instant, Unix seconds and
// nanoseconds (the infinite timestamps are stored as far-off instants);
// false for any other kind (or a malformed one).
func RowValueTime(enc []byte) (sec, nsec int64, ok bool) {
	if len(enc) == 0 || enc[0] != rowTime {
		return 0, 0, false
	}
	sec, k := binary.Varint(enc[1:])
	if k <= 0 {
		return 0, 0, false
	}
	ns, k2 := binary.Uvarint(enc[1+k:])
	if k2 <= 0 || ns >= 1e9 {
		return 0, 0, false
	}
	return sec, int64(ns), true
}

// RowValueText returns the bytes of a text value's encoding (aliasing
// enc); false for any other kind (or a malformed one).
func RowValueText(enc []byte) ([]byte, bool) {
	if len(enc) == 0 || enc[0] != rowString {
		return nil, false
	}
	n, k := binary.Uvarint(enc[1:])
	if k <= 0 || n != uint64(len(enc)-1-k) {
		return nil, false
	}
	return enc[1+k:], true
}

// RowValueBool reads a value's encoding as a Boolean; ok is false for any
// other kind.
func RowValueBool(enc []byte) (v, ok bool) {
	if len(enc) != 1 {
		return false, false
	}
	switch enc[0] {
	case rowTrue:
		return true, true
	case rowFalse:
		return false, true
	}
	return false, false
}

// smallIntTag reports whether tag is one of the single-byte integers, the
// value in the tag itself.
func smallIntTag(tag byte) bool {
	return tag >= rowIntSmall && int(tag) <= rowIntSmall+rowIntSmallHi-rowIntSmallLo
}

// rowValueSize is the length of the encoded value at the start of b. The
// kinds a table row mostly holds come first, read without calls: this runs
// for every column before the ones a scan tests, on every row.
func rowValueSize(b []byte, depth int) (int, bool) {
	if len(b) == 0 || depth > 64 {
		return 0, false
	}
	tag := b[0]
	switch {
	case smallIntTag(tag):
		return 1, true
	case tag == rowString || tag == rowBytes:
		n, k := binary.Uvarint(b[1:])
		if k <= 0 || n > uint64(len(b)-1-k) {
			return 0, false
		}
		return 1 + k + int(n), true
	case tag == rowInt || tag == rowTimeOfDay:
		return skipVarints(b, 1, 1)
	}
	switch tag {
	case rowNull, rowFalse, rowTrue, rowNumNaN, rowNumPosInf, rowNumNegInf, rowFloatZero:
		return 1, true
	case rowFloat:
		return fixedSize(b, 1, 8)
	case rowTime:
		return skipVarints(b, 1, 2)
	case rowInterval:
		return skipVarints(b, 1, 3)
	case rowUUID:
		return fixedSize(b, 1, 16)
	case rowNumSmall:
		return skipVarints(b, 2, 2)
	case rowNumBig:
		p, ok := skipVarints(b, 2, 1)
		if !ok {
			return 0, false
		}
		n, k := binary.Uvarint(b[p:])
		if k <= 0 {
			return 0, false
		}
		return fixedSize(b, p+k, n)
	case rowArray:
		// element OID, dimension count, dimensions, element count, elements
		p, ok := skipVarints(b, 1, 1)
		if !ok {
			return 0, false
		}
		nd, k := binary.Uvarint(b[p:])
		if k <= 0 || nd > uint64(len(b)) {
			return 0, false
		}
		if p, ok = skipVarints(b, p+k, int(nd)); !ok {
			return 0, false
		}
		n, k := binary.Uvarint(b[p:])
		if k <= 0 {
			return 0, false
		}
		return skipValues(b, p+k, n, depth)
	case rowRecord:
		// field count, (type OID, typmod) per field, fields
		n, k := binary.Uvarint(b[1:])
		if k <= 0 || n > uint64(len(b)) {
			return 0, false
		}
		p, ok := skipVarints(b, 1+k, 2*int(n))
		if !ok {
			return 0, false
		}
		return skipValues(b, p, n, depth)
	}
	return 0, false
}

// skipVarints returns the position after n varints (signed or not: both
// end at the first byte below 0x80) that start at p.
func skipVarints(b []byte, p, n int) (int, bool) {
	for ; n > 0; n-- {
		for start := p; ; {
			if p >= len(b) || p-start >= binary.MaxVarintLen64 {
				return 0, false
			}
			c := b[p]
			p++
			if c < 0x80 {
				break
			}
		}
	}
	return p, true
}

func fixedSize(b []byte, p int, n uint64) (int, bool) {
	if p > len(b) || n > uint64(len(b)-p) {
		return 0, false
	}
	return p + int(n), true
}

// skipValues returns the position after n nested values that start at p.
func skipValues(b []byte, p int, n uint64, depth int) (int, bool) {
	for ; n > 0; n-- {
		size, ok := rowValueSize(b[p:], depth+1)
		if !ok {
			return 0, false
		}
		p += size
	}
	return p, true
}
