// Package settings owns cdcdb's run-time parameters (PostgreSQL's GUCs) as
// data: which parameters exist, their values, and how a transaction block
// scopes their changes.
//
// # What it owns
//
// The registry of parameter definitions (Def: canonical name, default,
// whether it is reported to the client in ParameterStatus, its context
// (user, superuser, backend, sighup, postmaster, internal),
// a view of the transaction's modes, unit, description as SHOW ALL and
// pg_settings show it). Define refuses a name defined twice. Validating a
// value SET gives a parameter and returning its canonical form, with
// PostgreSQL's errors: 42704 for an unknown parameter (Unrecognized),
// 55P02 for one its Context keeps from SET (CannotChange), 22023 for a bad value.
// How pg_settings describes each parameter (Def.Describe): PostgreSQL's
// context, category, type, bounds and help texts from package pgdefs, the
// value, default and reset value in the parameter's unit, the source.
// Integer parameters (Def.Integer) take a number, with a unit of their
// base unit's kind where they have one ('4MB', '1.5s', case-sensitive as
// in PostgreSQL), rounded and checked against Min..Max, and SHOW shows
// them in the largest unit that holds them whole ('8192' shows as '8MB').
// Reading values that carry a unit (ParseDuration), a time zone
// (LoadLocation), a search path (SplitSearchPath), client_min_messages'
// ranking (SendsNotice). The scope rules of SET, SET LOCAL, commit,
// rollback and rollback to a savepoint, as a block's record of its changes
// (Changes) and the values they leave (AtEnd, RolledBack).
//
// # What it must not do
//
// It knows no session: it never imports cdcdb/sql and does no I/O. It
// holds no value of any session; package sql keeps each session's values
// (a map by lower-case name), applies what a parameter does (the session's
// time zone, search path, timeouts, dialect, transaction modes), runs SET,
// SHOW and RESET, and turns Descriptions into pg_settings' rows.
//
// # How data passes
//
// Package sql defines its own parameters with Define from its init
// functions (those whose default is cdcdb's: server_version,
// cdcdb.dialect, role, ...), looks a name up with Lookup (lower case),
// validates with Def.Check and stores the canonical value. While a block
// is open, every assignment is recorded with Changes.Record; at the
// block's end the session stores Changes.AtEnd(commit); a savepoint keeps
// a copy of the session's values and Changes.Clone, and a rollback to it
// stores RolledBack(current, saved).
//
// # Files
//
//	registry.go  Def, Define, Lookup, All, Names, Check; PostgreSQL's parameters
//	values.go    the other normalizers, LoadLocation, SplitSearchPath, SendsNotice
//	units.go     integers with units: parsing, bounds, SHOW's form; ParseDuration
//	describe.go  Describe: a parameter as pg_settings shows it
//	scope.go     Changes: SET, SET LOCAL, commit, rollback, savepoints
package settings
