package sql

import (
	"strconv"

	"cdcdb/pgerror"
	"cdcdb/sql/catalogviews"
	"cdcdb/sql/parse"
	"cdcdb/sql/settings"
)

// The run-time parameters (GUC) are defined, validated and scoped by
// package settings; what a parameter does to the session (its time zone,
// search path, timeouts, dialect, transaction modes) is applied here.

// settingDefault is what a session starts with and RESET returns to: the
// server's default when it sets one (Options.Settings), else the built-in
// one.
func (e *Engine) settingDefault(ln string, d *settings.Def) string {
	if v, ok := e.settingDefaults[ln]; ok {
		return v
	}
	return d.Default
}

// The parameters whose value is cdcdb's own rather than PostgreSQL's.
func init() {
	settings.Define(&settings.Def{Name: "server_version", Default: catalogviews.ServerVersion, Report: true, Context: settings.ContextInternal, Desc: "Shows the server version."})
	settings.Define(&settings.Def{Name: "server_version_num", Default: catalogviews.ServerVersionNum, Context: settings.ContextInternal, Desc: "Shows the server version as an integer."})
	settings.Define(&settings.Def{Name: "cdcdb.dialect", Default: parse.DialectPostgres.String(), Normalize: settings.OneOf(dialectNames()...),
		Desc: "SQL dialect of this session: postgres or databricks."})
	settings.Define(&settings.Def{Name: "max_index_keys", Default: strconv.Itoa(maxIndexKeys), Context: settings.ContextInternal,
		Desc: "Shows the maximum number of index keys."})
}

// checkSettingPrivilege refuses a parameter that only a superuser may set
// (settings.ContextSuperuser) to a session whose role is not one, with
// PostgreSQL's error.
func (s *Session) checkSettingPrivilege(d *settings.Def) error {
	if d.Context == settings.ContextSuperuser && !s.isSuperuser(s.engine.catalogSnapshot()) {
		return pgerror.New(pgerror.InsufficientPrivilege, "permission denied to set parameter \"%s\"", d.Name)
	}
	return nil
}

// dialectNames are the values cdcdb.dialect takes.
func dialectNames() []string {
	var names []string
	for _, d := range parse.Dialects() {
		names = append(names, d.String())
	}
	return names
}

// transactionSetting is how a Transaction parameter (settings.Def) shows
// and changes the current transaction's modes (txmodes.go).
type transactionSetting struct {
	show   func(s *Session) string
	assign func(s *Session, v string) error
}

var transactionSettings = map[string]transactionSetting{
	"transaction_isolation":  {show: showIsolation, assign: assignIsolation},
	"transaction_read_only":  {show: showReadOnly, assign: assignReadOnly},
	"transaction_deferrable": {show: showDeferrable, assign: assignDeferrable},
}
