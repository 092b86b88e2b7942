# More functions: to_number, numeric power scales, width_bucket, the
# PostgreSQL 15 regexp_* functions, substring with patterns, SHA-2,
# overlay, and DISTINCT ON / WITH TIES orderings.

SELECT to_number('1,234.5', '9,999.9'), to_number('12,454.8-', '99G999D9S'), to_number('1234.5', '9999.99'), to_number('12345', '99')
----
to_number:numeric | to_number:numeric | to_number:numeric | to_number:numeric
1234.5 | -12454.8 | 1234.5 | 12
SELECT 1

SELECT to_number('-12', '99'), to_number(' 12', '999'), to_number('12', '999'), to_number('<12>', '99PR'), to_number('$1,234.56', 'L9G999D99')
----
to_number:numeric | to_number:numeric | to_number:numeric | to_number:numeric | to_number:numeric
-12 | 12 | 12 | -12 | 1234.56
SELECT 1

SELECT to_number('1.5', '9'), to_number('12.345', '99.9'), to_number('0012', '0000'), to_number('12-', '99MI'), to_number('+5', 'S9')
----
to_number:numeric | to_number:numeric | to_number:numeric | to_number:numeric | to_number:numeric
1 | 12.3 | 12 | -12 | 5
SELECT 1

SELECT to_number('abc', '999')
----
ERROR 22P02: invalid input syntax for type numeric: " "

SELECT to_number('', '999'), to_number('1 2', '9 9'), to_number('1x2', '9x9'), to_number('12', 'FM999')
----
ERROR 22P02: invalid input syntax for type numeric: " "

SELECT 2::numeric ^ 10, 10::numeric ^ 2, 2 ^ 0.5, 1.5 ^ 2, 0.5::numeric ^ 10, 100::numeric ^ 0.5, 2::numeric ^ -2, 10::numeric ^ -5
----
?column?:numeric | ?column?:numeric | ?column?:numeric | ?column?:numeric | ?column?:numeric | ?column?:numeric | ?column?:numeric | ?column?:numeric
1024.0000000000000000 | 100.0000000000000000 | 1.4142135623730950 | 2.2500000000000000 | 0.0009765625000000 | 10.000000000000000 | 0.2500000000000000 | 0.0000100000000000
SELECT 1

SELECT 0::numeric ^ 0, 0::numeric ^ 2, 0::numeric ^ 0.5, (-2)::numeric ^ 3, 2.50 ^ 2, 2 ^ 2.0, 1.000001 ^ 1000000, 100::numeric ^ 1.5
----
?column?:numeric | ?column?:numeric | ?column?:numeric | ?column?:numeric | ?column?:numeric | ?column?:numeric | ?column?:numeric | ?column?:numeric
1.0000000000000000 | 0.0000000000000000 | 0.0000000000000000 | -8.0000000000000000 | 6.2500000000000000 | 4.0000000000000000 | 2.7182804693193769 | 1000.0000000000000
SELECT 1

SELECT 9.99 ^ 123, 0.1 ^ 50, 123.456 ^ 1.5, 7::numeric ^ 0.25
----
?column?:numeric | ?column?:numeric | ?column?:numeric | ?column?:numeric
884209245738001190487698934455775925336677542836589012634591329115480202928914576687953404646183020260765289736037440624624.5167977469224576 | 0.0000000000000000 | 1371.7289437796434 | 1.6265765616977857
SELECT 1

SELECT (-2)::numeric ^ 0.5
----
ERROR 2201F: a negative number raised to a non-integer power yields a complex result

SELECT 0::numeric ^ -1
----
ERROR 2201F: zero raised to a negative power is undefined

SELECT power(2, 10), power(2.0, 0.5), pg_typeof(power(2, 3)), pg_typeof(power(2.0, 3)), power(0::float8, -1)
----
ERROR 2201F: zero raised to a negative power is undefined

SELECT power(-8::float8, 1.0/3)
----
ERROR 2201F: a negative number raised to a non-integer power yields a complex result

SELECT width_bucket(5, 0, 10, 4), width_bucket(-1, 0, 10, 4), width_bucket(10, 0, 10, 4), width_bucket(5.35, 0.024, 10.06, 5), width_bucket(3, 10, 0, 4), width_bucket(10.0, 10, 0, 4)
----
width_bucket:int4 | width_bucket:int4 | width_bucket:int4 | width_bucket:int4 | width_bucket:int4 | width_bucket:int4
3 | 0 | 5 | 3 | 3 | 1
SELECT 1

SELECT width_bucket(1, 1, 1, 3)
----
ERROR 2201G: lower bound cannot equal upper bound

SELECT width_bucket(1, 0, 2, 0)
----
ERROR 2201G: count must be greater than zero

SELECT regexp_replace('aaa', 'a', 'b', 2), regexp_replace('aaaa', 'a', 'X', 1, 3), regexp_replace('aaaa', 'a', 'X', 2, 0), regexp_replace('abcABC', 'b', 'X', 1, 0, 'i'), regexp_replace('aaa', 'a', 'b', 'g')
----
regexp_replace:text | regexp_replace:text | regexp_replace:text | regexp_replace:text | regexp_replace:text
aba | aaXa | aXXX | aXcAXC | bbb
SELECT 1

SELECT regexp_count('ababab', 'ab'), regexp_count('ababab', 'ab', 2), regexp_count('ABab', 'ab', 1, 'i'), regexp_count('aaaa', 'aa')
----
regexp_count:int4 | regexp_count:int4 | regexp_count:int4 | regexp_count:int4
3 | 2 | 2 | 2
SELECT 1

SELECT regexp_instr('abcabc', 'c'), regexp_instr('abcabc', 'c', 1, 2), regexp_instr('abcabc', 'c', 1, 1, 1), regexp_instr('abcabc', 'b(c)', 1, 1, 0, '', 1), regexp_instr('abc', 'z'), regexp_instr('aaaa', 'aa', 2)
----
regexp_instr:int4 | regexp_instr:int4 | regexp_instr:int4 | regexp_instr:int4 | regexp_instr:int4 | regexp_instr:int4
3 | 6 | 4 | 3 | 0 | 2
SELECT 1

SELECT regexp_substr('abcabc', 'b.'), regexp_substr('abcabc', 'b.', 3), regexp_substr('abcabc', 'b(.)', 1, 2, '', 1), regexp_substr('abc', 'z'), regexp_like('Hello', 'hel', 'i'), regexp_like('Hello', 'hel')
----
regexp_substr:text | regexp_substr:text | regexp_substr:text | regexp_substr:text | regexp_like:bool | regexp_like:bool
bc | bc | c | NULL | t | f
SELECT 1

SELECT regexp_count('a', 'a', 0)
----
ERROR 22023: invalid value for parameter "start": 0

SELECT regexp_instr('a', 'a', 1, 0)
----
ERROR 22023: invalid value for parameter "n": 0

SELECT regexp_count('a', 'a', 1, 'g')
----
ERROR 22023: regexp_count() does not support the "global" option

SELECT regexp_replace('a', 'a', 'b', 1, -1)
----
ERROR 22023: invalid value for parameter "n": -1

SELECT regexp_replace('a', 'a', 'b', 'z')
----
ERROR 22023: invalid regular expression option: "z"

SELECT substring('foobar' FROM 'o(.)b'), substring('foobar' FROM 'z'), substring('foobar' FROM 'o+'), substring('foobar' FROM '(x)?b')
----
substring:text | substring:text | substring:text | substring:text
o | NULL | oo | NULL
SELECT 1

SELECT substring('foobar' SIMILAR '%#"o_b#"%' ESCAPE '#'), substring('foobar' FROM '%#"o_b#"%' FOR '#'), substring('foobar' SIMILAR 'f%' ESCAPE '#'), substring('foobar' SIMILAR 'x%' ESCAPE '#')
----
substring:text | substring:text | substring:text | substring:text
oob | oob | foobar | NULL
SELECT 1

SELECT substring('foobar' SIMILAR '%#"o%#"%' ESCAPE '#'), substring('aaXbb' SIMILAR '%#"X%#"' ESCAPE '#')
----
substring:text | substring:text
oobar | Xbb
SELECT 1

SELECT substring('foobar' SIMILAR '%#"o%' ESCAPE '#')
----
substring:text
oobar
SELECT 1

SELECT substring('foobar' SIMILAR '#"a#"#"b#"' ESCAPE '#')
----
ERROR 2200C: SQL regular expression may not contain more than two escape-double-quote separators

SELECT substring('abc', 2), substring('abc', 2, 1), substring('abc' FROM 2 FOR 1), substring('abc' FOR 2), substring('abcdef', '2'), pg_typeof(substring('abc', 1))
----
substring:text | substring:text | substring:text | substring:text | substring:text | pg_typeof:2206
bc | b | b | ab | NULL | text
SELECT 1

SELECT sha224('abc'), sha384(''::bytea) IS NOT NULL, length(sha512('x')), sha256('abc'::text)
----
ERROR 42883 at 75: function sha256(text) does not exist

SELECT overlay('abcdef' PLACING 'XY' FROM 2 FOR 3), overlay('abcdef' PLACING 'XY' FROM 2), overlay('abc' PLACING 'XYZW' FROM 3), overlay('abc' PLACING 'X' FROM 5), overlay('\x010203'::bytea PLACING '\xff'::bytea FROM 2)
----
overlay:text | overlay:text | overlay:text | overlay:text | overlay:bytea
aXYef | aXYdef | abXYZW | abcX | "\\x01ff03"
SELECT 1

SELECT overlay('abc' PLACING 'X' FROM 0)
----
ERROR 22011: negative substring length not allowed

SELECT overlay('abcdef' PLACING 'X' FROM 3 FOR -1)
----
overlay:text
abXbcdef
SELECT 1

SELECT 'abc' ~~ 'a%', 'abc' !~~ 'a%', 'ABC' ~~* 'a%', 'ABC' !~~* 'a%', 1 ~~ '1'
----
ERROR 42883 at 74: operator does not exist: integer ~~ unknown

SELECT 'a' COLLATE "C", 'a' COLLATE "POSIX", 'a' COLLATE "default", 'a' COLLATE pg_catalog."C", 'a' COLLATE ucs_basic
----
?column?:text | ?column?:text | ?column?:text | ?column?:text | ?column?:text
a | a | a | a | a
SELECT 1

SELECT 'a' COLLATE C
----
ERROR 42704 at 12: collation "c" for encoding "UTF8" does not exist

SELECT 'a' COLLATE public."C"
----
ERROR 42704 at 12: collation "public.C" for encoding "UTF8" does not exist

SELECT x FROM (VALUES (1), (2), (2), (3)) v(x) ORDER BY x FETCH FIRST 2 ROWS WITH TIES
----
x:int4
1
2
2
SELECT 3

SELECT x FROM (VALUES (1), (2), (2), (3)) v(x) ORDER BY x OFFSET 1 FETCH FIRST 1 ROW WITH TIES
----
x:int4
2
2
SELECT 2

SELECT x FROM (VALUES (1), (2)) v(x) FETCH FIRST 1 ROW WITH TIES
----
ERROR 42601: WITH TIES cannot be specified without ORDER BY clause

SELECT x FROM (VALUES (1), (2)) v(x) ORDER BY x FETCH FIRST NULL ROWS WITH TIES
----
ERROR 2201W: row count cannot be null in FETCH FIRST ... WITH TIES clause

SELECT x FROM (VALUES (1), (2)) v(x) ORDER BY x FETCH FIRST 0 ROWS WITH TIES
----
SELECT 0

SELECT x FROM (VALUES (1), (1)) v(x) UNION ALL SELECT 1 ORDER BY 1 FETCH FIRST 1 ROW WITH TIES
----
x:int4
1
1
1
SELECT 3

SELECT DISTINCT ON (a) a, b FROM (VALUES (1, 2), (1, 1), (2, 5)) v(a, b) ORDER BY a, b
----
a:int4 | b:int4
1 | 1
2 | 5
SELECT 2

SELECT DISTINCT ON (a, b) a, b FROM (VALUES (1, 2), (1, 1), (2, 5)) v(a, b) ORDER BY b, a
----
a:int4 | b:int4
1 | 1
1 | 2
2 | 5
SELECT 3

SELECT DISTINCT ON (a) a, b FROM (VALUES (1, 2), (1, 1), (2, 5)) v(a, b) ORDER BY b
----
ERROR 42P10 at 21: SELECT DISTINCT ON expressions must match initial ORDER BY expressions

SELECT DISTINCT ON (a, b) a, b FROM (VALUES (1, 2), (1, 1), (2, 5)) v(a, b) ORDER BY a
----
a:int4 | b:int4
1 | 1
1 | 2
2 | 5
SELECT 3

SELECT DISTINCT ON (a) b FROM (VALUES (1, 2), (1, 1), (2, 5)) v(a, b) ORDER BY a, b DESC
----
b:int4
2
5
SELECT 2

SELECT DISTINCT ON (1) a, b FROM (VALUES (1, 2), (1, 1), (2, 5)) v(a, b) ORDER BY a, b DESC
----
a:int4 | b:int4
1 | 2
2 | 5
SELECT 2

SELECT DISTINCT ON (a + 0) a FROM (VALUES (1, 2), (1, 1), (2, 5)) v(a, b) ORDER BY b, a + 0
----
ERROR 42P10 at 21: SELECT DISTINCT ON expressions must match initial ORDER BY expressions

SELECT to_number('1 -', '9S'), to_number('-1.5', 'S9.9'), to_number('1.5+', '9.9S'), to_number('12.5', '99D9'), to_number(' - 12', '9999')
----
to_number:numeric | to_number:numeric | to_number:numeric | to_number:numeric | to_number:numeric
1 | -1.5 | 1.5 | 12.5 | -12
SELECT 1

SELECT to_number('-', '9')
----
ERROR 22P02: invalid input syntax for type numeric: "-"

SELECT to_number('1', '9EEEE')
----
ERROR 0A000: "EEEE" not supported for input

SELECT to_number('1', '')
----
to_number:numeric
NULL
SELECT 1

SELECT to_number('99999', '9G999')
----
to_number:numeric
9999
SELECT 1

SELECT to_number('12', '9V9'), to_number('5.01-', 'FM9.999999MI'), to_number('12,3', '99,9'), to_number('1,2', 'FM9G9'), to_number('.5', '.9'), to_number('0.5', '9.9'), to_number('123', '999th')
----
to_number:numeric | to_number:numeric | to_number:numeric | to_number:numeric | to_number:numeric | to_number:numeric | to_number:numeric
1.2000000000000000 | -5.01 | 123 | 1 | 0.5 | 0.5 | 123
SELECT 1

# round and trunc of numeric at extreme scales (found by fuzzing: a scale
# past 1000 digits was an internal error, and a negative one printed as
# many zeros as it asked for).

SELECT length(round(1, 16384)::text) AS r, length(trunc(1, 5000)::text) AS t, round(1.5, 2147483647) = 1.5 AS big, 0 % trunc(1, 1000) = 0 AS modulo
----
r:int4 | t:int4 | big:bool | modulo:bool
16385 | 5002 | t | t
SELECT 1

SELECT round(1, -2147483648) AS r1, trunc(1, -1000) AS t1, round(99.99, -2) AS r2, trunc(99.99, -1) AS t2, round(123.456, -2) AS r3, trunc(12345678901234567890.5, -5) AS t3
----
r1:numeric | t1:numeric | r2:numeric | t2:numeric | r3:numeric | t3:numeric
0 | 0 | 100 | 90 | 100 | 12345678901234500000
SELECT 1

SELECT round(-5.5, -1) AS r1, trunc(-5.5, -1) AS t1, round(5, -1) AS r2, round(4, -1) AS r3, round(5, -2) AS r4, round(0, -5) AS r5, round(1e5, -6) AS r6, round(5e5, -6) AS r7
----
r1:numeric | t1:numeric | r2:numeric | r3:numeric | r4:numeric | r5:numeric | r6:numeric | r7:numeric
-10 | 0 | 10 | 0 | 0 | 0 | 0 | 1000000
SELECT 1

SELECT round(0.0000001, 3) AS r1, round(0.000, 2) AS r2, trunc(1e-20, 25) AS t1, round(99.99, 1) AS r3, trunc(99.99, 1) AS t2, round(2.5) AS r4, trunc(-2.5) AS t3
----
r1:numeric | r2:numeric | t1:numeric | r3:numeric | t2:numeric | r4:numeric | t3:numeric
0.000 | 0.00 | 0.0000000000000000000100000 | 100.0 | 99.9 | 3 | -2
SELECT 1

# to_char's RN: Roman numerals (it printed nothing).

SELECT to_char(12, 'RN') || '|' AS a, to_char(12, 'rn') AS b, to_char(3999, 'RN') AS c, to_char(4000, 'RN') AS d, to_char(0, 'RN') AS e, to_char(-5, 'RN') AS f, to_char(12, 'FMRN') AS g, to_char(888, 'FMRN') AS h
----
a:text | b:text | c:text | d:text | e:text | f:text | g:text | h:text
"            XII|" | "            xii" | "      MMMCMXCIX" | ############### | ############### | ############### | XII | DCCCLXXXVIII
SELECT 1

SELECT to_char(12.6, 'RN') AS a, to_char(1994, 'FMrn') AS b, '[' || to_char(4, 'RN9') || ']' AS c, to_char(4.5::float8, 'RN') AS d, to_char(5.5::float8, 'FMRN') AS e, to_char(2.5, 'FMRN') AS f, to_char(3999.5, 'FMRN') AS g, to_char(1::int2, 'FMRN') AS h, to_char('NaN'::float8, 'RN') AS i
----
a:text | b:text | c:text | d:text | e:text | f:text | g:text | h:text | i:text
"           XIII" | mcmxciv | [             IV] | "             IV" | VI | III | ############### | I | ###############
SELECT 1

SELECT to_char('NaN'::numeric, 'RN')
----
ERROR 0A000: cannot convert NaN to integer

SELECT to_char('Infinity'::numeric, 'RN')
----
ERROR 0A000: cannot convert infinity to integer

SELECT to_char(1e30::numeric, 'RN')
----
ERROR 22003: integer out of range

# Float functions at their edges: exp overflow and underflow, logarithms of
# subnormal numbers (Go's amd64 math.Log is off there), the trigonometric
# functions' domains, and the hyperbolic functions.

SELECT exp(1000)
----
ERROR 22003: value out of range: overflow

SELECT exp(-1000)
----
ERROR 22003: value out of range: underflow

SELECT exp(1000::float8)
----
ERROR 22003: value out of range: overflow

SELECT exp('infinity'::float8), exp('-infinity'::float8), exp('NaN'::float8), exp(1::float8)
----
exp:float8 | exp:float8 | exp:float8 | exp:float8
Infinity | 0 | NaN | 2.718281828459045
SELECT 1

SELECT ln(1e-320::float8), log(1e-320::float8), ln(5e-324::float8), log(2.2250738585072014e-308::float8), ln(1::float8), log(1000::float8)
----
ln:float8 | log:float8 | ln:float8 | log:float8 | ln:float8 | log:float8
-736.8272408909739 | -320.000004834948 | -744.4400719213812 | -307.6526555685888 | 0 | 3
SELECT 1

SELECT ln('NaN'::float8), log('infinity'::float8)
----
ln:float8 | log:float8
NaN | Infinity
SELECT 1

SELECT asin(2)
----
ERROR 22003: input is out of range

SELECT acos(-2)
----
ERROR 22003: input is out of range

SELECT sin('infinity'::float8)
----
ERROR 22003: input is out of range

SELECT tan('-infinity'::float8)
----
ERROR 22003: input is out of range

SELECT asin(1), acos(0), sin('NaN'::float8), cos(0)
----
asin:float8 | acos:float8 | sin:float8 | cos:float8
1.5707963267948966 | 1.5707963267948966 | NaN | 1
SELECT 1

SELECT asinh(1), acosh(2), atanh(0.5), sinh(1), cosh(1), tanh(1), tanh(1000), cosh(1000::float8), sinh(-1000::float8), atanh(1), atanh(-1)
----
asinh:float8 | acosh:float8 | atanh:float8 | sinh:float8 | cosh:float8 | tanh:float8 | tanh:float8 | cosh:float8 | sinh:float8 | atanh:float8 | atanh:float8
0.881373587019543 | 1.3169578969248166 | 0.5493061443340548 | 1.1752011936438014 | 1.5430806348152437 | 0.7615941559557649 | 1 | Infinity | -Infinity | Infinity | -Infinity
SELECT 1

SELECT acosh(0.5)
----
ERROR 22003: input is out of range

SELECT atanh(2)
----
ERROR 22003: input is out of range

SELECT pg_typeof(sinh(1)), acosh('infinity'::float8), atanh('NaN'::float8)
----
pg_typeof:2206 | acosh:float8 | atanh:float8
double precision | Infinity | NaN
SELECT 1

# DISTINCT aggregates without ORDER BY see their values in ascending order,
# as PostgreSQL's sort for DISTINCT gives them.

SELECT string_agg(DISTINCT x, ',') , array_agg(DISTINCT y), json_agg(DISTINCT y), array_agg(DISTINCT x || y::text) FROM (VALUES ('b', 2), ('a', NULL), ('b', 1), ('c', 3), (NULL, 0)) v(x, y)
----
string_agg:text | array_agg:_int4 | json_agg:json | array_agg:_text
a,b,c | {0,1,2,3,NULL} | [0, 1, 2, 3, null] | {b1,b2,c3,NULL}
SELECT 1

# array_fill (it did not exist).

SELECT array_fill(7, ARRAY[3]), array_fill(0, ARRAY[2,2]), array_fill('x'::text, ARRAY[2]), array_fill(NULL::int, ARRAY[2]), array_fill(1, '{}'), array_fill(7, ARRAY[3], ARRAY[1])
----
array_fill:_int4 | array_fill:_int4 | array_fill:_text | array_fill:_int4 | array_fill:_int4 | array_fill:_int4
{7,7,7} | {{0,0},{0,0}} | {x,x} | {NULL,NULL} | {} | {7,7,7}
SELECT 1

SELECT array_fill(1, ARRAY[-1])
----
ERROR 54000: array size exceeds the maximum allowed (134217727)

SELECT array_fill(1, NULL)
----
ERROR 22004: dimension array or low bound array cannot be null

SELECT array_fill(1, ARRAY[NULL]::int[])
----
ERROR 22004: dimension values cannot be null

SELECT array_fill(1, ARRAY[[1]])
----
ERROR 2202E: wrong number of array subscripts

SELECT array_fill(1, ARRAY[2], ARRAY[1, 1])
----
ERROR 2202E: wrong number of array subscripts

SELECT array_fill(1, ARRAY[0]), pg_typeof(array_fill(1.5, ARRAY[1])), array_fill(date '2024-01-01', ARRAY[1, 2]), array_length(array_fill(0, ARRAY[3, 4]), 2)
----
array_fill:_int4 | pg_typeof:2206 | array_fill:_date | array_length:int4
{} | numeric[] | {{2024-01-01,2024-01-01}} | 4
SELECT 1

# to_char's EEEE (it printed the digits without the exponent), with
# numeric_out_sci's rounding after the exponent is taken.

SELECT to_char(1.5, '9.99EEEE') AS a, to_char(0.00001, '9.999EEEE') AS b, to_char(1234.5, '99.99EEEE') AS c, to_char(-1234.5, '9.9EEEE') AS d, to_char(0, '9.99EEEE') AS e, to_char(12345, '9EEEE') AS f
----
a:text | b:text | c:text | d:text | e:text | f:text
" 1.50e+00" | " 1.000e-05" | " 1.23e+03" | -1.2e+03 | " 0.00e+00" | " 1e+04"
SELECT 1

SELECT to_char(1e100, '9.9EEEE') AS a, to_char(9.99, '9.9EEEE') AS b, to_char(-9.96, '9.9EEEE') AS c, to_char(1.5, '0.00EEEE') AS d, to_char(1.5, '.99EEEE') AS e, to_char(15, '99EEEE') AS f
----
a:text | b:text | c:text | d:text | e:text | f:text
" 1.0e+100" | " 10.0e+00" | -10.0e+00 | " 1.50e+00" | " 1.50e+00" | " 2e+01"
SELECT 1

SELECT to_char('NaN'::numeric, '99.9EEEE') AS a, to_char(1e-100::float8, '9.99EEEE') AS b, to_char(5::int8, '9.99EEEE') AS c, to_char(1.5::float8, '9.99EEEE') AS d, to_char(-2.5e-300::float8, '9.9EEEE') AS e, to_char('NaN'::float8, '9.9EEEE') AS f
----
a:text | b:text | c:text | d:text | e:text | f:text
" ##.#####" | " 1.00e-100" | " 5.00e+00" | " 1.50e+00" | -2.5e-300 | " #.#####"
SELECT 1

SELECT to_char(123::int, '9.9eeee') AS a, to_char(1.5, '9,9.99EEEE') AS b, to_char('Infinity'::numeric, '9.9EEEE') AS c, to_char(-0.0, '9.9EEEE') AS d, to_char(0.000123456, '9.99999EEEE') AS e, to_char(-1e-5::float4, '9.9EEEE') AS f
----
a:text | b:text | c:text | d:text | e:text | f:text
" 1.2e+02" | " 1.50e+00" | " #.#####" | " 0.0e+00" | " 1.23456e-04" | -1.0e-05
SELECT 1

SELECT to_char(1.5, 'FM9.99EEEE')
----
ERROR 42601: "EEEE" is incompatible with other formats

SELECT to_char(1.5, '9.99EEEE9')
----
ERROR 42601: "EEEE" must be the last pattern used

SELECT to_char(1.5, 'S9.99EEEE')
----
ERROR 42601: "EEEE" is incompatible with other formats

SELECT to_char(1.5, '9.99EEEEPR')
----
ERROR 42601: "EEEE" must be the last pattern used

# to_char of numbers lays the digits out as PostgreSQL's NUM_processor
# does: literal text, L (a blank in the C locale), V, B, the sign keywords
# in their places, FM, TH, and the templates it refuses.
SELECT to_char(0, 'RNLGB'), to_char(2147483647, 'LL'), to_char(123, '9V999'), to_char(1.25::float8, '9V9')
----
to_char:text | to_char:text | to_char:text | to_char:text
"###############  " | "  " | " ####" | " 12"
SELECT 1

SELECT to_char('NaN'::numeric, '9999'), to_char('-Infinity'::numeric, 'S999999999'), to_char('NaN'::float8, '9999'), to_char('Infinity'::float8, '999999'), to_char(1e10::float8, 'RN')
----
to_char:text | to_char:text | to_char:text | to_char:text | to_char:text
"  NaN" | " -Infinity" | "  NaN" | " ######" | ###############
SELECT 1

SELECT to_char(-12.5, 'S99.99'), to_char(12.5, '99.99S'), to_char(-12.5, '99.99PR'), to_char(12.5, 'FM99.9900'), to_char(0.5, '9.9'), to_char(0.5, 'FM9.9'), to_char(0, 'FM9.9')
----
to_char:text | to_char:text | to_char:text | to_char:text | to_char:text | to_char:text | to_char:text
-12.50 | 12.50+ | <12.50> | 12.5000 | "  .5" | .5 | 0.
SELECT 1

SELECT to_char(1234567.891, '9G999G999D99'), to_char(-1234.5, 'MI9999.9'), to_char(1234.5, 'PL9999.9'), to_char(-1234.5, 'SG9999.9'), to_char(5, '"x"9"y"'), to_char(12, '99th'), to_char(123, 'SG RN')
----
to_char:text | to_char:text | to_char:text | to_char:text | to_char:text | to_char:text | to_char:text
" 1,234,567.89" | -1234.5 | + 1234.5 | -1234.5 | x 5y | " 12th" | ""
SELECT 1

SELECT to_char(123456789012345.6::float8, '999999999999999.99'), to_char(1.5::float4, '9.9999999'), to_char(9.99, '9.9EEEE'), to_char(12345::int8, '9.9EEEE')
----
to_char:text | to_char:text | to_char:text | to_char:text
" 123456789012346" | " 1.50000" | " 10.0e+00" | " 1.2e+04"
SELECT 1

SELECT to_char(0.1::float8, 'Sth')
----
ERROR 22P02: "." is not a number

SELECT to_char(1, 'S99MI')
----
ERROR 42601: cannot use "S" and "MI" together

SELECT to_char(1, '99.9.9')
----
ERROR 42601: multiple decimal points

SELECT to_char(1, '9PR9')
----
ERROR 42601: "9" must be ahead of "PR"

SELECT to_char(1, '9V9.9')
----
ERROR 42601: cannot use "V" and decimal point together

SELECT to_char(1, '9.9EEEEPR')
----
ERROR 42601: "EEEE" must be the last pattern used
