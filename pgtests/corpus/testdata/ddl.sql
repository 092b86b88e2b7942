# ALTER TABLE, views, comments, schemas, drops.

CREATE TABLE t (id int PRIMARY KEY, a text, b int DEFAULT 5)
----
CREATE TABLE

INSERT INTO t VALUES (1, 'x', 1), (2, 'y', DEFAULT)
----
INSERT 0 2

ALTER TABLE t ADD COLUMN c text
----
ALTER TABLE

ALTER TABLE t ADD COLUMN d int NOT NULL DEFAULT 0
----
ALTER TABLE

ALTER TABLE t ADD COLUMN e int NOT NULL
----
ERROR 23502: column "e" of relation "t" contains null values

ALTER TABLE t ADD COLUMN IF NOT EXISTS c text
----
ALTER TABLE

ALTER TABLE t ADD COLUMN a text
----
ERROR 42701: column "a" of relation "t" already exists

SELECT * FROM t ORDER BY id
----
id:int4 | a:text | b:int4 | c:text | d:int4
1 | x | 1 | NULL | 0
2 | y | 5 | NULL | 0
SELECT 2

ALTER TABLE t DROP COLUMN c
----
ALTER TABLE

ALTER TABLE t DROP COLUMN IF EXISTS c
----
ALTER TABLE

ALTER TABLE t DROP COLUMN c
----
ERROR 42703: column "c" of relation "t" does not exist

SELECT * FROM t ORDER BY id
----
id:int4 | a:text | b:int4 | d:int4
1 | x | 1 | 0
2 | y | 5 | 0
SELECT 2

ALTER TABLE t RENAME COLUMN a TO alpha
----
ALTER TABLE

SELECT alpha FROM t ORDER BY id
----
alpha:text
x
y
SELECT 2

SELECT a FROM t
----
ERROR 42703 at 8: column "a" does not exist

ALTER TABLE t RENAME COLUMN nosuch TO x
----
ERROR 42703: column "nosuch" does not exist

ALTER TABLE t RENAME TO t2
----
ALTER TABLE

SELECT count(*) FROM t2
----
count:int8
2
SELECT 1

SELECT count(*) FROM t
----
ERROR 42P01 at 22: relation "t" does not exist

ALTER TABLE nosuch ADD COLUMN x int
----
ERROR 42P01: relation "nosuch" does not exist

ALTER TABLE IF EXISTS nosuch ADD COLUMN x int
----
ALTER TABLE

ALTER TABLE t2 ALTER COLUMN b SET DEFAULT 42
----
ALTER TABLE

INSERT INTO t2 (id, alpha) VALUES (3, 'z') RETURNING b, d
----
b:int4 | d:int4
42 | 0
INSERT 0 1

ALTER TABLE t2 ALTER COLUMN b DROP DEFAULT
----
ALTER TABLE

INSERT INTO t2 (id) VALUES (4) RETURNING b
----
b:int4
NULL
INSERT 0 1

ALTER TABLE t2 ALTER COLUMN alpha SET NOT NULL
----
ERROR 23502: column "alpha" of relation "t2" contains null values

ALTER TABLE t2 ALTER COLUMN b SET NOT NULL
----
ERROR 23502: column "b" of relation "t2" contains null values

ALTER TABLE t2 ALTER COLUMN alpha DROP NOT NULL
----
ALTER TABLE

ALTER TABLE t2 DROP COLUMN nosuch
----
ERROR 42703: column "nosuch" of relation "t2" does not exist

ALTER TABLE t2 ADD CONSTRAINT b_positive CHECK (b > 0)
----
ALTER TABLE

DELETE FROM t2 WHERE b IS NULL
----
DELETE 1

ALTER TABLE t2 ADD CONSTRAINT d_small CHECK (d < 10)
----
ALTER TABLE

INSERT INTO t2 (id, d) VALUES (10, 11)
----
ERROR 23514: new row for relation "t2" violates check constraint "d_small"

ALTER TABLE t2 DROP CONSTRAINT d_small
----
ALTER TABLE

INSERT INTO t2 (id, d) VALUES (10, 11)
----
INSERT 0 1

ALTER TABLE t2 DROP CONSTRAINT nosuch
----
ERROR 42704: constraint "nosuch" of relation "t2" does not exist

ALTER TABLE t2 ADD CONSTRAINT alpha_uniq UNIQUE (alpha)
----
ALTER TABLE

INSERT INTO t2 (id, alpha) VALUES (11, 'x')
----
ERROR 23505: duplicate key value violates unique constraint "alpha_uniq"

SELECT id, alpha, b, d FROM t2 ORDER BY id
----
id:int4 | alpha:text | b:int4 | d:int4
1 | x | 1 | 0
2 | y | 5 | 0
3 | z | 42 | 0
10 | NULL | NULL | 11
SELECT 4

# Views.
CREATE VIEW v_big AS SELECT id, alpha FROM t2 WHERE id > 1
----
CREATE VIEW

SELECT * FROM v_big ORDER BY id
----
id:int4 | alpha:text
2 | y
3 | z
10 | NULL
SELECT 3

CREATE VIEW v_cols (ident, label) AS SELECT id, alpha FROM t2
----
CREATE VIEW

SELECT label FROM v_cols WHERE ident = 1
----
label:text
x
SELECT 1

CREATE VIEW v_big AS SELECT 1
----
ERROR 42P07: relation "v_big" already exists

CREATE OR REPLACE VIEW v_big AS SELECT id, alpha, d FROM t2 WHERE id > 2
----
CREATE VIEW

SELECT * FROM v_big ORDER BY id
----
id:int4 | alpha:text | d:int4
3 | z | 0
10 | NULL | 11
SELECT 2

SELECT v.ident, t2.d FROM v_cols v JOIN t2 ON t2.id = v.ident ORDER BY 1
----
ident:int4 | d:int4
1 | 0
2 | 0
3 | 0
10 | 11
SELECT 4

CREATE VIEW v_agg AS SELECT count(*) AS n, max(id) AS top FROM t2
----
CREATE VIEW

SELECT * FROM v_agg
----
n:int8 | top:int4
4 | 10
SELECT 1

INSERT INTO v_agg VALUES (1, 2)
----
ERROR 55000: cannot insert into view "v_agg"

DROP VIEW v_agg
----
DROP VIEW

DROP VIEW v_agg
----
ERROR 42P01: view "v_agg" does not exist

DROP VIEW IF EXISTS v_agg
----
DROP VIEW

DROP TABLE v_big
----
ERROR 42809: "v_big" is not a table

DROP VIEW t2
----
ERROR 42809: "t2" is not a view

# Comments.
COMMENT ON TABLE t2 IS 'the table'
----
COMMENT

COMMENT ON COLUMN t2.alpha IS 'a letter'
----
COMMENT

SELECT obj_description('t2'::regclass, 'pg_class') AS t, col_description('t2'::regclass, 2) AS c
----
t:text | c:text
the table | a letter
SELECT 1

COMMENT ON TABLE t2 IS NULL
----
COMMENT

SELECT obj_description('t2'::regclass, 'pg_class') IS NULL AS cleared
----
cleared:bool
t
SELECT 1

COMMENT ON COLUMN t2.nosuch IS 'x'
----
ERROR 42703: column "nosuch" of relation "t2" does not exist

COMMENT ON TABLE nosuch IS 'x'
----
ERROR 42P01: relation "nosuch" does not exist

# Schemas.
CREATE SCHEMA app
----
CREATE SCHEMA

CREATE TABLE app.things (id int)
----
CREATE TABLE

INSERT INTO app.things VALUES (1)
----
INSERT 0 1

SELECT * FROM app.things
----
id:int4
1
SELECT 1

SELECT * FROM things
----
ERROR 42P01 at 15: relation "things" does not exist

SET search_path = app, public
----
SET

SELECT * FROM things
----
id:int4
1
SELECT 1

RESET search_path
----
RESET

CREATE SCHEMA app
----
ERROR 42P06: schema "app" already exists

CREATE SCHEMA IF NOT EXISTS app
----
CREATE SCHEMA

DROP SCHEMA app
----
ERROR 2BP01: cannot drop schema app because other objects depend on it

DROP SCHEMA app CASCADE
----
DROP SCHEMA

SELECT * FROM app.things
----
ERROR 42P01 at 15: relation "app.things" does not exist

# Drops.
CREATE TABLE gone (x int)
----
CREATE TABLE

DROP TABLE gone
----
DROP TABLE

DROP TABLE gone
----
ERROR 42P01: table "gone" does not exist

DROP TABLE IF EXISTS gone
----
DROP TABLE

DROP TABLE IF EXISTS gone, t2
----
ERROR 2BP01: cannot drop table t2 because other objects depend on it

CREATE TABLE t3 (x int, x text)
----
ERROR 42701: column "x" specified more than once

CREATE TABLE t3 (x nosuchtype)
----
ERROR 42704 at 20: type "nosuchtype" does not exist

CREATE TABLE t3 (x int PRIMARY KEY, y int PRIMARY KEY)
----
ERROR 42P16 at 43: multiple primary keys for table "t3" are not allowed

CREATE TABLE t3 (x int, PRIMARY KEY (nosuch))
----
ERROR 42703 at 25: column "nosuch" named in key does not exist

CREATE TABLE "T3" (x int)
----
CREATE TABLE

CREATE TABLE t3 (x int)
----
CREATE TABLE

CREATE TABLE t3 (x int)
----
ERROR 42P07: relation "t3" already exists

CREATE TABLE IF NOT EXISTS t3 (x int)
----
CREATE TABLE

SELECT * FROM "T3", t3
----
SELECT 0

# cdcdb keys rows (and their history) by the primary key: a deliberate difference.
CREATE TABLE keyed (id int PRIMARY KEY, v text)
----
CREATE TABLE

ALTER TABLE keyed DROP COLUMN id
----
ALTER TABLE
