package catalogviews

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/builtins"
	"cdcdb/sql/eval"
	"cdcdb/types"
)

// privilegeWords are the privilege names each has_*_privilege accepts.
var privilegeWords = map[string][]string{
	"table":    {"select", "insert", "update", "delete", "truncate", "references", "trigger"},
	"column":   {"select", "insert", "update", "references"},
	"schema":   {"create", "usage"},
	"database": {"create", "connect", "temporary", "temp"},
	"function": {"execute"},
	"sequence": {"usage", "select", "update"},
	"type":     {"usage"},
	"role":     {"member", "usage", "set"},
	"other":    {"usage", "create"},
}

// registerPrivilegeFunctions registers has_*_privilege and pg_has_role.
// Tables, schemas and role membership are answered by the session's roles
// (Session.HasTablePrivilege, HasSchemaPrivilege, HasRole); cdcdb grants
// nothing on the other kinds of object, so every privilege on them is
// held, and what is checked is what PostgreSQL checks before answering:
// that the privilege names are valid and that an object named by text
// exists.
func registerPrivilegeFunctions() {
	kinds := map[string]string{
		"has_table_privilege": "table", "has_any_column_privilege": "column", "has_column_privilege": "column",
		"has_schema_privilege": "schema", "has_database_privilege": "database", "has_function_privilege": "function",
		"has_sequence_privilege": "sequence", "has_type_privilege": "type", "pg_has_role": "role",
		"has_tablespace_privilege": "other", "has_language_privilege": "other", "has_server_privilege": "other",
		"has_foreign_data_wrapper_privilege": "other",
	}
	for name, kind := range kinds {
		name, kind := name, kind
		minArgs, maxArgs := 2, 3
		if name == "has_column_privilege" {
			minArgs, maxArgs = 3, 4
		}
		builtins.Register(name, &builtins.Func{Resolve: func(b eval.Binder, args []eval.Expr) ([]eval.Expr, types.T, error) {
			if len(args) < minArgs || len(args) > maxArgs {
				return nil, types.T{}, builtins.ErrNoFunction
			}
			out := make([]eval.Expr, len(args))
			for i, a := range args {
				if a.Type().OID == types.Unknown || i == len(args)-1 {
					c, err := b.Coerce(a, eval.TextT())
					if err != nil {
						return nil, types.T{}, builtins.ErrNoFunction
					}
					out[i] = c
					continue
				}
				out[i] = a
			}
			return out, eval.BoolT(), nil
		}, Strict: true, Call: func(ec eval.Context, a []types.Value) (types.Value, error) {
			sess := sessionOf(ec)
			if err := checkPrivilegeWords(kind, a[len(a)-1].(string)); err != nil {
				return nil, err
			}
			// The object is the argument before the privilege (or before
			// the column, for has_column_privilege).
			obj := a[len(a)-2]
			if name == "has_column_privilege" {
				obj = a[len(a)-3]
			}
			switch name {
			case "has_table_privilege":
				return sess.HasTablePrivilege(a)
			case "has_schema_privilege":
				return sess.HasSchemaPrivilege(a)
			case "pg_has_role":
				return sess.HasRole(a)
			}
			if s, ok := obj.(string); ok {
				switch kind {
				case "table", "column", "sequence":
					if _, err := ec.ParseRegValue(types.Regclass, s); err != nil {
						return nil, err
					}
				case "schema":
					if _, ok := sess.Catalog().Schema(s); !ok {
						return nil, pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", s)
					}
				}
			}
			return true, nil
		}})
	}
}

// checkPrivilegeWords validates a privilege list such as 'SELECT, INSERT'
// (each optionally WITH GRANT OPTION).
func checkPrivilegeWords(kind, list string) error {
	for _, p := range strings.Split(list, ",") {
		w := strings.ToLower(strings.TrimSpace(p))
		w = strings.TrimSpace(strings.TrimSuffix(w, "with grant option"))
		w = strings.TrimSpace(strings.TrimSuffix(w, "with admin option"))
		ok := false
		for _, allowed := range privilegeWords[kind] {
			if w == allowed {
				ok = true
			}
		}
		if !ok {
			return pgerror.New(pgerror.InvalidParameterValue, "unrecognized privilege type: \"%s\"", strings.TrimSpace(p))
		}
	}
	return nil
}
