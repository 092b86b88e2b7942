package sql

import (
	"sort"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// Window functions.
//
// A query level with window calls gets a windowPlan between its grouping
// (or FROM/WHERE, when it does not aggregate) and its select list: the plan
// reads every input row, sorts copies of them by each window's PARTITION BY
// and ORDER BY, computes the window values and appends them to the input
// row. The select list, ORDER BY and DISTINCT ON read those values through
// windowRef, as they read grouped values through the aggregate's output.

// windowCtx collects the window calls of one query level while its select
// list and ORDER BY are bound.
type windowCtx struct {
	named map[string]*ast.WindowSpec // the WINDOW clause
	funcs []*windowFunc
	// base is the position of the first window value in the rows the
	// windowPlan produces: the width of its input, known once grouping has
	// been planned (aggregates are found while the select list is bound).
	base int
}

// windowFunc is one window call.
type windowFunc struct {
	name   string
	args   []eval.Expr
	filter eval.Expr
	fn     *builtins.WindowFunc // set for a window-only function
	agg    *aggregateFunc       // set for an aggregate used as a window function
	def    *windowDef
	t      types.T
	fp     string
}

// windowDef is a resolved window: partitioning, ordering and frame.
type windowDef struct {
	fp        string // identity, so calls over the same window sort once
	partition []eval.Expr
	order     []sortKey
	frame     windowFrame
}

// windowFrame is a resolved frame clause. With no clause the frame is
// RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, which is the whole
// partition when the window has no ORDER BY (every row is then a peer).
type windowFrame struct {
	mode       string // "ROWS", "RANGE", "GROUPS"
	start, end frameBound
	exclude    string // "", "CURRENT ROW", "GROUP", "TIES"
	// For RANGE with an offset: the ORDER BY key's type and the bound
	// arithmetic, evaluated over a one-value row holding the current key.
	rangeT             types.T
	rangeAdd, rangeSub eval.Expr
}

type frameBound struct {
	kind   string // "UNBOUNDED PRECEDING", "PRECEDING", "CURRENT ROW", "FOLLOWING", "UNBOUNDED FOLLOWING"
	offset eval.Expr
}

// windowRef reads a window value from the row a windowPlan produced.
type windowRef struct {
	w *windowCtx
	i int
	t types.T
}

func (e *windowRef) Eval(env *eval.Env) (types.Value, error) { return env.Row[e.w.base+e.i], nil }
func (e *windowRef) Type() types.T                           { return e.t }

// containsWindow reports whether e calls a window function at this level.
func containsWindow(e ast.Node) bool {
	found := false
	walkExpr(e, func(n ast.Node) bool {
		if fc, ok := n.(*ast.FuncCall); ok && fc.Over != nil {
			found = true
		}
		return !found
	})
	return found
}

// windowNotAllowed is PostgreSQL's error for a window call in a clause that
// runs before windows are computed.
func windowNotAllowed(e ast.Node, clause string) error {
	var pos int
	walkExpr(e, func(n ast.Node) bool {
		if fc, ok := n.(*ast.FuncCall); ok && fc.Over != nil && pos == 0 {
			pos = fc.Pos + 1
		}
		return pos == 0
	})
	return pgerror.New(pgerror.WindowingError, "window functions are not allowed in %s", clause).WithPosition(pos)
}

// bindWindowCall binds f(...) OVER (...) at a level that allows windows.
func (b *binder) bindWindowCall(fc *ast.FuncCall) (eval.Expr, error) {
	name := fc.Name.Name()
	if b.win == nil {
		return nil, pgerror.New(pgerror.WindowingError, "window functions are not allowed here").WithPosition(fc.Pos + 1)
	}
	if b.inWinArgs {
		return nil, pgerror.New(pgerror.WindowingError, "window function calls cannot be nested").WithPosition(fc.Pos + 1)
	}
	_, isWindow := builtins.WindowFuncs[name]
	if !isWindow && !isAggregateName(name) {
		if _, ok := builtins.Funcs[name]; ok {
			return nil, pgerror.New(pgerror.WrongObjectType, "OVER specified, but %s is not a window function nor an aggregate function", name).WithPosition(fc.Pos + 1)
		}
	}
	if fc.Distinct {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "DISTINCT is not implemented for window functions").WithPosition(fc.Pos + 1)
	}
	if len(fc.OrderBy) > 0 {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "aggregate ORDER BY is not implemented for window functions").WithPosition(fc.Pos + 1)
	}
	b.inWinArgs = true
	defer func() { b.inWinArgs = false }()
	var args []eval.Expr
	for _, a := range fc.Args {
		x, err := b.bind(a)
		if err != nil {
			return nil, err
		}
		args = append(args, x)
	}
	wf := &windowFunc{name: name}
	if isWindow {
		if fc.Filter != nil {
			return nil, pgerror.New(pgerror.WrongObjectType, "FILTER is not implemented for non-aggregate window functions").WithPosition(fc.Pos + 1)
		}
		if err := b.resolveWindowFunc(wf, args, fc); err != nil {
			return nil, err
		}
	} else {
		if !isAggregateName(name) {
			return nil, noFunctionError(name, args, fc.Pos)
		}
		fn, t, coerced, err := resolveAggregate(b, name, fc.Star, args)
		if err != nil {
			return nil, callError(err, fc)
		}
		wf.agg, wf.t, wf.args = fn, t, coerced
		if fc.Filter != nil {
			if wf.filter, err = b.bindCondition(fc.Filter, "FILTER"); err != nil {
				return nil, err
			}
		}
	}
	def, err := b.windowDefinition(fc.Over, fc.Pos)
	if err != nil {
		return nil, err
	}
	wf.def = def
	wf.fp = fingerprint(fc)
	for i, f := range b.win.funcs {
		if f.fp == wf.fp && f.def.fp == def.fp {
			return &windowRef{w: b.win, i: i, t: f.t}, nil
		}
	}
	b.win.funcs = append(b.win.funcs, wf)
	return &windowRef{w: b.win, i: len(b.win.funcs) - 1, t: wf.t}, nil
}

// resolveWindowFunc checks and types the arguments of a window-only
// function.
func (b *binder) resolveWindowFunc(wf *windowFunc, args []eval.Expr, fc *ast.FuncCall) error {
	wf.fn = builtins.WindowFuncs[wf.name]
	if fc.Star {
		return noFunctionError(wf.name, args, fc.Pos)
	}
	resolved, t, err := wf.fn.Resolve(b, args)
	if err == builtins.ErrNoFunction {
		// args holds the arguments as far as they were resolved.
		return noFunctionError(wf.name, args, fc.Pos)
	}
	if err != nil {
		return callError(err, fc)
	}
	wf.args, wf.t = resolved, t
	return nil
}

// windowDefinition resolves OVER (...) or OVER name against the WINDOW
// clause and binds its expressions.
func (b *binder) windowDefinition(spec *ast.WindowSpec, pos int) (*windowDef, error) {
	merged, err := b.mergeWindowRef(spec, pos, 0)
	if err != nil {
		return nil, err
	}
	// A call carrying only the window fingerprints the window itself.
	def := &windowDef{fp: fingerprint(&ast.FuncCall{Over: &merged})}
	for _, p := range merged.PartitionBy {
		x, err := b.bind(p)
		if err != nil {
			return nil, err
		}
		def.partition = append(def.partition, b.resolveUnknown(x))
	}
	for _, o := range merged.OrderBy {
		x, err := b.bind(o.Expr)
		if err != nil {
			return nil, err
		}
		def.order = append(def.order, sortKey{e: b.resolveUnknown(x), desc: o.Desc, nullsFirst: nullsFirst(o)})
	}
	frame, err := b.windowFrame(merged.Frame, def, pos)
	if err != nil {
		return nil, err
	}
	def.frame = frame
	return def, nil
}

// mergeWindowRef resolves OVER (name ...) against the WINDOW clause, through
// named windows defined on other named windows, into one specification.
func (b *binder) mergeWindowRef(spec *ast.WindowSpec, pos, depth int) (ast.WindowSpec, error) {
	merged := *spec
	if spec.Ref == "" {
		return merged, nil
	}
	named, ok := b.win.named[spec.Ref]
	if !ok || depth > len(b.win.named) {
		return merged, pgerror.New(pgerror.UndefinedObject, "window \"%s\" does not exist", spec.Ref).WithPosition(spec.RefPos + 1)
	}
	base, err := b.mergeWindowRef(named, pos, depth+1)
	if err != nil {
		return merged, err
	}
	if len(spec.PartitionBy) > 0 {
		return merged, pgerror.New(pgerror.WindowingError, "cannot override PARTITION BY clause of window \"%s\"", spec.Ref).WithPosition(pos + 1)
	}
	if len(spec.OrderBy) > 0 && len(base.OrderBy) > 0 {
		return merged, pgerror.New(pgerror.WindowingError, "cannot override ORDER BY clause of window \"%s\"", spec.Ref).WithPosition(pos + 1)
	}
	if base.Frame != nil && (len(spec.OrderBy) > 0 || spec.Frame != nil) {
		return merged, pgerror.New(pgerror.WindowingError, "cannot copy window \"%s\" because it has a frame clause", spec.Ref).WithPosition(pos + 1)
	}
	merged.PartitionBy = base.PartitionBy
	if len(spec.OrderBy) == 0 {
		merged.OrderBy = base.OrderBy
	}
	if spec.Frame == nil {
		merged.Frame = base.Frame
	}
	merged.Ref, merged.RefPos = "", 0
	return merged, nil
}

// windowFrame checks and binds a frame clause.
func (b *binder) windowFrame(f *ast.Frame, def *windowDef, pos int) (windowFrame, error) {
	if f == nil {
		return windowFrame{mode: "RANGE", start: frameBound{kind: "UNBOUNDED PRECEDING"}, end: frameBound{kind: "CURRENT ROW"}}, nil
	}
	wf := windowFrame{mode: f.Mode, exclude: f.Exclude}
	if wf.exclude == "NO OTHERS" {
		wf.exclude = ""
	}
	end := f.End
	if end.Kind == "" {
		end = ast.FrameBound{Kind: "CURRENT ROW"}
	}
	switch {
	case f.Start.Kind == "UNBOUNDED FOLLOWING":
		return wf, pgerror.New(pgerror.WindowingError, "frame start cannot be UNBOUNDED FOLLOWING").WithPosition(pos + 1)
	case end.Kind == "UNBOUNDED PRECEDING":
		return wf, pgerror.New(pgerror.WindowingError, "frame end cannot be UNBOUNDED PRECEDING").WithPosition(pos + 1)
	case f.Start.Kind == "CURRENT ROW" && end.Kind == "PRECEDING":
		return wf, pgerror.New(pgerror.WindowingError, "frame starting from current row cannot have preceding rows").WithPosition(pos + 1)
	case f.Start.Kind == "FOLLOWING" && (end.Kind == "PRECEDING" || end.Kind == "CURRENT ROW"):
		return wf, pgerror.New(pgerror.WindowingError, "frame starting from following row cannot have preceding rows").WithPosition(pos + 1)
	}
	if wf.mode == "GROUPS" && len(def.order) == 0 {
		return wf, pgerror.New(pgerror.WindowingError, "GROUPS mode requires an ORDER BY clause").WithPosition(pos + 1)
	}
	hasOffset := f.Start.Offset != nil || end.Offset != nil
	if wf.mode == "RANGE" && hasOffset {
		if len(def.order) != 1 {
			return wf, pgerror.New(pgerror.WindowingError, "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column").WithPosition(pos + 1)
		}
		wf.rangeT = def.order[0].e.Type()
	}
	var err error
	if wf.start, err = b.frameBound(f.Start, &wf); err != nil {
		return wf, err
	}
	if wf.end, err = b.frameBound(end, &wf); err != nil {
		return wf, err
	}
	return wf, nil
}

// frameBound binds one frame bound's offset: a bigint for ROWS and GROUPS,
// for RANGE a value the ORDER BY key can be moved by.
func (b *binder) frameBound(fb ast.FrameBound, wf *windowFrame) (frameBound, error) {
	out := frameBound{kind: fb.Kind}
	if fb.Offset == nil {
		return out, nil
	}
	if len(columnsOf(fb.Offset)) > 0 {
		return out, pgerror.New(pgerror.InvalidColumnReference, "argument of %s must not contain variables", wf.mode).WithPosition(fb.Offset.Position() + 1)
	}
	if wf.mode != "RANGE" {
		x, err := b.bindAs(fb.Offset, eval.Int8T(), wf.mode)
		if err != nil {
			return out, err
		}
		out.offset = x
		return out, nil
	}
	offT := wf.rangeT
	switch eval.TypeCategory(wf.rangeT.OID) {
	case 'N':
	case 'D':
		offT = types.Of(types.Interval)
	case 'T':
	default:
		return out, pgerror.New(pgerror.FeatureNotSupported, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s", eval.TypeName(wf.rangeT)).WithPosition(fb.Offset.Position() + 1)
	}
	x, err := b.bind(fb.Offset)
	if err != nil {
		return out, err
	}
	if x, err = b.coerce(x, offT); err != nil {
		return out, withPos(err, fb.Offset)
	}
	out.offset = x
	if wf.rangeAdd == nil {
		cur := &eval.ColRef{Idx: 0, T: wf.rangeT}
		off := &eval.ColRef{Idx: 1, T: offT}
		if wf.rangeAdd, err = bindBinaryOp(b, "+", cur, off); err != nil {
			return out, withPos(err, fb.Offset)
		}
		if wf.rangeSub, err = bindBinaryOp(b, "-", cur, off); err != nil {
			return out, withPos(err, fb.Offset)
		}
	}
	return out, nil
}

// windowPlan computes the window values of one query level and appends
// them to each input row.
type windowPlan struct {
	input plan
	w     *windowCtx
	cols  []outCol
}

func newWindowPlan(input plan, w *windowCtx) *windowPlan {
	w.base = len(input.columns())
	cols := append([]outCol(nil), input.columns()...)
	for _, f := range w.funcs {
		cols = append(cols, outCol{name: f.name, t: f.t})
	}
	return &windowPlan{input: input, w: w, cols: cols}
}

func (p *windowPlan) columns() []outCol { return p.cols }

func (p *windowPlan) explain(depth int, out *[]string) {
	explainLine(out, depth, "WindowAgg")
	p.input.explain(depth+1, out)
}

func (p *windowPlan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	// Past work_mem the rows go to temporary files (window_spill.go).
	in, spilled, err := p.readWindowInput(x, outer)
	if err != nil {
		return nil, err
	}
	if spilled != nil {
		return p.openSpilled(x, outer, spilled)
	}
	base := p.w.base
	rows := make([]eval.Row, len(in))
	// The rows with their window values, and each window's sort of them,
	// are accounted to the memory budget while they are reachable.
	held := x.rowsAccount("a window's rows")
	for i, r := range in {
		row := make(eval.Row, base+len(p.w.funcs))
		copy(row, r)
		rows[i] = row
		if err := held.keep(row); err != nil {
			held.close()
			return nil, err
		}
	}
	// A window's sort keeps each row's keys beside it.
	if err := held.keepBytes(int64(len(rows)) * 96); err != nil {
		held.close()
		return nil, err
	}
	heldBySlice(held, rows)
	done := make([]bool, len(p.w.funcs))
	for i, f := range p.w.funcs {
		if done[i] {
			continue
		}
		// Every call over the same window shares one sort.
		var group []int
		for j := i; j < len(p.w.funcs); j++ {
			if !done[j] && p.w.funcs[j].def.fp == f.def.fp {
				group = append(group, j)
				done[j] = true
			}
		}
		if err := p.computeWindow(x, outer, rows, f.def, group); err != nil {
			return nil, err
		}
	}
	return &sliceIter{rows: rows}, nil
}

// windowRow is an input row with its partition and order keys.
type windowRow struct {
	row   eval.Row
	part  []types.Value
	order []types.Value
}

// computeWindow sorts the rows by one window's partition and order and
// fills in the values of the calls (by index in p.w.funcs) over it.
func (p *windowPlan) computeWindow(x *execCtx, outer *eval.Env, rows []eval.Row, def *windowDef, calls []int) error {
	env := &eval.Env{Outer: outer, X: x}
	sorted := make([]windowRow, len(rows))
	for i, r := range rows {
		env.Row = r
		wr := windowRow{row: r, part: make([]types.Value, len(def.partition)), order: make([]types.Value, len(def.order))}
		var err error
		for j, e := range def.partition {
			if wr.part[j], err = e.Eval(env); err != nil {
				return err
			}
		}
		for j, k := range def.order {
			if wr.order[j], err = k.e.Eval(env); err != nil {
				return err
			}
		}
		sorted[i] = wr
	}
	partKeys := make([]sortKey, len(def.partition))
	for i, e := range def.partition {
		partKeys[i] = sortKey{e: e}
	}
	sort.SliceStable(sorted, func(i, j int) bool {
		if c := compareSortKeys(partKeys, sorted[i].part, sorted[j].part); c != 0 {
			return c < 0
		}
		return compareSortKeys(def.order, sorted[i].order, sorted[j].order) < 0
	})
	frame, err := p.frameOffsets(x, outer, def.frame)
	if err != nil {
		return err
	}
	for ps := 0; ps < len(sorted); {
		pe := ps + 1
		for pe < len(sorted) && compareSortKeys(partKeys, sorted[ps].part, sorted[pe].part) == 0 {
			pe++
		}
		part := &windowPartition{rows: sorted[ps:pe], def: def, frame: frame, x: x, env: eval.Env{Outer: outer, X: x}}
		part.findPeers()
		for _, ci := range calls {
			if err := part.compute(p.w.funcs[ci], p.w.base+ci); err != nil {
				return err
			}
		}
		ps = pe
	}
	return nil
}

// frameOffsets are a frame's offsets, evaluated once per execution (they
// cannot read the row).
type frameOffsets struct {
	windowFrame
	startOff, endOff types.Value
}

func (p *windowPlan) frameOffsets(x *execCtx, outer *eval.Env, f windowFrame) (*frameOffsets, error) {
	fo := &frameOffsets{windowFrame: f}
	env := &eval.Env{Outer: outer, X: x}
	for _, s := range []struct {
		b    frameBound
		dst  *types.Value
		what string
	}{{f.start, &fo.startOff, "starting"}, {f.end, &fo.endOff, "ending"}} {
		if s.b.offset == nil {
			continue
		}
		v, err := s.b.offset.Eval(env)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, pgerror.New(pgerror.NullValueNotAllowed, "frame %s offset must not be null", s.what)
		}
		if negativeOffset(v) {
			if f.mode == "RANGE" {
				return nil, pgerror.New(pgerror.InvalidPrecedingOrFollowing, "invalid preceding or following size in window function")
			}
			return nil, pgerror.New(pgerror.InvalidPrecedingOrFollowing, "frame %s offset must not be negative", s.what)
		}
		*s.dst = v
	}
	return fo, nil
}

func negativeOffset(v types.Value) bool {
	switch v := v.(type) {
	case int64:
		return v < 0
	case float64:
		return v < 0
	case *apd.Decimal:
		return v.Negative && !v.IsZero()
	case types.IntervalValue:
		return v.Months < 0 || v.Days < 0 || v.Micros < 0
	}
	return false
}

// windowPartition is one partition's rows in window order, with its peer
// groups (rows equal under ORDER BY).
type windowPartition struct {
	rows  []windowRow
	def   *windowDef
	frame *frameOffsets
	x     *execCtx
	env   eval.Env
	// groupOf[i] is the peer group of row i; groupStart[g] its first row
	// (with a final entry len(rows)).
	groupOf    []int
	groupStart []int
}

func (wp *windowPartition) findPeers() {
	n := len(wp.rows)
	wp.groupOf = make([]int, n)
	g := 0
	wp.groupStart = []int{0}
	for i := 1; i < n; i++ {
		if compareSortKeys(wp.def.order, wp.rows[i-1].order, wp.rows[i].order) != 0 {
			g++
			wp.groupStart = append(wp.groupStart, i)
		}
		wp.groupOf[i] = g
	}
	wp.groupStart = append(wp.groupStart, n)
}

// args evaluates a call's arguments for row i.
func (wp *windowPartition) args(f *windowFunc, i int) ([]types.Value, error) {
	wp.env.Row = wp.rows[i].row
	vals := make([]types.Value, len(f.args))
	for j, a := range f.args {
		v, err := a.Eval(&wp.env)
		if err != nil {
			return nil, err
		}
		vals[j] = v
	}
	return vals, nil
}

// compute fills column col of every row of the partition with f's value.
func (wp *windowPartition) compute(f *windowFunc, col int) error {
	if f.agg != nil {
		return wp.computeAggregate(f, col)
	}
	call := windowCall{wp: wp, f: f}
	for i := range wp.rows {
		if err := wp.x.CheckCancel(); err != nil {
			return err
		}
		v, err := f.fn.Compute(call, i)
		if err != nil {
			return err
		}
		wp.rows[i].row[col] = v
	}
	return nil
}

// windowCall is one window-only call's view of a partition, as its
// builtins.WindowFunc sees it.
type windowCall struct {
	wp *windowPartition
	f  *windowFunc
}

var _ builtins.Partition = windowCall{}

func (c windowCall) Len() int                          { return len(c.wp.rows) }
func (c windowCall) PeerGroup(i int) int               { return c.wp.groupOf[i] }
func (c windowCall) PeerGroupStart(g int) int          { return c.wp.groupStart[g] }
func (c windowCall) Args(j int) ([]types.Value, error) { return c.wp.args(c.f, j) }

func (c windowCall) Frame(i int) []int {
	fs, fe := c.wp.frameBounds(i)
	rows := make([]int, 0, fe-fs)
	for j := fs; j < fe; j++ {
		if !c.wp.excluded(i, j) {
			rows = append(rows, j)
		}
	}
	return rows
}

// computeAggregate evaluates an aggregate over each row's frame. Rows
// whose frame equals the previous row's reuse its value; a frame that only
// grows at its end feeds just the new rows to the running state.
func (wp *windowPartition) computeAggregate(f *windowFunc, col int) error {
	n := len(wp.rows)
	argVals := make([][]types.Value, n)
	include := make([]bool, n)
	for i := 0; i < n; i++ {
		vals, err := wp.args(f, i)
		if err != nil {
			return err
		}
		argVals[i] = vals
		include[i] = true
		if f.filter != nil {
			v, err := f.filter.Eval(&wp.env)
			if err != nil {
				return err
			}
			include[i] = v == true
		}
	}
	var state builtins.AggState
	prevS, prevE := -1, -1
	var prev types.Value
	for i := 0; i < n; i++ {
		if err := wp.x.CheckCancel(); err != nil {
			return err
		}
		fs, fe := wp.frameBounds(i)
		exclusion := wp.frame.exclude != ""
		switch {
		case !exclusion && state != nil && fs == prevS && fe == prevE:
			wp.rows[i].row[col] = prev
			continue
		case !exclusion && state != nil && fs == prevS && fe >= prevE:
			for j := prevE; j < fe; j++ {
				if include[j] {
					if err := state.Add(wp.x, argVals[j]); err != nil {
						return err
					}
				}
			}
		default:
			state = f.agg.newState()
			for j := fs; j < fe; j++ {
				if include[j] && !wp.excluded(i, j) {
					if err := state.Add(wp.x, argVals[j]); err != nil {
						return err
					}
				}
			}
		}
		v, err := state.Result(wp.x)
		if err != nil {
			return err
		}
		if d, ok := v.(*apd.Decimal); ok {
			// The running state keeps adding into its decimal; the row
			// keeps the value as of its frame.
			v = new(apd.Decimal).Set(d)
		}
		wp.rows[i].row[col] = v
		prev, prevS, prevE = v, fs, fe
		if exclusion {
			state = nil
		}
	}
	return nil
}

// excluded applies the frame's EXCLUDE clause to row j of row i's frame.
func (wp *windowPartition) excluded(i, j int) bool {
	switch wp.frame.exclude {
	case "CURRENT ROW":
		return i == j
	case "GROUP":
		return wp.groupOf[i] == wp.groupOf[j]
	case "TIES":
		return i != j && wp.groupOf[i] == wp.groupOf[j]
	}
	return false
}

// frameBounds returns row i's frame as the half-open range [fs, fe) of the
// partition (before EXCLUDE).
func (wp *windowPartition) frameBounds(i int) (int, int) {
	n := len(wp.rows)
	fs := wp.boundPosition(i, wp.frame.start, wp.frame.startOff, true)
	fe := wp.boundPosition(i, wp.frame.end, wp.frame.endOff, false)
	fs = max(0, min(fs, n))
	fe = max(fs, min(fe, n))
	return fs, fe
}

// boundPosition places one frame bound for row i: the first row of the
// frame for a start bound, one past the last for an end bound.
func (wp *windowPartition) boundPosition(i int, b frameBound, off types.Value, start bool) int {
	n := len(wp.rows)
	g := wp.groupOf[i]
	switch b.kind {
	case "UNBOUNDED PRECEDING":
		return 0
	case "UNBOUNDED FOLLOWING":
		return n
	case "CURRENT ROW":
		switch {
		case wp.frame.mode == "ROWS" && start:
			return i
		case wp.frame.mode == "ROWS":
			return i + 1
		case start:
			return wp.groupStart[g]
		default:
			return wp.groupStart[g+1]
		}
	}
	sign := int64(1)
	if b.kind == "PRECEDING" {
		sign = -1
	}
	switch wp.frame.mode {
	case "ROWS":
		k := int64(i) + sign*clampOffset(off)
		if !start {
			k++
		}
		return int(max(-1, min(k, int64(n)+1)))
	case "GROUPS":
		tg := int64(g) + sign*clampOffset(off)
		groups := int64(len(wp.groupStart) - 1)
		if !start {
			tg++
		}
		switch {
		case tg < 0:
			return 0
		case tg > groups:
			return n
		}
		return wp.groupStart[tg]
	}
	return wp.rangePosition(i, b, off, start)
}

func clampOffset(v types.Value) int64 {
	k := v.(int64)
	return min(k, 1<<40)
}

// rangePosition places a RANGE bound with an offset: the frame holds the
// rows whose ORDER BY key lies within offset of the current row's key.
func (wp *windowPartition) rangePosition(i int, b frameBound, off types.Value, start bool) int {
	n := len(wp.rows)
	key := wp.def.order[0]
	cur := wp.rows[i].order[0]
	if cur == nil {
		// A NULL key's frame is its peers.
		g := wp.groupOf[i]
		if start {
			return wp.groupStart[g]
		}
		return wp.groupStart[g+1]
	}
	// The bound value: forward in sort order adds the offset for ASC and
	// subtracts it for DESC.
	forward := b.kind == "FOLLOWING"
	add := forward != key.desc
	e := wp.frame.rangeSub
	if add {
		e = wp.frame.rangeAdd
	}
	limit, err := e.Eval(&eval.Env{Row: eval.Row{cur, off}, X: wp.x})
	if err != nil {
		// The bound overflows its type: every row lies on that side.
		if forward {
			return n
		}
		return 0
	}
	// within reports whether row j is at or after the bound (start) or at
	// or before it (end), in sort order.
	within := func(j int) bool {
		v := wp.rows[j].order[0]
		if v == nil {
			return start != key.nullsFirst
		}
		c := types.Compare(key.e.Type(), v, limit)
		if key.desc {
			c = -c
		}
		if start {
			return c >= 0
		}
		return c <= 0
	}
	if start {
		for j := 0; j < n; j++ {
			if within(j) {
				return j
			}
		}
		return n
	}
	for j := n - 1; j >= 0; j-- {
		if within(j) {
			return j + 1
		}
	}
	return 0
}
