package settings

import "cdcdb/sql/pgdefs"

// Description is a parameter as pg_settings shows it (one row of
// pg_show_all_settings()); "" stands for NULL in the columns that may be.
type Description struct {
	Name, Setting, Unit, Category, ShortDesc, ExtraDesc, Context, VarType, Source string
	Min, Max, BootVal, ResetVal                                                   string
}

// Describe is the parameter as pg_settings shows it, with value its
// current value in a session and reset what RESET returns it to there.
// Context, category, type, bounds and help texts are PostgreSQL's
// (postgres --describe-config, package pgdefs); the parameters it leaves
// out (the internal ones, cdcdb's own) are described from the definition.
// Values with a unit are shown as numbers of it. Enum values are not
// described (describe-config does not list them): enumvals stays NULL.
func (d *Def) Describe(value, reset string) Description {
	desc, known := pgdefs.SettingByName(d.Name)
	if !known {
		desc = pgdefs.Setting{Context: d.Context.String(), Category: "Customized Options", VarType: varType(d.Default),
			ShortDesc: d.Desc}
		if d.Context == ContextInternal {
			desc.Category = "Preset Options"
		}
	}
	boot := d.Default
	if d.Unit != "" {
		value, boot, reset = inUnit(value, d.Unit), inUnit(boot, d.Unit), inUnit(reset, d.Unit)
	}
	source := "default"
	switch {
	case desc.Context == "internal":
		source = "override"
	case value != reset:
		source = "session"
	case reset != boot:
		source = "command line" // a server-wide default, as postgres -c
	}
	return Description{Name: d.Name, Setting: value, Unit: d.Unit, Category: desc.Category, ShortDesc: desc.ShortDesc,
		ExtraDesc: desc.ExtraDesc, Context: desc.Context, VarType: desc.VarType, Source: source,
		Min: desc.Min, Max: desc.Max, BootVal: boot, ResetVal: reset}
}
