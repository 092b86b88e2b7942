"""Drives cdcdb through psqlODBC (odbc-postgresql, via unixODBC and pyodbc):
DDL with an AUTO CDC flow, parameterized writes, the SCD2 target and a
temporal read, and the catalog calls BI tools make through ODBC: SQLTables,
SQLColumns, SQLPrimaryKeys, SQLStatistics, SQLForeignKeys, SQLGetTypeInfo.
argv: host port. Prints "ODBC OK" or fails with the reason."""

import sys

import pyodbc

HOST, PORT = sys.argv[1], sys.argv[2]
DRIVER = "/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so"


def check(ok, what):
    if not ok:
        raise SystemExit("check failed: " + what)


conn = pyodbc.connect(
    "DRIVER={%s};SERVER=%s;PORT=%s;DATABASE=main;UID=cdcdb;PWD=;SSLmode=disable" % (DRIVER, HOST, PORT),
    autocommit=True,
)
cur = conn.cursor()
for stmt in [
    "CREATE SCHEMA s",
    "CREATE TABLE s.src (id int, v text, seq int)",
    "CREATE STREAMING TABLE s.tgt",
    "CREATE FLOW s_f AS AUTO CDC INTO s.tgt FROM stream(s.src) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2",
    "CREATE TABLE s.items (id int PRIMARY KEY, name varchar(20) NOT NULL)",
    "CREATE INDEX items_name ON s.items (name)",
    "CREATE TABLE s.orders (id int PRIMARY KEY, item int REFERENCES s.items (id) ON DELETE CASCADE)",
]:
    cur.execute(stmt)
for ev in [(1, "a", 1), (1, "b", 2), (2, "x", 1), (1, "c", 3)]:
    cur.execute("INSERT INTO s.src (id, v, seq) VALUES (?, ?, ?)", *ev)
cur.execute("SELECT id, v, __start_at, __end_at FROM s.tgt ORDER BY id, __start_at")
rows = [tuple(r) for r in cur.fetchall()]
check(rows == [(1, "a", 1, 2), (1, "b", 2, 3), (1, "c", 3, None), (2, "x", 1, None)], "target rows %r" % rows)
check([d[0] for d in cur.description] == ["id", "v", "__start_at", "__end_at"], "description %r" % (cur.description,))
cur.execute("SELECT v FROM s.tgt FOR BUSINESS_TIME AS OF 2 WHERE id = ?", 1)
check([tuple(r) for r in cur.fetchall()] == [("b",)], "as of 2")

tables = sorted(r.table_name for r in cur.tables(schema="s", tableType="TABLE").fetchall())
check(tables == ["items", "orders", "src", "tgt"], "SQLTables %r" % tables)
cols = [(r.column_name, r.type_name, r.ordinal_position) for r in cur.columns(table="tgt", schema="s").fetchall()]
check(cols == [("id", "int4", 1), ("v", "text", 2), ("seq", "int4", 3), ("__start_at", "int4", 4), ("__end_at", "int4", 5)],
      "SQLColumns %r" % cols)
name = [r for r in cur.columns(table="items", schema="s").fetchall() if r.column_name == "name"]
check(len(name) == 1 and name[0].column_size == 20 and name[0].nullable == 0, "items.name %r" % name)
pk = [(r.column_name, r.key_seq, r.pk_name) for r in cur.primaryKeys(table="items", schema="s").fetchall()]
check(pk == [("id", 1, "items_pkey")], "SQLPrimaryKeys %r" % pk)
stats = sorted((r.index_name, r.column_name, r.non_unique) for r in cur.statistics(table="items", schema="s").fetchall()
               if r.index_name is not None)
check(stats == [("items_name", "name", 1), ("items_pkey", "id", 0)], "SQLStatistics %r" % stats)
fks = [(r.fkcolumn_name, r.pktable_name, r.pkcolumn_name, r.delete_rule, r.fk_name)
       for r in cur.foreignKeys(foreignTable="orders", foreignSchema="s").fetchall()]
check(fks == [("item", "items", "id", 0, "orders_item_fkey")], "SQLForeignKeys %r" % fks)  # 0: SQL_CASCADE
types = {r.type_name for r in cur.getTypeInfo().fetchall()}
check({"int4", "text", "varchar", "timestamptz"} <= types, "SQLGetTypeInfo %r" % sorted(types))
conn.close()
print("ODBC OK")
