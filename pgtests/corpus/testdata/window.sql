# Window functions: ranking, offsets, first/last value, aggregates over frames.

CREATE TABLE scores (id int PRIMARY KEY, team text, player text, pts int)
----
CREATE TABLE

INSERT INTO scores VALUES (1, 'red', 'a', 10), (2, 'red', 'b', 20), (3, 'red', 'c', 20), (4, 'blue', 'd', 5), (5, 'blue', 'e', NULL), (6, 'blue', 'f', 15), (7, 'green', 'g', 7)
----
INSERT 0 7

SELECT id, row_number() OVER (ORDER BY id) FROM scores ORDER BY id
----
id:int4 | row_number:int8
1 | 1
2 | 2
3 | 3
4 | 4
5 | 5
6 | 6
7 | 7
SELECT 7

SELECT player, row_number() OVER (PARTITION BY team ORDER BY pts DESC, player) AS rn FROM scores ORDER BY team, rn
----
player:text | rn:int8
e | 1
f | 2
d | 3
g | 1
b | 1
c | 2
a | 3
SELECT 7

SELECT player, pts, rank() OVER w, dense_rank() OVER w FROM scores WINDOW w AS (ORDER BY pts DESC NULLS LAST) ORDER BY pts DESC NULLS LAST, player
----
player:text | pts:int4 | rank:int8 | dense_rank:int8
b | 20 | 1 | 1
c | 20 | 1 | 1
f | 15 | 3 | 2
a | 10 | 4 | 3
g | 7 | 5 | 4
d | 5 | 6 | 5
e | NULL | 7 | 6
SELECT 7

SELECT player, pts, rank() OVER (PARTITION BY team ORDER BY pts) AS r FROM scores ORDER BY team, r, player
----
player:text | pts:int4 | r:int8
d | 5 | 1
f | 15 | 2
e | NULL | 3
g | 7 | 1
a | 10 | 1
b | 20 | 2
c | 20 | 2
SELECT 7

SELECT player, lag(pts) OVER (ORDER BY id) AS prev, lead(pts) OVER (ORDER BY id) AS next FROM scores ORDER BY id
----
player:text | prev:int4 | next:int4
a | NULL | 20
b | 10 | 20
c | 20 | 5
d | 20 | NULL
e | 5 | 15
f | NULL | 7
g | 15 | NULL
SELECT 7

SELECT player, lag(pts, 2, -1) OVER (ORDER BY id) AS prev2, lead(player, 1, 'none') OVER (PARTITION BY team ORDER BY id) AS nxt FROM scores ORDER BY id
----
player:text | prev2:int4 | nxt:text
a | -1 | b
b | -1 | c
c | 10 | none
d | 20 | e
e | 20 | f
f | 5 | none
g | NULL | none
SELECT 7

SELECT player, first_value(player) OVER (PARTITION BY team ORDER BY pts DESC NULLS LAST, player) AS best FROM scores ORDER BY id
----
player:text | best:text
a | b
b | b
c | b
d | f
e | f
f | f
g | g
SELECT 7

SELECT player, last_value(player) OVER (PARTITION BY team ORDER BY id) AS last_so_far FROM scores ORDER BY id
----
player:text | last_so_far:text
a | a
b | b
c | c
d | d
e | e
f | f
g | g
SELECT 7

SELECT player, last_value(player) OVER (PARTITION BY team ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last FROM scores ORDER BY id
----
player:text | last:text
a | c
b | c
c | c
d | f
e | f
f | f
g | g
SELECT 7

SELECT id, sum(pts) OVER (ORDER BY id) AS running FROM scores ORDER BY id
----
id:int4 | running:int8
1 | 10
2 | 30
3 | 50
4 | 55
5 | 55
6 | 70
7 | 77
SELECT 7

SELECT id, sum(pts) OVER (ORDER BY pts) AS peers FROM scores ORDER BY id
----
id:int4 | peers:int8
1 | 22
2 | 77
3 | 77
4 | 5
5 | 77
6 | 37
7 | 12
SELECT 7

SELECT id, sum(pts) OVER () AS total, count(*) OVER () AS n FROM scores ORDER BY id
----
id:int4 | total:int8 | n:int8
1 | 77 | 7
2 | 77 | 7
3 | 77 | 7
4 | 77 | 7
5 | 77 | 7
6 | 77 | 7
7 | 77 | 7
SELECT 7

SELECT id, team, sum(pts) OVER (PARTITION BY team) AS team_total FROM scores ORDER BY id
----
id:int4 | team:text | team_total:int8
1 | red | 50
2 | red | 50
3 | red | 50
4 | blue | 20
5 | blue | 20
6 | blue | 20
7 | green | 7
SELECT 7

SELECT id, avg(pts) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS moving FROM scores ORDER BY id
----
id:int4 | moving:numeric
1 | 15.0000000000000000
2 | 16.6666666666666667
3 | 15.0000000000000000
4 | 12.5000000000000000
5 | 10.0000000000000000
6 | 11.0000000000000000
7 | 11.0000000000000000
SELECT 7

SELECT id, sum(pts) OVER (ORDER BY id ROWS 2 PRECEDING) AS last3 FROM scores ORDER BY id
----
id:int4 | last3:int8
1 | 10
2 | 30
3 | 50
4 | 45
5 | 25
6 | 20
7 | 22
SELECT 7

SELECT id, count(pts) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS rest FROM scores ORDER BY id
----
id:int4 | rest:int8
1 | 6
2 | 5
3 | 4
4 | 3
5 | 2
6 | 2
7 | 1
SELECT 7

SELECT id, max(pts) OVER (PARTITION BY team ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS best_so_far FROM scores ORDER BY id
----
id:int4 | best_so_far:int4
1 | 10
2 | 20
3 | 20
4 | 5
5 | 5
6 | 15
7 | 7
SELECT 7

SELECT id, sum(pts) OVER (ORDER BY pts RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS r FROM scores ORDER BY id
----
id:int4 | r:int8
1 | 22
2 | 77
3 | 77
4 | 5
5 | 77
6 | 37
7 | 12
SELECT 7

SELECT id, sum(pts) OVER (ORDER BY pts RANGE BETWEEN 5 PRECEDING AND 5 FOLLOWING) AS near FROM scores ORDER BY id
----
id:int4 | near:int8
1 | 37
2 | 55
3 | 55
4 | 22
5 | NULL
6 | 65
7 | 22
SELECT 7

SELECT id, array_agg(id) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) AS ahead FROM scores ORDER BY id
----
id:int4 | ahead:_int4
1 | {2,3}
2 | {3,4}
3 | {4,5}
4 | {5,6}
5 | {6,7}
6 | {7}
7 | NULL
SELECT 7

SELECT id, ntile(3) OVER (ORDER BY id) AS tile, percent_rank() OVER (ORDER BY id) AS pr, cume_dist() OVER (ORDER BY id) AS cd FROM scores ORDER BY id
----
id:int4 | tile:int4 | pr:float8 | cd:float8
1 | 1 | 0 | 0.14285714285714285
2 | 1 | 0.16666666666666666 | 0.2857142857142857
3 | 1 | 0.3333333333333333 | 0.42857142857142855
4 | 2 | 0.5 | 0.5714285714285714
5 | 2 | 0.6666666666666666 | 0.7142857142857143
6 | 3 | 0.8333333333333334 | 0.8571428571428571
7 | 3 | 1 | 1
SELECT 7

SELECT id, nth_value(player, 2) OVER (ORDER BY id) AS second FROM scores ORDER BY id
----
id:int4 | second:text
1 | NULL
2 | b
3 | b
4 | b
5 | b
6 | b
7 | b
SELECT 7

SELECT team, sum(pts), rank() OVER (ORDER BY sum(pts) DESC NULLS LAST) FROM scores GROUP BY team ORDER BY 3, 1
----
team:text | sum:int8 | rank:int8
red | 50 | 1
blue | 20 | 2
green | 7 | 3
SELECT 3

SELECT team, count(*) OVER (PARTITION BY team) AS n FROM scores GROUP BY team, id ORDER BY team
----
team:text | n:int8
blue | 3
blue | 3
blue | 3
green | 1
red | 3
red | 3
red | 3
SELECT 7

SELECT player FROM (SELECT player, row_number() OVER (PARTITION BY team ORDER BY pts DESC NULLS LAST, player DESC) AS rn FROM scores) s WHERE rn = 1 ORDER BY player
----
player:text
c
f
g
SELECT 3

SELECT id, row_number() OVER (ORDER BY id DESC) AS rn FROM scores ORDER BY rn LIMIT 3
----
id:int4 | rn:int8
7 | 1
6 | 2
5 | 3
SELECT 3

SELECT id, pts - lag(pts) OVER (PARTITION BY team ORDER BY id) AS delta FROM scores ORDER BY id
----
id:int4 | delta:int4
1 | NULL
2 | 10
3 | 0
4 | NULL
5 | NULL
6 | NULL
7 | NULL
SELECT 7

SELECT id, sum(pts) FILTER (WHERE pts > 10) OVER (ORDER BY id) AS big FROM scores ORDER BY id
----
id:int4 | big:int8
1 | NULL
2 | 20
3 | 40
4 | 40
5 | 40
6 | 55
7 | 55
SELECT 7

SELECT row_number() OVER (ORDER BY id) + 100 AS n, id FROM scores ORDER BY id
----
n:int8 | id:int4
101 | 1
102 | 2
103 | 3
104 | 4
105 | 5
106 | 6
107 | 7
SELECT 7

SELECT id, first_value(id) OVER w, last_value(id) OVER w FROM scores WINDOW w AS (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) ORDER BY id
----
id:int4 | first_value:int4 | last_value:int4
1 | 1 | 2
2 | 1 | 3
3 | 2 | 4
4 | 3 | 5
5 | 4 | 6
6 | 5 | 7
7 | 6 | 7
SELECT 7

SELECT id, rank() OVER (ORDER BY team) FROM scores ORDER BY id
----
id:int4 | rank:int8
1 | 5
2 | 5
3 | 5
4 | 1
5 | 1
6 | 1
7 | 4
SELECT 7

SELECT id, sum(pts) OVER (PARTITION BY team ORDER BY id GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) AS g FROM scores ORDER BY id
----
id:int4 | g:int8
1 | 10
2 | 30
3 | 40
4 | 5
5 | 5
6 | 15
7 | 7
SELECT 7

SELECT id FROM scores WHERE row_number() OVER (ORDER BY id) = 1
----
ERROR 42P20 at 29: window functions are not allowed in WHERE

SELECT row_number() FROM scores
----
ERROR 42809 at 8: window function row_number requires an OVER clause

SELECT id, lag(pts) OVER () IS NULL AS first FROM scores WHERE id = 1
----
id:int4 | first:bool
1 | t
SELECT 1

SELECT id, count(*) OVER (ORDER BY id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM scores ORDER BY id
----
id:int4 | count:int8
1 | 1
2 | 2
3 | 2
4 | 2
5 | 2
6 | 2
7 | 2
SELECT 7

SELECT ntile() OVER (ORDER BY id) FROM scores
----
ERROR 42883 at 8: function ntile() does not exist

SELECT sum(sum(pts)) OVER () AS grand, team FROM scores GROUP BY team ORDER BY team
----
grand:numeric | team:text
77 | blue
77 | green
77 | red
SELECT 3

SELECT id, ntile(0) OVER (ORDER BY id) FROM scores
----
ERROR 22014: argument of ntile must be greater than zero

SELECT id, nth_value(id, 0) OVER (ORDER BY id) FROM scores
----
ERROR 22016: argument of nth_value must be greater than zero

SELECT id, sum(pts) OVER (ORDER BY id ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) FROM scores
----
ERROR 22013: frame starting offset must not be negative

SELECT id, sum(pts) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) FROM scores
----
ERROR 42P20 at 68: frame starting from current row cannot have preceding rows

SELECT id, sum(pts) OVER (ORDER BY id GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) AS others FROM scores ORDER BY id
----
id:int4 | others:int8
1 | 20
2 | 30
3 | 25
4 | 20
5 | 20
6 | 7
7 | 15
SELECT 7

SELECT id, count(*) OVER (ORDER BY pts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE TIES) FROM scores ORDER BY id
----
id:int4 | count:int8
1 | 3
2 | 5
3 | 5
4 | 1
5 | 7
6 | 4
7 | 2
SELECT 7

SELECT id, sum(pts) OVER (ORDER BY pts GROUPS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING EXCLUDE GROUP) AS above FROM scores ORDER BY id
----
id:int4 | above:int8
1 | 55
2 | NULL
3 | NULL
4 | 72
5 | NULL
6 | 40
7 | 65
SELECT 7

SELECT id, sum(pts) OVER (PARTITION BY team) FROM scores WINDOW w AS (ORDER BY id) ORDER BY id
----
id:int4 | sum:int8
1 | 50
2 | 50
3 | 50
4 | 20
5 | 20
6 | 20
7 | 7
SELECT 7

SELECT id, sum(pts) OVER w FROM scores ORDER BY id
----
ERROR 42704 at 26: window "w" does not exist

SELECT id, sum(pts) OVER (w ORDER BY id) FROM scores WINDOW w AS (PARTITION BY team) ORDER BY id
----
id:int4 | sum:int8
1 | 10
2 | 30
3 | 50
4 | 5
5 | 5
6 | 20
7 | 7
SELECT 7

SELECT id, lower(player) OVER () FROM scores
----
ERROR 42809 at 12: OVER specified, but lower is not a window function nor an aggregate function

SELECT id, sum(pts) OVER (ORDER BY player RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM scores
----
ERROR 0A000 at 57: RANGE with offset PRECEDING/FOLLOWING is not supported for column type text

SELECT DISTINCT team, count(*) OVER (PARTITION BY team) FROM scores ORDER BY team
----
team:text | count:int8
blue | 3
green | 1
red | 3
SELECT 3

SELECT id, percent_rank() OVER (PARTITION BY team ORDER BY pts) AS pr, cume_dist() OVER (PARTITION BY team ORDER BY pts) AS cd FROM scores ORDER BY id
----
id:int4 | pr:float8 | cd:float8
1 | 0 | 0.3333333333333333
2 | 0.5 | 1
3 | 0.5 | 1
4 | 0 | 0.3333333333333333
5 | 1 | 1
6 | 0.5 | 0.6666666666666666
7 | 0 | 1
SELECT 7

SELECT d, count(*) OVER (ORDER BY d RANGE BETWEEN interval '1 day' PRECEDING AND CURRENT ROW) FROM (VALUES (DATE '2024-01-01'), (DATE '2024-01-02'), (DATE '2024-01-04')) v(d) ORDER BY d
----
d:date | count:int8
2024-01-01 | 1
2024-01-02 | 2
2024-01-04 | 1
SELECT 3

SELECT id, sum(pts) OVER w2 AS s, rank() OVER w2 AS r FROM scores WINDOW w1 AS (PARTITION BY team), w2 AS (w1 ORDER BY id) ORDER BY id
----
id:int4 | s:int8 | r:int8
1 | 10 | 1
2 | 30 | 2
3 | 50 | 3
4 | 5 | 1
5 | 5 | 2
6 | 20 | 3
7 | 7 | 1
SELECT 7

SELECT id, sum(pts) OVER (w2 ROWS 1 PRECEDING) AS s FROM scores WINDOW w1 AS (PARTITION BY team), w2 AS (w1 ORDER BY id) ORDER BY id
----
id:int4 | s:int8
1 | 10
2 | 30
3 | 40
4 | 5
5 | 5
6 | 15
7 | 7
SELECT 7

SELECT ntile('a') OVER ()
----
ERROR 22P02 at 14: invalid input syntax for type integer: "a"

SELECT lag(1, 'a') OVER ()
----
ERROR 22P02 at 15: invalid input syntax for type integer: "a"

SELECT nth_value(1, 1.5) OVER ()
----
ERROR 42883 at 8: function nth_value(integer, numeric) does not exist

SELECT lag('a') OVER ()
----
ERROR 42804: could not determine polymorphic type because input has type unknown

SELECT nth_value('a', 1) OVER ()
----
ERROR 42804: could not determine polymorphic type because input has type unknown

SELECT lag('a', 1, 2) OVER ()
----
ERROR 22P02 at 12: invalid input syntax for type integer: "a"

SELECT max('a') OVER ()
----
max:text
a
SELECT 1

SELECT x, ntile(3) OVER (ORDER BY x), percent_rank() OVER (ORDER BY x), cume_dist() OVER (ORDER BY x) FROM generate_series(1, 7) x ORDER BY x
----
x:int4 | ntile:int4 | percent_rank:float8 | cume_dist:float8
1 | 1 | 0 | 0.14285714285714285
2 | 1 | 0.16666666666666666 | 0.2857142857142857
3 | 1 | 0.3333333333333333 | 0.42857142857142855
4 | 2 | 0.5 | 0.5714285714285714
5 | 2 | 0.6666666666666666 | 0.7142857142857143
6 | 3 | 0.8333333333333334 | 0.8571428571428571
7 | 3 | 1 | 1
SELECT 7

SELECT x, lag(x, 2, -1) OVER w, lead(x, -1) OVER w, nth_value(x, 2) OVER w FROM generate_series(1, 4) x WINDOW w AS (ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) ORDER BY x
----
x:int4 | lag:int4 | lead:int4 | nth_value:int4
1 | -1 | NULL | 2
2 | -1 | 1 | 2
3 | 1 | 2 | 2
4 | 2 | 3 | 2
SELECT 4

SELECT x, lag(x, NULL) OVER (ORDER BY x), ntile(NULL) OVER (ORDER BY x) FROM generate_series(1, 2) x ORDER BY x
----
x:int4 | lag:int4 | ntile:int4
1 | NULL | NULL
2 | NULL | NULL
SELECT 2

SELECT x, first_value(x) OVER w, last_value(x) OVER w FROM generate_series(1, 4) x WINDOW w AS (ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) ORDER BY x
----
x:int4 | first_value:int4 | last_value:int4
1 | 2 | 2
2 | 1 | 3
3 | 2 | 4
4 | 3 | 3
SELECT 4

SELECT lag(1.5, 1, 2) OVER ()
----
lag:numeric
2
SELECT 1

SELECT lag('a', 1, 'b') OVER ()
----
lag:text
b
SELECT 1

SELECT count(*) OVER (), sum(x) OVER (ORDER BY x) FROM generate_series(1, 3) x ORDER BY x
----
count:int8 | sum:int8
3 | 1
3 | 3
3 | 6
SELECT 3

SELECT string_agg(x::text, ',') FILTER (WHERE x > 1) OVER (ORDER BY x) FROM generate_series(1, 3) x ORDER BY x
----
string_agg:text
NULL
2
2,3
SELECT 3
