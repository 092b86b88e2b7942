package types

import (
	"encoding/binary"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
)

func badBinary(format string, args ...any) error {
	return pgerror.New(pgerror.InvalidBinaryRepresentation, format, args...)
}

// ParseBinary reads a value in PostgreSQL's binary format (as in a Bind
// message or binary COPY). t's modifier is not applied; use ApplyTypmod.
func ParseBinary(t T, b []byte) (Value, error) {
	oid := t.OID
	need := func(n int) error {
		if len(b) != n {
			return badBinary("incorrect binary data format")
		}
		return nil
	}
	switch oid {
	case Bool:
		if err := need(1); err != nil {
			return nil, err
		}
		return b[0] != 0, nil
	case Int2:
		if err := need(2); err != nil {
			return nil, err
		}
		return int64(int16(binary.BigEndian.Uint16(b))), nil
	case Int4:
		if err := need(4); err != nil {
			return nil, err
		}
		return int64(int32(binary.BigEndian.Uint32(b))), nil
	case Int8:
		if err := need(8); err != nil {
			return nil, err
		}
		return int64(binary.BigEndian.Uint64(b)), nil
	case Oid, Xid, Regproc, Regprocedure, Regoper, Regclass, Regtype, Regnamespace, Regrole:
		if err := need(4); err != nil {
			return nil, err
		}
		return int64(binary.BigEndian.Uint32(b)), nil
	case Float4:
		if err := need(4); err != nil {
			return nil, err
		}
		return float64(math.Float32frombits(binary.BigEndian.Uint32(b))), nil
	case Float8:
		if err := need(8); err != nil {
			return nil, err
		}
		return math.Float64frombits(binary.BigEndian.Uint64(b)), nil
	case Numeric:
		return parseNumericBinary(b)
	case Text, Varchar, Bpchar, Name, Unknown, Xml:
		if err := VerifyUTF8(string(b)); err != nil {
			return nil, err
		}
		if oid == Name {
			return truncateName(string(b)), nil
		}
		return string(b), nil
	case Char:
		if len(b) == 0 || b[0] == 0 {
			return "", nil
		}
		return string(b[:1]), nil
	case JSON:
		if err := validJSON(string(b)); err != nil {
			return nil, err
		}
		return string(b), nil
	case JSONB:
		if len(b) == 0 || b[0] != 1 {
			return nil, badBinary("unsupported jsonb version number %d", firstByte(b))
		}
		return normalizeJSONB(string(b[1:]))
	case Bytea:
		return append([]byte{}, b...), nil
	case Inet:
		return parseInetBinary(b)
	case UUID:
		if err := need(16); err != nil {
			return nil, err
		}
		var u UUIDValue
		copy(u[:], b)
		return u, nil
	case Date:
		if err := need(4); err != nil {
			return nil, err
		}
		return FromDays(int64(int32(binary.BigEndian.Uint32(b)))), nil
	case Time:
		if err := need(8); err != nil {
			return nil, err
		}
		us := int64(binary.BigEndian.Uint64(b))
		if us < 0 || us > usPerDay {
			return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "time out of range")
		}
		return TimeOfDay(us), nil
	case Timestamp, Timestamptz:
		if err := need(8); err != nil {
			return nil, err
		}
		ts := FromMicros(int64(binary.BigEndian.Uint64(b)))
		if !timestampInRange(ts) {
			return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "timestamp out of range")
		}
		return ts, nil
	case Interval:
		if err := need(16); err != nil {
			return nil, err
		}
		return IntervalValue{
			Micros: int64(binary.BigEndian.Uint64(b)),
			Days:   int32(binary.BigEndian.Uint32(b[8:])),
			Months: int32(binary.BigEndian.Uint32(b[12:])),
		}, nil
	case Record:
		return parseRecordBinary(b)
	}
	if elem := ElemOf(oid); elem != 0 {
		return parseArrayBinary(elem, b)
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "binary input of type %s is not supported", FormatType(t))
}

func firstByte(b []byte) int {
	if len(b) == 0 {
		return -1
	}
	return int(b[0])
}

// AppendBinary appends v in PostgreSQL's binary format for type t. v must not
// be nil: NULL is the wire's length -1, not a value.
func AppendBinary(dst []byte, t T, v Value) ([]byte, error) {
	oid := t.OID
	wrong := func() ([]byte, error) {
		return nil, pgerror.New(pgerror.InternalError, "cannot encode %T as binary %s", v, FormatType(t))
	}
	switch oid {
	case Bool:
		x, ok := v.(bool)
		if !ok {
			return wrong()
		}
		if x {
			return append(dst, 1), nil
		}
		return append(dst, 0), nil
	case Int2, Int4, Int8, Oid, Xid, Regproc, Regprocedure, Regoper, Regclass, Regtype, Regnamespace, Regrole:
		x, ok := v.(int64)
		if !ok {
			return wrong()
		}
		switch oid {
		case Int2:
			return binary.BigEndian.AppendUint16(dst, uint16(x)), nil
		case Int8:
			return binary.BigEndian.AppendUint64(dst, uint64(x)), nil
		}
		return binary.BigEndian.AppendUint32(dst, uint32(x)), nil
	case Float4:
		x, ok := v.(float64)
		if !ok {
			return wrong()
		}
		if math.IsNaN(x) {
			return binary.BigEndian.AppendUint32(dst, 0x7fc00000|math.Float32bits(float32(x))&(1<<31)), nil // PostgreSQL's NaN
		}
		return binary.BigEndian.AppendUint32(dst, math.Float32bits(float32(x))), nil
	case Float8:
		x, ok := v.(float64)
		if !ok {
			return wrong()
		}
		if math.IsNaN(x) {
			return binary.BigEndian.AppendUint64(dst, 0x7ff8000000000000|math.Float64bits(x)&(1<<63)), nil // PostgreSQL's NaN
		}
		return binary.BigEndian.AppendUint64(dst, math.Float64bits(x)), nil
	case Numeric:
		x, ok := v.(*apd.Decimal)
		if !ok {
			return wrong()
		}
		return appendNumericBinary(dst, x), nil
	case Char:
		x, ok := v.(string)
		if !ok {
			return wrong()
		}
		if x == "" {
			return append(dst, 0), nil
		}
		return append(dst, x[0]), nil
	case Text, Varchar, Bpchar, Name, Unknown, JSON, Xml:
		x, ok := v.(string)
		if !ok {
			return wrong()
		}
		return append(dst, x...), nil
	case JSONB:
		x, ok := v.(string)
		if !ok {
			return wrong()
		}
		return append(append(dst, 1), x...), nil
	case Bytea:
		x, ok := v.([]byte)
		if !ok {
			return wrong()
		}
		return append(dst, x...), nil
	case Inet:
		return appendInetBinary(dst, v)
	case UUID:
		x, ok := v.(UUIDValue)
		if !ok {
			return wrong()
		}
		return append(dst, x[:]...), nil
	case Date:
		x, ok := v.(time.Time)
		if !ok {
			return wrong()
		}
		return binary.BigEndian.AppendUint32(dst, uint32(int32(Days(x)))), nil
	case Time:
		x, ok := v.(TimeOfDay)
		if !ok {
			return wrong()
		}
		return binary.BigEndian.AppendUint64(dst, uint64(x)), nil
	case Timestamp, Timestamptz:
		x, ok := v.(time.Time)
		if !ok {
			return wrong()
		}
		return binary.BigEndian.AppendUint64(dst, uint64(Micros(x))), nil
	case Interval:
		x, ok := v.(IntervalValue)
		if !ok {
			return wrong()
		}
		dst = binary.BigEndian.AppendUint64(dst, uint64(x.Micros))
		dst = binary.BigEndian.AppendUint32(dst, uint32(x.Days))
		return binary.BigEndian.AppendUint32(dst, uint32(x.Months)), nil
	case Record:
		x, ok := v.(RecordValue)
		if !ok {
			return wrong()
		}
		return appendRecordBinary(dst, x)
	}
	if elem := ElemOf(oid); elem != 0 {
		x, ok := v.(ArrayValue)
		if !ok {
			return wrong()
		}
		return appendArrayBinary(dst, T{OID: elem, Typmod: t.Typmod}, x)
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "binary output of type %s is not supported", FormatType(t))
}

// Numeric binary format: ndigits, weight, sign, dscale (int16 each), then
// ndigits base-10000 digits; the value is sum(digit[i] * 10000^(weight-i)).
const (
	numericPos  = 0x0000
	numericNeg  = 0x4000
	numericNaN  = 0xC000
	numericPInf = 0xD000
	numericNInf = 0xF000
)

func appendNumericBinary(dst []byte, d *apd.Decimal) []byte {
	head := func(ndigits, weight int, sign uint16, dscale int) {
		dst = binary.BigEndian.AppendUint16(dst, uint16(ndigits))
		dst = binary.BigEndian.AppendUint16(dst, uint16(int16(weight)))
		dst = binary.BigEndian.AppendUint16(dst, sign)
		dst = binary.BigEndian.AppendUint16(dst, uint16(dscale))
	}
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		head(0, 0, numericNaN, 0)
		return dst
	case apd.Infinite:
		// PostgreSQL sends infinities with dscale 32.
		if d.Negative {
			head(0, 0, numericNInf, 32)
		} else {
			head(0, 0, numericPInf, 32)
		}
		return dst
	}
	dscale := 0
	if d.Exponent < 0 {
		dscale = int(-d.Exponent)
	}
	digits := d.Coeff.String()
	if digits == "0" {
		head(0, 0, numericPos, dscale)
		return dst
	}
	var intPart, frac string
	if d.Exponent >= 0 {
		intPart = digits + strings.Repeat("0", int(d.Exponent))
	} else {
		n := len(digits) - dscale
		if n > 0 {
			intPart, frac = digits[:n], digits[n:]
		} else {
			frac = strings.Repeat("0", -n) + digits
		}
	}
	if r := len(intPart) % 4; r != 0 {
		intPart = strings.Repeat("0", 4-r) + intPart
	}
	if r := len(frac) % 4; r != 0 {
		frac += strings.Repeat("0", 4-r)
	}
	all := intPart + frac
	groups := make([]uint16, 0, len(all)/4)
	for i := 0; i < len(all); i += 4 {
		g := uint16(all[i]-'0')*1000 + uint16(all[i+1]-'0')*100 + uint16(all[i+2]-'0')*10 + uint16(all[i+3]-'0')
		groups = append(groups, g)
	}
	weight := len(intPart)/4 - 1
	for len(groups) > 0 && groups[0] == 0 {
		groups = groups[1:]
		weight--
	}
	for len(groups) > 0 && groups[len(groups)-1] == 0 {
		groups = groups[:len(groups)-1]
	}
	sign := uint16(numericPos)
	if d.Negative {
		sign = numericNeg
	}
	head(len(groups), weight, sign, dscale)
	for _, g := range groups {
		dst = binary.BigEndian.AppendUint16(dst, g)
	}
	return dst
}

func parseNumericBinary(b []byte) (Value, error) {
	if len(b) < 8 {
		return nil, badBinary("insufficient data left in message")
	}
	ndigits := int(binary.BigEndian.Uint16(b))
	weight := int(int16(binary.BigEndian.Uint16(b[2:])))
	sign := binary.BigEndian.Uint16(b[4:])
	dscale := int(binary.BigEndian.Uint16(b[6:]))
	if len(b) != 8+2*ndigits {
		return nil, badBinary("insufficient data left in message")
	}
	switch sign {
	case numericNaN:
		return &apd.Decimal{Form: apd.NaN}, nil
	case numericPInf:
		return &apd.Decimal{Form: apd.Infinite}, nil
	case numericNInf:
		return &apd.Decimal{Form: apd.Infinite, Negative: true}, nil
	case numericPos, numericNeg:
	default:
		return nil, badBinary("invalid sign in external \"numeric\" value")
	}
	if dscale > numericMaxScale {
		return nil, badBinary("invalid scale in external \"numeric\" value")
	}
	var sb strings.Builder
	for i := 0; i < ndigits; i++ {
		g := binary.BigEndian.Uint16(b[8+2*i:])
		if g >= 10000 {
			return nil, badBinary("invalid digit in external \"numeric\" value")
		}
		sb.WriteByte(byte('0' + g/1000))
		sb.WriteByte(byte('0' + g/100%10))
		sb.WriteByte(byte('0' + g/10%10))
		sb.WriteByte(byte('0' + g%10))
	}
	// value = digits * 10^((weight - ndigits + 1) * 4)
	exp := (weight - ndigits + 1) * 4
	coeff := sb.String()
	if coeff == "" {
		coeff = "0"
		exp = 0
	}
	// rescale to exactly dscale fractional digits
	target := -dscale
	switch {
	case exp > target:
		coeff += strings.Repeat("0", exp-target)
	case exp < target:
		cut := target - exp
		if cut >= len(coeff) {
			coeff = "0"
		} else {
			coeff = coeff[:len(coeff)-cut]
		}
	}
	var bi big.Int
	if _, ok := bi.SetString(coeff, 10); !ok {
		return nil, badBinary("invalid digit in external \"numeric\" value")
	}
	d := new(apd.Decimal)
	d.Coeff.SetMathBigInt(&bi)
	d.Exponent = int32(target)
	d.Negative = sign == numericNeg && !d.IsZero()
	return d, nil
}

// Array binary format: ndim, has-null flag, element OID, per dimension
// (length, lower bound), then each element as int32 length (-1 for NULL) and
// bytes.
func appendArrayBinary(dst []byte, elem T, a ArrayValue) ([]byte, error) {
	dims := a.Dims
	if len(dims) == 0 && len(a.Elems) > 0 {
		dims = []int{len(a.Elems)}
	}
	hasNull := uint32(0)
	for _, e := range a.Elems {
		if e == nil {
			hasNull = 1
			break
		}
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(dims)))
	dst = binary.BigEndian.AppendUint32(dst, hasNull)
	dst = binary.BigEndian.AppendUint32(dst, uint32(elem.OID))
	for _, d := range dims {
		dst = binary.BigEndian.AppendUint32(dst, uint32(d))
		dst = binary.BigEndian.AppendUint32(dst, 1)
	}
	for _, e := range a.Elems {
		if e == nil {
			dst = binary.BigEndian.AppendUint32(dst, math.MaxUint32)
			continue
		}
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		var err error
		dst, err = AppendBinary(dst, elem, e)
		if err != nil {
			return nil, err
		}
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	return dst, nil
}

func parseArrayBinary(elem OID, b []byte) (Value, error) {
	short := badBinary("insufficient data left in message")
	if len(b) < 12 {
		return nil, short
	}
	ndim := int(int32(binary.BigEndian.Uint32(b)))
	elemOID := OID(binary.BigEndian.Uint32(b[8:]))
	b = b[12:]
	if ndim < 0 || ndim > 6 {
		return nil, badBinary("invalid number of dimensions: %d", ndim)
	}
	if elemOID != elem {
		return nil, pgerror.New(pgerror.DatatypeMismatch, "binary data has array element type %d (%s) instead of expected %d (%s)",
			elemOID, FormatType(Of(elemOID)), elem, FormatType(Of(elem)))
	}
	a := ArrayValue{Elem: elem}
	n := 1
	var dims []int
	for i := 0; i < ndim; i++ {
		if len(b) < 8 {
			return nil, short
		}
		d := int(int32(binary.BigEndian.Uint32(b)))
		if d < 0 || (n > 0 && d > math.MaxInt32/n) {
			return nil, pgerror.New(pgerror.ProgramLimitExceeded, "array size exceeds the maximum allowed")
		}
		dims = append(dims, d)
		n *= d
		b = b[8:]
	}
	if ndim == 0 {
		n = 0
	}
	if ndim > 1 {
		a.Dims = dims
	}
	a.Elems = make([]Value, 0, min(n, len(b)/4))
	for i := 0; i < n; i++ {
		if len(b) < 4 {
			return nil, short
		}
		l := int(int32(binary.BigEndian.Uint32(b)))
		b = b[4:]
		if l == -1 {
			a.Elems = append(a.Elems, nil)
			continue
		}
		if l < 0 || l > len(b) {
			return nil, short
		}
		v, err := ParseBinary(Of(elem), b[:l])
		if err != nil {
			return nil, err
		}
		a.Elems = append(a.Elems, v)
		b = b[l:]
	}
	if len(b) != 0 {
		return nil, badBinary("incorrect binary data format in array")
	}
	return a, nil
}

// Record binary format: nfields, then per field its type OID, int32 length
// (-1 for NULL) and bytes.
func appendRecordBinary(dst []byte, r RecordValue) ([]byte, error) {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(r.Fields)))
	for i, f := range r.Fields {
		t := Of(Text)
		if i < len(r.Types) {
			t = r.Types[i]
		}
		dst = binary.BigEndian.AppendUint32(dst, uint32(t.OID))
		if f == nil {
			dst = binary.BigEndian.AppendUint32(dst, math.MaxUint32)
			continue
		}
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		var err error
		dst, err = AppendBinary(dst, t, f)
		if err != nil {
			return nil, err
		}
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	return dst, nil
}

func parseRecordBinary(b []byte) (Value, error) {
	short := badBinary("insufficient data left in message")
	if len(b) < 4 {
		return nil, short
	}
	n := int(int32(binary.BigEndian.Uint32(b)))
	b = b[4:]
	if n < 0 || n > len(b)/8 {
		return nil, short
	}
	r := RecordValue{Types: make([]T, n), Fields: make([]Value, n)}
	for i := 0; i < n; i++ {
		if len(b) < 8 {
			return nil, short
		}
		r.Types[i] = Of(OID(binary.BigEndian.Uint32(b)))
		l := int(int32(binary.BigEndian.Uint32(b[4:])))
		b = b[8:]
		if l == -1 {
			continue
		}
		if l < 0 || l > len(b) {
			return nil, short
		}
		v, err := ParseBinary(r.Types[i], b[:l])
		if err != nil {
			return nil, err
		}
		r.Fields[i] = v
		b = b[l:]
	}
	if len(b) != 0 {
		return nil, badBinary("improper binary format in record column %d", n)
	}
	return r, nil
}
