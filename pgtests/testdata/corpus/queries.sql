# Joins, subqueries, CTEs, set operations, DISTINCT ON, CASE and friends.

CREATE TABLE dept (id int PRIMARY KEY, name text NOT NULL)

CREATE TABLE emp (id int PRIMARY KEY, name text, dept_id int, salary numeric, boss int)

INSERT INTO dept VALUES (1, 'eng'), (2, 'ops'), (3, 'empty')

INSERT INTO emp VALUES (1, 'ann', 1, 100, NULL), (2, 'bob', 1, 80, 1), (3, 'cat', 2, 90, 1), (4, 'dan', NULL, 50, 3), (5, 'eve', 2, 90, 3)

# Joins.
SELECT e.name, d.name FROM emp e JOIN dept d ON e.dept_id = d.id ORDER BY e.name

SELECT e.name, d.name FROM emp e INNER JOIN dept d ON d.id = e.dept_id AND e.salary > 85

SELECT e.name, d.name FROM emp e LEFT JOIN dept d ON e.dept_id = d.id ORDER BY e.id

SELECT e.name, d.name FROM emp e RIGHT JOIN dept d ON e.dept_id = d.id ORDER BY d.id, e.id

SELECT e.name, d.name FROM emp e FULL JOIN dept d ON e.dept_id = d.id ORDER BY d.id NULLS FIRST, e.id

SELECT e.name, d.name FROM emp e CROSS JOIN dept d WHERE d.id = 3

SELECT count(*) FROM emp, dept

SELECT * FROM emp e1 JOIN emp e2 ON e1.boss = e2.id WHERE e2.name = 'ann' ORDER BY e1.id

SELECT e.name AS worker, b.name AS boss FROM emp e LEFT JOIN emp b ON e.boss = b.id ORDER BY e.id

CREATE TABLE dept2 (dept_id int, label text)

INSERT INTO dept2 VALUES (1, 'one'), (2, 'two'), (4, 'four')

SELECT * FROM emp JOIN dept2 USING (dept_id) ORDER BY id

SELECT dept_id, name, label FROM emp LEFT JOIN dept2 USING (dept_id) ORDER BY id

SELECT dept_id, label FROM emp FULL JOIN dept2 USING (dept_id) ORDER BY dept_id, label

SELECT * FROM emp NATURAL JOIN dept2 ORDER BY id

SELECT * FROM dept NATURAL JOIN dept2

SELECT emp.dept_id FROM emp JOIN dept2 USING (dept_id) WHERE dept2.label = 'one' ORDER BY 1

SELECT x.* FROM (emp JOIN dept ON emp.dept_id = dept.id) AS x

SELECT j.a, j.b FROM (VALUES (1, 'x'), (2, 'y')) AS j(a, b) JOIN (VALUES (2, 'z')) AS k(a, c) ON j.a = k.a

SELECT * FROM emp JOIN dept ON true WHERE emp.id = 1 AND dept.id < 3 ORDER BY dept.id

SELECT name FROM emp JOIN dept ON emp.dept_id = dept.id

SELECT * FROM emp JOIN dept2 USING (nosuch)

SELECT e.name, d.name FROM emp e LEFT JOIN dept d ON e.dept_id = d.id AND d.name = 'ops' ORDER BY e.id

SELECT e.name FROM emp e LEFT JOIN dept d ON e.dept_id = d.id WHERE d.id IS NULL

# Subqueries.
SELECT name, (SELECT name FROM dept WHERE id = emp.dept_id) AS dept FROM emp ORDER BY id

SELECT name FROM emp WHERE salary > (SELECT avg(salary) FROM emp) ORDER BY name

SELECT name FROM emp WHERE dept_id IN (SELECT id FROM dept WHERE name <> 'eng') ORDER BY name

SELECT name FROM emp WHERE dept_id NOT IN (SELECT id FROM dept WHERE name = 'eng') ORDER BY name

SELECT name FROM emp WHERE dept_id NOT IN (SELECT dept_id FROM emp WHERE id = 4)

SELECT d.name FROM dept d WHERE EXISTS (SELECT 1 FROM emp e WHERE e.dept_id = d.id) ORDER BY d.name

SELECT d.name FROM dept d WHERE NOT EXISTS (SELECT 1 FROM emp e WHERE e.dept_id = d.id)

SELECT e.name FROM emp e WHERE e.salary = (SELECT max(salary) FROM emp x WHERE x.dept_id = e.dept_id) ORDER BY e.name

SELECT (SELECT id FROM emp)

SELECT (SELECT id, name FROM emp WHERE id = 1)

SELECT (SELECT 1 WHERE false) AS empty

SELECT name FROM (SELECT name, salary FROM emp WHERE salary >= 90) AS rich ORDER BY name

SELECT * FROM (SELECT 1) AS s

SELECT * FROM (SELECT 1 AS a, 2 AS b) AS s(x)

SELECT s.x FROM (SELECT 1 AS a) s(x)

SELECT name, salary > ALL (SELECT salary FROM emp WHERE dept_id = 2) AS top FROM emp WHERE dept_id = 1 ORDER BY name

SELECT name FROM emp WHERE salary = ANY (SELECT salary FROM emp WHERE dept_id = 2) ORDER BY name

SELECT d.name, l.top FROM dept d, LATERAL (SELECT max(salary) AS top FROM emp WHERE dept_id = d.id) l ORDER BY d.id

# CTEs.
WITH rich AS (SELECT * FROM emp WHERE salary >= 90) SELECT name FROM rich ORDER BY name

WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT * FROM a, b

WITH t(n) AS (VALUES (1), (2)) SELECT sum(n) FROM t

WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT n FROM r ORDER BY n

WITH RECURSIVE chain AS (SELECT id, name, boss, 0 AS depth FROM emp WHERE boss IS NULL UNION ALL SELECT e.id, e.name, e.boss, c.depth + 1 FROM emp e JOIN chain c ON e.boss = c.id) SELECT name, depth FROM chain ORDER BY depth, name

WITH RECURSIVE fib(a, b) AS (SELECT 0::bigint, 1::bigint UNION ALL SELECT b, a + b FROM fib WHERE b < 100) SELECT a FROM fib ORDER BY a

WITH RECURSIVE u(n) AS (SELECT 1 UNION SELECT n % 3 + 1 FROM u) SELECT n FROM u ORDER BY n

WITH x AS (SELECT 1) SELECT * FROM x, x

WITH x AS (SELECT 1 AS a) SELECT * FROM x AS p JOIN x AS q ON p.a = q.a

# Set operations.
SELECT 1 UNION SELECT 2 UNION SELECT 1 ORDER BY 1

SELECT 1 AS n UNION ALL SELECT 1 UNION ALL SELECT 2

SELECT dept_id FROM emp INTERSECT SELECT id FROM dept ORDER BY 1

SELECT dept_id FROM emp INTERSECT ALL SELECT dept_id FROM emp WHERE salary >= 90

SELECT id FROM dept EXCEPT SELECT dept_id FROM emp

SELECT dept_id FROM emp EXCEPT ALL SELECT 1

SELECT 1, 'a' UNION SELECT 2, 'b' ORDER BY 2 DESC

SELECT 1 UNION SELECT 'a'

SELECT 1 UNION SELECT 2.5 ORDER BY 1

SELECT 1 UNION SELECT 1, 2

SELECT name FROM emp WHERE id < 3 UNION SELECT name FROM dept ORDER BY name LIMIT 3

(SELECT 1 AS x) UNION (SELECT 2) ORDER BY x DESC

SELECT NULL UNION SELECT 1

# DISTINCT and DISTINCT ON.
SELECT DISTINCT dept_id FROM emp ORDER BY dept_id

SELECT DISTINCT salary, dept_id FROM emp ORDER BY salary, dept_id

SELECT DISTINCT ON (dept_id) dept_id, name, salary FROM emp ORDER BY dept_id, salary DESC, name

SELECT DISTINCT ON (salary) salary, name FROM emp ORDER BY salary, name DESC

SELECT count(DISTINCT dept_id) AS depts, count(dept_id) AS non_null, count(*) AS all_rows FROM emp

# LIMIT and OFFSET.
SELECT id FROM emp ORDER BY id LIMIT 2

SELECT id FROM emp ORDER BY id LIMIT 2 OFFSET 2

SELECT id FROM emp ORDER BY id OFFSET 4

SELECT id FROM emp ORDER BY id FETCH FIRST 1 ROW ONLY

SELECT id FROM emp ORDER BY id LIMIT ALL

SELECT id FROM emp LIMIT -1

# CASE, COALESCE, NULLIF, GREATEST, LEAST.
SELECT name, CASE WHEN salary >= 90 THEN 'high' WHEN salary >= 80 THEN 'mid' ELSE 'low' END AS band FROM emp ORDER BY id

SELECT CASE dept_id WHEN 1 THEN 'eng' WHEN 2 THEN 'ops' END AS d FROM emp ORDER BY id

SELECT CASE WHEN false THEN 1 END AS n, CASE WHEN true THEN 1 ELSE 2.5 END AS num

SELECT CASE WHEN true THEN 1 ELSE 'x' END

SELECT COALESCE(NULL, NULL, 3) AS a, COALESCE(NULL::text, 'd') AS b, COALESCE(boss, -1) AS c FROM emp ORDER BY id

SELECT NULLIF(1, 1) AS a, NULLIF(1, 2) AS b, NULLIF('x', 'y') AS c

SELECT GREATEST(1, 5, 3) AS g, LEAST(1, 5, 3) AS l, GREATEST(1, NULL, 2) AS gn, LEAST('b', 'a') AS ls, GREATEST(1, 2.5) AS mixed

SELECT COALESCE(1, 'x')

# Row values and comparisons.
SELECT (1, 2) = (1, 2) AS eq, (1, 2) < (1, 3) AS lt, ROW(1, 'a') AS r, (1, NULL) = (1, 2) AS n

SELECT ROW(1, 2) IS NULL AS a, ROW(NULL, NULL) IS NULL AS b, ROW(1, NULL) IS NOT NULL AS c

# VALUES as a table.
VALUES (1, 'one'), (2, 'two')

SELECT * FROM (VALUES (1, 'one'), (2, 'two')) AS v(num, word) ORDER BY num DESC

SELECT column1, column2 FROM (VALUES (1, 2.5), (3, 4)) AS v

VALUES (1), ('x')

VALUES (1, 2), (3)

SELECT * FROM (VALUES (1), (NULL)) v(x) WHERE x IS NOT NULL

# WHERE with BETWEEN.
SELECT name FROM emp WHERE salary BETWEEN 80 AND 90 ORDER BY name

SELECT name FROM emp WHERE salary NOT BETWEEN 80 AND 90 ORDER BY name

SELECT 5 BETWEEN SYMMETRIC 10 AND 1 AS sym, 5 BETWEEN 10 AND 1 AS asym

# Name resolution errors.
SELECT nosuch FROM emp

SELECT emp.nosuch FROM emp

SELECT x.id FROM emp

SELECT id FROM emp, dept

SELECT * FROM nosuch

SELECT name, count(*) FROM emp

SELECT * FROM emp WHERE salary

SELECT * FROM emp WHERE count(*) > 1

SELECT id FROM emp GROUP BY id HAVING name = 'x'
