package sql

import (
	"sort"
	"strings"

	"cdcdb/pgerror"
	"cdcdb/sql/settings"
	"cdcdb/wire"
)

// Run-time parameters are transactional (package settings keeps a block's
// record of its changes: settings.Changes). Statements that set parameters
// outside BEGIN run in the implicit block of their Query or batch, so an
// error later in it undoes them too. Parameters PostgreSQL reports to the
// client are reported once, before the next ReadyForQuery, with the value
// they have then (ParameterChanges).

// assignSetting gives a parameter its (validated) value: for the session,
// or with local until the current block ends. Outside any block (startup
// options, a redone COPY's settings) it is the session's value at once.
func (s *Session) assignSetting(ln, value string, local bool) {
	if b := s.block; b != nil {
		b.settings.Record(ln, s.settings[ln], value, local)
	}
	s.putSetting(ln, value)
}

// putSetting stores a parameter's value and what the session derives from
// it.
func (s *Session) putSetting(ln, value string) {
	s.settings[ln] = value
	if ln == "timezone" {
		if loc, err := settings.LoadLocation(value); err == nil {
			s.loc = loc
		}
	}
}

// endSettings undoes what a block that is ending did to parameters: a
// commit keeps the values set by SET, a rollback restores every one.
func (s *Session) endSettings(b *txBlock, commit bool) {
	for ln, v := range b.settings.AtEnd(commit) {
		s.putSetting(ln, v)
	}
	b.settings = nil
}

// rollbackSettings restores the parameters to their values at savepoint
// sp, and the block's record of changes to what it was then.
func (s *Session) rollbackSettings(b *txBlock, sp *savepoint) {
	for ln, v := range settings.RolledBack(s.settings, sp.settings) {
		s.putSetting(ln, v)
	}
	b.settings = sp.changes.Clone()
}

// setLocalOutsideBlock is PostgreSQL's warning for SET LOCAL where no
// transaction block is open: it changes nothing.
var setLocalOutsideBlock = &wire.NoticeInfo{Severity: "WARNING", Code: pgerror.NoActiveSQLTransaction,
	Message: "SET LOCAL can only be used in transaction blocks"}

// localSettingsApply reports whether SET LOCAL (and SET TRANSACTION) has a
// transaction to last for: an explicit block, or the implicit block of a
// simple Query with several statements, which PostgreSQL runs as one
// transaction block. A single statement outside BEGIN is a transaction of
// its own, which ends with the SET.
func (s *Session) localSettingsApply() bool {
	return s.block != nil && (!s.block.implicit || s.block.multiStatement)
}

// ParameterChanges implements wire.ParameterReporter: the reported
// parameters whose value differs from what the client was last told.
func (s *Session) ParameterChanges() []wire.Parameter {
	var out []wire.Parameter
	for ln, d := range settings.All() {
		if !d.Report {
			continue
		}
		if v := s.settings[ln]; v != s.reported[ln] {
			s.reported[ln] = v
			out = append(out, wire.Parameter{Name: d.Name, Value: v})
		}
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out
}

// SendsNotice implements wire.NoticeFilter: client_min_messages.
func (s *Session) SendsNotice(severity string) bool {
	return settings.SendsNotice(s.settings["client_min_messages"], severity)
}
