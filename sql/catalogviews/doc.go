// Package catalogviews makes the system relations clients introspect:
// PostgreSQL 15's pg_catalog (every catalog with its real columns, its
// initial rows, and live rows for what cdcdb's catalog holds), its
// information_schema views, and cdcdb's own views (cdcdb.flows,
// cdcdb.sources, cdcdb.connections, cdcdb.storage). It also prints what the
// catalog functions print: constraint, index, view and function
// definitions, comments, type and relation names as PostgreSQL spells them.
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
// session's Names). The builtins themselves (their signatures, their
// registration) are package sql's: they call the exported printers.
//
// # What it must not do
//
// It never imports package sql (TestImportRules holds it to catalog,
// pgerror, source, sql/ast, sql/parse, sql/pgdefs, storage and types of
// the module): it does not plan, bind or evaluate SQL and does not see
// transactions or sessions, only the Session interface it declares. Its
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
// an expression's output name, a walk over an expression, a type name
// resolved. Live pg_catalog rows are cached per committed catalog
// snapshot and user (pgCatalogTable.rows); inside a transaction that
// changed the catalog they are made again on each read. Package sql's
// reg* casts call RegIn and RegOut with the session's Names (search path,
// temporary schema), and the running statement's Session when there is
// one (sql/pgcatalog_reg.go).
//
// # File map
//
//	session.go              the Session interface package sql implements
//	relations.go            Relation, the registry (Lookup), system views' queries
//	pgcatalog.go            pg_catalog's catalogs: initial rows, live-row cache, RowBuilder
//	pgcatalog_live.go       live rows: pg_namespace, pg_class, pg_attribute, pg_type, pg_constraint, ...
//	pgcatalog_seq.go        serial columns' sequences as relations (pg_sequence, pg_depend)
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
package catalogviews
