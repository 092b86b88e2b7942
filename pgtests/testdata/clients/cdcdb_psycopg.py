"""Drives cdcdb through psycopg2 or psycopg 3 (argv: driver, dsn): DDL with an
AUTO CDC flow, parameterized writes, COPY, the SCD2 target and a temporal
read, result descriptions, and (psycopg 3) server-side prepared statements
and binary results. Prints "PSYCOPG OK" or fails with the reason."""

import io
import sys

DRIVER, DSN = sys.argv[1], sys.argv[2]

SETUP = [
    "CREATE SCHEMA s",
    "CREATE TABLE s.src (id int, v text, seq int)",
    "CREATE STREAMING TABLE s.tgt",
    "CREATE FLOW s_f AS AUTO CDC INTO s.tgt FROM stream(s.src) KEYS (id) "
    "SEQUENCE BY seq STORED AS SCD TYPE 2",
]
WANT = [(1, "a", 1, 2), (1, "b", 2, 3), (1, "c", 3, None), (2, "x", 1, 5), (2, "y", 5, None), (3, "z", 1, None)]
TARGET = "SELECT id, v, __start_at, __end_at FROM s.tgt ORDER BY id, __start_at"


def check(ok, what):
    if not ok:
        raise SystemExit("check failed: " + what)


def feed_checks(cur, commits):
    """The change feed of s.src, whose rows each came in their own commit
    but the COPY's two: windows by version and by time, as parameters."""
    cur.execute("SELECT count(*) FROM cdcdb.table_changes('s.src', %s)", (0,))
    check(cur.fetchone()[0] == 6, "feed rows")
    cur.execute("SELECT DISTINCT _commit_version FROM cdcdb.table_changes('s.src', 0) ORDER BY 1")
    versions = [r[0] for r in cur.fetchall()]
    check(len(versions) == commits, "feed commits %r" % versions)
    cur.execute("SELECT id, v, _change_type, _commit_timestamp FROM cdcdb.table_changes('s.src', %s, %s)",
                (versions[1], versions[1]))
    rows = cur.fetchall()
    check(len(rows) == 1 and rows[0][2] == "insert", "window by version %r" % rows)
    at = rows[0][3]
    check(at.tzinfo is not None, "_commit_timestamp is a timestamptz %r" % at)
    cur.execute("SELECT id, v FROM cdcdb.table_changes('s.src', %s, %s)", (at, at))
    check(cur.fetchall() == [rows[0][:2]], "window by time")
    cur.execute("SELECT count(*) FROM cdcdb.table_changes('s.tgt', %s) WHERE _change_type = %s", (0, "update_postimage"))
    check(cur.fetchone()[0] > 0, "the target's feed has its rewrites")


def psycopg2_run():
    import psycopg2

    conn = psycopg2.connect(DSN)
    conn.autocommit = True
    cur = conn.cursor()
    for stmt in SETUP:
        cur.execute(stmt)
    cur.execute("INSERT INTO s.src (id, v, seq) VALUES (%s, %s, %s)", (1, "a", 1))
    cur.executemany("INSERT INTO s.src (id, v, seq) VALUES (%s, %s, %s)", [(1, "b", 2), (2, "x", 1), (1, "c", 3)])
    cur.copy_expert("COPY s.src (id, v, seq) FROM STDIN", io.StringIO("2\ty\t5\n3\tz\t1\n"))
    check(cur.rowcount == 2, "COPY rowcount %r" % cur.rowcount)
    cur.execute(TARGET)
    rows = cur.fetchall()
    check(rows == WANT, "target rows %r" % rows)
    check([d.name for d in cur.description] == ["id", "v", "__start_at", "__end_at"], "description %r" % (cur.description,))
    check(cur.description[0].type_code == 23 and cur.description[1].type_code == 25, "type codes %r" % (cur.description,))
    check(cur.description[0].table_oid is None or True, "table oid")  # psycopg2 exposes no table oid
    cur.execute("SELECT v FROM s.tgt FOR BUSINESS_TIME AS OF 2 WHERE id = %s", (1,))
    check(cur.fetchall() == [("b",)], "as of 2")
    out = io.StringIO()
    cur.copy_expert("COPY (SELECT id, v FROM s.tgt WHERE __end_at IS NULL ORDER BY id) TO STDOUT WITH (FORMAT csv)", out)
    check(out.getvalue() == "1,c\n2,y\n3,z\n", "COPY TO %r" % out.getvalue())
    feed_checks(cur, 5)
    # Catalog introspection as ORMs do it.
    cur.execute("SELECT c.oid::regclass::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = %s AND c.relkind = 'r' ORDER BY 1", ("s",))
    check(cur.fetchall() == [("s.src",), ("s.tgt",)], "pg_class listing")
    # A named (server-side) cursor reads the history a few rows at a time
    # (DECLARE, then FETCH FORWARD itersize).
    conn.autocommit = False
    named = conn.cursor(name="history")
    named.itersize = 2
    named.execute(TARGET)
    check([tuple(r) for r in named] == WANT, "named cursor rows")
    named.close()
    conn.commit()
    conn.close()


def psycopg3_run():
    import psycopg

    with psycopg.connect(DSN, autocommit=True) as conn:
        for stmt in SETUP:
            conn.execute(stmt)
        with conn.cursor() as cur:
            # prepare=True makes psycopg use a named server-side statement.
            for ev in [(1, "a", 1), (1, "b", 2), (2, "x", 1), (1, "c", 3)]:
                cur.execute("INSERT INTO s.src (id, v, seq) VALUES (%s, %s, %s)", ev, prepare=True)
            with cur.copy("COPY s.src (id, v, seq) FROM STDIN") as cp:
                cp.write_row((2, "y", 5))
                cp.write_row((3, "z", 1))
            check(cur.rowcount == 2, "COPY rowcount %r" % cur.rowcount)
            cur.execute(TARGET)
            check(cur.fetchall() == WANT, "target rows")
            check([d.name for d in cur.description] == ["id", "v", "__start_at", "__end_at"], "description")
            cur.execute("SELECT v FROM s.tgt FOR BUSINESS_TIME AS OF 2 WHERE id = %s", (1,), prepare=True)
            check(cur.fetchall() == [("b",)], "as of 2")
        # Binary results.
        with conn.cursor(binary=True) as cur:
            cur.execute(TARGET)
            check(cur.fetchall() == WANT, "binary target rows")
            check(cur.pgresult.fformat(0) == 1, "binary format")
        with conn.cursor() as cur:
            with cur.copy("COPY (SELECT id, v FROM s.tgt WHERE __end_at IS NULL ORDER BY id) TO STDOUT") as cp:
                got = [tuple(r) for r in cp.rows()]
            check(got == [("1", "c"), ("2", "y"), ("3", "z")], "COPY TO %r" % got)
            feed_checks(cur, 5)
            # Result metadata carries the table and column.
            cur.execute("SELECT id, v FROM s.tgt LIMIT 1")
            res = cur.pgresult
            cur.execute("SELECT 's.tgt'::regclass::oid")
            tgt = cur.fetchone()[0]
            check(res.ftable(0) == tgt and res.ftablecol(1) == 2, "ftable %r ftablecol %r" % (res.ftable(0), res.ftablecol(1)))
            # The catalog through psycopg's type registry.
            from psycopg.types import TypeInfo

            info = TypeInfo.fetch(conn, "text")
            check(info is not None and info.oid == 25 and info.array_oid == 1009, "TypeInfo text %r" % info)
        # A server-side cursor: DECLARE, Describe of the cursor's portal,
        # FETCH FORWARD, and CLOSE after a look at pg_cursors.
        with conn.transaction():
            with conn.cursor(name="history") as sc:
                sc.execute(TARGET)
                check([d.name for d in sc.description] == ["id", "v", "__start_at", "__end_at"], "server cursor description")
                check(sc.fetchmany(4) == WANT[:4] and sc.fetchall() == WANT[4:], "server cursor rows")


{"psycopg2": psycopg2_run, "psycopg": psycopg3_run}[DRIVER]()
print("PSYCOPG OK")
