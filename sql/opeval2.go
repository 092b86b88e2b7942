package sql

import (
	"cdcdb/pgerror"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// commonType finds the type several expressions (CASE branches, IN lists,
// operands) are brought to, as PostgreSQL's UNION/CASE resolution does.
func commonType(xs []eval.Expr, construct string) (types.T, error) {
	var best types.T = eval.UnknownT()
	sawUnknown := false
	for _, x := range xs {
		t := x.Type()
		if t.OID == types.Unknown {
			sawUnknown = true
			continue
		}
		if best.OID == types.Unknown {
			best = t
			continue
		}
		if best.OID == t.OID {
			if best.Typmod != t.Typmod {
				best.Typmod = -1
			}
			continue
		}
		// Different types leave no modifier: greatest(numeric(10,2), 1) is
		// a plain numeric, as select_common_type makes it.
		best.Typmod = -1
		cb, ct := eval.TypeCategory(best.OID), eval.TypeCategory(t.OID)
		switch {
		case cb == 'N' && ct == 'N':
			if eval.NumericRank(t.OID) > eval.NumericRank(best.OID) {
				best = types.Of(t.OID)
			}
		case cb == 'S' && ct == 'S':
			// text, varchar and char(n) convert to one another implicitly
			// both ways, so the first type stays (select_common_type);
			// "char" only converts to text implicitly.
			best = types.Of(best.OID)
			if best.OID == types.Char {
				best = eval.TextT()
			}
		case cb == 'D' && ct == 'D' && best.OID != types.Time && t.OID != types.Time:
			if eval.DtRank(t.OID) > eval.DtRank(best.OID) {
				best = types.Of(t.OID)
			}
		default:
			return best, pgerror.New(pgerror.DatatypeMismatch, "%s types %s and %s cannot be matched", construct, eval.TypeName(best), eval.TypeName(t))
		}
	}
	if sawUnknown && best.OID != types.Record {
		// A literal has no modifier, so the result has none either (as
		// select_common_typmod decides): coalesce(v, 'abcdef') over a
		// varchar(3) is a plain varchar, and the literal is not cut to
		// v's length nor refused for it.
		best.Typmod = -1
	}
	return best, nil
}
