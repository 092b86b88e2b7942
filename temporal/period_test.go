package temporal

import (
	"fmt"
	"testing"
)

func TestAsOf(t *testing.T) {
	tests := []struct {
		start, end, x any
		want          bool
	}{
		{10, 20, 10, true},       // at start: start is inclusive
		{10, 20, 15, true},       // inside
		{10, 20, 19, true},       // just before end
		{10, 20, 20, false},      // at end: end is exclusive
		{10, 20, 9, false},       // before start
		{10, 20, 25, false},      // after end
		{10, nil, 10, true},      // NULL end is open: at start
		{10, nil, 1000000, true}, // open end, far after start
		{10, nil, 9, false},      // open end, before start
		{nil, 20, 15, false},     // NULL start: unknown
		{10, 20, nil, false},     // AS OF NULL: unknown
		{10, 10, 10, false},      // empty period holds no instant
		{20, 10, 15, false},      // backwards period holds no instant
		{"a", "c", "b", true},    // any ordered type
	}
	for _, tt := range tests {
		if got := AsOf(tt.start, tt.end, tt.x, compareTestValue); got != tt.want {
			t.Errorf("AsOf([%v, %v), %v) = %v, want %v", tt.start, tt.end, tt.x, got, tt.want)
		}
	}
}

func TestFromToAndBetween(t *testing.T) {
	// Each row asks both predicates the same question; they differ only
	// where the range's upper bound meets the period's start.
	tests := []struct {
		name                  string
		start, end, low, high any
		fromTo, between       bool
	}{
		{"range inside period", 10, 20, 12, 15, true, true},
		{"period inside range", 12, 15, 10, 20, true, true},
		{"period starts at upper bound", 20, 30, 10, 20, false, true},
		{"period starts just after upper bound", 21, 30, 10, 20, false, false},
		{"period ends at lower bound", 5, 10, 10, 20, false, false},
		{"period ends just after lower bound", 5, 11, 10, 20, true, true},
		{"period starts at lower bound", 10, 11, 10, 20, true, true},
		{"period ends at upper bound", 15, 20, 10, 20, true, true},
		{"period before range", 1, 5, 10, 20, false, false},
		{"period after range", 25, 30, 10, 20, false, false},
		{"open period starting before", 5, nil, 10, 20, true, true},
		{"open period starting at upper bound", 20, nil, 10, 20, false, true},
		{"open period starting after", 25, nil, 10, 20, false, false},
		{"empty range a == b", 10, 20, 15, 15, false, true}, // BETWEEN x AND x is AS OF x
		{"a == b at period end", 10, 20, 20, 20, false, false},
		{"a == b at period start", 10, 20, 10, 10, false, true},
		{"reversed range", 10, 20, 18, 12, false, false},
		{"reversed range, open period", 10, nil, 18, 12, false, false},
		{"NULL lower bound", 10, 20, nil, 15, false, false},
		{"NULL upper bound", 10, 20, 12, nil, false, false},
		{"NULL start", nil, 20, 12, 15, false, false},
		{"empty period", 15, 15, 10, 20, false, false},
	}
	for _, tt := range tests {
		if got := FromTo(tt.start, tt.end, tt.low, tt.high, compareTestValue); got != tt.fromTo {
			t.Errorf("%s: FromTo([%v, %v), %v, %v) = %v, want %v", tt.name, tt.start, tt.end, tt.low, tt.high, got, tt.fromTo)
		}
		if got := Between(tt.start, tt.end, tt.low, tt.high, compareTestValue); got != tt.between {
			t.Errorf("%s: Between([%v, %v), %v, %v) = %v, want %v", tt.name, tt.start, tt.end, tt.low, tt.high, got, tt.between)
		}
	}
}

// TestPeriodPredicatesAgainstInstants checks the predicates against their
// definition on a small integer line: a period [s, e) selects when it
// shares an instant with the asked set of instants.
func TestPeriodPredicatesAgainstInstants(t *testing.T) {
	const lo, hi = 0, 8
	holds := func(start int, end any, x int) bool {
		return start <= x && (end == nil || x < end.(int))
	}
	for start := lo; start <= hi; start++ {
		ends := []any{nil}
		for e := lo; e <= hi; e++ {
			ends = append(ends, e)
		}
		for _, end := range ends {
			for a := lo - 1; a <= hi+1; a++ {
				if got, want := AsOf(start, end, a, compareTestValue), holds(start, end, a); got != want {
					t.Fatalf("AsOf([%d, %v), %d) = %v, want %v", start, end, a, got, want)
				}
				for b := lo - 1; b <= hi+1; b++ {
					var fromTo, between bool
					// On integers, [a, b) and [a, b] are finite sets.
					for x := a; x <= b; x++ {
						if holds(start, end, x) {
							between = true
							if x < b {
								fromTo = true
							}
						}
					}
					if got := FromTo(start, end, a, b, compareTestValue); got != fromTo {
						t.Fatalf("FromTo([%d, %v), %d, %d) = %v, want %v", start, end, a, b, got, fromTo)
					}
					if got := Between(start, end, a, b, compareTestValue); got != between {
						t.Fatalf("Between([%d, %v), %d, %d) = %v, want %v", start, end, a, b, got, between)
					}
				}
			}
		}
	}
}

func ExampleBetween() {
	compare := func(a, b any) int { return a.(int) - b.(int) }
	// A version valid over [20, 30), asked about [10, 20):
	fmt.Println(FromTo(20, 30, 10, 20, compare))  // FROM 10 TO 20
	fmt.Println(Between(20, 30, 10, 20, compare)) // BETWEEN 10 AND 20
	fmt.Println(AsOf(20, nil, 1000, compare))     // AS OF 1000, open end
	// Output:
	// false
	// true
	// true
}
