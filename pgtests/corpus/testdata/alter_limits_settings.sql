# ALTER COLUMN defaults and NOT NULL, adding and dropping constraints,
# length and range limits on INSERT/UPDATE, SET/SHOW, temporary tables,
# schemas, VALUES typing, arrays and casts at their edges.

CREATE TABLE sq (id serial PRIMARY KEY, v text)
----
CREATE TABLE

INSERT INTO sq (v) VALUES ('a'), ('b') RETURNING id
----
id:int4
1
2
INSERT 0 2

INSERT INTO sq VALUES (10, 'x')
----
INSERT 0 1

INSERT INTO sq (v) VALUES ('c') RETURNING id
----
id:int4
3
INSERT 0 1

CREATE TABLE ac (id int PRIMARY KEY, a int, b text)
----
CREATE TABLE

INSERT INTO ac VALUES (1, 1, 'x'), (2, NULL, 'y')
----
INSERT 0 2

ALTER TABLE ac ALTER COLUMN a SET DEFAULT 42
----
ALTER TABLE

INSERT INTO ac (id) VALUES (3) RETURNING a
----
a:int4
42
INSERT 0 1

ALTER TABLE ac ALTER COLUMN a DROP DEFAULT
----
ALTER TABLE

INSERT INTO ac (id) VALUES (4) RETURNING a
----
a:int4
NULL
INSERT 0 1

ALTER TABLE ac ALTER COLUMN a SET NOT NULL
----
ERROR 23502: column "a" of relation "ac" contains null values

DELETE FROM ac WHERE a IS NULL
----
DELETE 2

ALTER TABLE ac ALTER COLUMN a SET NOT NULL
----
ALTER TABLE

INSERT INTO ac (id, b) VALUES (5, 'z')
----
ERROR 23502: null value in column "a" of relation "ac" violates not-null constraint

ALTER TABLE ac ALTER COLUMN a DROP NOT NULL
----
ALTER TABLE

INSERT INTO ac (id, b) VALUES (5, 'z') RETURNING *
----
id:int4 | a:int4 | b:text
5 | NULL | z
INSERT 0 1

ALTER TABLE ac ADD CONSTRAINT b_len CHECK (length(b) < 3)
----
ALTER TABLE

INSERT INTO ac VALUES (6, 1, 'long')
----
ERROR 23514: new row for relation "ac" violates check constraint "b_len"

ALTER TABLE ac DROP CONSTRAINT b_len
----
ALTER TABLE

ALTER TABLE ac DROP CONSTRAINT b_len
----
ERROR 42704: constraint "b_len" of relation "ac" does not exist

ALTER TABLE ac DROP CONSTRAINT IF EXISTS b_len
----
ALTER TABLE

ALTER TABLE ac ADD CONSTRAINT b_uniq UNIQUE (b)
----
ALTER TABLE

INSERT INTO ac VALUES (7, 1, 'x')
----
ERROR 23505: duplicate key value violates unique constraint "b_uniq"

INSERT INTO ac VALUES (7, 1, 'x')
----
ERROR 23505: duplicate key value violates unique constraint "b_uniq"

ALTER TABLE IF EXISTS nosuch ADD COLUMN x int
----
ALTER TABLE

ALTER TABLE ac ADD COLUMN IF NOT EXISTS b text
----
ALTER TABLE

ALTER TABLE ac DROP COLUMN IF EXISTS nosuch
----
ALTER TABLE

SELECT id, a, b FROM ac ORDER BY id
----
id:int4 | a:int4 | b:text
1 | 1 | x
3 | 42 | NULL
5 | NULL | z
SELECT 3

CREATE TABLE lim (n numeric(5,2), v varchar(3), c char(2), i int2)
----
CREATE TABLE

INSERT INTO lim VALUES (123.456, 'abc', 'a', 1)
----
INSERT 0 1

INSERT INTO lim VALUES (1234.5, 'a', 'a', 1)
----
ERROR 22003: numeric field overflow

INSERT INTO lim VALUES (1, 'abcd', 'a', 1)
----
ERROR 22001: value too long for type character varying(3)

INSERT INTO lim VALUES (1, 'abc   ', 'a', 1)
----
INSERT 0 1

INSERT INTO lim VALUES (1, 'a', 'abc', 1)
----
ERROR 22001: value too long for type character(2)

INSERT INTO lim VALUES (1, 'a', 'a', 40000)
----
ERROR 22003: smallint out of range

INSERT INTO lim VALUES (1, 'a'::varchar(10), 'a', '7')
----
INSERT 0 1

INSERT INTO lim (n) VALUES ('abc')
----
ERROR 22P02 at 29: invalid input syntax for type numeric: "abc"

INSERT INTO lim (i) VALUES (1.5)
----
INSERT 0 1

INSERT INTO lim (i) VALUES ('1.5')
----
ERROR 22P02 at 29: invalid input syntax for type smallint: "1.5"

SELECT n, v, c, i, length(c), c || '|' FROM lim ORDER BY n
----
n:numeric | v:varchar | c:bpchar | i:int2 | length:int4 | ?column?:text
1.00 | abc | "a " | 1 | 1 | "a|"
1.00 | a | "a " | 7 | 1 | "a|"
123.46 | abc | "a " | 1 | 1 | "a|"
NULL | NULL | NULL | 2 | NULL | NULL
SELECT 4

UPDATE lim SET v = 'toolong'
----
ERROR 22001: value too long for type character varying(3)

UPDATE lim SET v = 'abcdef'::varchar(3) RETURNING v
----
v:varchar
abc
abc
abc
abc
UPDATE 4

SHOW search_path
----
search_path:text
"\"$user\", public"
SHOW

SET search_path TO public
----
SET

SHOW standard_conforming_strings
----
standard_conforming_strings:text
on
SHOW

SET statement_timeout = '5s'
----
SET

SHOW statement_timeout
----
statement_timeout:text
5s
SHOW

RESET statement_timeout
----
RESET

SELECT current_setting('statement_timeout'), set_config('application_name', 'corpus', false), current_setting('application_name')
----
current_setting:text | set_config:text | current_setting:text
0 | corpus | corpus
SELECT 1

SHOW nosuch_setting
----
ERROR 42704: unrecognized configuration parameter "nosuch_setting"

# DEALLOCATE drops the statements a client prepared with the protocol's
# Parse message; this session prepared none.
DEALLOCATE nosuch
----
ERROR 26000: prepared statement "nosuch" does not exist

DEALLOCATE ALL
----
DEALLOCATE ALL

SELECT current_database() IS NOT NULL, current_schema(), current_schemas(false), current_user = session_user
----
?column?:bool | current_schema:name | current_schemas:_name | ?column?:bool
t | public | {public} | t
SELECT 1

CREATE TEMP TABLE tmp1 (a int)
----
CREATE TABLE

INSERT INTO tmp1 VALUES (1)
----
INSERT 0 1

SELECT * FROM tmp1
----
a:int4
1
SELECT 1

CREATE SCHEMA sch
----
CREATE SCHEMA

CREATE TABLE sch.t1 (a int)
----
CREATE TABLE

INSERT INTO sch.t1 VALUES (5)
----
INSERT 0 1

SELECT sch.t1.a, t1.a FROM sch.t1
----
a:int4 | a:int4
5 | 5
SELECT 1

SELECT * FROM t1
----
ERROR 42P01 at 15: relation "t1" does not exist

DROP SCHEMA sch
----
ERROR 2BP01: cannot drop schema sch because other objects depend on it

DROP SCHEMA sch CASCADE
----
DROP SCHEMA

VALUES (1, 'a'), (2, 'b') ORDER BY 1 DESC
----
column1:int4 | column2:text
2 | b
1 | a
SELECT 2

VALUES (1), ('x')
----
ERROR 22P02 at 14: invalid input syntax for type integer: "x"

SELECT * FROM (VALUES (1, NULL), (NULL, 'x')) v(a, b)
----
a:int4 | b:text
1 | NULL
NULL | x
SELECT 2

SELECT pg_typeof(a), pg_typeof(b) FROM (VALUES (1, NULL)) v(a, b)
----
pg_typeof:2206 | pg_typeof:2206
integer | text
SELECT 1

SELECT ARRAY[NULL], ARRAY[]::int[], ARRAY[1, NULL, 3] IS NULL, array_length(ARRAY[NULL], 1)
----
array:_text | array:_int4 | ?column?:bool | array_length:int4
{NULL} | {} | f | 1
SELECT 1

SELECT ARRAY[]
----
ERROR 42P18 at 8: cannot determine type of empty array

SELECT (ARRAY[1, 2, 3])[0], (ARRAY[1, 2, 3])[4], (ARRAY[1, 2, 3])[NULL], ('{1,2,3}'::int[])[2:2]
----
array:int4 | array:int4 | array:int4 | int4:_int4
NULL | NULL | NULL | {2}
SELECT 1

SELECT '{1,2,3}'::int[] @> '{2}', '{{1,2},{3,4}}'::int[], '{{1,2},{3}}'::int[]
----
ERROR 22P02 at 59: malformed array literal: "{{1,2},{3}}"

SELECT 'a'::text::varchar(1)::char(3) || 'b', 1::bool, 0::bool, true::int, '1'::bool::int
----
?column?:text | bool:bool | bool:bool | int4:int4 | int4:int4
ab | t | f | 1 | 1
SELECT 1

SELECT 1::bool::text, 't'::bool::text, 'yes'::text::bool
----
text:text | text:text | bool:bool
true | true | t
SELECT 1

SELECT 3::text::int + 1, '3.5'::float8::int, '-0'::float8, 1e-320::float8 > 0, '1e-400'::float8
----
ERROR 22003 at 80: "1e-400" is out of range for type double precision

SELECT 10::int2 / 3::int2, pg_typeof(10::int2 / 3::int2), 10::int2 * 10000::int2
----
ERROR 22003: smallint out of range

SELECT 1::int8 << 62, 1::int4 << 31, 1::int4 << 32, -1::int4 >> 1
----
?column?:int8 | ?column?:int4 | ?column?:int4 | ?column?:int4
4611686018427387904 | -2147483648 | 1 | -1
SELECT 1

SELECT 'abc' < 'abd', 'B' < 'a', 'é' > 'z', upper('é'), lower('Ä'), initcap('élan vital')
----
?column?:bool | ?column?:bool | ?column?:bool | upper:text | lower:text | initcap:text
t | t | t | é | Ä | éLan Vital
SELECT 1
