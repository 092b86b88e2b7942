package sql

import (
	"encoding/binary"
	"strconv"

	"cdcdb/types"
)

// Reading single values of a stored row without decoding the row.
//
// A table's current row is stored as history's 8-byte version start
// followed by a tuple in storage's row format (storage/row.go: a uvarint
// count, then each value as a tag byte and its payload). Decoding a tuple
// boxes every value into an interface, an allocation each; a scan whose
// filter rejects most rows on one or two columns (the period of a FOR
// BUSINESS_TIME AS OF) wants to look at those columns first and decode the
// rest only for the rows it keeps.
//
// This file therefore knows storage's row format, which storage does not
// export. TestStoredRowReaderMatchesStorage encodes every kind of value
// with storage.EncodeRow and checks this reader against storage.DecodeRow,
// so a change of format fails that test rather than these reads. (The
// natural home of this code is storage itself, beside the codec.)

// The tags of storage's row format.
const (
	srNull       = 0
	srFalse      = 1
	srTrue       = 2
	srInt        = 3
	srFloat      = 4
	srNumSmall   = 5
	srNumBig     = 6
	srString     = 7
	srBytes      = 8
	srTime       = 9
	srTimeOfDay  = 10
	srInterval   = 11
	srUUID       = 12
	srArray      = 13
	srRecord     = 14
	srNumNaN     = 15
	srNumPosInf  = 16
	srNumNegInf  = 17
	srFloatZero  = 18
	srIntSmall   = 32
	srIntSmallLo = -16
	srIntSmallHi = 79
)

// historyHeaderLen is the version start history puts before a current
// row's tuple (history.Encode).
const historyHeaderLen = 8

// storedTupleBytes returns the encoded tuple of a current row's stored
// value, or false when the value is too short to hold one.
func storedTupleBytes(v []byte) ([]byte, bool) {
	if len(v) < historyHeaderLen {
		return nil, false
	}
	return v[historyHeaderLen:], true
}

// storedValuePair locates two values of an encoded tuple by position
// (first < second) and returns their encodings (tag and payload), nil for
// a position past the tuple's end (a column added after the row was
// written: NULL). It reports false for a malformed tuple; the caller then
// decodes it in full, which reports the damage.
func storedValuePair(tuple []byte, first, second int) (a, b []byte, ok bool) {
	n, k := binary.Uvarint(tuple)
	if k <= 0 {
		return nil, nil, false
	}
	p := k
	for pos := 0; pos <= second; pos++ {
		if uint64(pos) >= n {
			return a, nil, true
		}
		if p >= len(tuple) {
			return nil, nil, false
		}
		// The common kinds first, without a call: this runs for every
		// value before the ones a scan tests, on every row.
		var size int
		switch tag := tuple[p]; {
		case smallIntTag(tag):
			size = 1
		case tag == srString && p+1 < len(tuple) && tuple[p+1] < 0x80:
			size = 2 + int(tuple[p+1])
			if p+size > len(tuple) {
				return nil, nil, false
			}
		case tag == srInt:
			q := p + 1
			for q < len(tuple) && tuple[q] >= 0x80 {
				q++
			}
			if q >= len(tuple) || q-p > binary.MaxVarintLen64 {
				return nil, nil, false
			}
			size = q + 1 - p
		default:
			var ok bool
			if size, ok = storedValueSize(tuple[p:], 0); !ok {
				return nil, nil, false
			}
		}
		switch pos {
		case first:
			a = tuple[p : p+size]
		case second:
			b = tuple[p : p+size]
		}
		p += size
	}
	return a, b, true
}

// storedValueSize is the length of the encoded value at the start of b.
// The kinds a table row mostly holds come first, read without calls: this
// runs for every column before the ones a scan tests, on every row.
func storedValueSize(b []byte, depth int) (int, bool) {
	if len(b) == 0 || depth > 64 {
		return 0, false
	}
	tag := b[0]
	switch {
	case smallIntTag(tag):
		return 1, true
	case tag == srString || tag == srBytes:
		n, k := binary.Uvarint(b[1:])
		if k <= 0 || n > uint64(len(b)-1-k) {
			return 0, false
		}
		return 1 + k + int(n), true
	case tag == srInt || tag == srTimeOfDay:
		return skipVarints(b, 1, 1)
	}
	switch tag {
	case srNull, srFalse, srTrue, srNumNaN, srNumPosInf, srNumNegInf, srFloatZero:
		return 1, true
	case srFloat:
		return fixedSize(b, 1, 8)
	case srTime:
		return skipVarints(b, 1, 2)
	case srInterval:
		return skipVarints(b, 1, 3)
	case srUUID:
		return fixedSize(b, 1, 16)
	case srNumSmall:
		return skipVarints(b, 2, 2)
	case srNumBig:
		p, ok := skipVarints(b, 2, 1)
		if !ok {
			return 0, false
		}
		n, k := binary.Uvarint(b[p:])
		if k <= 0 {
			return 0, false
		}
		return fixedSize(b, p+k, n)
	case srArray:
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
	case srRecord:
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
		size, ok := storedValueSize(b[p:], depth+1)
		if !ok {
			return 0, false
		}
		p += size
	}
	return p, true
}

// instant is an encoded integer or time value, ordered as the decoded
// value would be: integers by value, times by Unix second then nanosecond
// (the instant order of time.Time.Compare, infinities included, since
// they are stored as far-off instants).
type instant struct {
	kind   instantKind
	hi, lo int64
}

type instantKind uint8

const (
	instantNone instantKind = iota // not an integer or a time
	instantNull
	instantInt
	instantTime
)

// smallIntTag reports whether tag is one of the single-byte integers, the
// value in the tag itself.
func smallIntTag(tag byte) bool {
	return tag >= srIntSmall && int(tag) <= srIntSmall+srIntSmallHi-srIntSmallLo
}

// storedInt reads a non-empty encoded value as an integer; false for any
// other kind (or a malformed one).
func storedInt(enc []byte) (int64, bool) {
	switch tag := enc[0]; {
	case smallIntTag(tag):
		return int64(tag) - srIntSmall + srIntSmallLo, true
	case tag == srInt:
		v, k := binary.Varint(enc[1:])
		return v, k > 0
	}
	return 0, false
}

// storedInstant reads an encoded value as an instant: kind instantNone
// when it is of another kind (or malformed).
func storedInstant(enc []byte) instant {
	if enc == nil {
		return instant{kind: instantNull}
	}
	if v, ok := storedInt(enc); ok {
		return instant{kind: instantInt, hi: v}
	}
	switch enc[0] {
	case srNull:
		return instant{kind: instantNull}
	case srTime:
		sec, k := binary.Varint(enc[1:])
		if k <= 0 {
			break
		}
		if ns, k2 := binary.Uvarint(enc[1+k:]); k2 > 0 && ns < 1e9 {
			return instant{kind: instantTime, hi: sec, lo: int64(ns)}
		}
	}
	return instant{}
}

func compareInstants(a, b *instant) int {
	switch {
	case a.hi < b.hi:
		return -1
	case a.hi > b.hi:
		return 1
	case a.lo < b.lo:
		return -1
	case a.lo > b.lo:
		return 1
	}
	return 0
}

// storedValues splits an encoded tuple into its values' encodings, one
// per stored position, appended to dst. It reports false for a malformed
// tuple (the caller then decodes it in full, which reports the damage).
func storedValues(dst [][]byte, tuple []byte) ([][]byte, bool) {
	n, k := binary.Uvarint(tuple)
	if k <= 0 || n > uint64(len(tuple)) {
		return dst, false
	}
	if free := cap(dst) - len(dst); uint64(free) < n {
		dst = append(make([][]byte, 0, len(dst)+int(n)), dst...) // one allocation, not one per doubling
	}
	p := k
	for range n {
		size, ok := storedValueSize(tuple[p:], 0)
		if !ok {
			return dst, false
		}
		dst = append(dst, tuple[p:p+size:p+size])
		p += size
	}
	return dst, p == len(tuple)
}

// appendStoredWire appends the wire form (text, or binary when binaryFmt)
// of one stored value for a column of type oid, for the kinds a result
// column mostly is: integers, strings and booleans of their own types.
// null reports a NULL (nothing appended); ok is false for any other kind,
// which the caller decodes and formats as usual. The output is what
// types.AppendText and types.AppendBinary give for the decoded value
// (TestStoredWireMatchesTheDecodedEncoders holds it to them).
func appendStoredWire(dst, enc []byte, oid types.OID, binaryFmt bool) (out []byte, null, ok bool) {
	if enc == nil {
		return dst, true, true // a position past the tuple: a column added later
	}
	if v, ok := storedInt(enc); ok {
		return appendStoredInt(dst, v, oid, binaryFmt)
	}
	switch tag := enc[0]; {
	case tag == srNull:
		return dst, true, true
	case tag == srString:
		switch oid {
		case types.Text, types.Varchar, types.Bpchar, types.Name:
			n, k := binary.Uvarint(enc[1:])
			if k <= 0 || n != uint64(len(enc)-1-k) {
				return dst, false, false
			}
			return append(dst, enc[1+k:]...), false, true
		}
	case tag == srTrue || tag == srFalse:
		if oid != types.Bool {
			break
		}
		switch {
		case binaryFmt && tag == srTrue:
			return append(dst, 1), false, true
		case binaryFmt:
			return append(dst, 0), false, true
		case tag == srTrue:
			return append(dst, 't'), false, true
		default:
			return append(dst, 'f'), false, true
		}
	}
	return dst, false, false
}

func appendStoredInt(dst []byte, v int64, oid types.OID, binaryFmt bool) (out []byte, null, ok bool) {
	switch oid {
	case types.Int8:
		if binaryFmt {
			return binary.BigEndian.AppendUint64(dst, uint64(v)), false, true
		}
	case types.Int4:
		if binaryFmt {
			return binary.BigEndian.AppendUint32(dst, uint32(v)), false, true
		}
	case types.Int2:
		if binaryFmt {
			return binary.BigEndian.AppendUint16(dst, uint16(v)), false, true
		}
	default:
		return dst, false, false
	}
	return strconv.AppendInt(dst, v, 10), false, true
}
