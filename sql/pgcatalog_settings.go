package sql

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/builtins"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/eval"
	"cdcdb/sql/settings"
	"cdcdb/types"
)

// pg_settings is PostgreSQL's view over pg_show_all_settings(). cdcdb lists
// the parameters it has (SHOW ALL's), with their current values in this
// session, described as PostgreSQL describes them (settings.Def.Describe).

// maxIndexKeys is PostgreSQL's INDEX_MAX_KEYS, which cdcdb keeps too:
// clients read max_index_keys as the most key columns a constraint can
// have (pgjdbc's getImportedKeys walks key positions 1..max_index_keys).
const maxIndexKeys = 32

// checkIndexKeyCount refuses an index (or key) of more columns.
func checkIndexKeyCount(n int) error {
	if n > maxIndexKeys {
		return pgerror.New(pgerror.TooManyColumns, "cannot use more than %d columns in an index", maxIndexKeys)
	}
	return nil
}

func init() {
	builtins.RegisterSet("pg_show_all_settings", &builtins.SetFunc{Resolve: func(_ eval.Binder, args []eval.Expr) ([]eval.Expr, []builtins.Column, error) {
		if len(args) != 0 {
			return nil, nil, builtins.ErrNoFunction
		}
		return nil, catalogviews.ProcOutColumns("pg_show_all_settings"), nil
	}, Gen: func(ec eval.Context, _ []types.Value) ([]eval.Row, error) {
		x := stmtOf(ec)
		var rows []eval.Row
		for _, name := range settings.Names() {
			rows = append(rows, settingRow(x, name))
		}
		return rows, nil
	}})
}

// settingRow is one row of pg_show_all_settings().
func settingRow(x *execCtx, name string) eval.Row {
	ln := strings.ToLower(name)
	def, _ := settings.Lookup(ln)
	val, _ := x.sess.showSetting(name)
	d := def.Describe(val, x.sess.engine.settingDefault(ln, def))
	null := catalogviews.NilIfEmpty
	return eval.Row{d.Name, d.Setting, null(d.Unit), d.Category, null(d.ShortDesc), null(d.ExtraDesc), d.Context, d.VarType, d.Source,
		null(d.Min), null(d.Max), nil, d.BootVal, d.ResetVal, nil, nil, false}
}
