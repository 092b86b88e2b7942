package types

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/apd/v3"
)

// randomValue makes a random value of type t, valid for PostgreSQL.
func randomValue(r *rand.Rand, t T) Value {
	switch t.OID {
	case Bool:
		return r.IntN(2) == 0
	case Int2:
		return int64(int16(r.Uint32()))
	case Int4:
		return int64(int32(r.Uint32()))
	case Int8:
		return int64(r.Uint64())
	case Float8:
		switch r.IntN(10) {
		case 0:
			return NaN
		case 1:
			return math.Inf(1 - 2*r.IntN(2))
		case 2:
			return float64(r.IntN(1000) - 500)
		}
		return math.Float64frombits(r.Uint64()&^(0x7ff<<52) | uint64(r.IntN(0x7fe)+1)<<52)
	case Float4:
		return float64(math.Float32frombits(r.Uint32()&^(0xff<<23) | uint32(r.IntN(0xfe)+1)<<23))
	case Numeric:
		switch r.IntN(12) {
		case 0:
			return &apd.Decimal{Form: apd.NaN}
		case 1:
			return &apd.Decimal{Form: apd.Infinite, Negative: r.IntN(2) == 0}
		}
		d := apd.New(r.Int64N(1_000_000_000_000)-500_000_000_000, -int32(r.IntN(20)))
		if r.IntN(3) == 0 {
			d.Exponent = int32(r.IntN(10))
		}
		if d.IsZero() {
			d.Negative = false
		}
		return d
	case Text:
		var b strings.Builder
		for n := r.IntN(12); n > 0; n-- {
			switch r.IntN(6) {
			case 0:
				b.WriteByte(" \t\"\\{},()NUL"[r.IntN(12)])
			case 1:
				b.WriteRune(rune(0x80 + r.IntN(0x3000)))
			default:
				b.WriteByte(byte('a' + r.IntN(26)))
			}
		}
		return b.String()
	case Bytea:
		b := make([]byte, r.IntN(10))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	case Date:
		return FromDays(r.Int64N(2_000_000) - 1_000_000)
	case Timestamp, Timestamptz:
		lo, hi := Micros(minTimestamp), Micros(maxTimestamp)
		return FromMicros(lo + int64(r.Uint64N(uint64(hi)-uint64(lo))))
	case Time:
		return TimeOfDay(r.Int64N(usPerDay + 1))
	case Interval:
		return IntervalValue{Months: int32(r.Uint32()), Days: int32(r.Uint32()), Micros: int64(r.Uint64())}
	case UUID:
		var u UUIDValue
		for i := range u {
			u[i] = byte(r.Uint32())
		}
		return u
	}
	if e := ElemOf(t.OID); e != 0 {
		a := ArrayValue{Elem: e}
		for n := r.IntN(4); n > 0; n-- {
			if r.IntN(5) == 0 {
				a.Elems = append(a.Elems, nil)
			} else {
				a.Elems = append(a.Elems, randomValue(r, Of(e)))
			}
		}
		return a
	}
	panic("no generator for " + FormatType(t))
}

var roundTripTypes = []OID{Bool, Int2, Int4, Int8, Float4, Float8, Numeric, Text, Bytea, Date, Timestamp,
	Timestamptz, Time, Interval, UUID, Int4Array, TextArray, NumericArray, ByteaArray, TimestamptzArray, IntervalArray}

// TestRoundTrip: text and binary formats read back what they wrote.
func TestRoundTrip(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(uint64(seed), 0))
	loc, _ := LoadZone("America/New_York")
	for i := 0; i < 20000; i++ {
		typ := Of(roundTripTypes[r.IntN(len(roundTripTypes))])
		v := randomValue(r, typ)
		text := FormatTextIn(typ, v, loc)
		back, err := ParseTextIn(typ, text, loc)
		if err != nil || !Equal(typ, back, v) || FormatTextIn(typ, back, loc) != text {
			t.Fatalf("seed %d: %s text %q: read back %v, %v", seed, FormatType(typ), text, back, err)
		}
		b, err := AppendBinary(nil, typ, v)
		if err != nil {
			t.Fatalf("seed %d: %s %q: AppendBinary: %v", seed, FormatType(typ), text, err)
		}
		back, err = ParseBinary(typ, b)
		if err != nil || FormatTextIn(typ, back, loc) != text {
			t.Fatalf("seed %d: %s %q: binary %x read back %v, %v", seed, FormatType(typ), text, b, back, err)
		}
	}
}

func TestRecordFormats(t *testing.T) {
	rec := RecordValue{
		Types:  []T{Of(Int4), Of(Text), Of(Text), Of(Text), Of(Numeric)},
		Fields: []Value{int64(1), "a b", nil, `q"\`, apd.New(150, -2)},
	}
	if got, want := FormatText(Of(Record), rec), `(1,"a b",,"q""\\",1.50)`; got != want {
		t.Errorf("record text = %s, want %s", got, want)
	}
	b, err := AppendBinary(nil, Of(Record), rec)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseBinary(Of(Record), b)
	if err != nil || Compare(Of(Record), back, rec) != 0 {
		t.Errorf("record binary round trip: %v %v", back, err)
	}
}

func TestFormatTextInZones(t *testing.T) {
	ts := time.Date(2025, 7, 18, 10, 1, 0, 0, time.UTC)
	for zone, want := range map[string]string{
		"UTC":              "2025-07-18 10:01:00+00",
		"Asia/Kolkata":     "2025-07-18 15:31:00+05:30",
		"America/New_York": "2025-07-18 06:01:00-04",
		"Asia/Kathmandu":   "2025-07-18 15:46:00+05:45",
	} {
		loc, err := LoadZone(zone)
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatTextIn(Of(Timestamptz), ts, loc); got != want {
			t.Errorf("%s: %s, want %s", zone, got, want)
		}
	}
	if _, err := LoadZone("Mars/Olympus"); err == nil {
		t.Error("LoadZone accepted an unknown zone")
	}
	if loc, err := LoadZone("europe/paris"); err != nil || loc.String() != "Europe/Paris" {
		t.Errorf("LoadZone(europe/paris) = %v, %v", loc, err)
	}
}

func TestBinaryErrors(t *testing.T) {
	for _, c := range []struct {
		t T
		b []byte
	}{
		{Of(Int4), []byte{1, 2}},
		{Of(Numeric), []byte{0, 1, 0, 0, 0, 0, 0, 0}},
		{Of(Numeric), []byte{0, 1, 0, 0, 0, 0, 0, 0, 0x27, 0x10}},
		{Of(Int4Array), []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 25, 0, 0, 0, 1, 0, 0, 0, 1}},
		{Of(Int4Array), []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 23, 0, 0, 0, 9, 0, 0, 0, 1}},
		{Of(JSONB), []byte{2, '1'}},
		{Of(Text), []byte{0xff}},
	} {
		if _, err := ParseBinary(c.t, c.b); err == nil {
			t.Errorf("ParseBinary(%s, %x) accepted bad input", FormatType(c.t), c.b)
		}
	}
}

// TestReadsClock: exactly the inputs that read the current time are
// reported, since a plan holding one of them may not be kept.
func TestReadsClock(t *testing.T) {
	for _, c := range []struct {
		t     OID
		input string
		want  bool
	}{
		{Timestamptz, "now", true},
		{Timestamptz, " NOW ", true},
		{Timestamp, "today", true},
		{Timestamp, "tomorrow", true},
		{Date, "yesterday", true},
		{Date, "now", true},
		{Time, "now", true},
		{TimestamptzArray, "{epoch,now}", true},
		{DateArray, `{{NULL,"today"}}`, true},
		{Timestamptz, "epoch", false},
		{Timestamptz, "infinity", false},
		{Date, "-infinity", false},
		{Time, "allballs", false},
		{Timestamptz, "2024-01-01 12:00:00+02", false},
		{Date, "2024-01-01", false},
		{TimestamptzArray, "{epoch,2024-01-01}", false},
		{TimestamptzArray, "{now", false}, // malformed: never read
		{Text, "now", false},
		{TextArray, "{today}", false},
		{Interval, "1 day", false},
	} {
		if got := ReadsClock(Of(c.t), c.input); got != c.want {
			t.Errorf("ReadsClock(%s, %q) = %v, want %v", FormatType(Of(c.t)), c.input, got, c.want)
		}
	}
}
