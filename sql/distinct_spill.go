package sql

import (
	"cdcdb/sql/eval"
	"cmp"
	"hash/maphash"

	"cdcdb/sql/spill"
	"cdcdb/types"
)

// DISTINCT within work_mem (docs/memory.md). distinctPlan streams: a row
// whose key is new goes out at once. Once the keys seen would pass
// work_mem, the keys seen still drop their duplicates, and a row of any
// other key goes to one of distinctPartitions temporary files, by its
// key's hash, with its input position; at the end of the input each
// partition is deduplicated the same way (partitioned again when it too
// passes work_mem), and its first rows of each key go out in input order
// through a spill.Sorter. So the rows and their order are the in-memory
// path's.

const distinctPartitions = 16

const maxDistinctSpillDepth = 4

// distinctSet is the keys seen by one level of a DISTINCT: the input, or
// a partition.
type distinctSet struct {
	x     *execCtx
	seen  map[string]struct{}
	held  rowsAccount
	depth int
	seed  maphash.Seed
	parts []*spill.RowFile
	// workMem is the session's, read once.
	workMem int64
}

func newDistinctSet(x *execCtx, depth int) *distinctSet {
	return &distinctSet{x: x, seen: map[string]struct{}{}, held: x.rowsAccount("DISTINCT's rows seen"), depth: depth, seed: maphash.MakeSeed(), workMem: x.workMem()}
}

// keyCost is what remembering one key costs.
func distinctKeyCost(key string) int64 { return int64(len(key)) + 48 }

// add reports whether a row of key is the first of its key, so far as
// this set can tell: false for a duplicate, and for a row it wrote to a
// partition (written is then true).
func (d *distinctSet) add(seq int64, key string, r eval.Row) (first, written bool, err error) {
	if _, ok := d.seen[key]; ok {
		return false, false, nil
	}
	if d.parts == nil {
		cost := distinctKeyCost(key)
		if d.held.acct.Held()+cost <= d.workMem || len(d.seen) == 0 || d.depth >= maxDistinctSpillDepth {
			if err := d.held.keepBytes(cost); err != nil {
				return false, false, err
			}
			d.seen[key] = struct{}{}
			return true, false, nil
		}
		spillsMade.Add(1)
		d.parts = make([]*spill.RowFile, distinctPartitions)
		for i := range d.parts {
			if d.parts[i], err = spill.NewRowFile(d.x.sess.engine.spillDir(), rowSpillCodec); err != nil {
				return false, false, err
			}
		}
	}
	row := make(eval.Row, 0, 2+len(r))
	row = append(row, seq, key)
	row = append(row, r...)
	return false, true, d.parts[maphash.String(d.seed, key)%distinctPartitions].Append(row)
}

// drainInto deduplicates each partition in turn and adds the first row of
// each of its keys ([position, key, row...]) to sorter; it lets go of all
// it held.
func (d *distinctSet) drainInto(sorter *spill.Sorter) error {
	defer d.close()
	d.seen = nil
	d.held.close()
	for pi, f := range d.parts {
		err := d.drainPartition(f, sorter)
		f.Close()
		d.parts[pi] = nil
		if err != nil {
			return err
		}
	}
	return nil
}

func (d *distinctSet) drainPartition(f *spill.RowFile, sorter *spill.Sorter) error {
	if err := f.Rewind(); err != nil {
		return err
	}
	child := newDistinctSet(d.x, d.depth+1)
	for {
		row, err := f.Next()
		if err == nil && row != nil {
			err = d.x.CheckCancel()
		}
		if err != nil {
			child.close()
			return err
		}
		if row == nil {
			break
		}
		first, _, err := child.add(row[0].(int64), row[1].(string), row[2:])
		if err == nil && first {
			err = sorter.Add(row)
		}
		if err != nil {
			child.close()
			return err
		}
	}
	return child.drainInto(sorter)
}

func (d *distinctSet) close() {
	for _, f := range d.parts {
		f.Close()
	}
	d.parts, d.seen = nil, nil
	d.held.close()
}

// spillingDistinctIter is distinctPlan's iterator.
type spillingDistinctIter struct {
	in   rowIter
	p    *distinctPlan
	x    *execCtx
	env  eval.Env
	set  *distinctSet
	seq  int64
	rest *spill.SortedRows // the partitions' rows, once the input is read
}

func (p *distinctPlan) openSpilling(x *execCtx, outer *eval.Env) (rowIter, error) {
	in, err := p.input.open(x, outer)
	if err != nil {
		return nil, err
	}
	return &spillingDistinctIter{in: in, p: p, x: x, env: eval.Env{Outer: outer, X: x}, set: newDistinctSet(x, 0)}, nil
}

func (it *spillingDistinctIter) next() (eval.Row, error) {
	if it.rest != nil {
		r, err := it.rest.Next()
		if r == nil || err != nil {
			return nil, err
		}
		return r[2:], nil
	}
	for it.in != nil {
		r, err := it.in.next()
		if err != nil {
			return nil, err
		}
		if r == nil {
			it.in.close()
			it.in = nil
			break
		}
		key, err := it.key(r)
		if err != nil {
			return nil, err
		}
		it.seq++
		first, _, err := it.set.add(it.seq, key, r)
		if err != nil {
			return nil, err
		}
		if first {
			return r, nil
		}
	}
	if it.set.parts == nil {
		return nil, nil
	}
	x := it.x
	sorter := x.newSorter("DISTINCT's rows", func(a, b eval.Row) int { return cmp.Compare(a[0].(int64), b[0].(int64)) }, 0)
	if err := it.set.drainInto(sorter); err != nil {
		sorter.Close()
		return nil, err
	}
	rest, err := sorter.Finish()
	if err != nil {
		return nil, err
	}
	it.rest = rest
	return it.next()
}

// key is a row's DISTINCT (or DISTINCT ON) identity.
func (it *spillingDistinctIter) key(r eval.Row) (string, error) {
	if it.p.on == nil {
		return rowKey(r, colTypes(it.p.input.columns())), nil
	}
	it.env.Row = r
	vals := make([]types.Value, len(it.p.on))
	for i, e := range it.p.on {
		var err error
		if vals[i], err = e.Eval(&it.env); err != nil {
			return "", err
		}
	}
	return rowKey(vals, exprTypes(it.p.on)), nil
}

func (it *spillingDistinctIter) close() {
	if it.in != nil {
		it.in.close()
		it.in = nil
	}
	if it.rest != nil {
		it.rest.Close()
	}
	it.set.close()
}
