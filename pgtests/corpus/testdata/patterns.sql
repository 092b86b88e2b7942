# Pattern matching: LIKE, ILIKE, SIMILAR TO and the regular-expression
# operators, in their keyword, operator and ANY/ALL forms. The subject must
# be a string (found by fuzzing: a boolean or integer subject of LIKE ANY
# was an internal error), and char(n) is matched with its padding, as
# PostgreSQL's bpchar operators match it.

SELECT '0' LIKE ANY(SELECT '0') LIKE ANY(ARRAY[''])
----
ERROR 42883 at 33: operator does not exist: boolean ~~ text

SELECT 1 LIKE ANY(ARRAY['x'])
----
ERROR 42883 at 10: operator does not exist: integer ~~ text

SELECT 'a' LIKE ANY(ARRAY[1])
----
ERROR 42883 at 12: operator does not exist: unknown ~~ integer

SELECT 'a' ILIKE ALL(ARRAY[true])
----
ERROR 42883 at 12: operator does not exist: unknown ~~* boolean

SELECT 1 NOT LIKE ANY(ARRAY['x'])
----
ERROR 42883 at 10: operator does not exist: integer !~~ text

SELECT 1 NOT ILIKE ANY(ARRAY['x'])
----
ERROR 42883 at 10: operator does not exist: integer !~~* text

SELECT 1 ~~ ANY(ARRAY['x'])
----
ERROR 42883 at 10: operator does not exist: integer ~~ text

SELECT 1 LIKE ANY(SELECT 'x')
----
ERROR 42883 at 10: operator does not exist: integer ~~ text

SELECT 1 LIKE 'x'
----
ERROR 42883 at 10: operator does not exist: integer ~~ unknown

SELECT 1 NOT LIKE 'x'
----
ERROR 42883 at 10: operator does not exist: integer !~~ unknown

SELECT 1 ILIKE 'x'
----
ERROR 42883 at 10: operator does not exist: integer ~~* unknown

SELECT 1 NOT ILIKE 'x'
----
ERROR 42883 at 10: operator does not exist: integer !~~* unknown

SELECT 1 SIMILAR TO 'x'
----
ERROR 42883 at 10: operator does not exist: integer ~ text

SELECT 1 NOT SIMILAR TO 'x'
----
ERROR 42883 at 10: operator does not exist: integer !~ text

SELECT 'a' SIMILAR TO 1
----
ERROR 42883 at 12: function pg_catalog.similar_to_escape(integer) does not exist

SELECT 'a' LIKE 1
----
ERROR 42883 at 12: operator does not exist: unknown ~~ integer

SELECT true LIKE 'x'
----
ERROR 42883 at 13: operator does not exist: boolean ~~ unknown

SELECT 1 ~ 'x'
----
ERROR 42883 at 10: operator does not exist: integer ~ unknown

SELECT 'a' ~ 1
----
ERROR 42883 at 12: operator does not exist: unknown ~ integer

SELECT 1 ~~ 'x'
----
ERROR 42883 at 10: operator does not exist: integer ~~ unknown

SELECT 'a'::char(3) LIKE 'a', 'a'::char(3) LIKE 'a  ', 'a'::char(3) LIKE 'a__', 'a'::char(3) ILIKE 'A__', 'a'::char(3) NOT LIKE 'a'
----
?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool
f | t | t | t | t
SELECT 1

SELECT 'a'::char(3) LIKE 'a'::char(3), 'a'::char(3) SIMILAR TO 'a  ', 'a'::char(3) NOT SIMILAR TO 'a'
----
?column?:bool | ?column?:bool | ?column?:bool
f | t | t
SELECT 1

SELECT 'a'::char(3) ~ 'a  $', 'a'::char(3) ~* 'A  $', 'a'::char(3) !~ 'a  $', 'a'::char(3) !~* 'A  $'
----
?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool
t | t | f | f
SELECT 1

SELECT 'a'::char(3) ~~ 'a__', 'a'::char(3) ~~* 'A__', 'a'::char(3) !~~ 'a__', 'a'::char(3) !~~* 'A__'
----
?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool
t | t | f | f
SELECT 1

SELECT 'a'::char(3) LIKE ANY(ARRAY['a__']), 'a'::char(3) ~ ANY(ARRAY['a  $']), 'a'::char(3) ILIKE ALL(ARRAY['A__', '%  ']), 'a'::char(3) NOT LIKE ALL(ARRAY['a'])
----
?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool
t | t | t | t
SELECT 1

SELECT regexp_like('a'::char(3), 'a  $'), 'a'::char(3) = 'a'
----
regexp_like:bool | ?column?:bool
f | t
SELECT 1

SELECT 'a'::"char" LIKE 'a', 'a'::"char" ~ 'a', 'a'::"char" LIKE ANY(ARRAY['a'])
----
?column?:bool | ?column?:bool | ?column?:bool
t | t | t
SELECT 1

SELECT 'ab'::name LIKE ANY(ARRAY['a%']), 'ab'::name ~ ANY(ARRAY['a']), 'ab'::varchar(5) LIKE 'a_'
----
?column?:bool | ?column?:bool | ?column?:bool
t | t | t
SELECT 1

SELECT 'a' LIKE ANY(NULL), 'a' LIKE ANY(ARRAY[NULL]), 'a' LIKE ANY('{a,b}'), NULL LIKE ANY(ARRAY['x']), NULL::char(2) LIKE 'x'
----
?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool
NULL | NULL | t | NULL | NULL
SELECT 1

SELECT x, x LIKE ALL(ARRAY['%a%', 'b%']) AS l FROM (VALUES ('ba'), ('ab'), (NULL)) v(x) ORDER BY x
----
x:text | l:bool
ab | f
ba | t
NULL | NULL
SELECT 3

CREATE TABLE pat (c char(5), v varchar(5))
----
CREATE TABLE

INSERT INTO pat VALUES ('ab', 'ab'), ('abcde', 'abcde'), (NULL, NULL)
----
INSERT 0 3

SELECT c, c LIKE '%b' AS l1, c LIKE 'ab%' AS l2, v LIKE '%b' AS l3, c ~ 'b$' AS r1, c ~ 'b +$' AS r2, c LIKE ANY(ARRAY['%b', '%e']) AS a FROM pat ORDER BY c
----
c:bpchar | l1:bool | l2:bool | l3:bool | r1:bool | r2:bool | a:bool
"ab   " | f | t | t | f | t | f
abcde | f | t | f | f | f | t
NULL | NULL | NULL | NULL | NULL | NULL | NULL
SELECT 3

SELECT count(*) FROM pat WHERE c LIKE 'ab   '
----
count:int8
1
SELECT 1

SELECT c FROM pat WHERE c SIMILAR TO '%e' OR c ILIKE 'AB%  ' ORDER BY c
----
c:bpchar
"ab   "
abcde
SELECT 2

DROP TABLE pat
----
DROP TABLE

SELECT 'a' LIKE 'a' ESCAPE 1
----
ERROR 42883 at 12: function pg_catalog.like_escape(unknown, integer) does not exist

SELECT 'a' ILIKE 'a' ESCAPE 1
----
ERROR 42883 at 12: function pg_catalog.like_escape(unknown, integer) does not exist

SELECT 'a' SIMILAR TO 'a' ESCAPE 1
----
ERROR 42883 at 12: function pg_catalog.similar_to_escape(unknown, integer) does not exist

SELECT 'a' NOT LIKE 'a'::text ESCAPE 1
----
ERROR 42883 at 12: function pg_catalog.like_escape(text, integer) does not exist

SELECT 1 LIKE 'a' ESCAPE '#'
----
ERROR 42883 at 10: operator does not exist: integer ~~ text

SELECT 'a' LIKE 'a' ESCAPE 'xy'
----
ERROR 22025: invalid escape string

SELECT 'a#%' LIKE 'a##%' ESCAPE '#', 'a%' LIKE 'a#%' ESCAPE '#', 'ab' LIKE 'a_' ESCAPE '', 'a' LIKE 'a' ESCAPE NULL, 'a'::char(3) LIKE 'a#_#_' ESCAPE '#'
----
?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool
t | t | t | NULL | f
SELECT 1
