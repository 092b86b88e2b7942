package sql

import (
	"time"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/types"
)

// funcScan is a set-returning function in FROM.
type funcScan struct {
	name    string
	args    []expr
	cols    []outCol
	ordinal bool
	gen     func(x *execCtx, args []types.Value, emit func(types.Value) error) error
}

func (p *funcScan) columns() []outCol { return p.cols }

func (p *funcScan) explain(depth int, out *[]string) {
	explainLine(out, depth, "Function Scan on %s", p.name)
}

func (p *funcScan) open(x *execCtx, outer *evalEnv) (rowIter, error) {
	env := &evalEnv{outer: outer, x: x}
	vals := make([]types.Value, len(p.args))
	for i, a := range p.args {
		v, err := a.eval(env)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return &sliceIter{}, nil
		}
		vals[i] = v
	}
	var rows []Row
	n := int64(0)
	err := p.gen(x, vals, func(v types.Value) error {
		if err := x.checkCancel(); err != nil {
			return err
		}
		n++
		if len(rows) > 50_000_000 {
			return pgerror.New(pgerror.ProgramLimitExceeded, "set-returning function produced too many rows")
		}
		if p.ordinal {
			rows = append(rows, Row{v, n})
		} else {
			rows = append(rows, Row{v})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &sliceIter{rows: rows}, nil
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
	var args []expr
	for _, a := range t.Call.Args {
		x, err := b.bind(a)
		if err != nil {
			return nil, nil, err
		}
		args = append(args, x)
	}
	args = withoutVoidParams(args)
	if tf, ok := tableFuncs[name]; ok {
		return pc.planTableFunc(tf, t, b, args)
	}
	fs := &funcScan{name: name, ordinal: t.WithOrdinality}
	switch name {
	case "generate_series":
		if len(args) < 2 || len(args) > 3 {
			return nil, nil, noFunctionError(name, args, t.Pos)
		}
		ct, err := commonType(args[:2], "generate_series")
		if err != nil {
			return nil, nil, withPos(err, t.Call)
		}
		switch {
		case ct.OID == types.Unknown || isIntType(ct.OID):
			if ct.OID != types.Int8 {
				ct = int4T()
			}
			for i := range args {
				c, err := b.coerce(args[i], ct)
				if err != nil {
					return nil, nil, noFunctionError(name, args, t.Pos)
				}
				args[i] = c
			}
			fs.gen = func(_ *execCtx, a []types.Value, emit func(types.Value) error) error {
				start, stop, step := a[0].(int64), a[1].(int64), int64(1)
				if len(a) == 3 {
					step = a[2].(int64)
				}
				if step == 0 {
					return pgerror.New(pgerror.InvalidParameterValue, "step size cannot equal zero")
				}
				for v := start; (step > 0 && v <= stop) || (step < 0 && v >= stop); v += step {
					if err := emit(v); err != nil {
						return err
					}
					if (step > 0 && v > stop-step) || (step < 0 && v < stop-step) {
						break
					}
				}
				return nil
			}
		case ct.OID == types.Numeric:
			for i := range args {
				c, err := b.coerce(args[i], ct)
				if err != nil {
					return nil, nil, noFunctionError(name, args, t.Pos)
				}
				args[i] = c
			}
			fs.gen = func(_ *execCtx, a []types.Value, emit func(types.Value) error) error {
				v := new(apd.Decimal).Set(a[0].(*apd.Decimal))
				stop := a[1].(*apd.Decimal)
				step := apd.New(1, 0)
				if len(a) == 3 {
					step = a[2].(*apd.Decimal)
				}
				if step.IsZero() {
					return pgerror.New(pgerror.InvalidParameterValue, "step size cannot equal zero")
				}
				for (step.Sign() > 0 && v.Cmp(stop) <= 0) || (step.Sign() < 0 && v.Cmp(stop) >= 0) {
					if err := emit(new(apd.Decimal).Set(v)); err != nil {
						return err
					}
					if _, err := numericCtx.Add(v, v, step); err != nil {
						return err
					}
				}
				return nil
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
				c, err := b.coerce(args[i], ct)
				if err != nil {
					return nil, nil, noFunctionError(name, args, t.Pos)
				}
				args[i] = c
			}
			c, err := b.coerce(args[2], types.Of(types.Interval))
			if err != nil {
				return nil, nil, noFunctionError(name, args, t.Pos)
			}
			args[2] = c
			zoned := ct.OID == types.Timestamptz
			fs.gen = func(x *execCtx, a []types.Value, emit func(types.Value) error) error {
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
					next, err := addInterval(x, v, step, 1, zoned)
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
		fs.args = []expr{x}
		fs.gen = func(_ *execCtx, a []types.Value, emit func(types.Value) error) error { return emit(a[0]) }
		fs.cols = []outCol{{name: name, t: x.typ()}}
		args = nil
	}
	if args != nil {
		fs.args = args
	}
	if fs.ordinal {
		fs.cols = append(fs.cols, outCol{name: "ordinality", t: int8T()})
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
