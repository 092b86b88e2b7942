package sql

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"cdcdb/pgerror"
	"cdcdb/rowcodec"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// outCol describes one output column of a plan node.
type outCol struct {
	name     string
	t        types.T
	tableOID uint32
	attnum   int16
	// pos is where a select-list entry was written (1-based, 0 if not
	// known) and literal its value when it is an untyped literal ('x',
	// NULL): a set operation gives such a column the other side's type.
	pos     int
	literal *eval.Const
}

// plan is a node of a query plan: a source of rows.
type plan interface {
	columns() []outCol
	// open starts producing rows. outer is the row of the enclosing query
	// for correlated subqueries (nil at the top).
	open(x *execCtx, outer *eval.Env) (rowIter, error)
	// explain appends this node's EXPLAIN lines at the given depth.
	explain(depth int, out *[]string)
}

// rowIter yields rows; next returns a nil row at the end. A returned row is
// valid until the next call; callers that keep it copy it.
type rowIter interface {
	next() (eval.Row, error)
	close()
}

func explainLine(out *[]string, depth int, format string, args ...any) {
	prefix := ""
	if depth > 0 {
		prefix = strings.Repeat("      ", depth-1) + "  ->  "
	}
	*out = append(*out, prefix+fmt.Sprintf(format, args...))
}

// sliceIter yields a fixed list of rows.
type sliceIter struct {
	rows []eval.Row
	i    int
}

func (it *sliceIter) next() (eval.Row, error) {
	if it.i >= len(it.rows) {
		return nil, nil
	}
	r := it.rows[it.i]
	it.i++
	return r, nil
}
func (it *sliceIter) close() {}

// ---------------------------------------------------------------- VALUES

// valuesPlan produces rows of expressions (VALUES, or a FROM-less SELECT's
// single empty row).
type valuesPlan struct {
	rows [][]eval.Expr
	cols []outCol
}

func (p *valuesPlan) columns() []outCol { return p.cols }

func (p *valuesPlan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	env := &eval.Env{Outer: outer, X: x}
	rows := make([]eval.Row, len(p.rows))
	for i, r := range p.rows {
		row := make(eval.Row, len(r))
		for j, e := range r {
			v, err := e.Eval(env)
			if err != nil {
				return nil, err
			}
			row[j] = v
		}
		rows[i] = row
	}
	return &sliceIter{rows: rows}, nil
}

func (p *valuesPlan) explain(depth int, out *[]string) {
	if len(p.cols) == 0 {
		explainLine(out, depth, "Result")
		return
	}
	explainLine(out, depth, "Values Scan on \"*VALUES*\"")
}

// ---------------------------------------------------------------- filter

type filterPlan struct {
	input plan
	cond  eval.Expr
}

func (p *filterPlan) columns() []outCol { return p.input.columns() }

func (p *filterPlan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	in, err := p.input.open(x, outer)
	if err != nil {
		return nil, err
	}
	return &filterIter{in: in, cond: p.cond, env: eval.Env{Outer: outer, X: x}}, nil
}

func (p *filterPlan) explain(depth int, out *[]string) {
	explainLine(out, depth, "Filter")
	p.input.explain(depth+1, out)
}

type filterIter struct {
	in   rowIter
	cond eval.Expr
	env  eval.Env
}

func (it *filterIter) next() (eval.Row, error) {
	for {
		r, err := it.in.next()
		if err != nil || r == nil {
			return nil, err
		}
		if err := it.env.X.CheckCancel(); err != nil {
			return nil, err
		}
		it.env.Row = r
		v, err := it.cond.Eval(&it.env)
		if err != nil {
			return nil, err
		}
		if v == true {
			return r, nil
		}
	}
}
func (it *filterIter) close() { it.in.close() }

// ---------------------------------------------------------------- project

type projectPlan struct {
	input plan
	exprs []eval.Expr
	cols  []outCol
}

func (p *projectPlan) columns() []outCol { return p.cols }

func (p *projectPlan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	in, err := p.input.open(x, outer)
	if err != nil {
		return nil, err
	}
	return &projectIter{in: in, exprs: p.exprs, env: eval.Env{Outer: outer, X: x}}, nil
}

func (p *projectPlan) explain(depth int, out *[]string) { p.input.explain(depth, out) }

type projectIter struct {
	in    rowIter
	exprs []eval.Expr
	env   eval.Env
	out   eval.Row // reused for every row, as rowIter allows
}

func (it *projectIter) next() (eval.Row, error) {
	r, err := it.in.next()
	if err != nil || r == nil {
		return nil, err
	}
	return it.project(r)
}

// project evaluates the projection over one input row.
func (it *projectIter) project(r eval.Row) (eval.Row, error) {
	it.env.Row = r
	if it.out == nil {
		it.out = make(eval.Row, len(it.exprs))
	}
	out := it.out
	for i, e := range it.exprs {
		v, err := e.Eval(&it.env)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
func (it *projectIter) close() { it.in.close() }

// ---------------------------------------------------------------- sort

type sortKey struct {
	e          eval.Expr
	desc       bool
	nullsFirst bool
}

type sortPlan struct {
	input plan
	keys  []sortKey
}

func (p *sortPlan) columns() []outCol { return p.input.columns() }

func (p *sortPlan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	return p.openBounded(x, outer, 0)
}

// compareSortKeys orders two rows' sort keys with each key's direction and
// NULL placement.
func compareSortKeys(keys []sortKey, a, b []types.Value) int {
	for i, sk := range keys {
		x, y := a[i], b[i]
		var c int
		switch {
		case x == nil && y == nil:
			c = 0
		case x == nil:
			if sk.nullsFirst {
				return -1
			}
			return 1
		case y == nil:
			if sk.nullsFirst {
				return 1
			}
			return -1
		default:
			c = types.Compare(sk.e.Type(), x, y)
			if sk.desc {
				c = -c
			}
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

func (p *sortPlan) explain(depth int, out *[]string) {
	explainLine(out, depth, "Sort")
	p.input.explain(depth+1, out)
}

// ---------------------------------------------------------------- limit

type limitPlan struct {
	input         plan
	limit, offset eval.Expr
	// ties, for FETCH FIRST ... WITH TIES, are the ORDER BY keys the
	// input is sorted by; rows equal to the last counted one under them
	// are returned past the limit.
	ties []sortKey
}

func (p *limitPlan) columns() []outCol { return p.input.columns() }

func (p *limitPlan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	env := &eval.Env{Outer: outer, X: x}
	limit, offset := int64(-1), int64(0)
	if p.limit != nil {
		v, err := p.limit.Eval(env)
		if err != nil {
			return nil, err
		}
		if v != nil {
			limit = v.(int64)
			if limit < 0 {
				return nil, pgerror.New(pgerror.InvalidRowCountInLimit, "LIMIT must not be negative")
			}
		}
	}
	if p.offset != nil {
		v, err := p.offset.Eval(env)
		if err != nil {
			return nil, err
		}
		if v != nil {
			offset = v.(int64)
			if offset < 0 {
				return nil, pgerror.New(pgerror.InvalidRowCountInResultOffset, "OFFSET must not be negative")
			}
		}
	}
	var in rowIter
	var err error
	if limit == 0 && p.ties == nil {
		// As PostgreSQL's Limit, a count of 0 reads nothing of its input.
		return &sliceIter{}, nil
	}
	if sp, ok := p.input.(*sortPlan); ok && p.ties == nil && limit >= 0 && limit <= math.MaxInt64-offset {
		// Only the first offset+limit rows of the order are read: the
		// sort keeps those (a top-N), not all.
		in, err = sp.openBounded(x, outer, offset+limit)
	} else {
		in, err = p.input.open(x, outer)
	}
	if err != nil {
		return nil, err
	}
	if p.ties != nil {
		return &tiesIter{limitIter: limitIter{in: in, limit: limit, offset: offset}, keys: p.ties, env: env}, nil
	}
	return &limitIter{in: in, limit: limit, offset: offset}, nil
}

func (p *limitPlan) explain(depth int, out *[]string) {
	explainLine(out, depth, "Limit")
	p.input.explain(depth+1, out)
}

type limitIter struct {
	in            rowIter
	limit, offset int64
	seen          int64
}

func (it *limitIter) next() (eval.Row, error) {
	for it.offset > 0 {
		r, err := it.in.next()
		if err != nil || r == nil {
			return nil, err
		}
		it.offset--
	}
	if it.limit >= 0 && it.seen >= it.limit {
		return nil, nil
	}
	r, err := it.in.next()
	if err != nil || r == nil {
		return nil, err
	}
	it.seen++
	return r, nil
}
func (it *limitIter) close() { it.in.close() }

// ---------------------------------------------------------------- distinct

// distinctPlan removes duplicate rows, or with on set keeps the first row of
// each group of equal DISTINCT ON keys (the input is sorted by them).
type distinctPlan struct {
	input plan
	on    []eval.Expr
}

func (p *distinctPlan) columns() []outCol { return p.input.columns() }

func (p *distinctPlan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	// The keys seen spill past work_mem (distinct_spill.go).
	return p.openSpilling(x, outer)
}

func (p *distinctPlan) explain(depth int, out *[]string) {
	explainLine(out, depth, "Unique")
	p.input.explain(depth+1, out)
}

func exprTypes(es []eval.Expr) []types.T {
	out := make([]types.T, len(es))
	for i, e := range es {
		out[i] = e.Type()
	}
	return out
}

func colTypes(cs []outCol) []types.T {
	out := make([]types.T, len(cs))
	for i, c := range cs {
		out[i] = c.t
	}
	return out
}

// rowKey encodes values so that rows equal under SQL's grouping rules (NULL
// equal to NULL, 1.0 equal to 1.00) get the same key.
func rowKey(vals []types.Value, ts []types.T) string {
	var sb strings.Builder
	for i, v := range vals {
		if v == nil {
			sb.WriteString("\x00N")
			continue
		}
		sb.WriteString("\x00V")
		sb.WriteString(groupKeyText(ts[i], v))
	}
	return sb.String()
}

// groupKeyText is the grouping identity of one value: storage's
// order-preserving key encoding, which already makes equal values (1.0 and
// 1.00, -0 and 0) encode the same.
func groupKeyText(t types.T, v types.Value) string {
	if s, ok := v.(string); ok && t.OID == types.JSONB {
		v = types.JSONBKey(s) // jsonb equality is by value: 1 = 1.0
	}
	b, err := rowcodec.AppendKey(nil, v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func sortStable(rows []eval.Row, less func(a, b eval.Row) bool) {
	sort.SliceStable(rows, func(i, j int) bool { return less(rows[i], rows[j]) })
}
