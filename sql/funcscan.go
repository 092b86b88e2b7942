package sql

import (
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// funcScan is a set-returning function in FROM.
type funcScan struct {
	name    string
	args    []eval.Expr
	cols    []outCol
	ordinal bool
	gen     func(x eval.Context, args []types.Value, emit func(types.Value) error) error
	// series, when set, yields the rows one at a time from a state of
	// its own (an integer or numeric generate_series, the set-returning
	// function queries use to make rows); gen's rows are pulled from it
	// one at a time too (funcscan_stream.go). Neither holds the rows it
	// has not yet given, and both stop within a row of a cancel.
	series func(args []types.Value) (rowSeries, error)
}

func (p *funcScan) columns() []outCol { return p.cols }

func (p *funcScan) explain(depth int, out *[]string) {
	explainLine(out, depth, "Function Scan on %s", p.name)
}

func (p *funcScan) open(x *execCtx, outer *eval.Env) (rowIter, error) {
	env := &eval.Env{Outer: outer, X: x}
	vals := make([]types.Value, len(p.args))
	for i, a := range p.args {
		v, err := a.Eval(env)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return &sliceIter{}, nil
		}
		vals[i] = v
	}
	if p.series != nil {
		it, err := p.series(vals)
		if err != nil {
			return nil, err
		}
		return &seriesIter{x: x, series: it, ordinal: p.ordinal}, nil
	}
	return newGenIter(x, p.gen, vals, p.ordinal), nil
}

// A function call in FROM may read the items before it (left), as if it
// were LATERAL; it then comes back as a lateralInput.
func (pc *planCtx) planFuncTable(t *ast.FuncTable, sc, left *scope) (p plan, rels []*scopeRel, err error) {
	argScope := newScope(lateralScope(sc, left))
	b := pc.binder(argScope)
	defer func() {
		if err == nil && left != nil && argScope.correlated {
			p = &lateralInput{p}
		}
	}()
	name := t.Call.Name.Name()
	if name == rowsFromName {
		return pc.planRowsFrom(t, sc, left)
	}
	if name == lastSnapshotVersionName || name == currentSnapshotVersionName {
		return pc.planSnapshotVersionFunc(t, name)
	}
	var args []eval.Expr
	for _, a := range t.Call.Args {
		x, err := b.bind(a)
		if err != nil {
			return nil, nil, err
		}
		args = append(args, x)
	}
	args = withoutVoidParams(args)
	if pc.isTableChangesCall(t.Call.Name) {
		return pc.planTableChanges(t, b, args)
	}
	if isBeliefChangesCall(t.Call.Name) {
		return pc.planBeliefChanges(t, b, args)
	}
	if tf, ok := builtins.SetFuncs[name]; ok {
		return pc.planTableFunc(tf, t, b, args)
	}
	fs := &funcScan{name: name, ordinal: t.WithOrdinality}
	switch name {
	case "generate_series":
		if len(args) < 2 || len(args) > 3 {
			return nil, nil, noFunctionError(name, args, t.Pos)
		}
		// The step takes part in the type of a numeric series
		// (generate_series(1, 3, 0.5) is numeric); an interval step is a
		// time series's, which its bounds decide.
		typed := args[:2]
		if len(args) == 3 && args[2].Type().OID != types.Interval && args[2].Type().OID != types.Unknown {
			typed = args
		}
		ct, err := eval.CommonType(typed, "generate_series")
		if err != nil {
			return nil, nil, withPos(err, t.Call)
		}
		switch {
		case ct.OID == types.Unknown || eval.IsIntType(ct.OID):
			if ct.OID != types.Int8 {
				ct = eval.Int4T()
			}
			for i := range args {
				c, err := b.Coerce(args[i], ct)
				if err != nil {
					return nil, nil, noFunctionError(name, args, t.Pos)
				}
				args[i] = c
			}
			fs.series = func(a []types.Value) (rowSeries, error) {
				it := &intSeries{at: a[0].(int64), stop: a[1].(int64), step: 1}
				if len(a) == 3 {
					it.step = a[2].(int64)
				}
				if it.step == 0 {
					return nil, pgerror.New(pgerror.InvalidParameterValue, "step size cannot equal zero")
				}
				it.done = (it.step > 0 && it.at > it.stop) || (it.step < 0 && it.at < it.stop)
				return it, nil
			}
		case ct.OID == types.Numeric:
			for i := range args {
				c, err := b.Coerce(args[i], ct)
				if err != nil {
					return nil, nil, noFunctionError(name, args, t.Pos)
				}
				args[i] = c
			}
			fs.series = func(a []types.Value) (rowSeries, error) {
				it := &numericSeries{at: new(apd.Decimal).Set(a[0].(*apd.Decimal)), stop: a[1].(*apd.Decimal), step: apd.New(1, 0)}
				if len(a) == 3 {
					it.step = a[2].(*apd.Decimal)
				}
				if it.step.IsZero() {
					return nil, pgerror.New(pgerror.InvalidParameterValue, "step size cannot equal zero")
				}
				return it, nil
			}
		case ct.OID == types.Timestamp || ct.OID == types.Timestamptz || ct.OID == types.Date:
			if ct.OID == types.Date {
				// Dates convert implicitly to both; PostgreSQL picks
				// timestamptz, its category's preferred type.
				ct = types.Of(types.Timestamptz)
			}
			if len(args) != 3 {
				return nil, nil, noFunctionError(name, args, t.Pos)
			}
			for i := 0; i < 2; i++ {
				c, err := b.Coerce(args[i], ct)
				if err != nil {
					return nil, nil, noFunctionError(name, args, t.Pos)
				}
				args[i] = c
			}
			c, err := b.Coerce(args[2], types.Of(types.Interval))
			if err != nil {
				return nil, nil, noFunctionError(name, args, t.Pos)
			}
			args[2] = c
			zoned := ct.OID == types.Timestamptz
			fs.gen = func(x eval.Context, a []types.Value, emit func(types.Value) error) error {
				v, stop, step := a[0].(time.Time), a[1].(time.Time), a[2].(types.IntervalValue)
				if step == (types.IntervalValue{}) {
					return pgerror.New(pgerror.InvalidParameterValue, "step size cannot equal zero")
				}
				// The step's sign says which way the series runs, as
				// PostgreSQL compares it with a zero interval.
				forward := types.Compare(types.Of(types.Interval), step, types.IntervalValue{}) > 0
				for {
					if (forward && v.After(stop)) || (!forward && v.Before(stop)) {
						return nil
					}
					if err := emit(v); err != nil {
						return err
					}
					next, err := eval.AddInterval(x, v, step, 1, zoned)
					if err != nil {
						return err
					}
					v = next.(time.Time)
				}
			}
		default:
			return nil, nil, noFunctionError(name, args, t.Pos)
		}
		fs.cols = []outCol{{name: "generate_series", t: ct}}
	default:
		// A scalar function in FROM yields one row.
		x, err := b.bind(t.Call)
		if err != nil {
			return nil, nil, err
		}
		fs.args = []eval.Expr{x}
		fs.gen = func(_ eval.Context, a []types.Value, emit func(types.Value) error) error { return emit(a[0]) }
		fs.cols = []outCol{{name: name, t: x.Type()}}
		args = nil
	}
	if args != nil {
		fs.args = args
	}
	if fs.ordinal {
		fs.cols = append(fs.cols, outCol{name: "ordinality", t: eval.Int8T()})
	}
	rel := relFromColumns(name, fs.cols)
	if t.Alias != nil && len(t.Alias.Columns) == 0 && len(fs.cols) == 1 || t.Alias != nil && len(fs.cols) == 1 && len(t.Alias.Columns) == 0 {
		// generate_series(1,3) AS g names the single column g too.
		rel.cols[0].name = t.Alias.Name
	}
	if err := applyAlias(rel, t.Alias, t.Pos); err != nil {
		return nil, nil, err
	}
	return fs, []*scopeRel{rel}, nil
}

// rowSeries yields a generate_series's values one at a time: nil when
// there are no more.
type rowSeries interface {
	next() (types.Value, error)
}

// seriesIter is a funcScan over a rowSeries, which stops within a row of a
// cancel and holds no rows it has given.
type seriesIter struct {
	x       *execCtx
	series  rowSeries
	ordinal bool
	n       int64
}

func (it *seriesIter) next() (eval.Row, error) {
	if err := it.x.CheckCancel(); err != nil {
		return nil, err
	}
	v, err := it.series.next()
	if v == nil || err != nil {
		return nil, err
	}
	it.n++
	if it.ordinal {
		return eval.Row{v, it.n}, nil
	}
	return eval.Row{v}, nil
}

func (it *seriesIter) close() {}

// intSeries is an integer generate_series.
type intSeries struct {
	at, stop, step int64
	done           bool
}

func (it *intSeries) next() (types.Value, error) {
	if it.done {
		return nil, nil
	}
	v := it.at
	// The last value is the one from which another step would pass stop:
	// checked before adding, so the sum never overflows.
	if (it.step > 0 && v > it.stop-it.step) || (it.step < 0 && v < it.stop-it.step) {
		it.done = true
	} else {
		it.at += it.step
	}
	return v, nil
}

// numericSeries is a numeric generate_series.
type numericSeries struct {
	at, stop, step *apd.Decimal
}

func (it *numericSeries) next() (types.Value, error) {
	if (it.step.Sign() > 0 && it.at.Cmp(it.stop) > 0) || (it.step.Sign() < 0 && it.at.Cmp(it.stop) < 0) {
		return nil, nil
	}
	v := new(apd.Decimal).Set(it.at)
	if _, err := eval.NumericCtx.Add(it.at, it.at, it.step); err != nil {
		return nil, err
	}
	return v, nil
}
