# Types, their output formats, and casts with PostgreSQL's errors.

CREATE TABLE typed (id serial PRIMARY KEY, i2 smallint, i4 integer, i8 bigint, n numeric(10,2), r real, d double precision, t text, vc varchar(5), c char(3), b boolean, by bytea, dt date, tm time, ts timestamp, tz timestamptz, iv interval, u uuid, j json, jb jsonb, ia int[], ta text[])
----
CREATE TABLE

INSERT INTO typed (i2, i4, i8, n, r, d, t, vc, c, b, by, dt, tm, ts, tz, iv, u, j, jb, ia, ta) VALUES (1, 2, 3, 4.5, 1.5, 2.25, 'text', 'abc', 'x', true, '\x0102', '2024-02-29', '13:14:15.5', '2024-01-02 03:04:05.123456', '2024-01-02 03:04:05+02', '1 year 2 mons 3 days 04:05:06', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"a": 1}', '{"b": [1, 2], "a": 1}', '{1,2}', '{x,y}')
----
INSERT 0 1

INSERT INTO typed (i2) VALUES (NULL)
----
INSERT 0 1

SELECT i2, i4, i8, n, r, d, t, vc, c, b, by, dt, tm, ts, tz, iv, u, j, jb, ia, ta FROM typed ORDER BY id
----
i2:int2 | i4:int4 | i8:int8 | n:numeric | r:float4 | d:float8 | t:text | vc:varchar | c:bpchar | b:bool | by:bytea | dt:date | tm:time | ts:timestamp | tz:timestamptz | iv:interval | u:uuid | j:json | jb:jsonb | ia:_int4 | ta:_text
1 | 2 | 3 | 4.50 | 1.5 | 2.25 | text | abc | "x  " | t | "\\x0102" | 2024-02-29 | 13:14:15.5 | 2024-01-02 03:04:05.123456 | 2024-01-02 01:04:05+00 | 1 year 2 mons 3 days 04:05:06 | a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11 | "{\"a\": 1}" | "{\"a\": 1, \"b\": [1, 2]}" | {1,2} | {x,y}
NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL
SELECT 2

SELECT id FROM typed ORDER BY id
----
id:int4
1
2
SELECT 2

SELECT pg_typeof(i2), pg_typeof(n), pg_typeof(vc), pg_typeof(c), pg_typeof(tz), pg_typeof(ia) FROM typed WHERE id = 1
----
pg_typeof:2206 | pg_typeof:2206 | pg_typeof:2206 | pg_typeof:2206 | pg_typeof:2206 | pg_typeof:2206
smallint | numeric | character varying | character | timestamp with time zone | integer[]
SELECT 1

SELECT c, length(c), c || '|' AS cat, octet_length(c) FROM typed WHERE id = 1
----
c:bpchar | length:int4 | cat:text | octet_length:int4
"x  " | 1 | "x|" | 3
SELECT 1

INSERT INTO typed (vc) VALUES ('toolong')
----
ERROR 22001: value too long for type character varying(5)

INSERT INTO typed (vc) VALUES ('abc  ')
----
INSERT 0 1

INSERT INTO typed (n) VALUES (123456789.123)
----
ERROR 22003: numeric field overflow

INSERT INTO typed (n) VALUES (1.005)
----
INSERT 0 1

SELECT n FROM typed WHERE n IS NOT NULL ORDER BY n
----
n:numeric
1.01
4.50
SELECT 2

INSERT INTO typed (i2) VALUES (32768)
----
ERROR 22003: smallint out of range

INSERT INTO typed (i4) VALUES ('abc')
----
ERROR 22P02 at 32: invalid input syntax for type integer: "abc"

INSERT INTO typed (u) VALUES ('not-a-uuid')
----
ERROR 22P02 at 31: invalid input syntax for type uuid: "not-a-uuid"

# Integer and numeric errors.
SELECT 'abc'::int
----
ERROR 22P02 at 8: invalid input syntax for type integer: "abc"

SELECT ''::int
----
ERROR 22P02 at 8: invalid input syntax for type integer: ""

SELECT ' 12 '::int AS padded, '+7'::int AS plus, '-0'::int AS negzero
----
padded:int4 | plus:int4 | negzero:int4
12 | 7 | 0
SELECT 1

SELECT 2147483647 + 1
----
ERROR 22003: integer out of range

SELECT 2147483647::int8 + 1 AS widened
----
widened:int8
2147483648
SELECT 1

SELECT 9223372036854775807 + 1
----
ERROR 22003: bigint out of range

SELECT (-32768)::int2 AS minsmall, 32768::int2
----
ERROR 22003: smallint out of range

SELECT 1 / 0
----
ERROR 22012: division by zero

SELECT 1.0 / 0
----
ERROR 22012: division by zero

SELECT 5 % 0
----
ERROR 22012: division by zero

SELECT 1::float8 / 0
----
ERROR 22012: division by zero

SELECT 7 / 2 AS intdiv, 7.0 / 2 AS numdiv, 7 % 3 AS m, -7 / 2 AS negdiv, -7 % 3 AS negmod
----
intdiv:int4 | numdiv:numeric | m:int4 | negdiv:int4 | negmod:int4
3 | 3.5000000000000000 | 1 | -3 | -1
SELECT 1

SELECT 10::numeric / 3 AS third, 1::numeric / 7 AS seventh, 2::numeric / 3 * 3 AS back
----
third:numeric | seventh:numeric | back:numeric
3.3333333333333333 | 0.14285714285714285714 | 2.00000000000000000001
SELECT 1

SELECT 12345678901234567890 AS big, 123456789012345678901234567890.5 * 2 AS bigger
----
big:numeric | bigger:numeric
12345678901234567890 | 246913578024691357802469135781.0
SELECT 1

SELECT 1e3 AS e, 1.5e-3 AS small, .5 AS lead, 5. AS trail, 0.0 AS zero
----
e:numeric | small:numeric | lead:numeric | trail:numeric | zero:numeric
1000 | 0.0015 | 0.5 | 5 | 0.0
SELECT 1

SELECT 1.5::float4 AS r, 0.1::float8 AS d, 1e100::float8 AS big, 1.0e-10::float8 AS tiny, (1/3.0)::float8 AS third
----
r:float4 | d:float8 | big:float8 | tiny:float8 | third:float8
1.5 | 0.1 | 1e+100 | 1e-10 | 0.3333333333333333
SELECT 1

SELECT 'NaN'::float8 AS nan, 'Infinity'::float8 AS inf, '-inf'::float8 AS ninf, 'NaN'::numeric AS nnan
----
nan:float8 | inf:float8 | ninf:float8 | nnan:numeric
NaN | Infinity | -Infinity | NaN
SELECT 1

SELECT 3.14159::numeric(5,2) AS rounded, 2.5::numeric(3,0) AS half, (-2.5)::numeric(3,0) AS neghalf
----
rounded:numeric | half:numeric | neghalf:numeric
3.14 | 3 | -3
SELECT 1

SELECT 999.999::numeric(5,2)
----
ERROR 22003: numeric field overflow

SELECT round(2.5) AS a, round(3.5) AS b, round(-2.5) AS c, round(2.5::float8) AS d, round(3.5::float8) AS e
----
a:numeric | b:numeric | c:numeric | d:float8 | e:float8
3 | 4 | -3 | 2 | 4
SELECT 1

SELECT 100000000000000000000::float8 AS f, 123456789.123456789::float8 AS g, 1e15::float8 AS h, 1e16::float8 AS i
----
f:float8 | g:float8 | h:float8 | i:float8
1e+20 | 123456789.12345679 | 1e+15 | 1e+16
SELECT 1

SELECT 0.1::float4 + 0.2::float4 AS f4, 0.1::float8 + 0.2 AS f8
----
f4:float4 | f8:float8
0.3 | 0.30000000000000004
SELECT 1

SELECT 'abc'::numeric
----
ERROR 22P02 at 8: invalid input syntax for type numeric: "abc"

SELECT '1e400'::float8
----
ERROR 22003 at 8: "1e400" is out of range for type double precision

SELECT 3000000000::int4
----
ERROR 22003: integer out of range

SELECT '3000000000'::int4
----
ERROR 22003 at 8: value "3000000000" is out of range for type integer

# Boolean forms.
SELECT 'yes'::bool AS y, 'off'::bool AS o, 't'::boolean AS t, '0'::bool AS z, true AND NULL AS an, false AND NULL AS af, true OR NULL AS ot
----
y:bool | o:bool | t:bool | z:bool | an:bool | af:bool | ot:bool
t | f | t | f | NULL | f | t
SELECT 1

SELECT 'maybe'::bool
----
ERROR 22P02 at 8: invalid input syntax for type boolean: "maybe"

SELECT 1::bool AS one, 0::bool AS zero, true::int AS t
----
one:bool | zero:bool | t:int4
t | f | 1
SELECT 1

# Text and bytea.
SELECT 'abc'::bytea AS b, '\xdeadbeef'::bytea AS h, E'\\001'::bytea AS esc, length('\x0102'::bytea) AS n
----
b:bytea | h:bytea | esc:bytea | n:int4
"\\x616263" | "\\xdeadbeef" | "\\x01" | 2
SELECT 1

SELECT 'abc'::varchar(2) AS cut, 'abc'::char(5) AS padded, 'ab '::char(3) = 'ab' AS eq
----
cut:varchar | padded:bpchar | eq:bool
ab | "abc  " | t
SELECT 1

# Dates and times.
SELECT '2024-02-30'::date
----
ERROR 22008 at 8: date/time field value out of range: "2024-02-30"

SELECT 'today'::date IS NOT NULL AS t, 'epoch'::timestamp AS e, 'infinity'::timestamp AS i, '-infinity'::date AS ni
----
t:bool | e:timestamp | i:timestamp | ni:date
t | 1970-01-01 00:00:00 | infinity | -infinity
SELECT 1

SELECT '2024-01-01'::date + 1 AS plus, '2024-03-01'::date - '2024-02-01'::date AS diff, '2024-01-31'::date + interval '1 month' AS m
----
plus:date | diff:int4 | m:timestamp
2024-01-02 | 29 | 2024-02-29 00:00:00
SELECT 1

SELECT '2024-01-02 03:04:05'::timestamp - '2024-01-01'::timestamp AS diff, '2024-01-01 10:00'::timestamp + interval '90 minutes' AS later
----
diff:interval | later:timestamp
1 day 03:04:05 | 2024-01-01 11:30:00
SELECT 1

SELECT '2024-06-01 12:00:00+00'::timestamptz AS utc, '2024-06-01 12:00:00 America/New_York'::timestamptz AS ny
----
utc:timestamptz | ny:timestamptz
2024-06-01 12:00:00+00 | 2024-06-01 16:00:00+00
SELECT 1

SELECT '12:30'::time AS t, '23:59:59.999999'::time AS late, '12:00'::time + interval '13 hours' AS wrap
----
t:time | late:time | wrap:time
12:30:00 | 23:59:59.999999 | 01:00:00
SELECT 1

SELECT '1 day'::interval * 2 AS dbl, interval '1 hour' / 2 AS half, -interval '1 day' AS neg, interval '1 day' - interval '1 hour' AS diff
----
dbl:interval | half:interval | neg:interval | diff:interval
2 days | 00:30:00 | -1 days | 1 day -01:00:00
SELECT 1

SELECT interval '1 year 13 months' AS y, interval '36 hours' AS h, interval '1.5 days' AS d, interval '-1 day +2 hours' AS mixed
----
y:interval | h:interval | d:interval | mixed:interval
2 years 1 mon | 36:00:00 | 1 day 12:00:00 | -1 days +02:00:00
SELECT 1

SELECT interval 'P1Y2M3DT4H5M6S' AS iso, interval '2 weeks' AS w, interval '100 years' AS c, interval '0' AS z
----
iso:interval | w:interval | c:interval | z:interval
1 year 2 mons 3 days 04:05:06 | 14 days | 100 years | 00:00:00
SELECT 1

SELECT '2024-01-01'::date < '2024-01-02'::timestamp AS cmp, '2024-01-01'::timestamp = '2024-01-01'::date AS eq
----
cmp:bool | eq:bool
t | t
SELECT 1

SELECT 'garbage'::timestamp
----
ERROR 22007 at 8: invalid input syntax for type timestamp: "garbage"

SELECT '25:00'::time
----
ERROR 22008 at 8: date/time field value out of range: "25:00"

SELECT '1 fortnight'::interval
----
ERROR 22007 at 8: invalid input syntax for type interval: "1 fortnight"

SELECT make_date(2024, 2, 29) AS d, make_interval(0, 0, 0, 3) AS i, make_interval(1) AS y
----
d:date | i:interval | y:interval
2024-02-29 | 3 days | 1 year
SELECT 1

# UUID and JSON.
SELECT 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid AS u, '{a0eebc999c0b4ef8bb6d6bb9bd380a11}'::uuid AS braces
----
u:uuid | braces:uuid
a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11 | a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11
SELECT 1

SELECT '{"b":1, "a":[1,2,{"c":null}]}'::json AS j, '{"b":1, "a":[1,2,{"c":null}]}'::jsonb AS jb, '{"a":1,"a":2}'::jsonb AS dup
----
j:json | jb:jsonb | dup:jsonb
"{\"b\":1, \"a\":[1,2,{\"c\":null}]}" | "{\"a\": [1, 2, {\"c\": null}], \"b\": 1}" | "{\"a\": 2}"
SELECT 1

SELECT '{bad json'::json
----
ERROR 22P02 at 8: invalid input syntax for type json

SELECT '[1, 2.50, "x", true, null]'::jsonb AS arr, '1e2'::jsonb AS num, '"str"'::json AS s
----
arr:jsonb | num:jsonb | s:json
"[1, 2.50, \"x\", true, null]" | 100 | "\"str\""
SELECT 1

# Arrays of several types and their text forms.
SELECT ARRAY[1.5, 2.25]::float8[] AS f, ARRAY['2024-01-01'::date] AS d, ARRAY[true, false] AS b, ARRAY[NULL::int] AS n
----
f:_float8 | d:_date | b:_bool | n:_int4
{1.5,2.25} | {2024-01-01} | {t,f} | {NULL}
SELECT 1

SELECT '{{1,2},{3,4}}'::int[] AS two, '{}'::text[] AS empty, '{"a b", "c,d", NULL, "NULL"}'::text[] AS quoted
----
two:_int4 | empty:_text | quoted:_text
{{1,2},{3,4}} | {} | "{\"a b\",\"c,d\",NULL,\"NULL\"}"
SELECT 1

SELECT '{1,2'::int[]
----
ERROR 22P02 at 8: malformed array literal: "{1,2"

SELECT '{1,x}'::int[]
----
ERROR 22P02 at 8: invalid input syntax for type integer: "x"

# Implicit casts in comparisons and arithmetic.
SELECT 1 = 1.0 AS a, 1::int2 + 1::int8 AS b, pg_typeof(1::int2 + 1::int8) AS bt, pg_typeof(1 + 1.5) AS nt, pg_typeof(1 + 1.5::float8) AS ft
----
a:bool | b:int8 | bt:2206 | nt:2206 | ft:2206
t | 2 | bigint | numeric | double precision
SELECT 1

SELECT 1 + '2' AS a, '3' + 4 AS b, pg_typeof('3' + 4) AS t
----
a:int4 | b:int4 | t:2206
3 | 7 | integer
SELECT 1

SELECT 'a' + 1
----
ERROR 22P02 at 8: invalid input syntax for type integer: "a"

SELECT 1 = 'a'
----
ERROR 22P02 at 12: invalid input syntax for type integer: "a"

SELECT true = 1
----
ERROR 42883 at 13: operator does not exist: boolean = integer

SELECT '1'::text = 1
----
ERROR 42883 at 18: operator does not exist: text = integer

SELECT 1::text::int + 1 AS round_trip, CAST(CAST(2.7 AS int) AS text) AS chain
----
round_trip:int4 | chain:text
2 | 3
SELECT 1

SELECT CAST(NULL AS int) AS n, NULL::text AS t, pg_typeof(NULL) AS u
----
n:int4 | t:text | u:2206
NULL | NULL | unknown
SELECT 1

SELECT 42::int4::regtype
----
regtype:2206
42
SELECT 1

SELECT 'abc'::name AS nm, pg_typeof('abc'::name) AS t
----
nm:name | t:2206
abc | name
SELECT 1

SELECT 1::oid AS o, 'text'::regtype::int4 AS toid
----
o:oid | toid:int4
1 | 25
SELECT 1

# Serial types and their sequences.
CREATE TABLE serials (a smallserial, b serial, c bigserial, note text)
----
CREATE TABLE

INSERT INTO serials (note) VALUES ('x'), ('y') RETURNING a, b, c, pg_typeof(a), pg_typeof(c)
----
a:int2 | b:int4 | c:int8 | pg_typeof:2206 | pg_typeof:2206
1 | 1 | 1 | smallint | bigint
2 | 2 | 2 | smallint | bigint
INSERT 0 2

INSERT INTO serials (a, note) VALUES (10, 'given') RETURNING a, b
----
a:int2 | b:int4
10 | 3
INSERT 0 1

INSERT INTO serials (note) VALUES ('z') RETURNING a, b, c
----
a:int2 | b:int4 | c:int8
3 | 4 | 4
INSERT 0 1

SELECT a, b, c, note FROM serials ORDER BY b
----
a:int2 | b:int4 | c:int8 | note:text
1 | 1 | 1 | x
2 | 2 | 2 | y
10 | 3 | 3 | given
3 | 4 | 4 | z
SELECT 4

# Wide numerics: arithmetic is exact, never rounded to a working precision.
SELECT 2147E8364 % 1
----
?column?:numeric
0
SELECT 1

SELECT 1E1000 + 1 = 1E1000
----
?column?:bool
f
SELECT 1

SELECT length((1E1000 + 1)::text)
----
length:int4
1001
SELECT 1

SELECT length(('1E-1000'::numeric)::text)
----
length:int4
1002
SELECT 1

SELECT 1E1000 * 1E1000 * 1E1000 > 0
----
?column?:bool
t
SELECT 1

SELECT length((1.5E1000 % 7)::text)
----
length:int4
1
SELECT 1

SELECT 10::numeric ^ 200000
----
ERROR 22003: value overflows numeric format

SELECT div(1E1000 + 1, 3) % 10
----
?column?:numeric
3
SELECT 1

SELECT sum(x) - 1E1000 FROM (VALUES (1E1000), (1), (1.5)) v(x)
----
?column?:numeric
2.5
SELECT 1

SELECT div(1E1200 + 7, 10) % 10
----
?column?:numeric
0
SELECT 1

# cdcdb has no bit types: a bit string literal is refused (see
# corpus_differences_test.go) rather than read as the text b101.
SELECT B'101', X'1F'
----
?column?:bit | ?column?:bit
101 | 00011111
SELECT 1
