package sql

import (
	"time"

	"cdcdb/catalog"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/temporal"
	"cdcdb/types"
)

// periodColumns names the start and end columns of a table's period on one
// axis, or reports that the table has no such period.
func periodColumns(t *catalog.Table, axis ast.PeriodAxis) (start, end string, ok bool) {
	switch {
	case axis == ast.BusinessTime && t.StoredAs.KeepsHistory():
		return colStartAt, colEndAt, true
	case axis == ast.SystemTime && t.StoredAs == catalog.Bitemporal:
		return colSystemStartAt, colSystemEndAt, true
	}
	return "", "", false
}

// applyPeriods filters a table scan by its FOR BUSINESS_TIME / FOR
// SYSTEM_TIME clauses.
func (pc *planCtx) applyPeriods(scan *tableScan, t *catalog.Table, ref *ast.TableRef, sc *scope) (plan, error) {
	seen := map[ast.PeriodAxis]bool{}
	var cond eval.Expr
	scan = scan.copy()
	for _, pcl := range ref.Periods {
		if seen[pcl.Axis] {
			return nil, pgerror.New(pgerror.SyntaxError, "FOR %s specified more than once for table \"%s\"", pcl.Axis, t.Name).WithPosition(pcl.Pos + 1)
		}
		seen[pcl.Axis] = true
		startName, endName, ok := periodColumns(t, pcl.Axis)
		if !ok && pcl.Axis == ast.SystemTime && keepsCommitHistory(t) {
			// Commit-time versions: the scan reads them from history.
			b := pc.binder(newScope(sc.parent))
			sr := &systemTimeRead{op: pcl.Op}
			var err error
			if pcl.A != nil {
				if sr.a, err = b.bindTimeBound(pcl.A); err != nil {
					return nil, err
				}
			}
			if pcl.B != nil {
				if sr.b, err = b.bindTimeBound(pcl.B); err != nil {
					return nil, err
				}
			}
			scan.sysTime = sr
			continue
		}
		if pcl.Op == ast.PeriodAll && ok {
			continue
		}
		if !ok {
			return nil, pgerror.New(pgerror.WrongObjectType, "relation \"%s\" has no period BUSINESS_TIME", t.Name).WithPosition(pcl.Pos + 1).
				WithHint("BUSINESS_TIME is the __START_AT/__END_AT period of SCD TYPE 2 and BITEMPORAL targets.")
		}
		si, ei := scan.outputIndex(mustColumn(t, startName).Attnum), scan.outputIndex(mustColumn(t, endName).Attnum)
		pt := scan.cols[si].t
		// Bounds may be any expression of the period's type, but not read
		// the table itself.
		b := pc.binder(newScope(sc.parent))
		pe := &periodExpr{start: si, end: ei, op: pcl.Op, t: pt}
		bound := func(e ast.Expr) (eval.Expr, error) {
			x, err := b.bind(e)
			if err != nil {
				return nil, err
			}
			// Assignment rules let now() (timestamptz) bound a timestamp
			// period, read in the session's time zone.
			if x, err = b.assign(x, pt, startName); err != nil {
				return nil, withPos(err, e)
			}
			return x, nil
		}
		var err error
		if pe.a, err = bound(pcl.A); err != nil {
			return nil, err
		}
		if pcl.B != nil {
			if pe.b, err = bound(pcl.B); err != nil {
				return nil, err
			}
		}
		if pcl.Axis == ast.BusinessTime && pcl.Op == ast.PeriodAsOf && pt.OID != types.Record {
			scan.asOf = pe.a // lets a key range scan stop at the instant
		}
		if cond == nil {
			cond = pe
		} else {
			cond = &eval.And{L: cond, R: pe}
		}
	}
	if cond == nil {
		return scan, nil
	}
	return scan.withFilter(cond), nil
}

// bindTimeBound binds a commit-time bound: any expression that converts to
// timestamptz (a timestamp is read in the session's time zone).
func (b *binder) bindTimeBound(e ast.Expr) (eval.Expr, error) {
	x, err := b.bind(e)
	if err != nil {
		return nil, err
	}
	if x, err = b.assign(x, types.Of(types.Timestamptz), "SYSTEM_TIME"); err != nil {
		return nil, withPos(err, e)
	}
	return x, nil
}

// systemTimeRead is a FOR SYSTEM_TIME clause over commit-time versions.
type systemTimeRead struct {
	op   ast.PeriodOp
	a, b eval.Expr
}

// bounds evaluates the clause into a commit-time range [from, to) in
// microseconds (to < 0: unbounded); empty reports no version can match.
func (r *systemTimeRead) bounds(env *eval.Env) (from, to int64, empty bool, err error) {
	micros := func(e eval.Expr) (int64, bool, error) {
		v, err := e.Eval(env)
		if err != nil || v == nil {
			return 0, false, err
		}
		return v.(time.Time).UnixMicro(), true, nil
	}
	switch r.op {
	case ast.PeriodAsOf:
		a, ok, err := micros(r.a)
		return a, a + 1, !ok, err
	case ast.PeriodFromTo, ast.PeriodBetween:
		a, okA, err := micros(r.a)
		if err != nil {
			return 0, 0, false, err
		}
		b, okB, err := micros(r.b)
		if err != nil {
			return 0, 0, false, err
		}
		if !okA || !okB {
			return 0, 0, true, nil
		}
		if r.op == ast.PeriodBetween {
			b++ // BETWEEN includes its upper bound
		}
		return a, b, a >= b, nil
	}
	return 0, -1, false, nil
}

func mustColumn(t *catalog.Table, name string) *catalog.Column {
	c, ok := t.Column(name)
	if !ok {
		panic("period column " + name + " missing from " + t.Name)
	}
	return c
}

// periodExpr tests a row's period [start, end) against AS OF, FROM..TO or
// BETWEEN, with the closed-open rules of temporal/.
type periodExpr struct {
	start, end int
	op         ast.PeriodOp
	a, b       eval.Expr
	t          types.T
}

func (e *periodExpr) Type() types.T { return eval.BoolT() }

func (e *periodExpr) Eval(env *eval.Env) (types.Value, error) {
	a, err := e.a.Eval(env)
	if err != nil {
		return nil, err
	}
	var bv types.Value
	if e.b != nil {
		if bv, err = e.b.Eval(env); err != nil {
			return nil, err
		}
	}
	start, end := env.Row[e.start], env.Row[e.end]
	cmp := func(x, y any) int { return types.Compare(e.t, x, y) }
	if e.t.OID == types.Record {
		cmp = func(x, y any) int { return temporal.Lexicographic(compareValues)(recordSeq(x), recordSeq(y)) }
	}
	switch e.op {
	case ast.PeriodAsOf:
		return temporal.AsOf(start, end, a, cmp), nil
	case ast.PeriodFromTo:
		return temporal.FromTo(start, end, a, bv, cmp), nil
	case ast.PeriodBetween:
		return temporal.Between(start, end, a, bv, cmp), nil
	}
	return true, nil
}

func recordSeq(v any) temporal.Seq {
	if r, ok := v.(types.RecordValue); ok {
		return temporal.Seq(r.Fields)
	}
	return temporal.Seq{v}
}
