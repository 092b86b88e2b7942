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

SELECT 1 AS "Quoted Alias", 2 AS UnQuoted

# Casts: ::, CAST, typed literals, arrays, reg types.
SELECT '{1,2,3}'::int[] AS arr, '{a,b}'::text[] AS tarr, ARRAY['x','y']::varchar[] AS varr

SELECT 'int4'::regtype AS t, 'text'::regtype::oid AS toid, 'pg_class'::regclass AS rc

SELECT '"MixedCase"'::regclass AS rc, pg_typeof('"MixedCase"'::regclass) AS ty

SELECT 'nosuchtable'::regclass

SELECT 'nosuchtype'::regtype

SELECT DATE '2024-02-29' AS d, TIMESTAMP '2024-01-02 03:04:05' AS ts, INTERVAL '1 day' AS i

SELECT INTERVAL '1 day 2 hours' + INTERVAL '30 minutes' AS i, interval '90 minutes' AS m

SELECT 12::text || 'a', 1.5::float8::int4, (-1.5)::numeric::int4, 2.5::int4, '7'::int2 * 3

# String syntaxes.
SELECT 'it''s' AS q, E'it\'s' AS e, E'\x41\101\u0042' AS esc, U&'\0041b' AS u

SELECT 'one' 'two'

SELECT 'one'
  'two' AS joined

SELECT $$$$ AS empty, $a$ $b$ $a$ AS nested, length($$multi
line$$) AS n

SELECT B'1010' AS bits, X'1F' AS hex

# Pattern operators.
SELECT 'abc' ~ 'b' AS m1, 'ABC' ~* 'b' AS m2, 'abc' !~ 'z' AS m3, 'ABC' !~* 'b' AS m4

SELECT 'abc' OPERATOR(pg_catalog.~) '^a' AS op, 3 OPERATOR(pg_catalog.+) 4 AS plus

SELECT 'Hello' LIKE 'H%' AS l1, 'Hello' LIKE 'h%' AS l2, 'Hello' ILIKE 'h%' AS l3, 'Hello' NOT ILIKE 'x%' AS l4

SELECT 'a_c' LIKE 'a\_c' AS esc, 'abc' LIKE 'a\_c' AS esc2, 'a%c' LIKE 'a#%c' ESCAPE '#' AS esc3

SELECT 'abc' SIMILAR TO 'a(b|x)c' AS s1, 'abd' SIMILAR TO 'a(b|x)c' AS s2, 'aaa' SIMILAR TO 'a*' AS s3, 'abc' NOT SIMILAR TO '%b%' AS s4

SELECT 'abc' ~ '(' AS bad

# IS [NOT] DISTINCT FROM and NULL comparisons.
SELECT NULL IS DISTINCT FROM NULL AS a, 1 IS DISTINCT FROM NULL AS b, 1 IS NOT DISTINCT FROM 1 AS c, NULL = NULL AS d

SELECT NULL::int IS NULL AS a, 1 IS NOT NULL AS b, true IS TRUE AS c, NULL::bool IS UNKNOWN AS d, false IS NOT FALSE AS e

# ANY / ALL / IN.
SELECT 2 = ANY(ARRAY[1,2,3]) AS a, 5 = ANY('{1,2,3}') AS b, 2 <> ALL(ARRAY[1,3]) AS c, 1 < ALL(ARRAY[2,3]) AS d

SELECT NULL = ANY(ARRAY[1]) AS a, 1 = ANY(ARRAY[NULL,1]) AS b, 2 = ANY(ARRAY[NULL,1]) AS c

SELECT 1 = ANY(SELECT generate_series(1,3)) AS a, 7 = ANY(SELECT generate_series(1,3)) AS b

SELECT 'b' = ANY(ARRAY['a','b']) AS a, 'x' LIKE ANY(ARRAY['%x','y']) AS b

SELECT 1 IN (1, 2) AS a, 3 NOT IN (1, 2) AS b, 3 IN (1, NULL) AS c, 1 IN (1, NULL) AS d

# Arrays: constructors, ARRAY(subquery), subscripts, slices.
SELECT ARRAY[1,2,3] AS a, ARRAY[[1,2],[3,4]] AS b, ARRAY[]::int[] AS c, ARRAY[1.5, 2] AS d

SELECT ARRAY(SELECT generate_series(1,4)) AS a, ARRAY(SELECT 'x' WHERE false) AS e

SELECT (ARRAY[10,20,30])[2] AS a, (ARRAY[10,20,30])[5] AS b, (ARRAY[10,20,30])[2:3] AS c, ('{a,b,c}'::text[])[1] AS d

SELECT (ARRAY[[1,2],[3,4]])[2][1] AS a, array_length(ARRAY[1,2,3], 1) AS n, cardinality(ARRAY[[1,2],[3,4]]) AS c

SELECT ARRAY[1,2] || ARRAY[3] AS a, ARRAY[1,2] || 3 AS b, 0 || ARRAY[1] AS c, ARRAY[1,2] @> ARRAY[2] AS d

SELECT ARRAY['a', NULL, 'c b', ''] AS a, ARRAY['x"y', 'p\q'] AS b

# COLLATE and ordering of NULLs.
SELECT 'b' < 'a' COLLATE "C" AS c

CREATE TABLE ord (n int, s text)

INSERT INTO ord VALUES (1, 'b'), (NULL, 'a'), (3, NULL), (2, 'c')

SELECT n FROM ord ORDER BY n

SELECT n FROM ord ORDER BY n DESC

SELECT n FROM ord ORDER BY n NULLS FIRST

SELECT n FROM ord ORDER BY n DESC NULLS LAST

SELECT s FROM ord ORDER BY s COLLATE "C" NULLS FIRST

SELECT n, s FROM ord ORDER BY 2 DESC, 1

# Parameters in text: a dollar-quoted body keeps $1 literal.
SELECT $$ $1 $$ AS s

# Syntax errors point into the statement.
SELECT 1 +

SELECT * FORM ord

SELECT 'unterminated

SELECT (1, 2

SELECT 1 AS x, 2 AS

INSRT INTO ord VALUES (1)
