package sql

import (
	"cdcdb/sql/eval"
	"cmp"

	"cdcdb/sql/spill"
)

// Window functions within work_mem (docs/memory.md). The input is read
// into memory while it fits in work_mem, and computed there (window.go).
// Past it, every row goes to a temporary file with its input position,
// at its output width; then for each window (calls over the same window
// share it) the rows are sorted by partition, order and position through
// a spill.Sorter, read back one partition at a time (a partition is held
// in memory, within the budget), given that window's values and written
// to the next file; a last sort by position gives the rows in input
// order, as the in-memory path does.

// readWindowInput reads the window's input: into memory while its rows
// fit in work_mem (file nil), else all of it into file as [position,
// row..., room for the window values].
func (p *windowPlan) readWindowInput(x *execCtx, outer *eval.Env) (rows []eval.Row, file *spill.RowFile, err error) {
	it, err := p.input.open(x, outer)
	if err != nil {
		return nil, nil, err
	}
	defer it.close()
	held := x.rowsAccount("a window's input")
	defer held.close()
	width := p.w.base + len(p.w.funcs)
	var size int64
	for seq := int64(0); ; seq++ {
		r, err := it.next()
		if err == nil && r != nil {
			err = x.CheckCancel()
		}
		if err != nil {
			if file != nil {
				file.Close()
			}
			return nil, nil, err
		}
		if r == nil {
			return rows, file, nil
		}
		if file == nil {
			n := spill.RowSize(r)
			if size+n <= x.workMem() || len(rows) == 0 {
				if err := held.keepBytes(n); err != nil {
					return nil, nil, err
				}
				size += n
				rows = append(rows, append(eval.Row(nil), r...))
				continue
			}
			spillsMade.Add(1)
			if file, err = spill.NewRowFile(x.sess.engine.spillDir(), rowSpillCodec); err != nil {
				return nil, nil, err
			}
			for i, kept := range rows {
				if err := file.Append(windowFileRow(int64(i), kept, width)); err != nil {
					file.Close()
					return nil, nil, err
				}
			}
			rows = nil
			held.close()
		}
		if err := file.Append(windowFileRow(seq, r, width)); err != nil {
			file.Close()
			return nil, nil, err
		}
	}
}

// windowFileRow is [position, r..., NULL for each window value].
func windowFileRow(seq int64, r eval.Row, width int) eval.Row {
	row := make(eval.Row, 1+width)
	row[0] = seq
	copy(row[1:], r)
	return row
}

// openSpilled computes the windows over the rows in file.
func (p *windowPlan) openSpilled(x *execCtx, outer *eval.Env, file *spill.RowFile) (rowIter, error) {
	cur := file
	done := make([]bool, len(p.w.funcs))
	for i, f := range p.w.funcs {
		if done[i] {
			continue
		}
		var group []int
		for j := i; j < len(p.w.funcs); j++ {
			if !done[j] && p.w.funcs[j].def.fp == f.def.fp {
				group = append(group, j)
				done[j] = true
			}
		}
		next, err := p.spillWindow(x, outer, cur, f.def, group)
		cur.Close()
		if err != nil {
			return nil, err
		}
		cur = next
	}
	defer cur.Close()
	sorter := x.newSorter("a window's rows", func(a, b eval.Row) int { return cmp.Compare(a[0].(int64), b[0].(int64)) }, 0)
	if err := cur.Rewind(); err != nil {
		return nil, err
	}
	for {
		r, err := cur.Next()
		if err == nil && r != nil {
			err = sorter.Add(r)
		}
		if err != nil {
			sorter.Close()
			return nil, err
		}
		if r == nil {
			break
		}
	}
	sorted, err := sorter.Finish()
	if err != nil {
		return nil, err
	}
	return &sortedIter{sorted: sorted, skip: 1}, nil
}

// spillWindow gives the rows of in the values of one window's calls, and
// writes them to a new file in that window's order.
func (p *windowPlan) spillWindow(x *execCtx, outer *eval.Env, in *spill.RowFile, def *windowDef, calls []int) (*spill.RowFile, error) {
	np, no := len(def.partition), len(def.order)
	nk := np + no
	partKeys := make([]sortKey, np)
	for i, e := range def.partition {
		partKeys[i] = sortKey{e: e}
	}
	// Sorted rows are [partition keys..., order keys..., position, row...].
	sorter := x.newSorter("a window's sort", func(a, b eval.Row) int {
		if c := compareSortKeys(partKeys, a[:np], b[:np]); c != 0 {
			return c
		}
		if c := compareSortKeys(def.order, a[np:nk], b[np:nk]); c != 0 {
			return c
		}
		return cmp.Compare(a[nk].(int64), b[nk].(int64))
	}, 0)
	env := &eval.Env{Outer: outer, X: x}
	if err := in.Rewind(); err != nil {
		return nil, err
	}
	for {
		r, err := in.Next()
		if err == nil && r != nil {
			err = x.CheckCancel()
		}
		if err != nil {
			sorter.Close()
			return nil, err
		}
		if r == nil {
			break
		}
		env.Row = r[1:]
		keyed := make(eval.Row, nk, nk+len(r))
		for j, e := range def.partition {
			if keyed[j], err = e.Eval(env); err != nil {
				sorter.Close()
				return nil, err
			}
		}
		for j, k := range def.order {
			if keyed[np+j], err = k.e.Eval(env); err != nil {
				sorter.Close()
				return nil, err
			}
		}
		if err := sorter.Add(append(keyed, r...)); err != nil {
			sorter.Close()
			return nil, err
		}
	}
	sorted, err := sorter.Finish()
	if err != nil {
		return nil, err
	}
	defer sorted.Close()
	frame, err := p.frameOffsets(x, outer, def.frame)
	if err != nil {
		return nil, err
	}
	out, err := spill.NewRowFile(x.sess.engine.spillDir(), rowSpillCodec)
	if err != nil {
		return nil, err
	}
	held := x.rowsAccount("a window partition")
	defer held.close()
	var part []windowRow
	var seqs []int64
	flush := func() error {
		if len(part) == 0 {
			return nil
		}
		wp := &windowPartition{rows: part, def: def, frame: frame, x: x, env: eval.Env{Outer: outer, X: x}}
		wp.findPeers()
		for _, ci := range calls {
			if err := wp.compute(p.w.funcs[ci], p.w.base+ci); err != nil {
				return err
			}
		}
		for i, wr := range part {
			row := make(eval.Row, 0, 1+len(wr.row))
			if err := out.Append(append(append(row, seqs[i]), wr.row...)); err != nil {
				return err
			}
		}
		part, seqs = part[:0], seqs[:0]
		held.close()
		return nil
	}
	for {
		r, err := sorted.Next()
		if err == nil && r != nil {
			if len(part) > 0 && compareSortKeys(partKeys, part[0].part, r[:np]) != 0 {
				err = flush()
			}
		}
		if err == nil && r != nil {
			err = held.keep(r)
		}
		if err != nil {
			out.Close()
			return nil, err
		}
		if r == nil {
			break
		}
		part = append(part, windowRow{row: r[nk+1:], part: r[:np], order: r[np:nk]})
		seqs = append(seqs, r[nk].(int64))
	}
	if err := flush(); err != nil {
		out.Close()
		return nil, err
	}
	return out, nil
}
