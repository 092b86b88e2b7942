package rowcodec

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/types"
)

// kinds of values the key and row codecs handle, with the type that
// types.Compare orders them by.
var kinds = []types.T{
	types.Of(types.Bool), types.Of(types.Int8), types.Of(types.Float8), types.Of(types.Numeric),
	types.Of(types.Text), types.Of(types.Bytea), types.Of(types.Timestamptz), types.Of(types.Time),
	types.Of(types.Interval), types.Of(types.UUID), types.Of(types.Int8Array), types.Of(types.TextArray),
	types.Of(types.Record),
}

func randString(r *rand.Rand) string {
	// A small alphabet with 0x00 and 0xff makes prefixes and escapes common.
	const alphabet = "\x00\x01ab\xff"
	b := make([]byte, r.IntN(5))
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

func randValue(r *rand.Rand, t types.T) types.Value {
	if r.IntN(12) == 0 {
		return nil
	}
	switch t.OID {
	case types.Bool:
		return r.IntN(2) == 0
	case types.Int8:
		switch r.IntN(4) {
		case 0:
			return []int64{math.MinInt64, math.MaxInt64, -1, 0, 1, -256, 255, 256, -257}[r.IntN(9)]
		case 1:
			return int64(r.Uint64())
		}
		return r.Int64N(1000) - 500
	case types.Float8:
		switch r.IntN(5) {
		case 0:
			return []float64{types.NaN, math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), math.SmallestNonzeroFloat64, -math.MaxFloat64}[r.IntN(7)]
		case 1:
			return math.Float64frombits(r.Uint64())
		}
		return float64(r.IntN(100)-50) / 4
	case types.Numeric:
		switch r.IntN(8) {
		case 0:
			return &apd.Decimal{Form: apd.NaN}
		case 1:
			return &apd.Decimal{Form: apd.Infinite, Negative: r.IntN(2) == 0}
		case 2:
			// big coefficients
			d := new(apd.Decimal)
			d.Coeff.SetString("123456789012345678901234567890", 10)
			d.Exponent = int32(r.IntN(40) - 20)
			d.Negative = r.IntN(2) == 0
			return d
		}
		// small values at several scales: 15, 1.5, 1.50, 0.015 ...
		d := apd.New(r.Int64N(41)-20, -int32(r.IntN(4)))
		if r.IntN(3) == 0 {
			d.Coeff.Mul(&d.Coeff, apd.NewBigInt(100))
			d.Exponent -= 2
		}
		if d.IsZero() {
			d.Negative = r.IntN(2) == 0 // -0 must equal 0
		}
		return d
	case types.Text:
		return randString(r)
	case types.Bytea:
		return []byte(randString(r))
	case types.Timestamptz:
		switch r.IntN(6) {
		case 0:
			return types.InfinityTime
		case 1:
			return types.NegInfinityTime
		}
		return time.Unix(r.Int64N(1<<40)-1<<39, r.Int64N(3)*500).UTC()
	case types.Time:
		return types.TimeOfDay(r.Int64N(86400e6 + 1))
	case types.Interval:
		// small fields, so that equal spans with different fields are common
		return types.IntervalValue{Months: int32(r.IntN(5) - 2), Days: int32(r.IntN(70) - 35), Micros: (r.Int64N(5) - 2) * 86400e6 / 2}
	case types.UUID:
		var u types.UUIDValue
		u[r.IntN(16)] = byte(r.IntN(3))
		return u
	case types.Int8Array, types.TextArray:
		elem := types.Of(types.ElemOf(t.OID))
		a := types.ArrayValue{Elem: elem.OID, Elems: []types.Value{}}
		for n := r.IntN(4); n > 0; n-- {
			a.Elems = append(a.Elems, randValue(r, elem))
		}
		if len(a.Elems) == 4 && r.IntN(2) == 0 {
			a.Dims = []int{2, 2}
		}
		return a
	case types.Record:
		rec := types.RecordValue{Types: []types.T{types.Of(types.Int8), types.Of(types.Text)}}
		rec.Fields = []types.Value{randValue(r, rec.Types[0]), randValue(r, rec.Types[1])}
		return rec
	}
	panic(t)
}

func seedRand(t testing.TB) (*rand.Rand, int64) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	return rand.New(rand.NewPCG(uint64(seed), 0)), seed
}

func mustKey(t testing.TB, desc bool, vals ...types.Value) []byte {
	t.Helper()
	var k []byte
	for _, v := range vals {
		var err error
		if desc {
			k, err = AppendKeyDesc(k, v)
		} else {
			k, err = AppendKey(k, v)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return k
}

func sign(c int) int {
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}

// TestKeyOrderMatchesCompare: for random pairs of values of one type, and
// for pairs of composite (two-column) keys, the bytewise order of the
// encodings is types.Compare's order (reversed for AppendKeyDesc), and
// DecodeKey gives back an equal value and exactly the rest.
func TestKeyOrderMatchesCompare(t *testing.T) {
	r, seed := seedRand(t)
	for i := 0; i < 200000; i++ {
		typ := kinds[r.IntN(len(kinds))]
		typ2 := kinds[r.IntN(len(kinds))]
		a, b := randValue(r, typ), randValue(r, typ)
		a2, b2 := randValue(r, typ2), randValue(r, typ2)
		want := sign(types.Compare(typ, a, b))
		if want == 0 {
			want = sign(types.Compare(typ2, a2, b2))
		}
		for _, desc := range []bool{false, true} {
			ka, kb := mustKey(t, desc, a, a2), mustKey(t, desc, b, b2)
			got := bytes.Compare(ka, kb)
			if desc {
				got = -got
			}
			if got != want {
				t.Fatalf("seed %d: %s,%s desc=%v: key order of (%v, %v) vs (%v, %v) is %d, Compare says %d\n %x\n %x",
					seed, types.FormatType(typ), types.FormatType(typ2), desc, show(typ, a), show(typ2, a2), show(typ, b), show(typ2, b2), got, want, ka, kb)
			}
			v, rest, err := DecodeKey(ka)
			if err != nil || !types.Equal(typ, v, a) {
				t.Fatalf("seed %d: DecodeKey(%x) = %v, %v; want %v", seed, ka, show(typ, v), err, show(typ, a))
			}
			v2, rest2, err := DecodeKey(rest)
			if err != nil || !types.Equal(typ2, v2, a2) || len(rest2) != 0 {
				t.Fatalf("seed %d: second column of %x = %v, %v, rest %x; want %v", seed, ka, show(typ2, v2), err, rest2, show(typ2, a2))
			}
		}
	}
}

func show(t types.T, v types.Value) string {
	if v == nil {
		return "NULL"
	}
	return types.FormatText(t, v)
}

// TestKeySortMatchesCompare sorts a batch of random values both ways.
func TestKeySortMatchesCompare(t *testing.T) {
	r, seed := seedRand(t)
	for _, typ := range kinds {
		vals := make([]types.Value, 300)
		for i := range vals {
			vals[i] = randValue(r, typ)
		}
		byCompare := slices.Clone(vals)
		slices.SortStableFunc(byCompare, func(a, b types.Value) int { return types.Compare(typ, a, b) })
		byKey := slices.Clone(vals)
		slices.SortStableFunc(byKey, func(a, b types.Value) int {
			return bytes.Compare(mustKey(t, false, a), mustKey(t, false, b))
		})
		for i := range vals {
			if types.Compare(typ, byCompare[i], byKey[i]) != 0 {
				t.Fatalf("seed %d: %s: position %d: by Compare %v, by key %v", seed, types.FormatType(typ), i, show(typ, byCompare[i]), show(typ, byKey[i]))
			}
		}
	}
}

func TestKeyEdgeCases(t *testing.T) {
	eq := func(a, b types.Value) {
		t.Helper()
		if !bytes.Equal(mustKey(t, false, a), mustKey(t, false, b)) {
			t.Errorf("keys of %v and %v differ", a, b)
		}
	}
	lt := func(a, b types.Value) {
		t.Helper()
		if bytes.Compare(mustKey(t, false, a), mustKey(t, false, b)) >= 0 {
			t.Errorf("key of %v not below %v", a, b)
		}
		if bytes.Compare(mustKey(t, true, a), mustKey(t, true, b)) <= 0 {
			t.Errorf("desc key of %v not above %v", a, b)
		}
	}
	d := func(s string) *apd.Decimal { x, _, _ := apd.NewFromString(s); return x }
	eq(d("1.0"), d("1.00"))
	eq(d("100"), d("1E2"))
	eq(d("-0.00"), d("0"))
	eq(0.0, math.Copysign(0, -1))
	eq(types.NaN, math.NaN())
	eq(types.IntervalValue{Months: 1}, types.IntervalValue{Days: 30})
	eq(types.IntervalValue{Days: 1}, types.IntervalValue{Micros: 86400e6})
	lt(d("-10"), d("-9.99"))
	lt(d("0.099"), d("0.1"))
	lt(d("9.99"), d("10"))
	lt(d("Infinity"), d("NaN"))
	lt(math.Inf(1), types.NaN)
	lt("a", "a\x00")
	lt("a\x00", "a\x01")
	lt("", "\x00")
	lt(int64(-1), int64(0))
	lt(int64(math.MinInt64), int64(-1))
	lt(int64(255), int64(256))
	lt(int64(1), nil)
	lt("zzz", nil)
	lt(types.ArrayValue{Elem: types.Int8, Elems: []types.Value{int64(1)}}, types.ArrayValue{Elem: types.Int8, Elems: []types.Value{int64(1), int64(0)}})
	lt(types.ArrayValue{Elem: types.Int8, Elems: []types.Value{int64(1)}}, types.ArrayValue{Elem: types.Int8, Elems: []types.Value{nil}})
	lt(types.NegInfinityTime, time.Date(-4713, 11, 24, 0, 0, 0, 0, time.UTC))
	lt(time.Date(294276, 1, 1, 0, 0, 0, 0, time.UTC), types.InfinityTime)
	// ("a", 2) < ("a\x00", 1): a shorter string sorts first whatever follows.
	if bytes.Compare(mustKey(t, false, "a", int64(2)), mustKey(t, false, "a\x00", int64(1))) >= 0 {
		t.Error("composite key with prefix string out of order")
	}
	if _, err := AppendKey(nil, struct{}{}); err == nil {
		t.Error("AppendKey accepted a struct")
	}
	for _, bad := range [][]byte{{}, {keyString, 'a'}, {keyString, 0, 7}, {keyFloat, 1}, {0x60}, {keyNumPos, 0, 0}, {keyArray, 0, 0, 0, 20, keyIntZero}} {
		if _, _, err := DecodeKey(bad); err == nil {
			t.Errorf("DecodeKey(%x) accepted corrupt input", bad)
		}
	}
}

// TestRowRoundTrip: random rows decode to the values encoded (exactly, not
// just Compare-equal), and the decoded values do not alias the encoding.
func TestRowRoundTrip(t *testing.T) {
	r, seed := seedRand(t)
	for i := 0; i < 20000; i++ {
		n := r.IntN(8)
		row := make([]types.Value, n)
		typs := make([]types.T, n)
		for j := range row {
			typs[j] = kinds[r.IntN(len(kinds))]
			row[j] = randValue(r, typs[j])
		}
		enc, err := EncodeRow(nil, row)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := DecodeRow(enc)
		if err != nil {
			t.Fatalf("seed %d: DecodeRow(%x): %v", seed, enc, err)
		}
		for k := range enc {
			enc[k] = 0xee // the source goes away; decoded values must not change
		}
		if len(dec) != n {
			t.Fatalf("seed %d: %d values, want %d", seed, len(dec), n)
		}
		for j := range row {
			if !identical(row[j], dec[j]) {
				t.Fatalf("seed %d: value %d: got %#v, want %#v", seed, j, dec[j], row[j])
			}
		}
	}
}

// identical is stricter than types.Equal: numeric keeps its scale, floats
// their sign of zero, intervals their fields.
func identical(a, b types.Value) bool {
	switch x := a.(type) {
	case *apd.Decimal:
		y, ok := b.(*apd.Decimal)
		return ok && x.Form == y.Form && (x.Form != apd.Finite || (x.Exponent == y.Exponent && x.Negative == y.Negative && x.Coeff.Cmp(&y.Coeff) == 0))
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y) || (ok && math.IsNaN(x) && math.IsNaN(y))
	case time.Time:
		y, ok := b.(time.Time)
		return ok && x.Equal(y) && y.Location() == time.UTC
	case types.ArrayValue:
		y, ok := b.(types.ArrayValue)
		if !ok || x.Elem != y.Elem || !slices.Equal(x.Dims, y.Dims) || len(x.Elems) != len(y.Elems) {
			return false
		}
		for i := range x.Elems {
			if !identical(x.Elems[i], y.Elems[i]) {
				return false
			}
		}
		return true
	case types.RecordValue:
		y, ok := b.(types.RecordValue)
		if !ok || !slices.Equal(x.Types, y.Types) || len(x.Fields) != len(y.Fields) {
			return false
		}
		for i := range x.Fields {
			if !identical(x.Fields[i], y.Fields[i]) {
				return false
			}
		}
		return true
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	}
	return a == b
}

func TestRowLargeStringsAndReuse(t *testing.T) {
	big := string(bytes.Repeat([]byte("x"), 10000))
	row := []types.Value{"small", big, "after", []byte("raw"), int64(7)}
	enc, err := EncodeRow(nil, row)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]types.Value, 0, 8)
	dec, err := DecodeRowInto(buf, enc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range row {
		if !identical(row[i], dec[i]) {
			t.Errorf("value %d = %#v", i, dec[i])
		}
	}
	if &dec[0] != &buf[:1][0] {
		t.Error("DecodeRowInto did not reuse the slice")
	}
}

func TestRowCorrupt(t *testing.T) {
	enc, _ := EncodeRow(nil, []types.Value{"abc", int64(1000), 1.5, &apd.Decimal{Coeff: *apd.NewBigInt(5)}})
	for i := 0; i < len(enc); i++ {
		if _, err := DecodeRow(enc[:i]); err == nil {
			t.Errorf("DecodeRow of a %d-byte prefix succeeded", i)
		}
	}
	if _, err := DecodeRow(append(enc, 0)); err == nil {
		t.Error("DecodeRow with trailing bytes succeeded")
	}
	if _, err := EncodeRow(nil, []types.Value{struct{}{}}); err == nil {
		t.Error("EncodeRow accepted a struct")
	}
}

func FuzzDecodeRow(f *testing.F) {
	enc, _ := EncodeRow(nil, []types.Value{"abc", int64(1000), nil, types.ArrayValue{Elem: types.Int8, Elems: []types.Value{int64(1)}}})
	f.Add(enc)
	f.Fuzz(func(t *testing.T, b []byte) {
		vals, err := DecodeRow(b)
		if err != nil {
			return
		}
		again, err := EncodeRow(nil, vals)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeRow(again); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzDecodeKey(f *testing.F) {
	f.Add(mustKey(f, false, "abc", int64(5)))
	f.Add(mustKey(f, true, 1.5, nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		for len(b) > 0 {
			_, rest, err := DecodeKey(b)
			if err != nil {
				return
			}
			if len(rest) >= len(b) {
				t.Fatal("DecodeKey consumed nothing")
			}
			b = rest
		}
	})
}

var benchRow = []types.Value{
	int64(42), "alice@example.com", "Alice Example", time.Date(2025, 7, 18, 10, 1, 0, 0, time.UTC),
	apd.New(12345, -2), true, nil, 3.25, int64(1234567890123),
}

func BenchmarkEncodeRow(b *testing.B) {
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = EncodeRow(buf[:0], benchRow); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkDecodeRow(b *testing.B) {
	enc, _ := EncodeRow(nil, benchRow)
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeRow(enc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeRowInto(b *testing.B) {
	enc, _ := EncodeRow(nil, benchRow)
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	dst := make([]types.Value, 0, len(benchRow))
	for b.Loop() {
		var err error
		if dst, err = DecodeRowInto(dst, enc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendKey(b *testing.B) {
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		buf, err = AppendKey(buf[:0], int64(1234567))
		if err == nil {
			buf, err = AppendKey(buf, "alice@example.com")
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendKeyNumeric(b *testing.B) {
	d := apd.New(1234567, -2)
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendKey(buf[:0], d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeKey(b *testing.B) {
	k := mustKey(b, false, int64(1234567), "alice@example.com")
	b.ReportAllocs()
	for b.Loop() {
		_, rest, err := DecodeKey(k)
		if err == nil {
			_, _, err = DecodeKey(rest)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}
