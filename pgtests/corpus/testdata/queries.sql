# Joins, subqueries, CTEs, set operations, DISTINCT ON, CASE and friends.

CREATE TABLE dept (id int PRIMARY KEY, name text NOT NULL)
----
CREATE TABLE

CREATE TABLE emp (id int PRIMARY KEY, name text, dept_id int, salary numeric, boss int)
----
CREATE TABLE

INSERT INTO dept VALUES (1, 'eng'), (2, 'ops'), (3, 'empty')
----
INSERT 0 3

INSERT INTO emp VALUES (1, 'ann', 1, 100, NULL), (2, 'bob', 1, 80, 1), (3, 'cat', 2, 90, 1), (4, 'dan', NULL, 50, 3), (5, 'eve', 2, 90, 3)
----
INSERT 0 5

# Joins.
SELECT e.name, d.name FROM emp e JOIN dept d ON e.dept_id = d.id ORDER BY e.name
----
name:text | name:text
ann | eng
bob | eng
cat | ops
eve | ops
SELECT 4

SELECT e.name, d.name FROM emp e INNER JOIN dept d ON d.id = e.dept_id AND e.salary > 85
----
name:text | name:text
ann | eng
cat | ops
eve | ops
SELECT 3

SELECT e.name, d.name FROM emp e LEFT JOIN dept d ON e.dept_id = d.id ORDER BY e.id
----
name:text | name:text
ann | eng
bob | eng
cat | ops
dan | NULL
eve | ops
SELECT 5

SELECT e.name, d.name FROM emp e RIGHT JOIN dept d ON e.dept_id = d.id ORDER BY d.id, e.id
----
name:text | name:text
ann | eng
bob | eng
cat | ops
eve | ops
NULL | empty
SELECT 5

SELECT e.name, d.name FROM emp e FULL JOIN dept d ON e.dept_id = d.id ORDER BY d.id NULLS FIRST, e.id
----
name:text | name:text
dan | NULL
ann | eng
bob | eng
cat | ops
eve | ops
NULL | empty
SELECT 6

SELECT e.name, d.name FROM emp e CROSS JOIN dept d WHERE d.id = 3
----
name:text | name:text
ann | empty
bob | empty
cat | empty
dan | empty
eve | empty
SELECT 5

SELECT count(*) FROM emp, dept
----
count:int8
15
SELECT 1

SELECT * FROM emp e1 JOIN emp e2 ON e1.boss = e2.id WHERE e2.name = 'ann' ORDER BY e1.id
----
id:int4 | name:text | dept_id:int4 | salary:numeric | boss:int4 | id:int4 | name:text | dept_id:int4 | salary:numeric | boss:int4
2 | bob | 1 | 80 | 1 | 1 | ann | 1 | 100 | NULL
3 | cat | 2 | 90 | 1 | 1 | ann | 1 | 100 | NULL
SELECT 2

SELECT e.name AS worker, b.name AS boss FROM emp e LEFT JOIN emp b ON e.boss = b.id ORDER BY e.id
----
worker:text | boss:text
ann | NULL
bob | ann
cat | ann
dan | cat
eve | cat
SELECT 5

CREATE TABLE dept2 (dept_id int, label text)
----
CREATE TABLE

INSERT INTO dept2 VALUES (1, 'one'), (2, 'two'), (4, 'four')
----
INSERT 0 3

SELECT * FROM emp JOIN dept2 USING (dept_id) ORDER BY id
----
dept_id:int4 | id:int4 | name:text | salary:numeric | boss:int4 | label:text
1 | 1 | ann | 100 | NULL | one
1 | 2 | bob | 80 | 1 | one
2 | 3 | cat | 90 | 1 | two
2 | 5 | eve | 90 | 3 | two
SELECT 4

SELECT dept_id, name, label FROM emp LEFT JOIN dept2 USING (dept_id) ORDER BY id
----
dept_id:int4 | name:text | label:text
1 | ann | one
1 | bob | one
2 | cat | two
NULL | dan | NULL
2 | eve | two
SELECT 5

SELECT dept_id, label FROM emp FULL JOIN dept2 USING (dept_id) ORDER BY dept_id, label
----
dept_id:int4 | label:text
1 | one
1 | one
2 | two
2 | two
4 | four
NULL | NULL
SELECT 6

SELECT * FROM emp NATURAL JOIN dept2 ORDER BY id
----
dept_id:int4 | id:int4 | name:text | salary:numeric | boss:int4 | label:text
1 | 1 | ann | 100 | NULL | one
1 | 2 | bob | 80 | 1 | one
2 | 3 | cat | 90 | 1 | two
2 | 5 | eve | 90 | 3 | two
SELECT 4

SELECT * FROM dept NATURAL JOIN dept2
----
id:int4 | name:text | dept_id:int4 | label:text
1 | eng | 1 | one
1 | eng | 2 | two
1 | eng | 4 | four
2 | ops | 1 | one
2 | ops | 2 | two
2 | ops | 4 | four
3 | empty | 1 | one
3 | empty | 2 | two
3 | empty | 4 | four
SELECT 9

SELECT emp.dept_id FROM emp JOIN dept2 USING (dept_id) WHERE dept2.label = 'one' ORDER BY 1
----
dept_id:int4
1
1
SELECT 2

SELECT x.* FROM (emp JOIN dept ON emp.dept_id = dept.id) AS x
----
id:int4 | name:text | dept_id:int4 | salary:numeric | boss:int4 | id:int4 | name:text
1 | ann | 1 | 100 | NULL | 1 | eng
2 | bob | 1 | 80 | 1 | 1 | eng
3 | cat | 2 | 90 | 1 | 2 | ops
5 | eve | 2 | 90 | 3 | 2 | ops
SELECT 4

SELECT j.a, j.b FROM (VALUES (1, 'x'), (2, 'y')) AS j(a, b) JOIN (VALUES (2, 'z')) AS k(a, c) ON j.a = k.a
----
a:int4 | b:text
2 | y
SELECT 1

SELECT * FROM emp JOIN dept ON true WHERE emp.id = 1 AND dept.id < 3 ORDER BY dept.id
----
id:int4 | name:text | dept_id:int4 | salary:numeric | boss:int4 | id:int4 | name:text
1 | ann | 1 | 100 | NULL | 1 | eng
1 | ann | 1 | 100 | NULL | 2 | ops
SELECT 2

SELECT name FROM emp JOIN dept ON emp.dept_id = dept.id
----
ERROR 42702 at 8: column reference "name" is ambiguous

SELECT * FROM emp JOIN dept2 USING (nosuch)
----
ERROR 42703: column "nosuch" specified in USING clause does not exist in left table

SELECT e.name, d.name FROM emp e LEFT JOIN dept d ON e.dept_id = d.id AND d.name = 'ops' ORDER BY e.id
----
name:text | name:text
ann | NULL
bob | NULL
cat | ops
dan | NULL
eve | ops
SELECT 5

SELECT e.name FROM emp e LEFT JOIN dept d ON e.dept_id = d.id WHERE d.id IS NULL
----
name:text
dan
SELECT 1

# Subqueries.
SELECT name, (SELECT name FROM dept WHERE id = emp.dept_id) AS dept FROM emp ORDER BY id
----
name:text | dept:text
ann | eng
bob | eng
cat | ops
dan | NULL
eve | ops
SELECT 5

SELECT name FROM emp WHERE salary > (SELECT avg(salary) FROM emp) ORDER BY name
----
name:text
ann
cat
eve
SELECT 3

SELECT name FROM emp WHERE dept_id IN (SELECT id FROM dept WHERE name <> 'eng') ORDER BY name
----
name:text
cat
eve
SELECT 2

SELECT name FROM emp WHERE dept_id NOT IN (SELECT id FROM dept WHERE name = 'eng') ORDER BY name
----
name:text
cat
eve
SELECT 2

SELECT name FROM emp WHERE dept_id NOT IN (SELECT dept_id FROM emp WHERE id = 4)
----
SELECT 0

SELECT d.name FROM dept d WHERE EXISTS (SELECT 1 FROM emp e WHERE e.dept_id = d.id) ORDER BY d.name
----
name:text
eng
ops
SELECT 2

SELECT d.name FROM dept d WHERE NOT EXISTS (SELECT 1 FROM emp e WHERE e.dept_id = d.id)
----
name:text
empty
SELECT 1

SELECT e.name FROM emp e WHERE e.salary = (SELECT max(salary) FROM emp x WHERE x.dept_id = e.dept_id) ORDER BY e.name
----
name:text
ann
cat
eve
SELECT 3

SELECT (SELECT id FROM emp)
----
ERROR 21000: more than one row returned by a subquery used as an expression

SELECT (SELECT id, name FROM emp WHERE id = 1)
----
ERROR 42601 at 8: subquery must return only one column

SELECT (SELECT 1 WHERE false) AS empty
----
empty:int4
NULL
SELECT 1

SELECT name FROM (SELECT name, salary FROM emp WHERE salary >= 90) AS rich ORDER BY name
----
name:text
ann
cat
eve
SELECT 3

SELECT * FROM (SELECT 1) AS s
----
?column?:int4
1
SELECT 1

SELECT * FROM (SELECT 1 AS a, 2 AS b) AS s(x)
----
x:int4 | b:int4
1 | 2
SELECT 1

SELECT s.x FROM (SELECT 1 AS a) s(x)
----
x:int4
1
SELECT 1

SELECT name, salary > ALL (SELECT salary FROM emp WHERE dept_id = 2) AS top FROM emp WHERE dept_id = 1 ORDER BY name
----
name:text | top:bool
ann | t
bob | f
SELECT 2

SELECT name FROM emp WHERE salary = ANY (SELECT salary FROM emp WHERE dept_id = 2) ORDER BY name
----
name:text
cat
eve
SELECT 2

SELECT d.name, l.top FROM dept d, LATERAL (SELECT max(salary) AS top FROM emp WHERE dept_id = d.id) l ORDER BY d.id
----
name:text | top:numeric
eng | 100
ops | 90
empty | NULL
SELECT 3

# CTEs.
WITH rich AS (SELECT * FROM emp WHERE salary >= 90) SELECT name FROM rich ORDER BY name
----
name:text
ann
cat
eve
SELECT 3

WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT * FROM a, b
----
x:int4 | y:int4
1 | 2
SELECT 1

WITH t(n) AS (VALUES (1), (2)) SELECT sum(n) FROM t
----
sum:int8
3
SELECT 1

WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT n FROM r ORDER BY n
----
n:int4
1
2
3
4
5
SELECT 5

WITH RECURSIVE chain AS (SELECT id, name, boss, 0 AS depth FROM emp WHERE boss IS NULL UNION ALL SELECT e.id, e.name, e.boss, c.depth + 1 FROM emp e JOIN chain c ON e.boss = c.id) SELECT name, depth FROM chain ORDER BY depth, name
----
name:text | depth:int4
ann | 0
bob | 1
cat | 1
dan | 2
eve | 2
SELECT 5

WITH RECURSIVE fib(a, b) AS (SELECT 0::bigint, 1::bigint UNION ALL SELECT b, a + b FROM fib WHERE b < 100) SELECT a FROM fib ORDER BY a
----
a:int8
0
1
1
2
3
5
8
13
21
34
55
89
SELECT 12

WITH RECURSIVE u(n) AS (SELECT 1 UNION SELECT n % 3 + 1 FROM u) SELECT n FROM u ORDER BY n
----
n:int4
1
2
3
SELECT 3

WITH x AS (SELECT 1) SELECT * FROM x, x
----
ERROR 42712: table name "x" specified more than once

WITH x AS (SELECT 1 AS a) SELECT * FROM x AS p JOIN x AS q ON p.a = q.a
----
a:int4 | a:int4
1 | 1
SELECT 1

# Set operations.
SELECT 1 UNION SELECT 2 UNION SELECT 1 ORDER BY 1
----
?column?:int4
1
2
SELECT 2

SELECT 1 AS n UNION ALL SELECT 1 UNION ALL SELECT 2
----
n:int4
1
1
2
SELECT 3

SELECT dept_id FROM emp INTERSECT SELECT id FROM dept ORDER BY 1
----
dept_id:int4
1
2
SELECT 2

SELECT dept_id FROM emp INTERSECT ALL SELECT dept_id FROM emp WHERE salary >= 90
----
dept_id:int4
1
2
2
SELECT 3

SELECT id FROM dept EXCEPT SELECT dept_id FROM emp
----
id:int4
3
SELECT 1

SELECT dept_id FROM emp EXCEPT ALL SELECT 1
----
dept_id:int4
1
2
2
NULL
SELECT 4

SELECT 1, 'a' UNION SELECT 2, 'b' ORDER BY 2 DESC
----
?column?:int4 | ?column?:text
2 | b
1 | a
SELECT 2

SELECT 1 UNION SELECT 'a'
----
ERROR 22P02 at 23: invalid input syntax for type integer: "a"

SELECT 1 UNION SELECT 2.5 ORDER BY 1
----
?column?:numeric
1
2.5
SELECT 2

SELECT 1 UNION SELECT 1, 2
----
ERROR 42601 at 23: each UNION query must have the same number of columns

SELECT name FROM emp WHERE id < 3 UNION SELECT name FROM dept ORDER BY name LIMIT 3
----
name:text
ann
bob
empty
SELECT 3

(SELECT 1 AS x) UNION (SELECT 2) ORDER BY x DESC
----
x:int4
2
1
SELECT 2

SELECT NULL UNION SELECT 1
----
?column?:int4
1
NULL
SELECT 2

# DISTINCT and DISTINCT ON.
SELECT DISTINCT dept_id FROM emp ORDER BY dept_id
----
dept_id:int4
1
2
NULL
SELECT 3

SELECT DISTINCT salary, dept_id FROM emp ORDER BY salary, dept_id
----
salary:numeric | dept_id:int4
50 | NULL
80 | 1
90 | 2
100 | 1
SELECT 4

SELECT DISTINCT ON (dept_id) dept_id, name, salary FROM emp ORDER BY dept_id, salary DESC, name
----
dept_id:int4 | name:text | salary:numeric
1 | ann | 100
2 | cat | 90
NULL | dan | 50
SELECT 3

SELECT DISTINCT ON (salary) salary, name FROM emp ORDER BY salary, name DESC
----
salary:numeric | name:text
50 | dan
80 | bob
90 | eve
100 | ann
SELECT 4

SELECT count(DISTINCT dept_id) AS depts, count(dept_id) AS non_null, count(*) AS all_rows FROM emp
----
depts:int8 | non_null:int8 | all_rows:int8
2 | 4 | 5
SELECT 1

# LIMIT and OFFSET.
SELECT id FROM emp ORDER BY id LIMIT 2
----
id:int4
1
2
SELECT 2

SELECT id FROM emp ORDER BY id LIMIT 2 OFFSET 2
----
id:int4
3
4
SELECT 2

SELECT id FROM emp ORDER BY id OFFSET 4
----
id:int4
5
SELECT 1

SELECT id FROM emp ORDER BY id FETCH FIRST 1 ROW ONLY
----
id:int4
1
SELECT 1

SELECT id FROM emp ORDER BY id LIMIT ALL
----
id:int4
1
2
3
4
5
SELECT 5

SELECT id FROM emp LIMIT -1
----
ERROR 2201W: LIMIT must not be negative

# CASE, COALESCE, NULLIF, GREATEST, LEAST.
SELECT name, CASE WHEN salary >= 90 THEN 'high' WHEN salary >= 80 THEN 'mid' ELSE 'low' END AS band FROM emp ORDER BY id
----
name:text | band:text
ann | high
bob | mid
cat | high
dan | low
eve | high
SELECT 5

SELECT CASE dept_id WHEN 1 THEN 'eng' WHEN 2 THEN 'ops' END AS d FROM emp ORDER BY id
----
d:text
eng
eng
ops
NULL
ops
SELECT 5

SELECT CASE WHEN false THEN 1 END AS n, CASE WHEN true THEN 1 ELSE 2.5 END AS num
----
n:int4 | num:numeric
NULL | 1
SELECT 1

SELECT CASE WHEN true THEN 1 ELSE 'x' END
----
ERROR 22P02 at 35: invalid input syntax for type integer: "x"

SELECT COALESCE(NULL, NULL, 3) AS a, COALESCE(NULL::text, 'd') AS b, COALESCE(boss, -1) AS c FROM emp ORDER BY id
----
a:int4 | b:text | c:int4
3 | d | -1
3 | d | 1
3 | d | 1
3 | d | 3
3 | d | 3
SELECT 5

SELECT NULLIF(1, 1) AS a, NULLIF(1, 2) AS b, NULLIF('x', 'y') AS c
----
a:int4 | b:int4 | c:text
NULL | 1 | x
SELECT 1

SELECT GREATEST(1, 5, 3) AS g, LEAST(1, 5, 3) AS l, GREATEST(1, NULL, 2) AS gn, LEAST('b', 'a') AS ls, GREATEST(1, 2.5) AS mixed
----
g:int4 | l:int4 | gn:int4 | ls:text | mixed:numeric
5 | 1 | 2 | a | 2.5
SELECT 1

SELECT COALESCE(1, 'x')
----
ERROR 22P02 at 20: invalid input syntax for type integer: "x"

# Row values and comparisons.
SELECT (1, 2) = (1, 2) AS eq, (1, 2) < (1, 3) AS lt, ROW(1, 'a') AS r, (1, NULL) = (1, 2) AS n
----
eq:bool | lt:bool | r:record | n:bool
t | t | (1,a) | NULL
SELECT 1

SELECT ROW(1, 2) IS NULL AS a, ROW(NULL, NULL) IS NULL AS b, ROW(1, NULL) IS NOT NULL AS c
----
a:bool | b:bool | c:bool
f | t | f
SELECT 1

# VALUES as a table.
VALUES (1, 'one'), (2, 'two')
----
column1:int4 | column2:text
1 | one
2 | two
SELECT 2

SELECT * FROM (VALUES (1, 'one'), (2, 'two')) AS v(num, word) ORDER BY num DESC
----
num:int4 | word:text
2 | two
1 | one
SELECT 2

SELECT column1, column2 FROM (VALUES (1, 2.5), (3, 4)) AS v
----
column1:int4 | column2:numeric
1 | 2.5
3 | 4
SELECT 2

VALUES (1), ('x')
----
ERROR 22P02 at 14: invalid input syntax for type integer: "x"

VALUES (1, 2), (3)
----
ERROR 42601 at 17: VALUES lists must all be the same length

SELECT * FROM (VALUES (1), (NULL)) v(x) WHERE x IS NOT NULL
----
x:int4
1
SELECT 1

# WHERE with BETWEEN.
SELECT name FROM emp WHERE salary BETWEEN 80 AND 90 ORDER BY name
----
name:text
bob
cat
eve
SELECT 3

SELECT name FROM emp WHERE salary NOT BETWEEN 80 AND 90 ORDER BY name
----
name:text
ann
dan
SELECT 2

SELECT 5 BETWEEN SYMMETRIC 10 AND 1 AS sym, 5 BETWEEN 10 AND 1 AS asym
----
sym:bool | asym:bool
t | f
SELECT 1

# Name resolution errors.
SELECT nosuch FROM emp
----
ERROR 42703 at 8: column "nosuch" does not exist

SELECT emp.nosuch FROM emp
----
ERROR 42703 at 8: column emp.nosuch does not exist

SELECT x.id FROM emp
----
ERROR 42P01 at 8: missing FROM-clause entry for table "x"

SELECT id FROM emp, dept
----
ERROR 42702 at 8: column reference "id" is ambiguous

SELECT * FROM nosuch
----
ERROR 42P01 at 15: relation "nosuch" does not exist

SELECT name, count(*) FROM emp
----
ERROR 42803 at 8: column "emp.name" must appear in the GROUP BY clause or be used in an aggregate function

SELECT * FROM emp WHERE salary
----
ERROR 42804 at 25: argument of WHERE must be type boolean, not type numeric

SELECT * FROM emp WHERE count(*) > 1
----
ERROR 42803 at 25: aggregate functions are not allowed in WHERE

SELECT id FROM emp GROUP BY id HAVING name = 'x'
----
SELECT 0

# LATERAL and functions in FROM reading the items before them.
SELECT d.name, l.n FROM dept d LEFT JOIN LATERAL (SELECT name AS n FROM emp WHERE dept_id = d.id) l ON true ORDER BY d.id, l.n
----
name:text | n:text
eng | ann
eng | bob
ops | cat
ops | eve
empty | NULL
SELECT 5

SELECT d.id, g FROM dept d, generate_series(1, d.id) g ORDER BY 1, 2
----
id:int4 | g:int4
1 | 1
2 | 1
2 | 2
3 | 1
3 | 2
3 | 3
SELECT 6

SELECT x, (SELECT sum(y) FROM generate_series(1, x) y) AS s FROM generate_series(1, 3) x
----
x:int4 | s:int8
1 | 1
2 | 3
3 | 6
SELECT 3

SELECT * FROM (SELECT 1 AS a) s, LATERAL (SELECT s.a + 1 AS b) t
----
a:int4 | b:int4
1 | 2
SELECT 1

SELECT e.name, c.cnt FROM emp e CROSS JOIN LATERAL (SELECT count(*) AS cnt FROM emp x WHERE x.boss = e.id) c ORDER BY e.id
----
name:text | cnt:int8
ann | 2
bob | 0
cat | 2
dan | 0
eve | 0
SELECT 5

# Joins inside correlated subqueries: the join's sides still read the outer row.
SELECT d.name, (SELECT count(*) FROM emp e JOIN dept2 x ON x.dept_id = e.dept_id WHERE e.salary >= 90 AND x.dept_id = d.id) AS n FROM dept d ORDER BY d.id
----
name:text | n:int8
eng | 1
ops | 2
empty | 0
SELECT 3

SELECT d.name, (SELECT max(e.salary) FROM emp e, emp b WHERE b.id = e.boss AND b.dept_id = d.id) AS top FROM dept d ORDER BY d.id
----
name:text | top:numeric
eng | 90
ops | 90
empty | NULL
SELECT 3

SELECT d.name FROM dept d WHERE EXISTS (SELECT 1 FROM emp e JOIN emp b ON b.id = e.boss WHERE e.dept_id = d.id AND b.name = 'ann') ORDER BY 1
----
name:text
eng
ops
SELECT 2
