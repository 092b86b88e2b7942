\l main
\dn s
\dt
\dt s.*
\d
\d customers
\d+ customers
\d orders
\d+ orders
\d s.tgt
\d tags
\d tags_id_seq
\ds
\d+ s.tgt
\di
\dv
\d big_customers
\d+ big_customers
\du
\df lower
\sf now
\db
\d pg_catalog.pg_class
\d pg_am_name_index
\d information_schema.tables
\dD information_schema.*
\x
SELECT id, name, active FROM customers ORDER BY id;
\x
\copy orders (id, customer_id, placed, note) from stdin
10	1	2024-02-01	first
11	2	\N	\N
\.
\copy (SELECT id, customer_id, placed, note FROM orders ORDER BY id) to stdout
\copy customers (id, name) to stdout with (format csv, header)
\timing on
SELECT count(*) AS orders FROM orders;
\timing off
