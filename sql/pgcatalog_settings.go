package sql

import (
	"strconv"
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/builtins"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/eval"
	"cdcdb/sql/pgdefs"
	"cdcdb/types"
)

// pg_settings is PostgreSQL's view over pg_show_all_settings(). cdcdb lists
// the parameters it has (SHOW ALL's), with their current values in this
// session, described as PostgreSQL describes them (postgres
// --describe-config, through package pgdefs): context, category, type,
// bounds and help texts are PostgreSQL's.

// settingUnits are the units of the parameters cdcdb has that carry one;
// pg_settings shows such values as a number of the unit.
var settingUnits = map[string]string{
	"statement_timeout":                   "ms",
	"lock_timeout":                        "ms",
	"idle_in_transaction_session_timeout": "ms",
	"work_mem":                            "kB",
}

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
	defineSetting(&settingDef{name: "max_index_keys", def: strconv.Itoa(maxIndexKeys), readOnly: true,
		desc: "Shows the maximum number of index keys."})
	builtins.RegisterSet("pg_show_all_settings", &builtins.SetFunc{Resolve: func(_ eval.Binder, args []eval.Expr) ([]eval.Expr, []builtins.Column, error) {
		if len(args) != 0 {
			return nil, nil, builtins.ErrNoFunction
		}
		return nil, catalogviews.ProcOutColumns("pg_show_all_settings"), nil
	}, Gen: func(ec eval.Context, _ []types.Value) ([]eval.Row, error) {
		x := stmtOf(ec)
		var rows []eval.Row
		for _, name := range settingNames() {
			rows = append(rows, settingRow(x, name))
		}
		return rows, nil
	}})
}

// settingRow is one row of pg_show_all_settings().
func settingRow(x *execCtx, name string) eval.Row {
	def := settingDefs[strings.ToLower(name)]
	val, _ := x.sess.showSetting(name)
	desc, known := pgdefs.SettingByName(name)
	if !known {
		// describe-config leaves out the preset (internal) parameters and
		// knows nothing of cdcdb's own: describe them from cdcdb's
		// definition.
		desc = pgdefs.Setting{Context: "user", Category: "Customized Options", VarType: settingVarType(def.def),
			ShortDesc: def.desc}
		if def.readOnly {
			desc.Context, desc.Category = "internal", "Preset Options"
		}
	}
	unit := settingUnits[strings.ToLower(name)]
	boot, reset := def.def, x.sess.engine.settingDefault(strings.ToLower(name), def)
	if unit != "" {
		val, boot, reset = inUnit(val, unit), inUnit(boot, unit), inUnit(reset, unit)
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
	return eval.Row{def.name, val, unitVal, desc.Category, catalogviews.NilIfEmpty(desc.ShortDesc), catalogviews.NilIfEmpty(desc.ExtraDesc),
		desc.Context, desc.VarType, source, minVal, maxVal, enumvals, boot, reset, nil, nil, false}
}

// settingVarType guesses a parameter's type from its default value.
func settingVarType(def string) string {
	switch def {
	case "on", "off":
		return "bool"
	}
	if _, err := strconv.Atoi(def); err == nil {
		return "integer"
	}
	return "string"
}

// inUnit converts a duration or memory setting to a number of unit.
func inUnit(v, unit string) string {
	switch unit {
	case "ms":
		d, err := parseDurationSetting(v)
		if err != nil {
			return v
		}
		return strconv.FormatInt(d.Milliseconds(), 10)
	case "kB":
		s := strings.TrimSpace(strings.ToUpper(v))
		mult := int64(1)
		for suffix, m := range map[string]int64{"KB": 1, "MB": 1024, "GB": 1024 * 1024, "TB": 1024 * 1024 * 1024} {
			if strings.HasSuffix(s, suffix) {
				s, mult = strings.TrimSpace(strings.TrimSuffix(s, suffix)), m
			}
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return v
		}
		return strconv.FormatInt(n*mult, 10)
	}
	return v
}
