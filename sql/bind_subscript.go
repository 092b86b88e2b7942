package sql

import (
	"cdcdb/pgerror"
	"cdcdb/sql/ast"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// bindMultiSubscript binds x[i][j]...: the subscripts of one element of a
// multidimensional array.
func (b *binder) bindMultiSubscript(e *ast.Subscript) (eval.Expr, error) {
	var idx []ast.Expr
	var base ast.Expr = e
	for {
		s, ok := base.(*ast.Subscript)
		if !ok || s.Slice {
			break
		}
		idx = append([]ast.Expr{s.Index}, idx...)
		base = s.X
	}
	x, err := b.bind(base)
	if err != nil {
		return nil, err
	}
	elem := types.ElemOf(x.Type().OID)
	if elem == 0 {
		return nil, pgerror.New(pgerror.DatatypeMismatch, "cannot subscript type %s because it does not support subscripting", eval.TypeName(x.Type())).WithPosition(e.Pos + 1)
	}
	me := &builtins.MultiSubscript{X: x, ElemT: types.Of(elem)}
	for _, i := range idx {
		ie, err := b.bindAs(i, eval.Int4T(), "array subscript")
		if err != nil {
			return nil, err
		}
		me.Indexes = append(me.Indexes, ie)
	}
	return me, nil
}
