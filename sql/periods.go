package sql

import (
	"cdcdb/catalog"
	"cdcdb/cdcexec"
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/temporal"
	"cdcdb/types"
)

// periodColumns names the start and end columns of a table's period on one
// axis, or reports that the table has no such period.
func periodColumns(t *catalog.Table, axis ast.PeriodAxis) (start, end string, ok bool) {
	switch {
	case axis == ast.BusinessTime && (t.StoredAs == string(cdcexec.SCD2) || t.StoredAs == string(cdcexec.Bitemporal)):
		return colStartAt, colEndAt, true
	case axis == ast.SystemTime && t.StoredAs == string(cdcexec.Bitemporal):
		return colSystemStartAt, colSystemEndAt, true
	}
	return "", "", false
}

// applyPeriods filters a table scan by its FOR BUSINESS_TIME / FOR
// SYSTEM_TIME clauses.
func (pc *planCtx) applyPeriods(scan *tableScan, t *catalog.Table, ref *ast.TableRef, sc *scope) (plan, error) {
	seen := map[ast.PeriodAxis]bool{}
	var cond expr
	for _, pcl := range ref.Periods {
		if seen[pcl.Axis] {
			return nil, pgerror.New(pgerror.SyntaxError, "FOR %s specified more than once for table \"%s\"", pcl.Axis, t.Name).WithPosition(pcl.Pos + 1)
		}
		seen[pcl.Axis] = true
		if pcl.Op == ast.PeriodAll {
			continue
		}
		startName, endName, ok := periodColumns(t, pcl.Axis)
		if !ok {
			if pcl.Axis == ast.SystemTime {
				return nil, pgerror.New(pgerror.FeatureNotSupported, "FOR SYSTEM_TIME on \"%s\" needs commit-time history, which cdcdb does not keep yet", t.Name).WithPosition(pcl.Pos + 1).
					WithHint("SYSTEM_TIME is available on BITEMPORAL targets.")
			}
			return nil, pgerror.New(pgerror.WrongObjectType, "relation \"%s\" has no period BUSINESS_TIME", t.Name).WithPosition(pcl.Pos + 1).
				WithHint("BUSINESS_TIME is the __START_AT/__END_AT period of SCD TYPE 2 and BITEMPORAL targets.")
		}
		si, ei := scan.outputIndex(mustColumn(t, startName).Attnum), scan.outputIndex(mustColumn(t, endName).Attnum)
		pt := scan.cols[si].t
		// Bounds may be any expression of the period's type, but not read
		// the table itself.
		b := pc.binder(newScope(sc.parent))
		bound := func(e ast.Expr) (expr, error) {
			x, err := b.bind(e)
			if err != nil {
				return nil, err
			}
			if x, err = b.coerce(x, pt); err != nil {
				return nil, withPos(err, e)
			}
			return x, nil
		}
		pe := &periodExpr{start: si, end: ei, op: pcl.Op, t: pt}
		var err error
		if pe.a, err = bound(pcl.A); err != nil {
			return nil, err
		}
		if pcl.B != nil {
			if pe.b, err = bound(pcl.B); err != nil {
				return nil, err
			}
		}
		if cond == nil {
			cond = pe
		} else {
			cond = &andExpr{l: cond, r: pe}
		}
	}
	if cond == nil {
		return scan, nil
	}
	return scan.withFilter(cond), nil
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
	a, b       expr
	t          types.T
}

func (e *periodExpr) typ() types.T { return boolT() }

func (e *periodExpr) eval(env *evalEnv) (types.Value, error) {
	a, err := e.a.eval(env)
	if err != nil {
		return nil, err
	}
	var bv types.Value
	if e.b != nil {
		if bv, err = e.b.eval(env); err != nil {
			return nil, err
		}
	}
	start, end := env.row[e.start], env.row[e.end]
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
