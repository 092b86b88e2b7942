# String, math, date/time, JSON and system functions.

# Strings.
SELECT lower('ÀBC'), upper('straße'), initcap('hello wORLD-foo'), length('héllo'), octet_length('héllo'), char_length('abc')

SELECT substr('abcdef', 2, 3), substring('abcdef' FROM 3), substring('abcdef' FROM 2 FOR 2), substring('abcdef', 0, 3), left('abcdef', 2), right('abcdef', -2)

SELECT position('c' IN 'abcabc'), strpos('abcabc', 'ca'), replace('a-b-c', '-', '+'), reverse('abc'), repeat('ab', 3)

SELECT trim('  x  ') AS t, ltrim('xxaxx', 'x') AS l, rtrim('xxaxx', 'x') AS r, btrim('--a--', '-') AS b, trim(BOTH 'x' FROM 'xaxx') AS both_, trim(LEADING FROM '  a ') AS lead

SELECT lpad('7', 3, '0'), rpad('ab', 5, '*'), lpad('abcdef', 3), split_part('a,b,c', ',', 2), split_part('a,b,c', ',', 5)

SELECT concat('a', NULL, 1, true), concat_ws('-', 'a', NULL, 'c'), 'x' || NULL AS n

SELECT md5('hello'), md5(''), to_hex(255), to_hex(-1), chr(65), ascii('A')

SELECT format('%s and %s', 'a', 'b'), format('%I.%L', 'My Table', 'it''s'), format('[%5s][%-5s]', 'x', 'y'), format('%1$s %1$s', 'r')

SELECT format('%s', NULL) AS n, format('%L', NULL) AS l, format('no args') AS plain, format('%%') AS pct

SELECT format('%s %s', 'only one')

SELECT quote_ident('a b'), quote_ident('abc'), quote_literal('O''Reilly'), quote_nullable(NULL)

SELECT regexp_replace('hello world', 'o', '0') AS first, regexp_replace('hello world', 'o', '0', 'g') AS all_, regexp_replace('abc', '(b)', '[\1]') AS grp

SELECT regexp_replace('Hello', 'h', 'J', 'i') AS ci, regexp_match('foo123bar', '\d+') AS m, regexp_matches('a1b2', '\d', 'g') AS ms

SELECT regexp_split_to_array('a1b22c', '\d+') AS arr, string_to_array('a,b,,c', ',') AS s2a, array_to_string(ARRAY[1, NULL, 3], '-', '*') AS a2s

SELECT starts_with('hello', 'he'), 'abc' < 'abd' AS lt, 'a' < 'B' AS c_order, translate('hello', 'el', 'ip')

SELECT string_agg(x, '') FROM regexp_split_to_table('a b  c', ' +') AS x

SELECT encode('hello'::bytea, 'base64') AS b64, encode('\x00ff'::bytea, 'hex') AS hex, decode('aGVsbG8=', 'base64') AS dec, convert_to('é', 'UTF8') AS conv

SELECT length(NULL::text) AS n, upper(NULL) AS u, lower(1)

SELECT nosuchfunc(1)

# Math.
SELECT abs(-5), abs(-5.5), sign(-3), ceil(1.2), floor(-1.2), round(1.2345, 2), trunc(1.99), trunc(-1.99, 1)

SELECT sqrt(16), sqrt(2)::numeric(10,6), power(2, 10), power(2.0, 0.5)::numeric(8,5), 2 ^ 3 AS caret, |/ 25 AS root, @ -4 AS absval

SELECT exp(0), ln(1), log(100), log(2, 8), pi()::numeric(8,6), mod(10, 3), mod(-10, 3), 10 % -3

SELECT div(7, 2), gcd(12, 18), lcm(4, 6), factorial(5), scale(1.20)

SELECT sqrt(-1)

SELECT ln(0)

SELECT 5 & 3 AS band, 5 | 3 AS bor, 5 # 3 AS bxor, ~5 AS bnot, 1 << 4 AS shl, 256 >> 2 AS shr

SELECT random() >= 0 AND random() < 1 AS in_range, setseed(0.5) IS NULL AS seeded

SELECT round(123.456, -1), round(-0.5), ceil(-0.5), floor(2.5::float8), trunc(2.5::float8), cbrt(27)

SELECT degrees(pi()), radians(180)::numeric(8,6), sin(0), cos(0), atan2(1, 1)::numeric(6,5)

# Date and time.
SELECT date_trunc('day', TIMESTAMP '2024-03-15 13:45:10') AS d, date_trunc('month', TIMESTAMP '2024-03-15 13:45:10') AS m, date_trunc('year', DATE '2024-03-15') AS y

SELECT date_trunc('hour', TIMESTAMPTZ '2024-03-15 13:45:10+00') AS h, date_trunc('week', TIMESTAMP '2024-03-15') AS w, date_trunc('quarter', TIMESTAMP '2024-05-15') AS q

SELECT extract(year FROM TIMESTAMP '2024-03-15 13:45:10.5') AS y, extract(month FROM DATE '2024-03-15') AS m, extract(second FROM TIMESTAMP '2024-03-15 13:45:10.5') AS s

SELECT extract(dow FROM DATE '2024-03-17') AS dow, extract(doy FROM DATE '2024-03-15') AS doy, extract(epoch FROM TIMESTAMPTZ '2024-01-01 00:00:00+00') AS ep, extract(week FROM DATE '2024-01-01') AS wk

SELECT extract(hour FROM interval '1 day 5 hours') AS h, extract(epoch FROM interval '1 day') AS e, extract(day FROM interval '40 days') AS d

SELECT date_part('year', DATE '2024-03-15') AS y, date_part('epoch', TIMESTAMP '1970-01-02') AS e, extract(century FROM DATE '2024-01-01') AS c

SELECT extract(foo FROM DATE '2024-01-01')

SELECT to_char(TIMESTAMP '2024-03-05 14:07:09', 'YYYY-MM-DD HH24:MI:SS') AS a, to_char(DATE '2024-03-05', 'DD Mon YYYY') AS b, to_char(TIMESTAMP '2024-03-05 14:07:09', 'HH12:MI AM') AS c

SELECT to_char(DATE '2024-03-05', 'Day, Month FMDD') AS a, to_char(TIMESTAMP '2024-03-05 14:07:09.123', 'MS US') AS b, to_char(DATE '2024-03-05', 'YY Q WW D') AS c

SELECT to_char(1234.5, '9999.99') AS a, to_char(42, '000') AS b, to_char(-12.3, '999.9') AS c, to_char(1234567, '9,999,999') AS d, to_char(5, 'FM999') AS e

SELECT to_date('05 Mar 2024', 'DD Mon YYYY') AS d, to_timestamp('2024-03-05 14:07', 'YYYY-MM-DD HH24:MI') AS ts, to_timestamp(0) AS epoch

SELECT age(TIMESTAMP '2024-03-15', TIMESTAMP '2023-01-10') AS a, age(DATE '2024-03-01', DATE '2024-01-31') AS b, age(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-01 10:00') AS c

SELECT now() IS NOT NULL AS n, now() = current_timestamp AS same, current_date = now()::date AS d, clock_timestamp() >= now() AS c, localtimestamp IS NOT NULL AS l

SELECT pg_typeof(now()), pg_typeof(current_date), pg_typeof(localtimestamp), pg_typeof(current_time), pg_typeof(statement_timestamp())

SELECT make_timestamp(2024, 1, 2, 3, 4, 5.5) AS ts, make_time(1, 2, 3) AS t, justify_days(interval '35 days') AS jd, justify_hours(interval '50 hours') AS jh, justify_interval(interval '1 mon -1 day') AS ji

SELECT TIMESTAMP '2024-01-31' + interval '1 month' AS m, DATE '2024-02-29' - interval '1 year' AS y, TIMESTAMPTZ '2024-03-10 12:00+00' AT TIME ZONE 'America/New_York' AS ny

SELECT TIMESTAMP '2024-06-01 12:00' AT TIME ZONE 'Europe/Paris' AS paris, (TIMESTAMP '2024-06-01 12:00' AT TIME ZONE 'UTC') AT TIME ZONE 'Asia/Tokyo' AS tokyo

SELECT isfinite(DATE 'infinity') AS f, DATE '2024-01-01' + 7 * interval '1 day' AS wk, (DATE '2024-03-01' - 1) AS prev

SELECT timezone('UTC', TIMESTAMPTZ '2024-01-01 00:00+05') AS tz

SELECT n FROM generate_series(1, 10, 3) AS n ORDER BY n

SELECT * FROM generate_series(5, 1, -2)

SELECT generate_series(1, 3) AS g

SELECT * FROM generate_series(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-03', interval '1 day') AS t

SELECT * FROM generate_series(1, 3) WITH ORDINALITY AS g(v, i) ORDER BY i

SELECT * FROM generate_series(1, 5, 0)

SELECT * FROM generate_series(0.5, 2, 0.5) AS x

# unnest, array functions.
SELECT unnest(ARRAY[3, 1, 2]) AS u

SELECT * FROM unnest(ARRAY['a', 'b']) WITH ORDINALITY AS u(v, n) ORDER BY n

SELECT * FROM unnest(ARRAY[1, 2], ARRAY['x', 'y', 'z']) AS u(n, s) ORDER BY n NULLS LAST

SELECT array_length(ARRAY[]::int[], 1) AS empty, array_upper(ARRAY[1,2], 1) AS up, array_lower(ARRAY[1,2], 1) AS lo, array_ndims(ARRAY[[1]]) AS nd

SELECT array_append(ARRAY[1], 2), array_prepend(0, ARRAY[1]), array_cat(ARRAY[1], ARRAY[2, 3]), array_remove(ARRAY[1, 2, 1], 1), array_position(ARRAY['a', 'b'], 'b')

SELECT array_replace(ARRAY[1, 2, 1], 1, 9), array_positions(ARRAY[1, 2, 1], 1), ARRAY[1, 2] && ARRAY[2, 3] AS overlap, ARRAY[1] <@ ARRAY[1, 2] AS contained

# JSON.
SELECT '{"a": {"b": [10, 20]}}'::json -> 'a' AS a, '{"a": {"b": [10, 20]}}'::json -> 'a' -> 'b' ->> 1 AS b1, '[1, 2, 3]'::jsonb -> -1 AS last

SELECT '{"a": 1, "b": "x"}'::jsonb ->> 'b' AS b, '{"a": 1}'::jsonb -> 'zz' AS missing, '{"a": {"b": 2}}'::jsonb #> '{a,b}' AS path, '{"a": {"b": 2}}'::jsonb #>> '{a,b}' AS tpath

SELECT '{"a": 1, "b": 2}'::jsonb @> '{"a": 1}' AS contains, '{"a": 1}'::jsonb ? 'a' AS has, '{"a": 1}'::jsonb ?| ARRAY['x', 'a'] AS any_, '{"a": 1}'::jsonb ?& ARRAY['x', 'a'] AS all_

SELECT '{"a": 1}'::jsonb || '{"b": 2}'::jsonb AS cat, '{"a": 1, "b": 2}'::jsonb - 'a' AS minus, '[1, 2, 3]'::jsonb - 0 AS minus_idx

SELECT jsonb_build_object('a', 1, 'b', ARRAY[1, 2]) AS o, json_build_array(1, 'two', NULL) AS a, to_json('x'::text) AS tj, to_jsonb(ARRAY[1, 2]) AS tjb

SELECT jsonb_typeof('[1]') AS t1, json_typeof('{"a":1}') AS t2, jsonb_array_length('[1, 2, 3]') AS n, jsonb_pretty('{"a": [1]}') AS pretty

SELECT * FROM jsonb_each('{"a": 1, "b": "x"}') ORDER BY key

SELECT * FROM jsonb_each_text('{"a": 1, "b": "x"}') ORDER BY key

SELECT jsonb_object_keys('{"b": 1, "a": 2}') AS k

SELECT jsonb_array_elements('[1, "a", null]') AS e

SELECT value FROM json_array_elements_text('["x", "y"]') ORDER BY value

SELECT jsonb_set('{"a": 1}', '{b}', '2') AS s, jsonb_strip_nulls('{"a": null, "b": 1}') AS stripped, jsonb_extract_path_text('{"a": {"b": "c"}}', 'a', 'b') AS p

SELECT row_to_json(r) FROM (SELECT 1 AS a, 'x' AS b) r

SELECT to_jsonb(r) FROM (SELECT 1 AS a, NULL::text AS b) r

SELECT ('{"n": 5}'::jsonb ->> 'n')::int + 1 AS n, ('{"n": 5}'::jsonb -> 'n')::int AS direct

SELECT '{"a":1}'::json -> 1 AS wrong_kind, '[1]'::json ->> 'a' AS wrong_kind2

SELECT '{"a": 1}'::jsonb = '{ "a" : 1 }'::jsonb AS eq, '1'::jsonb < '2'::jsonb AS lt

# System functions.
SELECT pg_typeof(1), pg_typeof(1.5), pg_typeof('a'::text), pg_typeof(ARRAY[1]), pg_typeof(NULL::jsonb), pg_typeof(1::int2)

SELECT pg_sleep(0.01) IS NULL AS slept, pg_typeof(pg_sleep(0))

SELECT gen_random_uuid() IS NOT NULL AS u, length(gen_random_uuid()::text) AS len, gen_random_uuid() <> gen_random_uuid() AS differ

SELECT current_user = session_user AS same, current_database() IS NOT NULL AS db, current_schema() AS s, current_schemas(false) AS ss

SELECT version() LIKE 'PostgreSQL 15%' AS v, current_setting('TimeZone') AS tz, current_setting('DateStyle') AS ds

SELECT set_config('application_name', 'corpus', false) AS s, current_setting('application_name') AS a

SELECT current_setting('no.such.setting', true) IS NULL AS missing_ok

SELECT coalesce(pg_backend_pid(), 0) > 0 AS pid

SELECT num_nulls(1, NULL, 2) AS nn, num_nonnulls(1, NULL, 2) AS nnn
