# What schema migrations send: ALTER COLUMN ... TYPE [USING], deferrable
# foreign keys and SET CONSTRAINTS, DROP COLUMN with what depends on it,
# VACUUM and ANALYZE, and the GROUP BY spelling ORM introspection uses.

CREATE TABLE mig (id int PRIMARY KEY, a text, b int DEFAULT 5, c varchar(10), d numeric(6,2) CHECK (d > 0))
----
CREATE TABLE

CREATE INDEX mig_a ON mig (a)
----
CREATE INDEX

INSERT INTO mig VALUES (1, '10', 1, 'x', 1.25), (2, '20', 2, 'yy', 2.5)
----
INSERT 0 2

ALTER TABLE mig ALTER COLUMN a TYPE int
----
ERROR 42804: column "a" cannot be cast automatically to type integer

ALTER TABLE mig ALTER COLUMN a TYPE int USING a::int
----
ALTER TABLE

SELECT id, a, pg_typeof(a) FROM mig WHERE a = 20
----
id:int4 | a:int4 | pg_typeof:2206
2 | 20 | integer
SELECT 1

ALTER TABLE mig ALTER COLUMN b TYPE bigint USING b * 10
----
ALTER TABLE

ALTER TABLE mig ALTER COLUMN c TYPE varchar(1)
----
ERROR 22001: value too long for type character varying(1)

ALTER TABLE mig ALTER COLUMN d TYPE numeric USING d - 3
----
ERROR 23514: check constraint "mig_d_check" of relation "mig" is violated by some row

ALTER TABLE mig ALTER COLUMN d TYPE int USING round(d)
----
ALTER TABLE

ALTER TABLE mig ALTER COLUMN b TYPE date
----
ERROR 42804: column "b" cannot be cast automatically to type date

ALTER TABLE mig ALTER COLUMN b TYPE text, ALTER COLUMN b TYPE int
----
ERROR 0A000: cannot alter type of column "b" twice

SELECT * FROM mig ORDER BY id
----
id:int4 | a:int4 | b:int8 | c:varchar | d:int4
1 | 10 | 10 | x | 1
2 | 20 | 20 | yy | 3
SELECT 2

SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'mig'::regclass AND attnum > 0 ORDER BY attnum
----
attname:name | format_type:text
id | integer
a | integer
b | bigint
c | character varying(10)
d | integer
SELECT 5

CREATE TABLE mig_p (id int PRIMARY KEY)
----
CREATE TABLE

CREATE TABLE mig_c (id int PRIMARY KEY, pid int REFERENCES mig_p DEFERRABLE INITIALLY DEFERRED)
----
CREATE TABLE

CREATE TABLE mig_c2 (id int PRIMARY KEY, pid int, CONSTRAINT mig_c2_fk FOREIGN KEY (pid) REFERENCES mig_p (id) DEFERRABLE)
----
CREATE TABLE

BEGIN; INSERT INTO mig_c VALUES (1, 10); INSERT INTO mig_p VALUES (10); COMMIT
----
BEGIN
INSERT 0 1
INSERT 0 1
COMMIT

BEGIN; INSERT INTO mig_c VALUES (2, 20); COMMIT
----
BEGIN
INSERT 0 1
ERROR 23503: insert or update on table "mig_c" violates foreign key constraint "mig_c_pid_fkey"

INSERT INTO mig_c VALUES (3, 30)
----
ERROR 23503: insert or update on table "mig_c" violates foreign key constraint "mig_c_pid_fkey"

BEGIN; SET CONSTRAINTS mig_c2_fk DEFERRED; INSERT INTO mig_c2 VALUES (1, 40); INSERT INTO mig_p VALUES (40); COMMIT
----
BEGIN
SET CONSTRAINTS
INSERT 0 1
INSERT 0 1
COMMIT

BEGIN; INSERT INTO mig_c VALUES (5, 50); SET CONSTRAINTS ALL IMMEDIATE; COMMIT
----
BEGIN
INSERT 0 1
ERROR 23503: insert or update on table "mig_c" violates foreign key constraint "mig_c_pid_fkey"

ROLLBACK
----
ROLLBACK

SET CONSTRAINTS mig_p_pkey DEFERRED
----
ERROR 42809: constraint "mig_p_pkey" is not deferrable

SELECT conname, condeferrable, condeferred, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid IN ('mig_c'::regclass, 'mig_c2'::regclass) AND contype = 'f' ORDER BY 1
----
conname:name | condeferrable:bool | condeferred:bool | pg_get_constraintdef:text
mig_c2_fk | t | f | FOREIGN KEY (pid) REFERENCES mig_p(id) DEFERRABLE
mig_c_pid_fkey | t | t | FOREIGN KEY (pid) REFERENCES mig_p(id) DEFERRABLE INITIALLY DEFERRED
SELECT 2

CREATE TABLE mig_d (id int PRIMARY KEY, u int UNIQUE, x int CHECK (x > 0))
----
CREATE TABLE

CREATE INDEX mig_d_x ON mig_d (x, u)
----
CREATE INDEX

ALTER TABLE mig_d DROP COLUMN x
----
ALTER TABLE

SELECT indexname FROM pg_indexes WHERE tablename = 'mig_d' ORDER BY 1
----
indexname:name
mig_d_pkey
mig_d_u_key
SELECT 2

VACUUM ANALYZE mig
----
VACUUM

VACUUM (ANALYZE) mig (a, b)
----
VACUUM

VACUUM mig (a)
----
ERROR 0A000: ANALYZE option must be specified when a column list is provided

VACUUM (foo) mig
----
ERROR 42601 at 9: unrecognized VACUUM option "foo"

ANALYZE nothere
----
ERROR 42P01: relation "nothere" does not exist

SELECT s.b, count(*) FROM (SELECT 1 AS a, 2 AS b) s GROUP BY b
----
b:int4 | count:int8
2 | 1
SELECT 1
