package sql

import (
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// bindBitwise binds the integer bitwise operators & | # (xor) and the
// shifts << >>. pgjdbc's getIndexInfo tests the DESC bit of
// pg_index.indoption with "indoption[n] & 1::smallint". Both operands of
// & | # take their common integer type (smallint & smallint is smallint);
// a shift keeps the left operand's type and shifts by an integer.
func bindBitwise(b *binder, op string, l, r eval.Expr) (eval.Expr, error) {
	l, r = b.resolveUnknownInt(l), b.resolveUnknownInt(r)
	lt, rt := l.Type(), r.Type()
	if !eval.IsIntType(lt.OID) || !eval.IsIntType(rt.OID) {
		return nil, eval.OperatorError(op, lt, rt)
	}
	t := lt
	if op == "<<" || op == ">>" {
		var err error
		if r, err = b.coerce(r, eval.Int4T()); err != nil {
			return nil, eval.OperatorError(op, lt, rt)
		}
	} else {
		t = widerInt(lt, rt)
		var err error
		if l, err = b.coerce(l, t); err != nil {
			return nil, eval.OperatorError(op, lt, rt)
		}
		if r, err = b.coerce(r, t); err != nil {
			return nil, eval.OperatorError(op, lt, rt)
		}
	}
	return &eval.FuncCall{Name: op, Args: []eval.Expr{l, r}, T: t, Strict: true, Fn: func(_ eval.Context, a []types.Value) (types.Value, error) {
		x, y := a[0].(int64), a[1].(int64)
		// PostgreSQL shifts smallint and integer as C ints: the count
		// is taken modulo 32 (as the hardware does), bigint's modulo 64.
		mask := uint64(31)
		if t.OID == types.Int8 {
			mask = 63
		}
		var v int64
		switch op {
		case "&":
			v = x & y
		case "|":
			v = x | y
		case "#":
			v = x ^ y
		case "<<":
			v = x << (uint64(y) & mask)
		case ">>":
			v = x >> (uint64(y) & mask)
		}
		// Results wrap to the type's width, as PostgreSQL's do.
		switch t.OID {
		case types.Int2:
			v = int64(int16(v))
		case types.Int4:
			v = int64(int32(v))
		}
		return v, nil
	}}, nil
}

// resolveUnknownInt types an untyped literal operand of a bitwise operator
// as integer.
func (b *binder) resolveUnknownInt(x eval.Expr) eval.Expr {
	if x.Type().OID != types.Unknown {
		return x
	}
	if c, err := b.coerce(x, eval.Int4T()); err == nil {
		return c
	}
	return x
}

// widerInt is the wider of two integer types.
func widerInt(a, b types.T) types.T {
	rank := map[types.OID]int{types.Int2: 1, types.Int4: 2, types.Int8: 3}
	if rank[b.OID] > rank[a.OID] {
		return types.Of(b.OID)
	}
	return types.Of(a.OID)
}
