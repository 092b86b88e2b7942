-- The schema both servers get: plain PostgreSQL DDL. The streaming table
-- s.tgt is made per server (see psqlmeta_test.go): by an AUTO CDC flow on
-- cdcdb, as a plain table with the same columns on PostgreSQL.
CREATE SCHEMA s;
CREATE TABLE s.src (id int, v text, seq int);
CREATE TABLE public.customers (
  id integer PRIMARY KEY,
  name varchar(40) NOT NULL DEFAULT 'anon',
  email text UNIQUE,
  balance numeric(12,2) DEFAULT 0,
  active boolean NOT NULL DEFAULT true,
  created timestamptz DEFAULT now()
);
CREATE INDEX customers_name ON customers (name);
CREATE TABLE public.orders (
  id bigint PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  placed date DEFAULT '2024-01-01',
  amount numeric(10,2) CHECK (amount > 0),
  code varchar(8) CHECK (length(code) >= 2),
  note text,
  CONSTRAINT orders_note_or_code CHECK (note IS NOT NULL OR code IN ('a', 'b'))
);
CREATE UNIQUE INDEX orders_customer_placed ON orders (customer_id, placed DESC);
CREATE TABLE public.tags (id serial PRIMARY KEY, label text NOT NULL, big bigserial);
CREATE VIEW public.big_customers AS SELECT id, name FROM customers WHERE balance > 100;
COMMENT ON TABLE customers IS 'people who buy';
COMMENT ON COLUMN customers.email IS 'where to write';
INSERT INTO customers (id, name, email) VALUES (1, 'ann', 'a@example.com'), (2, 'bob', NULL);
