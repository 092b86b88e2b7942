# Window functions: ranking, offsets, first/last value, aggregates over frames.

CREATE TABLE scores (id int PRIMARY KEY, team text, player text, pts int)

INSERT INTO scores VALUES (1, 'red', 'a', 10), (2, 'red', 'b', 20), (3, 'red', 'c', 20), (4, 'blue', 'd', 5), (5, 'blue', 'e', NULL), (6, 'blue', 'f', 15), (7, 'green', 'g', 7)

SELECT id, row_number() OVER (ORDER BY id) FROM scores ORDER BY id

SELECT player, row_number() OVER (PARTITION BY team ORDER BY pts DESC, player) AS rn FROM scores ORDER BY team, rn

SELECT player, pts, rank() OVER w, dense_rank() OVER w FROM scores WINDOW w AS (ORDER BY pts DESC NULLS LAST) ORDER BY pts DESC NULLS LAST, player

SELECT player, pts, rank() OVER (PARTITION BY team ORDER BY pts) AS r FROM scores ORDER BY team, r, player

SELECT player, lag(pts) OVER (ORDER BY id) AS prev, lead(pts) OVER (ORDER BY id) AS next FROM scores ORDER BY id

SELECT player, lag(pts, 2, -1) OVER (ORDER BY id) AS prev2, lead(player, 1, 'none') OVER (PARTITION BY team ORDER BY id) AS nxt FROM scores ORDER BY id

SELECT player, first_value(player) OVER (PARTITION BY team ORDER BY pts DESC NULLS LAST) AS best FROM scores ORDER BY id

SELECT player, last_value(player) OVER (PARTITION BY team ORDER BY id) AS last_so_far FROM scores ORDER BY id

SELECT player, last_value(player) OVER (PARTITION BY team ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last FROM scores ORDER BY id

SELECT id, sum(pts) OVER (ORDER BY id) AS running FROM scores ORDER BY id

SELECT id, sum(pts) OVER (ORDER BY pts) AS peers FROM scores ORDER BY id

SELECT id, sum(pts) OVER () AS total, count(*) OVER () AS n FROM scores ORDER BY id

SELECT id, team, sum(pts) OVER (PARTITION BY team) AS team_total FROM scores ORDER BY id

SELECT id, avg(pts) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS moving FROM scores ORDER BY id

SELECT id, sum(pts) OVER (ORDER BY id ROWS 2 PRECEDING) AS last3 FROM scores ORDER BY id

SELECT id, count(pts) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS rest FROM scores ORDER BY id

SELECT id, max(pts) OVER (PARTITION BY team ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS best_so_far FROM scores ORDER BY id

SELECT id, sum(pts) OVER (ORDER BY pts RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS r FROM scores ORDER BY id

SELECT id, sum(pts) OVER (ORDER BY pts RANGE BETWEEN 5 PRECEDING AND 5 FOLLOWING) AS near FROM scores ORDER BY id

SELECT id, array_agg(id) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) AS ahead FROM scores ORDER BY id

SELECT id, ntile(3) OVER (ORDER BY id) AS tile, percent_rank() OVER (ORDER BY id) AS pr, cume_dist() OVER (ORDER BY id) AS cd FROM scores ORDER BY id

SELECT id, nth_value(player, 2) OVER (ORDER BY id) AS second FROM scores ORDER BY id

SELECT team, sum(pts), rank() OVER (ORDER BY sum(pts) DESC NULLS LAST) FROM scores GROUP BY team ORDER BY 3, 1

SELECT team, count(*) OVER (PARTITION BY team) AS n FROM scores GROUP BY team, id ORDER BY team

SELECT player FROM (SELECT player, row_number() OVER (PARTITION BY team ORDER BY pts DESC NULLS LAST) AS rn FROM scores) s WHERE rn = 1 ORDER BY player

SELECT id, row_number() OVER (ORDER BY id DESC) AS rn FROM scores ORDER BY rn LIMIT 3

SELECT id, pts - lag(pts) OVER (PARTITION BY team ORDER BY id) AS delta FROM scores ORDER BY id

SELECT id, sum(pts) FILTER (WHERE pts > 10) OVER (ORDER BY id) AS big FROM scores ORDER BY id

SELECT row_number() OVER (ORDER BY id) + 100 AS n, id FROM scores ORDER BY id

SELECT id, first_value(id) OVER w, last_value(id) OVER w FROM scores WINDOW w AS (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) ORDER BY id

SELECT id, rank() OVER (ORDER BY team) FROM scores ORDER BY id

SELECT id, sum(pts) OVER (PARTITION BY team ORDER BY id GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) AS g FROM scores ORDER BY id

SELECT id FROM scores WHERE row_number() OVER (ORDER BY id) = 1

SELECT row_number() FROM scores

SELECT id, lag(pts) OVER () IS NULL AS first FROM scores WHERE id = 1

SELECT id, count(*) OVER (ORDER BY id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM scores ORDER BY id

SELECT rank(1) OVER (ORDER BY id) FROM scores

SELECT sum(sum(pts)) OVER () AS grand, team FROM scores GROUP BY team ORDER BY team
