package temporal

// Period predicates of the FOR BUSINESS_TIME / FOR SYSTEM_TIME clauses
// (spec §6), for the planner to filter rows by their period columns.
//
// A period is the closed-open interval [start, end) of a row's period
// columns; a NULL (nil) end is open, reaching past every value. Arguments are
// column values as the rest of cdcdb holds them (a one-element sequence as
// its element, a STRUCT sequence as a record), and compare orders two
// non-NULL values of the period's type: it is never called with nil.
//
// NULL follows SQL: a NULL start, AS OF point or range bound compares as
// unknown, so the row is not selected. A period with end <= start contains
// no instant and is never selected (temporal itself makes none).
//
//	AS OF x            start <= x < end
//	FROM a TO b        the period overlaps [a, b): start < b and end > a;
//	                   nothing when a >= b
//	BETWEEN a AND b    the period overlaps [a, b]: start <= b and end > a;
//	                   nothing when a > b
//
// So FROM a TO b and BETWEEN a AND b differ only at the upper bound: a row
// starting exactly at b is selected by BETWEEN, not by FROM..TO. Neither
// selects a row ending exactly at a: its end is exclusive, so it holds no
// instant at or after a.

// AsOf reports whether the period [start, end) contains x: start <= x < end.
func AsOf(start, end, x any, compare func(a, b any) int) bool {
	if start == nil || x == nil || !nonEmpty(start, end, compare) {
		return false
	}
	return compare(start, x) <= 0 && (end == nil || compare(x, end) < 0)
}

// FromTo reports whether the period [start, end) overlaps [from, to): they
// share an instant. Empty when from >= to.
func FromTo(start, end, from, to any, compare func(a, b any) int) bool {
	if start == nil || from == nil || to == nil || !nonEmpty(start, end, compare) {
		return false
	}
	if compare(from, to) >= 0 {
		return false
	}
	return compare(start, to) < 0 && (end == nil || compare(end, from) > 0)
}

// Between reports whether the period [start, end) overlaps the closed range
// [low, high]: they share an instant. Empty when low > high; when low ==
// high it is AsOf(low).
func Between(start, end, low, high any, compare func(a, b any) int) bool {
	if start == nil || low == nil || high == nil || !nonEmpty(start, end, compare) {
		return false
	}
	if compare(low, high) > 0 {
		return false
	}
	return compare(start, high) <= 0 && (end == nil || compare(end, low) > 0)
}

func nonEmpty(start, end any, compare func(a, b any) int) bool {
	return end == nil || compare(start, end) < 0
}
