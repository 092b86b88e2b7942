package catalogviews

import (
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// ServerVersion is what version() and package sql's server_version and
// server_version_num settings report: PostgreSQL 15 compatibility, then
// cdcdb's own version.
const (
	ServerVersion    = "15.0"
	ServerVersionNum = "150000"
	cdcdbVersion     = "0.1.0"
)

// The system information functions of the session: who it is, which
// database and schemas it is in, which server it talks to.

func init() {
	builtins.Register("version", &builtins.Func{Resolve: builtins.Signature(types.Text), Call: func(eval.Context, []types.Value) (types.Value, error) {
		return "PostgreSQL " + ServerVersion + " (cdcdb " + cdcdbVersion + ") on x86_64-pc-linux-gnu, compiled by Go, 64-bit", nil
	}})
	builtins.Register("current_database", &builtins.Func{Resolve: builtins.Signature(types.Name), Call: func(eval.Context, []types.Value) (types.Value, error) {
		return "main", nil
	}})
	builtins.Register("current_catalog", builtins.Funcs["current_database"])
	builtins.Register("current_schema", &builtins.Func{Resolve: builtins.Signature(types.Name), Call: func(ec eval.Context, _ []types.Value) (types.Value, error) {
		sess := sessionOf(ec)
		for _, s := range sess.SearchPath() {
			if sc, ok := sess.Catalog().Schema(s); ok && s != "pg_catalog" && !sess.IsTempSchema(sc.OID) {
				return s, nil
			}
		}
		return nil, nil
	}})
	builtins.Register("current_schemas", &builtins.Func{Resolve: builtins.Signature(types.NameArray, types.Bool), Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
		sess := sessionOf(ec)
		arr := types.ArrayValue{Elem: types.Name}
		for _, s := range sess.SearchPath() {
			sc, ok := sess.Catalog().Schema(s)
			if !ok || (s == "pg_catalog" || sess.IsTempSchema(sc.OID)) && !a[0].(bool) {
				continue // no such schema, or searched implicitly
			}
			arr.Elems = append(arr.Elems, s)
		}
		return arr, nil
	}})
	userFn := &builtins.Func{Resolve: builtins.Signature(types.Name), Call: func(ec eval.Context, _ []types.Value) (types.Value, error) {
		return sessionOf(ec).User(), nil // SET ROLE's
	}}
	builtins.Register("current_user", userFn)
	builtins.Register("session_user", &builtins.Func{Resolve: builtins.Signature(types.Name), Call: func(ec eval.Context, _ []types.Value) (types.Value, error) {
		return sessionOf(ec).SessionUser(), nil
	}})
	builtins.Register("user", userFn)
	builtins.Register("pg_backend_pid", &builtins.Func{Resolve: builtins.Signature(types.Int4), Call: func(ec eval.Context, _ []types.Value) (types.Value, error) {
		sess := sessionOf(ec)
		return int64(sess.BackendPID()), nil
	}})
}
