package temporal

import (
	"cmp"
	"fmt"
	"strings"
)

// Seq is one value of a flow's SEQUENCE BY (or SYSTEM SEQUENCE BY): a single
// element for `SEQUENCE BY expr`, one element per field for
// `SEQUENCE BY STRUCT(a, b, ...)`. Its elements are opaque; only the Rules'
// comparator looks inside. A nil Seq stands for NULL, which on a period end
// means "still open".
type Seq []any

// String formats a Seq for messages: the bare element for a one-element
// sequence, a parenthesized list for a STRUCT sequence.
func (s Seq) String() string {
	if s == nil {
		return "NULL"
	}
	if len(s) == 1 {
		return formatValue(s[0])
	}
	parts := make([]string, len(s))
	for i, v := range s {
		parts[i] = formatValue(v)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func formatValue(v any) string {
	if v == nil {
		return "NULL"
	}
	return fmt.Sprint(v)
}

// SeqCompare orders sequence values: negative when a comes before b, zero
// when they are the same sequence value, positive when a comes after b.
// It is never called with a nil Seq.
type SeqCompare func(a, b Seq) int

// Lexicographic builds the SeqCompare of `SEQUENCE BY STRUCT(...)`: fields in
// order, the first unequal field decides, as `STRUCT(ts, id)` orders by ts and
// then by id on ties. compareField is never called with nil; a NULL field
// sorts after every non-NULL one, as in PostgreSQL's record comparison. A
// one-element Seq compares as its element, so the same comparator serves
// `SEQUENCE BY expr`.
func Lexicographic(compareField func(a, b any) int) SeqCompare {
	return func(a, b Seq) int {
		for i := 0; i < len(a) && i < len(b); i++ {
			x, y := a[i], b[i]
			switch {
			case x == nil && y == nil:
				continue
			case x == nil:
				return 1
			case y == nil:
				return -1
			}
			if c := compareField(x, y); c != 0 {
				return c
			}
		}
		return cmp.Compare(len(a), len(b))
	}
}

// Kind is what an event does to its key.
type Kind uint8

const (
	// Upsert writes the event's values into the key's row, creating the row
	// if the key has none.
	Upsert Kind = iota
	// Delete removes the key's row (SCD TYPE 1) or closes its open version
	// (SCD TYPE 2, BITEMPORAL).
	Delete
)

func (k Kind) String() string {
	switch k {
	case Upsert:
		return "UPSERT"
	case Delete:
		return "DELETE"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Event is one source row of an AUTO CDC flow, reduced to what decides the
// target: where it sits in time, what it does, and the values it carries.
// All events given to one call belong to one key.
type Event struct {
	// Seq is the SEQUENCE BY value: business time for BITEMPORAL flows.
	Seq Seq
	// SysSeq is the SYSTEM SEQUENCE BY value of a BITEMPORAL flow; nil for
	// every other flow.
	SysSeq Seq
	Kind   Kind
	// Values holds one value per target data column (the KEYS columns
	// included), nil for NULL. A Delete's values never reach the target,
	// but its KEYS columns still name the key in errors.
	Values []any
	// Writes is the event's COLUMNS TO UPDATE list as column positions:
	// the columns this event writes, NULLs included; the others keep their
	// value. nil means every column (no COLUMNS TO UPDATE, or a NULL list);
	// a non-nil set with no member writes no column but the keys.
	Writes ColumnSet
}

// String formats an event for messages and test failures.
func (e Event) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s at %s", e.Kind, e.Seq)
	if e.SysSeq != nil {
		fmt.Fprintf(&b, " system %s", e.SysSeq)
	}
	b.WriteString(" (")
	for i, v := range e.Values {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(formatValue(v))
	}
	b.WriteString(")")
	if e.Writes != nil {
		var cols []string
		for i, w := range e.Writes {
			if w {
				cols = append(cols, fmt.Sprint(i))
			}
		}
		fmt.Fprintf(&b, " writing columns {%s}", strings.Join(cols, ", "))
	}
	return b.String()
}

// ColumnSet is a set of target data columns, by position. Whether a nil set
// means "no column" or "every column" depends on the field holding it; each
// field says so, and in each case nil means "the clause was not given".
type ColumnSet []bool

// ColumnsAt returns the set of the given column positions. It is never nil,
// even for no positions, so ColumnsAt() is the explicit empty set.
func ColumnsAt(positions ...int) ColumnSet {
	width := 0
	for _, p := range positions {
		if p < 0 {
			panic(fmt.Sprintf("temporal: negative column position %d", p))
		}
		width = max(width, p+1)
	}
	s := make(ColumnSet, width)
	for _, p := range positions {
		s[p] = true
	}
	return s
}

// Has reports whether column i is in the set; a nil set has no member.
func (s ColumnSet) Has(i int) bool { return i >= 0 && i < len(s) && s[i] }

// writes reports whether e writes column i, keys aside.
func (e Event) writes(i int) bool { return e.Writes == nil || e.Writes.Has(i) }

// valueAt returns column i of a row, NULL past its end: a row too short
// for the flow's columns reads as NULLs rather than panicking.
func valueAt(row []any, i int) any {
	if i < len(row) {
		return row[i]
	}
	return nil
}
