package sql

import (
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// bindBinaryOp resolves an infix operator for its operand types.
func bindBinaryOp(b *binder, op string, l, r eval.Expr) (eval.Expr, error) {
	if lt := l.Type().OID; (lt == types.JSON || lt == types.JSONB) && builtins.JSONOperators[op] {
		return bindJSONOp(b, op, l, r)
	}
	switch op {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		return bindComparison(b, op, l, r)
	case "IS DISTINCT FROM", "IS NOT DISTINCT FROM":
		ct, err := eval.CommonType([]eval.Expr{l, r}, op)
		if err != nil {
			return nil, err
		}
		if ct.OID == types.Unknown {
			ct = eval.TextT()
		}
		if l, err = b.coerce(l, ct); err != nil {
			return nil, err
		}
		if r, err = b.coerce(r, ct); err != nil {
			return nil, err
		}
		return &eval.IsDistinct{L: l, R: r, T: ct, Not: op == "IS NOT DISTINCT FROM"}, nil
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
			return nil, eval.OperatorError(op, l.Type(), r.Type())
		}
		return eval.NewRegexMatch(op, subject, pattern), nil
	case "~~", "!~~", "~~*", "!~~*":
		return bindLikeOperator(b, op, l, r)
	case "->", "->>", "#>", "#>>", "@>", "<@", "?", "?|", "?&", "#-", "&&":
		return bindJSONOrArrayOp(b, op, l, r)
	}
	return nil, eval.OperatorError(op, l.Type(), r.Type())
}

func bindComparison(b *binder, op string, l, r eval.Expr) (eval.Expr, error) {
	lt, rt := l.Type(), r.Type()
	var ct types.T
	switch {
	case lt.OID == types.Unknown && rt.OID == types.Unknown:
		ct = eval.TextT()
	case lt.OID == types.Unknown:
		ct = rt
	case rt.OID == types.Unknown:
		ct = lt
	default:
		var err error
		ct, err = eval.CommonType([]eval.Expr{l, r}, op)
		if err != nil {
			return nil, eval.OperatorError(op, lt, rt)
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
	test, err := eval.ComparisonFunc(op)
	if err != nil {
		return nil, err
	}
	return &eval.Compare{L: l, R: r, T: ct, Test: test, Op: op}, nil
}

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
		return &eval.FuncCall{Name: "jsonb_concat", Args: []eval.Expr{l, r}, Fn: eval.JSONBConcat, Strict: true, T: types.Of(types.JSONB)}, nil
	}
	// text || anything (non-array) converts the other side to text, as
	// PostgreSQL's anynonarray || text operators do.
	if eval.TypeCategory(lt.OID) != 'S' && eval.TypeCategory(rt.OID) != 'S' {
		return nil, eval.OperatorError("||", lt, rt)
	}
	l, r = b.resolveUnknown(l), b.resolveUnknown(r)
	return &eval.FuncCall{Name: "textcat", Args: []eval.Expr{toText(l), toText(r)}, Fn: func(_ eval.Context, a []types.Value) (types.Value, error) {
		return a[0].(string) + a[1].(string), nil
	}, Strict: true, T: eval.TextT()}, nil
}

// toText converts an expression to text with its output function.
func toText(x eval.Expr) eval.Expr {
	if x.Type().OID == types.Text {
		return x
	}
	return &eval.Cast{X: x, To: eval.TextT(), Explicit: true}
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
		rank := eval.NumericRank(lt.OID)
		if eval.NumericRank(rt.OID) > rank {
			rank = eval.NumericRank(rt.OID)
		}
		var t types.T
		switch {
		case lt.OID == rt.OID && rank != 3:
			t = types.Of(lt.OID)
		case (lt.OID == types.Float4) != (rt.OID == types.Float4) && rank == 6:
			t = types.Of(types.Float8)
		default:
			for _, c := range []types.OID{types.Int2, types.Int4, types.Int8, types.Int8, types.Numeric, types.Float4, types.Float8} {
				if eval.NumericRank(c) == rank || (rank == 3 && c == types.Int8) {
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
		fn, err := eval.ArithmeticFunc(op, t.OID)
		if err != nil {
			return nil, eval.OperatorError(op, lt, rt)
		}
		return &eval.FuncCall{Name: op, Args: []eval.Expr{l, r}, Fn: fn, Strict: true, T: t}, nil
	}
	if eval.DateLike(lt.OID) && eval.DateLike(rt.OID) && lt.OID != rt.OID && op == "-" {
		// date - timestamp, timestamp - timestamptz: the earlier type
		// converts implicitly to the later, as PostgreSQL resolves them.
		t := lt
		if eval.DtRank(rt.OID) > eval.DtRank(lt.OID) {
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
	if fn, t, ok := eval.DatetimeArithmetic(op, lt.OID, rt.OID); ok {
		return &eval.FuncCall{Name: op, Args: []eval.Expr{l, r}, Fn: fn, Strict: true, T: types.Of(t)}, nil
	}
	return nil, eval.OperatorError(op, lt, rt)
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
		case eval.IsIntType(t.OID):
			return &eval.FuncCall{Name: "-", Args: []eval.Expr{x}, Strict: true, T: types.Of(t.OID), Fn: func(_ eval.Context, a []types.Value) (types.Value, error) {
				v := a[0].(int64)
				if v == math.MinInt64 || !eval.IntFits(t.OID, -v) {
					return nil, eval.IntRangeError(t.OID)
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
		if eval.IsIntType(t.OID) {
			return &eval.FuncCall{Name: "~", Args: []eval.Expr{x}, Strict: true, T: types.Of(t.OID), Fn: func(_ eval.Context, a []types.Value) (types.Value, error) {
				return ^a[0].(int64), nil
			}}, nil
		}
	case "|/", "||/", "@":
		// Square root, cube root and absolute value are their functions'
		// operators.
		fn := map[string]string{"|/": "sqrt", "||/": "cbrt", "@": "abs"}[op]
		if eval.TypeCategory(t.OID) == 'N' {
			bi := builtins.Funcs[fn]
			if bi.Overloads != nil {
				return b.bindOverloaded(fn, bi, []eval.Expr{x}, &ast.FuncCall{Pos: pos})
			}
			if args, rt, err := bi.Resolve(b, []eval.Expr{x}); err == nil {
				return &eval.FuncCall{Name: fn, Args: args, Fn: bi.Call, Strict: bi.Strict, T: rt}, nil
			}
		}
	}
	return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist: %s %s", op, eval.TypeName(t)).WithPosition(pos + 1).
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
			if _, err := b.coerce(a, eval.TextT()); pgerror.CodeOf(err) == pgerror.DatatypeMismatch {
				names := make([]string, len(args))
				for i, a := range args {
					names[i] = eval.TypeName(a.Type())
				}
				return nil, pgerror.New(pgerror.UndefinedFunction, "function pg_catalog.%s(%s) does not exist", fn, strings.Join(names, ", ")).
					WithPosition(e.OpPos + 1).
					WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
			}
		}
		patternT = eval.TextT()
	}
	if e.Not {
		op = "!" + op
	}
	subject, pattern, ok, err := b.patternOperands(x, p)
	if err != nil {
		return nil, withPos(err, e.Pattern)
	}
	if !ok {
		return nil, eval.OperatorError(op, x.Type(), patternT).WithPosition(e.OpPos + 1)
	}
	if esc != nil {
		if esc, err = b.coerce(esc, eval.TextT()); err != nil {
			return nil, withPos(err, e.Escape)
		}
	}
	return eval.NewLike(subject, pattern, esc, e.Not, e.ILike, e.Similar), nil
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
	if pat, err = b.coerce(pattern, eval.TextT()); err != nil {
		if pgerror.CodeOf(err) == pgerror.DatatypeMismatch {
			return nil, nil, false, nil
		}
		return nil, nil, false, err
	}
	return subject, pat, true, nil
}
