package eval

import (
	"strconv"
	"strings"
	"sync"

	"cdcdb/types"
)

// Anonymous record types with named fields. A row of named columns (as the
// rewrite above makes, or ROW(t.a, t.b)) gets a record type whose type
// modifier identifies its field names and types, as PostgreSQL's record
// type cache does, so that a field can be selected by name from the record
// wherever it travels (a subquery's output, a CTE).

type recordShape struct {
	Names []string
	Types []types.T
}

var recordShapes struct {
	sync.Mutex
	byKey map[string]int32
	list  []recordShape
}

// namedRecordType registers a record shape and returns its type.
func namedRecordType(names []string, ts []types.T) types.T {
	var b strings.Builder
	for i, n := range names {
		b.WriteString(n)
		b.WriteByte(0)
		b.WriteString(strconv.FormatUint(uint64(ts[i].OID), 10))
		b.WriteByte(':')
		b.WriteString(strconv.FormatInt(int64(ts[i].Typmod), 10))
		b.WriteByte(0)
	}
	key := b.String()
	recordShapes.Lock()
	defer recordShapes.Unlock()
	if recordShapes.byKey == nil {
		recordShapes.byKey = map[string]int32{}
	}
	if m, ok := recordShapes.byKey[key]; ok {
		return types.T{OID: types.Record, Typmod: m}
	}
	m := int32(len(recordShapes.list))
	recordShapes.list = append(recordShapes.list, recordShape{Names: append([]string(nil), names...), Types: append([]types.T(nil), ts...)})
	recordShapes.byKey[key] = m
	return types.T{OID: types.Record, Typmod: m}
}

// RecordShapeOf returns the field names and types of a named record type.
func RecordShapeOf(t types.T) (recordShape, bool) {
	if t.OID != types.Record || t.Typmod < 0 {
		return recordShape{}, false
	}
	recordShapes.Lock()
	defer recordShapes.Unlock()
	if int(t.Typmod) >= len(recordShapes.list) {
		return recordShape{}, false
	}
	return recordShapes.list[t.Typmod], true
}

// rowExprType is the type of a row: a named record when every element is
// a named column reference, else an anonymous one.
func rowExprType(elems []Expr) types.T {
	names := make([]string, len(elems))
	ts := make([]types.T, len(elems))
	for i, el := range elems {
		c, ok := el.(*ColRef)
		if !ok || c.Name == "" {
			return types.Of(types.Record)
		}
		names[i], ts[i] = c.Name, c.T
	}
	return namedRecordType(names, ts)
}
