# Temporary tables in one session: where they live, what the catalogs say
# of them, the constraints they may not share with permanent tables, and ON
# COMMIT. (Two sessions: TestTemporaryTablesBelongToTheirSession.)

CREATE TABLE shadowed (v text)
----
CREATE TABLE

INSERT INTO shadowed VALUES ('permanent')
----
INSERT 0 1

CREATE VIEW shadowed_v AS SELECT v FROM shadowed
----
CREATE VIEW

CREATE TEMP TABLE shadowed (v text)
----
CREATE TABLE

INSERT INTO shadowed VALUES ('temporary')
----
INSERT 0 1

SELECT v FROM shadowed
----
v:text
temporary
SELECT 1

SELECT v FROM shadowed_v
----
v:text
permanent
SELECT 1

SELECT v FROM public.shadowed
----
v:text
permanent
SELECT 1

SELECT v FROM pg_temp.shadowed
----
v:text
temporary
SELECT 1

SELECT relpersistence, relnamespace::regnamespace::text ~ '^pg_temp_\d+$' AS in_temp FROM pg_class WHERE relname = 'shadowed' ORDER BY 1
----
relpersistence:char | in_temp:bool
p | f
t | t
SELECT 2

SELECT table_type, is_insertable_into, table_schema ~ '^pg_temp_\d+$' AS in_temp FROM information_schema.tables WHERE table_name = 'shadowed' ORDER BY 1
----
table_type:varchar | is_insertable_into:varchar | in_temp:bool
BASE TABLE | YES | f
LOCAL TEMPORARY | YES | t
SELECT 2

SELECT current_schema(), current_schemas(false), pg_my_temp_schema() <> 0 AS has_temp, pg_is_other_temp_schema(pg_my_temp_schema()) AS other
----
current_schema:name | current_schemas:_name | has_temp:bool | other:bool
public | {public} | t | f
SELECT 1

SELECT pg_table_is_visible('shadowed'::regclass), 'shadowed'::regclass = 'pg_temp.shadowed'::regclass AS temp_first
----
pg_table_is_visible:bool | temp_first:bool
t | t
SELECT 1

DROP TABLE shadowed
----
DROP TABLE

SELECT v FROM shadowed
----
v:text
permanent
SELECT 1

CREATE TEMP TABLE public.not_here (a int)
----
ERROR 42P16 at 19: cannot create temporary relation in non-temporary schema

CREATE TABLE pg_temp.made_temp (a int)
----
CREATE TABLE

SELECT relpersistence FROM pg_class WHERE relname = 'made_temp'
----
relpersistence:char
t
SELECT 1

CREATE TABLE perm_keys (id int PRIMARY KEY)
----
CREATE TABLE

CREATE TEMP TABLE temp_keys (id int PRIMARY KEY)
----
CREATE TABLE

CREATE TABLE perm_ref (x int REFERENCES temp_keys (id))
----
ERROR 42P16: constraints on permanent tables may reference only permanent tables

CREATE TEMP TABLE temp_ref (x int REFERENCES perm_keys (id))
----
ERROR 42P16: constraints on temporary tables may reference only temporary tables

ALTER TABLE perm_keys ADD FOREIGN KEY (id) REFERENCES temp_keys (id)
----
ERROR 42P16: constraints on permanent tables may reference only permanent tables

CREATE TEMP TABLE temp_self (id int PRIMARY KEY, parent int REFERENCES temp_self (id))
----
CREATE TABLE

INSERT INTO temp_self VALUES (1, NULL), (2, 1)
----
INSERT 0 2

INSERT INTO temp_self VALUES (3, 9)
----
ERROR 23503: insert or update on table "temp_self" violates foreign key constraint "temp_self_parent_fkey"

CREATE TEMP TABLE temp_child (x int REFERENCES temp_keys (id))
----
CREATE TABLE

INSERT INTO temp_keys VALUES (1)
----
INSERT 0 1

INSERT INTO temp_child VALUES (1)
----
INSERT 0 1

INSERT INTO temp_child VALUES (2)
----
ERROR 23503: insert or update on table "temp_child" violates foreign key constraint "temp_child_x_fkey"

CREATE TEMP TABLE temp_as AS SELECT 1 AS a
----
SELECT 1

SELECT relpersistence FROM pg_class WHERE relname = 'temp_as'
----
relpersistence:char
t
SELECT 1

CREATE TABLE p1 (a int) ON COMMIT DROP
----
ERROR 42P16: ON COMMIT can only be used on temporary tables

CREATE TABLE p2 (a int) ON COMMIT PRESERVE ROWS
----
ERROR 42P16: ON COMMIT can only be used on temporary tables

CREATE TABLE p3 ON COMMIT DROP AS SELECT 1
----
ERROR 42P16: ON COMMIT can only be used on temporary tables

CREATE TEMP TABLE oc1 (a int) ON COMMIT DROP
----
CREATE TABLE

SELECT count(*) FROM pg_class WHERE relname = 'oc1'
----
count:int8
0
SELECT 1

BEGIN
----
BEGIN

CREATE TEMP TABLE oc2 (a int) ON COMMIT DROP
----
CREATE TABLE

INSERT INTO oc2 VALUES (1)
----
INSERT 0 1

SELECT count(*) FROM oc2
----
count:int8
1
SELECT 1

COMMIT
----
COMMIT

SELECT count(*) FROM pg_class WHERE relname = 'oc2'
----
count:int8
0
SELECT 1

BEGIN
----
BEGIN

CREATE TEMP TABLE oc3 ON COMMIT DROP AS SELECT 1 AS a
----
SELECT 1

SELECT * FROM oc3
----
a:int4
1
SELECT 1

ROLLBACK
----
ROLLBACK

SELECT count(*) FROM pg_class WHERE relname = 'oc3'
----
count:int8
0
SELECT 1

CREATE TEMP TABLE od (a int PRIMARY KEY, b int) ON COMMIT DELETE ROWS
----
CREATE TABLE

CREATE INDEX ON od (b)
----
CREATE INDEX

INSERT INTO od VALUES (1, 1)
----
INSERT 0 1

SELECT count(*) FROM od
----
count:int8
0
SELECT 1

BEGIN
----
BEGIN

INSERT INTO od VALUES (1, 1), (2, 2)
----
INSERT 0 2

SELECT count(*) FROM od WHERE b = 2
----
count:int8
1
SELECT 1

COMMIT
----
COMMIT

SELECT count(*) FROM od
----
count:int8
0
SELECT 1

BEGIN
----
BEGIN

INSERT INTO od VALUES (3, 3)
----
INSERT 0 1

ROLLBACK
----
ROLLBACK

SELECT count(*) FROM od
----
count:int8
0
SELECT 1

CREATE TEMP TABLE p4 ON COMMIT DELETE ROWS AS SELECT 1 AS a
----
SELECT 1

SELECT count(*) FROM p4
----
count:int8
0
SELECT 1

CREATE TEMP TABLE op (a int) ON COMMIT PRESERVE ROWS
----
CREATE TABLE

INSERT INTO op VALUES (1)
----
INSERT 0 1

SELECT count(*) FROM op
----
count:int8
1
SELECT 1

BEGIN
----
BEGIN

CREATE TEMP TABLE dd (a int) ON COMMIT DROP
----
CREATE TABLE

DROP TABLE dd
----
DROP TABLE

COMMIT
----
COMMIT

DISCARD TEMP
----
DISCARD TEMP

SELECT count(*) FROM pg_class WHERE relpersistence = 't'
----
count:int8
0
SELECT 1

SELECT v FROM shadowed
----
v:text
permanent
SELECT 1

DROP VIEW shadowed_v
----
DROP VIEW

DROP TABLE shadowed
----
DROP TABLE

DROP TABLE perm_keys
----
DROP TABLE
