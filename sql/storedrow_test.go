package sql

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/history"
	"cdcdb/storage"
	"cdcdb/types"
)

// storedRowSamples holds a value of every kind storage's row codec knows,
// with the edge cases of each encoding.
func storedRowSamples() []types.Value {
	huge, _, err := apd.NewFromString("1267650600228229401496703205.376") // 2^100 / 1000
	if err != nil {
		panic(err)
	}
	return []types.Value{
		nil, false, true,
		int64(0), int64(-16), int64(79), int64(80), int64(-17), int64(math.MaxInt64), int64(math.MinInt64),
		float64(0), math.Copysign(0, -1), 1.5, math.Inf(1), math.NaN(),
		apd.New(12345, -2), apd.New(-7, 3), huge,
		&apd.Decimal{Form: apd.NaN}, &apd.Decimal{Form: apd.Infinite}, &apd.Decimal{Form: apd.Infinite, Negative: true},
		"", "héllo", strings.Repeat("x", 5000),
		[]byte{}, []byte{0, 1, 2, 255},
		time.Date(2024, 2, 29, 12, 30, 0, 123456000, time.UTC), time.Unix(-1e10, 999999999).UTC(),
		types.InfinityTime, types.NegInfinityTime,
		types.TimeOfDay(86399999999),
		types.IntervalValue{Months: -3, Days: 40, Micros: -123456789},
		types.UUIDValue{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
		types.ArrayValue{Elem: types.Int4, Elems: []types.Value{int64(1), nil, int64(1000)}},
		types.ArrayValue{Elem: types.Text, Dims: []int{2, 2}, Elems: []types.Value{"a", "b", nil, "d"}},
		types.ArrayValue{Elem: types.Int4},
		types.RecordValue{Types: []types.T{types.Of(types.Int8), types.Of(types.Text)},
			Fields: []types.Value{int64(300), types.ArrayValue{Elem: types.Text, Elems: []types.Value{"z"}}}},
	}
}

// TestStoredRowReaderMatchesStorage checks storedrow.go, which reads
// storage's row format on its own, against storage's codec: every value
// located by position must be the one storage decodes there, and integers
// and times must read as the instants they are.
func TestStoredRowReaderMatchesStorage(t *testing.T) {
	samples := storedRowSamples()
	// One row of every sample, then an integer marker, then each sample
	// alone before the marker.
	rows := [][]types.Value{append(append([]types.Value(nil), samples...), int64(4242))}
	for _, v := range samples {
		rows = append(rows, []types.Value{v, int64(4242)})
	}
	for _, row := range rows {
		enc, err := storage.EncodeRow(nil, row)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := storage.DecodeRow(enc)
		if err != nil {
			t.Fatal(err)
		}
		for pos := range row[:len(row)-1] {
			a, b, ok := storedValuePair(enc, pos, len(row)-1)
			if !ok {
				t.Fatalf("row %v: value %d not located", row, pos)
			}
			found := [][]byte{a, b}
			one, err := storage.DecodeRow(append([]byte{1}, found[0]...))
			if err != nil {
				t.Fatalf("value %d of %v: its bytes do not decode alone: %v", pos, row, err)
			}
			if types.Compare(types.T{}, one[0], dec[pos]) != 0 && !(dec[pos] != nil && isNaN(dec[pos])) {
				t.Errorf("value %d: located %v, storage decodes %v", pos, one[0], dec[pos])
			}
			if in := storedInstant(found[1]); in.kind != instantInt || in.hi != 4242 {
				t.Errorf("row %v: marker read as %+v", row, in)
			}
			want, isInstant := valueInstant(dec[pos])
			got := storedInstant(found[0])
			switch {
			case dec[pos] == nil:
				if got.kind != instantNull {
					t.Errorf("NULL read as %+v", got)
				}
			case isInstant && got != want:
				t.Errorf("%v: read as %+v, want %+v", dec[pos], got, want)
			case !isInstant && got.kind != instantNone:
				t.Errorf("%v (%T) read as the instant %+v", dec[pos], dec[pos], got)
			}
		}
		// Positions past the end are NULL (columns added later).
		if a, b, ok := storedValuePair(enc, len(row)+3, len(row)+4); !ok || a != nil || b != nil {
			t.Errorf("a position past the end is not NULL")
		}
		if a, b, ok := storedValuePair(enc, len(row)-1, len(row)+4); !ok || a == nil || b != nil {
			t.Errorf("the last value and one past the end: %x, %x", a, b)
		}
	}
	// Damaged tuples are reported, never read past.
	enc, _ := storage.EncodeRow(nil, samples)
	for cut := 0; cut < len(enc); cut++ {
		if _, b, ok := storedValuePair(enc[:cut], len(samples)-2, len(samples)-1); ok && b != nil {
			t.Fatalf("tuple cut at %d: last value located", cut)
		}
	}
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

// TestStoredTupleBytesMatchesHistory checks the layout of a current row's
// stored value against history, which writes it.
func TestStoredTupleBytesMatchesHistory(t *testing.T) {
	tuple := []types.Value{int64(7), "x", nil}
	v, err := history.Encode(123, tuple)
	if err != nil {
		t.Fatal(err)
	}
	b, ok := storedTupleBytes(v)
	if !ok {
		t.Fatal("too short")
	}
	want, _ := storage.EncodeRow(nil, tuple)
	if string(b) != string(want) {
		t.Errorf("tuple bytes %x, history wrote %x", b, want)
	}
	if _, ok := storedTupleBytes(v[:historyHeaderLen-1]); ok {
		t.Error("a value shorter than the header has a tuple")
	}
}

// TestKeyValueSizeMatchesStorage holds keyValueSize to storage's key
// encoder: each integer or text value is measured exactly, alone and
// followed by another value, and other kinds are left to DecodeKey.
func TestKeyValueSizeMatchesStorage(t *testing.T) {
	vals := []types.Value{int64(0), int64(1), int64(-1), int64(255), int64(256), int64(-256), int64(-257),
		int64(math.MaxInt64), int64(math.MinInt64), int64(1 << 40),
		"", "a", "ab", "a\x00b", "\x00", "\x00\x00\x01", strings.Repeat("z", 300), []byte{0, 1, 0xff}}
	for _, v := range vals {
		enc, err := storage.AppendKey(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		both, _ := storage.AppendKey(append([]byte(nil), enc...), int64(7))
		for _, b := range [][]byte{enc, both} {
			if n, ok := keyValueSize(b); !ok || n != len(enc) {
				t.Errorf("%q: measured %d, %v; encoding is %d bytes", v, n, ok, len(enc))
			}
		}
		if _, ok := keyValueSize(enc[:len(enc)-1]); ok {
			t.Errorf("%q: a cut encoding was measured", v)
		}
	}
	for _, v := range []types.Value{nil, true, 1.5, types.UUIDValue{}} {
		enc, _ := storage.AppendKey(nil, v)
		if _, ok := keyValueSize(enc); ok {
			t.Errorf("%v: measured, but is not an integer or text", v)
		}
	}
}

// TestStoredWireMatchesTheDecodedEncoders holds appendStoredWire, which
// formats stored values for the client without decoding them, to the
// encoders of decoded values: for every sample and column type, in text and
// binary, it must give what types.AppendText / types.AppendBinary give, or
// decline. It must not decline the kinds it exists for.
func TestStoredWireMatchesTheDecodedEncoders(t *testing.T) {
	oids := []types.OID{types.Int2, types.Int4, types.Int8, types.Text, types.Varchar, types.Bpchar, types.Name,
		types.Bool, types.Char, types.Float8, types.Numeric, types.Oid, types.Regclass, types.Bytea}
	for _, v := range storedRowSamples() {
		tuple, err := storage.EncodeRow(nil, []types.Value{v})
		if err != nil {
			t.Fatal(err)
		}
		vals, ok := storedValues(nil, tuple)
		if !ok || len(vals) != 1 {
			t.Fatalf("storedValues(%v) = %d values, %v", v, len(vals), ok)
		}
		for _, oid := range oids {
			typ := types.Of(oid)
			for _, binaryFmt := range []bool{false, true} {
				got, null, ok := appendStoredWire([]byte("prefix"), vals[0], oid, binaryFmt)
				want := fastKind(v, oid)
				if ok != want {
					t.Errorf("%T %v as %s (binary %v): handled %v, want %v", v, v, types.FormatType(typ), binaryFmt, ok, want)
				}
				if !ok {
					continue
				}
				if null != (v == nil) {
					t.Errorf("%v as %s: NULL %v", v, types.FormatType(typ), null)
				}
				wantBytes := []byte("prefix")
				switch {
				case v == nil:
				case binaryFmt:
					if wantBytes, err = types.AppendBinary(wantBytes, typ, v); err != nil {
						t.Fatal(err)
					}
				default:
					wantBytes = types.AppendText(wantBytes, typ, v, time.UTC)
				}
				if string(got) != string(wantBytes) {
					t.Errorf("%T %v as %s (binary %v) = %q, want %q", v, v, types.FormatType(typ), binaryFmt, got, wantBytes)
				}
			}
		}
	}
	// A position past the tuple (a column added after the row) is NULL.
	if _, null, ok := appendStoredWire(nil, nil, types.Int8, false); !ok || !null {
		t.Error("a missing value is not NULL")
	}
}

// fastKind says which values appendStoredWire exists to format itself.
func fastKind(v types.Value, oid types.OID) bool {
	switch v.(type) {
	case nil:
		return true
	case int64:
		return oid == types.Int2 || oid == types.Int4 || oid == types.Int8
	case string:
		return oid == types.Text || oid == types.Varchar || oid == types.Bpchar || oid == types.Name
	case bool:
		return oid == types.Bool
	}
	return false
}

// TestStoredValuesSplitsTuples: storedValues finds every value of a tuple
// where storage's codec has it, and refuses a damaged tuple.
func TestStoredValuesSplitsTuples(t *testing.T) {
	samples := storedRowSamples()
	tuple, err := storage.EncodeRow(nil, samples)
	if err != nil {
		t.Fatal(err)
	}
	vals, ok := storedValues(nil, tuple)
	if !ok || len(vals) != len(samples) {
		t.Fatalf("%d values (%v), want %d", len(vals), ok, len(samples))
	}
	for i, enc := range vals {
		one, err := storage.EncodeRow(nil, samples[i:i+1])
		if err != nil {
			t.Fatal(err)
		}
		if string(append([]byte{1}, enc...)) != string(one) {
			t.Errorf("value %d (%v): encoding %x, want %x", i, samples[i], enc, one[1:])
		}
		if _, err := decodeStoredValue(enc); err != nil {
			t.Errorf("value %d (%v): %v", i, samples[i], err)
		}
	}
	for _, damaged := range [][]byte{tuple[:len(tuple)-1], append(append([]byte(nil), tuple...), 0), {0xff}} {
		if _, ok := storedValues(nil, damaged); ok {
			t.Errorf("damaged tuple %x split", damaged[:min(len(damaged), 8)])
		}
	}
}
