-- Introspection queries whose answers depend only on the schema, not on
-- object identifiers: run on cdcdb and on PostgreSQL 15 after schema.sql,
-- their outputs must be equal (psqlmeta_test.go). Left out on purpose:
-- views' updatability (cdcdb's views are read-only), the database's name,
-- TimeZone's spelling of UTC and the minor server version.
\pset footer off
\echo pg_catalog column sets
SELECT c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod),
       CASE WHEN c.relkind = 'r' THEN a.attnotnull END AS notnull, (SELECT collname FROM pg_collation WHERE oid = a.attcollation) AS coll
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
WHERE c.relnamespace = 'pg_catalog'::regnamespace AND a.attnum > 0
  AND c.relname IN ('pg_namespace', 'pg_class', 'pg_attribute', 'pg_type', 'pg_attrdef', 'pg_constraint',
    'pg_index', 'pg_description', 'pg_database', 'pg_am', 'pg_proc', 'pg_roles', 'pg_user', 'pg_authid',
    'pg_settings', 'pg_enum', 'pg_range', 'pg_collation', 'pg_tablespace', 'pg_inherits', 'pg_depend',
    'pg_sequence', 'pg_tables', 'pg_views', 'pg_matviews', 'pg_indexes', 'pg_stat_user_tables',
    'pg_extension', 'pg_foreign_table')
ORDER BY 1, 2;
\echo information_schema column sets
SELECT c.relname, a.attnum, a.attname
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
WHERE c.relnamespace = 'information_schema'::regnamespace AND a.attnum > 0
  AND c.relname IN ('tables', 'columns', 'table_constraints', 'key_column_usage', 'schemata', 'views')
ORDER BY 1, 2;
\echo relations
SELECT n.nspname, c.relname, c.relkind, c.relnatts, c.relhasindex, c.relchecks, c.relpersistence,
       c.relam = 0 AS no_am, pg_get_userbyid(c.relowner) = current_user AS owned
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname IN ('public', 's') ORDER BY 1, 2;
\echo columns
SELECT c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, a.atthasdef,
       a.attlen, a.attalign, a.attstorage, a.attndims, a.attcollation <> 0 AS collatable,
       pg_get_expr(d.adbin, d.adrelid), col_description(c.oid, a.attnum)
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE n.nspname IN ('public', 's') AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY 1, 2;
\echo indexes
SELECT c.relname AS tab, i.relname AS idx, x.indisunique, x.indisprimary, x.indnatts, x.indkey::text,
       x.indoption::text, x.indkey[0] AS first_key, pg_get_indexdef(x.indexrelid), pg_get_indexdef(x.indexrelid, 1, true),
       (SELECT string_agg(opcname, ',') FROM pg_opclass o WHERE o.oid = ANY (x.indclass)) AS opclasses
FROM pg_index x JOIN pg_class c ON c.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ('public', 's') ORDER BY 1, 2;
\echo constraints
SELECT conrelid::regclass::text, conname, contype, conkey::text, pg_get_constraintdef(oid),
       conindid::regclass::text
FROM pg_constraint WHERE connamespace IN ('public'::regnamespace, 's'::regnamespace) ORDER BY 1, 2;
\echo types and casts
SELECT 'customers'::regclass, 's.src'::regclass, 'int4'::regtype, 'character varying'::regtype,
       'pg_catalog'::regnamespace, 'now'::regproc, '25'::oid::regtype, 'customers'::regclass::oid = (SELECT oid FROM pg_class WHERE relname = 'customers'),
       format_type('numeric'::regtype, 786438), format_type(1043, NULL), to_regclass('nope'), to_regtype('text');
\echo descriptions and functions
SELECT obj_description('customers'::regclass, 'pg_class'), obj_description('public'::regnamespace, 'pg_namespace'),
       obj_description('now'::regproc, 'pg_proc'), col_description('customers'::regclass, 3),
       pg_table_is_visible('customers'::regclass), pg_table_is_visible('s.src'::regclass),
       has_table_privilege('customers', 'SELECT'), has_schema_privilege('s', 'USAGE, CREATE'),
       current_schemas(true), current_schemas(false), pg_encoding_to_char(6), pg_char_to_encoding('UTF8'),
       pg_is_in_recovery(), quote_ident('customers'), quote_ident('Mixed Case'), quote_ident('select'),
       array_to_string(ARRAY[1, NULL, 3], '-'), array_to_string(ARRAY[1, NULL, 3], '-', '?'),
       pg_get_function_result('now'::regproc), pg_get_function_arguments('pg_table_is_visible'::regproc),
       pg_size_pretty(123456789::bigint), pg_get_userbyid(10) = current_user;
\echo system views
SELECT schemaname, tablename, tableowner = current_user, hasindexes FROM pg_tables WHERE schemaname IN ('public', 's') ORDER BY 1, 2;
SELECT schemaname, viewname FROM pg_views WHERE schemaname = 'public' ORDER BY 1, 2;
SELECT schemaname, tablename, indexname, indexdef FROM pg_indexes WHERE schemaname IN ('public', 's') ORDER BY 1, 3;
SELECT schemaname, relname FROM pg_stat_user_tables ORDER BY 1, 2;
SELECT rolname, rolsuper, rolcanlogin FROM pg_roles WHERE rolname = current_user;
SELECT usename = current_user, usesuper FROM pg_user;
SELECT name, setting, vartype, context FROM pg_settings WHERE name IN ('search_path', 'integer_datetimes', 'max_identifier_length', 'client_min_messages') ORDER BY 1;
SELECT amname, amtype FROM pg_am ORDER BY 1;
SELECT count(*) > 0 FROM pg_collation WHERE collname = 'C';
SELECT spcname FROM pg_tablespace ORDER BY 1;
SELECT pg_encoding_to_char(encoding), datcollate, datctype, datistemplate, datallowconn FROM pg_database WHERE datname = current_database();
\echo information_schema
SELECT table_schema, table_name, table_type, CASE table_type WHEN 'BASE TABLE' THEN is_insertable_into END FROM information_schema.tables WHERE table_schema IN ('public', 's') ORDER BY 1, 2;
SELECT table_schema, table_name, column_name, ordinal_position, column_default, is_nullable, data_type,
       character_maximum_length, character_octet_length, numeric_precision, numeric_precision_radix, numeric_scale,
       datetime_precision, udt_name
FROM information_schema.columns WHERE table_schema IN ('public', 's') ORDER BY 1, 2, 4;
SELECT constraint_schema, table_name, constraint_type, is_deferrable, initially_deferred,
       CASE WHEN constraint_name LIKE '%_not_null' THEN 'NOT NULL' ELSE constraint_name END
FROM information_schema.table_constraints WHERE table_schema IN ('public', 's') ORDER BY 2, 3, 6;
SELECT constraint_name, table_name, column_name, ordinal_position FROM information_schema.key_column_usage
WHERE table_schema IN ('public', 's') ORDER BY 1, 4;
SELECT schema_name FROM information_schema.schemata WHERE schema_name IN ('public', 's', 'pg_catalog', 'information_schema') ORDER BY 1;
SELECT table_name, check_option FROM information_schema.views WHERE table_schema = 'public';
