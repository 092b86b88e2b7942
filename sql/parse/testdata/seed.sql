-- Seed statements for FuzzParse: pgtests' PostgreSQL corpus (snapshot), client
-- and ORM queries, pgbench, AUTO CDC flows and period clauses. Statements
-- are separated by lines "-- @@@"; some are deliberately invalid.
-- @@@
CREATE TABLE sales (id int PRIMARY KEY, region text, product text, qty int, price numeric(8,2), sold date, ok boolean)
-- @@@
INSERT INTO sales VALUES (1, 'north', 'apple', 10, 1.50, '2024-01-05', true), (2, 'north', 'pear', 5, 2.00, '2024-01-20', true), (3, 'south', 'apple', 7, 1.40, '2024-02-02', false), (4, 'south', 'apple', 3, 1.60, '2024-02-10', true), (5, 'east', 'plum', NULL, 3.00, '2024-03-01', NULL), (6, 'north', 'apple', 2, 1.50, '2024-03-15', true)
-- @@@
SELECT region, count(*), sum(qty), avg(qty), min(price), max(price) FROM sales GROUP BY region ORDER BY region
-- @@@
SELECT count(*), count(qty), sum(qty), avg(qty)::numeric(10,4) AS avg4, sum(price), avg(price) FROM sales
-- @@@
SELECT sum(qty) FROM sales WHERE false
-- @@@
SELECT count(*) FROM sales WHERE false
-- @@@
SELECT region FROM sales GROUP BY region HAVING sum(qty) > 10 ORDER BY region
-- @@@
SELECT region, sum(qty * price) AS revenue FROM sales GROUP BY region HAVING count(*) > 1 ORDER BY revenue DESC
-- @@@
SELECT product, count(DISTINCT region) AS regions FROM sales GROUP BY product ORDER BY product
-- @@@
SELECT string_agg(product, ',' ORDER BY product) AS ps, string_agg(DISTINCT product, ';' ORDER BY product) AS dps FROM sales
-- @@@
SELECT region, string_agg(product, '+' ORDER BY id DESC) FROM sales GROUP BY region ORDER BY region
-- @@@
SELECT array_agg(id ORDER BY id DESC) AS ids, array_agg(DISTINCT region ORDER BY region) AS regions FROM sales
-- @@@
SELECT array_agg(qty ORDER BY id) FROM sales
-- @@@
SELECT count(*) FILTER (WHERE ok) AS good, count(*) FILTER (WHERE NOT ok) AS bad, sum(qty) FILTER (WHERE region = 'north') AS north FROM sales
-- @@@
SELECT bool_and(ok) AS all_ok, bool_or(ok) AS any_ok, every(qty > 1) AS e FROM sales
-- @@@
SELECT region, bool_and(ok) FROM sales GROUP BY region ORDER BY region
-- @@@
SELECT extract(month FROM sold) AS m, count(*) FROM sales GROUP BY 1 ORDER BY 1
-- @@@
SELECT date_trunc('month', sold) AS month, sum(qty) FROM sales GROUP BY date_trunc('month', sold) ORDER BY month
-- @@@
SELECT region AS r, count(*) FROM sales GROUP BY r ORDER BY r
-- @@@
SELECT region, product, sum(qty) FROM sales GROUP BY region, product ORDER BY region, product
-- @@@
SELECT qty % 2 AS parity, count(*) FROM sales GROUP BY qty % 2 ORDER BY parity NULLS LAST
-- @@@
SELECT count(*) AS n FROM sales HAVING count(*) > 100
-- @@@
SELECT 1 AS one FROM sales HAVING sum(qty) > 0
-- @@@
SELECT max(region), min(sold), max(ok::int) FROM sales
-- @@@
SELECT sum(price * qty)::numeric(10,2), avg(price)::numeric(6,3) FROM sales WHERE ok
-- @@@
SELECT avg(x) FROM (VALUES (1), (2), (2)) v(x)
-- @@@
SELECT sum(x), avg(x) FROM (VALUES (1.5::float8), (2.25)) v(x)
-- @@@
SELECT sum(x) FROM (VALUES (9223372036854775807::bigint), (1)) v(x)
-- @@@
SELECT sum(x), avg(x) FROM (VALUES (interval '1 hour'), (interval '3 hours')) v(x)
-- @@@
SELECT stddev(qty)::numeric(10,4) AS sd, variance(qty)::numeric(10,4) AS var FROM sales
-- @@@
SELECT json_agg(id ORDER BY id) AS j, jsonb_agg(region ORDER BY id) FILTER (WHERE id < 3) AS jb FROM sales
-- @@@
SELECT json_object_agg(product, qty ORDER BY product) FROM sales WHERE region = 'north' AND id < 3
-- @@@
SELECT sum(DISTINCT qty) AS sd, count(DISTINCT (region, product)) AS pairs FROM sales
-- @@@
SELECT region, count(*) FROM sales GROUP BY region HAVING region > 'm' ORDER BY 1
-- @@@
SELECT count(*) + 1 AS c, sum(qty) / count(qty) AS avg_int FROM sales
-- @@@
SELECT region, max(qty) - min(qty) AS spread FROM sales GROUP BY region ORDER BY spread DESC NULLS LAST, region
-- @@@
SELECT sum(qty) OVER () FROM sales WHERE false
-- @@@
SELECT product FROM sales GROUP BY product ORDER BY count(*) DESC, product
-- @@@
SELECT region, product FROM sales GROUP BY region
-- @@@
SELECT sum(count(*)) FROM sales
-- @@@
SELECT sum('a') FROM sales
-- @@@
SELECT string_agg(id, ',') FROM sales
-- @@@
SELECT count(*) FROM sales GROUP BY ()
-- @@@
SELECT avg(DISTINCT qty)::numeric(10,3), min(DISTINCT region) FROM sales
-- @@@
SELECT region, array_agg(qty ORDER BY qty NULLS FIRST) FROM sales GROUP BY region ORDER BY region
-- @@@
CREATE TABLE parent (id int PRIMARY KEY, code text UNIQUE NOT NULL, rank int CHECK (rank BETWEEN 1 AND 10) DEFAULT 5)
-- @@@
INSERT INTO parent (id, code) VALUES (1, 'a') RETURNING rank
-- @@@
INSERT INTO parent VALUES (2, 'b', 10), (3, 'c', 1)
-- @@@
INSERT INTO parent VALUES (1, 'z', 1)
-- @@@
INSERT INTO parent VALUES (4, 'a', 1)
-- @@@
INSERT INTO parent VALUES (NULL, 'n', 1)
-- @@@
INSERT INTO parent VALUES (5, NULL, 1)
-- @@@
INSERT INTO parent VALUES (6, 'f', 11)
-- @@@
INSERT INTO parent VALUES (6, 'f', NULL) RETURNING rank
-- @@@
UPDATE parent SET code = 'b' WHERE id = 1
-- @@@
UPDATE parent SET id = 2 WHERE id = 1
-- @@@
UPDATE parent SET rank = 0 WHERE id = 1
-- @@@
UPDATE parent SET id = id + 10 RETURNING id
-- @@@
CREATE TABLE multi (a int, b int, c text, PRIMARY KEY (a, b), CONSTRAINT c_not_empty CHECK (c <> ''), UNIQUE (c))
-- @@@
INSERT INTO multi VALUES (1, 1, 'x'), (1, 2, 'y'), (2, 1, NULL), (3, 1, NULL)
-- @@@
INSERT INTO multi VALUES (1, 1, 'z')
-- @@@
INSERT INTO multi VALUES (9, 9, '')
-- @@@
INSERT INTO multi VALUES (9, 9, 'x')
-- @@@
SELECT * FROM multi ORDER BY a, b
-- @@@
CREATE TABLE defaults (id int, made timestamptz DEFAULT now(), tag text DEFAULT 'none', n int DEFAULT 1 + 2, flag bool DEFAULT false)
-- @@@
INSERT INTO defaults (id) VALUES (1) RETURNING made IS NOT NULL AS has_time, tag, n, flag
-- @@@
INSERT INTO defaults VALUES (2, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING tag, n
-- @@@
CREATE TABLE bad_default (x int DEFAULT 'abc')
-- @@@
CREATE TABLE bad_default (x int DEFAULT y)
-- @@@
CREATE TABLE checks (x int, y int, CHECK (x < y))
-- @@@
INSERT INTO checks VALUES (1, 2), (NULL, 1)
-- @@@
INSERT INTO checks VALUES (2, 1)
-- @@@
CREATE TABLE named_check (v int CONSTRAINT v_pos CHECK (v > 0))
-- @@@
INSERT INTO named_check VALUES (-1)
-- @@@
CREATE TABLE author (id int PRIMARY KEY, name text)
-- @@@
CREATE TABLE book (id int PRIMARY KEY, author_id int REFERENCES author (id), title text)
-- @@@
INSERT INTO author VALUES (1, 'tolkien'), (2, 'austen'), (3, 'unread')
-- @@@
INSERT INTO book VALUES (10, 1, 'hobbit'), (11, 1, 'lotr'), (12, 2, 'emma'), (13, NULL, 'anon')
-- @@@
INSERT INTO book VALUES (14, 99, 'ghost')
-- @@@
UPDATE book SET author_id = 98 WHERE id = 10
-- @@@
UPDATE book SET author_id = 3 WHERE id = 10 RETURNING author_id
-- @@@
DELETE FROM author WHERE id = 2
-- @@@
UPDATE author SET id = 20 WHERE id = 2
-- @@@
DELETE FROM author WHERE id = 1
-- @@@
DELETE FROM book WHERE author_id = 2
-- @@@
DELETE FROM author WHERE id = 2 RETURNING name
-- @@@
UPDATE author SET id = 30 WHERE id = 3
-- @@@
SELECT b.title, a.name FROM book b LEFT JOIN author a ON a.id = b.author_id ORDER BY b.id
-- @@@
CREATE TABLE chapter (book_id int REFERENCES book ON DELETE CASCADE, n int, PRIMARY KEY (book_id, n))
-- @@@
INSERT INTO chapter VALUES (11, 1), (11, 2), (12, 1)
-- @@@
DELETE FROM book WHERE id = 11
-- @@@
SELECT * FROM chapter ORDER BY book_id, n
-- @@@
CREATE TABLE review (id int PRIMARY KEY, book_id int, stars int, FOREIGN KEY (book_id) REFERENCES book (id) ON DELETE SET NULL ON UPDATE CASCADE)
-- @@@
INSERT INTO review VALUES (1, 12, 5), (2, 13, 3)
-- @@@
UPDATE book SET id = 120 WHERE id = 12
-- @@@
SELECT * FROM review ORDER BY id
-- @@@
DELETE FROM book WHERE id = 13
-- @@@
SELECT * FROM review ORDER BY id
-- @@@
CREATE TABLE pair_parent (a int, b int, PRIMARY KEY (a, b))
-- @@@
CREATE TABLE pair_child (x int, y int, CONSTRAINT pc_fk FOREIGN KEY (x, y) REFERENCES pair_parent (a, b))
-- @@@
INSERT INTO pair_parent VALUES (1, 1)
-- @@@
INSERT INTO pair_child VALUES (1, 1), (1, NULL), (NULL, 5)
-- @@@
INSERT INTO pair_child VALUES (1, 2)
-- @@@
CREATE TABLE bad_fk (x int REFERENCES nosuch)
-- @@@
CREATE TABLE bad_fk (x int REFERENCES author (name))
-- @@@
CREATE TABLE bad_fk (x text REFERENCES author (id))
-- @@@
ALTER TABLE book ADD CONSTRAINT title_fk FOREIGN KEY (title) REFERENCES author (name)
-- @@@
ALTER TABLE review ADD CONSTRAINT stars_fk FOREIGN KEY (stars) REFERENCES author (id)
-- @@@
DELETE FROM review WHERE stars = 5
-- @@@
ALTER TABLE review ADD CONSTRAINT stars_fk FOREIGN KEY (stars) REFERENCES author (id)
-- @@@
INSERT INTO review VALUES (5, NULL, 2)
-- @@@
DROP TABLE author
-- @@@
DROP TABLE chapter, review, pair_child
-- @@@
TRUNCATE author
-- @@@
ALTER TABLE book DROP CONSTRAINT book_author_id_fkey
-- @@@
DELETE FROM author WHERE id = 30 RETURNING id
-- @@@
CREATE TABLE t (id int PRIMARY KEY, a text, b int DEFAULT 5)
-- @@@
INSERT INTO t VALUES (1, 'x', 1), (2, 'y', DEFAULT)
-- @@@
ALTER TABLE t ADD COLUMN c text
-- @@@
ALTER TABLE t ADD COLUMN d int NOT NULL DEFAULT 0
-- @@@
ALTER TABLE t ADD COLUMN e int NOT NULL
-- @@@
ALTER TABLE t ADD COLUMN IF NOT EXISTS c text
-- @@@
ALTER TABLE t ADD COLUMN a text
-- @@@
SELECT * FROM t ORDER BY id
-- @@@
ALTER TABLE t DROP COLUMN c
-- @@@
ALTER TABLE t DROP COLUMN IF EXISTS c
-- @@@
ALTER TABLE t DROP COLUMN c
-- @@@
SELECT * FROM t ORDER BY id
-- @@@
ALTER TABLE t RENAME COLUMN a TO alpha
-- @@@
SELECT alpha FROM t ORDER BY id
-- @@@
SELECT a FROM t
-- @@@
ALTER TABLE t RENAME COLUMN nosuch TO x
-- @@@
ALTER TABLE t RENAME TO t2
-- @@@
SELECT count(*) FROM t2
-- @@@
SELECT count(*) FROM t
-- @@@
ALTER TABLE nosuch ADD COLUMN x int
-- @@@
ALTER TABLE IF EXISTS nosuch ADD COLUMN x int
-- @@@
ALTER TABLE t2 ALTER COLUMN b SET DEFAULT 42
-- @@@
INSERT INTO t2 (id, alpha) VALUES (3, 'z') RETURNING b, d
-- @@@
ALTER TABLE t2 ALTER COLUMN b DROP DEFAULT
-- @@@
INSERT INTO t2 (id) VALUES (4) RETURNING b
-- @@@
ALTER TABLE t2 ALTER COLUMN alpha SET NOT NULL
-- @@@
ALTER TABLE t2 ALTER COLUMN b SET NOT NULL
-- @@@
ALTER TABLE t2 ALTER COLUMN alpha DROP NOT NULL
-- @@@
ALTER TABLE t2 DROP COLUMN id
-- @@@
ALTER TABLE t2 ADD CONSTRAINT b_positive CHECK (b > 0)
-- @@@
DELETE FROM t2 WHERE b IS NULL
-- @@@
ALTER TABLE t2 ADD CONSTRAINT d_small CHECK (d < 10)
-- @@@
INSERT INTO t2 (id, d) VALUES (10, 11)
-- @@@
ALTER TABLE t2 DROP CONSTRAINT d_small
-- @@@
INSERT INTO t2 (id, d) VALUES (10, 11)
-- @@@
ALTER TABLE t2 DROP CONSTRAINT nosuch
-- @@@
ALTER TABLE t2 ADD CONSTRAINT alpha_uniq UNIQUE (alpha)
-- @@@
INSERT INTO t2 (id, alpha) VALUES (11, 'x')
-- @@@
SELECT id, alpha, b, d FROM t2 ORDER BY id
-- @@@
CREATE VIEW v_big AS SELECT id, alpha FROM t2 WHERE id > 1
-- @@@
SELECT * FROM v_big ORDER BY id
-- @@@
CREATE VIEW v_cols (ident, label) AS SELECT id, alpha FROM t2
-- @@@
SELECT label FROM v_cols WHERE ident = 1
-- @@@
CREATE VIEW v_big AS SELECT 1
-- @@@
CREATE OR REPLACE VIEW v_big AS SELECT id, alpha, d FROM t2 WHERE id > 2
-- @@@
SELECT * FROM v_big ORDER BY id
-- @@@
SELECT v.ident, t2.d FROM v_cols v JOIN t2 ON t2.id = v.ident ORDER BY 1
-- @@@
CREATE VIEW v_agg AS SELECT count(*) AS n, max(id) AS top FROM t2
-- @@@
SELECT * FROM v_agg
-- @@@
INSERT INTO v_agg VALUES (1, 2)
-- @@@
DROP VIEW v_agg
-- @@@
DROP VIEW v_agg
-- @@@
DROP VIEW IF EXISTS v_agg
-- @@@
DROP TABLE v_big
-- @@@
DROP VIEW t2
-- @@@
COMMENT ON TABLE t2 IS 'the table'
-- @@@
COMMENT ON COLUMN t2.alpha IS 'a letter'
-- @@@
SELECT obj_description('t2'::regclass, 'pg_class') AS t, col_description('t2'::regclass, 2) AS c
-- @@@
COMMENT ON TABLE t2 IS NULL
-- @@@
SELECT obj_description('t2'::regclass, 'pg_class') IS NULL AS cleared
-- @@@
COMMENT ON COLUMN t2.nosuch IS 'x'
-- @@@
COMMENT ON TABLE nosuch IS 'x'
-- @@@
CREATE SCHEMA app
-- @@@
CREATE TABLE app.things (id int)
-- @@@
INSERT INTO app.things VALUES (1)
-- @@@
SELECT * FROM app.things
-- @@@
SELECT * FROM things
-- @@@
SET search_path = app, public
-- @@@
SELECT * FROM things
-- @@@
RESET search_path
-- @@@
CREATE SCHEMA app
-- @@@
CREATE SCHEMA IF NOT EXISTS app
-- @@@
DROP SCHEMA app
-- @@@
DROP SCHEMA app CASCADE
-- @@@
SELECT * FROM app.things
-- @@@
CREATE TABLE gone (x int)
-- @@@
DROP TABLE gone
-- @@@
DROP TABLE gone
-- @@@
DROP TABLE IF EXISTS gone
-- @@@
DROP TABLE IF EXISTS gone, t2
-- @@@
CREATE TABLE t3 (x int, x text)
-- @@@
CREATE TABLE t3 (x nosuchtype)
-- @@@
CREATE TABLE t3 (x int PRIMARY KEY, y int PRIMARY KEY)
-- @@@
CREATE TABLE t3 (x int, PRIMARY KEY (nosuch))
-- @@@
CREATE TABLE "T3" (x int)
-- @@@
CREATE TABLE t3 (x int)
-- @@@
CREATE TABLE t3 (x int)
-- @@@
CREATE TABLE IF NOT EXISTS t3 (x int)
-- @@@
SELECT * FROM "T3", t3
-- @@@
CREATE TABLE items (id serial PRIMARY KEY, name text UNIQUE, qty int DEFAULT 1, note text)
-- @@@
INSERT INTO items (name) VALUES ('a')
-- @@@
INSERT INTO items (name, qty) VALUES ('b', 5), ('c', 7) RETURNING id, name, qty
-- @@@
INSERT INTO items (name, qty) VALUES ('d', DEFAULT) RETURNING *
-- @@@
INSERT INTO items DEFAULT VALUES RETURNING id, qty
-- @@@
INSERT INTO items (name) VALUES ('e') RETURNING id * 10 AS tenfold, upper(name)
-- @@@
INSERT INTO items (name, qty) SELECT 'copy-' || name, qty * 2 FROM items WHERE qty > 4 RETURNING name, qty
-- @@@
SELECT id, name, qty, note FROM items ORDER BY id
-- @@@
INSERT INTO items (name) VALUES ('a')
-- @@@
INSERT INTO items (id, name) VALUES (1, 'zzz')
-- @@@
INSERT INTO items (name) VALUES ('a') ON CONFLICT DO NOTHING
-- @@@
INSERT INTO items (name) VALUES ('a') ON CONFLICT (name) DO NOTHING RETURNING id
-- @@@
INSERT INTO items (id, name, qty) VALUES (2, 'b', 50) ON CONFLICT (id) DO UPDATE SET qty = EXCLUDED.qty, note = 'updated' RETURNING id, name, qty, note
-- @@@
INSERT INTO items (name, qty) VALUES ('c', 1) ON CONFLICT (name) DO UPDATE SET qty = items.qty + EXCLUDED.qty RETURNING name, qty
-- @@@
INSERT INTO items (name, qty) VALUES ('c', 1) ON CONFLICT (name) DO UPDATE SET qty = 0 WHERE items.qty > 100 RETURNING qty
-- @@@
INSERT INTO items (name, qty) VALUES ('new', 3), ('a', 9) ON CONFLICT (name) DO UPDATE SET qty = EXCLUDED.qty RETURNING name, qty
-- @@@
INSERT INTO items (name) VALUES ('q') ON CONFLICT (qty) DO NOTHING
-- @@@
INSERT INTO items (nosuch) VALUES (1)
-- @@@
INSERT INTO items (name, name) VALUES ('x', 'y')
-- @@@
INSERT INTO items (name) VALUES ('x', 'y')
-- @@@
INSERT INTO items (name, qty) VALUES ('x')
-- @@@
INSERT INTO items (qty) VALUES ('many')
-- @@@
INSERT INTO items (name) VALUES (1)
-- @@@
INSERT INTO nosuch VALUES (1)
-- @@@
UPDATE items SET qty = qty + 1 WHERE name IN ('a', 'b') RETURNING name, qty
-- @@@
UPDATE items SET note = 'n' || id WHERE qty > 6
-- @@@
UPDATE items SET qty = DEFAULT WHERE name = 'd' RETURNING qty
-- @@@
UPDATE items SET nosuch = 1
-- @@@
UPDATE items SET qty = 'x'
-- @@@
UPDATE items SET qty = 1, qty = 2
-- @@@
UPDATE items SET qty = NULL WHERE false
-- @@@
SELECT name, qty, note FROM items ORDER BY id
-- @@@
CREATE TABLE prices (name text, price numeric)
-- @@@
INSERT INTO prices VALUES ('a', 1.5), ('b', 2.5), ('zz', 9)
-- @@@
UPDATE items SET note = 'price ' || p.price FROM prices p WHERE p.name = items.name RETURNING items.name, note, p.price
-- @@@
UPDATE items i SET qty = i.qty * 10 FROM prices p WHERE p.name = i.name AND p.price > 2
-- @@@
SELECT name, qty, note FROM items WHERE name IN ('a', 'b') ORDER BY name
-- @@@
DELETE FROM items WHERE name LIKE 'copy-%' RETURNING name
-- @@@
DELETE FROM items USING prices WHERE items.name = prices.name AND prices.price < 2 RETURNING items.id, prices.price
-- @@@
DELETE FROM items i USING prices p WHERE i.name = p.name
-- @@@
SELECT name FROM items ORDER BY name
-- @@@
DELETE FROM items WHERE id = -1
-- @@@
DELETE FROM items WHERE qty > (SELECT avg(qty) FROM items) RETURNING name
-- @@@
TRUNCATE items
-- @@@
SELECT count(*) FROM items
-- @@@
TRUNCATE TABLE prices, items
-- @@@
INSERT INTO items (name) VALUES ('after-truncate') RETURNING name
-- @@@
TRUNCATE nosuch
-- @@@
CREATE TABLE snapshot AS SELECT name, qty * 2 AS dbl FROM items
-- @@@
SELECT * FROM snapshot
-- @@@
CREATE TABLE typed_copy AS SELECT 1::int2 AS s, 'x'::varchar(3) AS v, now()::date IS NOT NULL AS b
-- @@@
SELECT s, v, b, pg_typeof(s), pg_typeof(v) FROM typed_copy
-- @@@
CREATE TABLE empty_copy AS SELECT * FROM items WITH NO DATA
-- @@@
SELECT count(*) FROM empty_copy
-- @@@
CREATE TABLE renamed (a, b) AS VALUES (1, 'x'), (2, 'y')
-- @@@
SELECT a, b FROM renamed ORDER BY a
-- @@@
CREATE TABLE snapshot AS SELECT 1
-- @@@
CREATE TABLE IF NOT EXISTS snapshot AS SELECT 1
-- @@@
CREATE TABLE mix (a numeric, b text, c timestamptz)
-- @@@
INSERT INTO mix VALUES (1, 2, '2024-01-01 00:00:00+00'), (2.5, 'x', '2024-06-01 12:00:00-02')
-- @@@
SELECT a, b, c FROM mix ORDER BY a
-- @@@
INSERT INTO mix (a) SELECT generate_series(10, 12)
-- @@@
SELECT count(*), sum(a) FROM mix
-- @@@
INSERT INTO mix (a) VALUES (1) RETURNING nosuch
-- @@@
UPDATE mix SET b = upper(b) WHERE b IS NOT NULL RETURNING a, b
-- @@@
SELECT lower('ÀBC'), upper('straße'), initcap('hello wORLD-foo'), length('héllo'), octet_length('héllo'), char_length('abc')
-- @@@
SELECT substr('abcdef', 2, 3), substring('abcdef' FROM 3), substring('abcdef' FROM 2 FOR 2), substring('abcdef', 0, 3), left('abcdef', 2), right('abcdef', -2)
-- @@@
SELECT position('c' IN 'abcabc'), strpos('abcabc', 'ca'), replace('a-b-c', '-', '+'), reverse('abc'), repeat('ab', 3)
-- @@@
SELECT trim('  x  ') AS t, ltrim('xxaxx', 'x') AS l, rtrim('xxaxx', 'x') AS r, btrim('--a--', '-') AS b, trim(BOTH 'x' FROM 'xaxx') AS both_, trim(LEADING FROM '  a ') AS lead
-- @@@
SELECT lpad('7', 3, '0'), rpad('ab', 5, '*'), lpad('abcdef', 3), split_part('a,b,c', ',', 2), split_part('a,b,c', ',', 5)
-- @@@
SELECT concat('a', NULL, 1, true), concat_ws('-', 'a', NULL, 'c'), 'x' || NULL AS n
-- @@@
SELECT md5('hello'), md5(''), to_hex(255), to_hex(-1), chr(65), ascii('A')
-- @@@
SELECT format('%s and %s', 'a', 'b'), format('%I.%L', 'My Table', 'it''s'), format('[%5s][%-5s]', 'x', 'y'), format('%1$s %1$s', 'r')
-- @@@
SELECT format('%s', NULL) AS n, format('%L', NULL) AS l, format('no args') AS plain, format('%%') AS pct
-- @@@
SELECT format('%s %s', 'only one')
-- @@@
SELECT quote_ident('a b'), quote_ident('abc'), quote_literal('O''Reilly'), quote_nullable(NULL)
-- @@@
SELECT regexp_replace('hello world', 'o', '0') AS first, regexp_replace('hello world', 'o', '0', 'g') AS all_, regexp_replace('abc', '(b)', '[\1]') AS grp
-- @@@
SELECT regexp_replace('Hello', 'h', 'J', 'i') AS ci, regexp_match('foo123bar', '\d+') AS m, regexp_matches('a1b2', '\d', 'g') AS ms
-- @@@
SELECT regexp_split_to_array('a1b22c', '\d+') AS arr, string_to_array('a,b,,c', ',') AS s2a, array_to_string(ARRAY[1, NULL, 3], '-', '*') AS a2s
-- @@@
SELECT starts_with('hello', 'he'), 'abc' < 'abd' AS lt, 'a' < 'B' AS c_order, translate('hello', 'el', 'ip')
-- @@@
SELECT string_agg(x, '') FROM regexp_split_to_table('a b  c', ' +') AS x
-- @@@
SELECT encode('hello'::bytea, 'base64') AS b64, encode('\x00ff'::bytea, 'hex') AS hex, decode('aGVsbG8=', 'base64') AS dec, convert_to('é', 'UTF8') AS conv
-- @@@
SELECT length(NULL::text) AS n, upper(NULL) AS u, lower(1)
-- @@@
SELECT nosuchfunc(1)
-- @@@
SELECT abs(-5), abs(-5.5), sign(-3), ceil(1.2), floor(-1.2), round(1.2345, 2), trunc(1.99), trunc(-1.99, 1)
-- @@@
SELECT sqrt(16), sqrt(2)::numeric(10,6), power(2, 10), power(2.0, 0.5)::numeric(8,5), 2 ^ 3 AS caret, |/ 25 AS root, @ -4 AS absval
-- @@@
SELECT exp(0), ln(1), log(100), log(2, 8), pi()::numeric(8,6), mod(10, 3), mod(-10, 3), 10 % -3
-- @@@
SELECT div(7, 2), gcd(12, 18), lcm(4, 6), factorial(5), scale(1.20)
-- @@@
SELECT sqrt(-1)
-- @@@
SELECT ln(0)
-- @@@
SELECT 5 & 3 AS band, 5 | 3 AS bor, 5 # 3 AS bxor, ~5 AS bnot, 1 << 4 AS shl, 256 >> 2 AS shr
-- @@@
SELECT random() >= 0 AND random() < 1 AS in_range, setseed(0.5) IS NULL AS seeded
-- @@@
SELECT round(123.456, -1), round(-0.5), ceil(-0.5), floor(2.5::float8), trunc(2.5::float8), cbrt(27)
-- @@@
SELECT degrees(pi()), radians(180)::numeric(8,6), sin(0), cos(0), atan2(1, 1)::numeric(6,5)
-- @@@
SELECT date_trunc('day', TIMESTAMP '2024-03-15 13:45:10') AS d, date_trunc('month', TIMESTAMP '2024-03-15 13:45:10') AS m, date_trunc('year', DATE '2024-03-15') AS y
-- @@@
SELECT date_trunc('hour', TIMESTAMPTZ '2024-03-15 13:45:10+00') AS h, date_trunc('week', TIMESTAMP '2024-03-15') AS w, date_trunc('quarter', TIMESTAMP '2024-05-15') AS q
-- @@@
SELECT extract(year FROM TIMESTAMP '2024-03-15 13:45:10.5') AS y, extract(month FROM DATE '2024-03-15') AS m, extract(second FROM TIMESTAMP '2024-03-15 13:45:10.5') AS s
-- @@@
SELECT extract(dow FROM DATE '2024-03-17') AS dow, extract(doy FROM DATE '2024-03-15') AS doy, extract(epoch FROM TIMESTAMPTZ '2024-01-01 00:00:00+00') AS ep, extract(week FROM DATE '2024-01-01') AS wk
-- @@@
SELECT extract(hour FROM interval '1 day 5 hours') AS h, extract(epoch FROM interval '1 day') AS e, extract(day FROM interval '40 days') AS d
-- @@@
SELECT date_part('year', DATE '2024-03-15') AS y, date_part('epoch', TIMESTAMP '1970-01-02') AS e, extract(century FROM DATE '2024-01-01') AS c
-- @@@
SELECT extract(foo FROM DATE '2024-01-01')
-- @@@
SELECT to_char(TIMESTAMP '2024-03-05 14:07:09', 'YYYY-MM-DD HH24:MI:SS') AS a, to_char(DATE '2024-03-05', 'DD Mon YYYY') AS b, to_char(TIMESTAMP '2024-03-05 14:07:09', 'HH12:MI AM') AS c
-- @@@
SELECT to_char(DATE '2024-03-05', 'Day, Month FMDD') AS a, to_char(TIMESTAMP '2024-03-05 14:07:09.123', 'MS US') AS b, to_char(DATE '2024-03-05', 'YY Q WW D') AS c
-- @@@
SELECT to_char(1234.5, '9999.99') AS a, to_char(42, '000') AS b, to_char(-12.3, '999.9') AS c, to_char(1234567, '9,999,999') AS d, to_char(5, 'FM999') AS e
-- @@@
SELECT to_date('05 Mar 2024', 'DD Mon YYYY') AS d, to_timestamp('2024-03-05 14:07', 'YYYY-MM-DD HH24:MI') AS ts, to_timestamp(0) AS epoch
-- @@@
SELECT age(TIMESTAMP '2024-03-15', TIMESTAMP '2023-01-10') AS a, age(DATE '2024-03-01', DATE '2024-01-31') AS b, age(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-01 10:00') AS c
-- @@@
SELECT now() IS NOT NULL AS n, now() = current_timestamp AS same, current_date = now()::date AS d, clock_timestamp() >= now() AS c, localtimestamp IS NOT NULL AS l
-- @@@
SELECT pg_typeof(now()), pg_typeof(current_date), pg_typeof(localtimestamp), pg_typeof(current_time), pg_typeof(statement_timestamp())
-- @@@
SELECT make_timestamp(2024, 1, 2, 3, 4, 5.5) AS ts, make_time(1, 2, 3) AS t, justify_days(interval '35 days') AS jd, justify_hours(interval '50 hours') AS jh, justify_interval(interval '1 mon -1 day') AS ji
-- @@@
SELECT TIMESTAMP '2024-01-31' + interval '1 month' AS m, DATE '2024-02-29' - interval '1 year' AS y, TIMESTAMPTZ '2024-03-10 12:00+00' AT TIME ZONE 'America/New_York' AS ny
-- @@@
SELECT TIMESTAMP '2024-06-01 12:00' AT TIME ZONE 'Europe/Paris' AS paris, (TIMESTAMP '2024-06-01 12:00' AT TIME ZONE 'UTC') AT TIME ZONE 'Asia/Tokyo' AS tokyo
-- @@@
SELECT isfinite(DATE 'infinity') AS f, DATE '2024-01-01' + 7 * interval '1 day' AS wk, (DATE '2024-03-01' - 1) AS prev
-- @@@
SELECT timezone('UTC', TIMESTAMPTZ '2024-01-01 00:00+05') AS tz
-- @@@
SELECT n FROM generate_series(1, 10, 3) AS n ORDER BY n
-- @@@
SELECT * FROM generate_series(5, 1, -2)
-- @@@
SELECT generate_series(1, 3) AS g
-- @@@
SELECT * FROM generate_series(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-03', interval '1 day') AS t
-- @@@
SELECT * FROM generate_series(1, 3) WITH ORDINALITY AS g(v, i) ORDER BY i
-- @@@
SELECT * FROM generate_series(1, 5, 0)
-- @@@
SELECT * FROM generate_series(0.5, 2, 0.5) AS x
-- @@@
SELECT unnest(ARRAY[3, 1, 2]) AS u
-- @@@
SELECT * FROM unnest(ARRAY['a', 'b']) WITH ORDINALITY AS u(v, n) ORDER BY n
-- @@@
SELECT * FROM unnest(ARRAY[1, 2], ARRAY['x', 'y', 'z']) AS u(n, s) ORDER BY n NULLS LAST
-- @@@
SELECT array_length(ARRAY[]::int[], 1) AS empty, array_upper(ARRAY[1,2], 1) AS up, array_lower(ARRAY[1,2], 1) AS lo, array_ndims(ARRAY[[1]]) AS nd
-- @@@
SELECT array_append(ARRAY[1], 2), array_prepend(0, ARRAY[1]), array_cat(ARRAY[1], ARRAY[2, 3]), array_remove(ARRAY[1, 2, 1], 1), array_position(ARRAY['a', 'b'], 'b')
-- @@@
SELECT array_replace(ARRAY[1, 2, 1], 1, 9), array_positions(ARRAY[1, 2, 1], 1), ARRAY[1, 2] && ARRAY[2, 3] AS overlap, ARRAY[1] <@ ARRAY[1, 2] AS contained
-- @@@
SELECT '{"a": {"b": [10, 20]}}'::json -> 'a' AS a, '{"a": {"b": [10, 20]}}'::json -> 'a' -> 'b' ->> 1 AS b1, '[1, 2, 3]'::jsonb -> -1 AS last
-- @@@
SELECT '{"a": 1, "b": "x"}'::jsonb ->> 'b' AS b, '{"a": 1}'::jsonb -> 'zz' AS missing, '{"a": {"b": 2}}'::jsonb #> '{a,b}' AS path, '{"a": {"b": 2}}'::jsonb #>> '{a,b}' AS tpath
-- @@@
SELECT '{"a": 1, "b": 2}'::jsonb @> '{"a": 1}' AS contains, '{"a": 1}'::jsonb ? 'a' AS has, '{"a": 1}'::jsonb ?| ARRAY['x', 'a'] AS any_, '{"a": 1}'::jsonb ?& ARRAY['x', 'a'] AS all_
-- @@@
SELECT '{"a": 1}'::jsonb || '{"b": 2}'::jsonb AS cat, '{"a": 1, "b": 2}'::jsonb - 'a' AS minus, '[1, 2, 3]'::jsonb - 0 AS minus_idx
-- @@@
SELECT jsonb_build_object('a', 1, 'b', ARRAY[1, 2]) AS o, json_build_array(1, 'two', NULL) AS a, to_json('x'::text) AS tj, to_jsonb(ARRAY[1, 2]) AS tjb
-- @@@
SELECT jsonb_typeof('[1]') AS t1, json_typeof('{"a":1}') AS t2, jsonb_array_length('[1, 2, 3]') AS n, jsonb_pretty('{"a": [1]}') AS pretty
-- @@@
SELECT * FROM jsonb_each('{"a": 1, "b": "x"}') ORDER BY key
-- @@@
SELECT * FROM jsonb_each_text('{"a": 1, "b": "x"}') ORDER BY key
-- @@@
SELECT jsonb_object_keys('{"b": 1, "a": 2}') AS k
-- @@@
SELECT jsonb_array_elements('[1, "a", null]') AS e
-- @@@
SELECT value FROM json_array_elements_text('["x", "y"]') ORDER BY value
-- @@@
SELECT jsonb_set('{"a": 1}', '{b}', '2') AS s, jsonb_strip_nulls('{"a": null, "b": 1}') AS stripped, jsonb_extract_path_text('{"a": {"b": "c"}}', 'a', 'b') AS p
-- @@@
SELECT row_to_json(r) FROM (SELECT 1 AS a, 'x' AS b) r
-- @@@
SELECT to_jsonb(r) FROM (SELECT 1 AS a, NULL::text AS b) r
-- @@@
SELECT ('{"n": 5}'::jsonb ->> 'n')::int + 1 AS n, ('{"n": 5}'::jsonb -> 'n')::int AS direct
-- @@@
SELECT '{"a":1}'::json -> 1 AS wrong_kind, '[1]'::json ->> 'a' AS wrong_kind2
-- @@@
SELECT '{"a": 1}'::jsonb = '{ "a" : 1 }'::jsonb AS eq, '1'::jsonb < '2'::jsonb AS lt
-- @@@
SELECT pg_typeof(1), pg_typeof(1.5), pg_typeof('a'::text), pg_typeof(ARRAY[1]), pg_typeof(NULL::jsonb), pg_typeof(1::int2)
-- @@@
SELECT pg_sleep(0.01) IS NULL AS slept, pg_typeof(pg_sleep(0))
-- @@@
SELECT gen_random_uuid() IS NOT NULL AS u, length(gen_random_uuid()::text) AS len, gen_random_uuid() <> gen_random_uuid() AS differ
-- @@@
SELECT current_user = session_user AS same, current_database() IS NOT NULL AS db, current_schema() AS s, current_schemas(false) AS ss
-- @@@
SELECT version() LIKE 'PostgreSQL 15%' AS v, current_setting('TimeZone') AS tz, current_setting('DateStyle') AS ds
-- @@@
SELECT set_config('application_name', 'corpus', false) AS s, current_setting('application_name') AS a
-- @@@
SELECT current_setting('no.such.setting', true) IS NULL AS missing_ok
-- @@@
SELECT coalesce(pg_backend_pid(), 0) > 0 AS pid
-- @@@
SELECT num_nulls(1, NULL, 2) AS nn, num_nonnulls(1, NULL, 2) AS nnn
-- @@@
CREATE TABLE people (id int PRIMARY KEY, last text, first text, age int, city text)
-- @@@
INSERT INTO people SELECT g, 'last' || (g % 17), 'first' || g, 18 + g % 50, CASE WHEN g % 3 = 0 THEN NULL ELSE 'city' || (g % 5) END FROM generate_series(1, 300) AS g
-- @@@
CREATE INDEX people_age_idx ON people (age)
-- @@@
CREATE INDEX ON people (last, first)
-- @@@
CREATE UNIQUE INDEX people_first_key ON people (first)
-- @@@
CREATE INDEX people_city ON people (city DESC)
-- @@@
CREATE INDEX people_age_idx ON people (age)
-- @@@
CREATE INDEX IF NOT EXISTS people_age_idx ON people (age)
-- @@@
CREATE INDEX nosuch_idx ON nosuch (x)
-- @@@
CREATE INDEX bad_idx ON people (nosuch)
-- @@@
SELECT id FROM people WHERE age = 30 ORDER BY id
-- @@@
SELECT count(*) FROM people WHERE age > 60
-- @@@
SELECT count(*) FROM people WHERE age >= 60 AND age < 63
-- @@@
SELECT id, age FROM people WHERE age BETWEEN 20 AND 21 ORDER BY id
-- @@@
SELECT count(*) FROM people WHERE age < 19 OR age > 66
-- @@@
SELECT id FROM people WHERE last = 'last3' AND first = 'first20'
-- @@@
SELECT count(*) FROM people WHERE last = 'last3'
-- @@@
SELECT id FROM people WHERE last = 'last3' AND first > 'first2' ORDER BY id
-- @@@
SELECT id FROM people WHERE first = 'first42'
-- @@@
SELECT count(*) FROM people WHERE city = 'city1'
-- @@@
SELECT count(*) FROM people WHERE city IS NULL
-- @@@
SELECT count(*) FROM people WHERE city > 'city2'
-- @@@
SELECT id FROM people WHERE age = 30.0 ORDER BY id
-- @@@
SELECT id FROM people WHERE age = 30.5
-- @@@
SELECT count(*) FROM people WHERE age = ANY(ARRAY[20, 21, 22])
-- @@@
SELECT count(*) FROM people WHERE age IN (20, 21, 22)
-- @@@
SELECT count(*) FROM people WHERE age = NULL
-- @@@
SELECT id FROM people WHERE age > 66 AND id < 20 ORDER BY id
-- @@@
INSERT INTO people VALUES (301, 'x', 'first42', 1, NULL)
-- @@@
INSERT INTO people VALUES (301, 'x', 'first301', 1, NULL)
-- @@@
SELECT id FROM people WHERE age = 1
-- @@@
UPDATE people SET age = 2 WHERE id = 301
-- @@@
SELECT id FROM people WHERE age = 1
-- @@@
SELECT id FROM people WHERE age = 2
-- @@@
DELETE FROM people WHERE age = 2 RETURNING id
-- @@@
SELECT count(*) FROM people WHERE age <= 18
-- @@@
UPDATE people SET first = 'first1' WHERE id = 2
-- @@@
CREATE TABLE visits (person_id int, day date)
-- @@@
INSERT INTO visits SELECT g % 300 + 1, DATE '2024-01-01' + g % 10 FROM generate_series(1, 500) AS g
-- @@@
CREATE INDEX visits_person ON visits (person_id)
-- @@@
SELECT count(*) FROM visits v JOIN people p ON p.id = v.person_id WHERE p.age = 30
-- @@@
SELECT p.id, count(v.day) FROM people p LEFT JOIN visits v ON v.person_id = p.id WHERE p.age = 30 GROUP BY p.id ORDER BY p.id
-- @@@
SELECT count(*) FROM people p JOIN visits v ON v.person_id = p.id AND v.day = DATE '2024-01-05'
-- @@@
DROP INDEX people_age_idx
-- @@@
SELECT count(*) FROM people WHERE age = 30
-- @@@
DROP INDEX people_age_idx
-- @@@
DROP INDEX IF EXISTS people_age_idx
-- @@@
DROP INDEX people_pkey
-- @@@
ALTER TABLE people DROP COLUMN age
-- @@@
SELECT count(*) FROM people WHERE city = 'city1'
-- @@@
ALTER TABLE people RENAME COLUMN city TO town
-- @@@
SELECT count(*) FROM people WHERE town = 'city1'
-- @@@
SELECT 1::int8 AS a, '42'::int4 + 1 AS b, CAST('3.5' AS numeric) AS c
-- @@@
SELECT E'tab\there' AS e, $$dollar 'quoted'$$ AS d, $tag$x$$y$tag$ AS t
-- @@@
SELECT 'a' || 'b' || 'c' AS abc, 1 || 'x' AS mixed
-- @@@
CREATE TABLE "MixedCase" ("Id" int PRIMARY KEY, plain text)
-- @@@
INSERT INTO "MixedCase" VALUES (1, 'one'), (2, 'two')
-- @@@
SELECT "Id", PLAIN FROM "MixedCase" ORDER BY "Id"
-- @@@
SELECT id FROM "MixedCase"
-- @@@
SELECT * FROM mixedcase
-- @@@
SELECT "plain" FROM "MixedCase" WHERE "Id" = 1
-- @@@
SELECT 1 AS "Quoted Alias", 2 AS UnQuoted
-- @@@
SELECT '{1,2,3}'::int[] AS arr, '{a,b}'::text[] AS tarr, ARRAY['x','y']::varchar[] AS varr
-- @@@
SELECT 'int4'::regtype AS t, 'text'::regtype::oid AS toid, 'pg_class'::regclass AS rc
-- @@@
SELECT '"MixedCase"'::regclass AS rc, pg_typeof('"MixedCase"'::regclass) AS ty
-- @@@
SELECT 'nosuchtable'::regclass
-- @@@
SELECT 'nosuchtype'::regtype
-- @@@
SELECT DATE '2024-02-29' AS d, TIMESTAMP '2024-01-02 03:04:05' AS ts, INTERVAL '1 day' AS i
-- @@@
SELECT INTERVAL '1 day 2 hours' + INTERVAL '30 minutes' AS i, interval '90 minutes' AS m
-- @@@
SELECT 12::text || 'a', 1.5::float8::int4, (-1.5)::numeric::int4, 2.5::int4, '7'::int2 * 3
-- @@@
SELECT 'it''s' AS q, E'it\'s' AS e, E'\x41\101\u0042' AS esc, U&'\0041b' AS u
-- @@@
SELECT 'one' 'two'
-- @@@
SELECT 'one'
  'two' AS joined
-- @@@
SELECT $$$$ AS empty, $a$ $b$ $a$ AS nested, length($$multi
line$$) AS n
-- @@@
SELECT B'1010' AS bits, X'1F' AS hex
-- @@@
SELECT 'abc' ~ 'b' AS m1, 'ABC' ~* 'b' AS m2, 'abc' !~ 'z' AS m3, 'ABC' !~* 'b' AS m4
-- @@@
SELECT 'abc' OPERATOR(pg_catalog.~) '^a' AS op, 3 OPERATOR(pg_catalog.+) 4 AS plus
-- @@@
SELECT 'Hello' LIKE 'H%' AS l1, 'Hello' LIKE 'h%' AS l2, 'Hello' ILIKE 'h%' AS l3, 'Hello' NOT ILIKE 'x%' AS l4
-- @@@
SELECT 'a_c' LIKE 'a\_c' AS esc, 'abc' LIKE 'a\_c' AS esc2, 'a%c' LIKE 'a#%c' ESCAPE '#' AS esc3
-- @@@
SELECT 'abc' SIMILAR TO 'a(b|x)c' AS s1, 'abd' SIMILAR TO 'a(b|x)c' AS s2, 'aaa' SIMILAR TO 'a*' AS s3, 'abc' NOT SIMILAR TO '%b%' AS s4
-- @@@
SELECT 'abc' ~ '(' AS bad
-- @@@
SELECT NULL IS DISTINCT FROM NULL AS a, 1 IS DISTINCT FROM NULL AS b, 1 IS NOT DISTINCT FROM 1 AS c, NULL = NULL AS d
-- @@@
SELECT NULL::int IS NULL AS a, 1 IS NOT NULL AS b, true IS TRUE AS c, NULL::bool IS UNKNOWN AS d, false IS NOT FALSE AS e
-- @@@
SELECT 2 = ANY(ARRAY[1,2,3]) AS a, 5 = ANY('{1,2,3}') AS b, 2 <> ALL(ARRAY[1,3]) AS c, 1 < ALL(ARRAY[2,3]) AS d
-- @@@
SELECT NULL = ANY(ARRAY[1]) AS a, 1 = ANY(ARRAY[NULL,1]) AS b, 2 = ANY(ARRAY[NULL,1]) AS c
-- @@@
SELECT 1 = ANY(SELECT generate_series(1,3)) AS a, 7 = ANY(SELECT generate_series(1,3)) AS b
-- @@@
SELECT 'b' = ANY(ARRAY['a','b']) AS a, 'x' LIKE ANY(ARRAY['%x','y']) AS b
-- @@@
SELECT 1 IN (1, 2) AS a, 3 NOT IN (1, 2) AS b, 3 IN (1, NULL) AS c, 1 IN (1, NULL) AS d
-- @@@
SELECT ARRAY[1,2,3] AS a, ARRAY[[1,2],[3,4]] AS b, ARRAY[]::int[] AS c, ARRAY[1.5, 2] AS d
-- @@@
SELECT ARRAY(SELECT generate_series(1,4)) AS a, ARRAY(SELECT 'x' WHERE false) AS e
-- @@@
SELECT (ARRAY[10,20,30])[2] AS a, (ARRAY[10,20,30])[5] AS b, (ARRAY[10,20,30])[2:3] AS c, ('{a,b,c}'::text[])[1] AS d
-- @@@
SELECT (ARRAY[[1,2],[3,4]])[2][1] AS a, array_length(ARRAY[1,2,3], 1) AS n, cardinality(ARRAY[[1,2],[3,4]]) AS c
-- @@@
SELECT ARRAY[1,2] || ARRAY[3] AS a, ARRAY[1,2] || 3 AS b, 0 || ARRAY[1] AS c, ARRAY[1,2] @> ARRAY[2] AS d
-- @@@
SELECT ARRAY['a', NULL, 'c b', ''] AS a, ARRAY['x"y', 'p\q'] AS b
-- @@@
SELECT 'b' < 'a' COLLATE "C" AS c
-- @@@
CREATE TABLE ord (n int, s text)
-- @@@
INSERT INTO ord VALUES (1, 'b'), (NULL, 'a'), (3, NULL), (2, 'c')
-- @@@
SELECT n FROM ord ORDER BY n
-- @@@
SELECT n FROM ord ORDER BY n DESC
-- @@@
SELECT n FROM ord ORDER BY n NULLS FIRST
-- @@@
SELECT n FROM ord ORDER BY n DESC NULLS LAST
-- @@@
SELECT s FROM ord ORDER BY s COLLATE "C" NULLS FIRST
-- @@@
SELECT n, s FROM ord ORDER BY 2 DESC, 1
-- @@@
SELECT $$ $1 $$ AS s
-- @@@
SELECT 1 +
-- @@@
SELECT * FORM ord
-- @@@
SELECT 'unterminated
-- @@@
SELECT (1, 2
-- @@@
SELECT 1 AS x, 2 AS
-- @@@
INSRT INTO ord VALUES (1)
-- @@@
CREATE TABLE dept (id int PRIMARY KEY, name text NOT NULL)
-- @@@
CREATE TABLE emp (id int PRIMARY KEY, name text, dept_id int, salary numeric, boss int)
-- @@@
INSERT INTO dept VALUES (1, 'eng'), (2, 'ops'), (3, 'empty')
-- @@@
INSERT INTO emp VALUES (1, 'ann', 1, 100, NULL), (2, 'bob', 1, 80, 1), (3, 'cat', 2, 90, 1), (4, 'dan', NULL, 50, 3), (5, 'eve', 2, 90, 3)
-- @@@
SELECT e.name, d.name FROM emp e JOIN dept d ON e.dept_id = d.id ORDER BY e.name
-- @@@
SELECT e.name, d.name FROM emp e INNER JOIN dept d ON d.id = e.dept_id AND e.salary > 85
-- @@@
SELECT e.name, d.name FROM emp e LEFT JOIN dept d ON e.dept_id = d.id ORDER BY e.id
-- @@@
SELECT e.name, d.name FROM emp e RIGHT JOIN dept d ON e.dept_id = d.id ORDER BY d.id, e.id
-- @@@
SELECT e.name, d.name FROM emp e FULL JOIN dept d ON e.dept_id = d.id ORDER BY d.id NULLS FIRST, e.id
-- @@@
SELECT e.name, d.name FROM emp e CROSS JOIN dept d WHERE d.id = 3
-- @@@
SELECT count(*) FROM emp, dept
-- @@@
SELECT * FROM emp e1 JOIN emp e2 ON e1.boss = e2.id WHERE e2.name = 'ann' ORDER BY e1.id
-- @@@
SELECT e.name AS worker, b.name AS boss FROM emp e LEFT JOIN emp b ON e.boss = b.id ORDER BY e.id
-- @@@
CREATE TABLE dept2 (dept_id int, label text)
-- @@@
INSERT INTO dept2 VALUES (1, 'one'), (2, 'two'), (4, 'four')
-- @@@
SELECT * FROM emp JOIN dept2 USING (dept_id) ORDER BY id
-- @@@
SELECT dept_id, name, label FROM emp LEFT JOIN dept2 USING (dept_id) ORDER BY id
-- @@@
SELECT dept_id, label FROM emp FULL JOIN dept2 USING (dept_id) ORDER BY dept_id, label
-- @@@
SELECT * FROM emp NATURAL JOIN dept2 ORDER BY id
-- @@@
SELECT * FROM dept NATURAL JOIN dept2
-- @@@
SELECT emp.dept_id FROM emp JOIN dept2 USING (dept_id) WHERE dept2.label = 'one' ORDER BY 1
-- @@@
SELECT x.* FROM (emp JOIN dept ON emp.dept_id = dept.id) AS x
-- @@@
SELECT j.a, j.b FROM (VALUES (1, 'x'), (2, 'y')) AS j(a, b) JOIN (VALUES (2, 'z')) AS k(a, c) ON j.a = k.a
-- @@@
SELECT * FROM emp JOIN dept ON true WHERE emp.id = 1 AND dept.id < 3 ORDER BY dept.id
-- @@@
SELECT name FROM emp JOIN dept ON emp.dept_id = dept.id
-- @@@
SELECT * FROM emp JOIN dept2 USING (nosuch)
-- @@@
SELECT e.name, d.name FROM emp e LEFT JOIN dept d ON e.dept_id = d.id AND d.name = 'ops' ORDER BY e.id
-- @@@
SELECT e.name FROM emp e LEFT JOIN dept d ON e.dept_id = d.id WHERE d.id IS NULL
-- @@@
SELECT name, (SELECT name FROM dept WHERE id = emp.dept_id) AS dept FROM emp ORDER BY id
-- @@@
SELECT name FROM emp WHERE salary > (SELECT avg(salary) FROM emp) ORDER BY name
-- @@@
SELECT name FROM emp WHERE dept_id IN (SELECT id FROM dept WHERE name <> 'eng') ORDER BY name
-- @@@
SELECT name FROM emp WHERE dept_id NOT IN (SELECT id FROM dept WHERE name = 'eng') ORDER BY name
-- @@@
SELECT name FROM emp WHERE dept_id NOT IN (SELECT dept_id FROM emp WHERE id = 4)
-- @@@
SELECT d.name FROM dept d WHERE EXISTS (SELECT 1 FROM emp e WHERE e.dept_id = d.id) ORDER BY d.name
-- @@@
SELECT d.name FROM dept d WHERE NOT EXISTS (SELECT 1 FROM emp e WHERE e.dept_id = d.id)
-- @@@
SELECT e.name FROM emp e WHERE e.salary = (SELECT max(salary) FROM emp x WHERE x.dept_id = e.dept_id) ORDER BY e.name
-- @@@
SELECT (SELECT id FROM emp)
-- @@@
SELECT (SELECT id, name FROM emp WHERE id = 1)
-- @@@
SELECT (SELECT 1 WHERE false) AS empty
-- @@@
SELECT name FROM (SELECT name, salary FROM emp WHERE salary >= 90) AS rich ORDER BY name
-- @@@
SELECT * FROM (SELECT 1) AS s
-- @@@
SELECT * FROM (SELECT 1 AS a, 2 AS b) AS s(x)
-- @@@
SELECT s.x FROM (SELECT 1 AS a) s(x)
-- @@@
SELECT name, salary > ALL (SELECT salary FROM emp WHERE dept_id = 2) AS top FROM emp WHERE dept_id = 1 ORDER BY name
-- @@@
SELECT name FROM emp WHERE salary = ANY (SELECT salary FROM emp WHERE dept_id = 2) ORDER BY name
-- @@@
SELECT d.name, l.top FROM dept d, LATERAL (SELECT max(salary) AS top FROM emp WHERE dept_id = d.id) l ORDER BY d.id
-- @@@
WITH rich AS (SELECT * FROM emp WHERE salary >= 90) SELECT name FROM rich ORDER BY name
-- @@@
WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT * FROM a, b
-- @@@
WITH t(n) AS (VALUES (1), (2)) SELECT sum(n) FROM t
-- @@@
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT n FROM r ORDER BY n
-- @@@
WITH RECURSIVE chain AS (SELECT id, name, boss, 0 AS depth FROM emp WHERE boss IS NULL UNION ALL SELECT e.id, e.name, e.boss, c.depth + 1 FROM emp e JOIN chain c ON e.boss = c.id) SELECT name, depth FROM chain ORDER BY depth, name
-- @@@
WITH RECURSIVE fib(a, b) AS (SELECT 0::bigint, 1::bigint UNION ALL SELECT b, a + b FROM fib WHERE b < 100) SELECT a FROM fib ORDER BY a
-- @@@
WITH RECURSIVE u(n) AS (SELECT 1 UNION SELECT n % 3 + 1 FROM u) SELECT n FROM u ORDER BY n
-- @@@
WITH x AS (SELECT 1) SELECT * FROM x, x
-- @@@
WITH x AS (SELECT 1 AS a) SELECT * FROM x AS p JOIN x AS q ON p.a = q.a
-- @@@
SELECT 1 UNION SELECT 2 UNION SELECT 1 ORDER BY 1
-- @@@
SELECT 1 AS n UNION ALL SELECT 1 UNION ALL SELECT 2
-- @@@
SELECT dept_id FROM emp INTERSECT SELECT id FROM dept ORDER BY 1
-- @@@
SELECT dept_id FROM emp INTERSECT ALL SELECT dept_id FROM emp WHERE salary >= 90
-- @@@
SELECT id FROM dept EXCEPT SELECT dept_id FROM emp
-- @@@
SELECT dept_id FROM emp EXCEPT ALL SELECT 1
-- @@@
SELECT 1, 'a' UNION SELECT 2, 'b' ORDER BY 2 DESC
-- @@@
SELECT 1 UNION SELECT 'a'
-- @@@
SELECT 1 UNION SELECT 2.5 ORDER BY 1
-- @@@
SELECT 1 UNION SELECT 1, 2
-- @@@
SELECT name FROM emp WHERE id < 3 UNION SELECT name FROM dept ORDER BY name LIMIT 3
-- @@@
(SELECT 1 AS x) UNION (SELECT 2) ORDER BY x DESC
-- @@@
SELECT NULL UNION SELECT 1
-- @@@
SELECT DISTINCT dept_id FROM emp ORDER BY dept_id
-- @@@
SELECT DISTINCT salary, dept_id FROM emp ORDER BY salary, dept_id
-- @@@
SELECT DISTINCT ON (dept_id) dept_id, name, salary FROM emp ORDER BY dept_id, salary DESC, name
-- @@@
SELECT DISTINCT ON (salary) salary, name FROM emp ORDER BY salary, name DESC
-- @@@
SELECT count(DISTINCT dept_id) AS depts, count(dept_id) AS non_null, count(*) AS all_rows FROM emp
-- @@@
SELECT id FROM emp ORDER BY id LIMIT 2
-- @@@
SELECT id FROM emp ORDER BY id LIMIT 2 OFFSET 2
-- @@@
SELECT id FROM emp ORDER BY id OFFSET 4
-- @@@
SELECT id FROM emp ORDER BY id FETCH FIRST 1 ROW ONLY
-- @@@
SELECT id FROM emp ORDER BY id LIMIT ALL
-- @@@
SELECT id FROM emp LIMIT -1
-- @@@
SELECT name, CASE WHEN salary >= 90 THEN 'high' WHEN salary >= 80 THEN 'mid' ELSE 'low' END AS band FROM emp ORDER BY id
-- @@@
SELECT CASE dept_id WHEN 1 THEN 'eng' WHEN 2 THEN 'ops' END AS d FROM emp ORDER BY id
-- @@@
SELECT CASE WHEN false THEN 1 END AS n, CASE WHEN true THEN 1 ELSE 2.5 END AS num
-- @@@
SELECT CASE WHEN true THEN 1 ELSE 'x' END
-- @@@
SELECT COALESCE(NULL, NULL, 3) AS a, COALESCE(NULL::text, 'd') AS b, COALESCE(boss, -1) AS c FROM emp ORDER BY id
-- @@@
SELECT NULLIF(1, 1) AS a, NULLIF(1, 2) AS b, NULLIF('x', 'y') AS c
-- @@@
SELECT GREATEST(1, 5, 3) AS g, LEAST(1, 5, 3) AS l, GREATEST(1, NULL, 2) AS gn, LEAST('b', 'a') AS ls, GREATEST(1, 2.5) AS mixed
-- @@@
SELECT COALESCE(1, 'x')
-- @@@
SELECT (1, 2) = (1, 2) AS eq, (1, 2) < (1, 3) AS lt, ROW(1, 'a') AS r, (1, NULL) = (1, 2) AS n
-- @@@
SELECT ROW(1, 2) IS NULL AS a, ROW(NULL, NULL) IS NULL AS b, ROW(1, NULL) IS NOT NULL AS c
-- @@@
VALUES (1, 'one'), (2, 'two')
-- @@@
SELECT * FROM (VALUES (1, 'one'), (2, 'two')) AS v(num, word) ORDER BY num DESC
-- @@@
SELECT column1, column2 FROM (VALUES (1, 2.5), (3, 4)) AS v
-- @@@
VALUES (1), ('x')
-- @@@
VALUES (1, 2), (3)
-- @@@
SELECT * FROM (VALUES (1), (NULL)) v(x) WHERE x IS NOT NULL
-- @@@
SELECT name FROM emp WHERE salary BETWEEN 80 AND 90 ORDER BY name
-- @@@
SELECT name FROM emp WHERE salary NOT BETWEEN 80 AND 90 ORDER BY name
-- @@@
SELECT 5 BETWEEN SYMMETRIC 10 AND 1 AS sym, 5 BETWEEN 10 AND 1 AS asym
-- @@@
SELECT nosuch FROM emp
-- @@@
SELECT emp.nosuch FROM emp
-- @@@
SELECT x.id FROM emp
-- @@@
SELECT id FROM emp, dept
-- @@@
SELECT * FROM nosuch
-- @@@
SELECT name, count(*) FROM emp
-- @@@
SELECT * FROM emp WHERE salary
-- @@@
SELECT * FROM emp WHERE count(*) > 1
-- @@@
SELECT id FROM emp GROUP BY id HAVING name = 'x'
-- @@@
CREATE TABLE acct (id int PRIMARY KEY, bal int)
-- @@@
BEGIN
-- @@@
INSERT INTO acct VALUES (1, 100)
-- @@@
SELECT bal FROM acct
-- @@@
ROLLBACK
-- @@@
SELECT count(*) FROM acct
-- @@@
BEGIN
-- @@@
INSERT INTO acct VALUES (1, 100), (2, 50)
-- @@@
UPDATE acct SET bal = bal - 10 WHERE id = 1
-- @@@
COMMIT
-- @@@
SELECT * FROM acct ORDER BY id
-- @@@
BEGIN
-- @@@
INSERT INTO acct VALUES (1, 0)
-- @@@
SELECT 1
-- @@@
COMMIT
-- @@@
SELECT * FROM acct ORDER BY id
-- @@@
START TRANSACTION
-- @@@
CREATE TABLE tx_made (x int)
-- @@@
INSERT INTO tx_made VALUES (1)
-- @@@
ROLLBACK
-- @@@
SELECT * FROM tx_made
-- @@@
COMMIT
-- @@@
ROLLBACK
-- @@@
BEGIN
-- @@@
BEGIN
-- @@@
END
-- @@@
CREATE TABLE typed (id serial PRIMARY KEY, i2 smallint, i4 integer, i8 bigint, n numeric(10,2), r real, d double precision, t text, vc varchar(5), c char(3), b boolean, by bytea, dt date, tm time, ts timestamp, tz timestamptz, iv interval, u uuid, j json, jb jsonb, ia int[], ta text[])
-- @@@
INSERT INTO typed (i2, i4, i8, n, r, d, t, vc, c, b, by, dt, tm, ts, tz, iv, u, j, jb, ia, ta) VALUES (1, 2, 3, 4.5, 1.5, 2.25, 'text', 'abc', 'x', true, '\x0102', '2024-02-29', '13:14:15.5', '2024-01-02 03:04:05.123456', '2024-01-02 03:04:05+02', '1 year 2 mons 3 days 04:05:06', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"a": 1}', '{"b": [1, 2], "a": 1}', '{1,2}', '{x,y}')
-- @@@
INSERT INTO typed (i2) VALUES (NULL)
-- @@@
SELECT i2, i4, i8, n, r, d, t, vc, c, b, by, dt, tm, ts, tz, iv, u, j, jb, ia, ta FROM typed ORDER BY id
-- @@@
SELECT id FROM typed ORDER BY id
-- @@@
SELECT pg_typeof(i2), pg_typeof(n), pg_typeof(vc), pg_typeof(c), pg_typeof(tz), pg_typeof(ia) FROM typed WHERE id = 1
-- @@@
SELECT c, length(c), c || '|' AS cat, octet_length(c) FROM typed WHERE id = 1
-- @@@
INSERT INTO typed (vc) VALUES ('toolong')
-- @@@
INSERT INTO typed (vc) VALUES ('abc  ')
-- @@@
INSERT INTO typed (n) VALUES (123456789.123)
-- @@@
INSERT INTO typed (n) VALUES (1.005)
-- @@@
SELECT n FROM typed WHERE n IS NOT NULL ORDER BY n
-- @@@
INSERT INTO typed (i2) VALUES (32768)
-- @@@
INSERT INTO typed (i4) VALUES ('abc')
-- @@@
INSERT INTO typed (u) VALUES ('not-a-uuid')
-- @@@
SELECT 'abc'::int
-- @@@
SELECT ''::int
-- @@@
SELECT ' 12 '::int AS padded, '+7'::int AS plus, '-0'::int AS negzero
-- @@@
SELECT 2147483647 + 1
-- @@@
SELECT 2147483647::int8 + 1 AS widened
-- @@@
SELECT 9223372036854775807 + 1
-- @@@
SELECT (-32768)::int2 AS minsmall, 32768::int2
-- @@@
SELECT 1 / 0
-- @@@
SELECT 1.0 / 0
-- @@@
SELECT 5 % 0
-- @@@
SELECT 1::float8 / 0
-- @@@
SELECT 7 / 2 AS intdiv, 7.0 / 2 AS numdiv, 7 % 3 AS m, -7 / 2 AS negdiv, -7 % 3 AS negmod
-- @@@
SELECT 10::numeric / 3 AS third, 1::numeric / 7 AS seventh, 2::numeric / 3 * 3 AS back
-- @@@
SELECT 12345678901234567890 AS big, 123456789012345678901234567890.5 * 2 AS bigger
-- @@@
SELECT 1e3 AS e, 1.5e-3 AS small, .5 AS lead, 5. AS trail, 0.0 AS zero
-- @@@
SELECT 1.5::float4 AS r, 0.1::float8 AS d, 1e100::float8 AS big, 1.0e-10::float8 AS tiny, (1/3.0)::float8 AS third
-- @@@
SELECT 'NaN'::float8 AS nan, 'Infinity'::float8 AS inf, '-inf'::float8 AS ninf, 'NaN'::numeric AS nnan
-- @@@
SELECT 3.14159::numeric(5,2) AS rounded, 2.5::numeric(3,0) AS half, (-2.5)::numeric(3,0) AS neghalf
-- @@@
SELECT 999.999::numeric(5,2)
-- @@@
SELECT round(2.5) AS a, round(3.5) AS b, round(-2.5) AS c, round(2.5::float8) AS d, round(3.5::float8) AS e
-- @@@
SELECT 100000000000000000000::float8 AS f, 123456789.123456789::float8 AS g, 1e15::float8 AS h, 1e16::float8 AS i
-- @@@
SELECT 0.1::float4 + 0.2::float4 AS f4, 0.1::float8 + 0.2 AS f8
-- @@@
SELECT 'abc'::numeric
-- @@@
SELECT '1e400'::float8
-- @@@
SELECT 3000000000::int4
-- @@@
SELECT '3000000000'::int4
-- @@@
SELECT 'yes'::bool AS y, 'off'::bool AS o, 't'::boolean AS t, '0'::bool AS z, true AND NULL AS an, false AND NULL AS af, true OR NULL AS ot
-- @@@
SELECT 'maybe'::bool
-- @@@
SELECT 1::bool AS one, 0::bool AS zero, true::int AS t
-- @@@
SELECT 'abc'::bytea AS b, '\xdeadbeef'::bytea AS h, E'\\001'::bytea AS esc, length('\x0102'::bytea) AS n
-- @@@
SELECT 'abc'::varchar(2) AS cut, 'abc'::char(5) AS padded, 'ab '::char(3) = 'ab' AS eq
-- @@@
SELECT '2024-02-30'::date
-- @@@
SELECT 'today'::date IS NOT NULL AS t, 'epoch'::timestamp AS e, 'infinity'::timestamp AS i, '-infinity'::date AS ni
-- @@@
SELECT '2024-01-01'::date + 1 AS plus, '2024-03-01'::date - '2024-02-01'::date AS diff, '2024-01-31'::date + interval '1 month' AS m
-- @@@
SELECT '2024-01-02 03:04:05'::timestamp - '2024-01-01'::timestamp AS diff, '2024-01-01 10:00'::timestamp + interval '90 minutes' AS later
-- @@@
SELECT '2024-06-01 12:00:00+00'::timestamptz AS utc, '2024-06-01 12:00:00 America/New_York'::timestamptz AS ny
-- @@@
SELECT '12:30'::time AS t, '23:59:59.999999'::time AS late, '12:00'::time + interval '13 hours' AS wrap
-- @@@
SELECT '1 day'::interval * 2 AS dbl, interval '1 hour' / 2 AS half, -interval '1 day' AS neg, interval '1 day' - interval '1 hour' AS diff
-- @@@
SELECT interval '1 year 13 months' AS y, interval '36 hours' AS h, interval '1.5 days' AS d, interval '-1 day +2 hours' AS mixed
-- @@@
SELECT interval 'P1Y2M3DT4H5M6S' AS iso, interval '2 weeks' AS w, interval '100 years' AS c, interval '0' AS z
-- @@@
SELECT '2024-01-01'::date < '2024-01-02'::timestamp AS cmp, '2024-01-01'::timestamp = '2024-01-01'::date AS eq
-- @@@
SELECT 'garbage'::timestamp
-- @@@
SELECT '25:00'::time
-- @@@
SELECT '1 fortnight'::interval
-- @@@
SELECT make_date(2024, 2, 29) AS d, make_interval(days => 3) AS i
-- @@@
SELECT 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid AS u, '{a0eebc999c0b4ef8bb6d6bb9bd380a11}'::uuid AS braces
-- @@@
SELECT '{"b":1, "a":[1,2,{"c":null}]}'::json AS j, '{"b":1, "a":[1,2,{"c":null}]}'::jsonb AS jb, '{"a":1,"a":2}'::jsonb AS dup
-- @@@
SELECT '{bad json'::json
-- @@@
SELECT '[1, 2.50, "x", true, null]'::jsonb AS arr, '1e2'::jsonb AS num, '"str"'::json AS s
-- @@@
SELECT ARRAY[1.5, 2.25]::float8[] AS f, ARRAY['2024-01-01'::date] AS d, ARRAY[true, false] AS b, ARRAY[NULL::int] AS n
-- @@@
SELECT '{{1,2},{3,4}}'::int[] AS two, '{}'::text[] AS empty, '{"a b", "c,d", NULL, "NULL"}'::text[] AS quoted
-- @@@
SELECT '{1,2'::int[]
-- @@@
SELECT '{1,x}'::int[]
-- @@@
SELECT 1 = 1.0 AS a, 1::int2 + 1::int8 AS b, pg_typeof(1::int2 + 1::int8) AS bt, pg_typeof(1 + 1.5) AS nt, pg_typeof(1 + 1.5::float8) AS ft
-- @@@
SELECT 1 + '2' AS a, '3' + 4 AS b, pg_typeof('3' + 4) AS t
-- @@@
SELECT 'a' + 1
-- @@@
SELECT 1 = 'a'
-- @@@
SELECT true = 1
-- @@@
SELECT '1'::text = 1
-- @@@
SELECT 1::text::int + 1 AS round_trip, CAST(CAST(2.7 AS int) AS text) AS chain
-- @@@
SELECT CAST(NULL AS int) AS n, NULL::text AS t, pg_typeof(NULL) AS u
-- @@@
SELECT 42::int4::regtype
-- @@@
SELECT 'abc'::name AS nm, pg_typeof('abc'::name) AS t
-- @@@
SELECT 1::oid AS o, 'text'::regtype::int4 AS toid
-- @@@
CREATE TABLE scores (id int PRIMARY KEY, team text, player text, pts int)
-- @@@
INSERT INTO scores VALUES (1, 'red', 'a', 10), (2, 'red', 'b', 20), (3, 'red', 'c', 20), (4, 'blue', 'd', 5), (5, 'blue', 'e', NULL), (6, 'blue', 'f', 15), (7, 'green', 'g', 7)
-- @@@
SELECT id, row_number() OVER (ORDER BY id) FROM scores ORDER BY id
-- @@@
SELECT player, row_number() OVER (PARTITION BY team ORDER BY pts DESC, player) AS rn FROM scores ORDER BY team, rn
-- @@@
SELECT player, pts, rank() OVER w, dense_rank() OVER w FROM scores WINDOW w AS (ORDER BY pts DESC NULLS LAST) ORDER BY pts DESC NULLS LAST, player
-- @@@
SELECT player, pts, rank() OVER (PARTITION BY team ORDER BY pts) AS r FROM scores ORDER BY team, r, player
-- @@@
SELECT player, lag(pts) OVER (ORDER BY id) AS prev, lead(pts) OVER (ORDER BY id) AS next FROM scores ORDER BY id
-- @@@
SELECT player, lag(pts, 2, -1) OVER (ORDER BY id) AS prev2, lead(player, 1, 'none') OVER (PARTITION BY team ORDER BY id) AS nxt FROM scores ORDER BY id
-- @@@
SELECT player, first_value(player) OVER (PARTITION BY team ORDER BY pts DESC NULLS LAST) AS best FROM scores ORDER BY id
-- @@@
SELECT player, last_value(player) OVER (PARTITION BY team ORDER BY id) AS last_so_far FROM scores ORDER BY id
-- @@@
SELECT player, last_value(player) OVER (PARTITION BY team ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last FROM scores ORDER BY id
-- @@@
SELECT id, sum(pts) OVER (ORDER BY id) AS running FROM scores ORDER BY id
-- @@@
SELECT id, sum(pts) OVER (ORDER BY pts) AS peers FROM scores ORDER BY id
-- @@@
SELECT id, sum(pts) OVER () AS total, count(*) OVER () AS n FROM scores ORDER BY id
-- @@@
SELECT id, team, sum(pts) OVER (PARTITION BY team) AS team_total FROM scores ORDER BY id
-- @@@
SELECT id, avg(pts) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS moving FROM scores ORDER BY id
-- @@@
SELECT id, sum(pts) OVER (ORDER BY id ROWS 2 PRECEDING) AS last3 FROM scores ORDER BY id
-- @@@
SELECT id, count(pts) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS rest FROM scores ORDER BY id
-- @@@
SELECT id, max(pts) OVER (PARTITION BY team ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS best_so_far FROM scores ORDER BY id
-- @@@
SELECT id, sum(pts) OVER (ORDER BY pts RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS r FROM scores ORDER BY id
-- @@@
SELECT id, sum(pts) OVER (ORDER BY pts RANGE BETWEEN 5 PRECEDING AND 5 FOLLOWING) AS near FROM scores ORDER BY id
-- @@@
SELECT id, array_agg(id) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) AS ahead FROM scores ORDER BY id
-- @@@
SELECT id, ntile(3) OVER (ORDER BY id) AS tile, percent_rank() OVER (ORDER BY id) AS pr, cume_dist() OVER (ORDER BY id) AS cd FROM scores ORDER BY id
-- @@@
SELECT id, nth_value(player, 2) OVER (ORDER BY id) AS second FROM scores ORDER BY id
-- @@@
SELECT team, sum(pts), rank() OVER (ORDER BY sum(pts) DESC NULLS LAST) FROM scores GROUP BY team ORDER BY 3, 1
-- @@@
SELECT team, count(*) OVER (PARTITION BY team) AS n FROM scores GROUP BY team, id ORDER BY team
-- @@@
SELECT player FROM (SELECT player, row_number() OVER (PARTITION BY team ORDER BY pts DESC NULLS LAST) AS rn FROM scores) s WHERE rn = 1 ORDER BY player
-- @@@
SELECT id, row_number() OVER (ORDER BY id DESC) AS rn FROM scores ORDER BY rn LIMIT 3
-- @@@
SELECT id, pts - lag(pts) OVER (PARTITION BY team ORDER BY id) AS delta FROM scores ORDER BY id
-- @@@
SELECT id, sum(pts) FILTER (WHERE pts > 10) OVER (ORDER BY id) AS big FROM scores ORDER BY id
-- @@@
SELECT row_number() OVER (ORDER BY id) + 100 AS n, id FROM scores ORDER BY id
-- @@@
SELECT id, first_value(id) OVER w, last_value(id) OVER w FROM scores WINDOW w AS (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) ORDER BY id
-- @@@
SELECT id, rank() OVER (ORDER BY team) FROM scores ORDER BY id
-- @@@
SELECT id, sum(pts) OVER (PARTITION BY team ORDER BY id GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) AS g FROM scores ORDER BY id
-- @@@
SELECT id FROM scores WHERE row_number() OVER (ORDER BY id) = 1
-- @@@
SELECT row_number() FROM scores
-- @@@
SELECT id, lag(pts) OVER () IS NULL AS first FROM scores WHERE id = 1
-- @@@
SELECT id, count(*) OVER (ORDER BY id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM scores ORDER BY id
-- @@@
SELECT rank(1) OVER (ORDER BY id) FROM scores
-- @@@
SELECT sum(sum(pts)) OVER () AS grand, team FROM scores GROUP BY team ORDER BY team
-- @@@
SELECT abalance FROM pgbench_accounts WHERE aid = $1
-- @@@
UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2
-- @@@
UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2
-- @@@
UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2
-- @@@
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)
-- @@@
create table pgbench_accounts(aid int not null,bid int,abalance int,filler char(84)) with (fillfactor=100)
-- @@@
alter table pgbench_accounts add primary key (aid)
-- @@@
copy pgbench_accounts from stdin with (freeze on)
-- @@@
select count(*) from pgbench_branches
-- @@@
vacuum analyze pgbench_accounts
-- @@@
SELECT t.oid, t.typname, t.typtype, t.typelem, t.typarray, t.typbasetype, t.typrelid FROM pg_type t WHERE t.oid = ANY($1)
-- @@@
select t.oid, case when nsp.nspname in ('pg_catalog', 'public') then t.typname else nsp.nspname||'.'||t.typname end from pg_type t left join pg_type base_type on t.typelem=base_type.oid left join pg_namespace nsp on t.typnamespace=nsp.oid where (t.typtype in('b', 'p', 'r', 'e') and (base_type.oid is null or base_type.typtype in('b', 'p', 'r')))
-- @@@
SELECT typname, oid, typarray, typbasetype FROM pg_catalog.pg_type WHERE typname = $1 AND typnamespace = (SELECT oid FROM pg_namespace WHERE nspname = 'public')
-- @@@
SELECT n.nspname = ANY(current_schemas(true)), n.nspname, t.typname FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON t.typnamespace = n.oid WHERE t.oid = $1
-- @@@
SELECT pg_catalog.set_config('search_path', '', false);
-- @@@
SET DateStyle = 'ISO'; SET extra_float_digits = 2; SET client_encoding = 'UTF8'
-- @@@
SELECT version()
-- @@@
SELECT current_setting('server_version_num')::integer
-- @@@
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(d.adbin, d.adrelid) FROM pg_attribute a JOIN pg_class c ON a.attrelid = c.oid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum WHERE c.relname = $1 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
-- @@@
SELECT "django_migrations"."id", "django_migrations"."app", "django_migrations"."name", "django_migrations"."applied" FROM "django_migrations"
-- @@@
INSERT INTO "auth_user" ("password", "last_login", "is_superuser", "username") VALUES ('x', NULL, false, 'admin') RETURNING "auth_user"."id"
-- @@@
SELECT "blog_post"."id", "blog_post"."title" FROM "blog_post" WHERE ("blog_post"."published" AND "blog_post"."title"::text LIKE '%hello%') ORDER BY "blog_post"."created" DESC LIMIT 21
-- @@@
SELECT COUNT(*) AS "__count" FROM "blog_post" WHERE UPPER("blog_post"."title"::text) = UPPER('x')
-- @@@
CREATE TABLE "blog_post" ("id" bigint NOT NULL PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY, "title" varchar(200) NOT NULL)
-- @@@
ALTER TABLE "blog_comment" ADD CONSTRAINT "blog_comment_post_id_fk" FOREIGN KEY ("post_id") REFERENCES "blog_post" ("id") DEFERRABLE INITIALLY DEFERRED
-- @@@
SELECT "users".* FROM "users" WHERE "users"."id" = $1 LIMIT $2
-- @@@
SELECT a.attname, format_type(a.atttypid, a.atttypmod), pg_get_expr(d.adbin, d.adrelid), a.attnotnull, a.atttypid, a.atttypmod, c.collname, col_description(a.attrelid, a.attnum) AS comment, attidentity AS identity, attgenerated as attgenerated FROM pg_attribute a LEFT JOIN pg_attrdef d ON a.attrelid = d.adrelid AND a.attnum = d.adnum LEFT JOIN pg_type t ON a.atttypid = t.oid LEFT JOIN pg_collation c ON a.attcollation = c.oid AND a.attcollation <> t.typcollation WHERE a.attrelid = '"users"'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
-- @@@
INSERT INTO "schema_migrations" ("version") VALUES ($1) RETURNING "version"
-- @@@
select * from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'
-- @@@
SELECT kcu.column_name FROM information_schema.table_constraints tc JOIN information_schema.key_column_usage kcu ON tc.constraint_name = kcu.constraint_name AND tc.table_schema = kcu.table_schema WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_name = $1
-- @@@
select /* hibernate */ u1_0.id, u1_0.name from users u1_0 where u1_0.id=? 
-- @@@
select nextval ('hibernate_sequence')
-- @@@
WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n+1 FROM t WHERE n < 100) SELECT sum(n) FROM t
-- @@@
SELECT depname, empno, salary, avg(salary) OVER (PARTITION BY depname), rank() OVER w FROM empsalary WINDOW w AS (PARTITION BY depname ORDER BY salary DESC)
-- @@@
SELECT x, lag(x, 1, 0) OVER (ORDER BY x ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW) FROM generate_series(1, 10) AS g(x)
-- @@@
SELECT jsonb_build_object('a', 1) -> 'a', '{"a":{"b":1}}'::jsonb #>> '{a,b}', '[1,2]'::jsonb @> '[1]'
-- @@@
SELECT array_agg(x ORDER BY x DESC) FILTER (WHERE x > 1), string_agg(DISTINCT y, ',') FROM t
-- @@@
SELECT * FROM t1 FULL OUTER JOIN t2 USING (id) NATURAL JOIN t3 CROSS JOIN LATERAL (SELECT * FROM t4 WHERE t4.id = t1.id LIMIT 1) s
-- @@@
SELECT DISTINCT ON (customer) customer, order_date FROM orders ORDER BY customer, order_date DESC NULLS LAST
-- @@@
INSERT INTO kv (k, v) VALUES ('a', 1), ('b', 2) ON CONFLICT (k) DO UPDATE SET v = kv.v + EXCLUDED.v WHERE kv.v < 100 RETURNING k, v
-- @@@
UPDATE accounts a SET (balance, updated) = (a.balance - 10, now()) FROM transfers t WHERE t.account = a.id AND t.status IS DISTINCT FROM 'done'
-- @@@
DELETE FROM sessions USING users WHERE sessions.user_id = users.id AND users.deleted_at IS NOT NULL RETURNING sessions.id
-- @@@
CREATE OR REFRESH STREAMING TABLE users_current;
-- @@@
CREATE FLOW apply_cdc AS AUTO CDC INTO users_current
FROM stream(users_cdf) KEYS (userId)
APPLY AS DELETE WHEN operation = "DELETE"
APPLY AS TRUNCATE WHEN operation = "TRUNCATE"
SEQUENCE BY sequenceNum
COLUMNS * EXCEPT (operation, sequenceNum)
STORED AS SCD TYPE 1;
-- @@@
CREATE FLOW hist AS AUTO CDC INTO users_history FROM STREAM users_cdf KEYS (userId) APPLY AS DELETE WHEN operation = 'DELETE' SEQUENCE BY sequenceNum COLUMNS * EXCEPT (operation, sequenceNum) STORED AS SCD TYPE 2 TRACK HISTORY ON * EXCEPT (city)
-- @@@
CREATE FLOW bt AS AUTO CDC INTO positions FROM positions_cdf KEYS (CompanyId) SEQUENCE BY business_ts SYSTEM SEQUENCE BY system_ts STORED AS BITEMPORAL IGNORE NULL UPDATES ON (DataPoint)
-- @@@
CREATE FLOW s AS AUTO CDC ONCE INTO t FROM src KEYS (id) SEQUENCE BY STRUCT(ts, id) COLUMNS TO UPDATE changed_cols
-- @@@
APPLY CHANGES INTO LIVE.target FROM STREAM(LIVE.cdc_data.users) KEYS (userId) APPLY AS DELETE WHEN operation = "DELETE" SEQUENCE BY sequenceNum COLUMNS * EXCEPT (operation, sequenceNum) STORED AS SCD TYPE 2
-- @@@
DROP FLOW IF EXISTS apply_cdc
-- @@@
REFRESH STREAMING TABLE users_current FULL
-- @@@
SELECT * FROM users_history FOR BUSINESS_TIME AS OF 5 AS h WHERE h.userId = 123
-- @@@
SELECT * FROM positions FOR SYSTEM_TIME AS OF TIMESTAMP '2025-07-18 12:22:00' FOR BUSINESS_TIME AS OF TIMESTAMP '2025-07-18 12:10:00'
-- @@@
SELECT * FROM positions FOR VALID_TIME FROM $1 TO $2 p JOIN companies FOR SYSTEM_TIME ALL c ON p.CompanyId = c.id
-- @@@
SELECT * FROM t FOR SYSTEM_TIME BETWEEN now() - interval '1 day' AND now()
-- @@@
ALTER TABLE t SET (history_retention = '30 days')
-- @@@
COPY users_cdf (userId, name, city, operation, sequenceNum) FROM STDIN WITH (FORMAT csv, HEADER true)
-- @@@
COPY (SELECT * FROM users_current ORDER BY 1) TO STDOUT WITH CSV HEADER
-- @@@
BEGIN ISOLATION LEVEL SERIALIZABLE; SAVEPOINT a; ROLLBACK TO SAVEPOINT a; RELEASE a; COMMIT
-- @@@
SHOW TRANSACTION ISOLATION LEVEL
-- @@@
SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ
-- @@@
EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT * FROM t WHERE a = 1
-- @@@
DISCARD ALL
-- @@@
DEALLOCATE PREPARE stmt_1
-- @@@
select E'\\x00'::bytea, '\x41'::bytea, B'1010' | B'0101', X'FF'::int, 1::bit(4), U&'\0041' UESCAPE '\'
-- @@@
select $body$ nested $$ inside $body$, $$ multi
line $$
-- @@@
select 'a' /* nested /* comment */ still */ || 'b' -- trailing
-- @@@
select x from t where x ~ '^a' and x !~* 'b' and x similar to '%c%' escape '!' and x ilike any (array['%d', '%e'])
-- @@@
select cast(x as varchar(10) array), x::timestamp(3) with time zone at time zone 'UTC', interval '1-2' year to month
-- @@@
select extract(epoch from now()), date_trunc('day', now()), now() - interval '1 hour' * 2, age(timestamp '2001-04-10', timestamp '1957-06-13')
-- @@@
select coalesce(a, b, c), nullif(a, ''), greatest(1, 2, 3), least(1, 2), case when a then 1 when b then 2 else 3 end
-- @@@
select row(1, 'a')::record, (t.*)::text, (x).field, arr[1][2], arr[1:2], (select array(select 1))[1]
-- @@@
select exists(select 1 from t where t.a = u.a), not exists (select 1), a = all(select b from c), a <> some(array[1, 2])
-- @@@
select 1 from t where (a, b) in ((1, 2), (3, 4)) and (a, b) = (1, 2) and row(a, b) is not null
-- @@@
select position('b' in 'abc'), substring('abcdef' from 2 for 3), trim(both ' ' from '  x  '), overlay('abc' placing 'X' from 2 for 1)
-- @@@
select current_date, current_time(2), current_timestamp, localtime, localtimestamp(0), current_user, session_user, user, current_catalog, current_schema
-- @@@
select -9223372036854775808, 9223372036854775807, 1e308, 0.000001, -.5, +3, - -3
-- @@@
select "Mixed Case", "with""quote", "日本語", U&"\0061bc"
-- @@@
select 1 union select 2 intersect select 3 except select 4 order by 1 limit 1 offset 0
-- @@@
(select 1 limit 1) union all (select 2 order by 1)
-- @@@
values (1), (2) except values (2)
-- @@@
table t
-- @@@
create temporary table if not exists tmp (like src)
-- @@@
create unique index concurrently if not exists idx on t using btree (lower(email) text_pattern_ops desc nulls first) where deleted_at is null
-- @@@
create view v (a, b) as select 1, 2 union select 3, 4
-- @@@
comment on column public.t.c is 'the c column'
-- @@@
truncate only t restart identity cascade
-- @@@
alter table t alter column c type numeric(12, 2) using c::numeric(12, 2), alter column d set default now()
-- @@@
drop table if exists a, b, c cascade
-- @@@
select * from t where a = 'x' collate "C" and b operator(pg_catalog.=) 1
-- @@@
select f(a => 1, b => 'x'), g(variadic array[1, 2]), count(*) filter (where a) over ()
-- @@@
select percentile_disc(0.5) within group (order by x), mode() within group (order by y) from t
-- @@@
select x, sum(y) from t group by x having sum(y) > 10 order by 2 desc fetch first 5 rows only
-- @@@
select * from t for update skip locked
-- @@@
select * from generate_series(1, 3) with ordinality as g(i, n), unnest(array['a', 'b']) u(x)
-- @@@
select * from (values (1, 'a'), (2, 'b')) as v(id, name) where id in (select 1)
-- @@@
select t1.a from t1, lateral (select * from t2 where t2.a = t1.a) sub, rows
