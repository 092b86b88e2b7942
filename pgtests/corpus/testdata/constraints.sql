# PRIMARY KEY, UNIQUE, NOT NULL, CHECK, DEFAULT and FOREIGN KEY.

CREATE TABLE parent (id int PRIMARY KEY, code text UNIQUE NOT NULL, rank int CHECK (rank BETWEEN 1 AND 10) DEFAULT 5)
----
CREATE TABLE

INSERT INTO parent (id, code) VALUES (1, 'a') RETURNING rank
----
rank:int4
5
INSERT 0 1

INSERT INTO parent VALUES (2, 'b', 10), (3, 'c', 1)
----
INSERT 0 2

INSERT INTO parent VALUES (1, 'z', 1)
----
ERROR 23505: duplicate key value violates unique constraint "parent_pkey"

INSERT INTO parent VALUES (4, 'a', 1)
----
ERROR 23505: duplicate key value violates unique constraint "parent_code_key"

INSERT INTO parent VALUES (NULL, 'n', 1)
----
ERROR 23502: null value in column "id" of relation "parent" violates not-null constraint

INSERT INTO parent VALUES (5, NULL, 1)
----
ERROR 23502: null value in column "code" of relation "parent" violates not-null constraint

INSERT INTO parent VALUES (6, 'f', 11)
----
ERROR 23514: new row for relation "parent" violates check constraint "parent_rank_check"

INSERT INTO parent VALUES (6, 'f', NULL) RETURNING rank
----
rank:int4
NULL
INSERT 0 1

UPDATE parent SET code = 'b' WHERE id = 1
----
ERROR 23505: duplicate key value violates unique constraint "parent_code_key"

UPDATE parent SET id = 2 WHERE id = 1
----
ERROR 23505: duplicate key value violates unique constraint "parent_pkey"

UPDATE parent SET rank = 0 WHERE id = 1
----
ERROR 23514: new row for relation "parent" violates check constraint "parent_rank_check"

UPDATE parent SET id = id + 10 RETURNING id
----
id:int4
11
12
13
16
UPDATE 4

CREATE TABLE multi (a int, b int, c text, PRIMARY KEY (a, b), CONSTRAINT c_not_empty CHECK (c <> ''), UNIQUE (c))
----
CREATE TABLE

INSERT INTO multi VALUES (1, 1, 'x'), (1, 2, 'y'), (2, 1, NULL), (3, 1, NULL)
----
INSERT 0 4

INSERT INTO multi VALUES (1, 1, 'z')
----
ERROR 23505: duplicate key value violates unique constraint "multi_pkey"

INSERT INTO multi VALUES (9, 9, '')
----
ERROR 23514: new row for relation "multi" violates check constraint "c_not_empty"

INSERT INTO multi VALUES (9, 9, 'x')
----
ERROR 23505: duplicate key value violates unique constraint "multi_c_key"

SELECT * FROM multi ORDER BY a, b
----
a:int4 | b:int4 | c:text
1 | 1 | x
1 | 2 | y
2 | 1 | NULL
3 | 1 | NULL
SELECT 4

CREATE TABLE defaults (id int, made timestamptz DEFAULT now(), tag text DEFAULT 'none', n int DEFAULT 1 + 2, flag bool DEFAULT false)
----
CREATE TABLE

INSERT INTO defaults (id) VALUES (1) RETURNING made IS NOT NULL AS has_time, tag, n, flag
----
has_time:bool | tag:text | n:int4 | flag:bool
t | none | 3 | f
INSERT 0 1

INSERT INTO defaults VALUES (2, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING tag, n
----
tag:text | n:int4
none | 3
INSERT 0 1

CREATE TABLE bad_default (x int DEFAULT 'abc')
----
ERROR 22P02 at 41: invalid input syntax for type integer: "abc"

CREATE TABLE bad_default (x int DEFAULT y)
----
ERROR 0A000 at 41: cannot use column reference in DEFAULT expression

CREATE TABLE checks (x int, y int, CHECK (x < y))
----
CREATE TABLE

INSERT INTO checks VALUES (1, 2), (NULL, 1)
----
INSERT 0 2

INSERT INTO checks VALUES (2, 1)
----
ERROR 23514: new row for relation "checks" violates check constraint "checks_check"

CREATE TABLE named_check (v int CONSTRAINT v_pos CHECK (v > 0))
----
CREATE TABLE

INSERT INTO named_check VALUES (-1)
----
ERROR 23514: new row for relation "named_check" violates check constraint "v_pos"

# Foreign keys.
CREATE TABLE author (id int PRIMARY KEY, name text)
----
CREATE TABLE

CREATE TABLE book (id int PRIMARY KEY, author_id int REFERENCES author (id), title text)
----
CREATE TABLE

INSERT INTO author VALUES (1, 'tolkien'), (2, 'austen'), (3, 'unread')
----
INSERT 0 3

INSERT INTO book VALUES (10, 1, 'hobbit'), (11, 1, 'lotr'), (12, 2, 'emma'), (13, NULL, 'anon')
----
INSERT 0 4

INSERT INTO book VALUES (14, 99, 'ghost')
----
ERROR 23503: insert or update on table "book" violates foreign key constraint "book_author_id_fkey"

UPDATE book SET author_id = 98 WHERE id = 10
----
ERROR 23503: insert or update on table "book" violates foreign key constraint "book_author_id_fkey"

UPDATE book SET author_id = 3 WHERE id = 10 RETURNING author_id
----
author_id:int4
3
UPDATE 1

DELETE FROM author WHERE id = 2
----
ERROR 23503: update or delete on table "author" violates foreign key constraint "book_author_id_fkey" on table "book"

UPDATE author SET id = 20 WHERE id = 2
----
ERROR 23503: update or delete on table "author" violates foreign key constraint "book_author_id_fkey" on table "book"

DELETE FROM author WHERE id = 1
----
ERROR 23503: update or delete on table "author" violates foreign key constraint "book_author_id_fkey" on table "book"

DELETE FROM book WHERE author_id = 2
----
DELETE 1

DELETE FROM author WHERE id = 2 RETURNING name
----
name:text
austen
DELETE 1

UPDATE author SET id = 30 WHERE id = 3
----
ERROR 23503: update or delete on table "author" violates foreign key constraint "book_author_id_fkey" on table "book"

SELECT b.title, a.name FROM book b LEFT JOIN author a ON a.id = b.author_id ORDER BY b.id
----
title:text | name:text
hobbit | unread
lotr | tolkien
anon | NULL
SELECT 3

CREATE TABLE chapter (book_id int REFERENCES book ON DELETE CASCADE, n int, PRIMARY KEY (book_id, n))
----
CREATE TABLE

INSERT INTO chapter VALUES (11, 1), (11, 2), (12, 1)
----
ERROR 23503: insert or update on table "chapter" violates foreign key constraint "chapter_book_id_fkey"

DELETE FROM book WHERE id = 11
----
DELETE 1

SELECT * FROM chapter ORDER BY book_id, n
----
SELECT 0

CREATE TABLE review (id int PRIMARY KEY, book_id int, stars int, FOREIGN KEY (book_id) REFERENCES book (id) ON DELETE SET NULL ON UPDATE CASCADE)
----
CREATE TABLE

INSERT INTO review VALUES (1, 12, 5), (2, 13, 3)
----
ERROR 23503: insert or update on table "review" violates foreign key constraint "review_book_id_fkey"

UPDATE book SET id = 120 WHERE id = 12
----
UPDATE 0

SELECT * FROM review ORDER BY id
----
SELECT 0

DELETE FROM book WHERE id = 13
----
DELETE 1

SELECT * FROM review ORDER BY id
----
SELECT 0

CREATE TABLE pair_parent (a int, b int, PRIMARY KEY (a, b))
----
CREATE TABLE

CREATE TABLE pair_child (x int, y int, CONSTRAINT pc_fk FOREIGN KEY (x, y) REFERENCES pair_parent (a, b))
----
CREATE TABLE

INSERT INTO pair_parent VALUES (1, 1)
----
INSERT 0 1

INSERT INTO pair_child VALUES (1, 1), (1, NULL), (NULL, 5)
----
INSERT 0 3

INSERT INTO pair_child VALUES (1, 2)
----
ERROR 23503: insert or update on table "pair_child" violates foreign key constraint "pc_fk"

CREATE TABLE bad_fk (x int REFERENCES nosuch)
----
ERROR 42P01: relation "nosuch" does not exist

CREATE TABLE bad_fk (x int REFERENCES author (name))
----
ERROR 42830: there is no unique constraint matching given keys for referenced table "author"

CREATE TABLE bad_fk (x text REFERENCES author (id))
----
ERROR 42804: foreign key constraint "bad_fk_x_fkey" cannot be implemented

ALTER TABLE book ADD CONSTRAINT title_fk FOREIGN KEY (title) REFERENCES author (name)
----
ERROR 42830: there is no unique constraint matching given keys for referenced table "author"

ALTER TABLE review ADD CONSTRAINT stars_fk FOREIGN KEY (stars) REFERENCES author (id)
----
ALTER TABLE

DELETE FROM review WHERE stars = 5
----
DELETE 0

ALTER TABLE review ADD CONSTRAINT stars_fk FOREIGN KEY (stars) REFERENCES author (id)
----
ERROR 42710: constraint "stars_fk" for relation "review" already exists

INSERT INTO review VALUES (5, NULL, 2)
----
ERROR 23503: insert or update on table "review" violates foreign key constraint "stars_fk"

DROP TABLE author
----
ERROR 2BP01: cannot drop table author because other objects depend on it

DROP TABLE chapter, review, pair_child
----
DROP TABLE

TRUNCATE author
----
ERROR 0A000: cannot truncate a table referenced in a foreign key constraint

ALTER TABLE book DROP CONSTRAINT book_author_id_fkey
----
ALTER TABLE

DELETE FROM author WHERE id = 30 RETURNING id
----
DELETE 0

# More foreign keys: self references, statement-end checks, SET DEFAULT,
# RESTRICT, unique (non-key) targets, cascades through several tables.
CREATE TABLE node (id int PRIMARY KEY, parent int REFERENCES node ON DELETE CASCADE, label text)
----
CREATE TABLE

INSERT INTO node VALUES (1, NULL, 'root'), (2, 1, 'a'), (3, 2, 'b'), (4, 4, 'self')
----
INSERT 0 4

INSERT INTO node VALUES (6, 5, 'later'), (5, 1, 'earlier')
----
INSERT 0 2

INSERT INTO node VALUES (7, 70, 'orphan')
----
ERROR 23503: insert or update on table "node" violates foreign key constraint "node_parent_fkey"

DELETE FROM node WHERE id = 1
----
DELETE 1

SELECT id, parent, label FROM node ORDER BY id
----
id:int4 | parent:int4 | label:text
4 | 4 | self
SELECT 1

CREATE TABLE team (code text UNIQUE, name text)
----
CREATE TABLE

INSERT INTO team VALUES ('red', 'Red'), ('blue', 'Blue')
----
INSERT 0 2

CREATE TABLE member (id int PRIMARY KEY, team_code text DEFAULT 'red' REFERENCES team (code) ON UPDATE RESTRICT ON DELETE SET DEFAULT)
----
CREATE TABLE

INSERT INTO member VALUES (1, 'blue'), (2, 'red'), (3, NULL)
----
INSERT 0 3

UPDATE team SET code = 'azure' WHERE code = 'blue'
----
ERROR 23503: update or delete on table "team" violates foreign key constraint "member_team_code_fkey" on table "member"

DELETE FROM team WHERE code = 'blue'
----
DELETE 1

SELECT id, team_code FROM member ORDER BY id
----
id:int4 | team_code:text
1 | red
2 | red
3 | NULL
SELECT 3

DELETE FROM team WHERE code = 'red'
----
ERROR 23503: update or delete on table "team" violates foreign key constraint "member_team_code_fkey" on table "member"

CREATE TABLE account (id int PRIMARY KEY)
----
CREATE TABLE

CREATE TABLE ledger (id int PRIMARY KEY, account_id int NOT NULL REFERENCES account ON UPDATE CASCADE)
----
CREATE TABLE

INSERT INTO account VALUES (1), (2)
----
INSERT 0 2

INSERT INTO ledger VALUES (10, 1), (11, 1), (12, 2)
----
INSERT 0 3

UPDATE account SET id = id + 100
----
UPDATE 2

SELECT id, account_id FROM ledger ORDER BY id
----
id:int4 | account_id:int4
10 | 101
11 | 101
12 | 102
SELECT 3

UPDATE account SET id = 1 WHERE id = 101
----
UPDATE 1

UPDATE ledger SET account_id = 999 WHERE id = 10
----
ERROR 23503: insert or update on table "ledger" violates foreign key constraint "ledger_account_id_fkey"

CREATE TABLE entry_note (ledger_id int REFERENCES ledger ON DELETE CASCADE, note text)
----
CREATE TABLE

INSERT INTO entry_note VALUES (10, 'x'), (11, 'y'), (12, 'z')
----
INSERT 0 3

TRUNCATE ledger
----
ERROR 0A000: cannot truncate a table referenced in a foreign key constraint

TRUNCATE ledger CASCADE
----
TRUNCATE TABLE

SELECT count(*) FROM entry_note
----
count:int8
0
SELECT 1

DROP TABLE ledger
----
ERROR 2BP01: cannot drop table ledger because other objects depend on it

DROP TABLE ledger CASCADE
----
DROP TABLE

INSERT INTO entry_note VALUES (99, 'no longer checked')
----
INSERT 0 1

CREATE TABLE bad_count (a int, b int, FOREIGN KEY (a, b) REFERENCES account (id))
----
ERROR 42830: number of referencing and referenced columns for foreign key disagree

CREATE TABLE no_pk (x int)
----
CREATE TABLE

CREATE TABLE to_no_pk (y int REFERENCES no_pk)
----
ERROR 42704: there is no primary key for referenced table "no_pk"

# ADD CONSTRAINT holds the existing rows to the new constraint only: a CHECK
# whose answer changed since the rows were written (it reads a setting) is
# not asked again, and still applies to new rows.
CREATE TABLE ck_setting (a int CONSTRAINT below_max CHECK (a < current_setting('ck.max')::int))
----
CREATE TABLE

SET ck.max = '10'
----
SET

INSERT INTO ck_setting VALUES (5)
----
INSERT 0 1

SET ck.max = '1'
----
SET

ALTER TABLE ck_setting ADD CONSTRAINT positive CHECK (a > 0)
----
ALTER TABLE

ALTER TABLE ck_setting ADD CONSTRAINT small CHECK (a < 3)
----
ERROR 23514: check constraint "small" of relation "ck_setting" is violated by some row

INSERT INTO ck_setting VALUES (2)
----
ERROR 23514: new row for relation "ck_setting" violates check constraint "below_max"

INSERT INTO ck_setting VALUES (0)
----
ERROR 23514: new row for relation "ck_setting" violates check constraint "positive"

SELECT conname FROM pg_constraint WHERE conrelid = 'ck_setting'::regclass ORDER BY conname
----
conname:name
below_max
positive
SELECT 2
