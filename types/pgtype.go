package types

// Code below the table marker was generated from PostgreSQL 15's pg_type with
// SELECT oid, typname, typlen, typbyval, typcategory, typarray, typelem,
// typispreferred FROM pg_type WHERE ...; keep it in step with that catalog.

// Info is a type's pg_type row, as much of it as clients and the planner use.
type Info struct {
	OID       OID
	Name      string // pg_type.typname: int4, varchar, _int4
	Len       int16  // typlen: bytes of a fixed-size value, -1 varlena, -2 C string
	ByVal     bool   // typbyval
	Category  byte   // typcategory: 'N' numeric, 'S' string, 'A' array, ...
	ArrayOID  OID    // typarray: the array type whose elements are this type, 0 if none
	ElemOID   OID    // typelem: the element type of an array (or vector) type
	Preferred bool   // typispreferred within its category
}

// table marker
var infos = []Info{
	{OID: 16, Name: "bool", Len: 1, ByVal: true, Category: 'B', ArrayOID: 1000, ElemOID: 0, Preferred: true},
	{OID: 17, Name: "bytea", Len: -1, ByVal: false, Category: 'U', ArrayOID: 1001, ElemOID: 0, Preferred: false},
	{OID: 18, Name: "char", Len: 1, ByVal: true, Category: 'Z', ArrayOID: 1002, ElemOID: 0, Preferred: false},
	{OID: 19, Name: "name", Len: 64, ByVal: false, Category: 'S', ArrayOID: 1003, ElemOID: 18, Preferred: false},
	{OID: 20, Name: "int8", Len: 8, ByVal: true, Category: 'N', ArrayOID: 1016, ElemOID: 0, Preferred: false},
	{OID: 21, Name: "int2", Len: 2, ByVal: true, Category: 'N', ArrayOID: 1005, ElemOID: 0, Preferred: false},
	{OID: 22, Name: "int2vector", Len: -1, ByVal: false, Category: 'A', ArrayOID: 1006, ElemOID: 21, Preferred: false},
	{OID: 23, Name: "int4", Len: 4, ByVal: true, Category: 'N', ArrayOID: 1007, ElemOID: 0, Preferred: false},
	{OID: 24, Name: "regproc", Len: 4, ByVal: true, Category: 'N', ArrayOID: 1008, ElemOID: 0, Preferred: false},
	{OID: 25, Name: "text", Len: -1, ByVal: false, Category: 'S', ArrayOID: 1009, ElemOID: 0, Preferred: true},
	{OID: 26, Name: "oid", Len: 4, ByVal: true, Category: 'N', ArrayOID: 1028, ElemOID: 0, Preferred: true},
	{OID: 28, Name: "xid", Len: 4, ByVal: true, Category: 'U', ArrayOID: 1011, ElemOID: 0, Preferred: false},
	{OID: 30, Name: "oidvector", Len: -1, ByVal: false, Category: 'A', ArrayOID: 1013, ElemOID: 26, Preferred: false},
	{OID: 114, Name: "json", Len: -1, ByVal: false, Category: 'U', ArrayOID: 199, ElemOID: 0, Preferred: false},
	{OID: 142, Name: "xml", Len: -1, ByVal: false, Category: 'U', ArrayOID: 143, ElemOID: 0, Preferred: false},
	{OID: 143, Name: "_xml", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 142, Preferred: false},
	{OID: 194, Name: "pg_node_tree", Len: -1, ByVal: false, Category: 'Z', ArrayOID: 0, ElemOID: 0, Preferred: false},
	{OID: 199, Name: "_json", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 114, Preferred: false},
	{OID: 700, Name: "float4", Len: 4, ByVal: true, Category: 'N', ArrayOID: 1021, ElemOID: 0, Preferred: false},
	{OID: 701, Name: "float8", Len: 8, ByVal: true, Category: 'N', ArrayOID: 1022, ElemOID: 0, Preferred: true},
	{OID: 705, Name: "unknown", Len: -2, ByVal: false, Category: 'X', ArrayOID: 0, ElemOID: 0, Preferred: false},
	{OID: 869, Name: "inet", Len: -1, ByVal: false, Category: 'I', ArrayOID: 1041, ElemOID: 0, Preferred: true},
	{OID: 1000, Name: "_bool", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 16, Preferred: false},
	{OID: 1001, Name: "_bytea", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 17, Preferred: false},
	{OID: 1002, Name: "_char", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 18, Preferred: false},
	{OID: 1003, Name: "_name", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 19, Preferred: false},
	{OID: 1005, Name: "_int2", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 21, Preferred: false},
	{OID: 1006, Name: "_int2vector", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 22, Preferred: false},
	{OID: 1007, Name: "_int4", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 23, Preferred: false},
	{OID: 1008, Name: "_regproc", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 24, Preferred: false},
	{OID: 1009, Name: "_text", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 25, Preferred: false},
	{OID: 1011, Name: "_xid", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 28, Preferred: false},
	{OID: 1013, Name: "_oidvector", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 30, Preferred: false},
	{OID: 1014, Name: "_bpchar", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 1042, Preferred: false},
	{OID: 1015, Name: "_varchar", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 1043, Preferred: false},
	{OID: 1016, Name: "_int8", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 20, Preferred: false},
	{OID: 1021, Name: "_float4", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 700, Preferred: false},
	{OID: 1022, Name: "_float8", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 701, Preferred: false},
	{OID: 1028, Name: "_oid", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 26, Preferred: false},
	{OID: 1033, Name: "aclitem", Len: 12, ByVal: false, Category: 'U', ArrayOID: 1034, ElemOID: 0, Preferred: false},
	{OID: 1034, Name: "_aclitem", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 1033, Preferred: false},
	{OID: 1041, Name: "_inet", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 869, Preferred: false},
	{OID: 1042, Name: "bpchar", Len: -1, ByVal: false, Category: 'S', ArrayOID: 1014, ElemOID: 0, Preferred: false},
	{OID: 1043, Name: "varchar", Len: -1, ByVal: false, Category: 'S', ArrayOID: 1015, ElemOID: 0, Preferred: false},
	{OID: 1082, Name: "date", Len: 4, ByVal: true, Category: 'D', ArrayOID: 1182, ElemOID: 0, Preferred: false},
	{OID: 1083, Name: "time", Len: 8, ByVal: true, Category: 'D', ArrayOID: 1183, ElemOID: 0, Preferred: false},
	{OID: 1114, Name: "timestamp", Len: 8, ByVal: true, Category: 'D', ArrayOID: 1115, ElemOID: 0, Preferred: false},
	{OID: 1115, Name: "_timestamp", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 1114, Preferred: false},
	{OID: 1182, Name: "_date", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 1082, Preferred: false},
	{OID: 1183, Name: "_time", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 1083, Preferred: false},
	{OID: 1184, Name: "timestamptz", Len: 8, ByVal: true, Category: 'D', ArrayOID: 1185, ElemOID: 0, Preferred: true},
	{OID: 1185, Name: "_timestamptz", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 1184, Preferred: false},
	{OID: 1186, Name: "interval", Len: 16, ByVal: false, Category: 'T', ArrayOID: 1187, ElemOID: 0, Preferred: true},
	{OID: 1187, Name: "_interval", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 1186, Preferred: false},
	{OID: 1231, Name: "_numeric", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 1700, Preferred: false},
	{OID: 1700, Name: "numeric", Len: -1, ByVal: false, Category: 'N', ArrayOID: 1231, ElemOID: 0, Preferred: false},
	{OID: 2202, Name: "regprocedure", Len: 4, ByVal: true, Category: 'N', ArrayOID: 2207, ElemOID: 0, Preferred: false},
	{OID: 2203, Name: "regoper", Len: 4, ByVal: true, Category: 'N', ArrayOID: 2208, ElemOID: 0, Preferred: false},
	{OID: 2205, Name: "regclass", Len: 4, ByVal: true, Category: 'N', ArrayOID: 2210, ElemOID: 0, Preferred: false},
	{OID: 2206, Name: "regtype", Len: 4, ByVal: true, Category: 'N', ArrayOID: 2211, ElemOID: 0, Preferred: false},
	{OID: 2207, Name: "_regprocedure", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 2202, Preferred: false},
	{OID: 2208, Name: "_regoper", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 2203, Preferred: false},
	{OID: 2210, Name: "_regclass", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 2205, Preferred: false},
	{OID: 2211, Name: "_regtype", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 2206, Preferred: false},
	{OID: 2249, Name: "record", Len: -1, ByVal: false, Category: 'P', ArrayOID: 2287, ElemOID: 0, Preferred: false},
	{OID: 2277, Name: "anyarray", Len: -1, ByVal: false, Category: 'P', ArrayOID: 0, ElemOID: 0, Preferred: false},
	{OID: 2278, Name: "void", Len: 4, ByVal: true, Category: 'P', ArrayOID: 0, ElemOID: 0, Preferred: false},
	{OID: 2283, Name: "anyelement", Len: 4, ByVal: true, Category: 'P', ArrayOID: 0, ElemOID: 0, Preferred: false},
	{OID: 2287, Name: "_record", Len: -1, ByVal: false, Category: 'P', ArrayOID: 0, ElemOID: 2249, Preferred: false},
	{OID: 2950, Name: "uuid", Len: 16, ByVal: false, Category: 'U', ArrayOID: 2951, ElemOID: 0, Preferred: false},
	{OID: 2951, Name: "_uuid", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 2950, Preferred: false},
	{OID: 3220, Name: "pg_lsn", Len: 8, ByVal: true, Category: 'U', ArrayOID: 3221, ElemOID: 0, Preferred: false},
	{OID: 3221, Name: "_pg_lsn", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 3220, Preferred: false},
	{OID: 3802, Name: "jsonb", Len: -1, ByVal: false, Category: 'U', ArrayOID: 3807, ElemOID: 0, Preferred: false},
	{OID: 3807, Name: "_jsonb", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 3802, Preferred: false},
	{OID: 4089, Name: "regnamespace", Len: 4, ByVal: true, Category: 'N', ArrayOID: 4090, ElemOID: 0, Preferred: false},
	{OID: 4090, Name: "_regnamespace", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 4089, Preferred: false},
	{OID: 4096, Name: "regrole", Len: 4, ByVal: true, Category: 'N', ArrayOID: 4097, ElemOID: 0, Preferred: false},
	{OID: 4097, Name: "_regrole", Len: -1, ByVal: false, Category: 'A', ArrayOID: 0, ElemOID: 4096, Preferred: false},
}
