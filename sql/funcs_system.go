package sql

import (
	"crypto/rand"
	"time"

	"cdcdb/pgerror"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

func init() {
	builtins.Register("now", &builtins.Func{Resolve: builtins.Signature(types.Timestamptz), Call: func(ec eval.Context, _ []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		return x.now, nil
	}})
	builtins.Register("transaction_timestamp", builtins.Funcs["now"])
	builtins.Register("statement_timestamp", &builtins.Func{Resolve: builtins.Signature(types.Timestamptz), Call: func(ec eval.Context, _ []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		return x.stmtNow, nil
	}})
	builtins.Register("clock_timestamp", &builtins.Func{Resolve: builtins.Signature(types.Timestamptz), Call: func(eval.Context, []types.Value) (types.Value, error) {
		return time.Now().UTC().Truncate(time.Microsecond), nil
	}})
	builtins.Register("localtimestamp", &builtins.Func{Resolve: builtins.Signature(types.Timestamp), Call: func(ec eval.Context, _ []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		return eval.WallClockUTC(x.now.In(x.Location())), nil
	}})
	builtins.Register("current_date", &builtins.Func{Resolve: builtins.Signature(types.Date), Call: func(ec eval.Context, _ []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		t := x.now.In(x.Location())
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), nil
	}})
	builtins.Register("pg_sleep", &builtins.Func{Resolve: builtins.Signature(types.Void, types.Float8), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		d := time.Duration(a[0].(float64) * float64(time.Second))
		if d <= 0 {
			return "", nil
		}
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return "", nil
		case <-x.ctx.Done():
			return nil, cancelError(x.ctx)
		}
	}})
	builtins.Register("current_setting", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) == 1 {
			return builtins.Signature(types.Text, types.Text)(b, args)
		}
		return builtins.Signature(types.Text, types.Text, types.Bool)(b, args)
	}, Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		v, err := x.sess.showSetting(a[0].(string))
		if err != nil {
			if len(a) > 1 && a[1] == true {
				return nil, nil
			}
			return nil, err
		}
		return v, nil
	}})
	builtins.Register("set_config", &builtins.Func{Resolve: builtins.Signature(types.Text, types.Text, types.Text, types.Bool), Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		x := stmtOf(ec)
		if a[0] == nil {
			return nil, pgerror.New(pgerror.NullValueNotAllowed, "SET requires parameter name")
		}
		val := ""
		if a[1] != nil {
			val = a[1].(string)
		}
		if err := x.sess.setSetting(a[0].(string), val, a[2] == true); err != nil {
			return nil, err
		}
		return x.sess.showSetting(a[0].(string))
	}})
	builtins.Register("gen_random_uuid", &builtins.Func{Resolve: builtins.Signature(types.UUID), Call: func(eval.Context, []types.Value) (types.Value, error) {
		var u types.UUIDValue
		if _, err := rand.Read(u[:]); err != nil {
			return nil, err
		}
		u[6] = (u[6] & 0x0f) | 0x40
		u[8] = (u[8] & 0x3f) | 0x80
		return u, nil
	}})
	builtins.Register("pg_typeof", &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
		if len(args) != 1 {
			return nil, types.T{}, builtins.ErrNoFunction
		}
		t := args[0].Type()
		return []eval.Expr{&eval.Const{V: int64(t.OID), T: types.Of(types.Oid)}}, types.Of(types.Regtype), nil
	}, Call: func(_ eval.Context, a []types.Value) (types.Value, error) {
		return a[0], nil
	}})
}
