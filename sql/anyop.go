package sql

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// anyOpExpr is x op ANY|ALL (array) for an operator other than a plain
// comparison (LIKE, ILIKE, regular expressions...): the operator is bound
// once over a two-value row (x, element) and applied to each element, with
// SQL's three-valued logic across them.
type anyOpExpr struct {
	x, arr eval.Expr
	op     eval.Expr
	all    bool
}

func (e *anyOpExpr) Type() types.T { return eval.BoolT() }

func (e *anyOpExpr) Eval(env *eval.Env) (types.Value, error) {
	v, err := e.x.Eval(env)
	if err != nil {
		return nil, err
	}
	a, err := e.arr.Eval(env)
	if err != nil || a == nil {
		return nil, err
	}
	pair := &eval.Env{Row: eval.Row{v, nil}, Outer: env.Outer, X: env.X}
	sawNull := false
	for _, w := range a.(types.ArrayValue).Elems {
		pair.Row[1] = w
		r, err := e.op.Eval(pair)
		if err != nil {
			return nil, err
		}
		switch {
		case r == nil:
			sawNull = true
		case r == true && !e.all:
			return true, nil
		case r == false && e.all:
			return false, nil
		}
	}
	if sawNull {
		return nil, nil
	}
	return e.all, nil
}

// bindAnyOp binds x op ANY/ALL (array) for an operator comparisonFunc does
// not know.
func (b *binder) bindAnyOp(e *ast.AnyAll, x, arr eval.Expr, elemT types.T) (eval.Expr, error) {
	shownT := x.Type() // an unknown literal is named so in errors
	x = b.resolveUnknown(x)
	xr := &eval.ColRef{Idx: 0, T: x.Type()}
	er := &eval.ColRef{Idx: 1, T: elemT}
	var op eval.Expr
	switch e.Op {
	case "~~", "!~~", "~~*", "!~~*":
		subject, pattern, ok, err := b.patternOperands(xr, er)
		if err != nil {
			return nil, pgerror.As(err).WithPosition(e.OpPos + 1)
		}
		if !ok {
			return nil, eval.OperatorError(e.Op, shownT, elemT).WithPosition(e.OpPos + 1)
		}
		op = eval.NewLike(subject, pattern, nil, strings.HasPrefix(e.Op, "!"), strings.HasSuffix(e.Op, "*"), false)
	default:
		var err error
		if op, err = bindBinaryOp(b, e.Op, xr, er); err != nil {
			return nil, pgerror.As(err).WithPosition(e.OpPos + 1)
		}
	}
	if op.Type().OID != types.Bool {
		return nil, pgerror.New(pgerror.WrongObjectType, "op ANY/ALL (array) requires operator to yield boolean").WithPosition(e.OpPos + 1)
	}
	return &anyOpExpr{x: x, arr: arr, op: op, all: e.All}, nil
}

// bindLikeOperator binds LIKE's operator spellings (~~ !~~ ~~* !~~*),
// which tools and deparsed views use instead of the keywords.
func bindLikeOperator(b *binder, op string, l, r eval.Expr) (eval.Expr, error) {
	subject, pattern, ok, err := b.patternOperands(l, r)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, eval.OperatorError(op, l.Type(), r.Type())
	}
	return eval.NewLike(subject, pattern, nil, strings.HasPrefix(op, "!"), strings.HasSuffix(op, "*"), false), nil
}
