// Package catalogviews makes the system relations clients introspect:
// PostgreSQL 15's pg_catalog (every catalog with its real columns, its
// initial rows, and live rows for what cdcdb's catalog holds), its
// information_schema views, and cdcdb's own views (cdcdb.flows,
// cdcdb.sources, cdcdb.connections, cdcdb.storage). It also holds
// PostgreSQL's system information and catalog functions (pg_get_*def,
// format_type, obj_description, pg_table_is_visible and the other
// visibility tests, has_*_privilege, pg_*_size, the pg_stat_get_*
// counters, pg_options_to_table, pg_get_keywords, _pg_expandarray,
// version(), current_schema(), current_user, ...), which print constraint,
// index, view and function definitions, comments, type and relation names
// as PostgreSQL spells them.
//
// # What it owns
//
// The registry of system relations (Lookup), each relation's columns and
// the rows it makes for one statement (Relation.Rows), the system views'
// defining SQL (ViewSelect, from PostgreSQL's system_views.sql through
// package pgdefs), the OIDs cdcdb gives what its catalog keeps without one
// (a serial's sequence, a column default, the information_schema domains),
// and the printers behind pg_get_constraintdef, pg_get_indexdef,
// pg_get_viewdef, pg_get_expr, format_type, obj_description and
// pg_get_functiondef, and the reg* types' names (RegIn, RegOut, through a
// session's Names). The catalog functions are registered into package
// builtins' registry by this package's init functions (funcs*.go), with
// their signatures; the functions that need package sql's executor
// (nextval and setval, pg_stat_activity, backups, cursors, notifications,
// locks, pg_cancel_backend, settings) stay there.
//
// # What it must not do
//
// It never imports package sql (TestImportRules holds it to catalog,
// pgerror, source, sql/ast, sql/builtins, sql/eval, sql/parse, sql/pgdefs,
// storage and types of the module): it does not plan or bind SQL and does
// not see transactions or sessions, only the Session interface it
// declares. It uses sql/eval only for what a function is handed (its
// arguments, eval.Context) and sql/builtins only to register functions. Its
// registries are filled by init functions and read-only after. Rows it
// hands out may be a cache shared by concurrent statements; its callers
// copy before changing them.
//
// # How data passes
//
// Package sql plans a reference to a system table as a scan that calls
// Relation.Rows with a Session (sql/catalogviews_session.go implements it
// over the running statement); a system view (Relation.Query) it plans from
// ViewSelect's query like a user view. Session gives the views the
// statement's catalog snapshot and storage transaction, the session's user,
// role rules and search path, and the few answers only the planner has: a
// system view's output columns, a table looked up as the statement would,
// the relations a view reads,
// an expression's output name, a walk over an expression, a type name
// resolved. Live pg_catalog rows are cached per committed catalog
// snapshot and user (pgCatalogTable.rows); inside a transaction that
// changed the catalog they are made again on each read. Package sql's
// reg* casts call RegIn and RegOut with the session's Names (search path,
// temporary schema), and the running statement's Session when there is
// one (sql/pgcatalog_reg.go).
//
// A catalog function is called with the statement's eval.Context, which
// package sql's running statement implements as a Statement: its
// CatalogViewSession is the same Session the views read. For the
// functions, Session answers besides: the session user and backend PID
// (session_user, pg_backend_pid), has_table_privilege,
// has_schema_privilege and pg_has_role from the session's roles and
// grants, and a serial sequence's last value (pg_sequence_last_value). A
// reg* name in an argument is resolved by eval.Context.ParseRegValue.
//
// # File map
//
//	session.go              the Session interface package sql implements
//	relations.go            Relation, the registry (Lookup), system views' queries
//	pgcatalog.go            pg_catalog's catalogs: initial rows, live-row cache, RowBuilder
//	pgcatalog_live.go       live rows: pg_namespace, pg_class, pg_attribute, pg_type, pg_constraint, ...
//	pgcatalog_seq.go        serial columns' sequences as relations (pg_sequence, pg_depend)
//	sequences_free.go       free-standing and identity sequences: definition, owner, dependencies
//	exprindex.go            expression and partial indexes: pg_class, pg_index, pg_get_indexdef
//	viewrules.go            each view's _RETURN rule (pg_rewrite) and what it depends on
//	pgcatalog_sysindex.go   the catalogs' own indexes and keys
//	pgcatalog_extension.go  schema cdcdb as the built-in extension cdcdb (so pg_dump skips it)
//	pgcatalog_exprtext.go   column defaults printed as pg_get_expr prints them
//	pgcatalog_ruleutils.go  CHECK expressions and view queries printed as ruleutils does
//	infoschema.go           information_schema's views
//	infoschema_domains.go   information_schema's domains (cardinal_number, yes_or_no, ...)
//	sysviews.go             cdcdb.flows, cdcdb.storage, cdcdb.sources, cdcdb.connections
//	definitions.go          names, visibility and definitions the catalog functions print
//	reg.go                  regclass, regtype, regproc, ... read and printed (RegIn, RegOut)
//	static.go               lookups in PostgreSQL's initial rows (pg_type, pg_proc, ...)
//	quote.go                identifiers and literals quoted as PostgreSQL quotes them
//	funcs.go                Statement, how a catalog function reaches its Session
//	funcs_catalog.go        names, visibility, definitions, comments, encodings, to_reg*
//	funcs_privileges.go     has_*_privilege and pg_has_role
//	funcs_size.go           pg_relation_size and friends, pg_size_pretty
//	funcs_stats.go          the pg_stat_get_* counters, pg_sequence_last_value
//	funcs_system.go         version(), current_schema(s), current_user, session_user, ...
//	funcs_dump.go           acldefault, pg_options_to_table, serial defaults for pg_get_expr
//	funcs_tablefunc.go      _pg_expandarray, pg_get_keywords, pg_partition_ancestors, ProcOutColumns
package catalogviews
