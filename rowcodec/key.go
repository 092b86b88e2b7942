package rowcodec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/types"
)

// Key encoding: every value starts with a tag byte, and the bytes compare
// (bytes.Compare) in the order types.Compare gives the values. Each encoding
// is self-delimiting, so the concatenation of several encodings (a composite
// key) compares tuple-wise: first column, then second, and so on.
//
// Ascending tags are all below 0x80; a descending encoding is the ascending
// one with every byte inverted, so its tags are all 0x80 or above and
// DecodeKey tells the two apart. NULL has the highest ascending tag: it sorts
// after every value ascending (PostgreSQL's NULLS LAST for ASC) and before
// every value descending (NULLS FIRST for DESC).
const (
	keyEnd = 0x00 // ends an array or record

	keyFalse = 0x10
	keyTrue  = 0x11

	// Integers: 0x17..0x1f negative (0x1f = -1 with no payload, 0x17 with 8
	// bytes), 0x20..0x28 non-negative (0x20 = 0, 0x28 with 8 bytes).
	keyIntZero = 0x20

	keyFloat    = 0x30
	keyFloatNaN = 0x31

	keyNumNegInf = 0x38
	keyNumNeg    = 0x39
	keyNumZero   = 0x3a
	keyNumPos    = 0x3b
	keyNumPosInf = 0x3c
	keyNumNaN    = 0x3d

	keyString = 0x40
	keyBytes  = 0x41

	keyTime      = 0x48
	keyTimeOfDay = 0x49
	keyInterval  = 0x4a
	keyUUID      = 0x4b

	keyRecord = 0x50
	keyArray  = 0x51

	keyNull = 0x7f
)

// AppendKey appends the ascending order-preserving encoding of v. Supported:
// nil (NULL), bool, int64 (and int, int32), float64, *apd.Decimal, string,
// []byte, time.Time, TimeOfDay, IntervalValue, UUIDValue, ArrayValue and
// RecordValue.
//
// Values that types.Compare calls equal encode equal: -0 and 0, every NaN,
// 1.0 and 1.00, '1 mon' and '30 days'. So DecodeKey returns a value equal to
// the encoded one but not always identical (see DecodeKey). bpchar compares
// ignoring trailing blanks: callers trim them before encoding a bpchar.
func AppendKey(dst []byte, v types.Value) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, keyNull), nil
	case bool:
		if x {
			return append(dst, keyTrue), nil
		}
		return append(dst, keyFalse), nil
	case int64:
		return appendKeyInt(dst, x), nil
	case int:
		return appendKeyInt(dst, int64(x)), nil
	case int32:
		return appendKeyInt(dst, int64(x)), nil
	case float64:
		if math.IsNaN(x) {
			return append(dst, keyFloatNaN), nil
		}
		if x == 0 {
			x = 0 // -0 encodes as 0
		}
		b := math.Float64bits(x)
		if b>>63 == 1 {
			b = ^b
		} else {
			b |= 1 << 63
		}
		return binary.BigEndian.AppendUint64(append(dst, keyFloat), b), nil
	case *apd.Decimal:
		return appendKeyDecimal(dst, x), nil
	case string:
		return appendKeyBytes(append(dst, keyString), x), nil
	case []byte:
		return appendKeyBytes(append(dst, keyBytes), x), nil
	case time.Time:
		dst = append(dst, keyTime)
		dst = binary.BigEndian.AppendUint64(dst, uint64(x.Unix())^1<<63)
		return binary.BigEndian.AppendUint32(dst, uint32(x.Nanosecond())), nil
	case types.TimeOfDay:
		return binary.BigEndian.AppendUint64(append(dst, keyTimeOfDay), uint64(x)^1<<63), nil
	case types.IntervalValue:
		hi, lo := types.IntervalSpan(x)
		dst = binary.BigEndian.AppendUint64(append(dst, keyInterval), uint64(hi)^1<<63)
		return binary.BigEndian.AppendUint64(dst, lo), nil
	case types.UUIDValue:
		return append(append(dst, keyUUID), x[:]...), nil
	case types.RecordValue:
		dst = append(dst, keyRecord)
		for _, f := range x.Fields {
			var err error
			if dst, err = AppendKey(dst, f); err != nil {
				return nil, err
			}
		}
		return append(dst, keyEnd), nil
	case types.ArrayValue:
		dst = binary.BigEndian.AppendUint32(append(dst, keyArray), uint32(x.Elem))
		for _, e := range x.Elems {
			var err error
			if dst, err = AppendKey(dst, e); err != nil {
				return nil, err
			}
		}
		dst = append(dst, keyEnd)
		// Then the shape, which types.Compare looks at after the elements.
		dims := x.Dims
		if len(dims) == 0 && len(x.Elems) > 0 {
			dims = []int{len(x.Elems)}
		}
		dst = append(dst, byte(len(dims)))
		for _, d := range dims {
			dst = binary.BigEndian.AppendUint32(dst, uint32(d))
		}
		return dst, nil
	}
	return nil, fmt.Errorf("rowcodec: cannot encode %T as a key", v)
}

// AppendKeyDesc appends the descending encoding of v: bytes compare in the
// reverse of types.Compare's order, NULL first.
func AppendKeyDesc(dst []byte, v types.Value) ([]byte, error) {
	n := len(dst)
	dst, err := AppendKey(dst, v)
	if err != nil {
		return nil, err
	}
	for i := n; i < len(dst); i++ {
		dst[i] = ^dst[i]
	}
	return dst, nil
}

// AppendKeyInt is AppendKey of an integer, without boxing it into a
// types.Value (a table's row ids are one each row).
func AppendKeyInt(dst []byte, v int64) []byte { return appendKeyInt(dst, v) }

func appendKeyInt(dst []byte, v int64) []byte {
	if v >= 0 {
		n := byteLen(uint64(v))
		dst = append(dst, byte(keyIntZero+n))
		for i := n - 1; i >= 0; i-- {
			dst = append(dst, byte(uint64(v)>>(8*i)))
		}
		return dst
	}
	u := uint64(^v) // -v-1, so -1 has no payload
	n := byteLen(u)
	dst = append(dst, byte(keyIntZero-1-n))
	for i := n - 1; i >= 0; i-- {
		dst = append(dst, ^byte(u>>(8*i)))
	}
	return dst
}

func byteLen(u uint64) int {
	n := 0
	for u != 0 {
		n++
		u >>= 8
	}
	return n
}

// appendKeyBytes writes s with 0x00 escaped as 0x00 0xff and ends it with
// 0x00 0x01, so a prefix sorts before its extensions and the end is found
// without a length.
func appendKeyBytes[S string | []byte](dst []byte, s S) []byte {
	for {
		i := bytes.IndexByte([]byte(s), 0)
		if i < 0 {
			break
		}
		dst = append(dst, s[:i]...)
		dst = append(dst, 0x00, 0xff)
		s = s[i+1:]
	}
	dst = append(dst, s...)
	return append(dst, 0x00, 0x01)
}

// appendKeyDecimal writes a finite non-zero number as its sign, the exponent
// E of 0.d1d2d3... x 10^E and its digits two to a byte (pair+1), without
// trailing zeros, ended by 0x00; a negative number has the exponent and digit
// bytes inverted so that larger magnitudes sort first.
func appendKeyDecimal(dst []byte, d *apd.Decimal) []byte {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return append(dst, keyNumNaN)
	case apd.Infinite:
		if d.Negative {
			return append(dst, keyNumNegInf)
		}
		return append(dst, keyNumPosInf)
	}
	if d.IsZero() {
		return append(dst, keyNumZero)
	}
	digits := d.Coeff.Append(nil, 10)
	if digits[0] == '-' {
		digits = digits[1:]
	}
	end := len(digits)
	for end > 1 && digits[end-1] == '0' {
		end--
	}
	e := int64(d.Exponent) + int64(len(digits))
	digits = digits[:end]
	var mask byte
	if d.Negative {
		dst = append(dst, keyNumNeg)
		mask = 0xff
	} else {
		dst = append(dst, keyNumPos)
	}
	var eb [4]byte
	binary.BigEndian.PutUint32(eb[:], uint32(int32(e))^1<<31)
	for _, b := range eb {
		dst = append(dst, b^mask)
	}
	for i := 0; i < len(digits); i += 2 {
		pair := (digits[i] - '0') * 10
		if i+1 < len(digits) {
			pair += digits[i+1] - '0'
		}
		dst = append(dst, (pair+1)^mask)
	}
	return append(dst, keyEnd^mask)
}

// keyReader reads an encoding, un-inverting a descending one.
type keyReader struct {
	b    []byte
	mask byte
}

func (r *keyReader) byte() (byte, bool) {
	if len(r.b) == 0 {
		return 0, false
	}
	c := r.b[0] ^ r.mask
	r.b = r.b[1:]
	return c, true
}

func (r *keyReader) uint64() (uint64, bool) {
	if len(r.b) < 8 {
		return 0, false
	}
	v := binary.BigEndian.Uint64(r.b)
	r.b = r.b[8:]
	if r.mask != 0 {
		v = ^v
	}
	return v, true
}

func (r *keyReader) uint32() (uint32, bool) {
	if len(r.b) < 4 {
		return 0, false
	}
	v := binary.BigEndian.Uint32(r.b)
	r.b = r.b[4:]
	if r.mask != 0 {
		v = ^v
	}
	return v, true
}

// DecodeKey reads one value that AppendKey or AppendKeyDesc wrote at the
// start of b and returns it with the bytes after it. The value is a copy,
// not aliasing b, and equal (types.Compare) to the one encoded, in a
// canonical form: numeric without trailing fractional zeros (1.50 comes back
// as 1.5), intervals as days and microseconds ('1 mon' comes back as
// '30 days'), -0 as 0, int and int32 as int64, arrays with their element
// type and record fields without types.
func DecodeKey(b []byte) (types.Value, []byte, error) {
	if len(b) == 0 {
		return nil, nil, corrupt("empty key")
	}
	r := keyReader{b: b}
	if b[0] >= 0x80 {
		r.mask = 0xff
	}
	v, err := r.value()
	if err != nil {
		return nil, nil, err
	}
	return v, r.b, nil
}

// KeyPrefix returns the part of a key (values AppendKey or AppendKeyDesc
// wrote one after another) that encodes its first n values. Integers and
// text, the kinds a table's key columns mostly are, are measured without
// being decoded.
func KeyPrefix(k []byte, n int) ([]byte, error) {
	rest := k
	for range n {
		if size, ok := keyValueSize(rest); ok {
			rest = rest[size:]
			continue
		}
		var err error
		if _, rest, err = DecodeKey(rest); err != nil {
			return nil, err
		}
	}
	return k[:len(k)-len(rest)], nil
}

// keyValueSize measures an ascending integer or text value at the start of
// b; false for any other (DecodeKey measures those). An integer's tag says
// how many bytes follow; text and bytea end at the first 0x00 0x01, a 0x00
// of their own being escaped as 0x00 0xff.
func keyValueSize(b []byte) (int, bool) {
	if len(b) == 0 {
		return 0, false
	}
	switch tag := b[0]; {
	case tag >= keyIntZero && tag <= keyIntZero+8:
		n := 1 + int(tag-keyIntZero)
		return n, n <= len(b)
	case tag >= keyIntZero-9 && tag < keyIntZero:
		n := 1 + int(keyIntZero-1-tag)
		return n, n <= len(b)
	case tag == keyString || tag == keyBytes:
		for i := 1; i+1 < len(b); i++ {
			if b[i] == 0x00 {
				if b[i+1] == 0x01 {
					return i + 2, true
				}
				i++ // 0x00 0xff: an escaped 0x00
			}
		}
	}
	return 0, false
}

func (r *keyReader) value() (types.Value, error) {
	bad := func(what string) error { return corrupt("key: bad %s", what) }
	tag, ok := r.byte()
	if !ok {
		return nil, bad("end")
	}
	switch {
	case tag == keyNull:
		return nil, nil
	case tag == keyFalse:
		return false, nil
	case tag == keyTrue:
		return true, nil
	case tag >= keyIntZero-9 && tag <= keyIntZero+8:
		if tag >= keyIntZero {
			n := int(tag - keyIntZero)
			var u uint64
			for i := 0; i < n; i++ {
				c, ok := r.byte()
				if !ok {
					return nil, bad("integer")
				}
				u = u<<8 | uint64(c)
			}
			return int64(u), nil
		}
		n := int(keyIntZero - 1 - tag)
		var u uint64
		for i := 0; i < n; i++ {
			c, ok := r.byte()
			if !ok {
				return nil, bad("integer")
			}
			u = u<<8 | uint64(^c)
		}
		return ^int64(u), nil
	case tag == keyFloat:
		u, ok := r.uint64()
		if !ok {
			return nil, bad("float")
		}
		if u>>63 == 1 {
			u &^= 1 << 63
		} else {
			u = ^u
		}
		return math.Float64frombits(u), nil
	case tag == keyFloatNaN:
		return types.NaN, nil
	case tag >= keyNumNegInf && tag <= keyNumNaN:
		return r.decimal(tag)
	case tag == keyString || tag == keyBytes:
		var out []byte
		for {
			c, ok := r.byte()
			if !ok {
				return nil, bad("string")
			}
			if c != 0 {
				out = append(out, c)
				continue
			}
			c, ok = r.byte()
			if !ok {
				return nil, bad("string")
			}
			if c == 0x01 {
				break
			}
			if c != 0xff {
				return nil, bad("string escape")
			}
			out = append(out, 0)
		}
		if tag == keyString {
			return string(out), nil
		}
		if out == nil {
			out = []byte{}
		}
		return out, nil
	case tag == keyTime:
		sec, ok1 := r.uint64()
		ns, ok2 := r.uint32()
		if !ok1 || !ok2 || ns >= 1e9 {
			return nil, bad("timestamp")
		}
		return time.Unix(int64(sec^1<<63), int64(ns)).UTC(), nil
	case tag == keyTimeOfDay:
		u, ok := r.uint64()
		if !ok {
			return nil, bad("time")
		}
		return types.TimeOfDay(u ^ 1<<63), nil
	case tag == keyInterval:
		hi, ok1 := r.uint64()
		lo, ok2 := r.uint64()
		if !ok1 || !ok2 {
			return nil, bad("interval")
		}
		return types.IntervalFromSpan(int64(hi^1<<63), lo), nil
	case tag == keyUUID:
		var u types.UUIDValue
		for i := range u {
			c, ok := r.byte()
			if !ok {
				return nil, bad("uuid")
			}
			u[i] = c
		}
		return u, nil
	case tag == keyRecord:
		var rec types.RecordValue
		for {
			if len(r.b) == 0 {
				return nil, bad("record")
			}
			if r.b[0]^r.mask == keyEnd {
				r.b = r.b[1:]
				return rec, nil
			}
			f, err := r.value()
			if err != nil {
				return nil, err
			}
			rec.Fields = append(rec.Fields, f)
		}
	case tag == keyArray:
		elem, ok := r.uint32()
		if !ok {
			return nil, bad("array")
		}
		a := types.ArrayValue{Elem: types.OID(elem)}
		for {
			if len(r.b) == 0 {
				return nil, bad("array")
			}
			if r.b[0]^r.mask == keyEnd {
				r.b = r.b[1:]
				break
			}
			e, err := r.value()
			if err != nil {
				return nil, err
			}
			a.Elems = append(a.Elems, e)
		}
		nd, ok := r.byte()
		if !ok {
			return nil, bad("array dimensions")
		}
		dims := make([]int, nd)
		for i := range dims {
			d, ok := r.uint32()
			if !ok {
				return nil, bad("array dimensions")
			}
			dims[i] = int(d)
		}
		if nd > 1 {
			a.Dims = dims
		}
		if a.Elems == nil {
			a.Elems = []types.Value{}
		}
		return a, nil
	}
	return nil, bad(fmt.Sprintf("tag 0x%02x", tag))
}

func (r *keyReader) decimal(tag byte) (types.Value, error) {
	switch tag {
	case keyNumNaN:
		return &apd.Decimal{Form: apd.NaN}, nil
	case keyNumPosInf:
		return &apd.Decimal{Form: apd.Infinite}, nil
	case keyNumNegInf:
		return &apd.Decimal{Form: apd.Infinite, Negative: true}, nil
	case keyNumZero:
		return &apd.Decimal{}, nil
	}
	var inner byte // un-invert a negative number's bytes too
	if tag == keyNumNeg {
		inner = 0xff
	}
	eu, ok := r.uint32()
	if !ok {
		return nil, corrupt("key: bad numeric")
	}
	if inner != 0 {
		eu = ^eu
	}
	e := int64(int32(eu ^ 1<<31))
	var digits []byte
	for {
		c, ok := r.byte()
		if !ok {
			return nil, corrupt("key: bad numeric")
		}
		c ^= inner
		if c == keyEnd {
			break
		}
		if c < 1 || c > 100 {
			return nil, corrupt("key: bad numeric digit")
		}
		p := c - 1
		digits = append(digits, '0'+p/10, '0'+p%10)
	}
	if len(digits) == 0 {
		return nil, corrupt("key: bad numeric")
	}
	if digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	d := new(apd.Decimal)
	if _, ok := d.Coeff.SetString(string(digits), 10); !ok {
		return nil, corrupt("key: bad numeric")
	}
	d.Exponent = int32(e - int64(len(digits)))
	d.Negative = tag == keyNumNeg
	return d, nil
}
