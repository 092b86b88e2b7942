"""Drives cdcdb through psqlODBC with UseDeclareFetch=1 (odbc-postgresql,
via unixODBC and pyodbc) in manual-commit mode: results read through
cursors a few rows per FETCH, and statement-level rollback (Protocol=7.4-2, level 2: statement),
for which the driver sets a savepoint before each statement of a
transaction and rolls back to it when the statement fails, so the
transaction goes on and commits what succeeded.
argv: host port. Prints "ODBC DECLAREFETCH OK" or fails with the reason."""

import sys

import pyodbc

HOST, PORT = sys.argv[1], sys.argv[2]
DRIVER = "/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so"


def check(ok, what):
    if not ok:
        raise SystemExit("check failed: " + what)


conn = pyodbc.connect(
    "DRIVER={%s};SERVER=%s;PORT=%s;DATABASE=main;UID=cdcdb;PWD=;SSLmode=disable;"
    "UseDeclareFetch=1;Fetch=3;Protocol=7.4-2" % (DRIVER, HOST, PORT),
    autocommit=False,
)
cur = conn.cursor()
cur.execute("CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL)")
conn.commit()

for i in range(1, 11):
    cur.execute("INSERT INTO items VALUES (?, ?)", i, "item%d" % i)
# A failing statement: the driver rolls back to its savepoint, and the
# rows before it stay in the transaction.
try:
    cur.execute("INSERT INTO items VALUES (?, ?)", 3, "duplicate")
    check(False, "the duplicate key was accepted")
except pyodbc.IntegrityError:
    pass
cur.execute("INSERT INTO items VALUES (?, ?)", 11, "item11")
cur.execute("SELECT id, name FROM items ORDER BY id")
rows = [tuple(r) for r in cur.fetchall()]  # several FETCHes of 3 rows
check(rows == [(i, "item%d" % i) for i in range(1, 12)], "rows inside the transaction %r" % rows)
conn.commit()

# Reading in pieces while writing in the same transaction.
cur.execute("SELECT id FROM items WHERE id <= 4 ORDER BY id")
first = cur.fetchone()
check(first[0] == 1, "first row %r" % (first,))
cur2 = conn.cursor()
cur2.execute("UPDATE items SET name = 'changed' WHERE id = 1")
rest = [r[0] for r in cur.fetchall()]
check(rest == [2, 3, 4], "rest of the cursor %r" % rest)
conn.rollback()

cur.execute("SELECT count(*), min(name) FROM items")
check(tuple(cur.fetchone()) == (11, "item1"), "after rollback")
conn.commit()
conn.close()
print("ODBC DECLAREFETCH OK")
