# GROUP BY, HAVING, aggregates with DISTINCT, ORDER BY and FILTER.

CREATE TABLE sales (id int PRIMARY KEY, region text, product text, qty int, price numeric(8,2), sold date, ok boolean)

INSERT INTO sales VALUES (1, 'north', 'apple', 10, 1.50, '2024-01-05', true), (2, 'north', 'pear', 5, 2.00, '2024-01-20', true), (3, 'south', 'apple', 7, 1.40, '2024-02-02', false), (4, 'south', 'apple', 3, 1.60, '2024-02-10', true), (5, 'east', 'plum', NULL, 3.00, '2024-03-01', NULL), (6, 'north', 'apple', 2, 1.50, '2024-03-15', true)

SELECT region, count(*), sum(qty), avg(qty), min(price), max(price) FROM sales GROUP BY region ORDER BY region

SELECT count(*), count(qty), sum(qty), avg(qty)::numeric(10,4) AS avg4, sum(price), avg(price) FROM sales

SELECT sum(qty) FROM sales WHERE false

SELECT count(*) FROM sales WHERE false

SELECT region FROM sales GROUP BY region HAVING sum(qty) > 10 ORDER BY region

SELECT region, sum(qty * price) AS revenue FROM sales GROUP BY region HAVING count(*) > 1 ORDER BY revenue DESC

SELECT product, count(DISTINCT region) AS regions FROM sales GROUP BY product ORDER BY product

SELECT string_agg(product, ',' ORDER BY product) AS ps, string_agg(DISTINCT product, ';' ORDER BY product) AS dps FROM sales

SELECT region, string_agg(product, '+' ORDER BY id DESC) FROM sales GROUP BY region ORDER BY region

SELECT array_agg(id ORDER BY id DESC) AS ids, array_agg(DISTINCT region ORDER BY region) AS regions FROM sales

SELECT array_agg(qty ORDER BY id) FROM sales

SELECT count(*) FILTER (WHERE ok) AS good, count(*) FILTER (WHERE NOT ok) AS bad, sum(qty) FILTER (WHERE region = 'north') AS north FROM sales

SELECT bool_and(ok) AS all_ok, bool_or(ok) AS any_ok, every(qty > 1) AS e FROM sales

SELECT region, bool_and(ok) FROM sales GROUP BY region ORDER BY region

SELECT extract(month FROM sold) AS m, count(*) FROM sales GROUP BY 1 ORDER BY 1

SELECT date_trunc('month', sold) AS month, sum(qty) FROM sales GROUP BY date_trunc('month', sold) ORDER BY month

SELECT region AS r, count(*) FROM sales GROUP BY r ORDER BY r

SELECT region, product, sum(qty) FROM sales GROUP BY region, product ORDER BY region, product

SELECT qty % 2 AS parity, count(*) FROM sales GROUP BY qty % 2 ORDER BY parity NULLS LAST

SELECT count(*) AS n FROM sales HAVING count(*) > 100

SELECT 1 AS one FROM sales HAVING sum(qty) > 0

SELECT max(region), min(sold), max(ok::int) FROM sales

SELECT sum(price * qty)::numeric(10,2), avg(price)::numeric(6,3) FROM sales WHERE ok

SELECT avg(x) FROM (VALUES (1), (2), (2)) v(x)

SELECT sum(x), avg(x) FROM (VALUES (1.5::float8), (2.25)) v(x)

SELECT sum(x) FROM (VALUES (9223372036854775807::bigint), (1)) v(x)

SELECT sum(x), avg(x) FROM (VALUES (interval '1 hour'), (interval '3 hours')) v(x)

SELECT stddev(qty)::numeric(10,4) AS sd, variance(qty)::numeric(10,4) AS var FROM sales

SELECT json_agg(id ORDER BY id) AS j, jsonb_agg(region ORDER BY id) FILTER (WHERE id < 3) AS jb FROM sales

SELECT json_object_agg(product, qty ORDER BY product) FROM sales WHERE region = 'north' AND id < 3

SELECT sum(DISTINCT qty) AS sd, count(DISTINCT (region, product)) AS pairs FROM sales

SELECT region, count(*) FROM sales GROUP BY region HAVING region > 'm' ORDER BY 1

SELECT count(*) + 1 AS c, sum(qty) / count(qty) AS avg_int FROM sales

SELECT region, max(qty) - min(qty) AS spread FROM sales GROUP BY region ORDER BY spread DESC NULLS LAST, region

SELECT sum(qty) OVER () FROM sales WHERE false

SELECT product FROM sales GROUP BY product ORDER BY count(*) DESC, product

SELECT region, product FROM sales GROUP BY region

SELECT sum(count(*)) FROM sales

SELECT sum('a') FROM sales

SELECT string_agg(id, ',') FROM sales

SELECT count(*) FROM sales GROUP BY ()

SELECT avg(DISTINCT qty)::numeric(10,3), min(DISTINCT region) FROM sales

SELECT region, array_agg(qty ORDER BY qty NULLS FIRST) FROM sales GROUP BY region ORDER BY region
