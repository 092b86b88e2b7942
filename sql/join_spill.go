package sql

import (
	"cdcdb/sql/eval"
	"cmp"
	"hash/maphash"
	"math"

	"cdcdb/sql/ast"
	"cdcdb/sql/spill"
)

// Hash joins within work_mem (docs/memory.md). The inner (right) side is
// read into memory while it fits in work_mem. Past it, an equi-join splits
// both sides into hashJoinPartitions temporary files by join key hash,
// each row with its position in its input (rows whose key is NULL, which
// match nothing, go to files of their own); each partition's right rows
// are then held in a hash table (within the budget) while its left rows
// probe it. The rows joined are put back in the in-memory join's order
// through a spill.Sorter, by (left position, right position): a left row's
// matches in right order, a LEFT or FULL join's unmatched left row at its
// place, and a RIGHT or FULL join's unmatched right rows at the end in
// right order.

const hashJoinPartitions = 16

// unmatchedLeft ranks a left row without a match after its position, and
// rightTail ranks the unmatched right rows after every left row.
const (
	unmatchedLeft = int64(-1)
	rightTail     = int64(math.MaxInt64)
)

// graceJoin is a hash join spilling its two sides to partitions.
type graceJoin struct {
	x         *execCtx
	outer     *eval.Env
	p         *joinPlan
	seed      maphash.Seed
	rightPart []*spill.RowFile
	leftPart  []*spill.RowFile
	rightNull *spill.RowFile // right rows with a NULL key: [position, row...]
	leftNull  *spill.RowFile
	nRight    int64
}

func (g *graceJoin) close() {
	for _, f := range g.rightPart {
		f.Close()
	}
	for _, f := range g.leftPart {
		f.Close()
	}
	g.rightNull.Close()
	g.leftNull.Close()
}

// openGrace finishes a hash join whose right side passed work_mem: kept
// are the right rows read so far, rightIt the rest (which it closes).
func (p *joinPlan) openGrace(x *execCtx, outer *eval.Env, kept []eval.Row, rightIt rowIter) (rowIter, error) {
	spillsMade.Add(1)
	g := &graceJoin{x: x, outer: outer, p: p, seed: maphash.MakeSeed()}
	it, err := g.run(kept, rightIt)
	if err != nil {
		g.close()
		return nil, err
	}
	return it, nil
}

func (g *graceJoin) run(kept []eval.Row, rightIt rowIter) (rowIter, error) {
	x := g.x
	var err error
	if g.rightPart, err = newRowFiles(x, hashJoinPartitions); err != nil {
		rightIt.close()
		return nil, err
	}
	if g.leftPart, err = newRowFiles(x, hashJoinPartitions); err != nil {
		rightIt.close()
		return nil, err
	}
	dir := x.sess.engine.spillDir()
	if g.rightNull, err = spill.NewRowFile(dir, rowSpillCodec); err != nil {
		rightIt.close()
		return nil, err
	}
	if g.leftNull, err = spill.NewRowFile(dir, rowSpillCodec); err != nil {
		rightIt.close()
		return nil, err
	}
	env := &eval.Env{Outer: g.outer, X: x}
	for _, r := range kept {
		if err := g.split(env, r, g.p.rightKeys, g.rightPart, g.rightNull, &g.nRight); err != nil {
			rightIt.close()
			return nil, err
		}
	}
	for {
		r, err := rightIt.next()
		if err == nil && r != nil {
			err = x.CheckCancel()
		}
		if err == nil && r != nil {
			err = g.split(env, r, g.p.rightKeys, g.rightPart, g.rightNull, &g.nRight)
		}
		if err != nil || r == nil {
			rightIt.close()
			if err != nil {
				return nil, err
			}
			break
		}
	}
	leftIt, err := g.p.left.open(x, g.outer)
	if err != nil {
		return nil, err
	}
	var nLeft int64
	for {
		r, err := leftIt.next()
		if err == nil && r != nil {
			err = x.CheckCancel()
		}
		if err == nil && r != nil {
			err = g.split(env, r, g.p.leftKeys, g.leftPart, g.leftNull, &nLeft)
		}
		if err != nil || r == nil {
			leftIt.close()
			if err != nil {
				return nil, err
			}
			break
		}
	}
	// Joined rows are [left position, right position, left row..., right row...].
	sorter := x.newSorter("a hash join's rows", func(a, b eval.Row) int {
		if c := cmp.Compare(a[0].(int64), b[0].(int64)); c != 0 {
			return c
		}
		return cmp.Compare(a[1].(int64), b[1].(int64))
	}, 0)
	if err := g.joinAll(sorter); err != nil {
		sorter.Close()
		return nil, err
	}
	g.close()
	sorted, err := sorter.Finish()
	if err != nil {
		return nil, err
	}
	return &sortedIter{sorted: sorted, skip: 2}, nil
}

// split writes a row, after its position, to its key's partition, or to
// the NULL-key file.
func (g *graceJoin) split(env *eval.Env, r eval.Row, keys []eval.Expr, parts []*spill.RowFile, nulls *spill.RowFile, n *int64) error {
	env.Row = r
	key, null, err := hashKey(env, keys)
	if err != nil {
		return err
	}
	row := make(eval.Row, 0, 2+len(r))
	row = append(row, *n)
	*n++
	if null {
		return nulls.Append(append(row, r...))
	}
	row = append(row, key)
	return parts[maphash.String(g.seed, key)%hashJoinPartitions].Append(append(row, r...))
}

func (g *graceJoin) joinAll(sorter *spill.Sorter) error {
	lw := len(g.p.left.columns())
	rw := len(g.p.right.columns())
	keepLeft := g.p.kind == ast.JoinLeft || g.p.kind == ast.JoinFull
	keepRight := g.p.kind == ast.JoinRight || g.p.kind == ast.JoinFull
	for i := range g.rightPart {
		if err := g.joinPartition(sorter, g.rightPart[i], g.leftPart[i], lw, rw, keepLeft, keepRight); err != nil {
			return err
		}
		g.rightPart[i].Close()
		g.leftPart[i].Close()
	}
	// Rows with a NULL key match nothing.
	for _, side := range []struct {
		file *spill.RowFile
		keep bool
		left bool
	}{{g.leftNull, keepLeft, true}, {g.rightNull, keepRight, false}} {
		if !side.keep {
			continue
		}
		if err := side.file.Rewind(); err != nil {
			return err
		}
		for {
			r, err := side.file.Next()
			if err != nil {
				return err
			}
			if r == nil {
				break
			}
			out := make(eval.Row, 2+lw+rw)
			if side.left {
				out[0], out[1] = r[0], unmatchedLeft
				copy(out[2:], r[1:])
			} else {
				out[0], out[1] = rightTail, r[0]
				copy(out[2+lw:], r[1:])
			}
			if err := sorter.Add(out); err != nil {
				return err
			}
		}
	}
	return nil
}

// joinPartition joins one partition's rows ([position, key, row...]).
func (g *graceJoin) joinPartition(sorter *spill.Sorter, rightFile, leftFile *spill.RowFile, lw, rw int, keepLeft, keepRight bool) error {
	x := g.x
	held := x.rowsAccount("a hash join partition")
	defer held.close()
	if err := rightFile.Rewind(); err != nil {
		return err
	}
	var right []eval.Row
	hash := map[string][]int{}
	for {
		r, err := rightFile.Next()
		if err == nil && r != nil {
			err = held.keep(r)
		}
		if err != nil {
			return err
		}
		if r == nil {
			break
		}
		k := r[1].(string)
		hash[k] = append(hash[k], len(right))
		right = append(right, r)
	}
	matched := make([]bool, len(right))
	if err := leftFile.Rewind(); err != nil {
		return err
	}
	env := eval.Env{Outer: g.outer, X: x}
	for {
		l, err := leftFile.Next()
		if err == nil && l != nil {
			err = x.CheckCancel()
		}
		if err != nil {
			return err
		}
		if l == nil {
			break
		}
		lpos, lrow := l[0], l[2:]
		found := false
		for _, ri := range hash[l[1].(string)] {
			rrow := right[ri]
			out := make(eval.Row, 0, 2+lw+rw)
			out = append(out, lpos, rrow[0])
			out = append(out, lrow...)
			out = append(out, rrow[2:]...)
			if g.p.cond != nil {
				env.Row = out[2:]
				v, err := g.p.cond.Eval(&env)
				if err != nil {
					return err
				}
				if v != true {
					continue
				}
			}
			found = true
			matched[ri] = true
			if err := sorter.Add(out); err != nil {
				return err
			}
		}
		if !found && keepLeft {
			out := make(eval.Row, 2+lw+rw)
			out[0], out[1] = lpos, unmatchedLeft
			copy(out[2:], lrow)
			if err := sorter.Add(out); err != nil {
				return err
			}
		}
	}
	if keepRight {
		for ri, r := range right {
			if !matched[ri] {
				out := make(eval.Row, 2+lw+rw)
				out[0], out[1] = rightTail, r[0]
				copy(out[2+lw:], r[2:])
				if err := sorter.Add(out); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
