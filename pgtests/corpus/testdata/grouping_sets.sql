# GROUP BY ROLLUP, CUBE and GROUPING SETS, and grouping().

CREATE TABLE sales (region text, product text, qty int)
----
CREATE TABLE

INSERT INTO sales VALUES ('north', 'apple', 3), ('north', 'pear', 5), ('south', 'apple', 7), ('south', NULL, 1), (NULL, 'pear', 2)
----
INSERT 0 5

SELECT region, product, sum(qty), grouping(region, product) FROM sales GROUP BY ROLLUP (region, product) ORDER BY 4, 1, 2
----
region:text | product:text | sum:int8 | grouping:int4
north | apple | 3 | 0
north | pear | 5 | 0
south | apple | 7 | 0
south | NULL | 1 | 0
NULL | pear | 2 | 0
north | NULL | 8 | 1
south | NULL | 8 | 1
NULL | NULL | 2 | 1
NULL | NULL | 18 | 3
SELECT 9

SELECT region, product, count(*) FROM sales GROUP BY CUBE (region, product) ORDER BY 1, 2, 3
----
region:text | product:text | count:int8
north | apple | 1
north | pear | 1
north | NULL | 2
south | apple | 1
south | NULL | 1
south | NULL | 2
NULL | apple | 2
NULL | pear | 1
NULL | pear | 2
NULL | NULL | 1
NULL | NULL | 1
NULL | NULL | 5
SELECT 12

SELECT region, product, sum(qty) FROM sales GROUP BY GROUPING SETS ((region), (product), ()) ORDER BY 1, 2, 3
----
region:text | product:text | sum:int8
north | NULL | 8
south | NULL | 8
NULL | apple | 10
NULL | pear | 7
NULL | NULL | 1
NULL | NULL | 2
NULL | NULL | 18
SELECT 7

SELECT region, sum(qty) FROM sales GROUP BY ROLLUP (region) HAVING grouping(region) = 1 OR sum(qty) > 5 ORDER BY 1
----
region:text | sum:int8
north | 8
south | 8
NULL | 18
SELECT 3

SELECT region, sum(qty) FROM sales GROUP BY ROLLUP (region) HAVING grouping(region) = 1 OR sum(qty) > 8 ORDER BY 1
----
region:text | sum:int8
NULL | 18
SELECT 1

SELECT region, count(*) FROM sales WHERE qty > 100 GROUP BY ROLLUP (region)
----
region:text | count:int8
NULL | 0
SELECT 1

SELECT count(*) FROM sales WHERE qty > 100 GROUP BY GROUPING SETS ((), ())
----
count:int8
0
0
SELECT 2

SELECT grouping(a), a, b, sum(c) FROM (VALUES (1, 1, 10), (1, 2, 20), (2, 1, 30)) v(a, b, c) GROUP BY ROLLUP (a, b) ORDER BY a NULLS LAST, b NULLS LAST
----
grouping:int4 | a:int4 | b:int4 | sum:int8
0 | 1 | 1 | 10
0 | 1 | 2 | 20
0 | 1 | NULL | 30
0 | 2 | 1 | 30
0 | 2 | NULL | 30
1 | NULL | NULL | 60
SELECT 6

SELECT a, b, count(*) FROM (VALUES (1, 'x'), (2, 'y')) v(a, b) GROUP BY CUBE (a, b) ORDER BY 1, 2
----
a:int4 | b:text | count:int8
1 | x | 1
1 | NULL | 1
2 | y | 1
2 | NULL | 1
NULL | x | 1
NULL | y | 1
NULL | NULL | 2
SELECT 7

SELECT a, b, grouping(a, b), sum(c) FROM (VALUES (1, 1, 10), (1, 2, 20), (2, 1, 30)) v(a, b, c) GROUP BY GROUPING SETS ((a), (b), ()) ORDER BY 3, 1, 2
----
a:int4 | b:int4 | grouping:int4 | sum:int8
1 | NULL | 1 | 30
2 | NULL | 1 | 30
NULL | 1 | 2 | 40
NULL | 2 | 2 | 20
NULL | NULL | 3 | 60
SELECT 5

SELECT a, b, sum(c) FROM (VALUES (1, 1, 10), (1, 2, 20), (2, 1, 30)) v(a, b, c) GROUP BY a, ROLLUP (b) ORDER BY 1, 2
----
a:int4 | b:int4 | sum:int8
1 | 1 | 10
1 | 2 | 20
1 | NULL | 30
2 | 1 | 30
2 | NULL | 30
SELECT 5

SELECT count(*) FROM (VALUES (1)) v(a) WHERE false GROUP BY ROLLUP (a)
----
count:int8
0
SELECT 1

SELECT a, count(*) FROM (VALUES (1), (NULL)) v(a) GROUP BY ROLLUP (a) ORDER BY grouping(a), a
----
a:int4 | count:int8
1 | 1
NULL | 1
NULL | 2
SELECT 3

SELECT a, sum(b) FROM (VALUES (1, 2), (1, 3)) v(a, b) GROUP BY ROLLUP (a) HAVING grouping(a) = 1
----
a:int4 | sum:int8
NULL | 5
SELECT 1

SELECT a + 1 AS x, count(*) FROM (VALUES (1), (2)) v(a) GROUP BY ROLLUP (a + 1) ORDER BY x
----
x:int4 | count:int8
2 | 1
3 | 1
NULL | 2
SELECT 3

SELECT a, count(*) FROM (VALUES (1), (2)) v(a) GROUP BY ROLLUP (1) ORDER BY 1
----
a:int4 | count:int8
1 | 1
2 | 1
NULL | 2
SELECT 3

SELECT a, b, c, count(*) FROM (VALUES (1, 2, 3)) v(a, b, c) GROUP BY ROLLUP ((a, b), c) ORDER BY 1, 2, 3
----
a:int4 | b:int4 | c:int4 | count:int8
1 | 2 | 3 | 1
1 | 2 | NULL | 1
NULL | NULL | NULL | 1
SELECT 3

SELECT a, b, count(*) FROM (VALUES (1, 2)) v(a, b) GROUP BY GROUPING SETS (ROLLUP (a), CUBE (b)) ORDER BY 1, 2
----
a:int4 | b:int4 | count:int8
1 | NULL | 1
NULL | 2 | 1
NULL | NULL | 1
NULL | NULL | 1
SELECT 4

SELECT a, count(DISTINCT b), string_agg(b::text, ',' ORDER BY b DESC) FROM (VALUES (1, 1), (1, 1), (1, 2), (2, 3)) v(a, b) GROUP BY ROLLUP (a) ORDER BY a
----
a:int4 | count:int8 | string_agg:text
1 | 2 | 2,1,1
2 | 1 | 3
NULL | 3 | 3,2,1,1
SELECT 3

SELECT a, sum(b) FILTER (WHERE b > 1), rank() OVER (ORDER BY sum(b) DESC) FROM (VALUES (1, 1), (1, 2), (2, 3)) v(a, b) GROUP BY ROLLUP (a) ORDER BY a
----
a:int4 | sum:int8 | rank:int8
1 | 2 | 2
2 | 3 | 2
NULL | 5 | 1
SELECT 3

SELECT grouping(b) FROM (VALUES (1, 2)) v(a, b) GROUP BY a
----
ERROR 42803 at 17: arguments to GROUPING must be grouping expressions of the associated query level

SELECT grouping(a) FROM (VALUES (1, 2)) v(a, b) GROUP BY a
----
grouping:int4
0
SELECT 1

SELECT grouping(a)
----
ERROR 42703 at 17: column "a" does not exist

SELECT sum(grouping(a)) FROM (VALUES (1, 2)) v(a, b) GROUP BY ROLLUP (a)
----
ERROR 42803 at 12: aggregate function calls cannot be nested

SELECT a FROM (VALUES (1, 2)) v(a, b) GROUP BY CUBE (a, a, a, a, a, a, a, a, a, a, a, a, a)
----
ERROR 54011 at 48: CUBE is limited to 12 elements

SELECT b FROM (VALUES (1, 2)) v(a, b) GROUP BY ROLLUP (a)
----
ERROR 42803 at 8: column "v.b" must appear in the GROUP BY clause or be used in an aggregate function

SELECT a, b FROM (VALUES (1, 2)) v(a, b) GROUP BY ROLLUP (a), b ORDER BY 1, 2
----
a:int4 | b:int4
1 | 2
NULL | 2
SELECT 2

SELECT DISTINCT a FROM (VALUES (1, 2)) v(a, b) GROUP BY ROLLUP (a, b) ORDER BY 1
----
a:int4
1
NULL
SELECT 2

SELECT a, count(*) FROM (VALUES (1)) v(a) GROUP BY GROUPING SETS ((), (), (a)) ORDER BY 1
----
a:int4 | count:int8
1 | 1
NULL | 1
NULL | 1
SELECT 3

SELECT a, count(*) FROM (VALUES (1)) v(a) GROUP BY ROLLUP (a) ORDER BY 1 NULLS FIRST LIMIT 1
----
a:int4 | count:int8
NULL | 1
SELECT 1

SELECT a, b, count(*) FROM (VALUES (1, 2)) v(a, b) GROUP BY ROLLUP (a, (a + 1)) ORDER BY 1, 2
----
ERROR 42803 at 11: column "v.b" must appear in the GROUP BY clause or be used in an aggregate function

SELECT a FROM (VALUES (1)) v(a) GROUP BY ROLLUP ()
----
ERROR 42601 at 50: syntax error at or near ")"

SELECT a FROM (VALUES (1)) v(a) GROUP BY GROUPING SETS (a, ()) ORDER BY 1
----
a:int4
1
NULL
SELECT 2

SELECT grouping(a) FROM (VALUES (1)) v(a)
----
ERROR 42803 at 17: arguments to GROUPING must be grouping expressions of the associated query level

SELECT grouping() FROM (VALUES (1)) v(a) GROUP BY a
----
ERROR 42601 at 17: syntax error at or near ")"

SELECT a, count(*) FROM (VALUES (1)) v(a) GROUP BY ROLLUP (a) ORDER BY grouping(a) DESC
----
a:int4 | count:int8
NULL | 1
1 | 1
SELECT 2

SELECT count(*) FROM generate_series(1, 3) x GROUP BY GROUPING SETS (())
----
count:int8
3
SELECT 1

SELECT x % 2 AS p, count(*) FROM generate_series(1, 5) x GROUP BY ROLLUP (p) ORDER BY p
----
p:int4 | count:int8
0 | 2
1 | 3
NULL | 5
SELECT 3

DROP TABLE sales
----
DROP TABLE

SELECT 1 FROM (VALUES (1)) v(a) GROUP BY CUBE (a, a, a, a, a, a, a), CUBE (a, a, a, a, a, a)
----
ERROR 54001: too many grouping sets present (maximum 4096)

SELECT count(*) FROM (SELECT count(*) FROM (VALUES (1)) v(a) GROUP BY CUBE (a, a, a, a, a, a, a), CUBE (a, a, a, a, a)) s
----
count:int8
4096
SELECT 1
