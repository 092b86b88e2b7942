// Package builtins holds PostgreSQL's built-in functions that compute from
// their arguments alone: mathematics, numeric, strings and text, regular
// expressions, bytea, date and time, to_char/to_number, formatting, JSON
// and arrays, and the set-returning functions among them (unnest,
// json_each, regexp_matches, ...). Each is declared with how it resolves
// its arguments (Signature for fixed types, a Resolve function otherwise)
// and how it computes (Call, or Gen for a set).
//
// What it owns: the registries Funcs and SetFuncs, filled at start-up
// through Register and RegisterSet, which refuse a name registered twice.
// What it must not do: read the session, the transaction or the catalog.
// A function sees eval.Context (time zone, now(), cancellation, the text
// form of a value) and its resolver sees eval.Binder (coercion of an
// argument). The functions that do read the session register here too:
// pg_catalog's functions from package sql/catalogviews, sequences,
// pg_stat_activity, backups, cursors and settings from package sql; each
// reaches its statement through the context it is given.
//
// How data passes: the binder in sql looks a call's name up in Funcs or
// SetFuncs, resolves it (Overloads are chosen as PostgreSQL chooses) and
// builds an eval.FuncCall; executors call Call with argument values.
//
// Files: registry.go (Func, SetFunc, the registries), one file per family
// of functions (math.go, numeric.go, string.go, text.go, regexp.go,
// bytes.go, datetime.go, tochar.go, tochar_number.go, tonumber.go,
// format.go, json.go, json_insert.go, array.go, array_bounds.go,
// width_bucket.go, parse_ident.go, clock.go for now() and its kin,
// system.go for gen_random_uuid and pg_typeof).
package builtins
