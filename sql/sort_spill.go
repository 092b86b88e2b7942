package sql

import (
	"cdcdb/sql/eval"
	"cdcdb/sql/spill"
)

// openBounded runs the sort through a spill.Sorter, which keeps work_mem
// of rows in memory and merges sorted runs from temporary files past it.
// bound, above 0, is how many rows the consumer will read (a LIMIT's
// offset plus count): the sorter then keeps only that many.
func (p *sortPlan) openBounded(x *execCtx, outer *eval.Env, bound int64) (rowIter, error) {
	in, err := p.input.open(x, outer)
	if err != nil {
		return nil, err
	}
	defer in.close()
	nk := len(p.keys)
	// Each kept row is its sort keys followed by the input row, so the
	// order needs no evaluation once a row is kept.
	sorter := x.newSorter("Sort", func(a, b eval.Row) int { return compareSortKeys(p.keys, a[:nk], b[:nk]) }, bound)
	env := &eval.Env{Outer: outer, X: x}
	for {
		r, err := in.next()
		if err != nil {
			return nil, abandonSorter(sorter, err)
		}
		if r == nil {
			break
		}
		if err := x.CheckCancel(); err != nil {
			return nil, abandonSorter(sorter, err)
		}
		env.Row = r
		kept := make(eval.Row, nk, nk+len(r))
		for i, sk := range p.keys {
			if kept[i], err = sk.e.Eval(env); err != nil {
				return nil, abandonSorter(sorter, err)
			}
		}
		if err := sorter.Add(append(kept, r...)); err != nil {
			return nil, abandonSorter(sorter, err)
		}
	}
	if sorter.Spilled() {
		spillsMade.Add(1)
	}
	sorted, err := sorter.Finish()
	if err != nil {
		return nil, err
	}
	return &sortedIter{sorted: sorted, skip: nk}, nil
}

// abandonSorter gives back what a sorter holds when its input fails.
func abandonSorter(s *spill.Sorter, err error) error {
	s.Close()
	return err
}

// sortedIter yields a sorter's rows without the keys in front of them.
type sortedIter struct {
	sorted *spill.SortedRows
	skip   int
}

func (it *sortedIter) next() (eval.Row, error) {
	r, err := it.sorted.Next()
	if r == nil || err != nil {
		return nil, err
	}
	return r[it.skip:], nil
}

func (it *sortedIter) close() { it.sorted.Close() }
