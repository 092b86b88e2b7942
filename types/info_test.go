package types

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// formatTypeCases are (oid, typmod) pairs; the golden file holds PostgreSQL's
// format_type for each.
var formatTypeCases = [][2]int64{
	{16, -1}, {17, -1}, {18, -1}, {19, -1}, {20, -1}, {21, -1}, {22, -1}, {23, -1}, {24, -1}, {25, -1},
	{26, -1}, {30, -1}, {114, -1}, {700, -1}, {701, -1}, {1042, -1}, {1042, 5}, {1042, 4}, {1043, -1},
	{1043, 14}, {1082, -1}, {1083, -1}, {1083, 3}, {1114, -1}, {1114, 0}, {1114, 6}, {1184, -1}, {1184, 2},
	{1186, -1}, {1186, 0x7fff<<16 | 3}, {1186, 2<<16 | 0xffff}, {1186, 6<<16 | 0xffff}, {1186, 0x1c08<<16 | 2},
	{1700, -1}, {1700, 10<<16 | 2 + 4}, {1700, 5<<16 | (-2 & 0x7ff) + 4}, {2205, -1}, {2206, -1}, {2950, -1},
	{3802, -1}, {1000, -1}, {1002, -1}, {1005, -1}, {1007, -1}, {1009, -1}, {1014, 9}, {1015, 14},
	{1016, -1}, {1021, -1}, {1022, -1}, {1115, 3}, {1182, -1}, {1183, -1}, {1185, -1}, {1187, -1},
	{1231, 10<<16 | 2 + 4}, {2951, -1}, {199, -1}, {3807, -1}, {2211, -1}, {1028, -1}, {705, -1},
	{2249, -1}, {2278, -1}, {4089, -1}, {4096, -1}, {123456, -1},
}

func TestGoldenFormatType(t *testing.T) {
	const golden = "testdata/format_type.golden"
	if *update {
		conn := pgConnect(t)
		var out strings.Builder
		for _, c := range formatTypeCases {
			row, err := pgExec(conn, fmt.Sprintf("SELECT format_type(%d, %d)", c[0], c[1]))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "%d\t%d\t%s\n", c[0], c[1], row[0])
		}
		os.WriteFile(golden, []byte(out.String()), 0o644)
	}
	for _, l := range readLines(t, golden) {
		var oid, mod int64
		f := strings.Split(l, "\t")
		fmt.Sscan(f[0], &oid)
		fmt.Sscan(f[1], &mod)
		if got := FormatType(T{OID: OID(oid), Typmod: int32(mod)}); got != f[2] {
			t.Errorf("FormatType(%d, %d) = %q, want %q", oid, mod, got, f[2])
		}
	}
}

func TestGoldenPgType(t *testing.T) {
	const golden = "testdata/pg_type.golden"
	if *update {
		conn := pgConnect(t)
		res := conn.ExecParams(context.Background(), "SELECT oid, typname, typlen, typbyval, typcategory, typarray, typelem, typispreferred FROM pg_type ORDER BY oid", nil, nil, nil, nil).Read()
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		var out strings.Builder
		for _, r := range res.Rows {
			var f []string
			for _, c := range r {
				f = append(f, string(c))
			}
			out.WriteString(strings.Join(f, "\t") + "\n")
		}
		os.WriteFile(golden, []byte(out.String()), 0o644)
	}
	seen := 0
	for _, l := range readLines(t, golden) {
		f := strings.Split(l, "\t")
		var oid int64
		fmt.Sscan(f[0], &oid)
		in, ok := Lookup(OID(oid))
		if !ok {
			continue
		}
		seen++
		got := fmt.Sprintf("%d\t%s\t%d\t%s\t%c\t%d\t%d\t%s", in.OID, in.Name, in.Len, tf(in.ByVal), in.Category, in.ArrayOID, in.ElemOID, tf(in.Preferred))
		if got != l {
			t.Errorf("Lookup(%d):\n got  %s\n want %s", oid, got, l)
		}
		if byName, ok := ByName(in.Name); !ok || byName.OID != in.OID {
			t.Errorf("ByName(%q) = %v, %v", in.Name, byName, ok)
		}
	}
	if seen != len(infos) {
		t.Errorf("%d of %d known types found in pg_type", seen, len(infos))
	}
}

func tf(b bool) string {
	if b {
		return "t"
	}
	return "f"
}

func TestByName(t *testing.T) {
	for name, want := range map[string]OID{
		"int4": Int4, "integer": Int4, "INT": Int4, "bigint": Int8, "double precision": Float8,
		"character varying": Varchar, "varchar": Varchar, "bpchar": Bpchar, "char": Char,
		"_int4": Int4Array, "int4[]": Int4Array, "text[]": TextArray, "timestamptz": Timestamptz,
		"timestamp with time zone": Timestamptz, "regclass": Regclass, "int2vector": Int2Vector,
		"oidvector": OidVector, "jsonb": JSONB, "uuid": UUID, "boolean": Bool, "numeric": Numeric,
		"decimal": Numeric, "_varchar": VarcharArray, "regnamespace": Regnamespace, "regproc": Regproc,
	} {
		got, ok := ByName(name)
		if !ok || got != Of(want) {
			t.Errorf("ByName(%q) = %v, %v; want %d", name, got, ok, want)
		}
	}
	for _, name := range []string{"", "nosuch", "int4[][]x", "void[]"} {
		if got, ok := ByName(name); ok {
			t.Errorf("ByName(%q) = %v, want none", name, got)
		}
	}
}

func TestTypmodHelpers(t *testing.T) {
	if m, err := NumericTypmod(10, 2); err != nil || m != 655366 {
		t.Errorf("NumericTypmod(10,2) = %d, %v", m, err)
	}
	if p, s, ok := NumericPrecisionScale(655366); !ok || p != 10 || s != 2 {
		t.Errorf("NumericPrecisionScale = %d %d %v", p, s, ok)
	}
	m, _ := NumericTypmod(5, -2)
	if p, s, ok := NumericPrecisionScale(m); !ok || p != 5 || s != -2 {
		t.Errorf("negative scale round trip = %d %d %v", p, s, ok)
	}
	if _, err := NumericTypmod(0, 0); err == nil || asPG(err).Message != "NUMERIC precision 0 must be between 1 and 1000" {
		t.Errorf("NumericTypmod(0,0): %v", err)
	}
	if m, err := CharTypmod("varchar", 10); err != nil || m != 14 {
		t.Errorf("CharTypmod = %d %v", m, err)
	}
	if n, ok := CharLength(14); !ok || n != 10 {
		t.Errorf("CharLength = %d %v", n, ok)
	}
	if _, err := CharTypmod("varchar", 0); err == nil || asPG(err).Message != "length for type varchar must be at least 1" {
		t.Errorf("CharTypmod(0): %v", err)
	}
	if _, err := TimePrecisionTypmod("timestamp with time zone", -1); err == nil || asPG(err).Message != "TIMESTAMP(-1) WITH TIME ZONE precision must not be negative" {
		t.Errorf("TimePrecisionTypmod(-1): %v", err)
	}
	if _, err := CharTypmod("char", 0); err == nil || asPG(err).Message != "length for type char must be at least 1" {
		t.Errorf("CharTypmod(char, 0): %v", err)
	}
	if _, err := CharTypmod("varchar", 10485761); err == nil || asPG(err).Message != "length for type varchar cannot exceed 10485760" {
		t.Errorf("CharTypmod(varchar, 10485761): %v", err)
	}
	if _, err := NumericTypmod(2, 3000); err == nil || asPG(err).Message != "NUMERIC scale 3000 must be between -1000 and 1000" {
		t.Errorf("NumericTypmod(2, 3000): %v", err)
	}
	if m, _ := TimePrecisionTypmod("timestamp", 9); m != 6 {
		t.Errorf("TimePrecisionTypmod(9) = %d", m)
	}
	if p, ok := TimePrecision(T{OID: Timestamp, Typmod: 3}); !ok || p != 3 {
		t.Errorf("TimePrecision = %d %v", p, ok)
	}
}
