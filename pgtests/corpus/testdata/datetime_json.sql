# Time zones (SET TIME ZONE, literals read in the session zone, DST-aware
# arithmetic), date/time/interval forms and arithmetic, date_bin, and jsonb
# conversions, functions and its value-based ordering and grouping.

SET TIME ZONE 'America/New_York'
----
SET

SELECT TIMESTAMPTZ '2024-03-10 01:30:00', TIMESTAMPTZ '2024-03-10 03:30:00', TIMESTAMPTZ '2024-07-01 12:00:00+00'
----
timestamptz:timestamptz | timestamptz:timestamptz | timestamptz:timestamptz
2024-03-10 01:30:00-05 | 2024-03-10 03:30:00-04 | 2024-07-01 08:00:00-04
SELECT 1

SELECT TIMESTAMPTZ '2024-03-09 12:00' + interval '1 day', TIMESTAMPTZ '2024-03-09 12:00' + interval '24 hours'
----
?column?:timestamptz | ?column?:timestamptz
2024-03-10 12:00:00-04 | 2024-03-10 13:00:00-04
SELECT 1

SELECT date_trunc('day', TIMESTAMPTZ '2024-03-10 15:00'), extract(timezone FROM TIMESTAMPTZ '2024-07-01 12:00'), extract(hour FROM TIMESTAMPTZ '2024-07-01 12:00+00')
----
date_trunc:timestamptz | extract:numeric | extract:numeric
2024-03-10 00:00:00-05 | -14400 | 8
SELECT 1

SELECT TIMESTAMP '2024-07-01 12:00' AT TIME ZONE 'UTC', TIMESTAMPTZ '2024-07-01 12:00' AT TIME ZONE 'Asia/Tokyo', now() AT TIME ZONE 'UTC' IS NOT NULL
----
timezone:timestamptz | timezone:timestamp | ?column?:bool
2024-07-01 08:00:00-04 | 2024-07-02 01:00:00 | t
SELECT 1

SELECT '2024-07-01 12:00'::timestamptz::date, '2024-07-01'::date::timestamptz, '2024-07-01 23:30-07'::timestamptz::date
----
date:date | timestamptz:timestamptz | date:date
2024-07-01 | 2024-07-01 00:00:00-04 | 2024-07-02
SELECT 1

SELECT to_char(TIMESTAMPTZ '2024-07-01 12:00+00', 'YYYY-MM-DD HH24:MI TZ OF')
----
to_char:text
2024-07-01 08:00 EDT -04
SELECT 1

SET TIME ZONE 'UTC'
----
SET

SHOW TimeZone
----
TimeZone:text
UTC
SHOW

SELECT TIMESTAMPTZ '2024-01-01 00:00+00'
----
timestamptz:timestamptz
2024-01-01 00:00:00+00
SELECT 1

SET TIME ZONE 'Nowhere/City'
----
ERROR 22023: invalid value for parameter "TimeZone": "Nowhere/City"

SET TIME ZONE 0
----
SET

SELECT TIMESTAMPTZ '2024-01-01 00:00+05:30', '2024-01-01 00:00 PST'::timestamptz, '2024-01-01T10:00:00Z'::timestamptz
----
timestamptz:timestamptz | timestamptz:timestamptz | timestamptz:timestamptz
2023-12-31 18:30:00+00 | 2024-01-01 08:00:00+00 | 2024-01-01 10:00:00+00
SELECT 1

SELECT interval '1 day 2 hours' + interval '30 minutes', interval '1 month' * 2, interval '3 days' / 2, interval '1 hour' * 1.5, 2 * interval '1 minute'
----
?column?:interval | ?column?:interval | ?column?:interval | ?column?:interval | ?column?:interval
1 day 02:30:00 | 2 mons | 1 day 12:00:00 | 01:30:00 | 00:02:00
SELECT 1

SELECT interval '1 year' > interval '360 days', interval '30 days' = interval '1 month', interval '24 hours' = interval '1 day'
----
?column?:bool | ?column?:bool | ?column?:bool
f | t | t
SELECT 1

SELECT justify_interval(interval '1 month -1 hour'), justify_hours(interval '50 hours'), interval '-1 month 1 day', interval '1:2:3.456789'
----
justify_interval:interval | justify_hours:interval | interval:interval | interval:interval
29 days 23:00:00 | 2 days 02:00:00 | -1 mons +1 day | 01:02:03.456789
SELECT 1

SELECT interval '1 2:03:04', interval '2 weeks', interval '1 decade', interval '1 century 2 millennia', interval '100 microseconds', interval '1.5 months'
----
interval:interval | interval:interval | interval:interval | interval:interval | interval:interval | interval:interval
1 day 02:03:04 | 14 days | 10 years | 2100 years | 00:00:00.0001 | 1 mon 15 days
SELECT 1

SELECT interval 'P1Y2M', interval 'PT36H', interval '-P1D', interval 'P0.5D'
----
ERROR 22007 at 53: invalid input syntax for type interval: "-P1D"

SELECT make_interval(1, 2, 3, 4, 5, 6, 7.5), make_date(2024, 2, 29), make_timestamptz(2024, 1, 1, 0, 0, 0, 'UTC')
----
make_interval:interval | make_date:date | make_timestamptz:timestamptz
1 year 2 mons 25 days 05:06:07.5 | 2024-02-29 | 2024-01-01 00:00:00+00
SELECT 1

SELECT make_date(2023, 2, 29)
----
ERROR 22008: date field value out of range: 2023-02-29

SELECT interval 'abc'
----
ERROR 22007 at 17: invalid input syntax for type interval: "abc"

SELECT DATE '2024-01-31' + 1, DATE '2024-01-31' - DATE '2023-01-31', DATE '2024-03-01' - 1, DATE '2024-01-01' + TIME '10:30', TIME '10:30' + interval '90 minutes', TIME '23:00' + interval '2 hours'
----
?column?:date | ?column?:int4 | ?column?:date | ?column?:timestamp | ?column?:time | ?column?:time
2024-02-01 | 365 | 2024-02-29 | 2024-01-01 10:30:00 | 12:00:00 | 01:00:00
SELECT 1

SELECT TIMESTAMP '2024-01-01 10:00' - TIMESTAMP '2023-12-31 09:30', age(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-01'), age(DATE '2000-02-29', DATE '2024-03-01')
----
?column?:interval | age:interval | age:interval
1 day 00:30:00 | 00:00:00 | -24 years -1 days
SELECT 1

SELECT extract(epoch FROM TIMESTAMPTZ '2024-01-01 00:00+00'), extract(millisecond FROM TIME '10:00:01.5'), extract(microseconds FROM interval '1.5 seconds'), extract(julian FROM DATE '2024-01-01')
----
extract:numeric | extract:numeric | extract:numeric | extract:numeric
1704067200.000000 | 1500.000 | 1500000 | 2460311
SELECT 1

SELECT date_part('dow', TIMESTAMP '2024-03-17 00:00'), pg_typeof(date_part('dow', DATE '2024-03-17')), pg_typeof(extract(dow FROM DATE '2024-03-17'))
----
date_part:float8 | pg_typeof:2206 | pg_typeof:2206
0 | double precision | numeric
SELECT 1

SELECT to_timestamp(0), to_timestamp(1700000000.5), to_timestamp('2024 03 05', 'YYYY MM DD'), to_date('2024-13-01', 'YYYY-MM-DD')
----
ERROR 22008: date/time field value out of range: "2024-13-01"

SELECT '2024-03-05'::date::text, '5 March 2024'::date, 'March 5, 2024'::date, '20240305'::date, '2024.03.05'::date
----
text:text | date:date | date:date | date:date | date:date
2024-03-05 | 2024-03-05 | 2024-03-05 | 2024-03-05 | 2024-03-05
SELECT 1

SELECT '03/05/2024'::date, '05-Mar-2024'::date
----
date:date | date:date
2024-03-05 | 2024-03-05
SELECT 1

SELECT 'epoch'::timestamp, 'allballs'::time, 'today'::date = current_date, 'now'::timestamptz <= now() + interval '1 second'
----
timestamp:timestamp | time:time | ?column?:bool | ?column?:bool
1970-01-01 00:00:00 | 00:00:00 | t | t
SELECT 1

SELECT '2024-01-01 24:00:00'::timestamp, '2024-01-01 23:59:60'::timestamp
----
timestamp:timestamp | timestamp:timestamp
2024-01-02 00:00:00 | 2024-01-02 00:00:00
SELECT 1

SELECT TIMESTAMP '294277-01-01'
----
ERROR 22008 at 18: timestamp out of range: "294277-01-01"

SELECT '4714-11-24 BC'::date, '0001-01-01 BC'::date, '10000-01-01'::date
----
date:date | date:date | date:date
4714-11-24 BC | 0001-01-01 BC | 10000-01-01
SELECT 1

SELECT generate_series(DATE '2024-01-30', DATE '2024-02-02', interval '1 day')
----
generate_series:timestamptz
2024-01-30 00:00:00+00
2024-01-31 00:00:00+00
2024-02-01 00:00:00+00
2024-02-02 00:00:00+00
SELECT 4

SELECT generate_series(TIMESTAMPTZ '2024-01-01', TIMESTAMPTZ '2024-01-01 02:00', '1 hour')
----
generate_series:timestamptz
2024-01-01 00:00:00+00
2024-01-01 01:00:00+00
2024-01-01 02:00:00+00
SELECT 3

SELECT d, count(*) FROM (VALUES (DATE '2024-01-01'), (DATE '2024-01-01'), (DATE '2024-02-01')) v(d) GROUP BY d ORDER BY d
----
d:date | count:int8
2024-01-01 | 2
2024-02-01 | 1
SELECT 2

SELECT max(ts) - min(ts), avg(iv), sum(iv) FROM (VALUES (TIMESTAMP '2024-01-01', interval '1 hour'), (TIMESTAMP '2024-01-03', interval '30 minutes')) v(ts, iv)
----
?column?:interval | avg:interval | sum:interval
2 days | 00:45:00 | 01:30:00
SELECT 1

SELECT date_bin(interval '15 minutes', TIMESTAMP '2024-01-01 10:37', TIMESTAMP '2024-01-01'), date_trunc('week', DATE '2024-01-03'), date_trunc('decade', TIMESTAMP '2024-05-05'), date_trunc('millennium', TIMESTAMP '2024-05-05')
----
date_bin:timestamp | date_trunc:timestamptz | date_trunc:timestamp | date_trunc:timestamp
2024-01-01 10:30:00 | 2024-01-01 00:00:00+00 | 2020-01-01 00:00:00 | 2001-01-01 00:00:00
SELECT 1

SELECT isodow, extract(isoyear FROM d), extract(week FROM d) FROM (SELECT DATE '2021-01-03' AS d, extract(isodow FROM DATE '2021-01-03') AS isodow) s
----
isodow:numeric | extract:numeric | extract:numeric
7 | 2020 | 53
SELECT 1

SELECT TIME '10:00' < TIME '11:00', TIME '10:00' - TIME '09:30', TIME '25:00'
----
ERROR 22008 at 71: date/time field value out of range: "25:00"

SELECT '{"a":1}'::json::jsonb, '[1,2]'::jsonb::json, '1'::jsonb::int, '"x"'::jsonb::text, 'true'::jsonb::bool, '1.5'::jsonb::numeric
----
jsonb:jsonb | json:json | int4:int4 | text:text | bool:bool | numeric:numeric
"{\"a\": 1}" | [1, 2] | 1 | "\"x\"" | t | 1.5
SELECT 1

SELECT '"x"'::jsonb::int
----
ERROR 22023: cannot cast jsonb string to type integer

SELECT jsonb_build_object('a', NULL) ->> 'a', '{"a":null}'::jsonb -> 'a', ('{"a":null}'::jsonb -> 'a') IS NULL, jsonb_typeof('{"a":null}'::jsonb -> 'a')
----
?column?:text | ?column?:jsonb | ?column?:bool | jsonb_typeof:text
NULL | null | f | null
SELECT 1

SELECT json_build_object('k', now()::date = current_date), to_json(TIMESTAMP '2024-01-01 10:00'), to_jsonb(1.50::numeric), to_json(ARRAY['a', NULL]), to_json('a"b'::text)
----
json_build_object:json | to_json:json | to_jsonb:jsonb | to_json:json | to_json:json
"{\"k\" : true}" | "\"2024-01-01T10:00:00\"" | 1.50 | "[\"a\",null]" | "\"a\\\"b\""
SELECT 1

SELECT jsonb_agg(x ORDER BY x) FILTER (WHERE x > 1), json_agg(NULL::int), jsonb_object_agg(k, v) FROM (VALUES ('a', 1), ('b', 2)) t(k, v), generate_series(1, 3) x
----
jsonb_agg:jsonb | json_agg:json | jsonb_object_agg:jsonb
[2, 2, 3, 3] | [null, null, null, null, null, null] | "{\"a\": 1, \"b\": 2}"
SELECT 1

SELECT jsonb_array_elements_text('["a", 1, null, {"b": 2}]')
----
jsonb_array_elements_text:text
"{\"b\": 2}"
1
NULL
a
SELECT 4

SELECT jsonb_insert('{"a": [1, 2]}', '{a, 1}', '9'), jsonb_set('{"a": {"b": 1}}', '{a, c}', '2'), jsonb_set('[1,2]', '{5}', '3'), '{"a":1}'::jsonb #- '{a}'
----
jsonb_insert:jsonb | jsonb_set:jsonb | jsonb_set:jsonb | ?column?:jsonb
"{\"a\": [1, 9, 2]}" | "{\"a\": {\"b\": 1, \"c\": 2}}" | [1, 2, 3] | {}
SELECT 1

SELECT '[{"a":1},{"a":2}]'::jsonb @> '[{"a":1}]', '{"a":[1,2,3]}'::jsonb @> '{"a":[3]}', '1'::jsonb <@ '[1,2]', '"a"'::jsonb ? 'a', '["a","b"]'::jsonb ?& ARRAY['a','b']
----
?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool
t | t | t | t | t
SELECT 1

SELECT '{"b":2,"a":1,"c":{"z":1,"y":2}}'::jsonb, '{"a":   1}'::json, '[1, 2.0, 1e2, -0.5, 1E-2]'::jsonb, '"\u0041\n"'::jsonb
----
jsonb:jsonb | json:json | jsonb:jsonb | jsonb:jsonb
"{\"a\": 1, \"b\": 2, \"c\": {\"y\": 2, \"z\": 1}}" | "{\"a\":   1}" | [1, 2.0, 100, -0.5, 0.01] | "\"A\\n\""
SELECT 1

SELECT '{"a":1}'::jsonb = '{"a":1.0}'::jsonb, '[1,2]'::jsonb < '[1,3]'::jsonb, '{"a":1}'::jsonb < '[1]'::jsonb, 'null'::jsonb < 'true'::jsonb
----
?column?:bool | ?column?:bool | ?column?:bool | ?column?:bool
t | t | f | t
SELECT 1

SELECT k, v FROM jsonb_each('{"x": [1], "y": {"z": null}}') ORDER BY k
----
ERROR 42703 at 8: column "k" does not exist

SELECT jsonb_strip_nulls('[null, {"a": null}]'), json_strip_nulls('{"a":null,"b":{"c":null}}'), jsonb_pretty('[1,{"a":[]}]')
----
jsonb_strip_nulls:jsonb | json_strip_nulls:json | jsonb_pretty:text
[null, {}] | "{\"b\":{}}" | "[\n    1,\n    {\n        \"a\": [\n        ]\n    }\n]"
SELECT 1

SELECT date_bin(interval '1 hour', TIMESTAMP '2024-01-01 09:30', TIMESTAMP '2024-01-01 10:15'), date_bin(interval '1 day', TIMESTAMPTZ '2024-01-05 10:00+00', TIMESTAMPTZ '2001-01-01'), date_bin(interval '10 minutes', TIMESTAMP '2024-01-01 00:00', TIMESTAMP '2024-01-01 00:00')
----
date_bin:timestamp | date_bin:timestamptz | date_bin:timestamp
2024-01-01 09:15:00 | 2024-01-05 00:00:00+00 | 2024-01-01 00:00:00
SELECT 1

SELECT date_bin(interval '1 month', TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-01')
----
ERROR 0A000: timestamps cannot be binned into intervals containing months or years

SELECT date_bin(interval '0 seconds', TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-01')
----
ERROR 22008: stride must be greater than zero

SELECT jsonb_insert('[1, 2, 3]', '{1}', '"x"', true), jsonb_insert('[1, 2, 3]', '{-1}', '0'), jsonb_insert('[1]', '{9}', '2'), jsonb_insert('[1]', '{-9}', '0'), jsonb_insert('{"a": {}}', '{a, b}', '1'), jsonb_insert('{"a": 1}', '{x, y}', '1')
----
jsonb_insert:jsonb | jsonb_insert:jsonb | jsonb_insert:jsonb | jsonb_insert:jsonb | jsonb_insert:jsonb | jsonb_insert:jsonb
"[1, 2, \"x\", 3]" | [1, 2, 0, 3] | [1, 2] | [0, 1] | "{\"a\": {\"b\": 1}}" | "{\"a\": 1}"
SELECT 1

SELECT jsonb_insert('{"a": 1}', '{a}', '2')
----
ERROR 22023: cannot replace existing key

SELECT x, count(*) FROM (VALUES ('1'::jsonb), ('1.0'), ('1.00'), ('[1]'), ('[1.0]'), ('{"a": 2}'), ('{"a": 2.0}')) v(x) GROUP BY x ORDER BY x
----
x:jsonb | count:int8
1 | 3
[1] | 2
"{\"a\": 2}" | 2
SELECT 3

SELECT x FROM (VALUES ('null'::jsonb), ('"a"'), ('1'), ('true'), ('[]'), ('{}'), ('[1, 2]'), ('[3]'), ('{"a": 1, "b": 2}'), ('{"b": 1}'), ('{"a": 1}'), ('"b"'), ('false'), ('-1'), ('[null]'), ('[[]]'), ('[{}]')) v(x) ORDER BY x
----
x:jsonb
[]
null
"\"a\""
"\"b\""
-1
1
false
true
[null]
[3]
[[]]
[{}]
[1, 2]
{}
"{\"a\": 1}"
"{\"b\": 1}"
"{\"a\": 1, \"b\": 2}"
SELECT 17

SELECT DISTINCT x FROM (VALUES ('1'::jsonb), ('1.0')) v(x)
----
x:jsonb
1
SELECT 1

# Zone names that are POSIX offsets count hours west of Greenwich, as in
# PostgreSQL ('+05:30' is UTC-05:30), in SET TimeZone, AT TIME ZONE,
# timezone() and date_trunc's zone; date_trunc takes a zone as a third
# argument.

SET TimeZone = '+05:30'
----
SET

SELECT timestamptz '2024-01-01 12:00+00' AS t, current_setting('TimeZone') AS z
----
t:timestamptz | z:text
2024-01-01 06:30:00-05:30 | +05:30
SELECT 1

SET TimeZone = 'UTC+3'
----
SET

SELECT timestamptz '2024-01-01 12:00+00' AS t
----
t:timestamptz
2024-01-01 09:00:00-03
SELECT 1

SET TimeZone = 'america/new_york'
----
SET

SELECT timestamptz '2024-07-01 12:00+00' AS t
----
t:timestamptz
2024-07-01 08:00:00-04
SELECT 1

SET TimeZone = 'UTC'
----
SET

SELECT timezone('+05:30', timestamptz '2024-01-01 12:00+00') AS a, timezone('EST5EDT', timestamptz '2024-07-01 12:00+00') AS b, timestamptz '2024-01-01 12:00+00' AT TIME ZONE 'UTC+3' AS c, timestamptz '2024-01-01 12:00+00' AT TIME ZONE 'ABC-2' AS d, timestamptz '2024-01-01 12:00+00' AT TIME ZONE 'UTC3' AS e, timestamp '2024-01-01 12:00' AT TIME ZONE '+02' AS f, timezone('XY+3', timestamptz '2024-01-01 12:00+00') AS g
----
a:timestamp | b:timestamp | c:timestamp | d:timestamp | e:timestamp | f:timestamptz | g:timestamp
2024-01-01 06:30:00 | 2024-07-01 08:00:00 | 2024-01-01 09:00:00 | 2024-01-01 14:00:00 | 2024-01-01 09:00:00 | 2024-01-01 14:00:00+00 | 2024-01-01 09:00:00
SELECT 1

SELECT date_trunc('day', timestamptz '2024-03-10 12:00+00', 'America/New_York') AS a, date_trunc('hour', timestamptz '2024-03-10 07:30+00', 'America/New_York') AS b, date_trunc('month', timestamptz '2024-03-01 02:00+00', 'Asia/Tokyo') AS c, date_trunc('day', timestamptz '2024-03-10 12:00+00', '+05:30') AS d, date_trunc('day', timestamptz '2024-03-10 12:00+00', 'UTC+3') AS e
----
a:timestamptz | b:timestamptz | c:timestamptz | d:timestamptz | e:timestamptz
2024-03-10 05:00:00+00 | 2024-03-10 07:00:00+00 | 2024-02-29 15:00:00+00 | 2024-03-10 05:30:00+00 | 2024-03-10 03:00:00+00
SELECT 1

SELECT date_trunc('day', timestamptz '2024-11-03 12:00+00', 'America/New_York') AS a, date_trunc('week', timestamptz '2024-01-01 00:30+00', 'Europe/Berlin') AS b, date_trunc('year', 'infinity'::timestamptz, 'UTC') AS c
----
a:timestamptz | b:timestamptz | c:timestamptz
2024-11-03 04:00:00+00 | 2023-12-31 23:00:00+00 | infinity
SELECT 1

SELECT date_trunc('day', timestamptz '2024-03-10 12:00+00', 'Mars/Olympus')
----
ERROR 22023: time zone "Mars/Olympus" not recognized

SELECT date_trunc('fortnight', timestamptz '2024-03-10 12:00+00', 'UTC')
----
ERROR 22023: unit "fortnight" not recognized for type timestamp with time zone

RESET TimeZone
----
RESET

# array_to_json and bit_length (they did not exist), arrays of rows in JSON,
# and json_agg's line break before each array or row after the first.

SELECT array_to_json(ARRAY[[1, 2], [3, 4]]), array_to_json(ARRAY['a', NULL]), array_to_json('{}'::int[]), array_to_json(ARRAY[1.50, 2]), array_to_json(ARRAY['{"a":1}'::jsonb]), array_to_json(NULL::int[])
----
array_to_json:json | array_to_json:json | array_to_json:json | array_to_json:json | array_to_json:json | array_to_json:json
[[1,2],[3,4]] | "[\"a\",null]" | [] | [1.50,2] | "[{\"a\": 1}]" | NULL
SELECT 1

SELECT array_to_json(ARRAY[true]), array_to_json(ARRAY[date '2024-01-01']), array_to_json(ARRAY[ROW(1, 'x')])
----
array_to_json:json | array_to_json:json | array_to_json:json
[true] | "[\"2024-01-01\"]" | "[{\"f1\":1,\"f2\":\"x\"}]"
SELECT 1

SELECT array_to_json(1)
----
ERROR 42883 at 8: function array_to_json(integer) does not exist

SELECT bit_length('abc'), bit_length('日本'), bit_length('\x0102'::bytea), bit_length(NULL::text), bit_length('ab'::char(4))
----
bit_length:int4 | bit_length:int4 | bit_length:int4 | bit_length:int4 | bit_length:int4
24 | 48 | 16 | NULL | 16
SELECT 1

SELECT to_json(ARRAY[ROW(1, 'x')]), jsonb_build_array(ARRAY[ROW(1, 'x')]), json_agg(ARRAY[ROW(x, 'y')]) FROM generate_series(1, 2) x
----
to_json:json | jsonb_build_array:jsonb | json_agg:json
"[{\"f1\":1,\"f2\":\"x\"}]" | "[[{\"f1\": 1, \"f2\": \"x\"}]]" | "[[{\"f1\":1,\"f2\":\"y\"}], \n [{\"f1\":2,\"f2\":\"y\"}]]"
SELECT 1

SELECT json_agg(x) FROM (VALUES (ARRAY[1]), (NULL), (ARRAY[2])) v(x)
----
json_agg:json
"[[1], null, \n [2]]"
SELECT 1

SELECT json_agg(x) FROM (VALUES (NULL::int[]), (ARRAY[2])) v(x)
----
json_agg:json
"[null, \n [2]]"
SELECT 1

SELECT json_agg(x), jsonb_agg(x) FROM (VALUES ('{"a":1}'::json), ('[2]')) v(x)
----
json_agg:json | jsonb_agg:jsonb
"[{\"a\":1}, [2]]" | "[{\"a\": 1}, [2]]"
SELECT 1

# to_char of an interval: each field carries its sign, as PostgreSQL's
# interval2tm splits it, and HH shows 12 for hour 0.

SELECT to_char(interval '-1 day -02:03:04', 'HH24:MI:SS'), to_char(interval '-02:03:04', 'HH:MI:SS'), to_char(interval '-1 year -2 months', 'YYYY-MM'), to_char(interval '-3 days', 'DD')
----
to_char:text | to_char:text | to_char:text | to_char:text
-02:-03:-04 | -02:-03:-04 | -0001--02 | -3
SELECT 1

SELECT to_char(interval '-02:03:04.5', 'HH24:MI:SS.MS'), to_char(interval '-02:03:04.5', 'US'), to_char(interval '2 hours -3 minutes', 'HH24:MI'), to_char(interval '00:30', 'HH:MI'), to_char(interval '13:00', 'HH12 HH')
----
to_char:text | to_char:text | to_char:text | to_char:text | to_char:text
-02:-03:-04.-500 | -500000 | 01:57 | 12:30 | 01 01
SELECT 1

SELECT to_char(interval '1 day 02:03:04', 'DD HH24:MI:SS'), to_char(interval '-02:03:04', 'FMHH24:FMMI:FMSS'), to_char(interval '14 months', 'YYYY MM YY Y'), to_char(interval '-5 days', 'FMDD'), to_char(interval '100:00', 'HH24')
----
to_char:text | to_char:text | to_char:text | to_char:text | to_char:text
01 02:03:04 | -2:-3:-4 | 0001 02 01 1 | -5 | 100
SELECT 1

SELECT to_char(interval '-0.5 seconds', 'SS.MS'), to_char(interval '0', 'HH24:MI:SS.US')
----
to_char:text | to_char:text
00.-500 | 00:00:00.000000
SELECT 1

# (s1, e1) OVERLAPS (s2, e2) (it was a syntax error).

SELECT (DATE '2024-01-01', DATE '2024-02-01') OVERLAPS (DATE '2024-01-15', DATE '2024-03-01') AS a, (DATE '2024-01-01', DATE '2024-02-01') OVERLAPS (DATE '2024-02-01', DATE '2024-03-01') AS b
----
a:bool | b:bool
t | f
SELECT 1

SELECT (TIMESTAMP '2024-01-01', INTERVAL '1 day') OVERLAPS (TIMESTAMP '2024-01-01 12:00', INTERVAL '1 hour') AS a, (DATE '2024-02-01', DATE '2024-01-01') OVERLAPS (DATE '2024-01-15', DATE '2024-01-16') AS b
----
a:bool | b:bool
t | t
SELECT 1

SELECT (TIMESTAMPTZ '2024-01-01 00:00+00', TIMESTAMPTZ '2024-01-02 00:00+00') OVERLAPS (TIMESTAMPTZ '2024-01-01 23:00+00', NULL) AS a, (DATE '2024-01-01', NULL) OVERLAPS (DATE '2024-01-01', DATE '2024-01-05') AS b, (NULL::date, NULL::date) OVERLAPS (DATE '2024-01-01', DATE '2024-01-02') AS c
----
a:bool | b:bool | c:bool
t | NULL | NULL
SELECT 1

SELECT (DATE '2024-01-05', NULL) OVERLAPS (DATE '2024-01-01', DATE '2024-01-03') AS a, (DATE '2024-01-01', DATE '2024-01-01') OVERLAPS (DATE '2024-01-01', DATE '2024-01-01') AS b, (TIME '10:00', TIME '11:00') OVERLAPS (TIME '10:30', TIME '12:00') AS c
----
a:bool | b:bool | c:bool
NULL | t | t
SELECT 1

SELECT x FROM (VALUES (1, DATE '2024-01-01', DATE '2024-01-10'), (2, DATE '2024-02-01', DATE '2024-02-10')) v(x, s, e) WHERE (s, e) OVERLAPS (DATE '2024-01-05', DATE '2024-01-06')
----
x:int4
1
SELECT 1

SELECT (1, 2) OVERLAPS (3, 4)
----
ERROR 42883 at 15: function pg_catalog.overlaps(integer, integer, integer, integer) does not exist

SELECT (DATE '2024-01-01', DATE '2024-01-02', DATE '2024-01-03') OVERLAPS (DATE '2024-01-01', DATE '2024-01-02')
----
ERROR 42601 at 8: wrong number of parameters on left side of OVERLAPS expression

SELECT (DATE '2024-01-01', DATE '2024-01-02') OVERLAPS DATE '2024-01-01'
----
ERROR 42601 at 56: syntax error at or near "DATE"

SELECT DATE '2024-01-01' OVERLAPS (DATE '2024-01-01', DATE '2024-01-02')
----
ERROR 42601 at 26: syntax error at or near "OVERLAPS"

SELECT 1 AS overlaps
----
overlaps:int4
1
SELECT 1

# A whole-row reference as an aggregate's argument: json_agg(t) (it was
# "column t does not exist").

SELECT json_agg(r) FROM (SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, 'y') r
----
json_agg:json
"[{\"a\":1,\"b\":\"x\"}, \n {\"a\":2,\"b\":\"y\"}]"
SELECT 1

SELECT jsonb_agg(r ORDER BY r.a DESC), count(r), array_agg(r) FROM (SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, 'y') r
----
jsonb_agg:jsonb | count:int8 | array_agg:_record
"[{\"a\": 2, \"b\": \"y\"}, {\"a\": 1, \"b\": \"x\"}]" | 2 | "{\"(1,x)\",\"(2,y)\"}"
SELECT 1

SELECT k, json_agg(t) FROM (VALUES (1, 'a'), (1, 'b'), (2, 'c')) t(k, v) GROUP BY k ORDER BY k
----
k:int4 | json_agg:json
1 | "[{\"k\":1,\"v\":\"a\"}, \n {\"k\":1,\"v\":\"b\"}]"
2 | "[{\"k\":2,\"v\":\"c\"}]"
SELECT 2

SELECT count(t) FROM (VALUES (NULL::int)) t(x)
----
count:int8
1
SELECT 1

# jsonb #- with an empty path deletes nothing (found by fuzzing: an internal
# error), and a scalar has no path to delete.

SELECT '{}'::jsonb #- '{}', '{"a":1}'::jsonb #- '{}', '[1,2]'::jsonb #- '{}', '{"a":{"b":1}}'::jsonb #- '{a,b}', '[1,[2,3]]'::jsonb #- '{1,0}', '{"a":1}'::jsonb #- '{x,y}'
----
?column?:jsonb | ?column?:jsonb | ?column?:jsonb | ?column?:jsonb | ?column?:jsonb | ?column?:jsonb
{} | "{\"a\": 1}" | [1, 2] | "{\"a\": {}}" | [1, [3]] | "{\"a\": 1}"
SELECT 1

SELECT '1'::jsonb #- '{}'
----
ERROR 22023: cannot delete path in scalar

SELECT '1'::jsonb #- '{a}'
----
ERROR 22023: cannot delete path in scalar

SELECT '"s"'::jsonb #- '{}'
----
ERROR 22023: cannot delete path in scalar

SELECT '{"a":[1]}'::jsonb #- '{a,x}'
----
ERROR 22P02: path element at position 2 is not an integer: "x"

SELECT '{"a":1}'::jsonb #- ARRAY[NULL]
----
ERROR 22004: path element at position 1 is null

# to_char's TM prefix prints the month and day names (the C locale's, so
# English) unpadded, in the keyword's case; one prefix per keyword, so
# FMTMMonth is a literal T, the month number and onth, as in PostgreSQL.
SELECT to_char(TIMESTAMP '2024-03-05 10:00', 'TMMonth|TMMONTH|TMmonth|TMMon|TMMON|tmmon|TMDay|TMDAY|TMday|TMDy|TMDY|tmdy|FMMonth|Month|TMDD|TMFMMonth|FMTMMonth')
----
to_char:text
"March|MARCH|march|Mar|MAR|mar|Tuesday|TUESDAY|tuesday|Tue|TUE|tue|March|March    |05|F03onth|T03onth"
SELECT 1

# A prefix no keyword follows is dropped; a backslash is literal unless a
# double quote follows; SP is read and ignored; TH follows the digits printed.
SELECT to_char(TIMESTAMP '2024-03-01 10:11:12.345678', '\YYYY|\"YYYY|FM-DD|DDSP|DDth|FMDDth|FF1 FF3 FF6|TZH:TZM OF|CCth|IDDD IW')
----
to_char:text
"\\2024|\"2024|-01|01|01st|1st|3 345 345678|+00:00 +00|21st|061 09"
SELECT 1

SELECT to_char(TIMESTAMP '0044-03-15 10:11:12 BC', 'YYYY Y,YYY CC BC b.c. RM'), to_char(interval '-1 year -2 mons -3 days -04:05:06.789', 'Y,YYY MM DDD WW HH12 SSSS RM FF2')
----
to_char:text | to_char:text
"0044 0,044 -01 BC b.c. III " | 0,-01 -02 -423 -59 -04 -14706 XI   -78
SELECT 1

SELECT to_char(interval '1 day', 'TMMonth')
----
ERROR 22007: invalid format specification for an interval value
