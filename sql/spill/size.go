package spill

import (
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/types"
)

// What Go's memory costs, as a row's estimate counts it: an interface
// value, a slice header, the boxed value behind an interface, a string
// header.
const (
	interfaceBytes = 16
	sliceBytes     = 24
	boxBytes       = 16
	stringBytes    = 16
)

// ValueSize estimates the bytes v holds in memory beyond its interface
// slot: a string's or bytea's bytes, a numeric's digits, an array's
// elements. It is an estimate (Go's allocator rounds up), close enough
// that work_mem and the budget mean what they say.
func ValueSize(v types.Value) int64 {
	switch x := v.(type) {
	case nil, bool:
		return 0
	case int64, float64, types.TimeOfDay:
		return 8
	case string:
		return stringBytes + int64(len(x))
	case []byte:
		return sliceBytes + int64(len(x))
	case *apd.Decimal:
		return 56 + int64(len(x.Coeff.Bits()))*8
	case time.Time:
		return 24
	case types.IntervalValue:
		return boxBytes
	case types.UUIDValue:
		return boxBytes
	case types.ArrayValue:
		n := int64(sliceBytes*2 + 8)
		for _, e := range x.Elems {
			n += interfaceBytes + ValueSize(e)
		}
		return n + int64(len(x.Dims))*8
	case types.RecordValue:
		n := int64(sliceBytes * 2)
		for _, f := range x.Fields {
			n += interfaceBytes + ValueSize(f)
		}
		return n + int64(len(x.Types))*8
	}
	return boxBytes
}

// RowSize estimates the bytes a row kept in memory costs: its slice and
// each value.
func RowSize(row []types.Value) int64 {
	n := int64(sliceBytes + interfaceBytes*len(row))
	for _, v := range row {
		n += ValueSize(v)
	}
	return n
}
