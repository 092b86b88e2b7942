package builtins

import (
	"crypto/rand"

	"cdcdb/sql/eval"
	"cdcdb/types"
)

// gen_random_uuid and pg_typeof: functions of no session that PostgreSQL
// lists among its system and UUID functions.

func init() {
	Register("gen_random_uuid", &Func{Resolve: Signature(types.UUID), Call: func(eval.Context, []types.Value) (types.Value, error) {
		var u types.UUIDValue
		if _, err := rand.Read(u[:]); err != nil {
			return nil, err
		}
		u[6] = (u[6] & 0x0f) | 0x40
		u[8] = (u[8] & 0x3f) | 0x80
		return u, nil
	}})
	Register("pg_typeof", &Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != 1 {
			return nil, types.T{}, ErrNoFunction
		}
		t := args[0].Type()
		return []eval.Expr{&eval.Const{V: int64(t.OID), T: types.Of(types.Oid)}}, types.Of(types.Regtype), nil
	}, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		return a[0], nil
	}})
}
