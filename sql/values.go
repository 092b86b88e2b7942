package sql

import (
	"cmp"
	"strings"
	"time"

	"cdcdb/catalog"
	"cdcdb/history"
	"cdcdb/pgerror"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// typmodFor turns typmod arguments (varchar(10), numeric(10,2),
// timestamp(3)) into a type modifier.
func typmodFor(oid types.OID, args []int) (int32, error) {
	switch oid {
	case types.Varchar, types.Bpchar:
		name := "varchar"
		if oid == types.Bpchar {
			name = "char"
		}
		if len(args) != 1 {
			return 0, pgerror.New(pgerror.SyntaxError, "invalid type modifier")
		}
		return types.CharTypmod(name, args[0])
	case types.Numeric:
		switch len(args) {
		case 1:
			return types.NumericTypmod(args[0], 0)
		case 2:
			return types.NumericTypmod(args[0], args[1])
		}
	case types.Time, types.Timestamp, types.Timestamptz:
		if len(args) == 1 {
			return types.TimePrecisionTypmod(types.FormatType(types.Of(oid)), args[0])
		}
	case types.Interval:
		if len(args) == 1 {
			return types.IntervalTypmod(0, args[0])
		}
	}
	return 0, pgerror.New(pgerror.SyntaxError, "type modifier is not allowed for type \"%s\"", types.FormatType(types.Of(oid)))
}

// formatAny prints a value whose SQL type is only known from its Go type.
func formatAny(t types.T, v types.Value) string {
	if t.OID == types.Unknown || t.OID == types.Record {
		t = types.Of(eval.GoValueType(v))
	}
	return types.FormatText(t, v)
}

// compareValues orders two non-NULL values by their Go representation, for
// sequence values whose fields may have different types.
func compareValues(a, b any) int {
	// The common sequence type, without the general path's type switch.
	if x, ok := a.(int64); ok {
		if y, ok := b.(int64); ok {
			return cmp.Compare(x, y)
		}
	}
	ta, tb := eval.GoValueType(a), eval.GoValueType(b)
	if ta != tb {
		// Mixed numeric representations compare as numeric.
		if eval.TypeCategory(ta) == 'N' && eval.TypeCategory(tb) == 'N' {
			da, err1 := types.CastIn(a, types.Of(ta), types.Of(types.Numeric), true, time.UTC)
			db, err2 := types.CastIn(b, types.Of(tb), types.Of(types.Numeric), true, time.UTC)
			if err1 == nil && err2 == nil {
				return types.Compare(types.Of(types.Numeric), da, db)
			}
		}
		return strings.Compare(types.FormatText(types.Of(ta), a), types.FormatText(types.Of(tb), b))
	}
	return types.Compare(types.Of(ta), a, b)
}

// decodeTuple decodes a stored row of a table to its full width.
func decodeTuple(t *catalog.Table, raw []byte) ([]types.Value, error) {
	_, vals, err := history.Decode(raw)
	if err != nil {
		return nil, pgerror.New(pgerror.DataCorrupted, "corrupt row in table \"%s\": %v", t.Name, err)
	}
	return storedTuple(t, vals), nil
}

// formatRegValue prints an OID as its reg* type shows it: a relation, type,
// schema, role or function name, or the number when nothing has that OID
// (see regOut).
func (s *Session) formatRegValue(x *execCtx, oid types.OID, v int64) string {
	return s.regOut(x, s.catalogFor(x), oid, v)
}

// parseRegValue resolves a name to an OID for a reg* cast ('t'::regclass);
// see regIn.
func (s *Session) parseRegValue(x *execCtx, oid types.OID, text string) (types.Value, error) {
	return s.regIn(s.catalogFor(x), oid, text)
}

// splitQualifiedName splits a.b."C" into parts, folding unquoted parts
// (catalogviews owns the rule, which reg* input reads names by).
func splitQualifiedName(s string) []string { return catalogviews.SplitQualifiedName(s) }
