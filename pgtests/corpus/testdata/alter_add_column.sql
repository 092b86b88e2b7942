# ALTER TABLE ... ADD COLUMN with column constraints: they hold for the rows
# the column is filled in for, and for every later write.

CREATE TABLE acc (id int PRIMARY KEY, v text)
----
CREATE TABLE

INSERT INTO acc VALUES (1, 'a'), (2, 'b')
----
INSERT 0 2

ALTER TABLE acc ADD COLUMN u int UNIQUE
----
ALTER TABLE

INSERT INTO acc VALUES (3, 'c', 7), (4, 'd', NULL)
----
INSERT 0 2

INSERT INTO acc VALUES (5, 'e', 7)
----
ERROR 23505: duplicate key value violates unique constraint "acc_u_key"

ALTER TABLE acc ADD COLUMN d int DEFAULT 1 UNIQUE
----
ERROR 23505: could not create unique index "acc_d_key"

SELECT column_name FROM information_schema.columns WHERE table_name = 'acc' ORDER BY ordinal_position
----
column_name:name
id
v
u
SELECT 3

ALTER TABLE acc ADD COLUMN c int CHECK (c > 0)
----
ALTER TABLE

INSERT INTO acc VALUES (6, 'f', 8, 0)
----
ERROR 23514: new row for relation "acc" violates check constraint "acc_c_check"

INSERT INTO acc VALUES (6, 'f', 8, 5)
----
INSERT 0 1

ALTER TABLE acc ADD COLUMN c0 int DEFAULT 0 CHECK (c0 > 0)
----
ERROR 23514: check constraint "acc_c0_check" of relation "acc" is violated by some row

ALTER TABLE acc ADD COLUMN c1 int DEFAULT 3 CONSTRAINT acc_c1_positive CHECK (c1 > 0)
----
ALTER TABLE

INSERT INTO acc (id, v, c1) VALUES (7, 'g', -1)
----
ERROR 23514: new row for relation "acc" violates check constraint "acc_c1_positive"

ALTER TABLE acc ADD COLUMN nn int CONSTRAINT acc_nn NOT NULL
----
ERROR 23502: column "nn" of relation "acc" contains null values

ALTER TABLE acc ADD COLUMN nn int NOT NULL DEFAULT 4
----
ALTER TABLE

INSERT INTO acc (id, v, nn) VALUES (8, 'h', NULL)
----
ERROR 23502: null value in column "nn" of relation "acc" violates not-null constraint

ALTER TABLE acc ADD COLUMN k int PRIMARY KEY
----
ERROR 42P16: multiple primary keys for table "acc" are not allowed

ALTER TABLE acc ADD COLUMN two int UNIQUE, ADD COLUMN three int UNIQUE
----
ALTER TABLE

INSERT INTO acc (id, v, two, three) VALUES (9, 'i', 1, 1), (10, 'j', 2, 2)
----
INSERT 0 2

INSERT INTO acc (id, v, two, three) VALUES (11, 'k', 3, 2)
----
ERROR 23505: duplicate key value violates unique constraint "acc_three_key"

ALTER TABLE acc ADD CONSTRAINT acc_v_key UNIQUE (v), ADD CONSTRAINT acc_id_v_key UNIQUE (id, v)
----
ALTER TABLE

INSERT INTO acc (id, v) VALUES (12, 'a')
----
ERROR 23505: duplicate key value violates unique constraint "acc_v_key"

CREATE TABLE acc_parent (id int PRIMARY KEY)
----
CREATE TABLE

INSERT INTO acc_parent VALUES (1)
----
INSERT 0 1

ALTER TABLE acc ADD COLUMN p int REFERENCES acc_parent
----
ALTER TABLE

INSERT INTO acc (id, v, p) VALUES (13, 'm', 2)
----
ERROR 23503: insert or update on table "acc" violates foreign key constraint "acc_p_fkey"

INSERT INTO acc (id, v, p) VALUES (13, 'm', 1)
----
INSERT 0 1

ALTER TABLE acc ADD COLUMN p2 int DEFAULT 2 REFERENCES acc_parent
----
ERROR 23503: insert or update on table "acc" violates foreign key constraint "acc_p2_fkey"

SELECT id, v, u, c, c1, nn, two, three, p FROM acc ORDER BY id
----
id:int4 | v:text | u:int4 | c:int4 | c1:int4 | nn:int4 | two:int4 | three:int4 | p:int4
1 | a | NULL | NULL | 3 | 4 | NULL | NULL | NULL
2 | b | NULL | NULL | 3 | 4 | NULL | NULL | NULL
3 | c | 7 | NULL | 3 | 4 | NULL | NULL | NULL
4 | d | NULL | NULL | 3 | 4 | NULL | NULL | NULL
6 | f | 8 | 5 | 3 | 4 | NULL | NULL | NULL
9 | i | NULL | NULL | 3 | 4 | 1 | 1 | NULL
10 | j | NULL | NULL | 3 | 4 | 2 | 2 | NULL
13 | m | NULL | NULL | 3 | 4 | NULL | NULL | 1
SELECT 8

SELECT conname, contype FROM pg_constraint WHERE conrelid = 'acc'::regclass ORDER BY conname
----
conname:name | contype:char
acc_c1_positive | c
acc_c_check | c
acc_id_v_key | u
acc_p_fkey | f
acc_pkey | p
acc_three_key | u
acc_two_key | u
acc_u_key | u
acc_v_key | u
SELECT 9

# A NULL in one unique index's key leaves the row out of that index only:
# every later index still gets it, and still refuses duplicates.
CREATE TABLE acc_nulls (id int PRIMARY KEY, a int UNIQUE, b int UNIQUE, c int)
----
CREATE TABLE

CREATE INDEX acc_nulls_c ON acc_nulls (c)
----
CREATE INDEX

INSERT INTO acc_nulls VALUES (1, NULL, 10, 100), (2, NULL, 20, 200)
----
INSERT 0 2

INSERT INTO acc_nulls VALUES (3, NULL, 10, 300)
----
ERROR 23505: duplicate key value violates unique constraint "acc_nulls_b_key"

SELECT id FROM acc_nulls WHERE c = 200
----
id:int4
2
SELECT 1

SELECT id FROM acc_nulls WHERE b = 20
----
id:int4
2
SELECT 1

UPDATE acc_nulls SET a = 5 WHERE id = 1
----
UPDATE 1

SELECT id, a FROM acc_nulls WHERE c = 100
----
id:int4 | a:int4
1 | 5
SELECT 1

DELETE FROM acc_nulls WHERE c = 200
----
DELETE 1

SELECT id FROM acc_nulls ORDER BY id
----
id:int4
1
SELECT 1
