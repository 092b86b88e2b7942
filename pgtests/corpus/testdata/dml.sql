# INSERT, UPDATE, DELETE with RETURNING, ON CONFLICT, FROM/USING, TRUNCATE.

CREATE TABLE items (id serial PRIMARY KEY, name text UNIQUE, qty int DEFAULT 1, note text)
----
CREATE TABLE

INSERT INTO items (name) VALUES ('a')
----
INSERT 0 1

INSERT INTO items (name, qty) VALUES ('b', 5), ('c', 7) RETURNING id, name, qty
----
id:int4 | name:text | qty:int4
2 | b | 5
3 | c | 7
INSERT 0 2

INSERT INTO items (name, qty) VALUES ('d', DEFAULT) RETURNING *
----
id:int4 | name:text | qty:int4 | note:text
4 | d | 1 | NULL
INSERT 0 1

INSERT INTO items DEFAULT VALUES RETURNING id, qty
----
id:int4 | qty:int4
5 | 1
INSERT 0 1

INSERT INTO items (name) VALUES ('e') RETURNING id * 10 AS tenfold, upper(name)
----
tenfold:int4 | upper:text
60 | E
INSERT 0 1

INSERT INTO items (name, qty) SELECT 'copy-' || name, qty * 2 FROM items WHERE qty > 4 RETURNING name, qty
----
name:text | qty:int4
copy-b | 10
copy-c | 14
INSERT 0 2

SELECT id, name, qty, note FROM items ORDER BY id
----
id:int4 | name:text | qty:int4 | note:text
1 | a | 1 | NULL
2 | b | 5 | NULL
3 | c | 7 | NULL
4 | d | 1 | NULL
5 | NULL | 1 | NULL
6 | e | 1 | NULL
7 | copy-b | 10 | NULL
8 | copy-c | 14 | NULL
SELECT 8

INSERT INTO items (name) VALUES ('a')
----
ERROR 23505: duplicate key value violates unique constraint "items_name_key"

INSERT INTO items (id, name) VALUES (1, 'zzz')
----
ERROR 23505: duplicate key value violates unique constraint "items_pkey"

INSERT INTO items (name) VALUES ('a') ON CONFLICT DO NOTHING
----
INSERT 0 0

INSERT INTO items (name) VALUES ('a') ON CONFLICT (name) DO NOTHING RETURNING id
----
INSERT 0 0

INSERT INTO items (id, name, qty) VALUES (2, 'b', 50) ON CONFLICT (id) DO UPDATE SET qty = EXCLUDED.qty, note = 'updated' RETURNING id, name, qty, note
----
id:int4 | name:text | qty:int4 | note:text
2 | b | 50 | updated
INSERT 0 1

INSERT INTO items (name, qty) VALUES ('c', 1) ON CONFLICT (name) DO UPDATE SET qty = items.qty + EXCLUDED.qty RETURNING name, qty
----
name:text | qty:int4
c | 8
INSERT 0 1

INSERT INTO items (name, qty) VALUES ('c', 1) ON CONFLICT (name) DO UPDATE SET qty = 0 WHERE items.qty > 100 RETURNING qty
----
INSERT 0 0

INSERT INTO items (name, qty) VALUES ('new', 3), ('a', 9) ON CONFLICT (name) DO UPDATE SET qty = EXCLUDED.qty RETURNING name, qty
----
name:text | qty:int4
a | 9
new | 3
INSERT 0 2

INSERT INTO items (name) VALUES ('q') ON CONFLICT (qty) DO NOTHING
----
ERROR 42P10: there is no unique or exclusion constraint matching the ON CONFLICT specification

INSERT INTO items (nosuch) VALUES (1)
----
ERROR 42703 at 20: column "nosuch" of relation "items" does not exist

INSERT INTO items (name, name) VALUES ('x', 'y')
----
ERROR 42701 at 26: column "name" specified more than once

INSERT INTO items (name) VALUES ('x', 'y')
----
ERROR 42601 at 39: INSERT has more expressions than target columns

INSERT INTO items (name, qty) VALUES ('x')
----
ERROR 42601 at 26: INSERT has more target columns than expressions

INSERT INTO items (qty) VALUES ('many')
----
ERROR 22P02 at 33: invalid input syntax for type integer: "many"

INSERT INTO items (name) VALUES (1)
----
INSERT 0 1

INSERT INTO nosuch VALUES (1)
----
ERROR 42P01 at 13: relation "nosuch" does not exist

UPDATE items SET qty = qty + 1 WHERE name IN ('a', 'b') RETURNING name, qty
----
name:text | qty:int4
a | 10
b | 51
UPDATE 2

UPDATE items SET note = 'n' || id WHERE qty > 6
----
UPDATE 5

UPDATE items SET qty = DEFAULT WHERE name = 'd' RETURNING qty
----
qty:int4
1
UPDATE 1

UPDATE items SET nosuch = 1
----
ERROR 42703 at 18: column "nosuch" of relation "items" does not exist

UPDATE items SET qty = 'x'
----
ERROR 22P02 at 24: invalid input syntax for type integer: "x"

UPDATE items SET qty = 1, qty = 2
----
ERROR 42601: multiple assignments to same column "qty"

UPDATE items SET qty = NULL WHERE false
----
UPDATE 0

SELECT name, qty, note FROM items ORDER BY id
----
name:text | qty:int4 | note:text
a | 10 | n1
b | 51 | n2
c | 8 | n3
d | 1 | NULL
NULL | 1 | NULL
e | 1 | NULL
copy-b | 10 | n7
copy-c | 14 | n8
new | 3 | NULL
1 | 1 | NULL
SELECT 10

CREATE TABLE prices (name text, price numeric)
----
CREATE TABLE

INSERT INTO prices VALUES ('a', 1.5), ('b', 2.5), ('zz', 9)
----
INSERT 0 3

UPDATE items SET note = 'price ' || p.price FROM prices p WHERE p.name = items.name RETURNING items.name, note, p.price
----
name:text | note:text | price:numeric
a | price 1.5 | 1.5
b | price 2.5 | 2.5
UPDATE 2

UPDATE items i SET qty = i.qty * 10 FROM prices p WHERE p.name = i.name AND p.price > 2
----
UPDATE 1

SELECT name, qty, note FROM items WHERE name IN ('a', 'b') ORDER BY name
----
name:text | qty:int4 | note:text
a | 10 | price 1.5
b | 510 | price 2.5
SELECT 2

DELETE FROM items WHERE name LIKE 'copy-%' RETURNING name
----
name:text
copy-b
copy-c
DELETE 2

DELETE FROM items USING prices WHERE items.name = prices.name AND prices.price < 2 RETURNING items.id, prices.price
----
id:int4 | price:numeric
1 | 1.5
DELETE 1

DELETE FROM items i USING prices p WHERE i.name = p.name
----
DELETE 1

SELECT name FROM items ORDER BY name
----
name:text
1
c
d
e
new
NULL
SELECT 6

DELETE FROM items WHERE id = -1
----
DELETE 0

DELETE FROM items WHERE qty > (SELECT avg(qty) FROM items) RETURNING name
----
name:text
c
new
DELETE 2

TRUNCATE items
----
TRUNCATE TABLE

SELECT count(*) FROM items
----
count:int8
0
SELECT 1

TRUNCATE TABLE prices, items
----
TRUNCATE TABLE

INSERT INTO items (name) VALUES ('after-truncate') RETURNING name
----
name:text
after-truncate
INSERT 0 1

TRUNCATE nosuch
----
ERROR 42P01: relation "nosuch" does not exist

# CREATE TABLE AS and SELECT INTO forms.
CREATE TABLE snapshot AS SELECT name, qty * 2 AS dbl FROM items
----
SELECT 1

SELECT * FROM snapshot
----
name:text | dbl:int4
after-truncate | 2
SELECT 1

CREATE TABLE typed_copy AS SELECT 1::int2 AS s, 'x'::varchar(3) AS v, now()::date IS NOT NULL AS b
----
SELECT 1

SELECT s, v, b, pg_typeof(s), pg_typeof(v) FROM typed_copy
----
s:int2 | v:varchar | b:bool | pg_typeof:2206 | pg_typeof:2206
1 | x | t | smallint | character varying
SELECT 1

CREATE TABLE empty_copy AS SELECT * FROM items WITH NO DATA
----
CREATE TABLE AS

SELECT count(*) FROM empty_copy
----
count:int8
0
SELECT 1

CREATE TABLE renamed (a, b) AS VALUES (1, 'x'), (2, 'y')
----
SELECT 2

SELECT a, b FROM renamed ORDER BY a
----
a:int4 | b:text
1 | x
2 | y
SELECT 2

CREATE TABLE snapshot AS SELECT 1
----
ERROR 42P07: relation "snapshot" already exists

CREATE TABLE IF NOT EXISTS snapshot AS SELECT 1
----
CREATE TABLE AS

# Multi-row VALUES type resolution on insert.
CREATE TABLE mix (a numeric, b text, c timestamptz)
----
CREATE TABLE

INSERT INTO mix VALUES (1, 2, '2024-01-01 00:00:00+00'), (2.5, 'x', '2024-06-01 12:00:00-02')
----
INSERT 0 2

SELECT a, b, c FROM mix ORDER BY a
----
a:numeric | b:text | c:timestamptz
1 | 2 | 2024-01-01 00:00:00+00
2.5 | x | 2024-06-01 14:00:00+00
SELECT 2

INSERT INTO mix (a) SELECT generate_series(10, 12)
----
INSERT 0 3

SELECT count(*), sum(a) FROM mix
----
count:int8 | sum:numeric
5 | 36.5
SELECT 1

INSERT INTO mix (a) VALUES (1) RETURNING nosuch
----
ERROR 42703 at 42: column "nosuch" does not exist

UPDATE mix SET b = upper(b) WHERE b IS NOT NULL RETURNING a, b
----
a:numeric | b:text
1 | 2
2.5 | X
UPDATE 2

# WITH before INSERT, UPDATE and DELETE.
CREATE TABLE stock (sku text PRIMARY KEY, n int)
----
CREATE TABLE

WITH incoming(sku, n) AS (VALUES ('a', 5), ('b', 2)) INSERT INTO stock SELECT sku, n FROM incoming RETURNING sku, n
----
sku:text | n:int4
a | 5
b | 2
INSERT 0 2

WITH big AS (SELECT sku FROM stock WHERE n > 3) UPDATE stock SET n = n - 1 WHERE sku IN (SELECT sku FROM big) RETURNING sku, n
----
sku:text | n:int4
a | 4
UPDATE 1

WITH gone AS (SELECT 'b' AS sku) DELETE FROM stock s USING gone WHERE s.sku = gone.sku RETURNING s.sku
----
sku:text
b
DELETE 1

WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 3) INSERT INTO stock SELECT 'gen' || i, i FROM r
----
INSERT 0 3

SELECT sku, n FROM stock ORDER BY sku
----
sku:text | n:int4
a | 4
gen1 | 1
gen2 | 2
gen3 | 3
SELECT 4
