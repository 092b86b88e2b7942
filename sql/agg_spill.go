package sql

import (
	"cmp"
	"hash/maphash"

	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"

	"cdcdb/sql/spill"
	"cdcdb/types"
)

// Hash aggregation within work_mem (docs/memory.md). A GROUP BY runs
// here (with grouping sets, each row goes to one group per set): rows go to an in-memory table of groups until
// the groups would pass work_mem; from then on, the groups in the table
// still take their rows, and a row of any other group goes to one of
// aggPartitions temporary files, chosen by its group's hash, with its
// group keys, its aggregates' arguments (already evaluated, so nothing is
// evaluated twice) and its position in the input. Each partition is then
// aggregated the same way, one at a time, partitioned again by another
// hash if it too passes work_mem. Groups come out in the order of their
// first row in the input, as the in-memory table gives them: when a table
// spilled, its groups and the partitions' go through a spill.Sorter by
// that position.

// aggPartitions is how many files a spilling table splits its other
// groups into: each holds about this fraction of them.
const aggPartitions = 16

// maxAggSpillDepth bounds re-partitioning: a partition whose groups still
// pass work_mem at this depth is aggregated in memory (within the budget),
// as one huge group would be at any depth.
const maxAggSpillDepth = 4

// hashAgg is one level of a hash aggregation: the input, or a partition.
type hashAgg struct {
	x       *execCtx
	p       *aggPlan
	gtypes  []types.T
	growth  []func([]types.Value) int64
	groups  map[string]*aggGroup
	order   []*aggGroup
	first   []int64 // the input position of each group's first row, as order
	held    rowsAccount
	depth   int
	seed    maphash.Seed
	parts   []*spill.RowFile // nil until the table passes work_mem
	workMem int64
	// masks are the grouping sets' masks of the group expressions each
	// leaves out (nil without grouping sets).
	masks []int64
}

func newHashAgg(x *execCtx, p *aggPlan, depth int) *hashAgg {
	h := &hashAgg{x: x, p: p, gtypes: exprTypes(p.groupExprs), groups: map[string]*aggGroup{},
		held: x.rowsAccount("an aggregation's groups and states"), depth: depth, seed: maphash.MakeSeed(), workMem: x.workMem()}
	if p.sets != nil {
		h.masks = groupingMasks(p.sets, len(p.groupExprs))
	}
	h.growth = make([]func([]types.Value) int64, len(p.aggs))
	for i, a := range p.aggs {
		h.growth[i] = aggStateGrowth(a.fn.name)
	}
	return h
}

// openHashed aggregates the input by GROUP BY without grouping sets.
func (p *aggPlan) openHashed(x *execCtx, outer *eval.Env) (rowIter, error) {
	in, err := p.input.open(x, outer)
	if err != nil {
		return nil, err
	}
	defer in.close()
	env := &eval.Env{Outer: outer, X: x}
	h := newHashAgg(x, p, 0)
	var rows int64
	for seq := int64(0); ; seq++ {
		r, err := in.next()
		if err == nil && r != nil {
			err = x.CheckCancel()
		}
		if err != nil {
			h.abandon()
			return nil, err
		}
		if r == nil {
			break
		}
		env.Row = r
		keys := make(eval.Row, len(p.groupExprs))
		for i, g := range p.groupExprs {
			if keys[i], err = g.Eval(env); err != nil {
				h.abandon()
				return nil, err
			}
		}
		argVals := make([][]types.Value, len(p.aggs))
		for i, a := range p.aggs {
			if a.filter != nil {
				v, err := a.filter.Eval(env)
				if err != nil {
					h.abandon()
					return nil, err
				}
				if v != true {
					continue
				}
			}
			vals := make([]types.Value, len(a.args), len(a.args)+len(a.orderBy))
			for j, ae := range a.args {
				if vals[j], err = ae.Eval(env); err != nil {
					h.abandon()
					return nil, err
				}
			}
			for _, o := range a.orderBy {
				v, err := o.e.Eval(env)
				if err != nil {
					h.abandon()
					return nil, err
				}
				vals = append(vals, v)
			}
			argVals[i] = vals
		}
		if p.sets == nil {
			err = h.add(seq, 0, keys, argVals)
		} else {
			// A row goes to one group per grouping set, in the sets'
			// order: its position among the groups' first rows is its
			// input position times the sets, plus the set.
			for si, set := range p.sets {
				setRow := make(eval.Row, len(keys))
				for _, i := range set {
					setRow[i] = keys[i]
				}
				if err = h.add(seq*int64(len(p.sets))+int64(si), si, setRow, argVals); err != nil {
					break
				}
			}
		}
		if err != nil {
			h.abandon()
			return nil, err
		}
		rows++
	}
	if rows == 0 {
		// An empty grouping set yields its one row even from no rows, as a
		// query without GROUP BY does (from any row, it has its group).
		for si, set := range p.sets {
			if len(set) == 0 {
				if err := h.add(int64(si), si, make(eval.Row, len(p.groupExprs)), make([][]types.Value, len(p.aggs))); err != nil {
					h.abandon()
					return nil, err
				}
			}
		}
	}
	return h.finish()
}

// add takes one row: its position, group keys and each aggregate's
// arguments (nil: filtered out).
func (h *hashAgg) add(seq int64, si int, keys eval.Row, argVals [][]types.Value) error {
	var k string
	if h.masks == nil {
		k = rowKey(keys, h.gtypes)
	} else {
		k = setGroupKey(si, keys, h.gtypes)
	}
	g, ok := h.groups[k]
	if !ok {
		if h.parts != nil {
			return h.toPartition(k, seq, si, keys, argVals)
		}
		cost := groupCost(keys, k, len(h.p.aggs))
		if h.held.acct.Held()+cost > h.workMem && len(h.order) > 0 && h.depth < maxAggSpillDepth {
			if err := h.startPartitions(); err != nil {
				return err
			}
			return h.toPartition(k, seq, si, keys, argVals)
		}
		if err := h.held.keepBytes(cost); err != nil {
			return err
		}
		g = &aggGroup{keys: keys, states: make([]builtins.AggState, len(h.p.aggs)), buffered: make([][]eval.Row, len(h.p.aggs))}
		if h.masks != nil {
			g.absent = h.masks[si]
		}
		for i, a := range h.p.aggs {
			g.states[i] = a.fn.newState()
		}
		h.groups[k] = g
		h.order = append(h.order, g)
		h.first = append(h.first, seq)
	}
	for i, a := range h.p.aggs {
		vals := argVals[i]
		if vals == nil {
			continue
		}
		if a.distinct || len(a.orderBy) > 0 {
			if err := h.held.keep(vals); err != nil {
				return err
			}
			g.buffered[i] = append(g.buffered[i], vals)
			continue
		}
		if h.growth[i] != nil {
			if err := h.held.keepBytes(h.growth[i](vals[:len(a.args)])); err != nil {
				return err
			}
		}
		sized, _ := g.states[i].(builtins.SizedState)
		var before int64
		if sized != nil {
			before = sized.HeldBytes()
		}
		if err := g.states[i].Add(h.x, vals[:len(a.args)]); err != nil {
			return err
		}
		if sized != nil {
			if err := h.held.keepBytes(growingBufferCost(sized.HeldBytes() - before)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (h *hashAgg) startPartitions() error {
	spillsMade.Add(1)
	h.parts = make([]*spill.RowFile, aggPartitions)
	for i := range h.parts {
		f, err := spill.NewRowFile(h.x.sess.engine.spillDir(), rowSpillCodec)
		if err != nil {
			return err
		}
		h.parts[i] = f
	}
	return nil
}

// toPartition writes a row of a group not in the table to its partition,
// as [position, grouping set, keys..., then per aggregate: taken,
// arguments...].
func (h *hashAgg) toPartition(k string, seq int64, si int, keys eval.Row, argVals [][]types.Value) error {
	row := make(eval.Row, 0, 2+len(keys)+2*len(argVals))
	row = append(row, seq, int64(si))
	row = append(row, keys...)
	for i, a := range h.p.aggs {
		n := len(a.args) + len(a.orderBy)
		vals := argVals[i]
		row = append(row, vals != nil)
		if vals == nil {
			for range n {
				row = append(row, nil)
			}
			continue
		}
		row = append(row, vals...)
	}
	part := maphash.String(h.seed, k) % aggPartitions
	return h.parts[part].Append(row)
}

// fromPartition reads back what toPartition wrote.
func (h *hashAgg) fromPartition(row eval.Row) (seq int64, si int, keys eval.Row, argVals [][]types.Value) {
	seq, si = row[0].(int64), int(row[1].(int64))
	nk := len(h.p.groupExprs)
	keys = row[2 : 2+nk]
	at := 2 + nk
	argVals = make([][]types.Value, len(h.p.aggs))
	for i, a := range h.p.aggs {
		n := len(a.args) + len(a.orderBy)
		if row[at] == true {
			argVals[i] = row[at+1 : at+1+n : at+1+n]
		}
		at += 1 + n
	}
	return seq, si, keys, argVals
}

// results computes the output rows of the groups in the table, in the
// order of their first rows, each after its first row's position.
func (h *hashAgg) results() ([]eval.Row, error) {
	rows := make([]eval.Row, 0, len(h.order))
	for gi, g := range h.order {
		row := make(eval.Row, 0, 1+len(h.p.cols))
		row = append(row, h.first[gi])
		row = append(row, g.keys...)
		for i, a := range h.p.aggs {
			if a.distinct || len(a.orderBy) > 0 {
				if err := feedBuffered(h.x, a, g.states[i], g.buffered[i]); err != nil {
					return nil, err
				}
			}
			v, err := g.states[i].Result(h.x)
			if err != nil {
				return nil, err
			}
			row = append(row, v)
		}
		if h.masks != nil {
			row = append(row, g.absent)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// finish returns the aggregation's rows.
func (h *hashAgg) finish() (rowIter, error) {
	if h.parts == nil {
		rows, err := h.results()
		if err != nil {
			h.abandon()
			return nil, err
		}
		h.groups, h.order = nil, nil
		for i, r := range rows {
			rows[i] = r[1:]
		}
		heldBySlice(h.held, rows)
		return &sliceIter{rows: rows}, nil
	}
	// Every group's row, the table's and the partitions', is put back in
	// the order of the groups' first rows.
	sorter := h.x.newSorter("HashAggregate's groups", func(a, b eval.Row) int { return cmp.Compare(a[0].(int64), b[0].(int64)) }, 0)
	if err := h.drainInto(sorter); err != nil {
		sorter.Close()
		return nil, err
	}
	sorted, err := sorter.Finish()
	if err != nil {
		return nil, err
	}
	return &sortedIter{sorted: sorted, skip: 1}, nil
}

// drainInto adds the rows of the table's groups to sorter, then
// aggregates each partition into it in turn, and lets go of all it held.
func (h *hashAgg) drainInto(sorter *spill.Sorter) error {
	defer h.abandon()
	rows, err := h.results()
	if err != nil {
		return err
	}
	h.groups, h.order = nil, nil
	for _, r := range rows {
		if err := sorter.Add(r); err != nil {
			return err
		}
	}
	h.held.close()
	for pi, f := range h.parts {
		err := h.aggregatePartition(f, sorter)
		f.Close()
		h.parts[pi] = nil
		if err != nil {
			return err
		}
	}
	return nil
}

// aggregatePartition aggregates one partition's rows into sorter.
func (h *hashAgg) aggregatePartition(f *spill.RowFile, sorter *spill.Sorter) error {
	if err := f.Rewind(); err != nil {
		return err
	}
	child := newHashAgg(h.x, h.p, h.depth+1)
	for {
		row, err := f.Next()
		if err == nil && row != nil {
			err = h.x.CheckCancel()
		}
		if err != nil {
			child.abandon()
			return err
		}
		if row == nil {
			break
		}
		if err := child.add(child.fromPartition(row)); err != nil {
			child.abandon()
			return err
		}
	}
	return child.drainInto(sorter)
}

// abandon drops what the aggregation holds.
func (h *hashAgg) abandon() {
	for _, f := range h.parts {
		f.Close()
	}
	h.parts, h.groups, h.order = nil, nil, nil
	h.held.close()
}
