// Package builtins holds PostgreSQL's built-in functions that compute from
// their arguments alone: mathematics, numeric, strings and text, regular
// expressions, bytea, date and time, to_char/to_number, formatting, JSON
// and arrays, and the set-returning functions among them (unnest,
// json_each, regexp_matches, ...); the aggregates (their resolution and
// their states: count, sum, avg, min/max, bool_and, string_agg, array_agg,
// the JSON, statistical, bitwise and ordered-set aggregates); and the
// window-only functions (row_number, rank, ..., lag/lead, nth_value). Each
// is declared with how it resolves its arguments (Signature for fixed
// types, a Resolve function otherwise) and how it computes (Call, Gen for
// a set, an AggState for an aggregate, Compute over a Partition for a
// window function).
//
// What it owns: the registries Funcs, SetFuncs, Aggregates and
// WindowFuncs, filled at start-up through Register, RegisterSet,
// RegisterAggregate and RegisterWindow, which refuse a name registered
// twice. What it does not own: the operators that feed rows to aggregate
// states and window functions (grouping, GROUPING SETS, aggregate DISTINCT
// and ORDER BY, sorting into partitions, window frames), which are package
// sql's plan nodes (agg.go, grouping.go, window.go).
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
// builds an eval.FuncCall; executors call Call with argument values. An
// aggregate call resolves to an AggCall whose NewState sql's aggregate
// and window operators call per group or frame, feeding Add each row's
// arguments (sorted or made distinct first when the call asks) and
// reading Result. A window-only function computes each row's value from
// the Partition the window operator gives it: peer groups, the row's
// frame, and its arguments evaluated over any row.
//
// Files: registry.go (Func, SetFunc, the registries), one file per family
// of functions (math.go, numeric.go, string.go, text.go, regexp.go,
// bytes.go, datetime.go, tochar.go, tochar_number.go, tonumber.go,
// format.go, json.go, json_insert.go, array.go, array_bounds.go,
// width_bucket.go, parse_ident.go, clock.go for now() and its kin,
// system.go for gen_random_uuid and pg_typeof); aggregate.go (Aggregate,
// AggState, SizedState, the registry) with agg_basic.go (count, sum, avg,
// min, max, bool_*, string_agg, array_agg), agg_json.go, agg_stats.go
// (variance, stddev, corr, covar_*, regr_*, bit_*), agg_orderedset.go
// (percentile_cont/disc, mode); window.go (WindowFunc, Partition, the
// registry and the window-only functions).
package builtins
