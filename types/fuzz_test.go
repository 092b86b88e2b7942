package types

import (
	"testing"
	"time"
)

var fuzzTypes = []T{
	Of(Bool), Of(Int2), Of(Int4), Of(Int8), Of(Oid), Of(Float4), Of(Float8), Of(Numeric),
	{OID: Numeric, Typmod: 5<<16 | 2 + 4}, {OID: Varchar, Typmod: 7}, {OID: Bpchar, Typmod: 7},
	Of(Name), Of(Char), Of(Bytea), Of(UUID), Of(JSON), Of(JSONB), Of(Date), Of(Time),
	Of(Timestamp), Of(Timestamptz), Of(Interval), Of(Int4Array), Of(TextArray), Of(Int2Vector),
}

// FuzzParseText: any input is a value or an error, never a panic, and a value
// prints as text that reads back as the same value.
func FuzzParseText(f *testing.F) {
	for _, s := range []string{"1", "-1.5e3", "NaN", "t", "{1,2}", `{"a b",NULL}`, `\x0102`, "2025-07-18 10:00:00+05:30",
		"1 year 2 mons -3 days 04:05:06.5", "P1Y2DT3H", "epoch", "infinity", `{"a":[1,{"b":null}]}`, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
		"Jul 18 2025 10:01 PM", "J2451545", "@ 1 day ago", "[1:2]={1,2}", "{{1,2},{3,4}}", "1 2 3"} {
		for i := range fuzzTypes {
			f.Add(uint8(i), s)
		}
	}
	loc, _ := time.LoadLocation("America/New_York")
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		typ := fuzzTypes[int(which)%len(fuzzTypes)]
		v, err := ParseTextIn(typ, s, loc)
		if err != nil {
			if asPG(err).Code == "XX000" {
				t.Fatalf("%s %q: error without SQLSTATE: %v", FormatType(typ), s, err)
			}
			return
		}
		text := FormatTextIn(typ, v, loc)
		back, err := ParseTextIn(typ, text, loc)
		if err != nil {
			t.Fatalf("%s %q: output %q does not read back: %v", FormatType(typ), s, text, err)
		}
		if !Equal(typ, back, v) {
			t.Fatalf("%s %q: output %q reads back as %q", FormatType(typ), s, text, FormatTextIn(typ, back, loc))
		}
		if b, err := AppendBinary(nil, typ, v); err == nil {
			if _, err := ParseBinary(typ, b); err != nil {
				t.Fatalf("%s %q: binary %x does not read back: %v", FormatType(typ), s, b, err)
			}
		}
	})
}
