# Serial columns' sequences: nextval, currval, setval, lastval and
# pg_get_serial_sequence, as ORMs use them.

CREATE TABLE sq (id serial PRIMARY KEY, v text)
----
CREATE TABLE

SELECT currval('sq_id_seq')
----
ERROR 55000: currval of sequence "sq_id_seq" is not yet defined in this session

SELECT lastval()
----
ERROR 55000: lastval is not yet defined in this session

INSERT INTO sq (v) VALUES ('a'), ('b') RETURNING id
----
id:int4
1
2
INSERT 0 2

SELECT currval('sq_id_seq'), lastval(), pg_get_serial_sequence('sq', 'id')
----
currval:int8 | lastval:int8 | pg_get_serial_sequence:text
2 | 2 | public.sq_id_seq
SELECT 1

SELECT nextval('sq_id_seq'), nextval('sq_id_seq'), currval('sq_id_seq')
----
nextval:int8 | nextval:int8 | currval:int8
3 | 4 | 4
SELECT 1

INSERT INTO sq VALUES (10, 'x')
----
INSERT 0 1

SELECT setval(pg_get_serial_sequence('sq', 'id'), max(id)) FROM sq
----
setval:int8
10
SELECT 1

INSERT INTO sq (v) VALUES ('c') RETURNING id
----
id:int4
11
INSERT 0 1

SELECT setval('sq_id_seq', 20, false), currval('sq_id_seq')
----
setval:int8 | currval:int8
20 | 11
SELECT 1

SELECT nextval('sq_id_seq')
----
nextval:int8
20
SELECT 1

SELECT setval('sq_id_seq', 0)
----
ERROR 22003: setval: value 0 is out of bounds for sequence "sq_id_seq" (1..2147483647)

SELECT setval('sq_id_seq', 3000000000)
----
ERROR 22003: setval: value 3000000000 is out of bounds for sequence "sq_id_seq" (1..2147483647)

SELECT nextval('sq')
----
ERROR 42809: "sq" is not a sequence

SELECT nextval('nosuch_seq')
----
ERROR 42P01 at 16: relation "nosuch_seq" does not exist

SELECT nextval('sq_id_seq'::text)
----
nextval:int8
21
SELECT 1

CREATE TABLE bsq (id bigserial PRIMARY KEY, s smallserial)
----
CREATE TABLE

SELECT setval('bsq_s_seq', 32767), setval('bsq_id_seq', 9000000000)
----
setval:int8 | setval:int8
32767 | 9000000000
SELECT 1

INSERT INTO bsq DEFAULT VALUES RETURNING id
----
ERROR 2200H: nextval: reached maximum value of sequence "bsq_s_seq" (32767)

INSERT INTO bsq DEFAULT VALUES
----
ERROR 2200H: nextval: reached maximum value of sequence "bsq_s_seq" (32767)

SELECT nextval('sq_id_seq') FROM generate_series(1, 3)
----
nextval:int8
22
23
24
SELECT 3

SELECT id, v FROM sq ORDER BY id
----
id:int4 | v:text
1 | a
2 | b
10 | x
11 | c
SELECT 4
