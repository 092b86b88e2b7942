# Transaction blocks: what a block's statements see, rollback, failed blocks.

CREATE TABLE acct (id int PRIMARY KEY, bal int)
----
CREATE TABLE

BEGIN
----
BEGIN

INSERT INTO acct VALUES (1, 100)
----
INSERT 0 1

SELECT bal FROM acct
----
bal:int4
100
SELECT 1

ROLLBACK
----
ROLLBACK

SELECT count(*) FROM acct
----
count:int8
0
SELECT 1

BEGIN
----
BEGIN

INSERT INTO acct VALUES (1, 100), (2, 50)
----
INSERT 0 2

UPDATE acct SET bal = bal - 10 WHERE id = 1
----
UPDATE 1

COMMIT
----
COMMIT

SELECT * FROM acct ORDER BY id
----
id:int4 | bal:int4
1 | 90
2 | 50
SELECT 2

BEGIN
----
BEGIN

INSERT INTO acct VALUES (1, 0)
----
ERROR 23505: duplicate key value violates unique constraint "acct_pkey"

SELECT 1
----
ERROR 25P02: current transaction is aborted, commands ignored until end of transaction block

COMMIT
----
ROLLBACK

SELECT * FROM acct ORDER BY id
----
id:int4 | bal:int4
1 | 90
2 | 50
SELECT 2

START TRANSACTION
----
START TRANSACTION

CREATE TABLE tx_made (x int)
----
CREATE TABLE

INSERT INTO tx_made VALUES (1)
----
INSERT 0 1

ROLLBACK
----
ROLLBACK

SELECT * FROM tx_made
----
ERROR 42P01 at 15: relation "tx_made" does not exist

COMMIT
----
COMMIT

ROLLBACK
----
ROLLBACK

BEGIN
----
BEGIN

BEGIN
----
BEGIN

END
----
COMMIT
