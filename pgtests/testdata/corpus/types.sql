# Types, their output formats, and casts with PostgreSQL's errors.

CREATE TABLE typed (id serial PRIMARY KEY, i2 smallint, i4 integer, i8 bigint, n numeric(10,2), r real, d double precision, t text, vc varchar(5), c char(3), b boolean, by bytea, dt date, tm time, ts timestamp, tz timestamptz, iv interval, u uuid, j json, jb jsonb, ia int[], ta text[])

INSERT INTO typed (i2, i4, i8, n, r, d, t, vc, c, b, by, dt, tm, ts, tz, iv, u, j, jb, ia, ta) VALUES (1, 2, 3, 4.5, 1.5, 2.25, 'text', 'abc', 'x', true, '\x0102', '2024-02-29', '13:14:15.5', '2024-01-02 03:04:05.123456', '2024-01-02 03:04:05+02', '1 year 2 mons 3 days 04:05:06', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"a": 1}', '{"b": [1, 2], "a": 1}', '{1,2}', '{x,y}')

INSERT INTO typed (i2) VALUES (NULL)

SELECT i2, i4, i8, n, r, d, t, vc, c, b, by, dt, tm, ts, tz, iv, u, j, jb, ia, ta FROM typed ORDER BY id

SELECT id FROM typed ORDER BY id

SELECT pg_typeof(i2), pg_typeof(n), pg_typeof(vc), pg_typeof(c), pg_typeof(tz), pg_typeof(ia) FROM typed WHERE id = 1

SELECT c, length(c), c || '|' AS cat, octet_length(c) FROM typed WHERE id = 1

INSERT INTO typed (vc) VALUES ('toolong')

INSERT INTO typed (vc) VALUES ('abc  ')

INSERT INTO typed (n) VALUES (123456789.123)

INSERT INTO typed (n) VALUES (1.005)

SELECT n FROM typed WHERE n IS NOT NULL ORDER BY n

INSERT INTO typed (i2) VALUES (32768)

INSERT INTO typed (i4) VALUES ('abc')

INSERT INTO typed (u) VALUES ('not-a-uuid')

# Integer and numeric errors.
SELECT 'abc'::int

SELECT ''::int

SELECT ' 12 '::int AS padded, '+7'::int AS plus, '-0'::int AS negzero

SELECT 2147483647 + 1

SELECT 2147483647::int8 + 1 AS widened

SELECT 9223372036854775807 + 1

SELECT (-32768)::int2 AS minsmall, 32768::int2

SELECT 1 / 0

SELECT 1.0 / 0

SELECT 5 % 0

SELECT 1::float8 / 0

SELECT 7 / 2 AS intdiv, 7.0 / 2 AS numdiv, 7 % 3 AS m, -7 / 2 AS negdiv, -7 % 3 AS negmod

SELECT 10::numeric / 3 AS third, 1::numeric / 7 AS seventh, 2::numeric / 3 * 3 AS back

SELECT 12345678901234567890 AS big, 123456789012345678901234567890.5 * 2 AS bigger

SELECT 1e3 AS e, 1.5e-3 AS small, .5 AS lead, 5. AS trail, 0.0 AS zero

SELECT 1.5::float4 AS r, 0.1::float8 AS d, 1e100::float8 AS big, 1.0e-10::float8 AS tiny, (1/3.0)::float8 AS third

SELECT 'NaN'::float8 AS nan, 'Infinity'::float8 AS inf, '-inf'::float8 AS ninf, 'NaN'::numeric AS nnan

SELECT 3.14159::numeric(5,2) AS rounded, 2.5::numeric(3,0) AS half, (-2.5)::numeric(3,0) AS neghalf

SELECT 999.999::numeric(5,2)

SELECT round(2.5) AS a, round(3.5) AS b, round(-2.5) AS c, round(2.5::float8) AS d, round(3.5::float8) AS e

SELECT 100000000000000000000::float8 AS f, 123456789.123456789::float8 AS g, 1e15::float8 AS h, 1e16::float8 AS i

SELECT 0.1::float4 + 0.2::float4 AS f4, 0.1::float8 + 0.2 AS f8

SELECT 'abc'::numeric

SELECT '1e400'::float8

SELECT 3000000000::int4

SELECT '3000000000'::int4

# Boolean forms.
SELECT 'yes'::bool AS y, 'off'::bool AS o, 't'::boolean AS t, '0'::bool AS z, true AND NULL AS an, false AND NULL AS af, true OR NULL AS ot

SELECT 'maybe'::bool

SELECT 1::bool AS one, 0::bool AS zero, true::int AS t

# Text and bytea.
SELECT 'abc'::bytea AS b, '\xdeadbeef'::bytea AS h, E'\\001'::bytea AS esc, length('\x0102'::bytea) AS n

SELECT 'abc'::varchar(2) AS cut, 'abc'::char(5) AS padded, 'ab '::char(3) = 'ab' AS eq

# Dates and times.
SELECT '2024-02-30'::date

SELECT 'today'::date IS NOT NULL AS t, 'epoch'::timestamp AS e, 'infinity'::timestamp AS i, '-infinity'::date AS ni

SELECT '2024-01-01'::date + 1 AS plus, '2024-03-01'::date - '2024-02-01'::date AS diff, '2024-01-31'::date + interval '1 month' AS m

SELECT '2024-01-02 03:04:05'::timestamp - '2024-01-01'::timestamp AS diff, '2024-01-01 10:00'::timestamp + interval '90 minutes' AS later

SELECT '2024-06-01 12:00:00+00'::timestamptz AS utc, '2024-06-01 12:00:00 America/New_York'::timestamptz AS ny

SELECT '12:30'::time AS t, '23:59:59.999999'::time AS late, '12:00'::time + interval '13 hours' AS wrap

SELECT '1 day'::interval * 2 AS dbl, interval '1 hour' / 2 AS half, -interval '1 day' AS neg, interval '1 day' - interval '1 hour' AS diff

SELECT interval '1 year 13 months' AS y, interval '36 hours' AS h, interval '1.5 days' AS d, interval '-1 day +2 hours' AS mixed

SELECT interval 'P1Y2M3DT4H5M6S' AS iso, interval '2 weeks' AS w, interval '100 years' AS c, interval '0' AS z

SELECT '2024-01-01'::date < '2024-01-02'::timestamp AS cmp, '2024-01-01'::timestamp = '2024-01-01'::date AS eq

SELECT 'garbage'::timestamp

SELECT '25:00'::time

SELECT '1 fortnight'::interval

SELECT make_date(2024, 2, 29) AS d, make_interval(days => 3) AS i

# UUID and JSON.
SELECT 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid AS u, '{a0eebc999c0b4ef8bb6d6bb9bd380a11}'::uuid AS braces

SELECT '{"b":1, "a":[1,2,{"c":null}]}'::json AS j, '{"b":1, "a":[1,2,{"c":null}]}'::jsonb AS jb, '{"a":1,"a":2}'::jsonb AS dup

SELECT '{bad json'::json

SELECT '[1, 2.50, "x", true, null]'::jsonb AS arr, '1e2'::jsonb AS num, '"str"'::json AS s

# Arrays of several types and their text forms.
SELECT ARRAY[1.5, 2.25]::float8[] AS f, ARRAY['2024-01-01'::date] AS d, ARRAY[true, false] AS b, ARRAY[NULL::int] AS n

SELECT '{{1,2},{3,4}}'::int[] AS two, '{}'::text[] AS empty, '{"a b", "c,d", NULL, "NULL"}'::text[] AS quoted

SELECT '{1,2'::int[]

SELECT '{1,x}'::int[]

# Implicit casts in comparisons and arithmetic.
SELECT 1 = 1.0 AS a, 1::int2 + 1::int8 AS b, pg_typeof(1::int2 + 1::int8) AS bt, pg_typeof(1 + 1.5) AS nt, pg_typeof(1 + 1.5::float8) AS ft

SELECT 1 + '2' AS a, '3' + 4 AS b, pg_typeof('3' + 4) AS t

SELECT 'a' + 1

SELECT 1 = 'a'

SELECT true = 1

SELECT '1'::text = 1

SELECT 1::text::int + 1 AS round_trip, CAST(CAST(2.7 AS int) AS text) AS chain

SELECT CAST(NULL AS int) AS n, NULL::text AS t, pg_typeof(NULL) AS u

SELECT 42::int4::regtype

SELECT 'abc'::name AS nm, pg_typeof('abc'::name) AS t

SELECT 1::oid AS o, 'text'::regtype::int4 AS toid
