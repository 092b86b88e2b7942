# GROUP BY, HAVING, aggregates with DISTINCT, ORDER BY and FILTER.

CREATE TABLE sales (id int PRIMARY KEY, region text, product text, qty int, price numeric(8,2), sold date, ok boolean)
----
CREATE TABLE

INSERT INTO sales VALUES (1, 'north', 'apple', 10, 1.50, '2024-01-05', true), (2, 'north', 'pear', 5, 2.00, '2024-01-20', true), (3, 'south', 'apple', 7, 1.40, '2024-02-02', false), (4, 'south', 'apple', 3, 1.60, '2024-02-10', true), (5, 'east', 'plum', NULL, 3.00, '2024-03-01', NULL), (6, 'north', 'apple', 2, 1.50, '2024-03-15', true)
----
INSERT 0 6

SELECT region, count(*), sum(qty), avg(qty), min(price), max(price) FROM sales GROUP BY region ORDER BY region
----
region:text | count:int8 | sum:int8 | avg:numeric | min:numeric | max:numeric
east | 1 | NULL | NULL | 3.00 | 3.00
north | 3 | 17 | 5.6666666666666667 | 1.50 | 2.00
south | 2 | 10 | 5.0000000000000000 | 1.40 | 1.60
SELECT 3

SELECT count(*), count(qty), sum(qty), avg(qty)::numeric(10,4) AS avg4, sum(price), avg(price) FROM sales
----
count:int8 | count:int8 | sum:int8 | avg4:numeric | sum:numeric | avg:numeric
6 | 5 | 27 | 5.4000 | 11.00 | 1.8333333333333333
SELECT 1

SELECT sum(qty) FROM sales WHERE false
----
sum:int8
NULL
SELECT 1

SELECT count(*) FROM sales WHERE false
----
count:int8
0
SELECT 1

SELECT region FROM sales GROUP BY region HAVING sum(qty) > 10 ORDER BY region
----
region:text
north
SELECT 1

SELECT region, sum(qty * price) AS revenue FROM sales GROUP BY region HAVING count(*) > 1 ORDER BY revenue DESC
----
region:text | revenue:numeric
north | 28.00
south | 14.60
SELECT 2

SELECT product, count(DISTINCT region) AS regions FROM sales GROUP BY product ORDER BY product
----
product:text | regions:int8
apple | 2
pear | 1
plum | 1
SELECT 3

SELECT string_agg(product, ',' ORDER BY product) AS ps, string_agg(DISTINCT product, ';' ORDER BY product) AS dps FROM sales
----
ps:text | dps:text
apple,apple,apple,apple,pear,plum | apple;pear;plum
SELECT 1

SELECT region, string_agg(product, '+' ORDER BY id DESC) FROM sales GROUP BY region ORDER BY region
----
region:text | string_agg:text
east | plum
north | apple+pear+apple
south | apple+apple
SELECT 3

SELECT array_agg(id ORDER BY id DESC) AS ids, array_agg(DISTINCT region ORDER BY region) AS regions FROM sales
----
ids:_int4 | regions:_text
{6,5,4,3,2,1} | {east,north,south}
SELECT 1

SELECT array_agg(qty ORDER BY id) FROM sales
----
array_agg:_int4
{10,5,7,3,NULL,2}
SELECT 1

SELECT count(*) FILTER (WHERE ok) AS good, count(*) FILTER (WHERE NOT ok) AS bad, sum(qty) FILTER (WHERE region = 'north') AS north FROM sales
----
good:int8 | bad:int8 | north:int8
4 | 1 | 17
SELECT 1

SELECT bool_and(ok) AS all_ok, bool_or(ok) AS any_ok, every(qty > 1) AS e FROM sales
----
all_ok:bool | any_ok:bool | e:bool
f | t | t
SELECT 1

SELECT region, bool_and(ok) FROM sales GROUP BY region ORDER BY region
----
region:text | bool_and:bool
east | NULL
north | t
south | f
SELECT 3

SELECT extract(month FROM sold) AS m, count(*) FROM sales GROUP BY 1 ORDER BY 1
----
m:numeric | count:int8
1 | 2
2 | 2
3 | 2
SELECT 3

SELECT date_trunc('month', sold) AS month, sum(qty) FROM sales GROUP BY date_trunc('month', sold) ORDER BY month
----
month:timestamptz | sum:int8
2024-01-01 00:00:00+00 | 15
2024-02-01 00:00:00+00 | 10
2024-03-01 00:00:00+00 | 2
SELECT 3

SELECT region AS r, count(*) FROM sales GROUP BY r ORDER BY r
----
r:text | count:int8
east | 1
north | 3
south | 2
SELECT 3

SELECT region, product, sum(qty) FROM sales GROUP BY region, product ORDER BY region, product
----
region:text | product:text | sum:int8
east | plum | NULL
north | apple | 12
north | pear | 5
south | apple | 10
SELECT 4

SELECT qty % 2 AS parity, count(*) FROM sales GROUP BY qty % 2 ORDER BY parity NULLS LAST
----
parity:int4 | count:int8
0 | 2
1 | 3
NULL | 1
SELECT 3

SELECT count(*) AS n FROM sales HAVING count(*) > 100
----
SELECT 0

SELECT 1 AS one FROM sales HAVING sum(qty) > 0
----
one:int4
1
SELECT 1

SELECT max(region), min(sold), max(ok::int) FROM sales
----
max:text | min:date | max:int4
south | 2024-01-05 | 1
SELECT 1

SELECT sum(price * qty)::numeric(10,2), avg(price)::numeric(6,3) FROM sales WHERE ok
----
sum:numeric | avg:numeric
32.80 | 1.650
SELECT 1

SELECT avg(x) FROM (VALUES (1), (2), (2)) v(x)
----
avg:numeric
1.6666666666666667
SELECT 1

SELECT sum(x), avg(x) FROM (VALUES (1.5::float8), (2.25)) v(x)
----
sum:float8 | avg:float8
3.75 | 1.875
SELECT 1

SELECT sum(x) FROM (VALUES (9223372036854775807::bigint), (1)) v(x)
----
sum:numeric
9223372036854775808
SELECT 1

SELECT sum(x), avg(x) FROM (VALUES (interval '1 hour'), (interval '3 hours')) v(x)
----
sum:interval | avg:interval
04:00:00 | 02:00:00
SELECT 1

SELECT stddev(qty)::numeric(10,4) AS sd, variance(qty)::numeric(10,4) AS var FROM sales
----
sd:numeric | var:numeric
3.2094 | 10.3000
SELECT 1

SELECT json_agg(id ORDER BY id) AS j, jsonb_agg(region ORDER BY id) FILTER (WHERE id < 3) AS jb FROM sales
----
j:json | jb:jsonb
[1, 2, 3, 4, 5, 6] | "[\"north\", \"north\"]"
SELECT 1

SELECT json_object_agg(product, qty ORDER BY product) FROM sales WHERE region = 'north' AND id < 3
----
json_object_agg:json
"{ \"apple\" : 10, \"pear\" : 5 }"
SELECT 1

SELECT sum(DISTINCT qty) AS sd, count(DISTINCT (region, product)) AS pairs FROM sales
----
sd:int8 | pairs:int8
27 | 4
SELECT 1

SELECT region, count(*) FROM sales GROUP BY region HAVING region > 'm' ORDER BY 1
----
region:text | count:int8
north | 3
south | 2
SELECT 2

SELECT count(*) + 1 AS c, sum(qty) / count(qty) AS avg_int FROM sales
----
c:int8 | avg_int:int8
7 | 5
SELECT 1

SELECT region, max(qty) - min(qty) AS spread FROM sales GROUP BY region ORDER BY spread DESC NULLS LAST, region
----
region:text | spread:int4
north | 8
south | 4
east | NULL
SELECT 3

SELECT sum(qty) OVER () FROM sales WHERE false
----
SELECT 0

SELECT product FROM sales GROUP BY product ORDER BY count(*) DESC, product
----
product:text
apple
pear
plum
SELECT 3

SELECT region, product FROM sales GROUP BY region
----
ERROR 42803 at 16: column "sales.product" must appear in the GROUP BY clause or be used in an aggregate function

SELECT sum(count(*)) FROM sales
----
ERROR 42803 at 12: aggregate function calls cannot be nested

SELECT sum('a') FROM sales
----
ERROR 42725 at 8: function sum(unknown) is not unique

SELECT string_agg(id, ',') FROM sales
----
ERROR 42883 at 8: function string_agg(integer, unknown) does not exist

SELECT count(*) FROM sales GROUP BY ()
----
count:int8
6
SELECT 1

SELECT avg(DISTINCT qty)::numeric(10,3), min(DISTINCT region) FROM sales
----
avg:numeric | min:text
5.400 | east
SELECT 1

SELECT region, array_agg(qty ORDER BY qty NULLS FIRST) FROM sales GROUP BY region ORDER BY region
----
region:text | array_agg:_int4
east | {NULL}
north | {2,5,10}
south | {3,7}
SELECT 3

# The two-variable statistical aggregates and the bitwise ones (they did
# not exist); float8_regr_accum's order of operations gives PostgreSQL's
# bits.

SELECT corr(y, x), covar_pop(y, x), covar_samp(y, x), regr_slope(y, x), regr_intercept(y, x), regr_r2(y, x) FROM (VALUES (1.0, 2.0), (2.0, 4.1), (3.0, 5.9), (4, 8.3)) v(x, y)
----
corr:float8 | covar_pop:float8 | covar_samp:float8 | regr_slope:float8 | regr_intercept:float8 | regr_r2:float8
0.9985329553035418 | 2.5875000000000004 | 3.4500000000000006 | 2.0700000000000003 | -0.10000000000000053 | 0.997068062827225
SELECT 1

SELECT regr_count(y, x), regr_sxx(y, x), regr_syy(y, x), regr_sxy(y, x), regr_avgx(y, x), regr_avgy(y, x) FROM (VALUES (1.0, 2.0), (2.0, 4.1), (NULL, 5.9), (4, NULL), (5, 11.5)) v(x, y)
----
regr_count:int8 | regr_sxx:float8 | regr_syy:float8 | regr_sxy:float8 | regr_avgx:float8 | regr_avgy:float8
3 | 8.666666666666666 | 49.80666666666666 | 20.766666666666662 | 2.6666666666666665 | 5.866666666666667
SELECT 1

SELECT corr(y, x), covar_samp(y, x), regr_slope(y, x), regr_r2(y, x), regr_count(y, x) FROM (VALUES (1, 2)) v(x, y)
----
corr:float8 | covar_samp:float8 | regr_slope:float8 | regr_r2:float8 | regr_count:int8
NULL | NULL | NULL | NULL | 1
SELECT 1

SELECT corr(y, x), regr_r2(y, x), regr_slope(y, x) FROM (VALUES (1, 2), (2, 2), (3, 2)) v(x, y)
----
corr:float8 | regr_r2:float8 | regr_slope:float8
NULL | 1 | 0
SELECT 1

SELECT corr(y, x), regr_count(y, x), covar_pop(y, x) FROM (VALUES (1, 2)) v(x, y) WHERE false
----
corr:float8 | regr_count:int8 | covar_pop:float8
NULL | 0 | NULL
SELECT 1

SELECT x % 2 AS g, corr(x, x * x), covar_pop(x::float4, x) FROM generate_series(1, 10) x GROUP BY 1 ORDER BY 1
----
g:int4 | corr:float8 | covar_pop:float8
0 | 0.9811049102515929 | 8
1 | 0.9731236802019037 | 8
SELECT 2

SELECT corr(y, x) FROM (VALUES ('infinity'::float8, 1::float8), (1, 2)) v(x, y)
----
corr:float8
NaN
SELECT 1

SELECT bit_and(x), bit_or(x), bit_xor(x) FROM (VALUES (3), (5), (NULL), (6)) v(x)
----
bit_and:int4 | bit_or:int4 | bit_xor:int4
0 | 7 | 0
SELECT 1

SELECT bit_and(x), bit_or(x::int2), pg_typeof(bit_xor(x::int8)) FROM (VALUES (12)) v(x)
----
bit_and:int4 | bit_or:int2 | pg_typeof:2206
12 | 12 | bigint
SELECT 1

SELECT bit_and(x) FROM (VALUES (1)) v(x) WHERE false
----
bit_and:int4
NULL
SELECT 1

SELECT bit_and(x) FROM (VALUES (1.5)) v(x)
----
ERROR 42883 at 8: function bit_and(numeric) does not exist

SELECT corr(x) FROM (VALUES (1)) v(x)
----
ERROR 42883 at 8: function corr(integer) does not exist

# A call no signature matches names the argument types as written.
SELECT json_agg('a', 'b')
----
ERROR 42883 at 8: function json_agg(unknown, unknown) does not exist

SELECT stddev(1, 2)
----
ERROR 42883 at 8: function stddev(integer, integer) does not exist

SELECT count('a', 'b')
----
ERROR 42883 at 8: function count(unknown, unknown) does not exist

SELECT sum(*)
----
ERROR 42883 at 8: function sum() does not exist

SELECT mode(1) WITHIN GROUP (ORDER BY 1)
----
ERROR 42883 at 8: function mode(integer, integer) does not exist

SELECT bool_and(1)
----
ERROR 42883 at 8: function bool_and(integer) does not exist

# An untyped literal takes the parameter's type, and must read as it.
SELECT every('x')
----
ERROR 22P02 at 14: invalid input syntax for type boolean: "x"

SELECT bool_or(NULL)
----
bool_or:bool
NULL
SELECT 1

# Untyped literals: the numeric category's preferred type where numbers
# are wanted, text where any type is, an error where overloads compete or
# a polymorphic parameter has nothing to go by.
SELECT stddev('1'), variance('2')
----
stddev:float8 | variance:float8
NULL | NULL
SELECT 1

SELECT min('a'), max(NULL), count('a')
----
min:text | max:text | count:int8
a | NULL | 1
SELECT 1

SELECT jsonb_object_agg('a', 'b')
----
jsonb_object_agg:jsonb
"{\"a\": \"b\"}"
SELECT 1

SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY '1')
----
percentile_cont:float8
1
SELECT 1

SELECT json_agg('a')
----
ERROR 42804: could not determine polymorphic type because input has type unknown

SELECT array_agg('a')
----
ERROR 42725 at 8: function array_agg(unknown) is not unique

SELECT bit_and(NULL)
----
ERROR 42725 at 8: function bit_and(unknown) is not unique

SELECT mode() WITHIN GROUP (ORDER BY 'a')
----
ERROR 42804: could not determine polymorphic type because input has type unknown

SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY 'b')
----
ERROR 42804: could not determine polymorphic type because input has type unknown

SELECT percentile_cont('x') WITHIN GROUP (ORDER BY 1)
----
ERROR 22P02 at 24: invalid input syntax for type double precision: "x"

# Every aggregate over the types it takes; intervals sum with overflow
# checked and average by interval division.
SELECT sum(x), avg(x), min(x), max(x) FROM (VALUES (1::int2), (2::int2)) v(x)
----
sum:int8 | avg:numeric | min:int2 | max:int2
3 | 1.5000000000000000 | 1 | 2
SELECT 1

SELECT sum(x), avg(x) FROM (VALUES (interval '1 day'), (interval '3 hours')) v(x)
----
sum:interval | avg:interval
1 day 03:00:00 | 13:30:00
SELECT 1

SELECT sum(x), avg(x) FROM (VALUES (1.5::float4), (2.25::float4)) v(x)
----
sum:float4 | avg:float8
3.75 | 1.875
SELECT 1

SELECT string_agg(x, '') FROM (VALUES (NULL::text)) v(x)
----
string_agg:text
NULL
SELECT 1

SELECT array_agg(x ORDER BY x DESC) FROM (VALUES (1), (NULL), (3)) v(x)
----
array_agg:_int4
{NULL,3,1}
SELECT 1

SELECT json_agg(x) FROM (VALUES (ARRAY[1,2]), (NULL), (ARRAY[3])) v(x)
----
json_agg:json
"[[1,2], null, \n [3]]"
SELECT 1

SELECT jsonb_agg(x), json_object_agg(k, x) FROM (VALUES ('a', 1), ('b', NULL)) v(k, x)
----
jsonb_agg:jsonb | json_object_agg:json
[1, null] | "{ \"a\" : 1, \"b\" : null }"
SELECT 1

SELECT stddev(x), variance(x), stddev_pop(x), var_pop(x) FROM (VALUES (1), (2), (4)) v(x)
----
stddev:numeric | variance:numeric | stddev_pop:numeric | var_pop:numeric
1.5275252316519467 | 2.3333333333333333 | 1.2472191289246471 | 1.5555555555555556
SELECT 1

SELECT stddev(x::float8), var_samp(x::numeric) FROM (VALUES (1), (2), (4)) v(x)
----
stddev:float8 | var_samp:numeric
1.5275252316519468 | 2.3333333333333333
SELECT 1

SELECT corr(y, x), covar_pop(y, x), covar_samp(y, x), regr_r2(y, x), regr_intercept(y, x) FROM (VALUES (1, 2), (2, 3.5), (3, 7)) v(x, y)
----
corr:float8 | covar_pop:float8 | covar_samp:float8 | regr_r2:float8 | regr_intercept:float8
0.9743547036924464 | 1.6666666666666667 | 2.5 | 0.949367088607595 | -0.8333333333333334
SELECT 1

SELECT bit_and(x), bit_or(x), bit_xor(x) FROM (VALUES (12::int2), (10::int2)) v(x)
----
bit_and:int2 | bit_or:int2 | bit_xor:int2
8 | 14 | 6
SELECT 1

SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM (VALUES (interval '1 day'), (interval '2 days')) v(x)
----
percentile_cont:interval
1 day 12:00:00
SELECT 1

SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x DESC), mode() WITHIN GROUP (ORDER BY x DESC) FROM (VALUES (1), (2), (2), (3), (3)) v(x)
----
percentile_disc:int4 | mode:int4
2 | 3
SELECT 1

SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY x) FROM (VALUES (1)) v(x)
----
ERROR 22003: percentile value 1.5 is not between 0 and 1

SELECT regr_count(x, NULL) FROM generate_series(1, 3) x
----
regr_count:int8
0
SELECT 1

SELECT every(x > 1), bool_or(x > 2) FROM generate_series(1, 3) x
----
every:bool | bool_or:bool
f | t
SELECT 1

SELECT max(x), min(x) FROM (VALUES (ARRAY[1,2]), (ARRAY[1,3])) v(x)
----
max:_int4 | min:_int4
{1,3} | {1,2}
SELECT 1

SELECT avg(x) FROM (VALUES (9223372036854775807::int8), (9223372036854775807::int8)) v(x)
----
avg:numeric
9223372036854775807
SELECT 1

SELECT sum(x) FROM (VALUES (interval '2000000000 months'), (interval '2000000000 months')) v(x)
----
ERROR 22008: interval out of range

SELECT avg(x) FROM (VALUES (interval '1 month'), (interval '1 day'), (interval '1 second')) v(x)
----
avg:interval
10 days 08:00:00.333333
SELECT 1

SELECT avg(x) FROM (VALUES (interval '2000000000 days'), (interval '2000000000 days')) v(x)
----
ERROR 22008: interval out of range

SELECT sum(x) FROM (VALUES (interval '-1 day'), (interval '1 day 1 hour')) v(x)
----
sum:interval
01:00:00
SELECT 1

# An array of fractions gives an array of percentiles, shaped as it is.
SELECT percentile_cont(ARRAY[0.25]) WITHIN GROUP (ORDER BY x) FROM (VALUES (1), (2)) v(x)
----
percentile_cont:_float8
{1.25}
SELECT 1

SELECT percentile_disc(ARRAY[[0.5,NULL],[1.0,0.0]]) WITHIN GROUP (ORDER BY x) FROM (VALUES ('a'),('b')) v(x)
----
percentile_disc:_text
{{a,NULL},{b,a}}
SELECT 1

SELECT percentile_cont(ARRAY[0.5, 2]) WITHIN GROUP (ORDER BY 1)
----
ERROR 22003: percentile value 2 is not between 0 and 1

SELECT percentile_cont(NULL::float8[]) WITHIN GROUP (ORDER BY 1)
----
percentile_cont:_float8
NULL
SELECT 1

SELECT percentile_cont(ARRAY[0.5]) WITHIN GROUP (ORDER BY x) FROM (VALUES (interval '1 day'), (interval '2 days')) v(x)
----
percentile_cont:_interval
"{\"1 day 12:00:00\"}"
SELECT 1

SELECT percentile_cont(ARRAY[0.5]) WITHIN GROUP (ORDER BY x) FROM (VALUES (1)) v(x) WHERE false
----
percentile_cont:_float8
NULL
SELECT 1

SELECT percentile_cont(ARRAY[]::float8[]) WITHIN GROUP (ORDER BY 1)
----
percentile_cont:_float8
{}
SELECT 1

SELECT percentile_cont('{0.5}') WITHIN GROUP (ORDER BY 1)
----
ERROR 22P02 at 24: invalid input syntax for type double precision: "{0.5}"

SELECT percentile_disc(ARRAY[0.1, 0.9]) WITHIN GROUP (ORDER BY x DESC) FROM generate_series(1, 10) x
----
percentile_disc:_int4
{10,2}
SELECT 1

SELECT percentile_cont(ARRAY['a']) WITHIN GROUP (ORDER BY 1)
----
ERROR 42883 at 8: function percentile_cont(text[], integer) does not exist

# DISTINCT and ORDER BY in aggregates, JSON shapes, numeric edge values,
# and array_agg of arrays, which stacks them.
SELECT json_agg(x ORDER BY x DESC), jsonb_agg(DISTINCT x) FROM (VALUES (1), (2), (2)) v(x)
----
json_agg:json | jsonb_agg:jsonb
[2, 2, 1] | [1, 2]
SELECT 1

SELECT json_agg(r) FROM (VALUES (1, 'a'), (2, NULL)) r(x, y)
----
json_agg:json
"[{\"x\":1,\"y\":\"a\"}, \n {\"x\":2,\"y\":null}]"
SELECT 1

SELECT json_object_agg(x, y), jsonb_object_agg(x, y) FROM (VALUES ('a', 1), ('a', 2)) v(x, y)
----
json_object_agg:json | jsonb_object_agg:jsonb
"{ \"a\" : 1, \"a\" : 2 }" | "{\"a\": 2}"
SELECT 1

SELECT json_object_agg(x, y) FROM (VALUES (NULL::text, 1)) v(x, y)
----
ERROR 22023: field name must not be null

SELECT count(DISTINCT x), sum(DISTINCT x), avg(DISTINCT x) FROM (VALUES (1), (1), (2), (NULL)) v(x)
----
count:int8 | sum:int8 | avg:numeric
2 | 3 | 1.5000000000000000
SELECT 1

SELECT string_agg(DISTINCT x, ',' ORDER BY x) FROM (VALUES ('b'), ('a'), ('b')) v(x)
----
string_agg:text
a,b
SELECT 1

SELECT array_agg(x) FROM (VALUES (ARRAY[1,2]), (ARRAY[3,4])) v(x)
----
array_agg:_int4
{{1,2},{3,4}}
SELECT 1

SELECT sum(x), avg(x) FROM (VALUES (1e20::numeric), (1)) v(x)
----
sum:numeric | avg:numeric
100000000000000000001 | 50000000000000000001
SELECT 1

SELECT avg(x), sum(x) FROM (VALUES ('NaN'::numeric), (1)) v(x)
----
avg:numeric | sum:numeric
NaN | NaN
SELECT 1

SELECT sum(x), avg(x) FROM (VALUES ('Infinity'::float8), ('-Infinity'::float8)) v(x)
----
sum:float8 | avg:float8
NaN | NaN
SELECT 1

SELECT stddev(x), variance(x) FROM (VALUES (1.5), (2.25), (3.125)) v(x)
----
stddev:numeric | variance:numeric
0.81330088733096395985 | 0.66145833333333333333
SELECT 1

SELECT var_pop(x), stddev_pop(x) FROM (VALUES (1::float4), (2::float4)) v(x)
----
var_pop:float8 | stddev_pop:float8
0.25 | 0.5
SELECT 1

SELECT regr_sxx(y, x), regr_syy(y, x), regr_sxy(y, x), regr_avgx(y, x), regr_avgy(y, x), regr_slope(y, x) FROM (VALUES (1, 2), (3, 5), (4, 4)) v(x, y)
----
regr_sxx:float8 | regr_syy:float8 | regr_sxy:float8 | regr_avgx:float8 | regr_avgy:float8 | regr_slope:float8
4.666666666666666 | 4.666666666666667 | 3.6666666666666665 | 2.6666666666666665 | 3.6666666666666665 | 0.7857142857142858
SELECT 1

SELECT corr(y, x) FROM (VALUES (1, 'NaN'::float8), (2, 3)) v(x, y)
----
corr:float8
NaN
SELECT 1

SELECT bit_and(x), bit_or(x), bit_xor(x) FROM (VALUES (NULL::int8)) v(x)
----
bit_and:int8 | bit_or:int8 | bit_xor:int8
NULL | NULL | NULL
SELECT 1

SELECT mode() WITHIN GROUP (ORDER BY x) FROM (VALUES ('b'), ('a'), ('b'), ('a')) v(x)
----
mode:text
a
SELECT 1

SELECT percentile_disc(0) WITHIN GROUP (ORDER BY x), percentile_disc(1) WITHIN GROUP (ORDER BY x) FROM generate_series(1, 4) x
----
percentile_disc:int4 | percentile_disc:int4
1 | 4
SELECT 1

SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FILTER (WHERE x > 1) FROM generate_series(1, 4) x
----
percentile_cont:float8
3
SELECT 1

SELECT avg(x)::text FROM (VALUES (1::int8), (2::int8), (2::int8)) v(x)
----
avg:text
1.6666666666666667
SELECT 1

SELECT sum(x) FROM (VALUES (2147483647), (2147483647)) v(x)
----
sum:int8
4294967294
SELECT 1

SELECT sum(x) FROM (VALUES (9223372036854775807::int8), (1::int8)) v(x)
----
sum:numeric
9223372036854775808
SELECT 1

SELECT array_agg(x) FROM (VALUES (ARRAY[1,2]), (NULL)) v(x)
----
ERROR 22004: cannot accumulate null arrays

SELECT array_agg(x) FROM (VALUES ('{}'::int[]), (ARRAY[1,2])) v(x)
----
ERROR 2202E: cannot accumulate empty arrays

SELECT array_agg(x) FROM (VALUES (ARRAY[1,2]), ('{}')) v(x)
----
ERROR 2202E: cannot accumulate arrays of different dimensionality

SELECT array_agg(x) FROM (VALUES (ARRAY[1,2]), (ARRAY[3])) v(x)
----
ERROR 2202E: cannot accumulate arrays of different dimensionality

SELECT array_agg(x) FROM (VALUES (ARRAY[[1],[2]]), (ARRAY[[3],[4]])) v(x)
----
array_agg:_int4
{{{1},{2}},{{3},{4}}}
SELECT 1

SELECT array_agg(x) FROM (VALUES (ARRAY[1,NULL])) v(x)
----
array_agg:_int4
{{1,NULL}}
SELECT 1

SELECT array_agg(x) FROM (VALUES (ARRAY[1,2]), (ARRAY[[3,4]])) v(x)
----
ERROR 2202E: cannot accumulate arrays of different dimensionality

SELECT array_agg(x ORDER BY x[1] DESC) FROM (VALUES (ARRAY['a','b']), (ARRAY['c','d'])) v(x)
----
array_agg:_text
{{c,d},{a,b}}
SELECT 1

# Direct arguments are evaluated per group: they may read grouped columns
# and outer values, not the rows' own columns.
SELECT x % 2 AS k, percentile_cont(x / 10.0) WITHIN GROUP (ORDER BY x) FROM generate_series(1, 4) x GROUP BY 1 ORDER BY 1
----
ERROR 42803 at 36: column "x.x" must appear in the GROUP BY clause or be used in an aggregate function

SELECT percentile_cont(x / 10.0) WITHIN GROUP (ORDER BY x) FROM generate_series(1, 4) x
----
ERROR 42803 at 24: column "x.x" must appear in the GROUP BY clause or be used in an aggregate function

SELECT k, percentile_cont(k / 10.0) WITHIN GROUP (ORDER BY x) FROM (VALUES (1, 1), (1, 2), (2, 3)) v(k, x) GROUP BY k ORDER BY k
----
k:int4 | percentile_cont:float8
1 | 1.1
2 | 3
SELECT 2

SELECT k, percentile_disc((SELECT 0.5)) WITHIN GROUP (ORDER BY x) FROM (VALUES (1, 1), (1, 2), (2, 3)) v(k, x) GROUP BY k ORDER BY k
----
k:int4 | percentile_disc:int4
1 | 1
2 | 3
SELECT 2

SELECT (SELECT percentile_disc(o.f) WITHIN GROUP (ORDER BY x) FROM generate_series(1, 4) x) FROM (VALUES (0.5)) o(f)
----
percentile_disc:int4
2
SELECT 1
