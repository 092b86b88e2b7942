package types

import (
	"strconv"
	"strings"

	"cdcdb/pgerror"
)

var (
	infoByOID  = map[OID]*Info{}
	infoByName = map[string]*Info{}
)

func init() {
	for i := range infos {
		in := &infos[i]
		infoByOID[in.OID] = in
		infoByName[in.Name] = in
	}
}

// Lookup returns the pg_type facts of a type OID this package knows.
func Lookup(oid OID) (Info, bool) {
	in, ok := infoByOID[oid]
	if !ok {
		return Info{}, false
	}
	return *in, true
}

// ArrayOf returns the array type whose elements are elem, or 0.
func ArrayOf(elem OID) OID {
	if in, ok := infoByOID[elem]; ok && in.Category != 'A' {
		return in.ArrayOID
	}
	return 0
}

// ElemOf returns the element type of an array type (including int2vector and
// oidvector), or 0 when oid is not an array type.
func ElemOf(oid OID) OID {
	if in, ok := infoByOID[oid]; ok && in.Category == 'A' {
		return in.ElemOID
	}
	return 0
}

// IsArray reports whether oid is an array type (int2vector and oidvector
// count: their values are ArrayValue too).
func IsArray(oid OID) bool { return ElemOf(oid) != 0 }

// aliases are the SQL spellings that name a type without a modifier, besides
// the canonical pg_type names. "char" stays PostgreSQL's one-byte type, as in
// pg_type; the SQL keyword CHAR(n) is bpchar and is the grammar's business.
var aliases = map[string]OID{
	"smallint": Int2, "integer": Int4, "int": Int4, "bigint": Int8,
	"real": Float4, "double precision": Float8, "float": Float8,
	"boolean": Bool, "decimal": Numeric, "dec": Numeric,
	"character varying": Varchar, "character": Bpchar,
	"timestamp without time zone": Timestamp,
	"timestamp with time zone":    Timestamptz,
	"time without time zone":      Time,
	"serial":                      Int4, "bigserial": Int8, "smallserial": Int2,
}

// ByName resolves a type name: a pg_type name (int4, varchar, bpchar, _int4,
// regclass, ...), an SQL alias (integer, bigint, double precision, boolean,
// character varying, timestamp with time zone, ...) or an array spelling
// "name[]". Names are matched case-insensitively. The result has no modifier.
func ByName(name string) (T, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if strings.HasSuffix(n, "[]") {
		t, ok := ByName(n[:len(n)-2])
		if !ok {
			return T{}, false
		}
		if a := ArrayOf(t.OID); a != 0 {
			return Of(a), true
		}
		return T{}, false
	}
	if in, ok := infoByName[n]; ok {
		return Of(in.OID), true
	}
	if oid, ok := aliases[n]; ok {
		return Of(oid), true
	}
	return T{}, false
}

// VARHDRSZ, as PostgreSQL adds it to character-type modifiers.
const varhdrsz = 4

// Limits of type modifiers, as PostgreSQL enforces them.
const (
	MaxCharLength       = 10485760 // varchar(n), char(n)
	MaxNumericPrecision = 1000
	MaxTimePrecision    = 6
)

// CharTypmod returns the modifier of varchar(n) or char(n), checking n as
// PostgreSQL does; typeName is "varchar" or "char" for the error message.
func CharTypmod(typeName string, n int) (int32, error) {
	if n < 1 {
		return 0, pgerror.New(pgerror.InvalidParameterValue, "length for type %s must be at least 1", typeName)
	}
	if n > MaxCharLength {
		return 0, pgerror.New(pgerror.InvalidParameterValue, "length for type %s cannot exceed %d", typeName, MaxCharLength)
	}
	return int32(n + varhdrsz), nil
}

// CharLength returns n of varchar(n) or char(n), or false when typmod sets no
// length.
func CharLength(typmod int32) (int, bool) {
	if typmod < varhdrsz {
		return 0, false
	}
	return int(typmod - varhdrsz), true
}

// NumericTypmod returns the modifier of numeric(precision, scale), checking
// both as PostgreSQL 15 does (negative scales are allowed).
func NumericTypmod(precision, scale int) (int32, error) {
	if precision < 1 || precision > MaxNumericPrecision {
		return 0, pgerror.New(pgerror.InvalidParameterValue, "NUMERIC precision %d must be between 1 and %d", precision, MaxNumericPrecision)
	}
	if scale < -1000 || scale > 1000 {
		return 0, pgerror.New(pgerror.InvalidParameterValue, "NUMERIC scale %d must be between -1000 and 1000", scale)
	}
	return int32((precision<<16)|(scale&0x7ff)) + varhdrsz, nil
}

// NumericPrecisionScale returns the precision and scale a numeric modifier
// holds, or false when typmod sets none.
func NumericPrecisionScale(typmod int32) (precision, scale int, ok bool) {
	if typmod < varhdrsz {
		return 0, 0, false
	}
	t := int(typmod - varhdrsz)
	return (t >> 16) & 0xffff, ((t & 0x7ff) ^ 1024) - 1024, true
}

// TimePrecisionTypmod returns the modifier of time(p), timestamp(p) or
// timestamptz(p); typeName is any spelling of the type ("timestamptz",
// "timestamp with time zone", ...), for the error message. PostgreSQL
// reduces a precision above 6 to 6 with a warning; so does this (without the
// warning).
func TimePrecisionTypmod(typeName string, p int) (int32, error) {
	if p < 0 {
		n := strings.ToLower(typeName)
		base, tz := "TIMESTAMP", ""
		if !strings.HasPrefix(n, "timestamp") {
			base = "TIME"
		}
		if strings.HasSuffix(n, "tz") || strings.Contains(n, "with time zone") {
			tz = " WITH TIME ZONE"
		}
		return 0, pgerror.New(pgerror.InvalidParameterValue, "%s(%d)%s precision must not be negative", base, p, tz)
	}
	if p > MaxTimePrecision {
		p = MaxTimePrecision
	}
	return int32(p), nil
}

// TimePrecision returns p of time(p)/timestamp(p)/interval(p), or false.
func TimePrecision(t T) (int, bool) {
	if t.Typmod < 0 {
		return 0, false
	}
	if t.OID == Interval || t.OID == IntervalArray {
		p := int(t.Typmod & 0xffff)
		if p == intervalFullPrecision {
			return 0, false
		}
		return p, true
	}
	return int(t.Typmod), true
}

// Interval modifier fields, as in PostgreSQL's datetime.h.
const (
	IntervalMonth  = 1 << 1
	IntervalYear   = 1 << 2
	IntervalDay    = 1 << 3
	IntervalHour   = 1 << 10
	IntervalMinute = 1 << 11
	IntervalSecond = 1 << 12

	intervalFullRange     = 0x7fff
	intervalFullPrecision = 0xffff
)

// IntervalTypmod returns the modifier of interval with the given fields (an OR
// of the Interval* bits, 0 for all) and precision (-1 for none).
func IntervalTypmod(fields, precision int) (int32, error) {
	if fields == 0 {
		fields = intervalFullRange
	}
	if precision < 0 {
		precision = intervalFullPrecision
	} else if precision > MaxTimePrecision {
		precision = MaxTimePrecision
	}
	if _, ok := intervalFieldNames[fields]; !ok {
		return 0, pgerror.New(pgerror.SyntaxError, "invalid INTERVAL type modifier")
	}
	return int32(fields<<16 | precision), nil
}

// IntervalFieldsNamed returns the Interval* bits of an interval field
// qualifier as written after INTERVAL ("day to second", any case).
func IntervalFieldsNamed(qualifier string) (int, bool) {
	want := " " + strings.ToLower(qualifier)
	for bits, name := range intervalFieldNames {
		if name == want && bits != intervalFullRange {
			return bits, true
		}
	}
	return 0, false
}

var intervalFieldNames = map[int]string{
	intervalFullRange:            "",
	IntervalYear:                 " year",
	IntervalMonth:                " month",
	IntervalDay:                  " day",
	IntervalHour:                 " hour",
	IntervalMinute:               " minute",
	IntervalSecond:               " second",
	IntervalYear | IntervalMonth: " year to month",
	IntervalDay | IntervalHour:   " day to hour",
	IntervalDay | IntervalHour | IntervalMinute:                  " day to minute",
	IntervalDay | IntervalHour | IntervalMinute | IntervalSecond: " day to second",
	IntervalHour | IntervalMinute:                                " hour to minute",
	IntervalHour | IntervalMinute | IntervalSecond:               " hour to second",
	IntervalMinute | IntervalSecond:                              " minute to second",
}

// FormatType prints a type as PostgreSQL's format_type(oid, typmod) does:
// integer, character varying(10), numeric(10,2), timestamp(3) without time
// zone, text[], "char". An unknown OID prints as ???.
func FormatType(t T) string {
	if elem := ElemOf(t.OID); elem != 0 && t.OID != Int2Vector && t.OID != OidVector {
		return FormatType(T{OID: elem, Typmod: t.Typmod}) + "[]"
	}
	mod := t.Typmod
	switch t.OID {
	case Bool:
		return "boolean"
	case Int2:
		return "smallint"
	case Int4:
		return "integer"
	case Int8:
		return "bigint"
	case Float4:
		return "real"
	case Float8:
		return "double precision"
	case Char:
		return `"char"`
	case Bpchar:
		if mod < 0 {
			return "bpchar"
		}
		if mod > varhdrsz {
			return "character(" + strconv.Itoa(int(mod-varhdrsz)) + ")"
		}
		return "character"
	case Varchar:
		if mod > varhdrsz {
			return "character varying(" + strconv.Itoa(int(mod-varhdrsz)) + ")"
		}
		return "character varying"
	case Numeric:
		if p, s, ok := NumericPrecisionScale(mod); ok {
			return "numeric(" + strconv.Itoa(p) + "," + strconv.Itoa(s) + ")"
		}
		return "numeric"
	case Time:
		if mod >= 0 {
			return "time(" + strconv.Itoa(int(mod)) + ") without time zone"
		}
		return "time without time zone"
	case Timestamp:
		if mod >= 0 {
			return "timestamp(" + strconv.Itoa(int(mod)) + ") without time zone"
		}
		return "timestamp without time zone"
	case Timestamptz:
		if mod >= 0 {
			return "timestamp(" + strconv.Itoa(int(mod)) + ") with time zone"
		}
		return "timestamp with time zone"
	case Interval:
		if mod < 0 {
			return "interval"
		}
		s := "interval" + intervalFieldNames[int(mod>>16)&0x7fff]
		if p := int(mod & 0xffff); p != intervalFullPrecision {
			s += "(" + strconv.Itoa(p) + ")"
		}
		return s
	}
	if in, ok := infoByOID[t.OID]; ok {
		return in.Name
	}
	return "???"
}

// sqlName is the type name PostgreSQL's input functions put in their error
// messages: format_type without the modifier.
func sqlName(oid OID) string {
	switch oid {
	case Bpchar:
		return "character"
	}
	return FormatType(Of(oid))
}
