package sql

import (
	"sort"
	"strings"

	"cdcdb/pgerror"
	"cdcdb/wire"
)

// Run-time parameters are transactional, as in PostgreSQL: a SET inside a
// transaction block is undone if the block rolls back (or fails), SET LOCAL
// and set_config(name, value, true) last until the block ends, whichever
// way, and a SET after a SET LOCAL of the same parameter is what the commit
// keeps. Statements that set parameters outside BEGIN run in the implicit
// block of their Query or batch, so an error later in it undoes them too.
// Parameters PostgreSQL reports to the client are reported once, before the
// next ReadyForQuery, with the value they have then (ParameterChanges).

// settingChange is what a block did to one parameter.
type settingChange struct {
	// before is the value the parameter had when the block first changed
	// it: what a rollback restores.
	before string
	// session is the value a SET (not LOCAL) in the block gave it, which
	// a commit keeps (sessionSet); a commit of a block that only SET
	// LOCAL restores before.
	session    string
	sessionSet bool
}

// settingChanges are the parameters a block changed, by lower-case name.
type settingChanges map[string]*settingChange

// assignSetting gives a parameter its (validated) value: for the session,
// or with local until the current block ends. Outside any block (startup
// options, a redone COPY's settings) it is the session's value at once.
func (s *Session) assignSetting(ln, value string, local bool) {
	if b := s.block; b != nil {
		ch := b.settings[ln]
		if ch == nil {
			if b.settings == nil {
				b.settings = settingChanges{}
			}
			ch = &settingChange{before: s.settings[ln]}
			b.settings[ln] = ch
		}
		if !local {
			ch.session, ch.sessionSet = value, true
		}
	}
	s.putSetting(ln, value)
}

// putSetting stores a parameter's value and what the session derives from
// it.
func (s *Session) putSetting(ln, value string) {
	s.settings[ln] = value
	if ln == "timezone" {
		if loc, err := loadLocation(value); err == nil {
			s.loc = loc
		}
	}
}

// endSettings undoes what a block that is ending did to parameters: a
// commit keeps the values set by SET, a rollback restores every one.
func (s *Session) endSettings(b *txBlock, commit bool) {
	for ln, ch := range b.settings {
		v := ch.before
		if commit && ch.sessionSet {
			v = ch.session
		}
		s.putSetting(ln, v)
	}
	b.settings = nil
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
	for ln, d := range settingDefs {
		if !d.report {
			continue
		}
		if v := s.settings[ln]; v != s.reported[ln] {
			s.reported[ln] = v
			out = append(out, wire.Parameter{Name: d.name, Value: v})
		}
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out
}

// noticeRanks orders client_min_messages' levels and the severities of
// notices, as PostgreSQL does: a notice is sent when its severity ranks at
// or above the setting. INFO is always sent.
var noticeRanks = map[string]int{
	"debug5": 0, "debug4": 1, "debug3": 2, "debug2": 3, "debug1": 4,
	"log": 5, "notice": 6, "warning": 7, "error": 8,
}

// SendsNotice implements wire.NoticeFilter: client_min_messages.
func (s *Session) SendsNotice(severity string) bool {
	if severity == "INFO" {
		return true
	}
	min, ok := noticeRanks[s.settings["client_min_messages"]]
	rank, known := noticeRanks[strings.ToLower(severity)]
	return !ok || !known || rank >= min
}
