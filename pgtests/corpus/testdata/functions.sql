# String, math, date/time, JSON and system functions.

# Strings.
SELECT lower('ÀBC'), upper('straße'), initcap('hello wORLD-foo'), length('héllo'), octet_length('héllo'), char_length('abc')
----
lower:text | upper:text | initcap:text | length:int4 | octet_length:int4 | char_length:int4
Àbc | STRAßE | Hello World-Foo | 5 | 6 | 3
SELECT 1

SELECT substr('abcdef', 2, 3), substring('abcdef' FROM 3), substring('abcdef' FROM 2 FOR 2), substring('abcdef', 0, 3), left('abcdef', 2), right('abcdef', -2)
----
substr:text | substring:text | substring:text | substring:text | left:text | right:text
bcd | cdef | bc | ab | ab | cdef
SELECT 1

SELECT position('c' IN 'abcabc'), strpos('abcabc', 'ca'), replace('a-b-c', '-', '+'), reverse('abc'), repeat('ab', 3)
----
position:int4 | strpos:int4 | replace:text | reverse:text | repeat:text
3 | 3 | a+b+c | cba | ababab
SELECT 1

SELECT trim('  x  ') AS t, ltrim('xxaxx', 'x') AS l, rtrim('xxaxx', 'x') AS r, btrim('--a--', '-') AS b, trim(BOTH 'x' FROM 'xaxx') AS both_, trim(LEADING FROM '  a ') AS lead
----
t:text | l:text | r:text | b:text | both_:text | lead:text
x | axx | xxa | a | a | "a "
SELECT 1

SELECT lpad('7', 3, '0'), rpad('ab', 5, '*'), lpad('abcdef', 3), split_part('a,b,c', ',', 2), split_part('a,b,c', ',', 5)
----
lpad:text | rpad:text | lpad:text | split_part:text | split_part:text
007 | ab*** | abc | b | ""
SELECT 1

SELECT concat('a', NULL, 1, true), concat_ws('-', 'a', NULL, 'c'), 'x' || NULL AS n
----
concat:text | concat_ws:text | n:text
a1t | a-c | NULL
SELECT 1

SELECT md5('hello'), md5(''), to_hex(255), to_hex(-1), chr(65), ascii('A')
----
md5:text | md5:text | to_hex:text | to_hex:text | chr:text | ascii:int4
5d41402abc4b2a76b9719d911017c592 | d41d8cd98f00b204e9800998ecf8427e | ff | ffffffff | A | 65
SELECT 1

SELECT format('%s and %s', 'a', 'b'), format('%I.%L', 'My Table', 'it''s'), format('[%5s][%-5s]', 'x', 'y'), format('%1$s %1$s', 'r')
----
format:text | format:text | format:text | format:text
a and b | "\"My Table\".'it''s'" | [    x][y    ] | r r
SELECT 1

SELECT format('%s', NULL) AS n, format('%L', NULL) AS l, format('no args') AS plain, format('%%') AS pct
----
n:text | l:text | plain:text | pct:text
"" | "NULL" | no args | %
SELECT 1

SELECT format('%s %s', 'only one')
----
ERROR 22023: too few arguments for format()

SELECT quote_ident('a b'), quote_ident('abc'), quote_literal('O''Reilly'), quote_nullable(NULL)
----
quote_ident:text | quote_ident:text | quote_literal:text | quote_nullable:text
"\"a b\"" | abc | 'O''Reilly' | "NULL"
SELECT 1

SELECT regexp_replace('hello world', 'o', '0') AS first, regexp_replace('hello world', 'o', '0', 'g') AS all_, regexp_replace('abc', '(b)', '[\1]') AS grp
----
first:text | all_:text | grp:text
hell0 world | hell0 w0rld | a[b]c
SELECT 1

SELECT regexp_replace('Hello', 'h', 'J', 'i') AS ci, regexp_match('foo123bar', '\d+') AS m, regexp_matches('a1b2', '\d', 'g') AS ms
----
ci:text | m:_text | ms:_text
Jello | {123} | {1}
Jello | {123} | {2}
SELECT 2

SELECT regexp_split_to_array('a1b22c', '\d+') AS arr, string_to_array('a,b,,c', ',') AS s2a, array_to_string(ARRAY[1, NULL, 3], '-', '*') AS a2s
----
arr:_text | s2a:_text | a2s:text
{a,b,c} | "{a,b,\"\",c}" | 1-*-3
SELECT 1

SELECT starts_with('hello', 'he'), 'abc' < 'abd' AS lt, 'a' < 'B' AS c_order, translate('hello', 'el', 'ip')
----
starts_with:bool | lt:bool | c_order:bool | translate:text
t | t | f | hippo
SELECT 1

SELECT string_agg(x, '') FROM regexp_split_to_table('a b  c', ' +') AS x
----
string_agg:text
abc
SELECT 1

SELECT encode('hello'::bytea, 'base64') AS b64, encode('\x00ff'::bytea, 'hex') AS hex, decode('aGVsbG8=', 'base64') AS dec, convert_to('é', 'UTF8') AS conv
----
b64:text | hex:text | dec:bytea | conv:bytea
aGVsbG8= | 00ff | "\\x68656c6c6f" | "\\xc3a9"
SELECT 1

SELECT length(NULL::text) AS n, upper(NULL) AS u, lower(1)
----
ERROR 42883 at 51: function lower(integer) does not exist

SELECT nosuchfunc(1)
----
ERROR 42883 at 8: function nosuchfunc(integer) does not exist

# Math.
SELECT abs(-5), abs(-5.5), sign(-3), ceil(1.2), floor(-1.2), round(1.2345, 2), trunc(1.99), trunc(-1.99, 1)
----
abs:int4 | abs:numeric | sign:float8 | ceil:numeric | floor:numeric | round:numeric | trunc:numeric | trunc:numeric
5 | 5.5 | -1 | 2 | -2 | 1.23 | 1 | -1.9
SELECT 1

SELECT sqrt(16), sqrt(2)::numeric(10,6), power(2, 10), power(2.0, 0.5)::numeric(8,5), 2 ^ 3 AS caret, |/ 25 AS root, @ -4 AS absval
----
sqrt:float8 | sqrt:numeric | power:float8 | power:numeric | caret:float8 | root:float8 | absval:int4
4 | 1.414214 | 1024 | 1.41421 | 8 | 5 | 4
SELECT 1

SELECT exp(0), ln(1), log(100), log(2, 8), pi()::numeric(8,6), mod(10, 3), mod(-10, 3), 10 % -3
----
exp:float8 | ln:float8 | log:float8 | log:numeric | pi:numeric | mod:int4 | mod:int4 | ?column?:int4
1 | 0 | 2 | 3.0000000000000000 | 3.141593 | 1 | -1 | 1
SELECT 1

SELECT div(7, 2), gcd(12, 18), lcm(4, 6), factorial(5), scale(1.20)
----
div:numeric | gcd:int4 | lcm:int4 | factorial:numeric | scale:int4
3 | 6 | 12 | 120 | 2
SELECT 1

SELECT sqrt(-1)
----
ERROR 2201F: cannot take square root of a negative number

SELECT ln(0)
----
ERROR 2201E: cannot take logarithm of zero

SELECT 5 & 3 AS band, 5 | 3 AS bor, 5 # 3 AS bxor, ~5 AS bnot, 1 << 4 AS shl, 256 >> 2 AS shr
----
band:int4 | bor:int4 | bxor:int4 | bnot:int4 | shl:int4 | shr:int4
1 | 7 | 6 | -6 | 16 | 64
SELECT 1

SELECT random() >= 0 AND random() < 1 AS in_range, setseed(0.5) IS NULL AS seeded
----
in_range:bool | seeded:bool
t | f
SELECT 1

SELECT round(123.456, -1), round(-0.5), ceil(-0.5), floor(2.5::float8), trunc(2.5::float8), cbrt(27::float8) > 2.99 AS cbrt
----
round:numeric | round:numeric | ceil:numeric | floor:float8 | trunc:float8 | cbrt:bool
120 | -1 | 0 | 2 | 2 | t
SELECT 1

SELECT degrees(pi()), radians(180)::numeric(8,6), sin(0), cos(0), atan2(1, 1)::numeric(6,5)
----
degrees:float8 | radians:numeric | sin:float8 | cos:float8 | atan2:numeric
180 | 3.141593 | 0 | 1 | 0.78540
SELECT 1

# Date and time.
SELECT date_trunc('day', TIMESTAMP '2024-03-15 13:45:10') AS d, date_trunc('month', TIMESTAMP '2024-03-15 13:45:10') AS m, date_trunc('year', DATE '2024-03-15') AS y
----
d:timestamp | m:timestamp | y:timestamptz
2024-03-15 00:00:00 | 2024-03-01 00:00:00 | 2024-01-01 00:00:00+00
SELECT 1

SELECT date_trunc('hour', TIMESTAMPTZ '2024-03-15 13:45:10+00') AS h, date_trunc('week', TIMESTAMP '2024-03-15') AS w, date_trunc('quarter', TIMESTAMP '2024-05-15') AS q
----
h:timestamptz | w:timestamp | q:timestamp
2024-03-15 13:00:00+00 | 2024-03-11 00:00:00 | 2024-04-01 00:00:00
SELECT 1

SELECT extract(year FROM TIMESTAMP '2024-03-15 13:45:10.5') AS y, extract(month FROM DATE '2024-03-15') AS m, extract(second FROM TIMESTAMP '2024-03-15 13:45:10.5') AS s
----
y:numeric | m:numeric | s:numeric
2024 | 3 | 10.500000
SELECT 1

SELECT extract(dow FROM DATE '2024-03-17') AS dow, extract(doy FROM DATE '2024-03-15') AS doy, extract(epoch FROM TIMESTAMPTZ '2024-01-01 00:00:00+00') AS ep, extract(week FROM DATE '2024-01-01') AS wk
----
dow:numeric | doy:numeric | ep:numeric | wk:numeric
0 | 75 | 1704067200.000000 | 1
SELECT 1

SELECT extract(hour FROM interval '1 day 5 hours') AS h, extract(epoch FROM interval '1 day') AS e, extract(day FROM interval '40 days') AS d
----
h:numeric | e:numeric | d:numeric
5 | 86400.000000 | 40
SELECT 1

SELECT date_part('year', DATE '2024-03-15') AS y, date_part('epoch', TIMESTAMP '1970-01-02') AS e, extract(century FROM DATE '2024-01-01') AS c
----
y:float8 | e:float8 | c:numeric
2024 | 86400 | 21
SELECT 1

SELECT extract(foo FROM DATE '2024-01-01')
----
ERROR 22023: unit "foo" not recognized for type date

SELECT to_char(TIMESTAMP '2024-03-05 14:07:09', 'YYYY-MM-DD HH24:MI:SS') AS a, to_char(DATE '2024-03-05', 'DD Mon YYYY') AS b, to_char(TIMESTAMP '2024-03-05 14:07:09', 'HH12:MI AM') AS c
----
a:text | b:text | c:text
2024-03-05 14:07:09 | 05 Mar 2024 | 02:07 PM
SELECT 1

SELECT to_char(DATE '2024-03-05', 'Day, Month FMDD') AS a, to_char(TIMESTAMP '2024-03-05 14:07:09.123', 'MS US') AS b, to_char(DATE '2024-03-05', 'YY Q WW D') AS c
----
a:text | b:text | c:text
Tuesday  , March     5 | 123 123000 | 24 1 10 3
SELECT 1

SELECT to_char(1234.5, '9999.99') AS a, to_char(42, '000') AS b, to_char(-12.3, '999.9') AS c, to_char(1234567, '9,999,999') AS d, to_char(5, 'FM999') AS e
----
a:text | b:text | c:text | d:text | e:text
" 1234.50" | " 042" | " -12.3" | " 1,234,567" | 5
SELECT 1

SELECT to_date('05 Mar 2024', 'DD Mon YYYY') AS d, to_timestamp('2024-03-05 14:07', 'YYYY-MM-DD HH24:MI') AS ts, to_timestamp(0) AS epoch
----
d:date | ts:timestamptz | epoch:timestamptz
2024-03-05 | 2024-03-05 14:07:00+00 | 1970-01-01 00:00:00+00
SELECT 1

SELECT age(TIMESTAMP '2024-03-15', TIMESTAMP '2023-01-10') AS a, age(DATE '2024-03-01', DATE '2024-01-31') AS b, age(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-01 10:00') AS c
----
a:interval | b:interval | c:interval
1 year 2 mons 5 days | 1 mon 1 day | -10:00:00
SELECT 1

SELECT now() IS NOT NULL AS n, now() = current_timestamp AS same, current_date = now()::date AS d, clock_timestamp() >= now() AS c, localtimestamp IS NOT NULL AS l
----
n:bool | same:bool | d:bool | c:bool | l:bool
t | t | t | t | t
SELECT 1

SELECT pg_typeof(now()), pg_typeof(current_date), pg_typeof(localtimestamp), pg_typeof(localtime), pg_typeof(statement_timestamp())
----
pg_typeof:2206 | pg_typeof:2206 | pg_typeof:2206 | pg_typeof:2206 | pg_typeof:2206
timestamp with time zone | date | timestamp without time zone | time without time zone | timestamp with time zone
SELECT 1

SELECT make_timestamp(2024, 1, 2, 3, 4, 5.5) AS ts, make_time(1, 2, 3) AS t, justify_days(interval '35 days') AS jd, justify_hours(interval '50 hours') AS jh, justify_interval(interval '1 mon -1 day') AS ji
----
ts:timestamp | t:time | jd:interval | jh:interval | ji:interval
2024-01-02 03:04:05.5 | 01:02:03 | 1 mon 5 days | 2 days 02:00:00 | 29 days
SELECT 1

SELECT TIMESTAMP '2024-01-31' + interval '1 month' AS m, DATE '2024-02-29' - interval '1 year' AS y, TIMESTAMPTZ '2024-03-10 12:00+00' AT TIME ZONE 'America/New_York' AS ny
----
m:timestamp | y:timestamp | ny:timestamp
2024-02-29 00:00:00 | 2023-02-28 00:00:00 | 2024-03-10 08:00:00
SELECT 1

SELECT TIMESTAMP '2024-06-01 12:00' AT TIME ZONE 'Europe/Paris' AS paris, (TIMESTAMP '2024-06-01 12:00' AT TIME ZONE 'UTC') AT TIME ZONE 'Asia/Tokyo' AS tokyo
----
paris:timestamptz | tokyo:timestamp
2024-06-01 10:00:00+00 | 2024-06-01 21:00:00
SELECT 1

SELECT isfinite(DATE 'infinity') AS f, DATE '2024-01-01' + 7 * interval '1 day' AS wk, (DATE '2024-03-01' - 1) AS prev
----
f:bool | wk:timestamp | prev:date
f | 2024-01-08 00:00:00 | 2024-02-29
SELECT 1

SELECT timezone('UTC', TIMESTAMPTZ '2024-01-01 00:00+05') AS tz
----
tz:timestamp
2023-12-31 19:00:00
SELECT 1

SELECT n FROM generate_series(1, 10, 3) AS n ORDER BY n
----
n:int4
1
4
7
10
SELECT 4

SELECT * FROM generate_series(5, 1, -2)
----
generate_series:int4
1
3
5
SELECT 3

SELECT generate_series(1, 3) AS g
----
g:int4
1
2
3
SELECT 3

SELECT * FROM generate_series(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-03', interval '1 day') AS t
----
t:timestamp
2024-01-01 00:00:00
2024-01-02 00:00:00
2024-01-03 00:00:00
SELECT 3

SELECT * FROM generate_series(1, 3) WITH ORDINALITY AS g(v, i) ORDER BY i
----
v:int4 | i:int8
1 | 1
2 | 2
3 | 3
SELECT 3

SELECT * FROM generate_series(1, 5, 0)
----
ERROR 22023: step size cannot equal zero

SELECT * FROM generate_series(0.5, 2, 0.5) AS x
----
x:numeric
0.5
1.0
1.5
2.0
SELECT 4

# unnest, array functions.
SELECT unnest(ARRAY[3, 1, 2]) AS u
----
u:int4
1
2
3
SELECT 3

SELECT * FROM unnest(ARRAY['a', 'b']) WITH ORDINALITY AS u(v, n) ORDER BY n
----
v:text | n:int8
a | 1
b | 2
SELECT 2

SELECT * FROM unnest(ARRAY[1, 2], ARRAY['x', 'y', 'z']) AS u(n, s) ORDER BY n NULLS LAST
----
n:int4 | s:text
1 | x
2 | y
NULL | z
SELECT 3

SELECT array_length(ARRAY[]::int[], 1) AS empty, array_upper(ARRAY[1,2], 1) AS up, array_lower(ARRAY[1,2], 1) AS lo, array_ndims(ARRAY[[1]]) AS nd
----
empty:int4 | up:int4 | lo:int4 | nd:int4
NULL | 2 | 1 | 2
SELECT 1

SELECT array_append(ARRAY[1], 2), array_prepend(0, ARRAY[1]), array_cat(ARRAY[1], ARRAY[2, 3]), array_remove(ARRAY[1, 2, 1], 1), array_position(ARRAY['a', 'b'], 'b')
----
array_append:_int4 | array_prepend:_int4 | array_cat:_int4 | array_remove:_int4 | array_position:int4
{1,2} | {0,1} | {1,2,3} | {2} | 2
SELECT 1

SELECT array_replace(ARRAY[1, 2, 1], 1, 9), array_positions(ARRAY[1, 2, 1], 1), ARRAY[1, 2] && ARRAY[2, 3] AS overlap, ARRAY[1] <@ ARRAY[1, 2] AS contained
----
array_replace:_int4 | array_positions:_int4 | overlap:bool | contained:bool
{9,2,9} | {1,3} | t | t
SELECT 1

# JSON.
SELECT '{"a": {"b": [10, 20]}}'::json -> 'a' AS a, '{"a": {"b": [10, 20]}}'::json -> 'a' -> 'b' ->> 1 AS b1, '[1, 2, 3]'::jsonb -> -1 AS last
----
a:json | b1:text | last:jsonb
"{\"b\": [10, 20]}" | 20 | 3
SELECT 1

SELECT '{"a": 1, "b": "x"}'::jsonb ->> 'b' AS b, '{"a": 1}'::jsonb -> 'zz' AS missing, '{"a": {"b": 2}}'::jsonb #> '{a,b}' AS path, '{"a": {"b": 2}}'::jsonb #>> '{a,b}' AS tpath
----
b:text | missing:jsonb | path:jsonb | tpath:text
x | NULL | 2 | 2
SELECT 1

SELECT '{"a": 1, "b": 2}'::jsonb @> '{"a": 1}' AS contains, '{"a": 1}'::jsonb ? 'a' AS has, '{"a": 1}'::jsonb ?| ARRAY['x', 'a'] AS any_, '{"a": 1}'::jsonb ?& ARRAY['x', 'a'] AS all_
----
contains:bool | has:bool | any_:bool | all_:bool
t | t | t | f
SELECT 1

SELECT '{"a": 1}'::jsonb || '{"b": 2}'::jsonb AS cat, '{"a": 1, "b": 2}'::jsonb - 'a' AS minus, '[1, 2, 3]'::jsonb - 0 AS minus_idx
----
cat:jsonb | minus:jsonb | minus_idx:jsonb
"{\"a\": 1, \"b\": 2}" | "{\"b\": 2}" | [2, 3]
SELECT 1

SELECT jsonb_build_object('a', 1, 'b', ARRAY[1, 2]) AS o, json_build_array(1, 'two', NULL) AS a, to_json('x'::text) AS tj, to_jsonb(ARRAY[1, 2]) AS tjb
----
o:jsonb | a:json | tj:json | tjb:jsonb
"{\"a\": 1, \"b\": [1, 2]}" | "[1, \"two\", null]" | "\"x\"" | [1, 2]
SELECT 1

SELECT jsonb_typeof('[1]') AS t1, json_typeof('{"a":1}') AS t2, jsonb_array_length('[1, 2, 3]') AS n, jsonb_pretty('{"a": [1]}') AS pretty
----
t1:text | t2:text | n:int4 | pretty:text
array | object | 3 | "{\n    \"a\": [\n        1\n    ]\n}"
SELECT 1

SELECT * FROM jsonb_each('{"a": 1, "b": "x"}') ORDER BY key
----
key:text | value:jsonb
a | 1
b | "\"x\""
SELECT 2

SELECT * FROM jsonb_each_text('{"a": 1, "b": "x"}') ORDER BY key
----
key:text | value:text
a | 1
b | x
SELECT 2

SELECT jsonb_object_keys('{"b": 1, "a": 2}') AS k
----
k:text
a
b
SELECT 2

SELECT jsonb_array_elements('[1, "a", null]') AS e
----
e:jsonb
"\"a\""
1
null
SELECT 3

SELECT value FROM json_array_elements_text('["x", "y"]') ORDER BY value
----
value:text
x
y
SELECT 2

SELECT jsonb_set('{"a": 1}', '{b}', '2') AS s, jsonb_strip_nulls('{"a": null, "b": 1}') AS stripped, jsonb_extract_path_text('{"a": {"b": "c"}}', 'a', 'b') AS p
----
s:jsonb | stripped:jsonb | p:text
"{\"a\": 1, \"b\": 2}" | "{\"b\": 1}" | c
SELECT 1

SELECT row_to_json(r) FROM (SELECT 1 AS a, 'x' AS b) r
----
row_to_json:json
"{\"a\":1,\"b\":\"x\"}"
SELECT 1

SELECT to_jsonb(r) FROM (SELECT 1 AS a, NULL::text AS b) r
----
to_jsonb:jsonb
"{\"a\": 1, \"b\": null}"
SELECT 1

SELECT ('{"n": 5}'::jsonb ->> 'n')::int + 1 AS n, ('{"n": 5}'::jsonb -> 'n')::int AS direct
----
n:int4 | direct:int4
6 | 5
SELECT 1

SELECT '{"a":1}'::json -> 1 AS wrong_kind, '[1]'::json ->> 'a' AS wrong_kind2
----
wrong_kind:json | wrong_kind2:text
NULL | NULL
SELECT 1

SELECT '{"a": 1}'::jsonb = '{ "a" : 1 }'::jsonb AS eq, '1'::jsonb < '2'::jsonb AS lt
----
eq:bool | lt:bool
t | t
SELECT 1

# System functions.
SELECT pg_typeof(1), pg_typeof(1.5), pg_typeof('a'::text), pg_typeof(ARRAY[1]), pg_typeof(NULL::jsonb), pg_typeof(1::int2)
----
pg_typeof:2206 | pg_typeof:2206 | pg_typeof:2206 | pg_typeof:2206 | pg_typeof:2206 | pg_typeof:2206
integer | numeric | text | integer[] | jsonb | smallint
SELECT 1

SELECT pg_sleep(0.01) IS NULL AS slept, pg_typeof(pg_sleep(0))
----
slept:bool | pg_typeof:2206
f | void
SELECT 1

SELECT gen_random_uuid() IS NOT NULL AS u, length(gen_random_uuid()::text) AS len, gen_random_uuid() <> gen_random_uuid() AS differ
----
u:bool | len:int4 | differ:bool
t | 36 | t
SELECT 1

SELECT current_user = session_user AS same, current_database() IS NOT NULL AS db, current_schema() AS s, current_schemas(false) AS ss
----
same:bool | db:bool | s:name | ss:_name
t | t | public | {public}
SELECT 1

SELECT version() LIKE 'PostgreSQL 15%' AS v, current_setting('TimeZone') AS tz, current_setting('DateStyle') AS ds
----
v:bool | tz:text | ds:text
t | UTC | ISO, MDY
SELECT 1

SELECT set_config('application_name', 'corpus', false) AS s, current_setting('application_name') AS a
----
s:text | a:text
corpus | corpus
SELECT 1

SELECT current_setting('no.such.setting', true) IS NULL AS missing_ok
----
missing_ok:bool
t
SELECT 1

SELECT coalesce(pg_backend_pid(), 0) > 0 AS pid
----
pid:bool
t
SELECT 1

SELECT num_nulls(1, NULL, 2) AS nn, num_nonnulls(1, NULL, 2) AS nnn
----
nn:int4 | nnn:int4
1 | 2
SELECT 1

SELECT date_trunc('decade', TIMESTAMP '2024-05-05') AS dec, date_trunc('century', DATE '2024-05-05') AS cent, date_trunc('minute', INTERVAL '1 day 02:03:04.5') AS iv
----
dec:timestamp | cent:timestamptz | iv:interval
2020-01-01 00:00:00 | 2001-01-01 00:00:00+00 | 1 day 02:03:00
SELECT 1

SELECT date_trunc('fortnight', TIMESTAMP '2024-05-05')
----
ERROR 22023: unit "fortnight" not recognized for type timestamp without time zone

SELECT extract(isodow FROM DATE '2024-03-17') AS isodow, extract(isoyear FROM DATE '2021-01-01') AS isoyear, extract(quarter FROM TIMESTAMP '2024-11-01') AS q, extract(millisecond FROM TIMESTAMP '2024-01-01 00:00:01.5') AS ms
----
isodow:numeric | isoyear:numeric | q:numeric | ms:numeric
7 | 2020 | 4 | 1500.000
SELECT 1

SELECT extract(hour FROM DATE '2024-01-01')
----
ERROR 0A000: unit "hour" not supported for type date

SELECT extract(epoch FROM DATE '1970-01-02') AS e, extract(epoch FROM interval '1 year 1 mon') AS ie, extract(minute FROM TIME '10:42:07') AS tm
----
e:numeric | ie:numeric | tm:numeric
86400 | 34149600.000000 | 42
SELECT 1

SELECT extract(timezone FROM TIMESTAMPTZ '2024-01-01 00:00+00') AS tz, extract(year FROM TIMESTAMP 'infinity') AS inf, extract(month FROM TIMESTAMP 'infinity') AS minf
----
tz:numeric | inf:numeric | minf:numeric
0 | Infinity | NULL
SELECT 1

SELECT age(TIMESTAMP '2024-02-29', TIMESTAMP '2023-02-28') AS leap, age(TIMESTAMP '2020-01-01 00:00:00.5', TIMESTAMP '2024-06-15 12:30') AS back
----
leap:interval | back:interval
1 year 1 day | -4 years -5 mons -14 days -12:29:59.5
SELECT 1

SELECT make_date(2023, 2, 29)
----
ERROR 22008: date field value out of range: 2023-02-29

SELECT make_timestamptz(2024, 7, 1, 12, 0, 0) AS tz, make_timestamptz(2024, 7, 1, 12, 0, 0, 'America/New_York') AS ny
----
tz:timestamptz | ny:timestamptz
2024-07-01 12:00:00+00 | 2024-07-01 16:00:00+00
SELECT 1

SELECT now() AT TIME ZONE 'UTC' IS NOT NULL AS a, TIMESTAMPTZ '2024-01-01 12:00+00' AT TIME ZONE INTERVAL '02:00' AS plus2
----
a:bool | plus2:timestamp
t | 2024-01-01 14:00:00
SELECT 1

SELECT justify_interval(interval '-1 mon 35 days 30 hours') AS j, justify_days(interval '-45 days') AS jd
----
j:interval | jd:interval
6 days 06:00:00 | -1 mons -15 days
SELECT 1

SELECT DATE '2024-01-31' + interval '1 month' AS a, DATE '2024-03-31' - interval '1 month' AS b, TIMESTAMP '2023-12-31 10:00' + interval '2 months 1 day' AS c
----
a:timestamp | b:timestamp | c:timestamp
2024-02-29 00:00:00 | 2024-02-29 00:00:00 | 2024-03-01 10:00:00
SELECT 1

SELECT to_char(0, '999') AS a, to_char(0.5, '999.9') AS b, to_char(12345, '999') AS c, to_char(-485, '999S') AS d, to_char(485, 'S999') AS e, to_char(-485, '999PR') AS f, to_char(3.14159, 'FM990.99') AS g, to_char(1.5, 'FM999.99') AS h
----
a:text | b:text | c:text | d:text | e:text | f:text | g:text | h:text
"   0" | "    .5" | " ###" | 485- | +485 | <485> | 3.14 | 1.5
SELECT 1

SELECT to_char(-0.5, '9.99') AS a, to_char(1234.567, '9G999D99') AS b, to_char(7, '99th') AS c, to_char(-7, 'MI99') AS d, to_char(42::float8, '999.999') AS e
----
a:text | b:text | c:text | d:text | e:text
" -.50" | " 1,234.57" | "  7th" | - 7 | "  42.000"
SELECT 1

SELECT to_char(TIMESTAMP '2024-12-31 23:59:59', 'DDD IW IYYY "week" W') AS a, to_char(TIMESTAMP '2024-01-02 00:05:00', 'hh24:mi am DDth Dy mon') AS b, to_char(TIMESTAMPTZ '2024-06-01 12:00+00', 'YYYY-MM-DD"T"HH24:MI:SSOF') AS c
----
a:text | b:text | c:text
366 01 2025 week 5 | 00:05 am 02nd Tue jan | 2024-06-01T12:00:00+00
SELECT 1

SELECT to_char(interval '2 days 03:04:05', 'DD HH24:MI:SS') AS a, to_char(DATE '2024-03-05', 'FMMonth FMDDth, YYYY') AS b
----
a:text | b:text
02 03:04:05 | March 5th, 2024
SELECT 1

SELECT to_date('2024-13-01', 'YYYY-MM-DD')
----
ERROR 22008: date/time field value out of range: "2024-13-01"

SELECT to_date('March 5 2024', 'Month DD YYYY') AS a, to_timestamp('05/03/2024 09:30 PM', 'DD/MM/YYYY HH12:MI AM') AS b
----
a:date | b:timestamptz
2024-03-05 | 2024-03-05 21:30:00+00
SELECT 1

SELECT array_dims(ARRAY[[1,2,3],[4,5,6]]) AS d, array_ndims(ARRAY[1]) AS n, unnest(ARRAY[[1,2],[3,4]]) AS flat
----
d:text | n:int4 | flat:int4
[1:2][1:3] | 1 | 1
[1:2][1:3] | 1 | 2
[1:2][1:3] | 1 | 3
[1:2][1:3] | 1 | 4
SELECT 4

SELECT ARRAY[ARRAY[1,2], ARRAY[3]]
----
ERROR 2202E: multidimensional arrays must have array expressions with matching dimensions

SELECT ARRAY[]
----
ERROR 42P18 at 8: cannot determine type of empty array

SELECT (ARRAY[[1,2],[3,4]])[1] AS partial, (ARRAY[[1,2],[3,4]])[1][3] AS outside, (ARRAY['a','b'])[0] AS zero
----
partial:int4 | outside:int4 | zero:text
NULL | NULL | NULL
SELECT 1

SELECT array_append(NULL::int[], 1) AS a, array_cat(ARRAY[1], NULL) AS b, array_remove(ARRAY['a', NULL, 'b'], NULL) AS c, array_position(ARRAY[1, 2, 3, 2], 2, 3) AS d
----
a:_int4 | b:_int4 | c:_text | d:int4
{1} | {1} | {a,b} | 4
SELECT 1

SELECT x, ord FROM unnest(ARRAY['p', 'q']) WITH ORDINALITY AS t(x, ord) ORDER BY ord DESC
----
x:text | ord:int8
q | 2
p | 1
SELECT 2

SELECT jsonb_agg(n ORDER BY n DESC) AS j, json_object_agg(n, n * n ORDER BY n) AS sq FROM generate_series(1, 3) AS n
----
j:jsonb | sq:json
[3, 2, 1] | "{ \"1\" : 1, \"2\" : 4, \"3\" : 9 }"
SELECT 1

SELECT to_json(ARRAY[[1, 2], [3, 4]]) AS m, to_json(DATE '2024-01-02') AS d, to_json(TIMESTAMP '2024-01-02 03:04:05') AS ts, to_json(true) AS b, to_jsonb(1.50) AS n
----
m:json | d:json | ts:json | b:json | n:jsonb
[[1,2],[3,4]] | "\"2024-01-02\"" | "\"2024-01-02T03:04:05\"" | true | 1.50
SELECT 1

SELECT '[1, [2, 3]]'::jsonb @> '[[3]]' AS nested, '{"a": [1, 2]}'::jsonb @> '{"a": [2]}' AS arr, '"x"'::jsonb ? 'x' AS scalar
----
nested:bool | arr:bool | scalar:bool
t | t | t
SELECT 1

SELECT '{"a": {"b": 1}}'::jsonb #- '{a,b}' AS del, jsonb_set('[1, 2]', '{5}', '9') AS append_, jsonb_set('{"a": 1}', '{x,y}', '2') AS missing
----
del:jsonb | append_:jsonb | missing:jsonb
"{\"a\": {}}" | [1, 2, 9] | "{\"a\": 1}"
SELECT 1

SELECT json_each.key, json_each.value FROM json_each('{"a": [1, 2], "b": {"c": 3}}') ORDER BY 1
----
key:text | value:json
a | [1, 2]
b | "{\"c\": 3}"
SELECT 2

SELECT jsonb_array_elements_text('{"a": 1}')
----
ERROR 22023: cannot extract elements from an object

SELECT format('%3$s %1$s %2$s', 'a', 'b', 'c') AS pos, format('%-4s|', 'ab') AS left_, format('%*s|', 5, 'x') AS star, format('%s', ARRAY[1, 2]) AS arr
----
pos:text | left_:text | star:text | arr:text
c a b | "ab  |" | "    x|" | {1,2}
SELECT 1

SELECT format('%z', 1)
----
ERROR 22023: unrecognized format() type specifier "z"

SELECT regexp_matches('aXbXc', 'X', 'g') AS m
----
m:_text
{X}
{X}
SELECT 2

SELECT regexp_split_to_array('a,b;c', '[,;]') AS parts, regexp_replace('2024-01-02', '(\d+)-(\d+)-(\d+)', '\3/\2/\1') AS swapped
----
parts:_text | swapped:text
{a,b,c} | 02/01/2024
SELECT 1

SELECT 'abc' ~ 'B' AS cs, 'abc' ~* 'B' AS ci, regexp_replace('aaa', 'a', 'b', 'g') AS g, 'a.c' SIMILAR TO 'a.c' AS sim
----
cs:bool | ci:bool | g:text | sim:bool
f | t | bbb | t
SELECT 1
