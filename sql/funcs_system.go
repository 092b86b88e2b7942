package sql

import (
	"crypto/rand"
	"time"

	"cdcdb/pgerror"
	"cdcdb/types"
)

// ServerVersion is what version() and server_version report: PostgreSQL 15
// compatibility, then cdcdb's own version.
const (
	ServerVersion    = "15.0"
	ServerVersionNum = "150000"
	cdcdbVersion     = "0.1.0"
)

func init() {
	register("version", &builtin{resolve: signature(types.Text), call: func(*execCtx, []types.Value) (types.Value, error) {
		return "PostgreSQL " + ServerVersion + " (cdcdb " + cdcdbVersion + ") on x86_64-pc-linux-gnu, compiled by Go, 64-bit", nil
	}})
	register("current_database", &builtin{resolve: signature(types.Name), call: func(*execCtx, []types.Value) (types.Value, error) {
		return "main", nil
	}})
	register("current_catalog", builtins["current_database"])
	register("current_schema", &builtin{resolve: signature(types.Name), call: func(x *execCtx, _ []types.Value) (types.Value, error) {
		for _, s := range x.sess.searchPath() {
			if s == "pg_catalog" || isTempSchemaName(s) {
				continue
			}
			if _, ok := x.sess.engine.catalogSnapshot().Schema(s); ok {
				return s, nil
			}
		}
		return nil, nil
	}})
	register("current_schemas", &builtin{resolve: signature(types.NameArray, types.Bool), strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		arr := types.ArrayValue{Elem: types.Name}
		for _, s := range x.sess.searchPath() {
			if (s == "pg_catalog" || isTempSchemaName(s)) && !a[0].(bool) {
				continue // searched implicitly
			}
			if _, ok := x.sess.engine.catalogSnapshot().Schema(s); ok {
				arr.Elems = append(arr.Elems, s)
			}
		}
		return arr, nil
	}})
	userFn := &builtin{resolve: signature(types.Name), call: func(x *execCtx, _ []types.Value) (types.Value, error) {
		return x.sess.currentRoleName(), nil // SET ROLE's (rolemembers.go)
	}}
	register("current_user", userFn)
	register("session_user", &builtin{resolve: signature(types.Name), call: func(x *execCtx, _ []types.Value) (types.Value, error) {
		return x.sess.user, nil
	}})
	register("user", userFn)
	register("pg_backend_pid", &builtin{resolve: signature(types.Int4), call: func(x *execCtx, _ []types.Value) (types.Value, error) {
		return int64(x.sess.id), nil
	}})
	register("now", &builtin{resolve: signature(types.Timestamptz), call: func(x *execCtx, _ []types.Value) (types.Value, error) {
		return x.now, nil
	}})
	register("transaction_timestamp", builtins["now"])
	register("statement_timestamp", &builtin{resolve: signature(types.Timestamptz), call: func(x *execCtx, _ []types.Value) (types.Value, error) {
		return x.stmtNow, nil
	}})
	register("clock_timestamp", &builtin{resolve: signature(types.Timestamptz), call: func(*execCtx, []types.Value) (types.Value, error) {
		return time.Now().UTC().Truncate(time.Microsecond), nil
	}})
	register("localtimestamp", &builtin{resolve: signature(types.Timestamp), call: func(x *execCtx, _ []types.Value) (types.Value, error) {
		return wallClockUTC(x.now.In(x.location())), nil
	}})
	register("current_date", &builtin{resolve: signature(types.Date), call: func(x *execCtx, _ []types.Value) (types.Value, error) {
		t := x.now.In(x.location())
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), nil
	}})
	register("pg_sleep", &builtin{resolve: signature(types.Void, types.Float8), strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
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
	register("current_setting", &builtin{resolve: func(b *binder, args []expr) ([]expr, types.T, error) {
		if len(args) == 1 {
			return signature(types.Text, types.Text)(b, args)
		}
		return signature(types.Text, types.Text, types.Bool)(b, args)
	}, strict: true, call: func(x *execCtx, a []types.Value) (types.Value, error) {
		v, err := x.sess.showSetting(a[0].(string))
		if err != nil {
			if len(a) > 1 && a[1] == true {
				return nil, nil
			}
			return nil, err
		}
		return v, nil
	}})
	register("set_config", &builtin{resolve: signature(types.Text, types.Text, types.Text, types.Bool), call: func(x *execCtx, a []types.Value) (types.Value, error) {
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
	register("gen_random_uuid", &builtin{resolve: signature(types.UUID), call: func(*execCtx, []types.Value) (types.Value, error) {
		var u types.UUIDValue
		if _, err := rand.Read(u[:]); err != nil {
			return nil, err
		}
		u[6] = (u[6] & 0x0f) | 0x40
		u[8] = (u[8] & 0x3f) | 0x80
		return u, nil
	}})
	register("pg_typeof", &builtin{resolve: func(b *binder, args []expr) ([]expr, types.T, error) {
		if len(args) != 1 {
			return nil, types.T{}, errNoFunction
		}
		t := args[0].typ()
		return []expr{&constExpr{v: int64(t.OID), t: types.Of(types.Oid)}}, types.Of(types.Regtype), nil
	}, call: func(_ *execCtx, a []types.Value) (types.Value, error) {
		return a[0], nil
	}})
}

// wallClockUTC keeps t's wall-clock reading as a UTC time: the
// representation of timestamp without time zone.
func wallClockUTC(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}
