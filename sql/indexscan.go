package sql

import (
	"bytes"
	"slices"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/sql/eval"
	"cdcdb/storage"
	"cdcdb/types"
)

// Index scans.
//
// A table scan whose filter fixes the leading columns of an index by
// equality, and maybe bounds the next one, reads that index's key range
// instead of the whole table: the secondary index's entries (the indexed
// values, then the row's storage key for a non-unique index) point at the
// rows, and the primary key is the order of the table's own data space.
// Every row read is still checked against the whole filter, so the range
// only has to contain the matching rows, never to be exact: NULL entries,
// the ends of an exclusive bound and conjuncts the index cannot use are
// left to the filter.

// indexScan reads a table's rows through an index key range.
type indexScan struct {
	scan  *tableScan // columns, filter and row decoding of the scan it replaces
	index *catalog.Index
	eq    []eval.Expr // values of the index's leading columns
	lo    *indexBound // bounds of the column after them
	hi    *indexBound
	in    []eval.Expr // or a list of values for it (IN): one range each
}

type indexBound struct {
	e         eval.Expr
	inclusive bool
}

// indexCond is one usable conjunct of a filter: column op value, or
// column IN (list).
type indexCond struct {
	op   string // "=", "<", "<=", ">", ">=", "in"
	val  eval.Expr
	list []eval.Expr
}

func (p *indexScan) columns() []outCol { return p.scan.columns() }

func (p *indexScan) explain(depth int, out *[]string) {
	explainLine(out, depth, "Index Scan using %s on %s", p.index.Name, p.scan.table.Name)
}

// chooseIndexScan picks the index that fixes the most leading columns of
// a table scan's filter, preferring one that also bounds the next column;
// nil when no index helps or the scan already reads by key.
func chooseIndexScan(s *tableScan) *indexScan {
	if s.filter == nil || s.keyExprs != nil || s.prefixExprs != nil || s.sysTime != nil {
		return nil
	}
	conds := map[int][]indexCond{}
	collectIndexConds(s.filter, conds)
	if len(conds) == 0 {
		return nil
	}
	var best *indexScan
	bestScore := 0
	for i := range s.table.Indexes {
		ix := &s.table.Indexes[i]
		cand := &indexScan{scan: s, index: ix}
		score := 0
		for _, attnum := range ix.Columns {
			col := s.outputIndex(attnum)
			if col < 0 || !indexableType(s.cols[col].t) {
				break
			}
			var eq eval.Expr
			for _, c := range conds[col] {
				if c.op == "=" && sameKeyFamily(c.val.Type(), s.cols[col].t) {
					eq = c.val
					break
				}
			}
			if eq != nil {
				cand.eq = append(cand.eq, eq)
				score += 2
				continue
			}
			if list := inListFor(conds[col], s.cols[col].t); list != nil {
				cand.in = list
				score += 2
				break
			}
			for _, c := range conds[col] {
				if !sameKeyFamily(c.val.Type(), s.cols[col].t) {
					continue
				}
				switch c.op {
				case ">", ">=":
					if cand.lo == nil {
						cand.lo = &indexBound{e: c.val, inclusive: c.op == ">="}
					}
				case "<", "<=":
					if cand.hi == nil {
						cand.hi = &indexBound{e: c.val, inclusive: c.op == "<="}
					}
				}
			}
			if cand.lo != nil || cand.hi != nil {
				score++
			}
			break
		}
		if ix.Unique && len(cand.eq) == len(ix.Columns) {
			score++ // at most one row
		}
		if score > bestScore {
			best, bestScore = cand, score
		}
	}
	return best
}

// collectIndexConds finds the conjuncts "column op value" of a filter,
// where value does not read the row being filtered, by column index.
func collectIndexConds(e eval.Expr, out map[int][]indexCond) {
	switch e := e.(type) {
	case *eval.And:
		collectIndexConds(e.L, out)
		collectIndexConds(e.R, out)
	case *eval.InList:
		col := e.X
		if c, ok := col.(*eval.Cast); ok && !c.Explicit {
			col = c.X
		}
		ref, ok := col.(*eval.ColRef)
		if e.Not || !ok || ref.Level != 0 {
			return
		}
		for _, item := range e.List {
			if readsCurrentRow(item) {
				return
			}
		}
		out[ref.Idx] = append(out[ref.Idx], indexCond{op: "in", list: e.List})
	case *eval.Compare:
		flip := map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
		if _, ok := flip[e.Op]; !ok {
			return
		}
		for i, side := range [2][2]eval.Expr{{e.L, e.R}, {e.R, e.L}} {
			col, val := side[0], side[1]
			if c, ok := col.(*eval.Cast); ok && !c.Explicit {
				col = c.X
			}
			ref, ok := col.(*eval.ColRef)
			if !ok || ref.Level != 0 || readsCurrentRow(val) {
				continue
			}
			op := e.Op
			if i == 1 {
				op = flip[op]
			}
			out[ref.Idx] = append(out[ref.Idx], indexCond{op: op, val: val})
			return
		}
	}
}

// inListFor returns the values of an IN list on a column whose keys they
// can be encoded as, nil when there is none.
func inListFor(conds []indexCond, colT types.T) []eval.Expr {
	for _, c := range conds {
		if c.op != "in" {
			continue
		}
		usable := true
		for _, v := range c.list {
			usable = usable && sameKeyFamily(v.Type(), colT)
		}
		if usable {
			return c.list
		}
	}
	return nil
}

// indexableType reports the column types whose index keys compare as the
// column's values do (bpchar ignores trailing blanks, which its stored keys
// keep).
func indexableType(t types.T) bool { return t.OID != types.Bpchar }

// sameKeyFamily reports whether a value of type v encodes as the key of a
// column of type c would, so that it can bound an index range: the same
// type, two integer types (all int64), or two string types.
func sameKeyFamily(v, c types.T) bool {
	switch {
	case v.OID == c.OID:
		return true
	case eval.IsIntType(v.OID) && eval.IsIntType(c.OID):
		return true
	}
	str := func(o types.OID) bool { return o == types.Text || o == types.Varchar || o == types.Name }
	return str(v.OID) && str(c.OID)
}

// appendIndexKey appends one column's key encoding in the index's order.
func appendIndexKey(dst []byte, ix *catalog.Index, col int, v types.Value) ([]byte, error) {
	if col < len(ix.Desc) && ix.Desc[col] {
		return rowcodec.AppendKeyDesc(dst, v)
	}
	return rowcodec.AppendKey(dst, v)
}

func (p *indexScan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	s := p.scan
	data := x.tx.st.Space(catalog.DataSpace(s.table.OID))
	if data == nil {
		return nil, pgerror.New(pgerror.DataCorrupted, "storage for table \"%s\" is missing", s.table.Name)
	}
	space := data
	if !p.index.Primary {
		if space = x.tx.st.Space(catalog.IndexSpace(p.index.OID)); space == nil {
			return nil, pgerror.New(pgerror.DataCorrupted, "storage for index \"%s\" is missing", p.index.Name)
		}
	}
	if err := x.tx.readTable(s.table); err != nil {
		return nil, err
	}
	env := &eval.Env{Outer: outer, X: x}
	var prefix []byte
	for i, e := range p.eq {
		v, err := e.Eval(env)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return &sliceIter{}, nil // column = NULL holds for no row
		}
		if prefix, err = appendIndexKey(prefix, p.index, i, v); err != nil {
			return nil, err
		}
	}
	it := &indexIter{p: p, x: x, data: data, cur: space.Cursor(), prefix: prefix, start: prefix, env: eval.Env{Outer: outer, X: x}}
	if p.in != nil {
		// One key range per distinct listed value, in key order.
		seen := map[string]bool{}
		for _, e := range p.in {
			v, err := e.Eval(env)
			if err != nil {
				return nil, err
			}
			if v == nil {
				continue // column = NULL holds for no row
			}
			k, err := appendIndexKey(append([]byte(nil), prefix...), p.index, len(p.eq), v)
			if err != nil {
				return nil, err
			}
			if !seen[string(k)] {
				seen[string(k)] = true
				it.ranges = append(it.ranges, k)
			}
		}
		if len(it.ranges) == 0 {
			return &sliceIter{}, nil
		}
		slices.SortFunc(it.ranges, bytes.Compare)
		it.prefix, it.start = it.ranges[0], it.ranges[0]
		return it, nil
	}
	// In key order the lower bound is the column's lower bound, or its
	// upper one for a descending column.
	lo, hi := p.lo, p.hi
	desc := len(p.eq) < len(p.index.Desc) && p.index.Desc[len(p.eq)]
	if desc {
		lo, hi = hi, lo
	}
	bound := func(b *indexBound) ([]byte, bool, error) {
		v, err := b.e.Eval(env)
		if err != nil || v == nil {
			return nil, v == nil, err
		}
		k, err := appendIndexKey(append([]byte(nil), prefix...), p.index, len(p.eq), v)
		return k, false, err
	}
	if lo != nil {
		k, null, err := bound(lo)
		if err != nil {
			return nil, err
		}
		if null {
			return &sliceIter{}, nil // a comparison with NULL holds for no row
		}
		it.start, it.skipPrefix = k, !lo.inclusive
	}
	if hi != nil {
		k, null, err := bound(hi)
		if err != nil {
			return nil, err
		}
		if null {
			return &sliceIter{}, nil
		}
		it.stop, it.stopInclusive = k, hi.inclusive
	}
	return it, nil
}

// indexIter walks an index key range and yields the rows it points at
// that pass the scan's filter.
type indexIter struct {
	p      *indexScan
	x      *execCtx
	data   *storage.Space
	cur    *storage.Cursor
	env    eval.Env
	prefix []byte // every key of the range starts with it
	start  []byte // where the walk begins
	// skipPrefix skips the keys extending start (an exclusive lower bound).
	skipPrefix bool
	// stop ends the walk: keys after it (and, when not inclusive, keys
	// extending it) are out of range.
	stop          []byte
	stopInclusive bool
	started       bool
	// ranges, for an IN list, are key prefixes walked one after another
	// (ri is the current one).
	ranges [][]byte
	ri     int
}

func (it *indexIter) next() (eval.Row, error) {
	for {
		var k, v []byte
		if !it.started {
			it.started = true
			k, v = it.cur.Seek(it.start)
		} else {
			k, v = it.cur.Next()
		}
		if k == nil || !bytes.HasPrefix(k, it.prefix) {
			if it.ri+1 < len(it.ranges) {
				it.ri++
				it.prefix, it.start, it.started = it.ranges[it.ri], it.ranges[it.ri], false
				continue
			}
			return nil, nil
		}
		if it.skipPrefix && bytes.HasPrefix(k, it.start) {
			continue
		}
		if it.stop != nil {
			extends := bytes.HasPrefix(k, it.stop)
			if (!it.stopInclusive && extends) || (!extends && bytes.Compare(k, it.stop) > 0) {
				return nil, nil
			}
		}
		if err := it.x.CheckCancel(); err != nil {
			return nil, err
		}
		rowKey, raw := k, v
		if !it.p.index.Primary {
			rowKey = v
			if raw = it.data.Get(rowKey); raw == nil {
				return nil, pgerror.New(pgerror.DataCorrupted, "index \"%s\" points at a missing row of \"%s\"", it.p.index.Name, it.p.scan.table.Name)
			}
		}
		_, stored, err := history.Decode(raw)
		if err != nil {
			return nil, pgerror.New(pgerror.DataCorrupted, "corrupt row in table \"%s\": %v", it.p.scan.table.Name, err)
		}
		row := it.p.scan.project(rowKey, stored)
		if f := it.p.scan.filter; f != nil {
			it.env.Row = row
			ok, err := f.Eval(&it.env)
			if err != nil {
				return nil, err
			}
			if ok != true {
				continue
			}
		}
		return row, nil
	}
}

func (it *indexIter) close() {}
