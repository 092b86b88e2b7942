package rowcodec

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/types"
)

// Row format: a uvarint count of values, then each value as a tag byte and
// its payload. Tags name the Go kind of the value, so a row decodes without
// its schema; the catalog's column types give the SQL types back.
const (
	rowNull       = 0
	rowFalse      = 1
	rowTrue       = 2
	rowInt        = 3 // zigzag varint
	rowFloat      = 4 // 8 bytes, IEEE 754, little-endian
	rowNumSmall   = 5 // flags, zigzag exponent, uvarint coefficient
	rowNumBig     = 6 // flags, zigzag exponent, uvarint length, big-endian coefficient
	rowString     = 7 // uvarint length, bytes
	rowBytes      = 8 // uvarint length, bytes
	rowTime       = 9 // zigzag Unix seconds, uvarint nanoseconds
	rowTimeOfDay  = 10
	rowInterval   = 11 // zigzag months, days, microseconds
	rowUUID       = 12 // 16 bytes
	rowArray      = 13 // uvarint element OID, uvarint ndims, dims, uvarint count, values
	rowRecord     = 14 // uvarint count, (uvarint OID, zigzag typmod) each, values
	rowNumNaN     = 15
	rowNumPosInf  = 16
	rowNumNegInf  = 17
	rowFloatZero  = 18 // +0, the most common float
	rowIntSmall   = 32 // 32..127: the integers -16..79 in the tag alone
	rowIntSmallLo = -16
	rowIntSmallHi = 79
)

// EncodeRow appends the encoding of vals to dst. The types accepted are
// those of types.Value (plus int and int32, stored as int64).
func EncodeRow(dst []byte, vals []types.Value) ([]byte, error) {
	dst = AppendRowHeader(dst, len(vals))
	for _, v := range vals {
		var err error
		if dst, err = appendRowValue(dst, v); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// AppendRowHeader and AppendRowValue build a row piece by piece, for a
// writer that has some of its values encoded already (as SplitRow gives
// them): a row of n values is the header, then each value's encoding, so
// EncodeRow(dst, vals) is AppendRowHeader(dst, len(vals)) followed by
// AppendRowValue of each.
func AppendRowHeader(dst []byte, n int) []byte { return binary.AppendUvarint(dst, uint64(n)) }

// AppendRowValue appends one value's encoding; see AppendRowHeader.
func AppendRowValue(dst []byte, v types.Value) ([]byte, error) { return appendRowValue(dst, v) }

// RowNull is the encoding of NULL, for a writer building a row piece by
// piece.
var RowNull = []byte{rowNull}

func appendRowValue(dst []byte, v types.Value) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, rowNull), nil
	case bool:
		if x {
			return append(dst, rowTrue), nil
		}
		return append(dst, rowFalse), nil
	case int64:
		return appendRowInt(dst, x), nil
	case int:
		return appendRowInt(dst, int64(x)), nil
	case int32:
		return appendRowInt(dst, int64(x)), nil
	case float64:
		if x == 0 && !math.Signbit(x) {
			return append(dst, rowFloatZero), nil
		}
		return binary.LittleEndian.AppendUint64(append(dst, rowFloat), math.Float64bits(x)), nil
	case *apd.Decimal:
		switch x.Form {
		case apd.NaN, apd.NaNSignaling:
			return append(dst, rowNumNaN), nil
		case apd.Infinite:
			if x.Negative {
				return append(dst, rowNumNegInf), nil
			}
			return append(dst, rowNumPosInf), nil
		}
		var flags byte
		if x.Negative {
			flags = 1
		}
		if x.Coeff.IsUint64() {
			dst = append(dst, rowNumSmall, flags)
			dst = binary.AppendVarint(dst, int64(x.Exponent))
			return binary.AppendUvarint(dst, x.Coeff.Uint64()), nil
		}
		dst = append(dst, rowNumBig, flags)
		dst = binary.AppendVarint(dst, int64(x.Exponent))
		mag := x.Coeff.Bytes()
		dst = binary.AppendUvarint(dst, uint64(len(mag)))
		return append(dst, mag...), nil
	case string:
		dst = binary.AppendUvarint(append(dst, rowString), uint64(len(x)))
		return append(dst, x...), nil
	case []byte:
		dst = binary.AppendUvarint(append(dst, rowBytes), uint64(len(x)))
		return append(dst, x...), nil
	case time.Time:
		dst = binary.AppendVarint(append(dst, rowTime), x.Unix())
		return binary.AppendUvarint(dst, uint64(x.Nanosecond())), nil
	case types.TimeOfDay:
		return binary.AppendVarint(append(dst, rowTimeOfDay), int64(x)), nil
	case types.IntervalValue:
		dst = binary.AppendVarint(append(dst, rowInterval), int64(x.Months))
		dst = binary.AppendVarint(dst, int64(x.Days))
		return binary.AppendVarint(dst, x.Micros), nil
	case types.UUIDValue:
		return append(append(dst, rowUUID), x[:]...), nil
	case types.ArrayValue:
		dst = binary.AppendUvarint(append(dst, rowArray), uint64(x.Elem))
		dst = binary.AppendUvarint(dst, uint64(len(x.Dims)))
		for _, d := range x.Dims {
			dst = binary.AppendUvarint(dst, uint64(d))
		}
		dst = binary.AppendUvarint(dst, uint64(len(x.Elems)))
		for _, e := range x.Elems {
			var err error
			if dst, err = appendRowValue(dst, e); err != nil {
				return nil, err
			}
		}
		return dst, nil
	case types.RecordValue:
		dst = binary.AppendUvarint(append(dst, rowRecord), uint64(len(x.Fields)))
		for i := range x.Fields {
			t := types.T{OID: types.Unknown, Typmod: -1}
			if i < len(x.Types) {
				t = x.Types[i]
			}
			dst = binary.AppendUvarint(dst, uint64(t.OID))
			dst = binary.AppendVarint(dst, int64(t.Typmod))
		}
		for _, f := range x.Fields {
			var err error
			if dst, err = appendRowValue(dst, f); err != nil {
				return nil, err
			}
		}
		return dst, nil
	}
	return nil, fmt.Errorf("rowcodec: cannot encode %T in a row", v)
}

func appendRowInt(dst []byte, v int64) []byte {
	if v >= rowIntSmallLo && v <= rowIntSmallHi {
		return append(dst, byte(rowIntSmall+v-rowIntSmallLo))
	}
	return binary.AppendVarint(append(dst, rowInt), v)
}

// DecodeRow decodes a row that EncodeRow wrote. The values never alias b:
// strings and byte slices are copied, so b may be bbolt memory that goes away
// when the transaction ends.
func DecodeRow(b []byte) ([]types.Value, error) {
	return DecodeRowInto(nil, b)
}

// DecodeRowInto is DecodeRow that reuses dst's storage for the value slice.
func DecodeRowInto(dst []types.Value, b []byte) ([]types.Value, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, corrupt("row: bad value count")
	}
	d := rowDecoder{b: b[k:]}
	if cap(dst) >= int(n) {
		dst = dst[:n]
	} else {
		dst = make([]types.Value, n)
	}
	for i := range dst {
		v, err := d.value(0)
		if err != nil {
			return nil, err
		}
		dst[i] = v
	}
	if len(d.b) != 0 {
		return nil, corrupt("row: %d bytes after the last value", len(d.b))
	}
	return dst, nil
}

type rowDecoder struct {
	b []byte
	// strs is one copy of the row's bytes from its first string on; the
	// row's strings are substrings of it, so a row costs one allocation for
	// all its strings. Rows whose tail is large copy each string instead, so
	// a small string never keeps a large row alive.
	strs     string
	haveStrs bool
	baseLen  int
}

const sharedStringMax = 4096

func (d *rowDecoder) uvarint() (uint64, error) {
	v, k := binary.Uvarint(d.b)
	if k <= 0 {
		return 0, corrupt("row: bad varint")
	}
	d.b = d.b[k:]
	return v, nil
}

func (d *rowDecoder) varint() (int64, error) {
	v, k := binary.Varint(d.b)
	if k <= 0 {
		return 0, corrupt("row: bad varint")
	}
	d.b = d.b[k:]
	return v, nil
}

func (d *rowDecoder) take(n uint64) ([]byte, error) {
	if n > uint64(len(d.b)) {
		return nil, corrupt("row: value runs past the end")
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p, nil
}

func (d *rowDecoder) str(p []byte) string {
	if !d.haveStrs {
		// p is followed in memory by d.b: together they are the rest of the row.
		if len(p)+len(d.b) > sharedStringMax {
			return string(p)
		}
		d.haveStrs = true
		d.baseLen = len(p) + len(d.b)
		d.strs = string(p[:d.baseLen])
	}
	off := d.baseLen - len(d.b) - len(p)
	return d.strs[off : off+len(p)]
}

func (d *rowDecoder) value(depth int) (types.Value, error) {
	if len(d.b) == 0 {
		return nil, corrupt("row: missing value")
	}
	if depth > 64 {
		return nil, corrupt("row: nested too deep")
	}
	tag := d.b[0]
	d.b = d.b[1:]
	switch {
	case tag >= rowIntSmall && tag < rowIntSmall+rowIntSmallHi-rowIntSmallLo+1:
		return int64(tag) - rowIntSmall + rowIntSmallLo, nil
	}
	switch tag {
	case rowNull:
		return nil, nil
	case rowFalse:
		return false, nil
	case rowTrue:
		return true, nil
	case rowInt:
		return d.varint()
	case rowFloatZero:
		return float64(0), nil
	case rowFloat:
		p, err := d.take(8)
		if err != nil {
			return nil, err
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(p)), nil
	case rowNumNaN:
		return &apd.Decimal{Form: apd.NaN}, nil
	case rowNumPosInf:
		return &apd.Decimal{Form: apd.Infinite}, nil
	case rowNumNegInf:
		return &apd.Decimal{Form: apd.Infinite, Negative: true}, nil
	case rowNumSmall, rowNumBig:
		if len(d.b) == 0 {
			return nil, corrupt("row: bad numeric")
		}
		neg := d.b[0] == 1
		d.b = d.b[1:]
		exp, err := d.varint()
		if err != nil {
			return nil, err
		}
		if exp < math.MinInt32 || exp > math.MaxInt32 {
			return nil, corrupt("row: bad numeric exponent")
		}
		dec := &apd.Decimal{Negative: neg, Exponent: int32(exp)}
		if tag == rowNumSmall {
			c, err := d.uvarint()
			if err != nil {
				return nil, err
			}
			dec.Coeff.SetUint64(c)
		} else {
			n, err := d.uvarint()
			if err != nil {
				return nil, err
			}
			p, err := d.take(n)
			if err != nil {
				return nil, err
			}
			dec.Coeff.SetBytes(p)
		}
		return dec, nil
	case rowString:
		n, err := d.uvarint()
		if err != nil {
			return nil, err
		}
		p, err := d.take(n)
		if err != nil {
			return nil, err
		}
		return d.str(p), nil
	case rowBytes:
		n, err := d.uvarint()
		if err != nil {
			return nil, err
		}
		p, err := d.take(n)
		if err != nil {
			return nil, err
		}
		return append([]byte{}, p...), nil
	case rowTime:
		sec, err := d.varint()
		if err != nil {
			return nil, err
		}
		ns, err := d.uvarint()
		if err != nil {
			return nil, err
		}
		if ns >= 1e9 {
			return nil, corrupt("row: bad timestamp")
		}
		return time.Unix(sec, int64(ns)).UTC(), nil
	case rowTimeOfDay:
		v, err := d.varint()
		return types.TimeOfDay(v), err
	case rowInterval:
		m, err1 := d.varint()
		dd, err2 := d.varint()
		us, err3 := d.varint()
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, corrupt("row: bad interval")
		}
		return types.IntervalValue{Months: int32(m), Days: int32(dd), Micros: us}, nil
	case rowUUID:
		p, err := d.take(16)
		if err != nil {
			return nil, err
		}
		var u types.UUIDValue
		copy(u[:], p)
		return u, nil
	case rowArray:
		elem, err := d.uvarint()
		if err != nil {
			return nil, err
		}
		nd, err := d.uvarint()
		if err != nil || nd > 6 {
			return nil, corrupt("row: bad array")
		}
		a := types.ArrayValue{Elem: types.OID(elem)}
		if nd > 0 {
			a.Dims = make([]int, nd)
			for i := range a.Dims {
				v, err := d.uvarint()
				if err != nil || v > math.MaxInt32 {
					return nil, corrupt("row: bad array")
				}
				a.Dims[i] = int(v)
			}
		}
		n, err := d.uvarint()
		if err != nil || n > uint64(len(d.b)) {
			return nil, corrupt("row: bad array")
		}
		a.Elems = make([]types.Value, n)
		for i := range a.Elems {
			if a.Elems[i], err = d.value(depth + 1); err != nil {
				return nil, err
			}
		}
		return a, nil
	case rowRecord:
		n, err := d.uvarint()
		if err != nil || n > uint64(len(d.b)) {
			return nil, corrupt("row: bad record")
		}
		r := types.RecordValue{Types: make([]types.T, n), Fields: make([]types.Value, n)}
		for i := range r.Types {
			oid, err1 := d.uvarint()
			mod, err2 := d.varint()
			if err1 != nil || err2 != nil {
				return nil, corrupt("row: bad record")
			}
			r.Types[i] = types.T{OID: types.OID(oid), Typmod: int32(mod)}
		}
		for i := range r.Fields {
			if r.Fields[i], err = d.value(depth + 1); err != nil {
				return nil, err
			}
		}
		return r, nil
	}
	return nil, corrupt("row: bad tag 0x%02x", tag)
}
