# Lexical forms: casts, string syntaxes, quoted identifiers, operators.

SELECT 1::int8 AS a, '42'::int4 + 1 AS b, CAST('3.5' AS numeric) AS c
----
a:int8 | b:int4 | c:numeric
1 | 43 | 3.5
SELECT 1

SELECT E'tab\there' AS e, $$dollar 'quoted'$$ AS d, $tag$x$$y$tag$ AS t
----
e:text | d:text | t:text
"tab\there" | dollar 'quoted' | x$$y
SELECT 1

SELECT 'a' || 'b' || 'c' AS abc, 1 || 'x' AS mixed
----
abc:text | mixed:text
abc | 1x
SELECT 1

CREATE TABLE "MixedCase" ("Id" int PRIMARY KEY, plain text)
----
CREATE TABLE

INSERT INTO "MixedCase" VALUES (1, 'one'), (2, 'two')
----
INSERT 0 2

SELECT "Id", PLAIN FROM "MixedCase" ORDER BY "Id"
----
Id:int4 | plain:text
1 | one
2 | two
SELECT 2

SELECT id FROM "MixedCase"
----
ERROR 42703 at 8: column "id" does not exist

SELECT * FROM mixedcase
----
ERROR 42P01 at 15: relation "mixedcase" does not exist

# Identifiers fold to lower case unless quoted.
SELECT "plain" FROM "MixedCase" WHERE "Id" = 1
----
plain:text
one
SELECT 1

SELECT 1 AS "Quoted Alias", 2 AS UnQuoted
----
Quoted Alias:int4 | unquoted:int4
1 | 2
SELECT 1

# Casts: ::, CAST, typed literals, arrays, reg types.
SELECT '{1,2,3}'::int[] AS arr, '{a,b}'::text[] AS tarr, ARRAY['x','y']::varchar[] AS varr
----
arr:_int4 | tarr:_text | varr:_varchar
{1,2,3} | {a,b} | {x,y}
SELECT 1

SELECT 'int4'::regtype AS t, 'text'::regtype::oid AS toid, 'pg_class'::regclass AS rc
----
t:2206 | toid:oid | rc:2205
integer | 25 | pg_class
SELECT 1

SELECT '"MixedCase"'::regclass AS rc, pg_typeof('"MixedCase"'::regclass) AS ty
----
rc:2205 | ty:2206
"\"MixedCase\"" | regclass
SELECT 1

SELECT 'nosuchtable'::regclass
----
ERROR 42P01 at 8: relation "nosuchtable" does not exist

SELECT 'nosuchtype'::regtype
----
ERROR 42704 at 8: type "nosuchtype" does not exist

SELECT DATE '2024-02-29' AS d, TIMESTAMP '2024-01-02 03:04:05' AS ts, INTERVAL '1 day' AS i
----
d:date | ts:timestamp | i:interval
2024-02-29 | 2024-01-02 03:04:05 | 1 day
SELECT 1

SELECT INTERVAL '1 day 2 hours' + INTERVAL '30 minutes' AS i, interval '90 minutes' AS m
----
i:interval | m:interval
1 day 02:30:00 | 01:30:00
SELECT 1

SELECT 12::text || 'a', 1.5::float8::int4, (-1.5)::numeric::int4, 2.5::int4, '7'::int2 * 3
----
?column?:text | int4:int4 | int4:int4 | int4:int4 | ?column?:int4
12a | 2 | -2 | 3 | 21
SELECT 1

# String syntaxes.
SELECT 'it''s' AS q, E'it\'s' AS e, E'\x41\101\u0042' AS esc, U&'\0041b' AS u
----
q:text | e:text | esc:text | u:text
it's | it's | AAB | Ab
SELECT 1

SELECT 'one' 'two'
----
ERROR 42601 at 14: syntax error at or near "'two'"

SELECT 'one'
  'two' AS joined
----
joined:text
onetwo
SELECT 1

SELECT $$$$ AS empty, $a$ $b$ $a$ AS nested, length($$multi
line$$) AS n
----
empty:text | nested:text | n:int4
"" | " $b$ " | 10
SELECT 1

# Pattern operators.
SELECT 'abc' ~ 'b' AS m1, 'ABC' ~* 'b' AS m2, 'abc' !~ 'z' AS m3, 'ABC' !~* 'b' AS m4
----
m1:bool | m2:bool | m3:bool | m4:bool
t | t | t | f
SELECT 1

SELECT 'abc' OPERATOR(pg_catalog.~) '^a' AS op, 3 OPERATOR(pg_catalog.+) 4 AS plus
----
op:bool | plus:int4
t | 7
SELECT 1

SELECT 'Hello' LIKE 'H%' AS l1, 'Hello' LIKE 'h%' AS l2, 'Hello' ILIKE 'h%' AS l3, 'Hello' NOT ILIKE 'x%' AS l4
----
l1:bool | l2:bool | l3:bool | l4:bool
t | f | t | t
SELECT 1

SELECT 'a_c' LIKE 'a\_c' AS esc, 'abc' LIKE 'a\_c' AS esc2, 'a%c' LIKE 'a#%c' ESCAPE '#' AS esc3
----
esc:bool | esc2:bool | esc3:bool
t | f | t
SELECT 1

SELECT 'abc' SIMILAR TO 'a(b|x)c' AS s1, 'abd' SIMILAR TO 'a(b|x)c' AS s2, 'aaa' SIMILAR TO 'a*' AS s3, 'abc' NOT SIMILAR TO '%b%' AS s4
----
s1:bool | s2:bool | s3:bool | s4:bool
t | f | t | f
SELECT 1

SELECT 'abc' ~ '(' AS bad
----
ERROR 2201B: invalid regular expression: parentheses () not balanced

# IS [NOT] DISTINCT FROM and NULL comparisons.
SELECT NULL IS DISTINCT FROM NULL AS a, 1 IS DISTINCT FROM NULL AS b, 1 IS NOT DISTINCT FROM 1 AS c, NULL = NULL AS d
----
a:bool | b:bool | c:bool | d:bool
f | t | t | NULL
SELECT 1

SELECT NULL::int IS NULL AS a, 1 IS NOT NULL AS b, true IS TRUE AS c, NULL::bool IS UNKNOWN AS d, false IS NOT FALSE AS e
----
a:bool | b:bool | c:bool | d:bool | e:bool
t | t | t | t | f
SELECT 1

# ANY / ALL / IN.
SELECT 2 = ANY(ARRAY[1,2,3]) AS a, 5 = ANY('{1,2,3}') AS b, 2 <> ALL(ARRAY[1,3]) AS c, 1 < ALL(ARRAY[2,3]) AS d
----
a:bool | b:bool | c:bool | d:bool
t | f | t | t
SELECT 1

SELECT NULL = ANY(ARRAY[1]) AS a, 1 = ANY(ARRAY[NULL,1]) AS b, 2 = ANY(ARRAY[NULL,1]) AS c
----
a:bool | b:bool | c:bool
NULL | t | NULL
SELECT 1

SELECT 1 = ANY(SELECT generate_series(1,3)) AS a, 7 = ANY(SELECT generate_series(1,3)) AS b
----
a:bool | b:bool
t | f
SELECT 1

SELECT 'b' = ANY(ARRAY['a','b']) AS a, 'x' LIKE ANY(ARRAY['%x','y']) AS b
----
a:bool | b:bool
t | t
SELECT 1

SELECT 1 IN (1, 2) AS a, 3 NOT IN (1, 2) AS b, 3 IN (1, NULL) AS c, 1 IN (1, NULL) AS d
----
a:bool | b:bool | c:bool | d:bool
t | t | NULL | t
SELECT 1

# Arrays: constructors, ARRAY(subquery), subscripts, slices.
SELECT ARRAY[1,2,3] AS a, ARRAY[[1,2],[3,4]] AS b, ARRAY[]::int[] AS c, ARRAY[1.5, 2] AS d
----
a:_int4 | b:_int4 | c:_int4 | d:_numeric
{1,2,3} | {{1,2},{3,4}} | {} | {1.5,2}
SELECT 1

SELECT ARRAY(SELECT generate_series(1,4)) AS a, ARRAY(SELECT 'x' WHERE false) AS e
----
a:_int4 | e:_text
{1,2,3,4} | {}
SELECT 1

SELECT (ARRAY[10,20,30])[2] AS a, (ARRAY[10,20,30])[5] AS b, (ARRAY[10,20,30])[2:3] AS c, ('{a,b,c}'::text[])[1] AS d
----
a:int4 | b:int4 | c:_int4 | d:text
20 | NULL | {20,30} | a
SELECT 1

SELECT (ARRAY[[1,2],[3,4]])[2][1] AS a, array_length(ARRAY[1,2,3], 1) AS n, cardinality(ARRAY[[1,2],[3,4]]) AS c
----
a:int4 | n:int4 | c:int4
3 | 3 | 4
SELECT 1

SELECT ARRAY[1,2] || ARRAY[3] AS a, ARRAY[1,2] || 3 AS b, 0 || ARRAY[1] AS c, ARRAY[1,2] @> ARRAY[2] AS d
----
a:_int4 | b:_int4 | c:_int4 | d:bool
{1,2,3} | {1,2,3} | {0,1} | t
SELECT 1

SELECT ARRAY['a', NULL, 'c b', ''] AS a, ARRAY['x"y', 'p\q'] AS b
----
a:_text | b:_text
"{a,NULL,\"c b\",\"\"}" | "{\"x\\\"y\",\"p\\\\q\"}"
SELECT 1

# COLLATE and ordering of NULLs.
SELECT 'b' < 'a' COLLATE "C" AS c
----
c:bool
f
SELECT 1

CREATE TABLE ord (n int, s text)
----
CREATE TABLE

INSERT INTO ord VALUES (1, 'b'), (NULL, 'a'), (3, NULL), (2, 'c')
----
INSERT 0 4

SELECT n FROM ord ORDER BY n
----
n:int4
1
2
3
NULL
SELECT 4

SELECT n FROM ord ORDER BY n DESC
----
n:int4
NULL
3
2
1
SELECT 4

SELECT n FROM ord ORDER BY n NULLS FIRST
----
n:int4
NULL
1
2
3
SELECT 4

SELECT n FROM ord ORDER BY n DESC NULLS LAST
----
n:int4
3
2
1
NULL
SELECT 4

SELECT s FROM ord ORDER BY s COLLATE "C" NULLS FIRST
----
s:text
NULL
a
b
c
SELECT 4

SELECT n, s FROM ord ORDER BY 2 DESC, 1
----
n:int4 | s:text
3 | NULL
2 | c
1 | b
NULL | a
SELECT 4

# Parameters in text: a dollar-quoted body keeps $1 literal.
SELECT $$ $1 $$ AS s
----
s:text
" $1 "
SELECT 1

# Syntax errors point into the statement.
SELECT 1 +
----
ERROR 42601 at 11: syntax error at end of input

SELECT * FORM ord
----
ERROR 42601 at 10: syntax error at or near "FORM"

SELECT 'unterminated
----
ERROR 42601 at 8: unterminated quoted string at or near "'unterminated"

SELECT (1, 2
----
ERROR 42601 at 13: syntax error at end of input

SELECT 1 AS x, 2 AS
----
ERROR 42601 at 20: syntax error at end of input

INSRT INTO ord VALUES (1)
----
ERROR 42601 at 1: syntax error at or near "INSRT"

SELECT 'abc' LIKE ANY (SELECT 'a%' UNION SELECT 'x') AS l, 'abc' LIKE ALL (SELECT 'a%' UNION SELECT 'x') AS a, 'ABC' ILIKE ANY (ARRAY['a%']) AS i
----
l:bool | a:bool | i:bool
t | f | t
SELECT 1

SELECT 0 ! ANY (SELECT 1)
----
ERROR 42883 at 10: operator does not exist: integer ! integer
