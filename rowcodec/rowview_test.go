package rowcodec_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/rowcodec"
	"cdcdb/rowcodec/rowcodectest"
	"cdcdb/types"
)

// TestRowValuePairLocatesWhatDecodeRowDecodes: every value RowValuePair
// locates by position is the one DecodeRow decodes there, and its bytes
// decode alone (DecodeRowValue) to it.
func TestRowValuePairLocatesWhatDecodeRowDecodes(t *testing.T) {
	samples := rowcodectest.RowSamples()
	// One row of every sample, then an integer marker, then each sample
	// alone before the marker.
	rows := [][]types.Value{append(append([]types.Value(nil), samples...), int64(4242))}
	for _, v := range samples {
		rows = append(rows, []types.Value{v, int64(4242)})
	}
	for _, row := range rows {
		enc, err := rowcodec.EncodeRow(nil, row)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := rowcodec.DecodeRow(enc)
		if err != nil {
			t.Fatal(err)
		}
		for pos := range row[:len(row)-1] {
			a, b, ok := rowcodec.RowValuePair(enc, pos, len(row)-1)
			if !ok {
				t.Fatalf("row %v: value %d not located", row, pos)
			}
			one, err := rowcodec.DecodeRowValue(a)
			if err != nil {
				t.Fatalf("value %d of %v: its bytes do not decode alone: %v", pos, row, err)
			}
			if !sameValue(one, dec[pos]) {
				t.Errorf("value %d: located %v, DecodeRow decodes %v", pos, one, dec[pos])
			}
			if v, ok := rowcodec.RowValueInt(b); !ok || v != 4242 {
				t.Errorf("row %v: marker read as %d, %v", row, v, ok)
			}
		}
		// Positions past the end are NULL (columns added later).
		if a, b, ok := rowcodec.RowValuePair(enc, len(row)+3, len(row)+4); !ok || a != nil || b != nil {
			t.Errorf("a position past the end is not NULL")
		}
		if a, b, ok := rowcodec.RowValuePair(enc, len(row)-1, len(row)+4); !ok || a == nil || b != nil {
			t.Errorf("the last value and one past the end: %x, %x", a, b)
		}
	}
	// Damaged rows are reported, never read past.
	enc, _ := rowcodec.EncodeRow(nil, samples)
	for cut := 0; cut < len(enc); cut++ {
		if _, b, ok := rowcodec.RowValuePair(enc[:cut], len(samples)-2, len(samples)-1); ok && b != nil {
			t.Fatalf("row cut at %d: last value located", cut)
		}
	}
}

// TestSplitRowFindsEveryValue: SplitRow gives each value's encoding as
// EncodeRow writes it alone, and refuses a damaged row.
func TestSplitRowFindsEveryValue(t *testing.T) {
	samples := rowcodectest.RowSamples()
	row, err := rowcodec.EncodeRow(nil, samples)
	if err != nil {
		t.Fatal(err)
	}
	vals, ok := rowcodec.SplitRow(nil, row)
	if !ok || len(vals) != len(samples) {
		t.Fatalf("%d values (%v), want %d", len(vals), ok, len(samples))
	}
	for i, enc := range vals {
		one, err := rowcodec.EncodeRow(nil, samples[i:i+1])
		if err != nil {
			t.Fatal(err)
		}
		if string(append([]byte{1}, enc...)) != string(one) {
			t.Errorf("value %d (%v): encoding %x, want %x", i, samples[i], enc, one[1:])
		}
		got, err := rowcodec.DecodeRowValue(enc)
		if err != nil || !sameValue(got, samples[i]) {
			t.Errorf("value %d (%v): decodes alone to %v, %v", i, samples[i], got, err)
		}
	}
	for _, damaged := range [][]byte{row[:len(row)-1], append(append([]byte(nil), row...), 0), {0xff}} {
		if _, ok := rowcodec.SplitRow(nil, damaged); ok {
			t.Errorf("damaged row %x split", damaged[:min(len(damaged), 8)])
		}
	}
	if _, err := rowcodec.DecodeRowValue(append(append([]byte(nil), vals[3]...), 0)); err == nil {
		t.Error("DecodeRowValue took a value with a byte after it")
	}
}

// TestRowValueReaders: the kind readers give exactly what DecodeRow gives
// for their kind, and refuse every other kind.
func TestRowValueReaders(t *testing.T) {
	for _, v := range rowcodectest.RowSamples() {
		row, err := rowcodec.EncodeRow(nil, []types.Value{v})
		if err != nil {
			t.Fatal(err)
		}
		enc := row[1:]
		i, isInt := rowcodec.RowValueInt(enc)
		if want, ok := v.(int64); isInt != ok || i != want {
			t.Errorf("%v: RowValueInt = %d, %v", v, i, isInt)
		}
		sec, ns, isTime := rowcodec.RowValueTime(enc)
		if want, ok := v.(time.Time); isTime != ok || (ok && (sec != want.Unix() || ns != int64(want.Nanosecond()))) {
			t.Errorf("%v: RowValueTime = %d, %d, %v", v, sec, ns, isTime)
		}
		text, isText := rowcodec.RowValueText(enc)
		if want, ok := v.(string); isText != ok || string(text) != want {
			t.Errorf("%v: RowValueText = %q, %v", v, text, isText)
		}
		b, isBool := rowcodec.RowValueBool(enc)
		if want, ok := v.(bool); isBool != ok || b != want {
			t.Errorf("%v: RowValueBool = %v, %v", v, b, isBool)
		}
		if null := rowcodec.RowValueIsNull(enc); null != (v == nil) {
			t.Errorf("%v: RowValueIsNull = %v", v, null)
		}
	}
	if !rowcodec.RowValueIsNull(nil) {
		t.Error("a position past the row's end is not NULL")
	}
	for _, damaged := range [][]byte{{}, {3}, {3, 0x80}, {9, 2}, {9, 2, 0x80, 0x94, 0xeb, 0xdc, 0x03}, {7, 5, 'a'}} {
		if _, ok := rowcodec.RowValueInt(damaged); ok {
			t.Errorf("RowValueInt took %x", damaged)
		}
		if _, _, ok := rowcodec.RowValueTime(damaged); ok {
			t.Errorf("RowValueTime took %x", damaged)
		}
		if _, ok := rowcodec.RowValueText(damaged); ok {
			t.Errorf("RowValueText took %x", damaged)
		}
	}
}

// TestKeyPrefixMeasuresWhatDecodeKeyReads: KeyPrefix cuts a key after its
// first n values, for values it measures itself (integers, text) and for
// those it leaves to DecodeKey, ascending and descending, and refuses a cut
// key.
func TestKeyPrefixMeasuresWhatDecodeKeyReads(t *testing.T) {
	vals := []types.Value{int64(0), int64(1), int64(-1), int64(255), int64(256), int64(-256), int64(-257),
		int64(math.MaxInt64), int64(math.MinInt64), int64(1 << 40),
		"", "a", "ab", "a\x00b", "\x00", "\x00\x00\x01", strings.Repeat("z", 300), []byte{0, 1, 0xff},
		nil, true, 1.5, types.UUIDValue{}, apd.New(5, -1)}
	for _, v := range vals {
		for _, desc := range []bool{false, true} {
			appendKey := rowcodec.AppendKey
			if desc {
				appendKey = rowcodec.AppendKeyDesc
			}
			first, err := appendKey(nil, v)
			if err != nil {
				t.Fatal(err)
			}
			key, _ := rowcodec.AppendKey(append([]byte(nil), first...), int64(7))
			key, _ = rowcodec.AppendKey(key, "tail")
			for n, want := range map[int]int{0: 0, 1: len(first)} {
				got, err := rowcodec.KeyPrefix(key, n)
				if err != nil || len(got) != want {
					t.Errorf("%v (desc %v): prefix of %d values is %d bytes (%v), want %d", v, desc, n, len(got), err, want)
				}
			}
			if got, err := rowcodec.KeyPrefix(key, 3); err != nil || len(got) != len(key) {
				t.Errorf("%v (desc %v): prefix of every value is %d of %d bytes (%v)", v, desc, len(got), len(key), err)
			}
			if _, err := rowcodec.KeyPrefix(first[:len(first)-1], 1); err == nil && len(first) > 1 {
				t.Errorf("%v (desc %v): a cut key was measured", v, desc)
			}
		}
	}
}

// sameValue is types.Compare's equality, with NaN equal to itself.
func sameValue(a, b types.Value) bool {
	if isNaN(a) && isNaN(b) {
		return true
	}
	return types.Compare(types.T{}, a, b) == 0
}

func isNaN(v types.Value) bool {
	switch v := v.(type) {
	case float64:
		return math.IsNaN(v)
	case *apd.Decimal:
		return v.Form == apd.NaN
	}
	return false
}
