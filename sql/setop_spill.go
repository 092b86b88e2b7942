package sql

import (
	"cdcdb/sql/eval"
	"cmp"
	"hash/maphash"

	"cdcdb/sql/spill"
	"cdcdb/types"
)

// Set operations within work_mem (docs/memory.md). UNION ALL streams one
// input after the other; UNION is DISTINCT over that (distinct_spill.go).
// INTERSECT and EXCEPT count the right input's rows by key; past work_mem
// both inputs are split into setOpPartitions temporary files by key hash
// (the counts so far included), each partition is matched on its own, and
// the left rows kept go out in the left input's order through a
// spill.Sorter, as the in-memory path gives them.

const setOpPartitions = 16

// appendPlan yields its left input's rows, then its right's.
type appendPlan struct {
	left, right plan
	cols        []outCol
}

func (p *appendPlan) columns() []outCol { return p.cols }

func (p *appendPlan) explain(depth int, out *[]string) {
	explainLine(out, depth, "Append")
	p.left.explain(depth+1, out)
	p.right.explain(depth+1, out)
}

func (p *appendPlan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	in, err := p.left.open(x, outer)
	if err != nil {
		return nil, err
	}
	return &appendIter{x: x, outer: outer, in: in, right: p.right}, nil
}

type appendIter struct {
	x     *execCtx
	outer *eval.Env
	in    rowIter
	right plan // opened once the left is read; nil after
}

func (it *appendIter) next() (eval.Row, error) {
	for {
		r, err := it.in.next()
		if err != nil || r != nil || it.right == nil {
			return r, err
		}
		it.in.close()
		it.in = &sliceIter{}
		if it.in, err = it.right.open(it.x, it.outer); err != nil {
			it.in = &sliceIter{}
			return nil, err
		}
		it.right = nil
	}
}

func (it *appendIter) close() { it.in.close() }

// openStreaming runs the set operation within work_mem.
func (p *setOpPlan) openStreaming(x *execCtx, outer *eval.Env) (rowIter, error) {
	both := &appendPlan{left: p.left, right: p.right, cols: p.cols}
	if p.op == "UNION" {
		if p.all {
			return both.open(x, outer)
		}
		return (&distinctPlan{input: both}).openSpilling(x, outer)
	}
	return p.openMatching(x, outer)
}

// setOpMatch is INTERSECT or EXCEPT over right rows counted by key.
type setOpMatch struct {
	p       *setOpPlan
	counts  map[string]int
	emitted map[string]bool
}

// keep reports whether a left row of key k goes out.
func (m *setOpMatch) keep(k string) bool {
	inRight := m.counts[k] > 0
	keep := inRight == (m.p.op == "INTERSECT")
	if m.p.all {
		if inRight {
			m.counts[k]--
		}
		return keep
	}
	if m.emitted[k] {
		return false
	}
	m.emitted[k] = true
	return keep
}

func (p *setOpPlan) openMatching(x *execCtx, outer *eval.Env) (rowIter, error) {
	ts := colTypes(p.cols)
	held := x.rowsAccount("a set operation's rows seen")
	m := &setOpMatch{p: p, counts: map[string]int{}, emitted: map[string]bool{}}
	var rightParts []*spill.RowFile
	seed := maphash.MakeSeed()
	closeParts := func(parts []*spill.RowFile) {
		for _, f := range parts {
			f.Close()
		}
	}
	right, err := p.right.open(x, outer)
	if err != nil {
		return nil, err
	}
	for {
		r, err := right.next()
		if err == nil && r != nil {
			err = x.CheckCancel()
		}
		if err != nil || r == nil {
			right.close()
			if err != nil {
				held.close()
				closeParts(rightParts)
				return nil, err
			}
			break
		}
		k := rowKey(r, ts)
		if rightParts != nil {
			err = rightParts[maphash.String(seed, k)%setOpPartitions].Append(eval.Row{k, int64(1)})
		} else if _, ok := m.counts[k]; ok {
			m.counts[k]++
		} else if cost := distinctKeyCost(k); held.acct.Held()+cost > x.workMem() && len(m.counts) > 0 {
			// Past work_mem: the counts so far and every right row from
			// here go to partitions.
			spillsMade.Add(1)
			if rightParts, err = newRowFiles(x, setOpPartitions); err == nil {
				for ck, n := range m.counts {
					if err = rightParts[maphash.String(seed, ck)%setOpPartitions].Append(eval.Row{ck, int64(n)}); err != nil {
						break
					}
				}
				if err == nil {
					err = rightParts[maphash.String(seed, k)%setOpPartitions].Append(eval.Row{k, int64(1)})
				}
			}
			m.counts = nil
			held.close()
		} else if err = held.keepBytes(cost); err == nil {
			m.counts[k] = 1
		}
		if err != nil {
			right.close()
			held.close()
			closeParts(rightParts)
			return nil, err
		}
	}
	left, err := p.left.open(x, outer)
	if err != nil {
		held.close()
		closeParts(rightParts)
		return nil, err
	}
	if rightParts == nil {
		it := &setOpMatchIter{in: left, m: m, ts: ts, held: held}
		return it, nil
	}
	return p.matchPartitions(x, left, rightParts, seed, ts)
}

func newRowFiles(x *execCtx, n int) ([]*spill.RowFile, error) {
	files := make([]*spill.RowFile, n)
	for i := range files {
		f, err := spill.NewRowFile(x.sess.engine.spillDir(), rowSpillCodec)
		if err != nil {
			for _, g := range files[:i] {
				g.Close()
			}
			return nil, err
		}
		files[i] = f
	}
	return files, nil
}

// matchPartitions splits the left rows as the right ones were, matches
// each partition, and gives the rows kept in the left input's order.
func (p *setOpPlan) matchPartitions(x *execCtx, left rowIter, rightParts []*spill.RowFile, seed maphash.Seed, ts []types.T) (rowIter, error) {
	leftParts, err := newRowFiles(x, setOpPartitions)
	if err != nil {
		left.close()
		return nil, err
	}
	defer func() {
		for i := range rightParts {
			rightParts[i].Close()
			leftParts[i].Close()
		}
	}()
	for seq := int64(0); ; seq++ {
		r, err := left.next()
		if err == nil && r != nil {
			err = x.CheckCancel()
		}
		if err == nil && r != nil {
			k := rowKey(r, ts)
			row := make(eval.Row, 0, 2+len(r))
			row = append(append(row, seq, k), r...)
			err = leftParts[maphash.String(seed, k)%setOpPartitions].Append(row)
		}
		if err != nil || r == nil {
			left.close()
			if err != nil {
				return nil, err
			}
			break
		}
	}
	sorter := x.newSorter("a set operation's rows", func(a, b eval.Row) int { return cmp.Compare(a[0].(int64), b[0].(int64)) }, 0)
	for i := range rightParts {
		if err := p.matchPartition(x, rightParts[i], leftParts[i], sorter); err != nil {
			sorter.Close()
			return nil, err
		}
		rightParts[i].Close()
		leftParts[i].Close()
	}
	sorted, err := sorter.Finish()
	if err != nil {
		return nil, err
	}
	return &sortedIter{sorted: sorted, skip: 2}, nil
}

// matchPartition counts one partition's right rows (in memory, within the
// budget) and adds its left rows kept to sorter.
func (p *setOpPlan) matchPartition(x *execCtx, right, left *spill.RowFile, sorter *spill.Sorter) error {
	held := x.rowsAccount("a set operation's rows seen")
	defer held.close()
	m := &setOpMatch{p: p, counts: map[string]int{}, emitted: map[string]bool{}}
	if err := right.Rewind(); err != nil {
		return err
	}
	for {
		r, err := right.Next()
		if err != nil {
			return err
		}
		if r == nil {
			break
		}
		k := r[0].(string)
		if _, ok := m.counts[k]; !ok {
			if err := held.keepBytes(distinctKeyCost(k)); err != nil {
				return err
			}
		}
		m.counts[k] += int(r[1].(int64))
	}
	if err := left.Rewind(); err != nil {
		return err
	}
	for {
		r, err := left.Next()
		if err == nil && r != nil {
			err = x.CheckCancel()
		}
		if err != nil {
			return err
		}
		if r == nil {
			return nil
		}
		k := r[1].(string)
		if !m.p.all && !m.emitted[k] {
			if err := held.keepBytes(distinctKeyCost(k)); err != nil {
				return err
			}
		}
		if m.keep(k) {
			if err := sorter.Add(r); err != nil {
				return err
			}
		}
	}
}

// setOpMatchIter streams the left input through the right's counts.
type setOpMatchIter struct {
	in   rowIter
	m    *setOpMatch
	ts   []types.T
	held rowsAccount
}

func (it *setOpMatchIter) next() (eval.Row, error) {
	for {
		r, err := it.in.next()
		if err != nil || r == nil {
			return nil, err
		}
		k := rowKey(r, it.ts)
		if !it.m.p.all && !it.m.emitted[k] {
			if err := it.held.keepBytes(distinctKeyCost(k)); err != nil {
				return nil, err
			}
		}
		if it.m.keep(k) {
			return r, nil
		}
	}
}

func (it *setOpMatchIter) close() {
	it.in.close()
	it.held.close()
}
