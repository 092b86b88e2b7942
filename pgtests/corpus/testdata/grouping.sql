# Grouping, ordering and subqueries in the less common positions.

CREATE TABLE t (g text, x int, y numeric)
----
CREATE TABLE

INSERT INTO t VALUES ('a', 1, 1.5), ('a', 2, 2.5), ('b', 3, NULL), ('b', NULL, 4), ('c', 5, 5.25)
----
INSERT 0 5

SELECT g, sum(x) FROM t GROUP BY g ORDER BY sum(x) DESC NULLS LAST, g
----
g:text | sum:int8
c | 5
a | 3
b | 3
SELECT 3

SELECT g, count(*) FROM t GROUP BY g HAVING count(*) > (SELECT count(*) FROM t) / 3 ORDER BY g
----
g:text | count:int8
a | 2
b | 2
SELECT 2

SELECT g, max(y) - min(y) AS spread FROM t GROUP BY g ORDER BY max(x) NULLS FIRST
----
g:text | spread:numeric
a | 1.0
b | 0
c | 0.00
SELECT 3

SELECT upper(g) AS ug, count(*) FROM t GROUP BY upper(g) ORDER BY ug
----
ug:text | count:int8
A | 2
B | 2
C | 1
SELECT 3

SELECT g || '!' FROM t GROUP BY g ORDER BY 1
----
?column?:text
a!
b!
c!
SELECT 3

SELECT x % 2 AS odd, array_agg(x ORDER BY x) FROM t WHERE x IS NOT NULL GROUP BY 1 ORDER BY 1
----
odd:int4 | array_agg:_int4
0 | {2}
1 | {1,3,5}
SELECT 2

SELECT count(*) FROM (SELECT DISTINCT g FROM t) s
----
count:int8
3
SELECT 1

SELECT g, (SELECT max(x) FROM t t2 WHERE t2.g = t.g) AS mx FROM t GROUP BY g ORDER BY g
----
g:text | mx:int4
a | 2
b | 3
c | 5
SELECT 3

SELECT g, sum(x) * 2 + 1 AS expr, avg(x)::int AS avg_int FROM t GROUP BY g ORDER BY g
----
g:text | expr:int8 | avg_int:int4
a | 7 | 2
b | 7 | 3
c | 11 | 5
SELECT 3

SELECT sum(x) FILTER (WHERE g = 'a') * 1.0 / count(*) AS ratio FROM t
----
ratio:numeric
0.60000000000000000000
SELECT 1

SELECT g, rank() OVER (ORDER BY sum(y) DESC NULLS LAST) FROM t GROUP BY g ORDER BY g
----
g:text | rank:int8
a | 2
b | 2
c | 1
SELECT 3

SELECT DISTINCT g, x IS NULL AS missing FROM t ORDER BY g, missing
----
g:text | missing:bool
a | f
b | f
b | t
c | f
SELECT 4

SELECT * FROM t WHERE y = (SELECT max(y) FROM t)
----
g:text | x:int4 | y:numeric
c | 5 | 5.25
SELECT 1

SELECT * FROM t WHERE x > ALL (SELECT x FROM t WHERE g = 'a') ORDER BY x
----
g:text | x:int4 | y:numeric
b | 3 | NULL
c | 5 | 5.25
SELECT 2

SELECT * FROM t WHERE x > ANY (SELECT x FROM t WHERE g = 'b') ORDER BY x
----
g:text | x:int4 | y:numeric
c | 5 | 5.25
SELECT 1

SELECT g FROM t GROUP BY g HAVING min(x) IS NULL OR max(y) IS NULL ORDER BY g
----
SELECT 0

SELECT count(*), count(x), count(y), count(DISTINCT g) FROM t
----
count:int8 | count:int8 | count:int8 | count:int8
5 | 4 | 4 | 3
SELECT 1

SELECT g, string_agg(coalesce(x::text, '?'), '-' ORDER BY x NULLS FIRST) FROM t GROUP BY g ORDER BY g
----
g:text | string_agg:text
a | 1-2
b | ?-3
c | 5
SELECT 3

SELECT min(g), max(g), min(y), max(y) FROM t WHERE false
----
min:text | max:text | min:numeric | max:numeric
NULL | NULL | NULL | NULL
SELECT 1

SELECT x, y, x * y AS product, y / nullif(x, 0) AS q FROM t ORDER BY g, x
----
x:int4 | y:numeric | product:numeric | q:numeric
1 | 1.5 | 1.5 | 1.50000000000000000000
2 | 2.5 | 5.0 | 1.25000000000000000000
3 | NULL | NULL | NULL
NULL | 4 | NULL | NULL
5 | 5.25 | 26.25 | 1.05000000000000000000
SELECT 5

SELECT round(y, 1), trunc(y), y::int, y::float8 FROM t WHERE y IS NOT NULL ORDER BY y
----
ERROR 42702 at 85: ORDER BY "y" is ambiguous

SELECT g, bool_or(x > 2) FROM t GROUP BY g ORDER BY g
----
g:text | bool_or:bool
a | f
b | t
c | t
SELECT 3

SELECT 1 FROM t GROUP BY g HAVING sum(x) > 2
----
?column?:int4
1
1
1
SELECT 3

SELECT g AS grp, count(*) FROM t GROUP BY grp HAVING count(*) > 1 ORDER BY grp
----
grp:text | count:int8
a | 2
b | 2
SELECT 2

SELECT x FROM t ORDER BY g DESC, x DESC NULLS LAST
----
x:int4
5
3
NULL
2
1
SELECT 5

SELECT t1.g, t2.g FROM t t1, t t2 WHERE t1.x + 1 = t2.x ORDER BY 1, 2
----
g:text | g:text
a | a
a | b
SELECT 2

SELECT count(*) FROM t a JOIN t b ON a.g = b.g AND a.x < b.x
----
count:int8
1
SELECT 1

SELECT g, x, row_number() OVER (PARTITION BY g ORDER BY x NULLS FIRST) FROM t ORDER BY g, 3
----
g:text | x:int4 | row_number:int8
a | 1 | 1
a | 2 | 2
b | NULL | 1
b | 3 | 2
c | 5 | 1
SELECT 5

SELECT *, x FROM t WHERE x IS NOT NULL ORDER BY x
----
g:text | x:int4 | y:numeric | x:int4
a | 1 | 1.5 | 1
a | 2 | 2.5 | 2
b | 3 | NULL | 3
c | 5 | 5.25 | 5
SELECT 4

SELECT x AS v, y AS v FROM t ORDER BY v
----
ERROR 42702 at 39: ORDER BY "v" is ambiguous
