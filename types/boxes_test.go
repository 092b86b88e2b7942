package types

import (
	"fmt"
	"runtime"
	"testing"
)

// TestBoxesMakeOrdinaryValues: Values from Boxes are the strings and
// integers they were made of, to ==, type switches and fmt, after the
// collector has run and after more values were boxed, each its own.
func TestBoxesMakeOrdinaryValues(t *testing.T) {
	var b Boxes
	var got []Value
	var want []Value
	for i := range 1000 {
		s := fmt.Sprintf("value %d", i)
		n := int64(i) * 1_000_003
		if i%7 == 0 {
			n = -n
		}
		got = append(got, b.String(s), b.Int64(n))
		want = append(want, s, n)
	}
	runtime.GC()
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("value %d: %#v, want %#v", i, got[i], want[i])
		}
		switch v := got[i].(type) {
		case string:
			if v != want[i].(string) || fmt.Sprint(got[i]) != v {
				t.Fatalf("value %d: string %q, want %q", i, v, want[i])
			}
		case int64:
			if v != want[i].(int64) || Compare(Of(Int8), got[i], want[i]) != 0 {
				t.Fatalf("value %d: int64 %d, want %d", i, v, want[i])
			}
		default:
			t.Fatalf("value %d has type %T", i, got[i])
		}
	}
}

// TestBoxesAllocateBySlab: boxing a slab's worth of values allocates once
// for the slab, where converting them to interfaces allocates for each.
func TestBoxesAllocateBySlab(t *testing.T) {
	strs := make([]string, boxesPerSlab)
	for i := range strs {
		strs[i] = fmt.Sprint("s", i)
	}
	var sink []Value = make([]Value, boxesPerSlab)
	allocs := testing.AllocsPerRun(20, func() {
		var b Boxes
		for i, s := range strs {
			sink[i] = b.String(s)
		}
		for i := range strs {
			sink[i] = b.Int64(int64(i) + 1000)
		}
	})
	if allocs > 2 {
		t.Errorf("boxing %d strings and %d integers allocated %.0f times, want 2 (a slab each)", boxesPerSlab, boxesPerSlab, allocs)
	}
	// The same with plain conversions, to show the test can tell.
	plain := testing.AllocsPerRun(20, func() {
		for i, s := range strs {
			sink[i] = Value(s)
		}
	})
	if plain < boxesPerSlab/2 {
		t.Errorf("plain conversions allocated only %.0f times for %d strings: the comparison says nothing", plain, boxesPerSlab)
	}
}

// TestParseTextBoxedParsesAsParseTextWith: the same values, and the same
// errors, for the types it boxes and those it passes on.
func TestParseTextBoxedParsesAsParseTextWith(t *testing.T) {
	inputs := []string{"", "0", "7", "255", "256", " 42 ", "-9223372036854775808", "9223372036854775808",
		"32767", "32768", "-32768", "-32769", "2147483647", "2147483648", "-2147483648", "-2147483649",
		"+12", "1e3", "abc", "héllo", "\xff\xfe", "a\x00b", "t", "2024-03-03"}
	var b Boxes
	for _, oid := range []OID{Text, Int2, Int4, Int8, Bool, Numeric, Date, Varchar} {
		for _, s := range inputs {
			want, wantErr := ParseTextWith(Of(oid), s, Input{})
			got, gotErr := ParseTextBoxed(Of(oid), s, Input{}, &b)
			if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
				t.Errorf("%s %q: error %v, want %v", FormatType(Of(oid)), s, gotErr, wantErr)
				continue
			}
			if wantErr == nil && (fmt.Sprintf("%T %v", got, got) != fmt.Sprintf("%T %v", want, want)) {
				t.Errorf("%s %q: %T %v, want %T %v", FormatType(Of(oid)), s, got, got, want, want)
			}
		}
	}
}
