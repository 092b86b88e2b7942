package types

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
)

// ParseText converts a value in PostgreSQL's text format to the type's Value,
// as the type's input function would, and applies t's modifier the way an
// assignment does (varchar(n) too long is an error, numeric(p,s) rounds).
// Timestamps with time zone that name no zone are read in UTC; use
// ParseTextIn for a session zone.
func ParseText(t T, s string) (Value, error) {
	return ParseTextIn(t, s, time.UTC)
}

// ParseTextIn is ParseText with the session's time zone, used for timestamptz
// input that names no zone and for 'now', 'today' and friends, which read
// the clock.
func ParseTextIn(t T, s string, loc *time.Location) (Value, error) {
	return ParseTextWith(t, s, Input{Loc: loc})
}

// Input is what reading a value's text needs besides the text: the
// session's time zone (nil: UTC), and the moment 'now', 'today',
// 'tomorrow' and 'yesterday' stand for, which in PostgreSQL is the start of
// the transaction reading them (zero: the clock when the text is read).
type Input struct {
	Loc *time.Location
	Now time.Time
}

func (in Input) loc() *time.Location {
	if in.Loc == nil {
		return time.UTC
	}
	return in.Loc
}

// now is the moment 'now' stands for, in the input's time zone.
func (in Input) now() time.Time {
	if in.Now.IsZero() {
		return time.Now().In(in.loc())
	}
	return in.Now.In(in.loc())
}

// ParseTextBoxed is ParseTextWith, boxing text and integer values from
// b (see Boxes).
func ParseTextBoxed(t T, s string, in Input, b *Boxes) (Value, error) {
	bits := 0
	switch t.OID {
	case Text:
	case Int2:
		bits = 16
	case Int4:
		bits = 32
	case Int8:
		bits = 64
	default:
		return ParseTextWith(t, s, in)
	}
	if err := VerifyUTF8(s); err != nil {
		return nil, err
	}
	if bits == 0 {
		return b.String(s), nil
	}
	n, err := parseInt64(s, bits, t.OID)
	if err != nil {
		return nil, err
	}
	return b.Int64(n), nil
}

// ParseTextWith is ParseText with the session's time zone and transaction
// start.
func ParseTextWith(t T, s string, in Input) (Value, error) {
	if err := VerifyUTF8(s); err != nil {
		return nil, err
	}
	switch t.OID {
	case Bool:
		return parseBool(s)
	case Int2:
		return parseInt(s, 16, Int2)
	case Int4:
		return parseInt(s, 32, Int4)
	case Int8:
		return parseInt(s, 64, Int8)
	case Oid, Regproc, Regprocedure, Regoper, Regclass, Regtype, Regnamespace, Regrole:
		return parseOid(t.OID, s)
	case Xid:
		return parseOid(Oid, s)
	case Float4:
		return parseFloat(s, 32)
	case Float8:
		return parseFloat(s, 64)
	case Numeric:
		d, err := parseNumeric(s)
		if err != nil {
			return nil, err
		}
		return applyNumericTypmod(d, t.Typmod)
	case Text, Unknown, Xml, PgNodeTree, Aclitem:
		return s, nil
	case Varchar, Bpchar:
		return applyCharTypmod(t, s, false)
	case Name:
		return truncateName(s), nil
	case Char:
		return parseChar(s), nil
	case Bytea:
		return parseBytea(s)
	case Inet:
		return parseInet(s)
	case UUID:
		u, ok := parseUUID(s)
		if !ok {
			return nil, invalidSyntax(UUID, s)
		}
		return u, nil
	case JSON:
		if err := validJSON(s); err != nil {
			return nil, err
		}
		return s, nil
	case JSONB:
		return normalizeJSONB(s)
	case Date:
		return parseDate(s, in)
	case Time:
		tod, err := parseTime(s, in)
		if err != nil {
			return nil, err
		}
		return roundTimeOfDay(tod, t.Typmod), nil
	case Timestamp:
		ts, err := parseTimestamp(s, false, in)
		if err != nil {
			return nil, err
		}
		return roundTimestamp(ts, t.Typmod), nil
	case Timestamptz:
		ts, err := parseTimestamp(s, true, in)
		if err != nil {
			return nil, err
		}
		return roundTimestamp(ts, t.Typmod), nil
	case Interval:
		iv, err := parseInterval(s, intervalRange(t.Typmod))
		if err != nil {
			return nil, err
		}
		return roundInterval(iv, t.Typmod), nil
	case Int2Vector, OidVector:
		return parseVector(t.OID, s)
	}
	if elem := ElemOf(t.OID); elem != 0 {
		return parseArray(T{OID: elem, Typmod: t.Typmod}, s, in)
	}
	if t.OID == Record {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "input of anonymous composite types is not implemented")
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "text input of type %s is not supported", FormatType(t))
}

// FormatText converts v to PostgreSQL's text format, as the type's output
// function would. Timestamps with time zone print in UTC; use FormatTextIn for
// the session zone. A nil v (NULL) prints as the empty string: callers send
// NULL as NULL, not as text.
func FormatText(t T, v Value) string {
	return FormatTextIn(t, v, time.UTC)
}

// FormatTextIn is FormatText with the session's time zone.
func FormatTextIn(t T, v Value, loc *time.Location) string {
	return string(AppendText(nil, t, v, loc))
}

// AppendText appends the text format of v to dst; see FormatTextIn.
func AppendText(dst []byte, t T, v Value, loc *time.Location) []byte {
	if loc == nil {
		loc = time.UTC
	}
	switch x := v.(type) {
	case nil:
		return dst
	case bool:
		if x {
			return append(dst, 't')
		}
		return append(dst, 'f')
	case int64:
		if t.OID == Float4 || t.OID == Float8 {
			return appendFloat(dst, float64(x), t.OID == Float4)
		}
		return strconv.AppendInt(dst, x, 10)
	case float64:
		return appendFloat(dst, x, t.OID == Float4)
	case *apd.Decimal:
		return appendNumeric(dst, x)
	case string:
		if t.OID == Char {
			return appendChar(dst, x)
		}
		return append(dst, x...)
	case []byte:
		dst = append(dst, `\x`...)
		return hex.AppendEncode(dst, x)
	case time.Time:
		switch t.OID {
		case Date:
			return appendDate(dst, x)
		case Timestamptz:
			return appendTimestamp(dst, x, loc, true)
		case Time:
			return appendTimeOfDay(dst, timeOfDayOf(x))
		}
		return appendTimestamp(dst, x, time.UTC, false)
	case TimeOfDay:
		return appendTimeOfDay(dst, x)
	case IntervalValue:
		return appendInterval(dst, x)
	case UUIDValue:
		return appendUUID(dst, x)
	case ArrayValue:
		if t.OID == Int2Vector || t.OID == OidVector {
			return appendVector(dst, x)
		}
		return appendArray(dst, x, loc)
	case RecordValue:
		return appendRecord(dst, x, loc)
	case int:
		return strconv.AppendInt(dst, int64(x), 10)
	case int32:
		return strconv.AppendInt(dst, int64(x), 10)
	case float32:
		return appendFloat(dst, float64(x), true)
	}
	return fmt.Append(dst, v)
}

// VerifyUTF8 refuses text that is not UTF-8, as PostgreSQL's
// pg_verifymbstr does with any client input in a UTF8 database (and with
// NUL bytes, which text cannot hold): 22021, naming the bytes of the first
// bad character, as many as its first byte announces.
func VerifyUTF8(s string) error {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == 0 {
				return pgerror.New(pgerror.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": 0x00")
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			// pg_utf_mblen: a byte that starts no sequence counts alone.
			want := 1
			switch {
			case c&0xe0 == 0xc0:
				want = 2
			case c&0xf0 == 0xe0:
				want = 3
			case c&0xf8 == 0xf0:
				want = 4
			}
			var b strings.Builder
			for k := 0; k < want && i+k < len(s); k++ {
				if k > 0 {
					b.WriteByte(' ')
				}
				fmt.Fprintf(&b, "0x%02x", s[i+k])
			}
			return pgerror.New(pgerror.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": %s", b.String())
		}
		i += n
	}
	return nil
}

func invalidSyntax(oid OID, s string) *pgerror.Error {
	return pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", sqlName(oid), s)
}

func outOfRange(oid OID, s string) *pgerror.Error {
	return pgerror.New(pgerror.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", s, sqlName(oid))
}

// isSpace is C's isspace in the C locale, which PostgreSQL's input functions
// use to skip blanks.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// parseInt is pg_strtoint16/32/64: blanks around, an optional sign, decimal
// digits.
func parseInt(s string, bits int, oid OID) (Value, error) {
	n, err := parseInt64(s, bits, oid)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// parseInt64 is parseInt's value as the int64 it is.
func parseInt64(s string, bits int, oid OID) (int64, error) {
	n, ok, inRange := scanInt(trimSpace(s), bits)
	if !ok {
		return 0, invalidSyntax(oid, s)
	}
	if !inRange {
		return 0, outOfRange(oid, s)
	}
	return n, nil
}

func scanInt(s string, bits int) (n int64, ok, inRange bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, false, false
	}
	var u uint64
	overflow := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false, false
		}
		if u > (math.MaxUint64-9)/10 {
			overflow = true
		} else {
			u = u*10 + uint64(c-'0')
		}
	}
	limit := uint64(1) << (bits - 1)
	if overflow || (!neg && u >= limit) || (neg && u > limit) {
		return 0, true, false
	}
	if neg {
		return -int64(u), true, true
	}
	return int64(u), true, true
}

// parseOid is oidin: like strtoul, so a negative value wraps around.
func parseOid(oid OID, s string) (Value, error) {
	if oid != Oid {
		// Names need the catalog; the SQL layer resolves them. Here only
		// the numeric form is read, as PostgreSQL also accepts it.
		if _, ok, _ := scanInt(trimSpace(s), 64); !ok {
			return nil, pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", sqlName(Oid), s)
		}
	}
	t := trimSpace(s)
	n, ok, inRange := scanInt(t, 64)
	if !ok {
		return nil, invalidSyntax(Oid, s)
	}
	if !inRange || n > math.MaxUint32 || n < -math.MaxUint32 {
		return nil, outOfRange(Oid, s)
	}
	return int64(uint32(n)), nil
}

// parseBool is boolin: any unambiguous prefix of true/false/yes/no, on/off
// (two letters at least), 1/0; case-insensitive; blanks around.
func parseBool(s string) (Value, error) {
	t := strings.ToLower(trimSpace(s))
	if t != "" {
		switch {
		case strings.HasPrefix("true", t), strings.HasPrefix("yes", t), t == "1":
			return true, nil
		case strings.HasPrefix("false", t), strings.HasPrefix("no", t), t == "0":
			return false, nil
		case len(t) >= 2 && strings.HasPrefix("on", t):
			return true, nil
		case len(t) >= 2 && strings.HasPrefix("off", t):
			return false, nil
		}
	}
	return nil, invalidSyntax(Bool, s)
}

// NaN is the float NaN PostgreSQL uses (the quiet NaN with no payload).
var NaN = math.Float64frombits(0x7ff8000000000000)

// parseFloat is float4in/float8in: strtod's syntax plus NaN and Infinity;
// overflow and underflow to zero are out of range.
func parseFloat(s string, bits int) (Value, error) {
	oid := OID(Float8)
	if bits == 32 {
		oid = Float4
	}
	t := trimSpace(s)
	if t == "" || strings.ContainsRune(t, '_') {
		return nil, invalidSyntax(oid, s)
	}
	lt := strings.ToLower(t)
	switch strings.TrimLeft(lt, "+-") {
	case "nan":
		if lt[0] == '-' {
			return math.Copysign(NaN, -1), nil // strtod keeps the sign
		}
		return NaN, nil
	case "inf", "infinity":
		if lt[0] == '-' {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	}
	if h := strings.TrimLeft(lt, "+-"); strings.HasPrefix(h, "0x") && !strings.Contains(h, "p") {
		t += "p0" // strtod reads hexadecimal without a binary exponent; Go wants one
	}
	f, err := strconv.ParseFloat(t, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "\"%s\" is out of range for type %s", s, sqlName(oid))
		}
		return nil, invalidSyntax(oid, s)
	}
	if f == 0 && hasNonzeroMantissa(t) {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "\"%s\" is out of range for type %s", s, sqlName(oid))
	}
	return f, nil
}

func hasNonzeroMantissa(s string) bool {
	if strings.HasPrefix(strings.TrimLeft(strings.ToLower(s), "+-"), "0x") {
		s = strings.TrimLeft(strings.ToLower(s), "+-")[2:]
		for _, c := range s {
			if c == 'p' {
				return false
			}
			if c != '0' && c != '.' {
				return true
			}
		}
		return false
	}
	for _, c := range s {
		if c == 'e' || c == 'E' {
			return false
		}
		if c >= '1' && c <= '9' {
			return true
		}
	}
	return false
}

// appendFloat prints like float4out/float8out with PostgreSQL 15's default
// extra_float_digits = 1: the shortest digits that read back exactly, in
// exponent form when the decimal exponent is below -4 or at least the type's
// digits (15, or 6 for real).
func appendFloat(dst []byte, f float64, single bool) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	bits, maxExp := 64, 15
	if single {
		bits, maxExp = 32, 6
	}
	if f == 0 {
		if math.Signbit(f) {
			return append(dst, "-0"...)
		}
		return append(dst, '0')
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, bits)
	// e is [-]d[.ddd]e±XX
	ei := strings.LastIndexByte(string(e), 'e')
	if onRoundingBoundary(e[:ei], e[ei:], f, single) {
		// PostgreSQL's shortest digits never sit on the boundary between
		// two floats (Go's may, for an even mantissa): one digit more.
		// Such floats are too large for anything but exponent form.
		return strconv.AppendFloat(dst, f, 'e', digitsBefore(e[:ei]), bits)
	}
	exp, _ := strconv.Atoi(string(e[ei+1:]))
	if exp < -4 || exp >= maxExp {
		return append(dst, e...)
	}
	return strconv.AppendFloat(dst, f, 'f', -1, bits)
}

// digitsBefore counts the significant digits of a mantissa [-]d[.ddd].
func digitsBefore(mantissa []byte) int {
	n := 0
	for _, c := range mantissa {
		if c >= '0' && c <= '9' {
			n++
		}
	}
	return n
}

// onRoundingBoundary reports whether the decimal mantissa×10^exponent
// (exponent is "e±XX") lies exactly halfway between f and a neighbouring
// float of its width. Only floats whose neighbours are at least 2 apart
// can have such short decimals halfway (halfway points between smaller
// floats need more digits than a shortest form has), so others are not
// looked at.
func onRoundingBoundary(mantissa, exponent []byte, f float64, single bool) bool {
	limit := float64(1 << 53)
	if single {
		limit = 1 << 24
	}
	if math.Abs(f) < limit {
		return false
	}
	d, ok := new(big.Rat).SetString(string(mantissa) + string(exponent))
	if !ok {
		return false
	}
	for _, toward := range []float64{math.Inf(1), math.Inf(-1)} {
		var next float64
		if single {
			next = float64(math.Nextafter32(float32(f), float32(toward)))
		} else {
			next = math.Nextafter(f, toward)
		}
		if math.IsInf(next, 0) {
			continue
		}
		mid := new(big.Rat).Add(new(big.Rat).SetFloat64(f), new(big.Rat).SetFloat64(next))
		mid.Quo(mid, big.NewRat(2, 1))
		if d.Cmp(mid) == 0 {
			return true
		}
	}
	return false
}

// applyCharTypmod fits s to varchar(n)/char(n). Too long is an error unless
// only spaces would be cut, or the conversion is an explicit cast, which
// truncates. char(n) pads with spaces.
func applyCharTypmod(t T, s string, explicit bool) (Value, error) {
	n, ok := CharLength(t.Typmod)
	if !ok || (t.OID == Varchar && len(s) <= n) {
		return s, nil // no more bytes than varchar(n) allows characters
	}
	chars := utf8.RuneCountInString(s)
	if chars > n {
		cut := byteOffsetOfRune(s, n)
		if !explicit && strings.TrimRight(s[cut:], " ") != "" {
			name := "character varying"
			if t.OID == Bpchar {
				name = "character"
			}
			return nil, pgerror.New(pgerror.StringDataRightTruncation, "value too long for type %s(%d)", name, n)
		}
		s = s[:cut]
		chars = n
	}
	if t.OID == Bpchar && chars < n {
		s += strings.Repeat(" ", n-chars)
	}
	return s, nil
}

func byteOffsetOfRune(s string, n int) int {
	i := 0
	for k := range s {
		if i == n {
			return k
		}
		i++
	}
	return len(s)
}

// parseChar is charin: the first byte, or \ooo for any byte.
func parseChar(s string) string {
	if len(s) == 4 && s[0] == '\\' && isOctal(s[1]) && isOctal(s[2]) && isOctal(s[3]) && s[1] <= '3' {
		c := (s[1]-'0')<<6 | (s[2]-'0')<<3 | (s[3] - '0')
		if c == 0 {
			return ""
		}
		return string([]byte{c})
	}
	if s == "" {
		return ""
	}
	return s[:1]
}

// appendChar is charout: bytes with the high bit set print as \ooo.
func appendChar(dst []byte, s string) []byte {
	if s == "" {
		return dst
	}
	c := s[0]
	if c >= 0x80 {
		return append(dst, '\\', '0'+c>>6, '0'+c>>3&7, '0'+c&7)
	}
	return append(dst, c)
}

// NameDataLen is PostgreSQL's NAMEDATALEN: names hold at most 63 bytes.
const NameDataLen = 64

func truncateName(s string) string {
	if len(s) < NameDataLen {
		return s
	}
	cut := NameDataLen - 1
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// parseBytea is byteain: \x followed by hex digit pairs (blanks allowed
// between pairs), or the escape format (\\, \ooo, other bytes as they are).
func parseBytea(s string) (Value, error) {
	if strings.HasPrefix(s, `\x`) {
		out := make([]byte, 0, (len(s)-2)/2)
		for i := 2; i < len(s); {
			c := s[i]
			if isSpace(c) {
				i++
				continue
			}
			hi, ok := unhex(c)
			if !ok {
				return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid hexadecimal digit: \"%s\"", s[i:i+utf8Len(s[i:])])
			}
			if i+1 >= len(s) {
				return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid hexadecimal data: odd number of digits")
			}
			lo, ok := unhex(s[i+1])
			if !ok {
				return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid hexadecimal digit: \"%s\"", s[i+1:i+1+utf8Len(s[i+1:])])
			}
			out = append(out, hi<<4|lo)
			i += 2
		}
		return out, nil
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			out = append(out, s[i])
			i++
			continue
		}
		if i+1 < len(s) && s[i+1] == '\\' {
			out = append(out, '\\')
			i += 2
			continue
		}
		if i+3 < len(s)+0 && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) && s[i+1] <= '3' {
			out = append(out, (s[i+1]-'0')<<6|(s[i+2]-'0')<<3|(s[i+3]-'0'))
			i += 4
			continue
		}
		return nil, pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type bytea")
	}
	return out, nil
}

func utf8Len(s string) int {
	_, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return len(s)
	}
	return n
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// parseUUID is uuid_in: 32 hex digits, optionally in braces, optionally with
// a hyphen after any group of four digits.
func parseUUID(s string) (UUIDValue, bool) {
	var u UUIDValue
	t := s
	braces := strings.HasPrefix(t, "{")
	if braces {
		if !strings.HasSuffix(t, "}") {
			return u, false
		}
		t = t[1 : len(t)-1]
	}
	n := 0
	for i := 0; i < len(t); {
		if n == 32 {
			return u, false
		}
		hi, ok1 := unhex(t[i])
		if i+1 >= len(t) {
			return u, false
		}
		lo, ok2 := unhex(t[i+1])
		if !ok1 || !ok2 {
			return u, false
		}
		u[n/2] = hi<<4 | lo
		n += 2
		i += 2
		if i < len(t) && t[i] == '-' && n%4 == 0 && n < 32 && i+1 < len(t) {
			i++
		}
	}
	return u, n == 32
}

func appendUUID(dst []byte, u UUIDValue) []byte {
	var buf [36]byte
	hex.Encode(buf[0:8], u[0:4])
	buf[8] = '-'
	hex.Encode(buf[9:13], u[4:6])
	buf[13] = '-'
	hex.Encode(buf[14:18], u[6:8])
	buf[18] = '-'
	hex.Encode(buf[19:23], u[8:10])
	buf[23] = '-'
	hex.Encode(buf[24:], u[10:])
	return append(dst, buf[:]...)
}

// parseVector reads int2vector/oidvector: integers separated by blanks.
func parseVector(oid OID, s string) (Value, error) {
	elem := OID(Int2)
	if oid == OidVector {
		elem = Oid
	}
	fields := strings.FieldsFunc(s, func(r rune) bool { return r < utf8.RuneSelf && isSpace(byte(r)) })
	a := ArrayValue{Elem: elem, Elems: make([]Value, 0, len(fields))}
	for _, f := range fields {
		var v Value
		var err error
		if elem == Int2 {
			v, err = parseInt(f, 16, Int2)
		} else {
			v, err = parseOid(Oid, f)
		}
		if err != nil {
			return nil, err
		}
		a.Elems = append(a.Elems, v)
	}
	return a, nil
}

func appendVector(dst []byte, a ArrayValue) []byte {
	for i, e := range a.Elems {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = AppendText(dst, Of(a.Elem), e, time.UTC)
	}
	return dst
}

// asPG returns err's *pgerror.Error (errors without a SQLSTATE become XX000).
func asPG(err error) *pgerror.Error { return pgerror.As(err) }
