package sql

import (
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// numericRank orders the numeric types by PostgreSQL's implicit widening.
func numericRank(oid types.OID) int {
	switch oid {
	case types.Int2:
		return 1
	case types.Int4:
		return 2
	case types.Oid, types.Regclass, types.Regtype, types.Regproc, types.Regnamespace, types.Regrole, types.Regprocedure:
		return 3
	case types.Int8:
		return 4
	case types.Numeric:
		return 5
	case types.Float4:
		return 6
	case types.Float8:
		return 7
	}
	return 0
}

func isIntType(oid types.OID) bool {
	return oid == types.Int2 || oid == types.Int4 || oid == types.Int8
}

func isOidType(oid types.OID) bool {
	r := numericRank(oid)
	return r == 3
}

// implicitCastOK reports the conversions PostgreSQL applies without being
// asked.
func implicitCastOK(from, to types.OID) bool {
	if from == to || from == types.Unknown {
		return true
	}
	cf, ct := eval.TypeCategory(from), eval.TypeCategory(to)
	switch {
	case cf == 'N' && ct == 'N':
		rf, rt := numericRank(from), numericRank(to)
		if isOidType(to) {
			return isIntType(from) || isOidType(from)
		}
		return rf < rt || (isOidType(from) && rt >= 3)
	case cf == 'S' && ct == 'S':
		return to != types.Char && to != types.Name || from == types.Unknown || from == types.Text || from == types.Varchar
	case from == types.Date && (to == types.Timestamp || to == types.Timestamptz):
		return true
	case from == types.Timestamp && to == types.Timestamptz:
		return true
	case from == types.JSON && to == types.JSONB, from == types.JSONB && to == types.JSON:
		return false
	case ct == 'S' && to == types.Text && (cf == 'S'):
		return true
	case to == types.Regclass && (from == types.Text || from == types.Varchar):
		// pg_cast keeps this one implicit so that nextval(text) and its
		// kin still resolve.
		return true
	}
	return false
}

// assignmentCastOK adds what INSERT and UPDATE accept beyond implicit casts:
// narrowing numerics, anything to a string type, and the reverse datetime
// conversions.
func assignmentCastOK(from, to types.OID) bool {
	cf, ct := eval.TypeCategory(from), eval.TypeCategory(to)
	switch {
	case cf == 'N' && ct == 'N':
		return true
	case ct == 'S' && to != types.Char:
		return true
	case cf == 'D' && ct == 'D':
		return !(from == types.Time || to == types.Time) || from == to
	case from == types.JSON && to == types.JSONB, from == types.JSONB && to == types.JSON:
		return true
	}
	return false
}

// explicitCastOK adds what CAST accepts: everything to and from text, and
// the few special conversions.
func explicitCastOK(from, to types.OID) bool {
	if implicitCastOK(from, to) || assignmentCastOK(from, to) {
		return true
	}
	cf, ct := eval.TypeCategory(from), eval.TypeCategory(to)
	switch {
	case cf == 'S' || ct == 'S':
		return true
	case from == types.Int4 && to == types.Bool, from == types.Bool && to == types.Int4:
		return true
	case from == types.JSONB && (ct == 'N' && !isOidType(to) || to == types.Bool):
		return true // a jsonb number or boolean's value
	case cf == 'D' && to == types.Time:
		return from == types.Timestamp || from == types.Timestamptz
	case from == types.Interval && to == types.Time, from == types.Time && to == types.Interval:
		return true
	case cf == 'A' && ct == 'A':
		return true
	}
	return false
}

// commonType finds the type several expressions (CASE branches, IN lists,
// operands) are brought to, as PostgreSQL's UNION/CASE resolution does.
func commonType(xs []eval.Expr, construct string) (types.T, error) {
	var best types.T = unknownT()
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
			if numericRank(t.OID) > numericRank(best.OID) {
				best = types.Of(t.OID)
			}
		case cb == 'S' && ct == 'S':
			// text, varchar and char(n) convert to one another implicitly
			// both ways, so the first type stays (select_common_type);
			// "char" only converts to text implicitly.
			best = types.Of(best.OID)
			if best.OID == types.Char {
				best = textT()
			}
		case cb == 'D' && ct == 'D' && best.OID != types.Time && t.OID != types.Time:
			if dtRank(t.OID) > dtRank(best.OID) {
				best = types.Of(t.OID)
			}
		default:
			return best, pgerror.New(pgerror.DatatypeMismatch, "%s types %s and %s cannot be matched", construct, typeName(best), typeName(t))
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

// dateLike reports the types of dates and instants: date, timestamp and
// timestamptz.
func dateLike(oid types.OID) bool {
	return oid == types.Date || oid == types.Timestamp || oid == types.Timestamptz
}

func dtRank(oid types.OID) int {
	switch oid {
	case types.Date:
		return 1
	case types.Timestamp:
		return 2
	}
	return 3
}

// operatorError is PostgreSQL's "operator does not exist".
func operatorError(op string, l, r types.T) *pgerror.Error {
	return pgerror.New(pgerror.UndefinedFunction, "operator does not exist: %s %s %s", typeName(l), op, typeName(r)).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

// comparisonFunc maps a comparison operator to a test on Compare's result.
func comparisonFunc(op string) (func(c int) bool, error) {
	switch op {
	case "=":
		return func(c int) bool { return c == 0 }, nil
	case "<>", "!=":
		return func(c int) bool { return c != 0 }, nil
	case "<":
		return func(c int) bool { return c < 0 }, nil
	case "<=":
		return func(c int) bool { return c <= 0 }, nil
	case ">":
		return func(c int) bool { return c > 0 }, nil
	case ">=":
		return func(c int) bool { return c >= 0 }, nil
	}
	return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist: %s", op)
}

// bindBinaryOp resolves an infix operator for its operand types.
func bindBinaryOp(b *binder, op string, l, r eval.Expr) (eval.Expr, error) {
	if lt := l.Type().OID; (lt == types.JSON || lt == types.JSONB) && jsonOperators[op] {
		return bindJSONOp(b, op, l, r)
	}
	switch op {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		return bindComparison(b, op, l, r)
	case "IS DISTINCT FROM", "IS NOT DISTINCT FROM":
		ct, err := commonType([]eval.Expr{l, r}, op)
		if err != nil {
			return nil, err
		}
		if ct.OID == types.Unknown {
			ct = textT()
		}
		if l, err = b.coerce(l, ct); err != nil {
			return nil, err
		}
		if r, err = b.coerce(r, ct); err != nil {
			return nil, err
		}
		return &distinctExpr{l: l, r: r, t: ct, not: op == "IS NOT DISTINCT FROM"}, nil
	case "||":
		return bindConcat(b, l, r)
	case "+", "-", "*", "/", "%", "^":
		return bindArithmetic(b, op, l, r)
	case "&", "|", "#", "<<", ">>":
		return bindBitwise(b, op, l, r)
	case "~", "~*", "!~", "!~*":
		subject, pattern, ok, err := b.patternOperands(l, r)
		if err != nil {
			return nil, err // the literal itself is bad
		}
		if !ok {
			return nil, operatorError(op, l.Type(), r.Type())
		}
		return newRegexMatch(op, subject, pattern), nil
	case "~~", "!~~", "~~*", "!~~*":
		return bindLikeOperator(b, op, l, r)
	case "->", "->>", "#>", "#>>", "@>", "<@", "?", "?|", "?&", "#-", "&&":
		return bindJSONOrArrayOp(b, op, l, r)
	}
	return nil, operatorError(op, l.Type(), r.Type())
}

func bindComparison(b *binder, op string, l, r eval.Expr) (eval.Expr, error) {
	lt, rt := l.Type(), r.Type()
	var ct types.T
	switch {
	case lt.OID == types.Unknown && rt.OID == types.Unknown:
		ct = textT()
	case lt.OID == types.Unknown:
		ct = rt
	case rt.OID == types.Unknown:
		ct = lt
	default:
		var err error
		ct, err = commonType([]eval.Expr{l, r}, op)
		if err != nil {
			return nil, operatorError(op, lt, rt)
		}
	}
	ct.Typmod = -1
	var err error
	if l, err = b.coerce(l, ct); err != nil {
		return nil, err
	}
	if r, err = b.coerce(r, ct); err != nil {
		return nil, err
	}
	test, err := comparisonFunc(op)
	if err != nil {
		return nil, err
	}
	return &compareExpr{l: l, r: r, t: ct, test: test, op: op}, nil
}

// compareExpr is a comparison of two values of one type.
type compareExpr struct {
	l, r eval.Expr
	t    types.T
	test func(int) bool
	op   string
}

func (e *compareExpr) Eval(env *eval.Env) (types.Value, error) {
	a, err := e.l.Eval(env)
	if err != nil {
		return nil, err
	}
	c, err := e.r.Eval(env)
	if err != nil || a == nil || c == nil {
		return nil, err
	}
	if ra, ok := a.(types.RecordValue); ok {
		if rc, ok := c.(types.RecordValue); ok {
			return e.compareRows(ra, rc), nil
		}
	}
	return e.test(types.Compare(e.t, a, c)), nil
}
func (e *compareExpr) Type() types.T { return boolT() }

// compareRows compares row values field by field as SQL does: the first
// pair of fields that differ decides; a NULL before that makes the result
// NULL, except that for = and <> a differing pair anywhere decides.
func (e *compareExpr) compareRows(a, b types.RecordValue) types.Value {
	sawNull := false
	for i := range a.Fields {
		if i >= len(b.Fields) {
			break
		}
		x, y := a.Fields[i], b.Fields[i]
		if x == nil || y == nil {
			sawNull = true
			continue
		}
		c := types.Compare(a.Types[i], x, y)
		if c == 0 {
			continue
		}
		if sawNull && e.op != "=" && e.op != "<>" && e.op != "!=" {
			return nil
		}
		return e.test(c)
	}
	if sawNull {
		return nil
	}
	return e.test(0)
}

// distinctExpr is IS [NOT] DISTINCT FROM: a comparison where NULL equals NULL.
type distinctExpr struct {
	l, r eval.Expr
	t    types.T
	not  bool
}

func (e *distinctExpr) Eval(env *eval.Env) (types.Value, error) {
	a, err := e.l.Eval(env)
	if err != nil {
		return nil, err
	}
	c, err := e.r.Eval(env)
	if err != nil {
		return nil, err
	}
	var distinct bool
	switch {
	case a == nil && c == nil:
		distinct = false
	case a == nil || c == nil:
		distinct = true
	default:
		distinct = types.Compare(e.t, a, c) != 0
	}
	return distinct != e.not, nil
}
func (e *distinctExpr) Type() types.T { return boolT() }

func bindConcat(b *binder, l, r eval.Expr) (eval.Expr, error) {
	lt, rt := l.Type(), r.Type()
	la, ra := eval.TypeCategory(lt.OID) == 'A', eval.TypeCategory(rt.OID) == 'A'
	if la || ra {
		return bindArrayConcat(b, l, r)
	}
	if (lt.OID == types.JSONB && (rt.OID == types.JSONB || rt.OID == types.Unknown)) || (lt.OID == types.Unknown && rt.OID == types.JSONB) {
		// jsonb || '{"k": 1}': the literal is read as jsonb.
		var err error
		if l, err = b.coerce(l, types.Of(types.JSONB)); err != nil {
			return nil, err
		}
		if r, err = b.coerce(r, types.Of(types.JSONB)); err != nil {
			return nil, err
		}
		return &eval.FuncCall{Name: "jsonb_concat", Args: []eval.Expr{l, r}, Fn: jsonbConcat, Strict: true, T: types.Of(types.JSONB)}, nil
	}
	// text || anything (non-array) converts the other side to text, as
	// PostgreSQL's anynonarray || text operators do.
	if eval.TypeCategory(lt.OID) != 'S' && eval.TypeCategory(rt.OID) != 'S' {
		return nil, operatorError("||", lt, rt)
	}
	l, r = b.resolveUnknown(l), b.resolveUnknown(r)
	return &eval.FuncCall{Name: "textcat", Args: []eval.Expr{toText(l), toText(r)}, Fn: func(_ eval.Context, a []types.Value) (types.Value, error) {
		return a[0].(string) + a[1].(string), nil
	}, Strict: true, T: textT()}, nil
}

// toText converts an expression to text with its output function.
func toText(x eval.Expr) eval.Expr {
	if x.Type().OID == types.Text {
		return x
	}
	return &eval.Cast{X: x, To: textT(), Explicit: true}
}

func bindArithmetic(b *binder, op string, l, r eval.Expr) (eval.Expr, error) {
	lt, rt := l.Type(), r.Type()
	// Unknown literals take the other side's type, as PostgreSQL resolves
	// "x + '1'".
	if lt.OID == types.Unknown && rt.OID == types.Unknown {
		return nil, pgerror.New(pgerror.AmbiguousFunction, "operator is not unique: unknown %s unknown", op).
			WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.")
	}
	if lt.OID == types.Unknown {
		var err error
		if l, err = b.resolveUnknownAs(l, unknownPeer(op, rt, true)); err != nil {
			return nil, err
		}
		lt = l.Type()
	}
	if rt.OID == types.Unknown {
		var err error
		if r, err = b.resolveUnknownAs(r, unknownPeer(op, lt, false)); err != nil {
			return nil, err
		}
		rt = r.Type()
	}
	if eval.TypeCategory(lt.OID) == 'N' && eval.TypeCategory(rt.OID) == 'N' {
		rank := numericRank(lt.OID)
		if numericRank(rt.OID) > rank {
			rank = numericRank(rt.OID)
		}
		var t types.T
		switch {
		case lt.OID == rt.OID && rank != 3:
			t = types.Of(lt.OID)
		case (lt.OID == types.Float4) != (rt.OID == types.Float4) && rank == 6:
			t = types.Of(types.Float8)
		default:
			for _, c := range []types.OID{types.Int2, types.Int4, types.Int8, types.Int8, types.Numeric, types.Float4, types.Float8} {
				if numericRank(c) == rank || (rank == 3 && c == types.Int8) {
					t = types.Of(c)
					break
				}
			}
		}
		if op == "^" && t.OID != types.Numeric {
			t = types.Of(types.Float8)
		}
		var err error
		if l, err = b.coerce(l, t); err != nil {
			return nil, err
		}
		if r, err = b.coerce(r, t); err != nil {
			return nil, err
		}
		fn, err := arithmeticFunc(op, t.OID)
		if err != nil {
			return nil, operatorError(op, lt, rt)
		}
		return &eval.FuncCall{Name: op, Args: []eval.Expr{l, r}, Fn: fn, Strict: true, T: t}, nil
	}
	if dateLike(lt.OID) && dateLike(rt.OID) && lt.OID != rt.OID && op == "-" {
		// date - timestamp, timestamp - timestamptz: the earlier type
		// converts implicitly to the later, as PostgreSQL resolves them.
		t := lt
		if dtRank(rt.OID) > dtRank(lt.OID) {
			t = rt
		}
		t = types.Of(t.OID)
		var err error
		if l, err = b.coerce(l, t); err != nil {
			return nil, err
		}
		if r, err = b.coerce(r, t); err != nil {
			return nil, err
		}
		lt, rt = t, t
	}
	if fn, t, ok := datetimeArithmetic(op, lt.OID, rt.OID); ok {
		return &eval.FuncCall{Name: op, Args: []eval.Expr{l, r}, Fn: fn, Strict: true, T: types.Of(t)}, nil
	}
	return nil, operatorError(op, lt, rt)
}

// unknownPeer picks the type an unknown literal takes beside a typed operand
// of an arithmetic operator: the same type, except that beside a datetime it
// is an interval (now() - '1 day').
func unknownPeer(op string, other types.T, unknownOnLeft bool) types.T {
	switch other.OID {
	case types.Timestamp, types.Timestamptz, types.Date, types.Time:
		if op == "-" && unknownOnLeft {
			return other
		}
		return types.Of(types.Interval)
	}
	return other
}

func arithmeticFunc(op string, t types.OID) (func(eval.Context, []types.Value) (types.Value, error), error) {
	switch t {
	case types.Int2, types.Int4, types.Int8:
		return intArith(op, t)
	case types.Float4, types.Float8:
		return floatArith(op, t == types.Float4)
	case types.Numeric:
		return numericArith(op)
	}
	return nil, pgerror.New(pgerror.UndefinedFunction, "no arithmetic for type")
}

func intRangeError(t types.OID) error {
	switch t {
	case types.Int2:
		return pgerror.New(pgerror.NumericValueOutOfRange, "smallint out of range")
	case types.Int4:
		return pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
	}
	return pgerror.New(pgerror.NumericValueOutOfRange, "bigint out of range")
}

func intFits(t types.OID, v int64) bool {
	switch t {
	case types.Int2:
		return v >= math.MinInt16 && v <= math.MaxInt16
	case types.Int4:
		return v >= math.MinInt32 && v <= math.MaxInt32
	}
	return true
}

func intArith(op string, t types.OID) (func(eval.Context, []types.Value) (types.Value, error), error) {
	check := func(v int64, overflow bool) (types.Value, error) {
		if overflow || !intFits(t, v) {
			return nil, intRangeError(t)
		}
		return v, nil
	}
	switch op {
	case "+":
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(int64), a[1].(int64)
			s := x + y
			return check(s, (x > 0 && y > 0 && s < 0) || (x < 0 && y < 0 && s >= 0))
		}, nil
	case "-":
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(int64), a[1].(int64)
			s := x - y
			return check(s, (x >= 0 && y < 0 && s < 0) || (x < 0 && y > 0 && s >= 0))
		}, nil
	case "*":
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(int64), a[1].(int64)
			if x == 0 || y == 0 {
				return int64(0), nil
			}
			s := x * y
			return check(s, s/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64))
		}, nil
	case "/":
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(int64), a[1].(int64)
			if y == 0 {
				return nil, pgerror.New(pgerror.DivisionByZero, "division by zero")
			}
			if y == -1 {
				return check(-x, x == math.MinInt64)
			}
			return x / y, nil
		}, nil
	case "%":
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(int64), a[1].(int64)
			if y == 0 {
				return nil, pgerror.New(pgerror.DivisionByZero, "division by zero")
			}
			if y == -1 {
				return int64(0), nil
			}
			return x % y, nil
		}, nil
	}
	return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist")
}

func floatArith(op string, single bool) (func(eval.Context, []types.Value) (types.Value, error), error) {
	round := func(v float64) (types.Value, error) {
		if single {
			f := float32(v)
			if math.IsInf(float64(f), 0) && !math.IsInf(v, 0) {
				return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
			}
			return float64(f), nil
		}
		return v, nil
	}
	overflow := func(x, y, v float64) (types.Value, error) {
		if math.IsInf(v, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
		}
		return round(v)
	}
	// A product or quotient of nonzero numbers that comes out zero has
	// underflowed, which PostgreSQL refuses as it refuses an overflow.
	underflow := func(v types.Value, err error, nonzero bool) (types.Value, error) {
		if err == nil && v.(float64) == 0 && nonzero {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: underflow")
		}
		return v, err
	}
	switch op {
	case "+":
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(float64), a[1].(float64)
			return overflow(x, y, x+y)
		}, nil
	case "-":
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(float64), a[1].(float64)
			return overflow(x, y, x-y)
		}, nil
	case "*":
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(float64), a[1].(float64)
			v, err := overflow(x, y, x*y)
			return underflow(v, err, x != 0 && y != 0)
		}, nil
	case "/":
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(float64), a[1].(float64)
			if y == 0 && !math.IsNaN(x) { // NaN / 0 is NaN, as in PostgreSQL
				return nil, pgerror.New(pgerror.DivisionByZero, "division by zero")
			}
			v, err := overflow(x, y, x/y)
			return underflow(v, err, x != 0 && !math.IsInf(y, 0))
		}, nil
	case "%":
		return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist")
	case "^":
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			x, y := a[0].(float64), a[1].(float64)
			if x == 0 && y < 0 {
				return nil, pgerror.New("2201F", "zero raised to a negative power is undefined")
			}
			if x < 0 && y != math.Trunc(y) {
				return nil, pgerror.New("2201F", "a negative number raised to a non-integer power yields a complex result")
			}
			return overflow(x, y, math.Pow(x, y))
		}, nil
	}
	return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist")
}

// numericCtx is the arithmetic context for numeric: generous precision,
// with PostgreSQL's result scales applied per operation.
var numericCtx = apd.BaseContext.WithPrecision(1000)

func numericArith(op string) (func(eval.Context, []types.Value) (types.Value, error), error) {
	bin := func(f func(z, x, y *apd.Decimal) error) func(eval.Context, []types.Value) (types.Value, error) {
		return func(_ eval.Context, a []types.Value) (types.Value, error) {
			z := new(apd.Decimal)
			if err := f(z, a[0].(*apd.Decimal), a[1].(*apd.Decimal)); err != nil {
				return nil, err
			}
			return z, nil
		}
	}
	exact := func(f func(c *apd.Context, z, x, y *apd.Decimal) (apd.Condition, error)) func(eval.Context, []types.Value) (types.Value, error) {
		return bin(func(z, x, y *apd.Decimal) error {
			if r, ok := numericArithSpecial(op, x, y); ok {
				z.Set(r)
				return nil
			}
			_, err := f(exactCtx(x, y), z, x, y)
			if err == nil {
				// numeric's scale: the larger of the operands' for a sum,
				// their total for a product.
				scale := max(numericDisplayScale(x), numericDisplayScale(y))
				if op == "*" {
					scale = numericDisplayScale(x) + numericDisplayScale(y)
				}
				showScale(z, scale)
			}
			return numericChecked(z, err)
		})
	}
	switch op {
	case "+":
		return exact((*apd.Context).Add), nil
	case "-":
		return exact((*apd.Context).Sub), nil
	case "*":
		return exact((*apd.Context).Mul), nil
	case "/":
		return bin(func(z, x, y *apd.Decimal) error {
			if r, ok, err := numericDivSpecial(x, y); ok {
				if err == nil {
					z.Set(r)
				}
				return err
			}
			if y.IsZero() {
				return pgerror.New(pgerror.DivisionByZero, "division by zero")
			}
			return numericDivide(z, x, y)
		}), nil
	case "%":
		return bin(func(z, x, y *apd.Decimal) error {
			if r, ok, err := numericModSpecial(x, y); ok {
				if err == nil {
					z.Set(r)
				}
				return err
			}
			if y.IsZero() {
				return pgerror.New(pgerror.DivisionByZero, "division by zero")
			}
			_, err := exactCtx(x, y).Rem(z, x, y)
			if err == nil {
				showScale(z, max(numericDisplayScale(x), numericDisplayScale(y)))
			}
			return numericChecked(z, err)
		}), nil
	case "^":
		return bin(func(z, x, y *apd.Decimal) error {
			return numericPower(z, x, y)
		}), nil
	}
	return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist")
}

// numericDivide divides as PostgreSQL's numeric division does: the
// quotient is rounded to the scale select_div_scale picks, enough for 16
// significant digits (numeric is never less precise than float8) and never
// less than either operand's scale. Weights and leading digits are those of
// numeric's base-10000 representation, so the scales match PostgreSQL's
// digit for digit.
func numericDivide(z, x, y *apd.Decimal) error {
	w1, d1 := numericLeadGroup(x)
	w2, d2 := numericLeadGroup(y)
	qweight := w1 - w2
	if d1 <= d2 {
		qweight--
	}
	scale := 16 - qweight*4
	scale = max(scale, numericDisplayScale(x), numericDisplayScale(y), 0)
	scale = min(scale, 1000)
	intDigits := max(int(x.NumDigits())+int(x.Exponent)-int(y.NumDigits())-int(y.Exponent)+1, 0)
	c := apd.BaseContext.WithPrecision(uint32(intDigits + scale + 10))
	if _, err := c.Quo(z, x, y); err != nil {
		return err
	}
	return roundScale(z, scale)
}

// numericLeadGroup returns the weight (power of 10000) and value of the
// leading base-10000 digit of d, as numeric stores it; 0, 0 for zero.
func numericLeadGroup(d *apd.Decimal) (weight int, first int) {
	if d.IsZero() {
		return 0, 0
	}
	e := int(d.NumDigits()) + int(d.Exponent) - 1 // power of ten of the leading digit
	weight = e / 4
	if e < 0 && e%4 != 0 {
		weight--
	}
	n := e - 4*weight + 1 // decimal digits in the leading group
	digits := d.Coeff.String()
	for i := 0; i < n; i++ {
		first *= 10
		if i < len(digits) {
			first += int(digits[i] - '0')
		}
	}
	return weight, first
}

// numericDisplayScale is the number of decimals a numeric shows.
func numericDisplayScale(d *apd.Decimal) int { return max(-int(d.Exponent), 0) }

// showScale gives a finite d at least scale decimals, adding trailing
// zeros: exact arithmetic leaves the fewest digits its operands' exponents
// imply (1E+3 times 2.675 is 2675), where numeric keeps the scale
// PostgreSQL gives the operation (2675.000).
func showScale(d *apd.Decimal, scale int) {
	if d.Form != apd.Finite || int(d.Exponent) <= -scale {
		return
	}
	shift := int64(d.Exponent) + int64(scale)
	var pow apd.BigInt
	pow.Exp(apd.NewBigInt(10), apd.NewBigInt(shift), nil)
	d.Coeff.Mul(&d.Coeff, &pow)
	d.Exponent = int32(-scale)
}

// roundScale rounds d half away from zero to scale decimals, as numeric does.
func roundScale(d *apd.Decimal, scale int) error {
	return quantizeScale(d, d, scale, apd.RoundHalfUp)
}

// quantizeScale sets z to x with scale digits after the point, rounded as
// rounding says, in a context that holds every digit of the result however
// many there are. A negative scale rounds to a multiple of 10^-scale and,
// as PostgreSQL shows such a value, leaves no digits after the point (100,
// not 1E+2).
func quantizeScale(z, x *apd.Decimal, scale int, rounding apd.Rounder) error {
	intDigits := max(int64(x.NumDigits())+int64(x.Exponent), 1)
	// Rounding at or past the digit before the first gives 0 however far
	// past; going no further keeps the exponent within apd's limits.
	scale = int(max(int64(scale), -intDigits-1))
	c := apd.BaseContext.WithPrecision(uint32(intDigits + int64(max(scale, 0)) + 1))
	c.Rounding = rounding
	if _, err := c.Quantize(z, x, int32(-scale)); err != nil {
		return err
	}
	if scale < 0 {
		_, err := c.Quantize(z, z, 0)
		return err
	}
	return nil
}

// clampRoundScale limits the scale argument of round and trunc as
// PostgreSQL does: to the largest display scale a numeric has, and below to
// a rounding position past any digit a numeric can have (the result is 0).
func clampRoundScale(scale int64) int {
	const maxDisplayScale, maxIntDigits = 16383, 131072
	return int(min(max(scale, -maxIntDigits-1), maxDisplayScale))
}

func bindUnaryOp(b *binder, op string, x eval.Expr, pos int) (eval.Expr, error) {
	t := x.Type()
	if t.OID == types.Unknown {
		var err error
		if x, err = b.resolveUnknownAs(x, types.Of(types.Numeric)); err != nil {
			return nil, err
		}
		t = x.Type()
	}
	switch op {
	case "+":
		if eval.TypeCategory(t.OID) == 'N' || t.OID == types.Interval {
			return x, nil
		}
	case "-":
		switch {
		case isIntType(t.OID):
			return &eval.FuncCall{Name: "-", Args: []eval.Expr{x}, Strict: true, T: types.Of(t.OID), Fn: func(_ eval.Context, a []types.Value) (types.Value, error) {
				v := a[0].(int64)
				if v == math.MinInt64 || !intFits(t.OID, -v) {
					return nil, intRangeError(t.OID)
				}
				return -v, nil
			}}, nil
		case t.OID == types.Float4 || t.OID == types.Float8:
			return &eval.FuncCall{Name: "-", Args: []eval.Expr{x}, Strict: true, T: types.Of(t.OID), Fn: func(_ eval.Context, a []types.Value) (types.Value, error) {
				return -a[0].(float64), nil
			}}, nil
		case t.OID == types.Numeric:
			return &eval.FuncCall{Name: "-", Args: []eval.Expr{x}, Strict: true, T: types.Of(t.OID), Fn: func(_ eval.Context, a []types.Value) (types.Value, error) {
				return new(apd.Decimal).Neg(a[0].(*apd.Decimal)), nil
			}}, nil
		case t.OID == types.Interval:
			return &eval.FuncCall{Name: "-", Args: []eval.Expr{x}, Strict: true, T: t, Fn: func(_ eval.Context, a []types.Value) (types.Value, error) {
				iv := a[0].(types.IntervalValue)
				return types.IntervalValue{Months: -iv.Months, Days: -iv.Days, Micros: -iv.Micros}, nil
			}}, nil
		}
	case "~":
		if isIntType(t.OID) {
			return &eval.FuncCall{Name: "~", Args: []eval.Expr{x}, Strict: true, T: types.Of(t.OID), Fn: func(_ eval.Context, a []types.Value) (types.Value, error) {
				return ^a[0].(int64), nil
			}}, nil
		}
	case "|/", "||/", "@":
		// Square root, cube root and absolute value are their functions'
		// operators.
		fn := map[string]string{"|/": "sqrt", "||/": "cbrt", "@": "abs"}[op]
		if eval.TypeCategory(t.OID) == 'N' {
			bi := builtins[fn]
			if bi.overloads != nil {
				return b.bindOverloaded(fn, bi, []eval.Expr{x}, &ast.FuncCall{Pos: pos})
			}
			if args, rt, err := bi.resolve(b, []eval.Expr{x}); err == nil {
				return &eval.FuncCall{Name: fn, Args: args, Fn: bi.call, Strict: bi.strict, T: rt}, nil
			}
		}
	}
	return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist: %s %s", op, typeName(t)).WithPosition(pos + 1).
		WithHint("No operator matches the given name and argument type. You might need to add an explicit type cast.")
}

// bindLike binds LIKE / ILIKE / SIMILAR TO.
func (b *binder) bindLike(e *ast.Like) (eval.Expr, error) {
	x, err := b.bind(e.X)
	if err != nil {
		return nil, err
	}
	p, err := b.bind(e.Pattern)
	if err != nil {
		return nil, err
	}
	var esc eval.Expr
	if e.Escape != nil {
		if esc, err = b.bind(e.Escape); err != nil {
			return nil, err
		}
	}
	// The operator PostgreSQL rewrites the keywords to, named in errors.
	op := map[bool]string{false: "~~", true: "~~*"}[e.ILike]
	patternT := p.Type()
	if e.Similar {
		op = "~"
	}
	if e.Similar || esc != nil {
		// x SIMILAR TO p [ESCAPE e] is x ~ similar_to_escape(p [, e]), and
		// x LIKE p ESCAPE e is x ~~ like_escape(p, e): the function's
		// arguments are looked at first, and the operator gets its text.
		fn, args := "like_escape", []eval.Expr{p, esc}
		if e.Similar {
			fn = "similar_to_escape"
			if esc == nil {
				args = args[:1]
			}
		}
		for _, a := range args {
			if _, err := b.coerce(a, textT()); pgerror.CodeOf(err) == pgerror.DatatypeMismatch {
				names := make([]string, len(args))
				for i, a := range args {
					names[i] = typeName(a.Type())
				}
				return nil, pgerror.New(pgerror.UndefinedFunction, "function pg_catalog.%s(%s) does not exist", fn, strings.Join(names, ", ")).
					WithPosition(e.OpPos + 1).
					WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
			}
		}
		patternT = textT()
	}
	if e.Not {
		op = "!" + op
	}
	subject, pattern, ok, err := b.patternOperands(x, p)
	if err != nil {
		return nil, withPos(err, e.Pattern)
	}
	if !ok {
		return nil, operatorError(op, x.Type(), patternT).WithPosition(e.OpPos + 1)
	}
	if esc != nil {
		if esc, err = b.coerce(esc, textT()); err != nil {
			return nil, withPos(err, e.Escape)
		}
	}
	return newLikeExpr(subject, pattern, esc, e.Not, e.ILike, e.Similar), nil
}

// patternOperands binds the two sides of a pattern match (LIKE, ILIKE,
// SIMILAR TO, the regular-expression operators, and their ANY/ALL forms)
// as PostgreSQL's operators for them take them. The subject is a string
// matched as it is: char(n) with its padding, which bpcharlike and
// bpcharregexeq keep (a cast to text would trim it), an unknown literal as
// text, "char" through text. The pattern is text. ok is false when the
// types have no such operator; err is set only when a literal itself is bad.
func (b *binder) patternOperands(x, pattern eval.Expr) (subject, pat eval.Expr, ok bool, err error) {
	subject = b.resolveUnknown(x)
	switch subject.Type().OID {
	case types.Text, types.Varchar, types.Bpchar, types.Name:
	case types.Char:
		subject = toText(subject)
	default:
		return nil, nil, false, nil
	}
	if pat, err = b.coerce(pattern, textT()); err != nil {
		if pgerror.CodeOf(err) == pgerror.DatatypeMismatch {
			return nil, nil, false, nil
		}
		return nil, nil, false, err
	}
	return subject, pat, true, nil
}
