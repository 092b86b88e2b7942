package sql

import (
	"encoding/binary"
	"strconv"

	"cdcdb/rowcodec"
	"cdcdb/types"
)

// Reading single values of a stored row without decoding the row: storage
// locates the values' encodings (rowcodec.RowValuePair, rowcodec.SplitRow)
// and reads the common kinds out of them; this file orders integers and
// times as instants, for the period tests of a scan (scan_period.go), and
// formats integers, text and Booleans for the client straight from their
// encodings (scan_stored.go).

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

// storedInstant reads a value's encoding as an instant: kind instantNone
// when it is of another kind (or malformed).
func storedInstant(enc []byte) instant {
	if v, ok := rowcodec.RowValueInt(enc); ok {
		return instant{kind: instantInt, hi: v}
	}
	if rowcodec.RowValueIsNull(enc) {
		return instant{kind: instantNull}
	}
	if sec, ns, ok := rowcodec.RowValueTime(enc); ok {
		return instant{kind: instantTime, hi: sec, lo: ns}
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

// appendStoredWire appends the wire form (text, or binary when binaryFmt)
// of one stored value for a column of type oid, for the kinds a result
// column mostly is: integers, strings and booleans of their own types.
// null reports a NULL (nothing appended); ok is false for any other kind,
// which the caller decodes and formats as usual. The output is what
// types.AppendText and types.AppendBinary give for the decoded value
// (TestStoredWireMatchesTheDecodedEncoders holds it to them).
func appendStoredWire(dst, enc []byte, oid types.OID, binaryFmt bool) (out []byte, null, ok bool) {
	if v, ok := rowcodec.RowValueInt(enc); ok {
		return appendStoredInt(dst, v, oid, binaryFmt)
	}
	if rowcodec.RowValueIsNull(enc) {
		return dst, true, true // nil is a position past the tuple: a column added later
	}
	switch oid {
	case types.Text, types.Varchar, types.Bpchar, types.Name:
		if text, ok := rowcodec.RowValueText(enc); ok {
			return append(dst, text...), false, true
		}
	case types.Bool:
		b, ok := rowcodec.RowValueBool(enc)
		switch {
		case !ok:
		case binaryFmt && b:
			return append(dst, 1), false, true
		case binaryFmt:
			return append(dst, 0), false, true
		case b:
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
