package temporal

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// compareTestValue orders the values the tests use: integers and strings.
func compareTestValue(a, b any) int {
	switch x := a.(type) {
	case int:
		return cmp.Compare(x, b.(int))
	case int64:
		return cmp.Compare(x, b.(int64))
	case string:
		return cmp.Compare(x, b.(string))
	}
	panic(fmt.Sprintf("compareTestValue: %T", a))
}

func equalTestValue(a, b any) bool { return compareTestValue(a, b) == 0 }

// testRules returns the Rules of a flow keyed by the data columns at keys.
func testRules(keys ...int) Rules {
	return Rules{
		Compare:    Lexicographic(compareTestValue),
		Equal:      equalTestValue,
		KeyColumns: ColumnsAt(keys...),
	}
}

func seq(fields ...any) Seq { return Seq(fields) }

func upsert(s any, values ...any) Event {
	return Event{Seq: Seq{s}, Kind: Upsert, Values: values}
}

func del(s any, values ...any) Event {
	return Event{Seq: Seq{s}, Kind: Delete, Values: values}
}

// formatRow writes values as the spec's tables do: space-separated, NULL
// for nil, a one-element Seq as its element.
func formatRow(values ...any) string {
	parts := make([]string, len(values))
	for i, v := range values {
		switch x := v.(type) {
		case nil:
			parts[i] = "NULL"
		case Seq:
			if x == nil {
				parts[i] = "NULL"
			} else {
				parts[i] = x.String()
			}
		default:
			parts[i] = fmt.Sprint(x)
		}
	}
	return strings.Join(parts, " ")
}

func formatVersions(vs []Version) []string {
	var out []string
	for _, v := range vs {
		out = append(out, formatRow(append(slices.Clone(v.Values), v.Start, v.End)...))
	}
	return out
}

func formatBiVersions(vs []BiVersion) []string {
	var out []string
	for _, v := range vs {
		out = append(out, formatRow(append(slices.Clone(v.Values), v.Start, v.End, v.SysStart, v.SysEnd)...))
	}
	return out
}

// sameLines compares two tables ignoring row order, reporting the difference.
func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		t.Errorf("%s:\ngot\n  %s\nwant\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// keyedHistories merges events, one Merge call per event in the order given
// (one event per statement, as the spec's examples arrive), into one
// history per key; key is the first data column.
func keyedHistories(t *testing.T, r Rules, events []Event) map[any][]Event {
	t.Helper()
	histories := map[any][]Event{}
	for _, e := range events {
		h, err := r.Merge(histories[e.Values[0]], []Event{e})
		if err != nil {
			t.Fatalf("Merge(%v): %v", e, err)
		}
		histories[e.Values[0]] = h
	}
	return histories
}

func sortedKeys(m map[any][]Event) []any {
	var keys []any
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareTestValue)
	return keys
}
