package temporal

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestMergeSortsAndDedupesRetries(t *testing.T) {
	r := testRules(0)
	history, err := r.Merge(nil, []Event{upsert(3, 1, "c"), upsert(1, 1, "a"), upsert(3, 1, "c")})
	if err != nil {
		t.Fatal(err)
	}
	history, err = r.Merge(history, []Event{upsert(2, 1, "b"), upsert(1, 1, "a")})
	if err != nil {
		t.Fatal(err)
	}
	var seqs []string
	for _, e := range history {
		seqs = append(seqs, e.Seq.String())
	}
	if !slices.Equal(seqs, []string{"1", "2", "3"}) {
		t.Errorf("history sequence values %v, want [1 2 3]", seqs)
	}
}

func TestMergeRefusesConflicts(t *testing.T) {
	r := testRules(0, 1)
	base := []Event{upsert(5, 1, "x", "Isabel"), upsert(6, 1, "x", "Raul")}
	tests := []struct {
		name     string
		history  []Event
		incoming []Event
	}{
		{"against history", base, []Event{upsert(5, 1, "x", "Lily")}},
		{"within one batch", nil, []Event{upsert(5, 1, "x", "Isabel"), upsert(5, 1, "x", "Lily")}},
		{"upsert against delete", base, []Event{del(5, 1, "x", "Isabel")}},
		{"NULL against a value", base, []Event{upsert(5, 1, "x", nil)}},
		{"other columns written", base, []Event{{Seq: seq(5), Values: []any{1, "x", "Isabel"}, Writes: ColumnsAt()}}},
	}
	for _, tt := range tests {
		_, err := r.Merge(tt.history, tt.incoming)
		var ce *ConflictError
		if !errors.As(err, &ce) {
			t.Errorf("%s: err = %v, want a *ConflictError", tt.name, err)
			continue
		}
		if ce.Seq.String() != "5" || ce.SysSeq != nil || formatRow(ce.Key...) != "1 x" {
			t.Errorf("%s: conflict names key %v at %v/%v, want (1, x) at 5", tt.name, ce.Key, ce.Seq, ce.SysSeq)
		}
		if want := "two different events for key (1, x) have sequence value 5"; !strings.Contains(err.Error(), want) {
			t.Errorf("%s: message %q does not say %q", tt.name, err, want)
		}
	}
}

// TestMergeRetryIsJudgedByEffect pins down "identical": two events at one
// sequence value are one event retried when the target cannot tell them
// apart, even if they differ where nothing reaches the target.
func TestMergeRetryIsJudgedByEffect(t *testing.T) {
	r := testRules(0)
	tests := []struct {
		name string
		a, b Event
	}{
		{"deletes with different payloads", del(4, 1, "old"), del(4, 1, nil)},
		{"upserts differing in an unwritten column",
			Event{Seq: seq(4), Values: []any{1, "a", "b"}, Writes: ColumnsAt(1)},
			Event{Seq: seq(4), Values: []any{1, "a", "zzz"}, Writes: ColumnsAt(1)}},
		{"a write set naming every column is every column",
			Event{Seq: seq(4), Values: []any{1, "a"}, Writes: ColumnsAt(0, 1)},
			Event{Seq: seq(4), Values: []any{1, "a"}}},
	}
	for _, tt := range tests {
		history, err := r.Merge([]Event{tt.a}, []Event{tt.b})
		if err != nil || len(history) != 1 {
			t.Errorf("%s: Merge = %d events, %v; want the retry dropped", tt.name, len(history), err)
		}
	}
}

func TestMergeBitemporalIdentity(t *testing.T) {
	r := testRules(0)
	at := func(bt, st int, v string) Event {
		return Event{Seq: seq(bt), SysSeq: seq(st), Values: []any{1, v}}
	}
	history, err := r.Merge(nil, []Event{at(10, 200, "b"), at(10, 100, "a"), at(5, 300, "c"), at(10, 100, "a")})
	if err != nil {
		t.Fatalf("same business time, different system time: %v", err)
	}
	if len(history) != 3 || history[0].Seq.String() != "5" || history[1].SysSeq.String() != "100" {
		t.Errorf("history not in (business, system) order: %v", history)
	}
	_, err = r.Merge(history, []Event{at(10, 100, "changed")})
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.SysSeq.String() != "100" ||
		!strings.Contains(err.Error(), "business sequence value 10 and system sequence value 100") {
		t.Errorf("same business and system time: err = %v, want a conflict at 10/100", err)
	}
}

// TestDefaultEqual: without Rules.Equal, values are compared with
// reflect.DeepEqual, and NULL is equal only to NULL.
func TestDefaultEqual(t *testing.T) {
	r := Rules{Compare: Lexicographic(compareTestValue), KeyColumns: ColumnsAt(0)}
	if _, err := r.Merge([]Event{upsert(1, 1, []byte("a"))}, []Event{upsert(1, 1, []byte("a"))}); err != nil {
		t.Errorf("equal byte slices are a conflict: %v", err)
	}
	if _, err := r.Merge([]Event{upsert(1, 1, []byte("a"))}, []Event{upsert(1, 1, nil)}); err == nil {
		t.Error("a value and NULL are not a conflict")
	}
}

// TestMergeOrdersMissingSystemSequenceFirst: a history mixing events with and
// without a system sequence value (which only a bug makes) still has one
// order, so Merge stays deterministic and a replay can refuse it.
func TestMergeOrdersMissingSystemSequenceFirst(t *testing.T) {
	r := testRules(0)
	withSystem := Event{Seq: seq(1), SysSeq: seq(1), Values: []any{1}}
	history, err := r.Merge([]Event{withSystem}, []Event{upsert(1, 1)})
	if err != nil || len(history) != 2 || history[0].SysSeq != nil {
		t.Fatalf("Merge = %v, %v", history, err)
	}
	if _, err := r.ReplayBitemporal(history); !errors.Is(err, ErrNullSystemSequence) {
		t.Errorf("ReplayBitemporal of a mixed history: %v", err)
	}
}

func TestMergeLeavesInputsAlone(t *testing.T) {
	r := testRules(0)
	history := []Event{upsert(1, 1, "a"), upsert(3, 1, "c")}
	incoming := []Event{upsert(4, 1, "d"), upsert(2, 1, "b")}
	before := slices.Clone(incoming)
	merged, err := r.Merge(history, incoming)
	if err != nil {
		t.Fatal(err)
	}
	if len(merged) != 4 || history[1].Seq.String() != "3" || incoming[0].Seq.String() != before[0].Seq.String() {
		t.Errorf("Merge modified its inputs or lost events: history %v incoming %v merged %v", history, incoming, merged)
	}
	// An unsorted history is still a history.
	if merged2, err := r.Merge([]Event{upsert(3, 1, "c"), upsert(1, 1, "a")}, incoming); err != nil || len(merged2) != 4 {
		t.Errorf("unsorted history: %v, %v", merged2, err)
	}
}

func TestInvalidEventsAndRules(t *testing.T) {
	r := testRules(0)
	bi := Event{Seq: seq(1), SysSeq: seq(1), Values: []any{1}}
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"NULL sequence", second(r.Merge(nil, []Event{{Values: []any{1}}})), ErrNullSequence},
		{"unknown kind", second(r.Merge(nil, []Event{{Seq: seq(1), Kind: 7, Values: []any{1}}})), ErrUnknownKind},
		{"no comparator", second(Rules{}.Merge(nil, nil)), ErrNoCompare},
		{"no comparator to replay", second(Rules{}.ReplaySCD2(nil)), ErrNoCompare},
		{"system sequence in SCD TYPE 1", third(r.ReplaySCD1([]Event{bi}, nil)), ErrUnexpectedSystem},
		{"system sequence in SCD TYPE 2", second(r.ReplaySCD2([]Event{bi})), ErrUnexpectedSystem},
		{"no system sequence in BITEMPORAL", second(r.ReplayBitemporal([]Event{upsert(1, 1)})), ErrNullSystemSequence},
		{"conflict found by a replay", second(r.ReplaySCD2([]Event{upsert(1, 1, "a"), upsert(1, 1, "b")})), nil},
	}
	for _, tt := range tests {
		if tt.want == nil {
			var ce *ConflictError
			if !errors.As(tt.err, &ce) {
				t.Errorf("%s: err = %v, want a *ConflictError", tt.name, tt.err)
			}
			continue
		}
		if !errors.Is(tt.err, tt.want) {
			t.Errorf("%s: err = %v, want %v", tt.name, tt.err, tt.want)
		}
	}
}

func second[A, B any](_ A, b B) B        { return b }
func third[A, B, C any](_ A, _ B, c C) C { return c }

func TestLexicographic(t *testing.T) {
	compare := Lexicographic(compareTestValue)
	tests := []struct {
		a, b Seq
		want int
	}{
		{seq(1), seq(2), -1},
		{seq(2), seq(2), 0},
		{seq(1, 9), seq(2, 0), -1}, // first field decides
		{seq(2, 1), seq(2, 3), -1}, // second field breaks the tie
		{seq(2, 3), seq(2, 1), 1},
		{seq(2, nil), seq(2, 1), 1},   // NULL field sorts last, as in PostgreSQL
		{seq(nil, 1), seq(nil, 1), 0}, // NULL fields compare equal for ordering
		{seq(2), seq(2, 1), -1},       // a prefix first
	}
	for _, tt := range tests {
		if got := compare(tt.a, tt.b); sign(got) != tt.want {
			t.Errorf("compare(%v, %v) = %d, want sign %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

func TestFormatting(t *testing.T) {
	tests := []struct{ got, want string }{
		{seq(5).String(), "5"},
		{seq("2025-07-18", 3).String(), "(2025-07-18, 3)"},
		{Seq(nil).String(), "NULL"},
		{seq(nil).String(), "NULL"},
		{Delete.String(), "DELETE"},
		{Kind(9).String(), "Kind(9)"},
		{Event{Seq: seq(2), SysSeq: seq(7), Values: []any{1, nil}, Writes: ColumnsAt(1)}.String(),
			"UPSERT at 2 system 7 (1, NULL) writing columns {1}"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	if s := ColumnsAt(); s == nil || s.Has(0) {
		t.Error("ColumnsAt() is not the explicit empty set")
	}
	if s := ColumnsAt(2, 0); !s.Has(0) || s.Has(1) || !s.Has(2) || s.Has(3) || s.Has(-1) {
		t.Errorf("ColumnsAt(2, 0) = %v", s)
	}
}
