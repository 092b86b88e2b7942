package types

import (
	"bytes"
	"math"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"
)

// Compare orders two non-NULL values of type t as PostgreSQL's default btree
// operator class does: text bytewise (the C collation cdcdb uses), bpchar
// ignoring trailing blanks, float and numeric NaN after every number and equal
// to itself, -0 equal to 0, intervals by their length with 30-day months,
// arrays and records element by element. NULL handling is the caller's
// business; where a NULL meets a value inside an array or record, or when
// Compare is given one, NULL sorts after every value (as NULLS LAST).
// json and jsonb compare as their text, bytewise (PostgreSQL has no ordering
// for json and a structural one for jsonb that this does not follow).
func Compare(t T, a, b Value) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	switch x := a.(type) {
	case bool:
		y, ok := b.(bool)
		if !ok {
			break
		}
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case int64:
		switch y := b.(type) {
		case int64:
			return cmpInt(x, y)
		case float64:
			return compareFloat(float64(x), y)
		case *apd.Decimal:
			return compareDecimal(apd.New(x, 0), y)
		}
	case float64:
		switch y := b.(type) {
		case float64:
			return compareFloat(x, y)
		case int64:
			return compareFloat(x, float64(y))
		}
	case *apd.Decimal:
		switch y := b.(type) {
		case *apd.Decimal:
			return compareDecimal(x, y)
		case int64:
			return compareDecimal(x, apd.New(y, 0))
		}
	case string:
		y, ok := b.(string)
		if !ok {
			break
		}
		if t.OID == Bpchar || t.OID == BpcharArray {
			x, y = strings.TrimRight(x, " "), strings.TrimRight(y, " ")
		}
		if t.OID == JSONB || t.OID == JSONBArray {
			return CompareJSONB(x, y)
		}
		return strings.Compare(x, y)
	case []byte:
		if y, ok := b.([]byte); ok {
			return bytes.Compare(x, y)
		}
	case time.Time:
		if y, ok := b.(time.Time); ok {
			return x.Compare(y)
		}
	case TimeOfDay:
		if y, ok := b.(TimeOfDay); ok {
			return cmpInt(int64(x), int64(y))
		}
	case IntervalValue:
		if y, ok := b.(IntervalValue); ok {
			return compareInterval(x, y)
		}
	case UUIDValue:
		if y, ok := b.(UUIDValue); ok {
			return bytes.Compare(x[:], y[:])
		}
	case ArrayValue:
		if y, ok := b.(ArrayValue); ok {
			return compareArray(t, x, y)
		}
	case RecordValue:
		if y, ok := b.(RecordValue); ok {
			return compareRecord(x, y)
		}
	}
	// Values of different kinds: order by kind so sorting stays total.
	return cmpInt(int64(kindRank(a)), int64(kindRank(b)))
}

// Equal reports whether Compare(t, a, b) == 0.
func Equal(t T, a, b Value) bool { return Compare(t, a, b) == 0 }

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func compareFloat(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func compareDecimal(a, b *apd.Decimal) int {
	an, bn := a.Form == apd.NaN || a.Form == apd.NaNSignaling, b.Form == apd.NaN || b.Form == apd.NaNSignaling
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	return a.Cmp(b)
}

func compareArray(t T, a, b ArrayValue) int {
	et := Of(a.Elem)
	if e := ElemOf(t.OID); e != 0 {
		et = Of(e)
	}
	n := min(len(a.Elems), len(b.Elems))
	for i := 0; i < n; i++ {
		if c := Compare(et, a.Elems[i], b.Elems[i]); c != 0 {
			return c
		}
	}
	if c := cmpInt(int64(len(a.Elems)), int64(len(b.Elems))); c != 0 {
		return c
	}
	da, db := a.Dims, b.Dims
	if len(da) == 0 && len(a.Elems) > 0 {
		da = []int{len(a.Elems)}
	}
	if len(db) == 0 && len(b.Elems) > 0 {
		db = []int{len(b.Elems)}
	}
	if c := cmpInt(int64(len(da)), int64(len(db))); c != 0 {
		return c
	}
	for i := range da {
		if c := cmpInt(int64(da[i]), int64(db[i])); c != 0 {
			return c
		}
	}
	return 0
}

func compareRecord(a, b RecordValue) int {
	n := min(len(a.Fields), len(b.Fields))
	for i := 0; i < n; i++ {
		t := Of(Unknown)
		if i < len(a.Types) {
			t = a.Types[i]
		}
		if c := Compare(t, a.Fields[i], b.Fields[i]); c != 0 {
			return c
		}
	}
	return cmpInt(int64(len(a.Fields)), int64(len(b.Fields)))
}

func kindRank(v Value) int {
	switch v.(type) {
	case bool:
		return 1
	case int64, float64, *apd.Decimal:
		return 2
	case string:
		return 3
	case []byte:
		return 4
	case time.Time:
		return 5
	case TimeOfDay:
		return 6
	case IntervalValue:
		return 7
	case UUIDValue:
		return 8
	case RecordValue:
		return 9
	case ArrayValue:
		return 10
	case nil:
		return 100
	}
	return 50
}
