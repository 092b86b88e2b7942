package sql

import (
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/builtins"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/eval"
	"cdcdb/sql/pgdefs"
	"cdcdb/sql/settings"
	"cdcdb/types"
)

// pg_settings is PostgreSQL's view over pg_show_all_settings(). cdcdb lists
// the parameters it has (SHOW ALL's), with their current values in this
// session, described as PostgreSQL describes them (postgres
// --describe-config, through package pgdefs): context, category, type,
// bounds and help texts are PostgreSQL's.

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
		return nil, procOutColumns("pg_show_all_settings"), nil
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
	def, _ := settings.Lookup(strings.ToLower(name))
	val, _ := x.sess.showSetting(name)
	desc, known := pgdefs.SettingByName(name)
	if !known {
		// describe-config leaves out the preset (internal) parameters and
		// knows nothing of cdcdb's own: describe them from cdcdb's
		// definition.
		desc = pgdefs.Setting{Context: def.Context.String(), Category: "Customized Options", VarType: settings.VarType(def.Default),
			ShortDesc: def.Desc}
		if def.Context == settings.ContextInternal {
			desc.Category = "Preset Options"
		}
	}
	unit := def.Unit
	boot, reset := def.Default, x.sess.engine.settingDefault(strings.ToLower(name), def)
	if unit != "" {
		val, boot, reset = settings.InUnit(val, unit), settings.InUnit(boot, unit), settings.InUnit(reset, unit)
	}
	source := "default"
	switch {
	case val != reset:
		source = "session"
	case reset != boot:
		source = "command line" // Options.Settings, as postgres -c
	}
	if desc.Context == "internal" {
		source = "override"
	}
	// describe-config does not list enum values: enumvals stays NULL.
	var enumvals, minVal, maxVal types.Value
	if desc.Min != "" {
		minVal = desc.Min
	}
	if desc.Max != "" {
		maxVal = desc.Max
	}
	var unitVal types.Value
	if unit != "" {
		unitVal = unit
	}
	return eval.Row{def.Name, val, unitVal, desc.Category, catalogviews.NilIfEmpty(desc.ShortDesc), catalogviews.NilIfEmpty(desc.ExtraDesc),
		desc.Context, desc.VarType, source, minVal, maxVal, enumvals, boot, reset, nil, nil, false}
}
