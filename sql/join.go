package sql

import (
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// joinPlan joins two inputs. Equi-joins (hashKeys set) build a hash table on
// the right side; other joins loop over the materialized right side.
type joinPlan struct {
	left, right plan
	kind        ast.JoinKind
	cond        eval.Expr // over the concatenated row; nil means true
	// hashKeys pairs left and right expressions of an equality join: a
	// hash join probes right rows by the left key.
	leftKeys, rightKeys []eval.Expr
	cols                []outCol
	// param makes the join an index nested loop: the right side, a key or
	// index lookup reading the left row as its enclosing row, is opened
	// once per left row (see join_index.go).
	param bool
}

func (p *joinPlan) columns() []outCol { return p.cols }

func (p *joinPlan) explain(depth int, out *[]string) {
	name := "Nested Loop"
	if len(p.leftKeys) > 0 && !p.param {
		name = "Hash Join"
	}
	switch p.kind {
	case ast.JoinLeft:
		name += " Left Join"
	case ast.JoinRight:
		name += " Right Join"
	case ast.JoinFull:
		name += " Full Join"
	}
	explainLine(out, depth, "%s", name)
	p.left.explain(depth+1, out)
	p.right.explain(depth+1, out)
}

func (p *joinPlan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	if p.param {
		return p.openParameterized(x, outer)
	}
	rightIt, err := p.right.open(x, outer)
	if err != nil {
		return nil, err
	}
	var right []eval.Row
	// The inner side is kept in memory for the join's life, accounted to
	// the memory budget until the join is done with.
	held := x.rowsAccount("a hash join's inner side")
	for {
		r, err := rightIt.next()
		if err == nil {
			err = x.CheckCancel()
		}
		if err == nil && r != nil {
			err = held.keep(r)
		}
		if err != nil {
			held.close()
			rightIt.close()
			return nil, err
		}
		if r == nil {
			break
		}
		right = append(right, append(eval.Row(nil), r...))
		if len(p.leftKeys) > 0 && held.acct.Held() > x.workMem() {
			// Past work_mem, an equi-join partitions both sides
			// (join_spill.go).
			held.close()
			return p.openGrace(x, outer, right, rightIt)
		}
	}
	rightIt.close()
	leftIt, err := p.left.open(x, outer)
	if err != nil {
		return nil, err
	}
	it := &joinIter{p: p, left: leftIt, right: right, env: eval.Env{Outer: outer, X: x},
		lw: len(p.left.columns()), rw: len(p.right.columns()), matchedRight: make([]bool, len(right))}
	heldBy(held, it)
	if len(p.leftKeys) > 0 {
		it.hash = map[string][]int{}
		env := &eval.Env{Outer: outer, X: x}
		for i, r := range right {
			env.Row = r
			key, null, err := hashKey(env, p.rightKeys)
			if err != nil {
				leftIt.close()
				return nil, err
			}
			if !null {
				it.hash[key] = append(it.hash[key], i)
				if err := held.keepBytes(int64(len(key)) + 40); err != nil {
					leftIt.close()
					return nil, err
				}
			}
			if err := x.CheckCancel(); err != nil {
				leftIt.close()
				return nil, err
			}
		}
	}
	return it, nil
}

// hashKey evaluates join key expressions into one string; null reports a
// NULL key, which never matches.
func hashKey(env *eval.Env, keys []eval.Expr) (string, bool, error) {
	vals := make([]types.Value, len(keys))
	for i, k := range keys {
		v, err := k.Eval(env)
		if err != nil {
			return "", false, err
		}
		if v == nil {
			return "", true, nil
		}
		vals[i] = v
	}
	return rowKey(vals, exprTypes(keys)), false, nil
}

type joinIter struct {
	p            *joinPlan
	left         rowIter
	right        []eval.Row
	hash         map[string][]int
	env          eval.Env
	lw, rw       int
	cur          eval.Row // current left row
	candidates   []int    // right rows to try for cur
	ci           int
	curMatched   bool
	matchedRight []bool
	leftDone     bool
	tail         int // position in the right-unmatched pass
}

func (it *joinIter) next() (eval.Row, error) {
	for !it.leftDone {
		if it.cur == nil {
			l, err := it.left.next()
			if err != nil {
				return nil, err
			}
			if l == nil {
				it.leftDone = true
				break
			}
			if err := it.env.X.CheckCancel(); err != nil {
				return nil, err
			}
			it.cur = append(eval.Row(nil), l...)
			it.curMatched = false
			it.ci = 0
			if it.hash != nil {
				it.env.Row = it.cur
				key, null, err := hashKey(&it.env, it.p.leftKeys)
				if err != nil {
					return nil, err
				}
				it.candidates = nil
				if !null {
					it.candidates = it.hash[key]
				}
			}
		}
		for {
			var ri int
			if it.hash != nil {
				if it.ci >= len(it.candidates) {
					break
				}
				ri = it.candidates[it.ci]
			} else {
				if it.ci >= len(it.right) {
					break
				}
				ri = it.ci
			}
			it.ci++
			row := make(eval.Row, 0, it.lw+it.rw)
			row = append(row, it.cur...)
			row = append(row, it.right[ri]...)
			if it.p.cond != nil {
				it.env.Row = row
				v, err := it.p.cond.Eval(&it.env)
				if err != nil {
					return nil, err
				}
				if v != true {
					// A left row may try every right row: a cancel
					// must not wait for the next match.
					if err := it.env.X.CheckCancel(); err != nil {
						return nil, err
					}
					continue
				}
			}
			it.curMatched = true
			it.matchedRight[ri] = true
			return row, nil
		}
		cur := it.cur
		it.cur = nil
		if !it.curMatched && (it.p.kind == ast.JoinLeft || it.p.kind == ast.JoinFull) {
			row := make(eval.Row, it.lw+it.rw)
			copy(row, cur)
			return row, nil
		}
	}
	if it.p.kind == ast.JoinRight || it.p.kind == ast.JoinFull {
		for it.tail < len(it.right) {
			i := it.tail
			it.tail++
			if !it.matchedRight[i] {
				row := make(eval.Row, it.lw+it.rw)
				copy(row[it.lw:], it.right[i])
				return row, nil
			}
		}
	}
	return nil, nil
}

func (it *joinIter) close() { it.left.close() }
