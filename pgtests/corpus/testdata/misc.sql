# Everyday application queries.

CREATE TABLE orders (id serial PRIMARY KEY, customer text NOT NULL, total numeric(10,2) NOT NULL CHECK (total >= 0), status text NOT NULL DEFAULT 'new', placed date NOT NULL, note text)
----
CREATE TABLE

INSERT INTO orders (customer, total, status, placed) VALUES ('ann', 10.50, 'paid', '2024-01-03'), ('bob', 99.99, 'new', '2024-01-04'), ('ann', 5.00, 'paid', '2024-02-10'), ('cy', 0, 'void', '2024-02-11'), ('bob', 42.10, 'paid', '2024-03-01')
----
INSERT 0 5

SELECT customer, count(*) AS n, sum(total) AS spent, round(avg(total), 2) AS avg_total FROM orders WHERE status <> 'void' GROUP BY customer ORDER BY spent DESC
----
customer:text | n:int8 | spent:numeric | avg_total:numeric
bob | 2 | 142.09 | 71.05
ann | 2 | 15.50 | 7.75
SELECT 2

SELECT date_trunc('month', placed)::date AS month, count(*) FILTER (WHERE status = 'paid') AS paid, coalesce(sum(total) FILTER (WHERE status = 'paid'), 0) AS revenue FROM orders GROUP BY 1 ORDER BY 1
----
month:date | paid:int8 | revenue:numeric
2024-01-01 | 1 | 10.50
2024-02-01 | 1 | 5.00
2024-03-01 | 1 | 42.10
SELECT 3

SELECT id, customer, total, sum(total) OVER (PARTITION BY customer ORDER BY placed) AS running, total * 100 / sum(total) OVER () AS pct FROM orders ORDER BY id
----
id:int4 | customer:text | total:numeric | running:numeric | pct:numeric
1 | ann | 10.50 | 10.50 | 6.6628593184846754
2 | bob | 99.99 | 99.99 | 63.4494574528840662
3 | ann | 5.00 | 15.50 | 3.1727901516593692
4 | cy | 0.00 | 0.00 | 0.00000000000000000000
5 | bob | 42.10 | 142.09 | 26.7148930769718891
SELECT 5

SELECT CASE WHEN total >= 50 THEN 'big' WHEN total > 0 THEN 'small' ELSE 'zero' END AS size, count(*) FROM orders GROUP BY 1 ORDER BY 1
----
size:text | count:int8
big | 1
small | 3
zero | 1
SELECT 3

UPDATE orders SET status = 'shipped', note = 'sent ' || to_char(placed, 'Mon DD') WHERE status = 'paid' AND placed < '2024-03-01' RETURNING id, status, note
----
id:int4 | status:text | note:text
1 | shipped | sent Jan 03
3 | shipped | sent Feb 10
UPDATE 2

DELETE FROM orders WHERE status = 'void' RETURNING *
----
id:int4 | customer:text | total:numeric | status:text | placed:date | note:text
4 | cy | 0.00 | void | 2024-02-11 | NULL
DELETE 1

INSERT INTO orders (id, customer, total, placed) VALUES (2, 'bob', 1, '2024-04-01') ON CONFLICT ON CONSTRAINT orders_pkey DO UPDATE SET total = orders.total + EXCLUDED.total RETURNING id, total
----
id:int4 | total:numeric
2 | 100.99
INSERT 0 1

INSERT INTO orders (customer, total, placed) VALUES ('dee', -1, '2024-04-02')
----
ERROR 23514: new row for relation "orders" violates check constraint "orders_total_check"

UPDATE orders SET total = (SELECT max(total) FROM orders) WHERE customer = 'ann' AND placed = '2024-01-03' RETURNING total
----
total:numeric
100.99
UPDATE 1

SELECT customer, string_agg(status, ', ' ORDER BY placed DESC) AS statuses, array_agg(note ORDER BY id) AS notes FROM orders GROUP BY customer ORDER BY customer
----
customer:text | statuses:text | notes:_text
ann | shipped, shipped | "{\"sent Jan 03\",\"sent Feb 10\"}"
bob | paid, new | {NULL,NULL}
SELECT 2

SELECT DISTINCT ON (customer) customer, placed, total FROM orders ORDER BY customer, placed DESC
----
customer:text | placed:date | total:numeric
ann | 2024-02-10 | 5.00
bob | 2024-03-01 | 42.10
SELECT 2

SELECT o.customer, o.total FROM orders o WHERE o.total > (SELECT avg(total) FROM orders i WHERE i.customer = o.customer) ORDER BY 1
----
customer:text | total:numeric
ann | 100.99
bob | 100.99
SELECT 2

SELECT customer FROM orders GROUP BY customer HAVING bool_and(status <> 'new') ORDER BY 1
----
customer:text
ann
SELECT 1

SELECT placed, placed + 30 AS due, (placed + interval '1 month')::date AS next_month, extract(dow FROM placed) AS dow, placed - DATE '2024-01-01' AS days_in FROM orders ORDER BY placed
----
placed:date | due:date | next_month:date | dow:numeric | days_in:int4
2024-01-03 | 2024-02-02 | 2024-02-03 | 3 | 2
2024-01-04 | 2024-02-03 | 2024-02-04 | 4 | 3
2024-02-10 | 2024-03-11 | 2024-03-10 | 6 | 40
2024-03-01 | 2024-03-31 | 2024-04-01 | 5 | 60
SELECT 4

SELECT * FROM orders WHERE customer ILIKE ANY (ARRAY['A%', '%Y']) ORDER BY id
----
id:int4 | customer:text | total:numeric | status:text | placed:date | note:text
1 | ann | 100.99 | shipped | 2024-01-03 | sent Jan 03
3 | ann | 5.00 | shipped | 2024-02-10 | sent Feb 10
SELECT 2

SELECT * FROM orders ORDER BY note DESC NULLS FIRST, id LIMIT 2 OFFSET 1
----
id:int4 | customer:text | total:numeric | status:text | placed:date | note:text
5 | bob | 42.10 | paid | 2024-03-01 | NULL
1 | ann | 100.99 | shipped | 2024-01-03 | sent Jan 03
SELECT 2

SELECT customer, total FROM orders ORDER BY total DESC, id FETCH FIRST 2 ROWS ONLY
----
customer:text | total:numeric
ann | 100.99
bob | 100.99
SELECT 2

SELECT count(*) FILTER (WHERE note IS NULL) AS no_note, count(note) AS with_note, count(DISTINCT customer) AS customers FROM orders
----
no_note:int8 | with_note:int8 | customers:int8
2 | 2 | 2
SELECT 1

WITH monthly AS (SELECT date_trunc('month', placed) AS m, sum(total) AS s FROM orders GROUP BY 1), ranked AS (SELECT m, s, rank() OVER (ORDER BY s DESC) AS r FROM monthly) SELECT to_char(m, 'YYYY-MM') AS month, s, r FROM ranked ORDER BY r, month
----
month:text | s:numeric | r:int8
2024-01 | 201.98 | 1
2024-03 | 42.10 | 2
2024-02 | 5.00 | 3
SELECT 3

SELECT id, total, lag(total) OVER w AS prev, total - lag(total) OVER w AS change FROM orders WINDOW w AS (ORDER BY id) ORDER BY id
----
id:int4 | total:numeric | prev:numeric | change:numeric
1 | 100.99 | NULL | NULL
2 | 100.99 | 100.99 | 0.00
3 | 5.00 | 100.99 | -95.99
5 | 42.10 | 5.00 | 37.10
SELECT 4

SELECT customer, percentile_cont(0.5) WITHIN GROUP (ORDER BY total) AS median, percentile_disc(0.5) WITHIN GROUP (ORDER BY total) AS disc, mode() WITHIN GROUP (ORDER BY status) FROM orders GROUP BY customer ORDER BY customer
----
customer:text | median:float8 | disc:numeric | mode:text
ann | 52.995 | 5.00 | shipped
bob | 71.545 | 42.10 | new
SELECT 2

SELECT percentile_cont(0.25) WITHIN GROUP (ORDER BY x), percentile_disc(0.75) WITHIN GROUP (ORDER BY x DESC), percentile_cont(0.5) WITHIN GROUP (ORDER BY i) FROM (VALUES (1.0, interval '1 hour'), (2, interval '3 hours'), (4, NULL), (NULL, interval '10 hours')) v(x, i)
----
percentile_cont:float8 | percentile_disc:numeric | percentile_cont:interval
1.5 | 1.0 | 03:00:00
SELECT 1

SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY total) FROM orders
----
ERROR 22003: percentile value 1.5 is not between 0 and 1

SELECT percentile_cont(0.5) FROM orders
----
ERROR 42883 at 8: function percentile_cont(numeric) does not exist

SELECT id FROM orders WHERE id = ANY (SELECT id FROM orders WHERE total > 20) ORDER BY id
----
id:int4
1
2
5
SELECT 3

SELECT id, total FROM orders WHERE (customer, status) IN (SELECT customer, status FROM orders WHERE total > 40) ORDER BY id
----
id:int4 | total:numeric
1 | 100.99
2 | 100.99
3 | 5.00
5 | 42.10
SELECT 4

SELECT * FROM orders FOR UPDATE
----
id:int4 | customer:text | total:numeric | status:text | placed:date | note:text
1 | ann | 100.99 | shipped | 2024-01-03 | sent Jan 03
2 | bob | 100.99 | new | 2024-01-04 | NULL
3 | ann | 5.00 | shipped | 2024-02-10 | sent Feb 10
5 | bob | 42.10 | paid | 2024-03-01 | NULL
SELECT 4

SELECT customer || ' spent ' || sum(total) AS line FROM orders GROUP BY customer ORDER BY line
----
line:text
ann spent 105.99
bob spent 143.09
SELECT 2

SELECT greatest(total, 20), least(total, 20), abs(total - 20) FROM orders ORDER BY id
----
greatest:numeric | least:numeric | abs:numeric
100.99 | 20 | 80.99
100.99 | 20 | 80.99
20 | 5.00 | 15.00
42.10 | 20 | 22.10
SELECT 4

SELECT to_char(total, 'FM999G990D00') AS money, round(total * 1.19, 2) AS with_tax, floor(total), ceil(total) FROM orders ORDER BY id
----
money:text | with_tax:numeric | floor:numeric | ceil:numeric
100.99 | 120.18 | 100 | 101
100.99 | 120.18 | 100 | 101
5.00 | 5.95 | 5 | 5
42.10 | 50.10 | 42 | 43
SELECT 4

SELECT left(customer, 1) AS initial, upper(customer), length(customer), position('n' IN customer) FROM orders ORDER BY id
----
initial:text | upper:text | length:int4 | position:int4
a | ANN | 3 | 2
b | BOB | 3 | 0
a | ANN | 3 | 2
b | BOB | 3 | 0
SELECT 4

SELECT placed::text, placed::timestamp, placed::timestamptz, to_char(placed, 'Day') FROM orders ORDER BY id LIMIT 1
----
placed:text | placed:timestamp | placed:timestamptz | to_char:text
2024-01-03 | 2024-01-03 00:00:00 | 2024-01-03 00:00:00+00 | Wednesday
SELECT 1

CREATE TABLE events (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), at timestamptz NOT NULL DEFAULT now(), payload jsonb NOT NULL)
----
CREATE TABLE

INSERT INTO events (payload) VALUES ('{"type": "click", "x": 1}'), ('{"type": "view", "page": "/a"}'), ('{"type": "click", "x": 3}')
----
INSERT 0 3

SELECT payload->>'type' AS type, count(*), sum((payload->>'x')::int) AS xs FROM events GROUP BY 1 ORDER BY 1
----
type:text | count:int8 | xs:int8
click | 2 | 4
view | 1 | NULL
SELECT 2

SELECT count(*) FROM events WHERE payload @> '{"type": "click"}' AND at <= now()
----
count:int8
2
SELECT 1

SELECT payload->>'page' FROM events WHERE payload ? 'page'
----
?column?:text
/a
SELECT 1

UPDATE events SET payload = payload || '{"seen": true}' WHERE payload->>'type' = 'view' RETURNING payload
----
payload:jsonb
"{\"page\": \"/a\", \"seen\": true, \"type\": \"view\"}"
UPDATE 1

SELECT jsonb_object_agg(payload->>'type', payload->'x' ORDER BY payload->>'type', payload->>'x') FILTER (WHERE payload ? 'x') FROM events
----
jsonb_object_agg:jsonb
"{\"click\": 3}"
SELECT 1

SELECT length(id::text) = 36 AS is_uuid FROM events LIMIT 1
----
is_uuid:bool
t
SELECT 1
