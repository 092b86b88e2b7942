package types

import (
	"time"
)

// OID is a PostgreSQL object identifier; for types, the pg_type.oid that
// clients see in RowDescription and ParameterDescription.
type OID uint32

// Type OIDs, as in PostgreSQL 15's pg_type.
const (
	Unknown      OID = 705
	Bool         OID = 16
	Bytea        OID = 17
	Char         OID = 18 // "char", the one-byte internal type
	Name         OID = 19
	Int8         OID = 20
	Int2         OID = 21
	Int2Vector   OID = 22
	Int4         OID = 23
	Regproc      OID = 24
	Text         OID = 25
	Oid          OID = 26
	OidVector    OID = 30
	JSON         OID = 114
	Xml          OID = 142
	PgNodeTree   OID = 194
	Float4       OID = 700
	Float8       OID = 701
	Bpchar       OID = 1042
	Varchar      OID = 1043
	Date         OID = 1082
	Time         OID = 1083
	Timestamp    OID = 1114
	Timestamptz  OID = 1184
	Interval     OID = 1186
	Numeric      OID = 1700
	Regprocedure OID = 2202
	Regoper      OID = 2203
	Regclass     OID = 2205
	Regtype      OID = 2206
	Regnamespace OID = 4089
	Regrole      OID = 4096
	Record       OID = 2249
	Void         OID = 2278
	AnyElement   OID = 2283
	AnyArray     OID = 2277
	UUID         OID = 2950
	JSONB        OID = 3802
	Aclitem      OID = 1033
	Xid          OID = 28 // transaction ids in pg_class, pg_database
	Inet         OID = 869

	BoolArray        OID = 1000
	ByteaArray       OID = 1001
	CharArray        OID = 1002
	NameArray        OID = 1003
	Int2Array        OID = 1005
	Int4Array        OID = 1007
	TextArray        OID = 1009
	OidArray         OID = 1028
	BpcharArray      OID = 1014
	VarcharArray     OID = 1015
	Int8Array        OID = 1016
	Float4Array      OID = 1021
	Float8Array      OID = 1022
	AclitemArray     OID = 1034
	DateArray        OID = 1182
	TimeArray        OID = 1183
	TimestampArray   OID = 1115
	TimestamptzArray OID = 1185
	IntervalArray    OID = 1187
	NumericArray     OID = 1231
	UUIDArray        OID = 2951
	JSONArray        OID = 199
	JSONBArray       OID = 3807
	RegtypeArray     OID = 2211
	XidArray         OID = 1011
)

// T is a column or expression type: a type OID and its type modifier
// (atttypmod: varchar(n) is n+4, numeric(p,s) is ((p<<16)|s)+4, -1 for none).
type T struct {
	OID    OID
	Typmod int32
}

// Of returns the type with no modifier.
func Of(oid OID) T { return T{OID: oid, Typmod: -1} }

// Value is a datum. The Go type held for each SQL type:
//
//	NULL                                   nil
//	bool                                   bool
//	int2, int4, int8, oid, reg* types      int64
//	float4, float8                         float64
//	numeric                                *apd.Decimal (never mutated once made)
//	text, varchar, bpchar, name, char,     string (jsonb in its normalized
//	json, jsonb, unknown literals          form, as ParseText and Cast make it)
//	bytea                                  []byte
//	date, timestamp, timestamptz           time.Time in UTC (date at midnight;
//	                                       timestamp holds its wall clock as UTC)
//	time                                   TimeOfDay
//	interval                               IntervalValue
//	uuid                                   UUIDValue
//	arrays                                 ArrayValue
//	records (ROW(...), STRUCT sequences)   RecordValue
type Value = any

// TimeOfDay is a time without time zone: microseconds since midnight.
type TimeOfDay int64

// IntervalValue is PostgreSQL's interval: months, days and microseconds are kept
// apart because a month and a day have no fixed length.
type IntervalValue struct {
	Months int32
	Days   int32
	Micros int64
}

// UUIDValue is a 16-byte RFC 4122 identifier.
type UUIDValue [16]byte

// ArrayValue is a one- or more-dimensional array. Elems is flattened in row-major
// order; Dims is nil or has one entry for a one-dimensional array.
type ArrayValue struct {
	Elem  OID
	Dims  []int // length of each dimension; nil means one dimension of len(Elems)
	Elems []Value
}

// RecordValue is an anonymous composite value, as ROW(...) or a STRUCT(...)
// sequence builds it.
type RecordValue struct {
	Types  []T
	Fields []Value
}

// PostgresEpoch is 2000-01-01 00:00:00 UTC, the zero of PostgreSQL's binary
// date and timestamp formats.
var PostgresEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
