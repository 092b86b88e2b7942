package sql

import (
	"time"

	"cdcdb/pgerror"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// The session's functions that need package sql: pg_sleep, cancelled with
// its statement, and current_setting and set_config, which read and set
// the session's parameters (settings.go).

func init() {
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
}
