# Expressions, casts, operators and query shapes at their edges: overflow,
# rounding, NULLs, FETCH WITH TIES, DISTINCT ON rules, COLLATE names, LIKE
# operator spellings.

CREATE TABLE p (id int PRIMARY KEY, g text, v numeric, t timestamp, arr int[])
----
CREATE TABLE

INSERT INTO p VALUES (1, 'a', 1.5, '2024-01-01 10:00', '{1,2,3}'), (2, 'a', NULL, '2024-02-29 23:59:59.999', '{}'), (3, 'b', -2, NULL, NULL), (4, NULL, 0, '2023-12-31', '{4,NULL}')
----
INSERT 0 4

SELECT id FROM p ORDER BY v DESC NULLS LAST FETCH FIRST 2 ROWS WITH TIES
----
id:int4
1
4
SELECT 2

SELECT id FROM p ORDER BY g FETCH FIRST 1 ROWS WITH TIES
----
id:int4
1
2
SELECT 2

TABLE p ORDER BY id
----
id:int4 | g:text | v:numeric | t:timestamp | arr:_int4
1 | a | 1.5 | 2024-01-01 10:00:00 | {1,2,3}
2 | a | NULL | 2024-02-29 23:59:59.999 | {}
3 | b | -2 | NULL | NULL
4 | NULL | 0 | 2023-12-31 00:00:00 | {4,NULL}
SELECT 4

SELECT arr[2:3], arr[:1], arr[2:], arr[5] FROM p ORDER BY id
----
arr:_int4 | arr:_int4 | arr:_int4 | arr:int4
{2,3} | {1} | {2,3} | NULL
{} | {} | {} | NULL
NULL | NULL | NULL | NULL
{NULL} | {4} | {NULL} | NULL
SELECT 4

SELECT cardinality(arr), array_length(arr, 1), arr IS NULL FROM p ORDER BY id
----
cardinality:int4 | array_length:int4 | ?column?:bool
3 | 3 | f
0 | NULL | f
NULL | NULL | t
2 | 2 | f
SELECT 4

SELECT 2147483647::int + 1
----
ERROR 22003: integer out of range

SELECT (-32768)::smallint - 1::smallint
----
ERROR 22003: smallint out of range

SELECT 9223372036854775807 + 1
----
ERROR 22003: bigint out of range

SELECT -2147483648::int
----
ERROR 22003: integer out of range

SELECT abs(-2147483648::int)
----
ERROR 22003: integer out of range

SELECT '1e400'::float8
----
ERROR 22003 at 8: "1e400" is out of range for type double precision

SELECT 1e308::float8 * 10
----
ERROR 22003: value out of range: overflow

SELECT 0.1::float8 + 0.2::float8, 1e16::float8, 1e-5::float8, 123456789012345678::float8, (-0.0)::float8, 1.5::real * 3
----
?column?:float8 | float8:float8 | float8:float8 | float8:float8 | float8:float8 | ?column?:float8
0.30000000000000004 | 1e+16 | 1e-05 | 1.2345678901234568e+17 | 0 | 4.5
SELECT 1

SELECT 'yes'::bool, 'off'::bool, 't'::bool, ' 1 '::bool, 'maybe'::bool
----
ERROR 22P02 at 58: invalid input syntax for type boolean: "maybe"

SELECT '12'::int2, ' 42 '::int, '0x1F'::int
----
ERROR 22P02 at 33: invalid input syntax for type integer: "0x1F"

SELECT '1_000'::int
----
ERROR 22P02 at 8: invalid input syntax for type integer: "1_000"

SELECT 1/0
----
ERROR 22012: division by zero

SELECT 1.0/0
----
ERROR 22012: division by zero

SELECT 1::float8/0
----
ERROR 22012: division by zero

SELECT 5 % 0
----
ERROR 22012: division by zero

SELECT interval '1 year 2 months 3 days 04:05:06.789', interval '-1 day +2 hours', interval '1.5 days', interval '90 minutes', interval 'P1Y2M3DT4H5M6S'
----
interval:interval | interval:interval | interval:interval | interval:interval | interval:interval
1 year 2 mons 3 days 04:05:06.789 | -1 days +02:00:00 | 1 day 12:00:00 | 01:30:00 | 1 year 2 mons 3 days 04:05:06
SELECT 1

SELECT interval '1 day' * 1.5, interval '1 hour' / 3, interval '1 month' - interval '1 day', -interval '1 day'
----
?column?:interval | ?column?:interval | ?column?:interval | ?column?:interval
1 day 12:00:00 | 00:20:00 | 1 mon -1 days | -1 days
SELECT 1

SELECT '2024-03-10'::date - '2024-01-01'::date, '2024-03-10 12:00'::timestamp - '2024-03-09'::timestamp
----
?column?:int4 | ?column?:interval
69 | 1 day 12:00:00
SELECT 1

SELECT 'infinity'::timestamp, '-infinity'::date, 'infinity'::timestamp > now()::timestamp, extract(year FROM 'infinity'::timestamp)
----
timestamp:timestamp | date:date | ?column?:bool | extract:numeric
infinity | -infinity | t | Infinity
SELECT 1

SELECT '2024-02-30'::date
----
ERROR 22008 at 8: date/time field value out of range: "2024-02-30"

SELECT '25:00'::time
----
ERROR 22008 at 8: date/time field value out of range: "25:00"

SELECT '2024-01-01 10:00:00.1234567'::timestamp, '2024-01-01 10:00:00.5'::timestamp(0), '10:00:00.129'::time(2)
----
timestamp:timestamp | timestamp:timestamp | time:time
2024-01-01 10:00:00.123457 | 2024-01-01 10:00:01 | 10:00:00.13
SELECT 1

SELECT to_char(v, 'FM999.00'), round(v), round(v, 1), v::int FROM p ORDER BY id
----
to_char:text | round:numeric | round:numeric | v:int4
1.50 | 2 | 1.5 | 2
NULL | NULL | NULL | NULL
-2.00 | -2 | -2.0 | -2
.00 | 0 | 0.0 | 0
SELECT 4

SELECT 2.5::int, 3.5::int, (-2.5)::int, 2.5::float8::int, 3.5::float8::int
----
int4:int4 | int4:int4 | int4:int4 | int4:int4 | int4:int4
3 | 4 | -3 | 2 | 4
SELECT 1

SELECT '3.7'::numeric::int, '3.7'::int
----
ERROR 22P02 at 29: invalid input syntax for type integer: "3.7"

SELECT 123.456::numeric(5,2), 999.995::numeric(5,2)
----
ERROR 22003: numeric field overflow

SELECT 'abc'::varchar(2), 'abc'::char(5) || 'x', length('ab '::char(5)), 'ab'::char(3) = 'ab '::char(3)
----
varchar:varchar | ?column?:text | length:int4 | ?column?:bool
ab | abcx | 2 | t
SELECT 1

SELECT CAST('42' AS integer), CAST(3.9 AS int), CAST('x' AS bytea), CAST(1 AS text) || CAST(2 AS varchar)
----
int4:int4 | int4:int4 | bytea:bytea | ?column?:text
42 | 4 | "\\x78" | 12
SELECT 1

SELECT id, CASE WHEN v > 0 THEN 'pos' WHEN v < 0 THEN 'neg' END FROM p ORDER BY id
----
id:int4 | case:text
1 | pos
2 | NULL
3 | neg
4 | NULL
SELECT 4

SELECT id, CASE g WHEN 'a' THEN 1 WHEN 'b' THEN 2 ELSE 0 END FROM p ORDER BY id
----
id:int4 | case:int4
1 | 1
2 | 1
3 | 2
4 | 0
SELECT 4

SELECT coalesce(v, 0) + 1, nullif(g, 'a'), greatest(1, v, 0.5), least('b', g) FROM p ORDER BY id
----
?column?:numeric | nullif:text | greatest:numeric | least:text
2.5 | NULL | 1.5 | a
1 | NULL | 1 | a
-1 | b | 1 | b
1 | NULL | 1 | b
SELECT 4

SELECT CASE WHEN true THEN 1 ELSE 'x' END
----
ERROR 22P02 at 35: invalid input syntax for type integer: "x"

SELECT CASE WHEN false THEN 1 ELSE 2.5 END, pg_typeof(CASE WHEN false THEN 1 ELSE 2.5 END)
----
case:numeric | pg_typeof:2206
2.5 | numeric
SELECT 1

SELECT g, count(*), sum(v), avg(v), min(t), max(t) FROM p GROUP BY g ORDER BY g NULLS FIRST
----
g:text | count:int8 | sum:numeric | avg:numeric | min:timestamp | max:timestamp
NULL | 1 | 0 | 0.00000000000000000000 | 2023-12-31 00:00:00 | 2023-12-31 00:00:00
a | 2 | 1.5 | 1.50000000000000000000 | 2024-01-01 10:00:00 | 2024-02-29 23:59:59.999
b | 1 | -2 | -2.0000000000000000 | NULL | NULL
SELECT 3

SELECT count(DISTINCT g), count(g), count(*) FILTER (WHERE v IS NULL) FROM p
----
count:int8 | count:int8 | count:int8
2 | 3 | 1
SELECT 1

SELECT string_agg(g, ',' ORDER BY id DESC), array_agg(v ORDER BY v NULLS FIRST), array_agg(DISTINCT g) FROM p
----
string_agg:text | array_agg:_numeric | array_agg:_text
b,a,a | {NULL,-2,0,1.5} | {a,b,NULL}
SELECT 1

SELECT avg(x), sum(x), pg_typeof(sum(x)), pg_typeof(avg(x)) FROM (VALUES (1::int), (2), (4)) v(x)
----
avg:numeric | sum:int8 | pg_typeof:2206 | pg_typeof:2206
2.3333333333333333 | 7 | bigint | numeric
SELECT 1

SELECT avg(x)::numeric(10,4), sum(x) FROM (VALUES (1.5::float4), (2.25)) v(x)
----
avg:numeric | sum:float4
1.8750 | 3.75
SELECT 1

SELECT bool_and(x), bool_or(x), every(x) FROM (VALUES (true), (NULL), (false)) v(x)
----
bool_and:bool | bool_or:bool | every:bool
f | t | f
SELECT 1

SELECT max(x), min(x) FROM (VALUES ('{1,2}'::int[]), ('{1,3}')) v(x)
----
max:_int4 | min:_int4
{1,3} | {1,2}
SELECT 1

SELECT sum(x) FROM (VALUES (9223372036854775807::int8), (1)) v(x)
----
sum:numeric
9223372036854775808
SELECT 1

SELECT count(*) FROM p WHERE false
----
count:int8
0
SELECT 1

SELECT sum(v) FROM p WHERE false
----
sum:numeric
NULL
SELECT 1

SELECT 1 WHERE false
----
SELECT 0

SELECT g FROM p GROUP BY g HAVING count(*) > 1
----
g:text
a
SELECT 1

SELECT id FROM p WHERE id IN (SELECT id FROM p WHERE v > 0) OR id NOT IN (1, 2, NULL)
----
id:int4
1
SELECT 1

SELECT id FROM p WHERE id NOT IN (SELECT v FROM p)
----
SELECT 0

SELECT id, (SELECT max(v) FROM p p2 WHERE p2.g = p.g) FROM p ORDER BY id
----
id:int4 | max:numeric
1 | 1.5
2 | 1.5
3 | -2
4 | NULL
SELECT 4

SELECT (SELECT id FROM p)
----
ERROR 21000: more than one row returned by a subquery used as an expression

SELECT id FROM p WHERE EXISTS (SELECT 1 FROM p q WHERE q.g = p.g AND q.id <> p.id) ORDER BY 1
----
id:int4
1
2
SELECT 2

SELECT * FROM (VALUES (1, 'x'), (2, 'y')) AS t(a, b) WHERE a > 1
----
a:int4 | b:text
2 | y
SELECT 1

SELECT a, b FROM (VALUES (1, 2)) v(a)
----
ERROR 42703 at 11: column "b" does not exist

SELECT * FROM (VALUES (1, 2)) v(a, b, c)
----
ERROR 42P10: table "v" has 2 columns available but 3 columns specified

SELECT 'a' || 1 || true, 1 || 'a', ARRAY[1] || 2, 0 || ARRAY[1], ARRAY[1] || ARRAY[2]
----
?column?:text | ?column?:text | ?column?:_int4 | ?column?:_int4 | ?column?:_int4
a1true | 1a | {1,2} | {0,1} | {1,2}
SELECT 1

SELECT 'abc' ~ 'b', 'abc' ~* 'B', 'abc' !~ 'z', 'abc' !~* 'C', 'abc' SIMILAR TO 'a%', 'abc' SIMILAR TO '(a|b)c'
----
?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool
t | t | t | f | t | f
SELECT 1

SELECT 'Abc' ILIKE 'a%', 'Abc' NOT ILIKE '%C', 'a' LIKE NULL, NULL ~~ 'a'
----
?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool
t | f | NULL | NULL
SELECT 1

SELECT regexp_replace('aaa', 'a', 'b', 2), regexp_replace('Abc', '(b)(c)', '\2\1'), regexp_matches('abc', '(a)(x)?')
----
regexp_replace:text | regexp_replace:text | regexp_matches:_text
aba | Acb | {a,NULL}
SELECT 1

SELECT substring('foobar' FROM 'o+b'), substring('foobar' FROM '#"o_b#"%' FOR '#'), substring('abc', 'x')
----
substring:text | substring:text | substring:text
oob | NULL | NULL
SELECT 1

SELECT 1 IS DISTINCT FROM NULL, NULL IS NOT DISTINCT FROM NULL, ROW(1, NULL) IS DISTINCT FROM ROW(1, NULL), ROW(1, 2) < ROW(1, 3)
----
?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool
t | t | f | t
SELECT 1

SELECT ROW(1, 'a'), (1, 2) = (1, 2), ROW(NULL, 1) IS NULL, ROW(NULL, NULL) IS NULL
----
row:record | ?column?:bool | ?column?:bool | ?column?:bool
(1,a) | t | f | t
SELECT 1

SELECT 3 = ANY(ARRAY[1, 2, 3]), 3 = ALL(ARRAY[3, 3]), 3 <> ALL('{}'::int[]), NULL = ANY(ARRAY[1]), 1 = ANY(ARRAY[NULL, 1])
----
?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool
t | t | t | NULL | t
SELECT 1

SELECT id FROM p WHERE id = ANY(SELECT id FROM p WHERE g = 'a') ORDER BY id
----
id:int4
1
2
SELECT 2

SELECT ARRAY(SELECT id FROM p ORDER BY id DESC), ARRAY[[1, 2], [3, 4]][2][1], ARRAY['a', NULL], '{"a b", c}'::text[]
----
ERROR 42601 at 71: syntax error at or near "["

SELECT ARRAY[1, 2]::text[], '{1,2}'::int[] = ARRAY[1, 2], ARRAY[1.5, 2]::int[], array_to_string(ARRAY['a', NULL, 'c'], ',', '*')
----
array:_text | ?column?:bool | array:_int4 | array_to_string:text
{1,2} | t | {2,2} | a,*,c
SELECT 1

SELECT 'x' COLLATE "C" < 'Y', 'a' < 'B' COLLATE "C"
----
?column?:bool | ?column?:bool
f | f
SELECT 1

SELECT 'x' COLLATE "nosuch"
----
ERROR 42704 at 12: collation "nosuch" for encoding "UTF8" does not exist

SELECT id FROM p ORDER BY g COLLATE "C" DESC NULLS FIRST, id
----
id:int4
4
3
1
2
SELECT 4

SELECT E'a\tb\\n', E'\x41\u0042', $$it's$$, $tag$a$$b$tag$, U&'\0041', 'a''b', 'a' 'b'
----
ERROR 42601 at 84: syntax error at or near "'b'"

SELECT "id", "G" FROM p
----
ERROR 42703 at 14: column "G" does not exist

SELECT 1 AS "Mixed Case", 2 AS lower_case, 3 AS "select"
----
Mixed Case:int4 | lower_case:int4 | select:int4
1 | 2 | 3
SELECT 1

SELECT 'p'::regclass, 'p'::regclass::oid > 0, 'int4'::regtype, 'integer[]'::regtype, 'text'::regtype::oid
----
regclass:2205 | ?column?:bool | regtype:2206 | regtype:2206 | oid:oid
p | t | integer | integer[] | 25
SELECT 1

SELECT 'nosuch'::regclass
----
ERROR 42P01 at 8: relation "nosuch" does not exist

SELECT 1 OPERATOR(pg_catalog.+) 2, 'abc' OPERATOR(pg_catalog.~) 'b'
----
?column?:int4 | ?column?:bool
3 | t
SELECT 1

SELECT DISTINCT ON (g) g, id FROM p ORDER BY g, id DESC
----
g:text | id:int4
a | 2
b | 3
NULL | 4
SELECT 3

SELECT DISTINCT g FROM p ORDER BY g
----
g:text
a
b
NULL
SELECT 3

SELECT DISTINCT ON (g) g, id FROM p ORDER BY id
----
ERROR 42P10 at 21: SELECT DISTINCT ON expressions must match initial ORDER BY expressions

SELECT id FROM p ORDER BY 5
----
ERROR 42P10 at 27: ORDER BY position 5 is not in select list

SELECT id AS x FROM p ORDER BY x + 1
----
ERROR 42703 at 32: column "x" does not exist

SELECT id, v FROM p ORDER BY v IS NULL, v
----
id:int4 | v:numeric
3 | -2
4 | 0
1 | 1.5
2 | NULL
SELECT 4

SELECT g, sum(id) OVER (PARTITION BY g ORDER BY id), row_number() OVER w, ntile(2) OVER w, percent_rank() OVER w, cume_dist() OVER w FROM p WINDOW w AS (ORDER BY id) ORDER BY id
----
g:text | sum:int8 | row_number:int8 | ntile:int4 | percent_rank:float8 | cume_dist:float8
a | 1 | 1 | 1 | 0 | 0.25
a | 3 | 2 | 1 | 0.3333333333333333 | 0.5
b | 3 | 3 | 2 | 0.6666666666666666 | 0.75
NULL | 4 | 4 | 2 | 1 | 1
SELECT 4

SELECT id, lag(id, 1, 0) OVER (ORDER BY id), lead(v) OVER (ORDER BY id), first_value(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), nth_value(id, 2) OVER (ORDER BY id) FROM p ORDER BY id
----
id:int4 | lag:int4 | lead:numeric | first_value:int4 | nth_value:int4
1 | 0 | NULL | 1 | NULL
2 | 1 | -2 | 1 | 2
3 | 2 | 0 | 2 | 2
4 | 3 | NULL | 3 | 2
SELECT 4

SELECT id, count(*) OVER () FROM p ORDER BY id LIMIT 2 OFFSET 1
----
id:int4 | count:int8
2 | 4
3 | 4
SELECT 2

SELECT sum(count(*)) OVER () FROM p GROUP BY g
----
sum:numeric
4
4
4
SELECT 3

SELECT row_number() OVER (ORDER BY id) FROM p WHERE row_number() OVER () > 1
----
ERROR 42P20 at 53: window functions are not allowed in WHERE

WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT sum(n) FROM r
----
sum:int8
15
SELECT 1

WITH RECURSIVE fib(a, b) AS (SELECT 0::numeric, 1::numeric UNION ALL SELECT b, a + b FROM fib WHERE a < 100) SELECT max(a) FROM fib
----
max:numeric
144
SELECT 1

WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT * FROM a, b
----
x:int4 | y:int4
1 | 2
SELECT 1

WITH a AS (SELECT 1) SELECT * FROM a, a
----
ERROR 42712: table name "a" specified more than once

SELECT 1 UNION SELECT 2 ORDER BY 1 DESC
----
?column?:int4
2
1
SELECT 2

SELECT 1 AS x UNION ALL SELECT 1 INTERSECT SELECT 1
----
x:int4
1
1
SELECT 2

(SELECT 1 AS x UNION ALL SELECT 2) EXCEPT ALL SELECT 2
----
x:int4
1
SELECT 1

SELECT 1, 2 UNION SELECT 1
----
ERROR 42601 at 26: each UNION query must have the same number of columns

SELECT 1 UNION SELECT 'a'
----
ERROR 22P02 at 23: invalid input syntax for type integer: "a"

SELECT NULL UNION SELECT 1
----
?column?:int4
1
NULL
SELECT 2

SELECT 'a' UNION SELECT 'b' ORDER BY 1 LIMIT 1
----
?column?:text
a
SELECT 1

SELECT * FROM p a JOIN p b ON a.id = b.id + 1 ORDER BY a.id
----
id:int4 | g:text | v:numeric | t:timestamp | arr:_int4 | id:int4 | g:text | v:numeric | t:timestamp | arr:_int4
2 | a | NULL | 2024-02-29 23:59:59.999 | {} | 1 | a | 1.5 | 2024-01-01 10:00:00 | {1,2,3}
3 | b | -2 | NULL | NULL | 2 | a | NULL | 2024-02-29 23:59:59.999 | {}
4 | NULL | 0 | 2023-12-31 00:00:00 | {4,NULL} | 3 | b | -2 | NULL | NULL
SELECT 3

SELECT a.id, b.id FROM p a LEFT JOIN p b ON a.g = b.g AND a.id < b.id ORDER BY a.id, b.id
----
id:int4 | id:int4
1 | 2
2 | NULL
3 | NULL
4 | NULL
SELECT 4

SELECT a.id, b.id FROM p a FULL JOIN p b ON a.v = b.v ORDER BY a.id, b.id
----
id:int4 | id:int4
1 | 1
2 | NULL
3 | 3
4 | 4
NULL | 2
SELECT 5

SELECT * FROM p a RIGHT JOIN (VALUES (1), (9)) v(id) USING (id) ORDER BY id
----
id:int4 | g:text | v:numeric | t:timestamp | arr:_int4
1 | a | 1.5 | 2024-01-01 10:00:00 | {1,2,3}
9 | NULL | NULL | NULL | NULL
SELECT 2

SELECT count(*) FROM p CROSS JOIN p q
----
count:int8
16
SELECT 1

SELECT * FROM p NATURAL JOIN (SELECT 1 AS id, 'a' AS g) s
----
id:int4 | g:text | v:numeric | t:timestamp | arr:_int4
1 | a | 1.5 | 2024-01-01 10:00:00 | {1,2,3}
SELECT 1

SELECT id FROM p JOIN p q USING (nosuch)
----
ERROR 42703: column "nosuch" specified in USING clause does not exist in left table

SELECT id FROM p, p q
----
ERROR 42702 at 8: column reference "id" is ambiguous

SELECT p.id FROM p, LATERAL (SELECT p.id * 2 AS d) l WHERE l.d > 4
----
id:int4
3
4
SELECT 2

SELECT * FROM p WHERE t > '2024-01-15'
----
id:int4 | g:text | v:numeric | t:timestamp | arr:_int4
2 | a | NULL | 2024-02-29 23:59:59.999 | {}
SELECT 1

SELECT * FROM p WHERE t::date = '2024-02-29'
----
id:int4 | g:text | v:numeric | t:timestamp | arr:_int4
2 | a | NULL | 2024-02-29 23:59:59.999 | {}
SELECT 1

SELECT id FROM p WHERE g = 1
----
ERROR 42883 at 26: operator does not exist: text = integer

SELECT id FROM p WHERE id = '1'
----
id:int4
1
SELECT 1

SELECT id FROM p WHERE id = 'x'
----
ERROR 22P02 at 29: invalid input syntax for type integer: "x"

SELECT id FROM p WHERE v = 'abc'
----
ERROR 22P02 at 28: invalid input syntax for type numeric: "abc"

SELECT id, g FROM p WHERE g IN ('a', 'b') AND id BETWEEN 1 AND 3 ORDER BY id
----
id:int4 | g:text
1 | a
2 | a
3 | b
SELECT 3

SELECT id FROM p WHERE id NOT BETWEEN 2 AND 3 ORDER BY id
----
id:int4
1
4
SELECT 2

SELECT id FROM p WHERE id BETWEEN SYMMETRIC 3 AND 2 ORDER BY id
----
id:int4
2
3
SELECT 2

SELECT now()::date - current_date, date_trunc('day', now()) <= now(), age(now()) >= interval '0'
----
?column?:int4 | ?column?:bool | ?column?:bool
0 | t | f
SELECT 1

SELECT extract(epoch FROM interval '1 month'), extract(quarter FROM DATE '2024-05-01'), extract(isodow FROM DATE '2024-03-17'), extract(week FROM DATE '2024-01-01')
----
extract:numeric | extract:numeric | extract:numeric | extract:numeric
2592000.000000 | 2 | 7 | 1
SELECT 1

SELECT date_trunc('quarter', DATE '2024-05-15'), date_trunc('year', TIMESTAMPTZ '2024-05-15 10:00+00'), date_trunc('minute', interval '1 day 01:02:03')
----
date_trunc:timestamptz | date_trunc:timestamptz | date_trunc:interval
2024-04-01 00:00:00+00 | 2024-01-01 00:00:00+00 | 1 day 01:02:00
SELECT 1

SELECT to_char(now(), 'YYYY') = extract(year FROM now())::text
----
?column?:bool
t
SELECT 1

SELECT pg_sleep(0), pg_typeof(pg_sleep(0)), gen_random_uuid() IS NOT NULL, length(gen_random_uuid()::text)
----
pg_sleep:2278 | pg_typeof:2206 | ?column?:bool | length:int4
"" | void | t | 36
SELECT 1

SELECT md5(NULL), length(md5('x')), sha256('abc'::bytea)
----
md5:text | length:int4 | sha256:bytea
NULL | 32 | "\\xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
SELECT 1

SELECT left('abcdef', 2), right('abcdef', 2), left('abc', -1), right('abc', -1), overlay('abcdef' PLACING 'XY' FROM 2 FOR 3)
----
left:text | right:text | left:text | right:text | overlay:text
ab | ef | ab | bc | aXYef
SELECT 1

SELECT format('%s|%3s|%-3s|%L|%I', 1, 'a', 'b', NULL, 'x y'), format('%2$s %1$s', 'a', 'b')
----
format:text | format:text
"1|  a|b  |NULL|\"x y\"" | b a
SELECT 1

SELECT to_number('1,234.5', '9,999.9'), to_char(0.5, '0.99'), to_char(-5, 'S999'), to_char(1234, 'FM9,999')
----
to_number:numeric | to_char:text | to_char:text | to_char:text
1234.5 | " 0.50" | "  -5" | 1,234
SELECT 1

SELECT width_bucket(5, 0, 10, 4), round(2.5::float8), round(-2.5::float8), round(2.5), trunc(12.345, -1)
----
width_bucket:int4 | round:float8 | round:float8 | round:numeric | trunc:numeric
3 | 2 | -2 | 3 | 10
SELECT 1

SELECT 7 / 2, -7 / 2, 7 % -2, 7.0 / 2, 2 ^ 0.5, 10::numeric / 3, 1::numeric / 7
----
?column?:int4 | ?column?:int4 | ?column?:int4 | ?column?:numeric | ?column?:numeric | ?column?:numeric | ?column?:numeric
3 | -3 | 1 | 3.5000000000000000 | 1.4142135623730950 | 3.3333333333333333 | 0.14285714285714285714
SELECT 1

SELECT float8 '1.5', int '3', numeric '1.50', text 'x', date '2024-01-01', timestamptz '2024-01-01 00:00+02'
----
float8:float8 | int4:int4 | numeric:numeric | text:text | date:date | timestamptz:timestamptz
1.5 | 3 | 1.50 | x | 2024-01-01 | 2023-12-31 22:00:00+00
SELECT 1

SELECT 100000000 * 100000000
----
ERROR 22003: integer out of range

SELECT 1::int8 * 9223372036854775807
----
?column?:int8
9223372036854775807
SELECT 1

SELECT 'a'::text = 'a'::varchar, 'a'::char(2) = 'a', 'a '::text = 'a'
----
?column?:bool | ?column?:bool | ?column?:bool
t | t | f
SELECT 1

SELECT json_agg(x ORDER BY x DESC), jsonb_agg(x), json_object_agg(x, x * 2) FROM generate_series(1, 3) x
----
json_agg:json | jsonb_agg:jsonb | json_object_agg:json
[3, 2, 1] | [1, 2, 3] | "{ \"1\" : 2, \"2\" : 4, \"3\" : 6 }"
SELECT 1

SELECT '{"a":[1,{"b":null}]}'::jsonb #>> '{a,1,b}', '{"a":1}'::json ->> 'a' || 'x'
----
?column?:text | ?column?:text
NULL | 1x
SELECT 1

SELECT '[1,2'::jsonb
----
ERROR 22P02 at 8: invalid input syntax for type json

SELECT '{"a":1,"a":2}'::json, '{"a":1,"a":2}'::jsonb, '{"b":1,"a":2}'::jsonb, '1.50'::jsonb, '"\u00e9"'::jsonb
----
json:json | jsonb:jsonb | jsonb:jsonb | jsonb:jsonb | jsonb:jsonb
"{\"a\":1,\"a\":2}" | "{\"a\": 2}" | "{\"a\": 2, \"b\": 1}" | 1.50 | "\"é\""
SELECT 1
