package rowcodectest

import (
	"math"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/types"
)

// RowSamples returns a value of every kind the row codec knows, with
// the edge cases of each encoding (the ends of the one-byte integers, both
// zeros, the non-finite numbers, long strings, nested arrays and records),
// for tests of code that reads encoded rows.
func RowSamples() []types.Value {
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
