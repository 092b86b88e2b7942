package spill

import (
	"container/heap"
	"slices"

	"cdcdb/types"
)

// TopN keeps the first n rows of an order out of any number pushed: a
// heap of n whose root is the row that would go first, so each row costs
// O(log n) and memory stays n rows. Equal rows keep their push order, as a
// stable sort's first n would.
type TopN struct {
	n    int64
	cmp  func(a, b []types.Value) int
	rows []topRow
	seq  int64
}

type topRow struct {
	row []types.Value
	seq int64
}

// NewTopN keeps the first n (> 0) rows under cmp.
func NewTopN(n int64, cmp func(a, b []types.Value) int) *TopN {
	return &TopN{n: n, cmp: cmp}
}

// Push offers a row: kept says whether the TopN keeps it, dropped is a row
// it let go to make room (nil when none).
func (t *TopN) Push(row []types.Value) (dropped []types.Value, kept bool) {
	t.seq++
	r := topRow{row: row, seq: t.seq}
	if int64(len(t.rows)) < t.n {
		heap.Push((*topHeap)(t), r)
		return nil, true
	}
	// The new row came last, so it goes in only if strictly before the
	// worst kept.
	if t.cmp(row, t.rows[0].row) >= 0 {
		return row, false
	}
	dropped = t.rows[0].row
	t.rows[0] = r
	heap.Fix((*topHeap)(t), 0)
	return dropped, true
}

// Sorted returns the rows kept, in order; the TopN is done with.
func (t *TopN) Sorted() [][]types.Value {
	slices.SortFunc(t.rows, func(a, b topRow) int {
		if c := t.cmp(a.row, b.row); c != 0 {
			return c
		}
		return int(a.seq - b.seq)
	})
	out := make([][]types.Value, len(t.rows))
	for i, r := range t.rows {
		out[i] = r.row
	}
	t.rows = nil
	return out
}

// topHeap is a max-heap: the root is the worst row kept (last in order,
// and of equals the latest pushed).
type topHeap TopN

func (h *topHeap) Len() int { return len(h.rows) }
func (h *topHeap) Less(i, j int) bool {
	if c := h.cmp(h.rows[i].row, h.rows[j].row); c != 0 {
		return c > 0
	}
	return h.rows[i].seq > h.rows[j].seq
}
func (h *topHeap) Swap(i, j int) { h.rows[i], h.rows[j] = h.rows[j], h.rows[i] }
func (h *topHeap) Push(x any)    { h.rows = append(h.rows, x.(topRow)) }
func (h *topHeap) Pop() any {
	x := h.rows[len(h.rows)-1]
	h.rows = h.rows[:len(h.rows)-1]
	return x
}
