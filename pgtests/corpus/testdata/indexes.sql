# Secondary indexes: answers through an index equal those of a scan.

CREATE TABLE people (id int PRIMARY KEY, last text, first text, age int, city text)
----
CREATE TABLE

INSERT INTO people SELECT g, 'last' || (g % 17), 'first' || g, 18 + g % 50, CASE WHEN g % 3 = 0 THEN NULL ELSE 'city' || (g % 5) END FROM generate_series(1, 300) AS g
----
INSERT 0 300

CREATE INDEX people_age_idx ON people (age)
----
CREATE INDEX

CREATE INDEX ON people (last, first)
----
CREATE INDEX

CREATE UNIQUE INDEX people_first_key ON people (first)
----
CREATE INDEX

CREATE INDEX people_city ON people (city DESC)
----
CREATE INDEX

CREATE INDEX people_age_idx ON people (age)
----
ERROR 42P07: relation "people_age_idx" already exists

CREATE INDEX IF NOT EXISTS people_age_idx ON people (age)
----
CREATE INDEX

CREATE INDEX nosuch_idx ON nosuch (x)
----
ERROR 42P01: relation "nosuch" does not exist

CREATE INDEX bad_idx ON people (nosuch)
----
ERROR 42703: column "nosuch" does not exist

SELECT id FROM people WHERE age = 30 ORDER BY id
----
id:int4
12
62
112
162
212
262
SELECT 6

SELECT count(*) FROM people WHERE age > 60
----
count:int8
42
SELECT 1

SELECT count(*) FROM people WHERE age >= 60 AND age < 63
----
count:int8
18
SELECT 1

SELECT id, age FROM people WHERE age BETWEEN 20 AND 21 ORDER BY id
----
id:int4 | age:int4
2 | 20
3 | 21
52 | 20
53 | 21
102 | 20
103 | 21
152 | 20
153 | 21
202 | 20
203 | 21
252 | 20
253 | 21
SELECT 12

SELECT count(*) FROM people WHERE age < 19 OR age > 66
----
count:int8
12
SELECT 1

SELECT id FROM people WHERE last = 'last3' AND first = 'first20'
----
id:int4
20
SELECT 1

SELECT count(*) FROM people WHERE last = 'last3'
----
count:int8
18
SELECT 1

SELECT id FROM people WHERE last = 'last3' AND first > 'first2' ORDER BY id
----
id:int4
3
20
37
54
71
88
207
224
241
258
275
292
SELECT 12

SELECT id FROM people WHERE first = 'first42'
----
id:int4
42
SELECT 1

SELECT count(*) FROM people WHERE city = 'city1'
----
count:int8
40
SELECT 1

SELECT count(*) FROM people WHERE city IS NULL
----
count:int8
100
SELECT 1

SELECT count(*) FROM people WHERE city > 'city2'
----
count:int8
80
SELECT 1

SELECT id FROM people WHERE age = 30.0 ORDER BY id
----
id:int4
12
62
112
162
212
262
SELECT 6

SELECT id FROM people WHERE age = 30.5
----
SELECT 0

SELECT count(*) FROM people WHERE age = ANY(ARRAY[20, 21, 22])
----
count:int8
18
SELECT 1

SELECT count(*) FROM people WHERE age IN (20, 21, 22)
----
count:int8
18
SELECT 1

SELECT count(*) FROM people WHERE age = NULL
----
count:int8
0
SELECT 1

SELECT id FROM people WHERE age > 66 AND id < 20 ORDER BY id
----
SELECT 0

INSERT INTO people VALUES (301, 'x', 'first42', 1, NULL)
----
ERROR 23505: duplicate key value violates unique constraint "people_first_key"

INSERT INTO people VALUES (301, 'x', 'first301', 1, NULL)
----
INSERT 0 1

SELECT id FROM people WHERE age = 1
----
id:int4
301
SELECT 1

UPDATE people SET age = 2 WHERE id = 301
----
UPDATE 1

SELECT id FROM people WHERE age = 1
----
SELECT 0

SELECT id FROM people WHERE age = 2
----
id:int4
301
SELECT 1

DELETE FROM people WHERE age = 2 RETURNING id
----
id:int4
301
DELETE 1

SELECT count(*) FROM people WHERE age <= 18
----
count:int8
6
SELECT 1

UPDATE people SET first = 'first1' WHERE id = 2
----
ERROR 23505: duplicate key value violates unique constraint "people_first_key"

CREATE TABLE visits (person_id int, day date)
----
CREATE TABLE

INSERT INTO visits SELECT g % 300 + 1, DATE '2024-01-01' + g % 10 FROM generate_series(1, 500) AS g
----
INSERT 0 500

CREATE INDEX visits_person ON visits (person_id)
----
CREATE INDEX

SELECT count(*) FROM visits v JOIN people p ON p.id = v.person_id WHERE p.age = 30
----
count:int8
10
SELECT 1

SELECT p.id, count(v.day) FROM people p LEFT JOIN visits v ON v.person_id = p.id WHERE p.age = 30 GROUP BY p.id ORDER BY p.id
----
id:int4 | count:int8
12 | 2
62 | 2
112 | 2
162 | 2
212 | 1
262 | 1
SELECT 6

SELECT count(*) FROM people p JOIN visits v ON v.person_id = p.id AND v.day = DATE '2024-01-05'
----
count:int8
50
SELECT 1

DROP INDEX people_age_idx
----
DROP INDEX

SELECT count(*) FROM people WHERE age = 30
----
count:int8
6
SELECT 1

DROP INDEX people_age_idx
----
ERROR 42704: index "people_age_idx" does not exist

DROP INDEX IF EXISTS people_age_idx
----
DROP INDEX

DROP INDEX people_pkey
----
ERROR 2BP01: cannot drop index people_pkey because constraint people_pkey on table people requires it

ALTER TABLE people DROP COLUMN age
----
ALTER TABLE

SELECT count(*) FROM people WHERE city = 'city1'
----
count:int8
40
SELECT 1

ALTER TABLE people RENAME COLUMN city TO town
----
ALTER TABLE

SELECT count(*) FROM people WHERE town = 'city1'
----
count:int8
40
SELECT 1
